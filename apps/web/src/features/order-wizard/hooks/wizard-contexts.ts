import { createContext, useContext, type Dispatch, type RefObject, type SetStateAction } from 'react';
import type { Customer } from '@app/domain/customer';
import type { PriceResult } from '@app/domain/pricing';
import type { FormDependencies, OrderFormValues } from '@app/domain/order-form/rules';
import type { SiteSettings } from '@app/domain/settings';
import type { DiscountNotice } from './use-discount-apply';
import type { AppliedDiscount, CheckoutState } from '../lib/persisted-state';

/**
 * The wizard's state in narrow contexts (ADR 0056), each with its own provider value, so that a change
 * re-renders only what reads it: a price confirmation re-renders the price, not every field of the step.
 */

/** A file picked in the wizard (local) or already on the server while editing (remote). */
export type WizardFile =
  | { key: string; remote: false; file: File; name: string; size: number; progress: number | null }
  | { key: string; remote: true; id: number; name: string; size: number };

/** The form: its values (SPEC §4, with the dependencies applied), the service, the site and the customer. */
export interface WizardForm {
  /** the values as typed (free text untrimmed) */
  rawValues: OrderFormValues;
  /** the values with SPEC §4 "Form dependencies" applied: what is priced and sent */
  values: OrderFormValues;
  deps: FormDependencies;
  update: (patch: Partial<OrderFormValues>) => void;
  siteCategory: number;
  setSiteCategory: (category: number) => void;
  settings: SiteSettings;
  customer: Customer | null;
}

/** The price on screen: the server's for these choices when it has answered, else the client's (ADR 0027). */
export interface WizardPrice {
  price: PriceResult | null;
  /** the server's words when it found no rate for the choices on screen */
  noRateMessage: string | null;
  /** the server has answered for the choices on screen (its figure, or its refusal, is shown) */
  priceConfirmed: boolean;
  /** what the basic price counts, for its label */
  pages: number;
  pagesLabel: FormDependencies['pagesLabel'];
}

export interface WizardDiscount {
  discount: AppliedDiscount | null;
  setDiscount: (discount: AppliedDiscount | null) => void;
  /** why the applied discount does not count now (SPEC §8), or null */
  discountBlocked: string | null;
  apply: (raw: string, applied: string | null) => Promise<void>;
  notice: DiscountNotice;
  busy: boolean;
}

export interface WizardCheckout {
  checkout: CheckoutState;
  setCheckout: Dispatch<SetStateAction<CheckoutState>>;
}

export interface WizardFiles {
  files: WizardFile[];
  setFiles: Dispatch<SetStateAction<WizardFile[]>>;
  /** the names of the files picked before a reload (a File cannot be stored: SPEC §4) */
  lostFileNames: string[];
}

/** While the order is being sent the form is locked; the idempotency key and `persist` go with it. */
export interface WizardSubmission {
  locked: boolean;
  setLocked: (locked: boolean) => void;
  idempotencyKeyRef: RefObject<string | null>;
  /** writes the state to local storage now (before Create, with the new idempotency key) */
  persist: () => void;
}

/** Moves the focus to a named field through its ref, once its (lazy) step has mounted it. */
export interface WizardFocus {
  fieldRef: (name: FocusableField) => (element: HTMLElement | null) => void;
  focusField: (name: FocusableField) => void;
}
export type FocusableField = 'subject' | 'title' | 'details' | 'files';

export const FormContext = createContext<WizardForm | null>(null);
export const PriceContext = createContext<WizardPrice | null>(null);
export const DiscountContext = createContext<WizardDiscount | null>(null);
export const CheckoutContext = createContext<WizardCheckout | null>(null);
export const FilesContext = createContext<WizardFiles | null>(null);
export const SubmissionContext = createContext<WizardSubmission | null>(null);
export const FocusContext = createContext<WizardFocus | null>(null);

const required = <T>(value: T | null, name: string): T => {
  if (value === null) throw new Error(`${name} outside the order wizard`);
  return value;
};

export const useWizardForm = (): WizardForm => required(useContext(FormContext), 'useWizardForm');
export const useWizardPrice = (): WizardPrice => required(useContext(PriceContext), 'useWizardPrice');
export const useWizardDiscount = (): WizardDiscount => required(useContext(DiscountContext), 'useWizardDiscount');
export const useWizardCheckout = (): WizardCheckout => required(useContext(CheckoutContext), 'useWizardCheckout');
export const useWizardFiles = (): WizardFiles => required(useContext(FilesContext), 'useWizardFiles');
export const useWizardSubmission = (): WizardSubmission => required(useContext(SubmissionContext), 'useWizardSubmission');
export const useWizardFocus = (): WizardFocus => required(useContext(FocusContext), 'useWizardFocus');
