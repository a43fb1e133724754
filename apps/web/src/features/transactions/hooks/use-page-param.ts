import { useCallback } from 'react';
import { useSearchParams } from 'wouter';

const PAGE_PARAM = 'page';

/** The page number lives in the address bar (back, refresh and a shared link keep it); 1 is left out. */
export const usePageParam = (): [number, (page: number) => void] => {
  const [searchParams, setSearchParams] = useSearchParams();
  const raw = Number(searchParams.get(PAGE_PARAM));
  const page = Number.isSafeInteger(raw) && raw >= 1 ? raw : 1;
  const setPage = useCallback(
    (next: number) =>
      setSearchParams((current) => {
        const params = new URLSearchParams(current);
        if (next <= 1) params.delete(PAGE_PARAM);
        else params.set(PAGE_PARAM, String(next));
        return params;
      }),
    [setSearchParams],
  );
  return [page, setPage];
};
