import {
  AUTH_MESSAGE,
  CUSTOMER_MESSAGE,
  CUSTOMER_STATUS,
  changedConsents,
  CONSENT_HISTORY_LIMIT,
  type ConsentHistory,
  DomainError,
  ERROR_CODE,
  isValidName,
  type BillingDetails,
  privacyBodyOf,
  type Customer,
  type CustomerUpdateBody,
  type EmailChangeBody,
  type FieldErrors,
  type PasswordChangeBody,
  type PrivacyBody,
  type Session,
} from '@app/domain';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import { accountWrites, type AuthService } from '../auth';
import type { CustomersRepo } from './customers.repo';
import type { PersonalData } from './customers.personal-data.repo';
import { notFound } from '../../lib/errors';

/** Rows a report section reads per query: a batch of the longest chat messages stays near 1 MB (ADR 0052). */
export const REPORT_BATCH_ROWS = 500;

/** The customer's own id in a path or query (`/customers/{id}/privacy`, `gdpr?id=`); another one is a 404 (CONTRACT). */
const ownId = (customerId: number, requested: number): void => {
  if (requested !== customerId) throw notFound();
};

export const createCustomersService = ({
  db,
  repo,
  auth,
  personalData,
  clock,
  log,
}: {
  /** The service opens the transactions; the repositories (this module's and the faces' steps) take them. */
  db: Db;
  repo: CustomersRepo;
  auth: AuthService;
  /** Every module's erase step and report sections (services.ts, ADR 0052, 0077). */
  personalData: PersonalData;
  clock: Clock;
  log: Logger;
}) => {
  /**
   * The deletion itself (ADR 0052), once its proof is given: one transaction on the locked account row, in
   * which each module erases or anonymises what it holds of the customer. No row is deleted that the books
   * reference, so nothing cascades: orders keep their prices and statuses, payments and transactions stay
   * whole, and the account row stays as an anonymous holder.
   */
  const erase = async (customerId: number): Promise<void> => {
    const now = clock.now();
    const result = await db.transaction(async (tx): Promise<'deleted' | 'not_found' | 'email_not_confirmed'> => {
      const account = await repo.lockForDeletion(tx, customerId);
      if (!account || account.statusId === CUSTOMER_STATUS.deactivated.id) return 'not_found';
      if (!account.emailConfirmed) return 'email_not_confirmed';
      for (const step of personalData.erase) await step(tx, { customerId, email: account.email, now });
      return 'deleted';
    });
    if (result === 'not_found') throw notFound();
    if (result === 'email_not_confirmed') throw new DomainError(ERROR_CODE.badRequest, CUSTOMER_MESSAGE.emailNotConfirmed);
    // ADR 0069: the open chat sockets of every session close too.
    auth.accountDeleted({ userId: customerId });
    log.info({ userId: customerId }, 'account deleted: personal data erased, ledger kept');
  };
  return {
    getProfile: async ({ customerId }: { customerId: number }): Promise<Customer> => {
      const customer = await repo.findCustomer(customerId);
      if (!customer) throw notFound();
      return customer;
    },

    /** SPEC §7 PUT body; SPEC §5 "Profile" (the phone rule is in the body schema). */
    updateProfile: async ({ customerId, update }: { customerId: number; update: CustomerUpdateBody }): Promise<Customer> => {
      const errors: FieldErrors = {};
      if (!isValidName(update.firstName)) errors.firstName = [AUTH_MESSAGE.invalidName];
      if (update.lastName && !isValidName(update.lastName)) errors.lastName = [AUTH_MESSAGE.invalidName];
      if (Object.keys(errors).length > 0) throw new DomainError(ERROR_CODE.validation, 'Invalid request', errors);
      const now = clock.now();
      const customer = await db.transaction(async (tx) =>
        (await accountWrites(tx).updateProfile({ customerId, profile: update, now })) ? repo.findCustomer(customerId, tx) : null,
      );
      if (!customer) throw notFound();
      return customer;
    },

    /** ADR 0085: the billing details alone (the checkout's "Billing details (for the receipt)" section). */
    updateBilling: async ({ customerId, billing }: { customerId: number; billing: BillingDetails }): Promise<Customer> => {
      const now = clock.now();
      const customer = await db.transaction(async (tx) =>
        (await accountWrites(tx).updateBilling({ customerId, billing, now })) ? repo.findCustomer(customerId, tx) : null,
      );
      if (!customer) throw notFound();
      return customer;
    },

    /** CONTRACT "Identity": the emailed token confirms the address (status 3 becomes 1). */
    /** ADR 0038: `sessionUserId` is the account of the access token the request carried, if any. */
    confirmEmail: async ({
      token,
      sessionUserId,
    }: {
      token: string;
      sessionUserId: number | null;
    }): Promise<Customer & { message?: string }> => {
      const { userId, passwordRemoved } = await auth.confirmEmail({ token, sessionUserId });
      const customer = await repo.findCustomer(userId);
      if (!customer) throw new DomainError(ERROR_CODE.badRequest, AUTH_MESSAGE.resetLinkInvalid);
      return passwordRemoved ? { ...customer, message: AUTH_MESSAGE.unprovenPasswordRemoved } : customer;
    },

    /** ADR 0097: the link goes to the new address; the email stays until it is used. */
    requestEmailChange: async ({
      customerId,
      sid,
      body,
    }: {
      customerId: number;
      sid: string | null;
      body: EmailChangeBody;
    }): Promise<{ message: string; email: string }> => {
      const email = await auth.requestEmailChange({ userId: customerId, sid, email: body.email, password: body.password });
      return { message: CUSTOMER_MESSAGE.emailChangeSent(email), email };
    },

    /** ADR 0097: the link opened with a session of the account that asked: the new email, with the profile. */
    confirmEmailChange: async ({ customerId, token }: { customerId: number; token: string }): Promise<Customer & { message: string }> => {
      const email = await auth.confirmEmailChange({ userId: customerId, token });
      const customer = await repo.findCustomer(customerId);
      if (!customer) throw notFound();
      return { ...customer, message: CUSTOMER_MESSAGE.emailChanged(email) };
    },

    resendConfirmation: async ({ customerId }: { customerId: number }): Promise<void> => {
      await auth.sendEmailConfirmation({ userId: customerId });
    },

    /** CONTRACT `PUT /api/en/customers/{id}/privacy`: the six flags; each change lands in the consent history. */
    updatePrivacy: async ({
      customerId,
      id,
      body,
      ip,
    }: {
      customerId: number;
      id: number;
      body: PrivacyBody;
      ip: string;
    }): Promise<Customer> => {
      ownId(customerId, id);
      const now = clock.now();
      // One transaction on the locked row: the six flags and one consent-history row per flag that changed.
      const customer = await db.transaction(async (tx) => {
        const before = await repo.lockLiveCustomer(tx, customerId);
        if (!before) return null;
        const changes = changedConsents(privacyBodyOf(before), body);
        if (changes.length === 0) return before;
        await repo.recordConsentChanges(tx, { customerId, changes, ip, now });
        return (await accountWrites(tx).setConsents({ customerId, flags: body, now })) ? repo.findCustomer(customerId, tx) : null;
      });
      if (!customer) throw notFound();
      return customer;
    },

    /** ADR 0097: what the privacy modal lists of the consent history (the newest CONSENT_HISTORY_LIMIT changes). */
    consentHistory: async ({ customerId }: { customerId: number }): Promise<ConsentHistory> => {
      const customer = await repo.findCustomer(customerId);
      if (!customer || customer.status.id === CUSTOMER_STATUS.deactivated.id) throw notFound();
      return repo.listConsentHistory(customerId, CONSENT_HISTORY_LIMIT);
    },

    changePassword: async ({
      customerId,
      sid,
      body,
    }: {
      customerId: number;
      sid: string | null;
      body: PasswordChangeBody;
    }): Promise<void> =>
      auth.changePassword({ userId: customerId, currentSid: sid, currentPassword: body.currentPassword, newPassword: body.newPassword }),

    listSessions: async ({ customerId, sid }: { customerId: number; sid: string | null }): Promise<Session[]> =>
      auth.listSessions({ userId: customerId, currentSid: sid }),

    endSession: async ({ customerId, sessionId }: { customerId: number; sessionId: string }): Promise<void> =>
      auth.endSession({ userId: customerId, sessionId }),

    endOtherSessions: async ({ customerId, sid }: { customerId: number; sid: string | null }): Promise<number> =>
      auth.endOtherSessions({ userId: customerId, currentSid: sid }),

    /**
     * SPEC §6: deletion needs a confirmed email (SPEC §8 'Email is not confirmed'). ADR 0070: then a proof,
     * the password, or for an account without one a mailed link (answered 'mailed', nothing deleted yet:
     * `confirmDeletion` deletes when the link is used). ADR 0052 lists what is erased and what stays for the
     * books; every token of the account stops at once (ADR 0053) and its chat sockets close (ADR 0069).
     */
    deactivate: async ({ customerId, password }: { customerId: number; password: string | undefined }): Promise<'deleted' | 'mailed'> => {
      const customer = await repo.findCustomer(customerId);
      if (!customer || customer.status.id === CUSTOMER_STATUS.deactivated.id) throw notFound();
      if (!customer.emailConfirmed) throw new DomainError(ERROR_CODE.badRequest, CUSTOMER_MESSAGE.emailNotConfirmed);
      if ((await auth.proveForDeletion({ userId: customerId, password })) === 'mailed') return 'mailed';
      await erase(customerId);
      return 'deleted';
    },

    /** ADR 0070: the mailed link, used with a session of the account it was made for, deletes once. */
    confirmDeletion: async ({ customerId, token }: { customerId: number; token: string }): Promise<void> => {
      await auth.spendDeletionLink({ userId: customerId, token });
      await erase(customerId);
    },

    /**
     * The personal-data report (SPEC §6, CONTRACT "gdpr?id="): a JSON document written piece by piece. The
     * profile first, then each module's sections (`personalData.report`, in order) read in batches of REPORT_BATCH_ROWS by keyset, so
     * memory holds one batch whatever the customer's history (ADR 0052). The caller streams the pieces out.
     * The id is checked before the first piece, so another customer's id is a plain 404.
     */
    openReport: async ({ customerId, id }: { customerId: number; id: number }): Promise<AsyncGenerator<string>> => {
      ownId(customerId, id);
      const profile = await repo.findCustomer(customerId);
      if (!profile || profile.status.id === CUSTOMER_STATUS.deactivated.id) throw notFound();
      const generatedAt = clock.now().toISOString();
      async function* pieces(): AsyncGenerator<string> {
        yield `{"generatedAt":${JSON.stringify(generatedAt)},"profile":${JSON.stringify(profile)}`;
        for (const [section, read] of Object.entries(personalData.report)) {
          yield `,${JSON.stringify(section)}:[`;
          let afterId = 0;
          let first = true;
          for (;;) {
            const rows = await read(db, { customerId, afterId, limit: REPORT_BATCH_ROWS });
            if (rows.length === 0) break;
            yield (first ? '' : ',') + rows.map((row) => JSON.stringify(row)).join(',');
            first = false;
            afterId = Number(rows.at(-1)?.id);
            if (rows.length < REPORT_BATCH_ROWS) break;
          }
          yield ']';
        }
        yield '}';
      }
      return pieces();
    },
  };
};
export type CustomersService = ReturnType<typeof createCustomersService>;
