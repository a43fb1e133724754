import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Customer } from '@app/domain/customer';
import type { SiteSettings } from '@app/domain/settings';
import { discountProblem } from '@app/domain/discount/rules';
import type { OrderFormValues } from '@app/domain/order-form/rules';
import { useDiscountApply } from '../hooks/use-discount-apply';
import { useFieldFocus } from '../hooks/use-field-focus';
import { useWizardFormState } from '../hooks/use-wizard-form';
import { restoreWizardState, useWizardPersistence } from '../hooks/use-wizard-persistence';
import {
  CheckoutContext,
  DiscountContext,
  FilesContext,
  FocusContext,
  FormContext,
  SubmissionContext,
  type FocusableField,
  type WizardFile,
} from '../hooks/wizard-contexts';
import type { CheckoutState } from '../lib/persisted-state';

export interface WizardStateProps {
  settings: SiteSettings;
  customer: Customer | null;
  /** query-string values (SPEC §2), and an edited or cloned order's, already read */
  prefill: Partial<OrderFormValues>;
  /** the category of an order being edited or cloned */
  siteCategory: number | undefined;
  /** an edited order's files on the server */
  remoteFiles: WizardFile[];
  /**
   * The form's discount code goes through the discount endpoint on opening (SPEC §2 ?discount=; ADR 0027:
   * the code stored on an order being edited or cloned), so every step prices what will be charged.
   */
  applyDiscountOnOpen: boolean;
  editing: boolean;
  children: ReactNode;
}

/**
 * The wizard's state (ADR 0056): the form, the discount, checkout, files and the submission lock, each in
 * its own context; its persistence (SPEC §4) beside them; the price (ADR 0027) is `PriceArea`'s, which reads them. `children` are the
 * wizard's screens: they re-render only when a context they read changes.
 */
export function WizardState({
  settings,
  customer,
  prefill,
  siteCategory: wanted,
  remoteFiles,
  applyDiscountOnOpen,
  editing,
  children,
}: WizardStateProps) {
  const [start] = useState(() => restoreWizardState({ settings, prefill, siteCategory: wanted }));
  const { rawValues, values, deps, update, siteCategory, setSiteCategory } = useWizardFormState(start);
  const [discount, setDiscount] = useState(start.discount);
  const [checkout, setCheckout] = useState<CheckoutState>(start.checkout);
  const [files, setFiles] = useState<WizardFile[]>(remoteFiles);
  const [locked, setLocked] = useState(false);
  const idempotencyKeyRef = useRef<string | null>(start.idempotencyKey);
  const { apply, notice, busy } = useDiscountApply(setDiscount, update);
  const discountBlocked = discount ? discountProblem(discount, values.premiumWriter) : null;
  const persist = useWizardPersistence({ siteCategory, values: rawValues, discount, checkout, files, idempotencyKeyRef, locked });
  const focus = useFieldFocus<FocusableField>();

  // The code on opening is applied once; a new order restored with this very code applied needs no second
  // call, an edited order always asks.
  const [codeOnOpen] = useState(() => (applyDiscountOnOpen ? values.discountCode : ''));
  const appliedOnOpen = useRef(false);
  const storedCode = discount?.code ?? null;
  useEffect(() => {
    if (appliedOnOpen.current || codeOnOpen === '') return;
    appliedOnOpen.current = true;
    if (!editing && storedCode === codeOnOpen) return;
    void apply(codeOnOpen, null);
  }, [codeOnOpen, storedCode, apply, editing]);

  const form = useMemo(
    () => ({ rawValues, values, deps, update, siteCategory, setSiteCategory, settings, customer }),
    [rawValues, values, deps, update, siteCategory, setSiteCategory, settings, customer],
  );
  const discountValue = useMemo(
    () => ({ discount, setDiscount, discountBlocked, apply, notice, busy }),
    [discount, discountBlocked, apply, notice, busy],
  );
  const checkoutValue = useMemo(() => ({ checkout, setCheckout }), [checkout]);
  const [lostFileNames] = useState(start.fileNames);
  const filesValue = useMemo(() => ({ files, setFiles, lostFileNames }), [files, lostFileNames]);
  const submission = useMemo(() => ({ locked, setLocked, idempotencyKeyRef, persist }), [locked, persist]);

  return (
    <FormContext.Provider value={form}>
      <DiscountContext.Provider value={discountValue}>
        <CheckoutContext.Provider value={checkoutValue}>
          <FilesContext.Provider value={filesValue}>
            <SubmissionContext.Provider value={submission}>
              <FocusContext.Provider value={focus}>{children}</FocusContext.Provider>
            </SubmissionContext.Provider>
          </FilesContext.Provider>
        </CheckoutContext.Provider>
      </DiscountContext.Provider>
    </FormContext.Provider>
  );
}
