import {
  ADMIN_MESSAGE,
  AUDIT_ACTION,
  DomainError,
  ERROR_CODE,
  isValidEmail,
  normalizeEmail,
  ROLE,
  type AdminStaff,
  type AdminStaffBody,
  type AdminStaffList,
} from '@app/domain';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/actor';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import { notFound } from '../../lib/errors';
import { recordAudit } from '../audit';
import { staffAccountWrites, type AuthService, type StaffAuditState } from '../auth';

const ROLE_OF = { writer: ROLE.writer, support: ROLE.support, admin: ROLE.admin } as const;

/**
 * ADR 0090: staff accounts as an admin manages them. A new account has no password: its holder sets one
 * from the emailed link (the admin never knows it). Suspending ends every session of the account at once
 * (its refresh tokens revoked in the transaction, its access tokens refused by the liveness check, its
 * sockets closed through the one announcement of ended sessions, ADR 0069). A reset does the same and
 * mails a link to set a new password. Each change is audited in its transaction.
 */
export const createAdminStaff = ({
  db,
  clock,
  log,
  auth,
}: {
  db: Db;
  clock: Clock;
  log: Logger;
  auth: Pick<AuthService, 'forgotPassword' | 'staffSessionsRevoked'>;
}) => {
  const list = async (): Promise<AdminStaff[]> => staffAccountWrites(db).list();
  const one = async (id: number): Promise<AdminStaff> => {
    const found = (await list()).find((s) => s.id === id);
    if (!found) throw notFound();
    return found;
  };
  const mailLink = async (email: string): Promise<void> => {
    try {
      await auth.forgotPassword({ email });
    } catch (error) {
      // The change stands; the admin can send the link again with a reset.
      log.warn({ err: error }, 'staff password link not sent');
    }
  };
  /** The account, locked in `tx`; 404 for an id that is no staff account. */
  const change = async (
    actor: Actor,
    id: number,
    action: (typeof AUDIT_ACTION)['staffSuspend' | 'staffPasswordReset'],
    write: (w: ReturnType<typeof staffAccountWrites>, now: Date) => Promise<void>,
    after: (before: StaffAuditState) => StaffAuditState,
  ): Promise<StaffAuditState> =>
    db.transaction(async (tx) => {
      const w = staffAccountWrites(tx);
      const before = await w.lock(id);
      if (!before) throw notFound(ADMIN_MESSAGE.notStaff);
      const now = clock.now();
      await write(w, now);
      await recordAudit(tx, { actor, action, before, after: after(before), at: now });
      return before;
    });

  return {
    list: async (): Promise<AdminStaffList> => ({ staff: await list() }),

    add: async ({ actor, body }: { actor: Actor; body: AdminStaffBody }): Promise<AdminStaff> => {
      if (!isValidEmail(body.email))
        throw new DomainError(ERROR_CODE.validation, 'Invalid email address.', { email: ['Invalid email address.'] });
      const email = normalizeEmail(body.email);
      const id = await db.transaction(async (tx) => {
        const now = clock.now();
        const created = await staffAccountWrites(tx).insert({
          role: ROLE_OF[body.role],
          email,
          firstName: body.firstName,
          lastName: body.lastName,
          now,
        });
        if (created === null)
          throw new DomainError(ERROR_CODE.conflict, ADMIN_MESSAGE.staffEmailTaken, { email: [ADMIN_MESSAGE.staffEmailTaken] });
        await recordAudit(tx, {
          actor,
          action: AUDIT_ACTION.staffAdd,
          before: null,
          after: { id: created, role: ROLE_OF[body.role], email, active: true, twoFactor: false },
          at: now,
        });
        return created;
      });
      await mailLink(email);
      return one(id);
    },

    suspend: async ({ actor, id }: { actor: Actor; id: number }): Promise<AdminStaff> => {
      if (id === actor.userId) throw new DomainError(ERROR_CODE.conflict, ADMIN_MESSAGE.cannotSuspendSelf);
      await change(
        actor,
        id,
        AUDIT_ACTION.staffSuspend,
        (w, now) => w.suspend({ userId: id, now }),
        (before) => ({ ...before, active: false }),
      );
      auth.staffSessionsRevoked({ userId: id });
      return one(id);
    },

    resetPassword: async ({ actor, id }: { actor: Actor; id: number }): Promise<AdminStaff> => {
      const before = await change(
        actor,
        id,
        AUDIT_ACTION.staffPasswordReset,
        (w, now) => w.clearPassword({ userId: id, now }),
        (b) => b,
      );
      auth.staffSessionsRevoked({ userId: id });
      if (before.active) await mailLink(before.email);
      return one(id);
    },
  };
};
export type AdminStaffService = ReturnType<typeof createAdminStaff>;
