// The checkout step's rules, zod-free (ADR 0020): who the buyer is, the name split, the checks before an order is placed.
import { AUTH_MESSAGE, isValidEmail, isValidName } from '../../auth/rules/index';
import { ORDER_FORM_LIMITS, ORDER_FORM_MESSAGE } from './form-fields';
import { USER_TYPE, type UserType } from './values';

/**
 * SPEC §5 "Checkout": the one name field of a new customer, split for sign-up: the first word is the
 * first name, the rest (spaces collapsed) the last name.
 */
export const splitCheckoutName = (name: string): { firstName: string; lastName: string } => {
  const [firstName = '', ...rest] = name.trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
};

export const phoneDigits = (phone: string): string => phone.replace(/\D/g, '');

export type CheckoutErrors = Partial<Record<'email' | 'password' | 'phone' | 'terms' | 'name', string>>;
/**
 * SPEC §5 "Checkout". `isPhoneValid` comes from the phone library at the edge (the domain has no
 * country tables); the domain adds the "more than 5 digits" rule.
 */
export const validateCheckout = (input: {
  userType: UserType;
  /** a new customer's name; checked with isValidName when given */
  name?: string;
  email: string;
  password?: string;
  phone?: string;
  terms?: boolean;
  isPhoneValid?: boolean;
}): CheckoutErrors => {
  const errors: CheckoutErrors = {};
  if (!isValidEmail(input.email)) errors.email = ORDER_FORM_MESSAGE.invalidEmail;
  if (input.userType === USER_TYPE.hasAccount) {
    if (!input.password) errors.password = ORDER_FORM_MESSAGE.passwordRequired;
    return errors;
  }
  const digits = phoneDigits(input.phone ?? '');
  if (digits.length < ORDER_FORM_LIMITS.checkoutPhoneMinDigits || input.isPhoneValid === false) {
    errors.phone = ORDER_FORM_MESSAGE.invalidPhone;
  }
  if (!input.terms) errors.terms = ORDER_FORM_MESSAGE.termsRequired;
  if (input.name !== undefined && !isValidName(input.name)) errors.name = AUTH_MESSAGE.invalidName;
  return errors;
};
