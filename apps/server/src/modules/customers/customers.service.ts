import {
  AUTH_MESSAGE,
  CUSTOMER_MESSAGE,
  CUSTOMER_STATUS,
  DomainError,
  ERROR_CODE,
  isValidName,
  type BillingDetails,
  type Customer,
  type CustomerUpdateBody,
  type FieldErrors,
  type PasswordChangeBody,
  type PrivacyBody,
  type Session,
} from '@app/domain';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import type { AuthService } from '../auth';
import { REPORT_SECTIONS, type CustomersRepo, type ReportSection } from './customers.repo';

/** Rows a report section reads per query: a batch of the longest chat messages stays near 1 MB (ADR 0052). */
export const REPORT_BATCH_ROWS = 500;

const notFound = (): DomainError => new DomainError(ERROR_CODE.notFound, 'Not found');

/** The customer's own id in a path or query (`/customers/{id}/privacy`, `gdpr?id=`); another one is a 404 (CONTRACT). */
const ownId = (customerId: number, requested: number): void => {
  if (requested !== customerId) throw notFound();
};

export const createCustomersService = ({
  repo,
  auth,
  clock,
  log,
}: {
  repo: CustomersRepo;
  auth: AuthService;
  clock: Clock;
  log: Logger;
}) => {
  /** The deletion itself (ADR 0052), once its proof is given. */
  const erase = async (customerId: number): Promise<void> => {
    const result = await repo.deactivate(customerId, clock.now());
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
      const customer = await repo.updateProfile(customerId, update, clock.now());
      if (!customer) throw notFound();
      return customer;
    },

    /** ADR 0085: the billing details alone (the checkout's "Billing details (for the receipt)" section). */
    updateBilling: async ({ customerId, billing }: { customerId: number; billing: BillingDetails }): Promise<Customer> => {
      const customer = await repo.updateBilling(customerId, billing, clock.now());
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
      const customer = await repo.updatePrivacy(customerId, body, ip, clock.now());
      if (!customer) throw notFound();
      return customer;
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
     * profile first, then each section of REPORT_SECTIONS read in batches of REPORT_BATCH_ROWS by keyset, so
     * memory holds one batch whatever the customer's history (ADR 0052). The caller streams the pieces out.
     * The id is checked before the first piece, so another customer's id is a plain 404.
     */
    openReport: async ({ customerId, id }: { customerId: number; id: number }): Promise<AsyncGenerator<string>> => {
      ownId(customerId, id);
      const profile = await repo.findCustomer(customerId);
      if (!profile || profile.status.id === 4) throw notFound();
      const generatedAt = clock.now().toISOString();
      async function* pieces(): AsyncGenerator<string> {
        yield `{"generatedAt":${JSON.stringify(generatedAt)},"profile":${JSON.stringify(profile)}`;
        for (const section of Object.keys(REPORT_SECTIONS) as ReportSection[]) {
          yield `,${JSON.stringify(section)}:[`;
          let afterId = 0;
          let first = true;
          for (;;) {
            const rows = await repo.reportBatch(section, customerId, afterId, REPORT_BATCH_ROWS);
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
