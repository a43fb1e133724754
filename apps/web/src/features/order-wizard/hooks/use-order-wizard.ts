import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { Customer } from '@app/domain/customer';
import type { SiteSettings } from '@app/domain/settings';
import { calculatePrice, priceFromWire, samePrice, toPriceTable, type PriceResult } from '@app/domain/pricing';
import { discountProblem } from '@app/domain/discount/rules';
import { amountToCents } from '@app/domain/money';
import {
  applyFormDependencies,
  defaultOrderForm,
  isSubjectStepComplete,
  priceInputForForm,
  toPriceCalcBody,
  type FormDependencies,
  type OrderFormValues,
} from '@app/domain/order-form/rules';
import { ApiError } from '@/lib/api-client';
import { useCalcs } from '../api/catalogues';
import { usePriceConfirmation } from '../api/pricing';
import { trackWizardEvent } from '../lib/debug';
import {
  defaultCheckout,
  readWizardState,
  writeWizardState,
  type AppliedDiscount,
  type CheckoutState,
  type WizardState,
} from '../lib/persisted-state';
import { useDiscountApply } from './use-discount-apply';

/** A file picked in the wizard (local) or already on the server while editing (remote). */
export type WizardFile =
  | { key: string; remote: false; file: File; name: string; size: number; progress: number | null }
  | { key: string; remote: true; id: number; name: string; size: number };

export interface WizardInit {
  settings: SiteSettings;
  customer: Customer | null;
  /** query-string values (SPEC §2), already read */
  prefill: Partial<OrderFormValues>;
  /** the category of an order being edited or cloned */
  siteCategory?: number | undefined;
}

const pickCategory = (settings: SiteSettings, wanted: number | undefined): number => {
  const categories = settings.siteCategories;
  if (wanted !== undefined && categories.includes(wanted)) return wanted;
  return categories[0] ?? 1;
};

/** Restored state (SPEC §4 "persisted locally") under the query string's values (SPEC §2 prefill). */
const initialState = ({ settings, prefill, siteCategory: wanted }: WizardInit): WizardState => {
  const stored = readWizardState();
  const siteCategory = pickCategory(settings, wanted ?? stored?.siteCategory);
  const values = { ...defaultOrderForm(siteCategory), ...(stored?.values ?? {}), ...prefill };
  // A stored discount belongs to the stored form: an order opened for editing, or a code in the query,
  // brings its own code, applied again through the discount endpoint (ADR 0027), never a stale one.
  const storedDiscount = stored?.discount ?? null;
  const discount = prefill.discountCode === undefined || storedDiscount?.code === prefill.discountCode ? storedDiscount : null;
  return {
    siteCategory,
    values: applyFormDependencies(values, { siteCategory }).values,
    discount,
    checkout: { ...defaultCheckout(), ...(stored?.checkout ?? {}) },
    idempotencyKey: stored?.idempotencyKey ?? null,
    fileNames: stored?.fileNames ?? [],
  };
};

export const useOrderWizardState = (init: WizardInit) => {
  const [start] = useState(() => initialState(init));
  // A plain state hook, not react-hook-form: every field is validated by the domain's functions and
  // react-hook-form would be 12.6 kB gzip of the 100 KiB first paint (ADR 0025).
  const [values, setValues] = useState<OrderFormValues>(start.values);
  const valuesRef = useRef(values);
  const [siteCategory, setSiteCategoryState] = useState(start.siteCategory);
  const [discount, setDiscount] = useState<AppliedDiscount | null>(start.discount);
  const [checkout, setCheckout] = useState<CheckoutState>(start.checkout);
  const [files, setFiles] = useState<WizardFile[]>([]);
  const [locked, setLocked] = useState(false);
  const idempotencyKeyRef = useRef<string | null>(start.idempotencyKey);
  useEffect(() => {
    valuesRef.current = values;
  }, [values]);

  const deps: FormDependencies = useMemo(
    () => applyFormDependencies(values, { siteCategory }),
    [values, siteCategory],
  );

  /** Every change goes through the SPEC §4 dependencies, so a disabled option never stays chosen. */
  const update = useCallback(
    (patch: Partial<OrderFormValues>) => {
      setValues((current) => {
        const next = applyFormDependencies({ ...current, ...patch }, { siteCategory, previousWorkType: current.workType });
        // Free text is kept as typed; the dependencies only clamp numbers and switch options.
        return { ...next.values, title: patch.title ?? current.title, details: patch.details ?? current.details, credentials: patch.credentials ?? current.credentials };
      });
    },
    [siteCategory],
  );

  /** The service choice (CONTRACT): another category has other lists and another level field. */
  const setSiteCategory = useCallback(
    (category: number) => {
      const current = valuesRef.current;
      const defaults = defaultOrderForm(category);
      const next = applyFormDependencies(
        { ...defaults, pages: current.pages, title: current.title, details: current.details, credentials: current.credentials, discountCode: current.discountCode },
        { siteCategory: category },
      ).values;
      setValues(next);
      setSiteCategoryState(category);
      trackWizardEvent('category', category);
    },
    [],
  );

  const calcs = useCalcs(siteCategory);
  const table = useMemo(() => (calcs.data ? toPriceTable(calcs.data) : null), [calcs.data]);
  const discountBlocked = discount ? discountProblem(discount, deps.values.premiumWriter) : null;
  const appliedDiscount = discount && !discountBlocked ? discount : null;
  // The price moves in the same render as the input (ADR 0027): one pure function, no request.
  const clientPrice: PriceResult | null = useMemo(() => {
    if (!table) return null;
    const applied = appliedDiscount ? { percent: appliedDiscount.percent, amount: amountToCents(appliedDiscount.amount) } : undefined;
    return calculatePrice(table, priceInputForForm(deps.values, applied));
  }, [table, deps.values, appliedDiscount]);

  // ...and the server confirms it once the choices settle (ADR 0027, SPEC §7 PUT …/calcs).
  const calcBody = useMemo(() => toPriceCalcBody(deps.values, siteCategory, appliedDiscount), [deps.values, siteCategory, appliedDiscount]);
  const confirmation = usePriceConfirmation(siteCategory, calcBody);
  const serverData = confirmation.settled ? confirmation.query.data : undefined;
  const serverError = confirmation.settled ? confirmation.query.error : null;
  // A 422 without field errors is "no rate fits" (pricing.service); any other failure leaves the client's figure.
  const serverNoRate = serverError instanceof ApiError && serverError.status === 422 && Object.keys(serverError.fieldErrors).length === 0;
  const serverPrice = useMemo(() => (serverData ? priceFromWire(serverData) : null), [serverData]);
  /** What the wizard shows: the server's figure for the choices on screen when it has one, else the client's. */
  const price: PriceResult | null = serverPrice ? { ok: true, price: serverPrice } : serverNoRate ? { ok: false, reason: 'no-rate' } : clientPrice;
  const noRateMessage = serverNoRate && serverError instanceof ApiError ? (serverError.serverMessage ?? null) : null;

  useEffect(() => {
    if (!clientPrice) return;
    if (serverPrice && !(clientPrice.ok && samePrice(clientPrice.price, serverPrice))) {
      trackWizardEvent('price-mismatch', { client: clientPrice.ok ? clientPrice.price : clientPrice.reason, server: serverPrice });
    } else if (serverNoRate && clientPrice.ok) {
      trackWizardEvent('price-mismatch', { client: clientPrice.price, server: 'no-rate' });
    }
  }, [clientPrice, serverPrice, serverNoRate]);
  useEffect(() => {
    if (serverError && !serverNoRate) trackWizardEvent('price-confirm-failed', serverError instanceof ApiError ? serverError.status : String(serverError));
  }, [serverError, serverNoRate]);

  const discountApply = useDiscountApply(setDiscount, update);

  const finalPrice = price?.ok ? price.price.finalPrice : null;
  useEffect(() => {
    if (finalPrice !== null) trackWizardEvent('price', finalPrice);
  }, [finalPrice]);

  const persist = useCallback(
    () =>
      writeWizardState({
        siteCategory,
        values,
        discount,
        checkout,
        idempotencyKey: idempotencyKeyRef.current,
        fileNames: files.filter((f) => !f.remote).map((f) => f.name),
      }),
    [siteCategory, values, discount, checkout, files],
  );
  // SPEC §4: persisted locally on every change (files cannot be: only their names, to ask again).
  useEffect(() => {
    if (!locked) persist();
  }, [persist, locked]);

  const stepOneComplete = isSubjectStepComplete(values);

  return {
    rawValues: values,
    values: deps.values,
    deps,
    update,
    siteCategory,
    setSiteCategory,
    calcs,
    price,
    /** the server's words when it found no rate for the choices on screen */
    noRateMessage,
    /** the server has answered for the choices on screen (its figure, or its refusal, is shown) */
    priceConfirmed: serverPrice !== null || serverNoRate,
    discount,
    discountApply,
    setDiscount,
    discountBlocked,
    checkout,
    setCheckout,
    files,
    setFiles,
    locked,
    setLocked,
    idempotencyKeyRef,
    persist,
    stepOneComplete,
    lostFileNames: start.fileNames,
    settings: init.settings,
    customer: init.customer,
  };
};

export type OrderWizardState = ReturnType<typeof useOrderWizardState>;

/** Moves focus to a wizard field by its name (SPEC §8: the title is focused on its error). */
export const focusField = (name: string, attempts = 20): void => {
  // The field's step may still be loading (lazy): try again for a moment.
  window.setTimeout(() => {
    const element = document.querySelector<HTMLElement>(`[name="${name}"]`);
    if (element) element.focus();
    else if (attempts > 0) focusField(name, attempts - 1);
  }, 50);
};

export const WizardContext = createContext<OrderWizardState | null>(null);

export const useWizard = (): OrderWizardState => {
  const value = useContext(WizardContext);
  if (!value) throw new Error('useWizard outside the order wizard');
  return value;
};
