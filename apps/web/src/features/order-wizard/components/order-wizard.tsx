import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { ChevronDown } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { PageHeading } from '@/components/ui/page-heading';
import { useAnnounce } from '@/lib/announce';
import type { Customer } from '@app/domain/customer';
import type { SiteSettings } from '@app/domain/settings';
import {
  isDetailsStepComplete,
  orderFormFromOrder,
  orderFormFromQuery,
  ORDER_FORM_MESSAGE,
  validateOrderDetails,
} from '@app/domain/order-form/rules';
import { isOrderEditable, ORDER_EDIT_MESSAGE } from '@app/domain/order/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useOrder, useOrderFiles } from '../api/orders';
import { loadSubmitOrder, useCreateOrder } from '../hooks/use-create-order';
import { focusField, useOrderWizardState, WizardContext, type WizardFile } from '../hooks/use-order-wizard';
import { useWizardStep, type WizardStep } from '../hooks/use-wizard-step';
import { setWizardDebug } from '../lib/debug';
import { PriceSummary, PriceTotal } from './price-summary';
import { StepPaper } from './step-paper';
import type { InstructionErrors } from './step-instructions';

// Steps 2 and 3 (files, phone numbers, sign-up) are not needed for the first paint (ADR 0025).
const loadInstructions = () => import('./step-instructions');
const loadCheckout = () => import('./step-checkout');
const StepInstructions = lazy(() => loadInstructions().then((m) => ({ default: m.StepInstructions })));
const StepCheckout = lazy(() => loadCheckout().then((m) => ({ default: m.StepCheckout })));

export interface OrderWizardProps {
  settings: SiteSettings;
  customer: Customer | null;
  onAuthenticated: () => Promise<unknown>;
  onForgotPassword: () => void;
  /** where the wizard goes when done (SPEC §2): the order page, or /dashboard after a failed first order */
  orderPath: (id: number) => string;
  dashboardPath: string;
}

/** DESIGN rule 9: while the order is sent, each new file shows its upload progress (on whatever step is open). */
function UploadProgress({ files }: { files: WizardFile[] }) {
  const uploading = files.filter((f) => !f.remote && f.progress !== null);
  if (uploading.length === 0) return null;
  return (
    <ul className="flex flex-col gap-2" aria-label="Uploads">
      {uploading.map((f) =>
        f.remote ? null : (
          <li key={f.key} className="flex flex-col gap-1 text-sm">
            <span>
              {f.name} — {f.progress}%
            </span>
            <progress className="h-2 w-full accent-primary" max={100} value={f.progress ?? 0} aria-label={`Uploading ${f.name}`} />
          </li>
        ),
      )}
    </ul>
  );
}

const STEP_NAMES: Record<WizardStep, string> = { 1: 'Paper', 2: 'Instructions', 3: 'Checkout' };
const stepLabel = (step: WizardStep) => `Step ${step} of 3: ${STEP_NAMES[step]}`;

/**
 * WCAG 2.4.11: the fixed price bar (below 992 px) must not cover the focused control. Its height goes
 * to `--price-bar-height`, which index.css turns into the page's bottom scroll padding (ADR 0042).
 */
const usePriceBarHeight = () => {
  const observer = useRef<ResizeObserver | null>(null);
  return useCallback((bar: HTMLDivElement | null) => {
    const root = document.documentElement.style;
    observer.current?.disconnect();
    if (!bar) {
      root.removeProperty('--price-bar-height');
      return;
    }
    const measure = () => root.setProperty('--price-bar-height', `${bar.offsetHeight}px`);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    observer.current = new ResizeObserver(measure);
    observer.current.observe(bar);
  }, []);
};

const positiveInt = (raw: string | null): number | null => {
  const n = Number(raw);
  return raw !== null && Number.isInteger(n) && n > 0 ? n : null;
};

/** SPEC §2 /order: the new-order wizard (three steps of SPEC §4, live price, checkout). */
export function OrderWizard(props: OrderWizardProps) {
  const [params] = useSearchParams();
  const editingId = positiveInt(params.get('editingOrderId'));
  const cloningId = positiveInt(params.get('cloningOrder'));
  const sourceId = props.customer ? (editingId ?? cloningId) : null;
  const order = useOrder(sourceId);
  const files = useOrderFiles(props.customer && editingId !== null ? editingId : null);
  useEffect(() => setWizardDebug(params.get('_ym_debug') === '1'), [params]);

  if (sourceId !== null && order.isPending) return <Spinner className="size-6" />;
  if (editingId !== null && files.isPending && props.customer) return <Spinner className="size-6" />;
  const forceEditing = params.has('forceEditing') && params.get('forceEditing') !== '0';
  const source = order.data;
  const editable = editingId !== null && source !== undefined && isOrderEditable(source.status, forceEditing);
  const remoteFiles: WizardFile[] = editable
    ? (files.data ?? []).map((f) => ({ key: `remote-${f.id}`, remote: true, id: f.id, name: f.name, size: f.size }))
    : [];
  return (
    <WizardBody
      key={source?.id ?? 'new'}
      {...props}
      prefill={{ ...(source ? orderFormFromOrder(source) : {}), ...orderFormFromQuery(params) }}
      siteCategory={source?.siteCategory}
      editing={editable && source ? { id: source.id, remoteFileIds: remoteFiles.map((f) => (f.remote ? f.id : 0)), forceEditing } : null}
      remoteFiles={remoteFiles}
      notEditable={editingId !== null && (order.isError || (source !== undefined && !editable))}
      refId={params.get('ref_id')}
      applyDiscountOnOpen={Boolean(source?.discount) || params.has('discount') || params.has('discountCode')}
    />
  );
}

interface WizardBodyProps extends OrderWizardProps {
  prefill: ReturnType<typeof orderFormFromQuery>;
  siteCategory: number | undefined;
  editing: { id: number; remoteFileIds: number[]; forceEditing: boolean } | null;
  remoteFiles: WizardFile[];
  notEditable: boolean;
  refId: string | null;
  /**
   * The form's discount code goes through the discount endpoint on opening (SPEC §2 ?discount=; ADR 0027:
   * the code stored on an order being edited or cloned), so every step prices what will be charged.
   */
  applyDiscountOnOpen: boolean;
}

function WizardBody(props: WizardBodyProps) {
  const [, navigate] = useLocation();
  const w = useOrderWizardState({ settings: props.settings, customer: props.customer, prefill: props.prefill, siteCategory: props.siteCategory });
  const { values, files, setFiles } = w;
  const [remoteFiles] = useState(props.remoteFiles);
  const [codeOnOpen] = useState(() => (props.applyDiscountOnOpen ? w.values.discountCode : ''));
  const { apply: applyDiscountCode } = w.discountApply;
  const appliedOnOpen = useRef(false);
  const storedCode = w.discount?.code ?? null;
  useEffect(() => {
    if (appliedOnOpen.current || codeOnOpen === '') return;
    appliedOnOpen.current = true;
    // A new order restored with this very code applied needs no second call; an edited order always asks.
    if (!props.editing && storedCode === codeOnOpen) return;
    void applyDiscountCode(codeOnOpen, null);
  }, [codeOnOpen, storedCode, applyDiscountCode, props.editing]);
  useEffect(() => {
    if (remoteFiles.length > 0) setFiles((current) => [...remoteFiles, ...current.filter((f) => !f.remote)]);
  }, [remoteFiles, setFiles]);

  const step1 = w.stepOneComplete;
  const step2 = step1 && isDetailsStepComplete(values, { fileCount: files.length, filesValid: true });
  const { step, goTo } = useWizardStep(!step1 ? 1 : !step2 ? 2 : 3);

  const [showSubjectError, setShowSubjectError] = useState(false);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [titleWarning, setTitleWarning] = useState<string | null>(null);
  const detailErrors = validateOrderDetails(values, { fileCount: files.length });
  const instructionErrors: InstructionErrors = {
    details: touched.details ? detailErrors.details : undefined,
    files: touched.details ? detailErrors.files : undefined,
  };
  const [serverTitleError, setServerTitleError] = useState<string | undefined>();
  instructionErrors.title = serverTitleError;
  const subjectError = showSubjectError ? detailErrors.subject : undefined;

  // ADR 0042: a new step takes the focus on its heading and is announced ('Step 2 of 3: Instructions').
  const stepHeadingRef = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(step);
  const announce = useAnnounce();
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    stepHeadingRef.current?.focus();
    announce(stepLabel(step));
  }, [step, announce]);
  const priceBarRef = usePriceBarHeight();
  const { create, failure } = useCreateOrder(w, {
    editing: props.editing,
    refId: props.refId,
    onAuthenticated: props.onAuthenticated,
    onDone: (id) => void navigate(props.orderPath(id)),
    onSignedUpFailure: () => void navigate(props.dashboardPath),
    focusField: (field) => {
      if (field === 'title') {
        setServerTitleError(ORDER_FORM_MESSAGE.invalidTitle);
        goTo(2);
        focusField('title');
      }
    },
  });

  // The later steps' code: the browser downloads it while idle (the page's prefetch links, ADR 0040) and
  // it runs once the visitor starts on the form, when the browser is idle, not during the first paint.
  useEffect(() => {
    const events = ['pointerdown', 'keydown', 'touchstart'] as const;
    let idle: number | undefined;
    const stop = () => {
      for (const name of events) window.removeEventListener(name, start);
    };
    function start() {
      stop();
      const load = () => {
        void loadInstructions();
        void loadCheckout();
        void loadSubmitOrder();
      };
      idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(load, { timeout: 1_000 }) : window.setTimeout(load, 50);
    }
    for (const name of events) window.addEventListener(name, start, { passive: true });
    return () => {
      stop();
      if (idle !== undefined) (typeof cancelIdleCallback === 'function' ? cancelIdleCallback : window.clearTimeout)(idle);
    };
  }, []);

  const next = () => {
    if (step === 1) {
      if (!step1) {
        setShowSubjectError(true);
        document.querySelector<HTMLElement>('select[name="subject"]')?.focus();
        return;
      }
      goTo(2);
    } else if (step === 2) {
      setTouched({ details: true, title: true });
      if (!step2) {
        const target = detailErrors.files ? 'input[type="file"]' : 'textarea[name="details"]';
        document.querySelector<HTMLElement>(target)?.focus();
        return;
      }
      goTo(3);
    }
  };

  const creating = w.locked;
  const [priceOpen, setPriceOpen] = useState(false);
  const title = props.editing ? `Edit order #${props.editing.id}` : 'New Order';
  const summary = useMemo(() => <PriceSummary />, []);

  return (
    <WizardContext.Provider value={w}>
      <div className="flex flex-col gap-6 pb-24 min-[992px]:pb-0">
        <PageHeading>{title}</PageHeading>
        {props.notEditable && <Alert tone="error">{ORDER_EDIT_MESSAGE.notEditable}</Alert>}
        <nav aria-label="Order steps">
          <ol className="flex gap-2 text-sm">
            {([1, 2, 3] as const).map((n) => {
              const reachable = n === 1 || (n === 2 && step1) || (n === 3 && step2);
              return (
                <li key={n} className="flex-1">
                  <button
                    type="button"
                    disabled={!reachable || creating}
                    aria-current={step === n ? 'step' : undefined}
                    onClick={() => goTo(n)}
                    className={`w-full rounded-md border px-2 py-2 text-left font-medium ${step === n ? 'border-primary bg-white text-slate-900 ring-2 ring-primary/40' : 'border-slate-300 bg-white text-slate-700'} disabled:text-slate-500`}
                  >
                    <span className="block text-xs text-slate-600">Step {n}</span>
                    {STEP_NAMES[n]}
                  </button>
                </li>
              );
            })}
          </ol>
        </nav>
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
                {step === 1 && <StepPaper subjectError={subjectError} />}
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
            {step === 3 && <UploadProgress files={files} />}
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
          <aside aria-label="Price" className="hidden rounded-lg border border-slate-200 bg-white p-4 min-[992px]:sticky min-[992px]:top-20 min-[992px]:block">
            <h2 className="mb-3 text-lg font-semibold">Your price</h2>
            {summary}
          </aside>
        </div>
      </div>
      <div ref={priceBarRef} data-testid="price-bar" className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white shadow-[0_-2px_8px_rgba(0,0,0,0.06)] min-[992px]:hidden">
        {priceOpen && (
          <div id="price-details" className="border-b border-slate-200 p-4">
            {summary}
          </div>
        )}
        <div className="flex items-center justify-between gap-3 px-4 py-3">
          <button
            type="button"
            aria-expanded={priceOpen}
            aria-controls="price-details"
            onClick={() => setPriceOpen((open) => !open)}
            className="flex items-center gap-1 text-sm font-medium text-slate-800"
          >
            Total <Icon icon={ChevronDown} className={`size-4 transition ${priceOpen ? 'rotate-180' : ''}`} />
          </button>
          <PriceTotal />
        </div>
      </div>
    </WizardContext.Provider>
  );
}
