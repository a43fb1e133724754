import { USER_TYPE, type OrderFormValues, type UserType } from '@app/domain/order-form/rules';

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

export const readWizardState = (): Partial<WizardState> | null => {
  try {
    const raw = window.localStorage.getItem(WIZARD_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Partial<WizardState>) : null;
  } catch {
    return null;
  }
};

/** Whether this browser keeps a wizard state the wizard's first render restores (ADR 0064). */
export const hasWizardDraft = (): boolean => {
  try {
    return window.localStorage.getItem(WIZARD_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
};

export const writeWizardState = (state: WizardState): void => {
  try {
    window.localStorage.setItem(WIZARD_STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Storage full or off: the form still works for this page's life.
  }
};

/** SPEC §4: cleared after creation, except the email. */
export const clearWizardStateKeepingEmail = (email: string): void => {
  try {
    window.localStorage.setItem(WIZARD_STORAGE_KEY, JSON.stringify({ checkout: { ...defaultCheckout(), email } }));
  } catch {
    // nothing to keep
  }
};
