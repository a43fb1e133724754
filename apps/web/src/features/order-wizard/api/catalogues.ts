import { useQuery } from '@tanstack/react-query';
import type { Calcs, CatalogueItem, Urgency } from '@app/domain/catalogue';
import type { PreferredWriter } from '@app/domain/order';
import { apiFetch, takePageAnswer } from '@/lib/api-client';
import { wizardKeys } from './keys';

// Catalogues change when an operator edits them, not while a customer orders (CONTRACT: seeded, edited in the database).
const CATALOGUE_STALE_MS = 60 * 60_000;

// Answers from the network are checked by their schemas after the first paint (ADR 0028); the page's own
// answers need no check (ADR 0065).
const listSchema = () => import('@app/domain/catalogue').then((m) => m.catalogueListSchema);
const calcsSchema = () => import('@app/domain/catalogue').then((m) => m.calcsSchema);
const urgenciesSchema = () => import('@app/domain/catalogue').then((m) => m.urgencySchema.array());

/**
 * ADR 0057: an answer the page brought is the query's initial data, in the cache when the query is first
 * read, so the first step draws in the same render as the page around it (no loading state, no second
 * long render after the paint). Taken once.
 */
const fromPage = <T>(path: string) => ({
  initialData: (): T | undefined => takePageAnswer<T>(path),
});

export type CategoryList = 'work_types' | 'assignments' | 'subjects' | 'paper_formats';

/** SPEC §7: GET /api/en/sites/categories/{c}/orders/{list}, no token needed (CONTRACT). */
export const useCategoryList = (category: number, list: CategoryList) =>
  useQuery({
    queryKey: wizardKeys.categoryList(category, list),
    queryFn: (): Promise<CatalogueItem[]> =>
      apiFetch(`/api/en/sites/categories/${category}/orders/${list}`, { auth: false, schema: listSchema, check: 'after' }),
    staleTime: CATALOGUE_STALE_MS,
    ...fromPage<CatalogueItem[]>(`/api/en/sites/categories/${category}/orders/${list}`),
  });

/** SPEC §7: GET /api/en/orders/{academic_levels|resume_levels|thesis_levels|resume_services}. */
export const useSharedList = (list: string, enabled = true) =>
  useQuery({
    queryKey: wizardKeys.sharedList(list),
    queryFn: (): Promise<CatalogueItem[]> => apiFetch(`/api/en/orders/${list}`, { auth: false, schema: listSchema, check: 'after' }),
    staleTime: CATALOGUE_STALE_MS,
    enabled,
    ...(enabled ? fromPage<CatalogueItem[]>(`/api/en/orders/${list}`) : {}),
  });

/** The price tables the wizard prices with, instantly (CONTRACT "Orders and catalogues"). */
export const useCalcs = (category: number) =>
  useQuery({
    queryKey: wizardKeys.categoryList(category, 'calcs'),
    queryFn: (): Promise<Calcs> =>
      apiFetch(`/api/en/sites/categories/${category}/orders/calcs`, { auth: false, schema: calcsSchema, check: 'after' }),
    staleTime: CATALOGUE_STALE_MS,
    ...fromPage<Calcs>(`/api/en/sites/categories/${category}/orders/calcs`),
  });

/** CONTRACT: GET /api/en/sites/{idSite}/orders/urgencies. */
export const useUrgencies = (idSite: number) =>
  useQuery({
    queryKey: wizardKeys.urgencies(idSite),
    queryFn: (): Promise<Urgency[]> =>
      apiFetch(`/api/en/sites/${idSite}/orders/urgencies`, { auth: false, schema: urgenciesSchema, check: 'after' }),
    staleTime: CATALOGUE_STALE_MS,
    ...fromPage<Urgency[]>(`/api/en/sites/${idSite}/orders/urgencies`),
  });

/** CONTRACT "Paths": the signed-in customer's preferred writers. */
export const usePreferredWriters = (enabled: boolean) =>
  useQuery({
    queryKey: wizardKeys.preferredWriters(),
    queryFn: (): Promise<PreferredWriter[]> =>
      apiFetch('/api/en/customers/customer/preferred_writers', {
        schema: () => import('@app/domain/order').then((m) => m.preferredWriterListSchema),
      }),
    staleTime: 5 * 60_000,
    enabled,
  });
