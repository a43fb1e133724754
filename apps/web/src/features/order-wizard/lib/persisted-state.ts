import { USER_TYPE, type OrderFormValues, type UserType } from '@app/domain/order-form/rules';
import { readStored, readStoredJson, writeStoredJson } from '@/lib/persisted';

/**
 * SPEC §4 "Form state is persisted locally": one versioned key, so a later shape can ignore an older one.
 * Files are not kept (a File cannot be stored); `fileNames` lets the wizard ask for them again.
 */
export const WIZARD_STORAGE_KEY = 'orderWizard:v1';

export interface CheckoutState {
  userType: UserType;
  name: string;
  email: string;
  country: string;
  phone: string;
  terms: boolean;
  calls: boolean;
}

export interface AppliedDiscount {
  code: string;
  percent: number;
  amount: number;
  isTopWriterDiscount: boolean;
}

export interface WizardState {
  siteCategory: number;
  values: OrderFormValues;
  discount: AppliedDiscount | null;
  checkout: CheckoutState;
  /** CONTRACT: kept until the order exists, so a retry or a double click creates one order. */
  idempotencyKey: string | null;
  fileNames: string[];
}

export const defaultCheckout = (): CheckoutState => ({
  userType: USER_TYPE.newCustomer,
  name: '',
  email: '',
  country: 'US',
  phone: '',
  terms: false,
  calls: false,
});

/** The kept state, or null; any object is taken, its fields checked one by one where the wizard restores them. */
export const readWizardState = (): Partial<WizardState> | null =>
  readStoredJson(WIZARD_STORAGE_KEY, (value) => (typeof value === 'object' && value !== null ? (value as Partial<WizardState>) : null));

/** Whether this browser keeps a wizard state the wizard's first render restores (ADR 0064). */
export const hasWizardDraft = (): boolean => readStored(WIZARD_STORAGE_KEY) !== null;

/** Storage full or off: the form still works for this page's life. */
export const writeWizardState = (state: WizardState): void => writeStoredJson(WIZARD_STORAGE_KEY, state);

/** SPEC §4: cleared after creation, except the email. */
export const clearWizardStateKeepingEmail = (email: string): void =>
  writeStoredJson(WIZARD_STORAGE_KEY, { checkout: { ...defaultCheckout(), email } });
