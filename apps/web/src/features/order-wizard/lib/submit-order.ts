import { AUTH_MESSAGE } from '@app/domain/auth/rules';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { orderCreationFailure, toOrderBody, USER_TYPE, type OrderFormValues } from '@app/domain/order-form/rules';
import { toast } from '@/components/ui/toast';
import { ApiError } from '@/lib/api-client';
import { saveBilling, signIn, signUp } from '../api/account';
import { uploadOrderFile } from '@/lib/resources/order-uploads';
import { deleteOrderFile } from '@/lib/resources/order-uploads';
import { createOrder, updateOrder } from '../api/order-writes';
import type { AccountInput } from '../components/step-checkout';
import type { WizardCheckout, WizardFiles, WizardSubmission } from '../hooks/wizard-contexts';
import { trackWizardEvent } from './debug';
import { clearWizardStateKeepingEmail } from './persisted-state';

// Loaded when the customer presses Create (or after the first step shows): not part of the first paint (ADR 0028).

/** An order opened for editing: its id, the files it had, and CONTRACT's `forceEditing`. */
export interface EditingOrder {
  id: number;
  remoteFileIds: number[];
  forceEditing: boolean;
}

/** What sending the order reads and changes of the wizard's state (ADR 0056), as of the Create click. */
export type SubmitState = { values: OrderFormValues; siteCategory: number } & Pick<WizardFiles, 'files' | 'setFiles'> &
  WizardCheckout &
  Pick<WizardSubmission, 'setLocked' | 'idempotencyKeyRef'>;

/** What the wizard's route hands useCreateOrder, which passes it on to submitOrder. */
export interface CreateOptions {
  editing: EditingOrder | null;
  refId: string | null;
  /** refreshes the current customer after sign-up or sign-in (composed in app/routes/order.tsx) */
  onAuthenticated: () => Promise<unknown>;
  onDone: (orderId: number) => void;
  onSignedUpFailure: () => void;
  /** moves focus to a field named by the failure (SPEC §8: the title is focused) */
  focusField: (field: 'title' | 'details' | 'discountCode') => void;
}

const signUpFailure = (error: unknown): string => {
  if (error instanceof ApiError) {
    if (error.fieldErrors.firstName?.length) return AUTH_MESSAGE.invalidName;
    const email = error.fieldErrors.email?.[0];
    if (email) return email === AUTH_MESSAGE.emailRegistered ? email : AUTH_MESSAGE.invalidEmailSignup;
  }
  return TRANSPORT_MESSAGE.somethingWentWrong;
};

/**
 * SPEC §4 "Order creation" and §8 "Order creation failure", once the form is locked: the account step
 * (sign-up or sign-in), the order (POST, or PUT when editing), then the files one by one with progress.
 */
export const submitOrder = async ({
  w,
  options,
  account,
  setFailure,
}: {
  w: SubmitState;
  options: CreateOptions;
  account: AccountInput;
  setFailure: (message: string | null) => void;
}): Promise<void> => {
  const { setLocked, idempotencyKeyRef, siteCategory, setFiles } = w;
  const editing = options.editing;
  let signedUp = false;
  try {
    if (account.kind === 'new') {
      try {
        await signUp({ ...account, isEnabledNightCall: account.calls, refId: options.refId });
      } catch (error) {
        setFailure(signUpFailure(error));
        if (error instanceof ApiError && error.fieldErrors.email?.[0] === AUTH_MESSAGE.emailRegistered) {
          w.setCheckout((c) => ({ ...c, userType: USER_TYPE.hasAccount }));
        }
        setLocked(false);
        return;
      }
      signedUp = true;
      toast.success(AUTH_MESSAGE.signedUp);
      await options.onAuthenticated();
    } else if (account.kind === 'existing') {
      try {
        await signIn(account.email, account.password);
      } catch (error) {
        setFailure(
          error instanceof ApiError ? (error.serverMessage ?? TRANSPORT_MESSAGE.somethingWentWrong) : TRANSPORT_MESSAGE.somethingWentWrong,
        );
        setLocked(false);
        return;
      }
      await options.onAuthenticated();
    }

    // ADR 0085: what the receipt of this order's payment will print as the buyer.
    if (account.billing) await saveBilling(account.billing);

    const body = toOrderBody(w.values, siteCategory);
    trackWizardEvent(editing ? 'update' : 'create', body);
    const ref = editing
      ? await updateOrder(siteCategory, editing.id, body, editing.forceEditing)
      : await createOrder(siteCategory, body, idempotencyKeyRef.current ?? crypto.randomUUID());

    // Files go one by one after the order exists, each with its progress bar.
    const kept = new Set(w.files.filter((f) => f.remote).map((f) => (f.remote ? f.id : 0)));
    for (const removed of editing?.remoteFileIds.filter((fileId) => !kept.has(fileId)) ?? []) {
      await deleteOrderFile(removed);
    }
    for (const f of w.files) {
      if (f.remote) continue;
      const setProgress = (progress: number) =>
        setFiles((list) => list.map((x) => (x.key === f.key && !x.remote ? { ...x, progress } : x)));
      setProgress(0);
      await uploadOrderFile(ref.id, f.file, setProgress);
    }
    idempotencyKeyRef.current = null;
    clearWizardStateKeepingEmail(w.checkout.email);
    trackWizardEvent('created', ref.id);
    options.onDone(ref.id);
  } catch (error) {
    const mapped = orderCreationFailure(error instanceof ApiError ? error.fieldErrors : {});
    setFailure(mapped.message);
    setLocked(false);
    if (mapped.field === 'title' || mapped.field === 'details') options.focusField(mapped.field);
    if (signedUp) options.onSignedUpFailure();
  }
};
