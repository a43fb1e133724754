import { AUTH_MESSAGE, DomainError, ERROR_CODE, isValidName, type Customer, type CustomerUpdateBody, type FieldErrors } from '@app/domain';
import type { Clock } from '../../lib/clock';
import type { AuthService } from '../auth';
import type { CustomersRepo } from './customers.repo';

const notFound = (): DomainError => new DomainError(ERROR_CODE.notFound, 'Not found');

export const createCustomersService = ({ repo, auth, clock }: { repo: CustomersRepo; auth: AuthService; clock: Clock }) => ({
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

  /** CONTRACT "Identity": the emailed token confirms the address (status 3 becomes 1). */
  /** ADR 0038: `sessionUserId` is the account of the access token the request carried, if any. */
  confirmEmail: async ({ token, sessionUserId }: { token: string; sessionUserId: number | null }): Promise<Customer & { message?: string }> => {
    const { userId, passwordRemoved } = await auth.confirmEmail({ token, sessionUserId });
    const customer = await repo.findCustomer(userId);
    if (!customer) throw new DomainError(ERROR_CODE.badRequest, AUTH_MESSAGE.resetLinkInvalid);
    return passwordRemoved ? { ...customer, message: AUTH_MESSAGE.unprovenPasswordRemoved } : customer;
  },

  resendConfirmation: async ({ customerId }: { customerId: number }): Promise<void> => {
    await auth.sendEmailConfirmation({ userId: customerId });
  },
});
export type CustomersService = ReturnType<typeof createCustomersService>;
