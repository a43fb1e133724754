import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StaffMe } from '@app/domain/auth';
import { ROLE } from '@app/domain/auth/rules';
import { ApiError, apiFetch } from '@/lib/api-client';
import { tokenStorage } from '@/lib/storage';
import { staffKeys } from './keys';

export type { StaffMe };

/**
 * CONTRACT "Staff side": GET /api/staff/me. Null when nobody is signed in or the account is a
 * customer's (a customer token gets 404 from every staff route).
 */
export const getStaffMe = async (): Promise<StaffMe | null> => {
  if (!tokenStorage.hasAny()) return null;
  try {
    return await apiFetch('/api/staff/me', { schema: () => import('@app/domain/auth').then((m) => m.staffMeSchema) });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 404)) return null;
    throw error;
  }
};

export const staffMeQueryOptions = () => queryOptions({ queryKey: staffKeys.me(), queryFn: getStaffMe, staleTime: 5 * 60_000 });

export const useStaffMe = () => useQuery(staffMeQueryOptions());

/** ADR 0090: an admin (7) has everything support has. */
export const isSupport = (me: Pick<StaffMe, 'role'>): boolean => me.role === ROLE.support || me.role === ROLE.admin;
export const isAdmin = (me: Pick<StaffMe, 'role'>): boolean => me.role === ROLE.admin;
