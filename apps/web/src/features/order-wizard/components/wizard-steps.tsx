import { lazy, Suspense, useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation } from 'wouter';
import { PageHeading } from '@/components/ui/page-heading';
import type { Customer } from '@app/domain/customer';
import type { SiteSettings } from '@app/domain/settings';
import {
  isDetailsStepComplete,
  isSubjectStepComplete,
  orderFormFromQuery,
  type OrderFormValues,
  ORDER_FORM_MESSAGE,
  validateOrderDetails,
} from '@app/domain/order-form/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { loadSubmitOrder, useCreateOrder } from '../hooks/use-create-order';
import { useRunOnFirstInput } from '../hooks/use-run-on-first-input';
import { useStepFocus } from '../hooks/use-step-focus';
import { useWizardStep, type WizardStep } from '../hooks/use-wizard-step';
import {
  useWizardCheckout,
  useWizardFiles,
  useWizardFocus,
  useWizardForm,
  useWizardSubmission,
  type FocusableField,
  type WizardFile,
} from '../hooks/wizard-contexts';
import type { EditingOrder } from '../lib/submit-order';
import type { WizardParams } from '../lib/wizard-params';
import { PricePlaceholder } from './price-bar-frame';
import { StepNav, STEP_NAMES } from './step-nav';
import { StepPaper } from './step-paper';
import type { InstructionErrors } from './step-instructions';
import { WizardState } from './wizard-state';

// Steps 2 and 3 (files, phone numbers, sign-up) are not needed for the first paint (ADR 0025).
const loadInstructions = () => import('./step-instructions');
const loadCheckout = () => import('./step-checkout');
const StepInstructions = lazy(() => loadInstructions().then((m) => ({ default: m.StepInstructions })));
const StepCheckout = lazy(() => loadCheckout().then((m) => ({ default: m.StepCheckout })));
// Shown on step 3 while the order is sent, so not part of the first paint either (ADR 0062).
const UploadProgress = lazy(() => import('./upload-progress').then((m) => ({ default: m.UploadProgress })));
// The price's code (its arithmetic, the server's confirmation) comes just after the first paint (ADR 0062).
const PriceArea = lazy(() => import('./price-area').then((m) => ({ default: m.PriceArea })));

/**
 * The price (ADR 0062): a placeholder bar in the first render; once the browser has drawn it (the next
 * frame, then a task), the price's chunk, its summary drawn into the `<aside>` behind `asideRef`. Its own
 * component, so that this second render re-renders the price alone, not the step.
 */
function WizardPrice({ asideRef }: { asideRef: RefObject<HTMLDivElement | null> }) {
  // undefined until the first paint is done; then the aside's element (null when there is none)
  const [aside, setAside] = useState<HTMLDivElement | null | undefined>(undefined);
  useEffect(() => {
    let timer: number | undefined;
    const later = () => {
      timer = window.setTimeout(() => setAside(asideRef.current), 0);
    };
    const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(later) : undefined;
    if (frame === undefined) later();
    return () => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [asideRef]);
  if (aside === undefined) return <PricePlaceholder asideSlot={null} />;
  return (
    <Suspense fallback={<PricePlaceholder asideSlot={aside} />}>
      <PriceArea asideSlot={aside} />
    </Suspense>
  );
}

const loadLaterSteps = () => {
  void loadInstructions();
  void loadCheckout();
  void loadSubmitOrder();
  void import('./upload-progress');
};

export interface OrderWizardProps {
  settings: SiteSettings;
  customer: Customer | null;
  onAuthenticated: () => Promise<unknown>;
  onForgotPassword: () => void;
  /** where the wizard goes when done (SPEC §2): the order page, or /dashboard after a failed first order */
  orderPath: (id: number) => string;
  dashboardPath: string;
}

const stepLabel = (step: WizardStep) => `Step ${step} of 3: ${STEP_NAMES[step]}`;

/** What the wizard opens on: a new order, or an order being edited or cloned (`EditedOrderWizard`). */
export interface WizardSource {
  /** the edited or cloned order's id, the state's key; null for a new order */
  id: number | null;
  /** the edited or cloned order's values */
  prefill: Partial<OrderFormValues>;
  siteCategory: number | undefined;
  remoteFiles: WizardFile[];
  /** the order carries a discount code: it goes through the discount endpoint on opening (ADR 0027) */
  discount: boolean;
  editing: EditingOrder | null;
  /** why the order asked for cannot be edited, or null */
  notEditable: string | null;
}

export const NEW_ORDER: WizardSource = {
  id: null,
  prefill: {},
  siteCategory: undefined,
  remoteFiles: [],
  discount: false,
  editing: null,
  notEditable: null,
};

/** The wizard's state (ADR 0056) around its steps, for `source` and the address's own values (SPEC §2). */
export function WizardFor({
  wizard,
  search,
  params,
  source,
}: {
  wizard: OrderWizardProps;
  search: URLSearchParams;
  params: WizardParams;
  source: WizardSource;
}) {
  return (
    <WizardState
      key={source.id ?? 'new'}
      settings={wizard.settings}
      customer={wizard.customer}
      prefill={{ ...source.prefill, ...orderFormFromQuery(search) }}
      siteCategory={source.siteCategory}
      remoteFiles={source.remoteFiles}
      applyDiscountOnOpen={source.discount || params.discountInQuery}
      editing={source.editing !== null}
    >
      <WizardSteps {...wizard} editing={source.editing} notEditable={source.notEditable} refId={params.refId} />
    </WizardState>
  );
}

interface WizardStepsProps extends OrderWizardProps {
  editing: EditingOrder | null;
  notEditable: string | null;
  refId: string | null;
}

/** The steps, their navigation and the price beside them (SPEC §4 "Order form steps"). */
function WizardSteps(props: WizardStepsProps) {
  const [, navigate] = useLocation();
  const { values, siteCategory } = useWizardForm();
  const { files, setFiles } = useWizardFiles();
  const { checkout, setCheckout } = useWizardCheckout();
  const { locked: creating, setLocked, idempotencyKeyRef, persist } = useWizardSubmission();
  const { fieldRef, focusField } = useWizardFocus();

  const step1 = isSubjectStepComplete(values);
  const step2 = step1 && isDetailsStepComplete(values, { fileCount: files.length, filesValid: true });
  const { step, goTo } = useWizardStep(!step1 ? 1 : !step2 ? 2 : 3);

  const [showSubjectError, setShowSubjectError] = useState(false);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [titleWarning, setTitleWarning] = useState<string | null>(null);
  const [serverTitleError, setServerTitleError] = useState<string | undefined>();
  const detailErrors = validateOrderDetails(values, { fileCount: files.length });
  const instructionErrors: InstructionErrors = {
    details: touched.details ? detailErrors.details : undefined,
    files: touched.details ? detailErrors.files : undefined,
    title: serverTitleError,
  };
  const subjectError = showSubjectError ? detailErrors.subject : undefined;

  // A field named by a failure on another step takes the focus there, instead of that step's heading.
  const fieldAfterStepChange = useRef<FocusableField | null>(null);
  const focusFieldAfterStepChange = useCallback(() => {
    const field = fieldAfterStepChange.current;
    fieldAfterStepChange.current = null;
    if (field) focusField(field);
    return field !== null;
  }, [focusField]);
  const stepHeadingRef = useStepFocus(step, stepLabel(step), focusFieldAfterStepChange);
  const { create, failure } = useCreateOrder(
    { values, siteCategory, files, setFiles, checkout, setCheckout, setLocked, idempotencyKeyRef, persist },
    {
      editing: props.editing,
      refId: props.refId,
      onAuthenticated: props.onAuthenticated,
      onDone: (id) => void navigate(props.orderPath(id)),
      onSignedUpFailure: () => void navigate(props.dashboardPath),
      // SPEC §8: the field named by the failure takes the focus, on its step.
      focusField: (field) => {
        if (field === 'title') setServerTitleError(ORDER_FORM_MESSAGE.invalidTitle);
        if (field !== 'title' && field !== 'details') return;
        if (step === 2) {
          focusField(field);
        } else {
          fieldAfterStepChange.current = field;
          goTo(2);
        }
      },
    },
  );
  useRunOnFirstInput(loadLaterSteps);

  const next = () => {
    if (step === 1) {
      if (!step1) {
        setShowSubjectError(true);
        focusField('subject');
        return;
      }
      goTo(2);
    } else if (step === 2) {
      setTouched({ details: true, title: true });
      if (!step2) {
        focusField(detailErrors.files ? 'files' : 'details');
        return;
      }
      goTo(3);
    }
  };

  const title = props.editing ? `Edit order #${props.editing.id}` : 'New Order';
  const asideRef = useRef<HTMLDivElement>(null);

  return (
    <>
      <div className="flex flex-col gap-6 pb-24 min-[992px]:pb-0">
        <PageHeading>{title}</PageHeading>
        {props.notEditable && <Alert tone="error">{props.notEditable}</Alert>}
        <StepNav step={step} reachable={[true, step1, step2]} disabled={creating} onGoTo={goTo} />
        <div className="grid items-start gap-6 min-[992px]:grid-cols-[minmax(0,1fr)_20rem]">
          <form
            noValidate
            aria-label={`Step ${step}: ${STEP_NAMES[step]}`}
            onSubmit={(event) => {
              event.preventDefault();
              next();
            }}
            className="flex flex-col gap-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
          >
            <h2 ref={stepHeadingRef} tabIndex={-1} className="text-lg font-semibold">
              {stepLabel(step)}
            </h2>
            <fieldset disabled={creating} className="contents">
              <Suspense fallback={<Spinner className="size-6" />}>
                {step === 1 && <StepPaper subjectError={subjectError} subjectRef={fieldRef('subject')} />}
                {step === 2 && (
                  <StepInstructions
                    errors={instructionErrors}
                    onBlurField={(field) => {
                      setTouched((t) => ({ ...t, [field]: true }));
                      if (field === 'title') setServerTitleError(undefined);
                    }}
                    titleWarning={titleWarning}
                    setTitleWarning={setTitleWarning}
                  />
                )}
              </Suspense>
            </fieldset>
            <Suspense fallback={<Spinner className="size-6" />}>
              {step === 3 && (
                <StepCheckout
                  onCreate={(account) => void create(account)}
                  creating={creating}
                  failure={failure}
                  editing={props.editing !== null}
                  onForgotPassword={props.onForgotPassword}
                />
              )}
            </Suspense>
            {step === 3 && (
              <Suspense fallback={null}>
                <UploadProgress />
              </Suspense>
            )}
            <div className="flex justify-between gap-3">
              {step > 1 ? (
                <Button variant="secondary" disabled={creating} onClick={() => goTo((step - 1) as WizardStep)}>
                  Back
                </Button>
              ) : (
                <span />
              )}
              {step < 3 && <Button type="submit">Continue</Button>}
            </div>
          </form>
          <aside
            aria-label="Price"
            className="hidden rounded-lg border border-slate-200 bg-white p-4 min-[992px]:sticky min-[992px]:top-20 min-[992px]:block"
          >
            <h2 className="mb-3 text-lg font-semibold">Your price</h2>
            <div ref={asideRef} />
          </aside>
        </div>
      </div>
      <WizardPrice asideRef={asideRef} />
    </>
  );
}
