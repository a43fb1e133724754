import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdminDiscount,
  AdminDiscountBody,
  AdminDiscountList,
  AdminPrices,
  AdminPricesBody,
  AdminStaff,
  AdminStaffBody,
  AdminStaffList,
  AuditList,
  TwoFactorSetup,
  TwoFactorStatus,
} from '@app/domain/admin';
import type { Calcs, CatalogueItem } from '@app/domain/catalogue';
import { apiFetch } from '@/lib/api-client';
import { downloadGenerated } from '@/lib/download';
import { adminKeys } from './keys';

const loadAdmin = () => import('@app/domain/admin');
const loadCatalogue = () => import('@app/domain/catalogue');

/** GET /api/staff/admin/prices: every offered category's tables and the site's urgencies. */
export const usePrices = () =>
  useQuery({
    queryKey: adminKeys.prices(),
    queryFn: (): Promise<AdminPrices> =>
      apiFetch('/api/staff/admin/prices', { schema: () => loadAdmin().then((m) => m.adminPricesSchema) }),
  });

/** PUT /api/staff/admin/prices: one category's rows; new quotes only. */
export const usePublishPrices = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminPricesBody): Promise<Calcs> =>
      apiFetch('/api/staff/admin/prices', { method: 'PUT', json: body, schema: () => loadCatalogue().then((m) => m.calcsSchema) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.prices() }),
  });
};

const LEVEL_LIST: Record<number, string> = { 3: 'resume_levels', 4: 'thesis_levels' };

/** The names of a category's work types and levels (the public catalogues the wizard reads), for the table's labels. */
export const useCategoryNames = (category: number) =>
  useQuery({
    queryKey: adminKeys.names(category),
    queryFn: async (): Promise<{ workTypes: CatalogueItem[]; levels: CatalogueItem[] }> => {
      const schema = () => loadCatalogue().then((m) => m.catalogueListSchema);
      const [workTypes, levels] = await Promise.all([
        apiFetch(`/api/en/sites/categories/${category}/orders/work_types`, { auth: false, schema }),
        apiFetch(`/api/en/orders/${LEVEL_LIST[category] ?? 'academic_levels'}`, { auth: false, schema }),
      ]);
      return { workTypes, levels };
    },
    staleTime: 5 * 60_000,
  });

export const useDiscounts = () =>
  useQuery({
    queryKey: adminKeys.discounts(),
    queryFn: (): Promise<AdminDiscountList> =>
      apiFetch('/api/staff/admin/discounts', { schema: () => loadAdmin().then((m) => m.adminDiscountListSchema) }),
  });

/** POST a new code, or PUT an edit with the version it was read at (409 when another admin saved in between). */
export const useSaveDiscount = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version, body }: { id: number | null; version: number | null; body: AdminDiscountBody }): Promise<AdminDiscount> =>
      apiFetch(id === null ? '/api/staff/admin/discounts' : `/api/staff/admin/discounts/${id}`, {
        method: id === null ? 'POST' : 'PUT',
        json: id === null ? body : { ...body, version },
        schema: () => loadAdmin().then((m) => m.adminDiscountSchema),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.discounts() }),
  });
};

export const useStaffAccounts = () =>
  useQuery({
    queryKey: adminKeys.staff(),
    queryFn: (): Promise<AdminStaffList> =>
      apiFetch('/api/staff/admin/staff', { schema: () => loadAdmin().then((m) => m.adminStaffListSchema) }),
  });

export const useAddStaff = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminStaffBody): Promise<AdminStaff> =>
      apiFetch('/api/staff/admin/staff', { method: 'POST', json: body, schema: () => loadAdmin().then((m) => m.adminStaffSchema) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.staff() }),
  });
};

/** Suspend (every session ends) or reset the password (a link is mailed) of a staff account. */
export const useStaffAction = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'suspend' | 'password-reset' }): Promise<AdminStaff> =>
      apiFetch(`/api/staff/admin/staff/${id}/${action}`, { method: 'POST', schema: () => loadAdmin().then((m) => m.adminStaffSchema) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.staff() }),
  });
};

export interface AuditFilter {
  page: number;
  orderId: string;
  actorId: string;
}
const auditQuery = ({ orderId, actorId }: Pick<AuditFilter, 'orderId' | 'actorId'>): URLSearchParams => {
  const query = new URLSearchParams();
  if (orderId) query.set('orderId', orderId);
  if (actorId) query.set('actorId', actorId);
  return query;
};
export const AUDIT_PAGE_SIZE = 25;

/** CONTRACT "Staff side": GET /api/staff/audit?page&limit&orderId&actorId. */
export const useAuditLog = (filter: AuditFilter) =>
  useQuery({
    queryKey: adminKeys.audit(filter),
    queryFn: (): Promise<AuditList> => {
      const query = auditQuery(filter);
      query.set('page', String(filter.page));
      query.set('limit', String(AUDIT_PAGE_SIZE));
      return apiFetch(`/api/staff/audit?${query.toString()}`, { schema: () => loadAdmin().then((m) => m.auditListSchema) });
    },
    placeholderData: keepPreviousData,
  });

/** The same filter as CSV, saved by the browser. */
export const downloadAuditCsv = (filter: Pick<AuditFilter, 'orderId' | 'actorId'>): Promise<void> => {
  const query = auditQuery(filter).toString();
  return downloadGenerated(`/api/staff/audit/csv${query ? `?${query}` : ''}`, 'audit-log.csv');
};

export const useTwoFactorStatus = () =>
  useQuery({
    queryKey: adminKeys.twoFactor(),
    queryFn: (): Promise<TwoFactorStatus> =>
      apiFetch('/api/staff/two-factor', { schema: () => loadAdmin().then((m) => m.twoFactorStatusSchema) }),
  });

export const useTwoFactorSetup = () =>
  useMutation({
    mutationFn: (): Promise<TwoFactorSetup> =>
      apiFetch('/api/staff/two-factor/setup', { method: 'POST', schema: () => loadAdmin().then((m) => m.twoFactorSetupSchema) }),
  });

export const useEnableTwoFactor = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string): Promise<TwoFactorStatus> =>
      apiFetch('/api/staff/two-factor/enable', {
        method: 'POST',
        json: { code },
        schema: () => loadAdmin().then((m) => m.twoFactorStatusSchema),
      }),
    onSuccess: (status) => {
      queryClient.setQueryData(adminKeys.twoFactor(), status);
      return queryClient.invalidateQueries({ queryKey: adminKeys.all() });
    },
  });
};
