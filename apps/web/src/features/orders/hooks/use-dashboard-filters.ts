import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'wouter';
import { dashboardFiltersToParams, parseDashboardFilters, withFilter, type DashboardFilters } from '@app/domain/dashboard/rules';

type FilterChange = Partial<Omit<DashboardFilters, 'page'>>;

/**
 * SPEC §2 "Order list": the filters live in the address bar (back, refresh and a shared link keep them);
 * any filter or search change resets the page to 1.
 */
export const useDashboardFilters = () => {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => parseDashboardFilters(searchParams), [searchParams]);

  const setFilter = useCallback(
    (change: FilterChange, options: { replace?: boolean } = {}) =>
      setSearchParams((current) => dashboardFiltersToParams(withFilter(parseDashboardFilters(current), change)), options),
    [setSearchParams],
  );
  const setPage = useCallback(
    (page: number) => setSearchParams((current) => dashboardFiltersToParams({ ...parseDashboardFilters(current), page })),
    [setSearchParams],
  );
  const clear = useCallback(() => setSearchParams(new URLSearchParams()), [setSearchParams]);
  return { filters, setFilter, setPage, clear };
};
