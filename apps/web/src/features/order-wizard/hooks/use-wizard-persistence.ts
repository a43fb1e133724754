import { useCallback, useEffect, type RefObject } from 'react';
import type { SiteSettings } from '@app/domain/settings';
import { applyFormDependencies, defaultOrderForm, type OrderFormValues } from '@app/domain/order-form/rules';
import { defaultCheckout, readWizardState, writeWizardState, type WizardState } from '../lib/persisted-state';
import type { WizardFile } from './wizard-contexts';

const pickCategory = (settings: SiteSettings, wanted: number | undefined): number => {
  const categories = settings.siteCategories;
  if (wanted !== undefined && categories.includes(wanted)) return wanted;
  return categories[0] ?? 1;
};

/**
 * SPEC §4 "persisted locally": the state restored from local storage, under the query string's values
 * (SPEC §2 prefill) and the category of an order being edited or cloned.
 */
export const restoreWizardState = ({
  settings,
  prefill,
  siteCategory: wanted,
}: {
  settings: SiteSettings;
  prefill: Partial<OrderFormValues>;
  siteCategory?: number | undefined;
}): WizardState => {
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

/** SPEC §4: persisted locally on every change while not locked (files cannot be: only their names). */
export const useWizardPersistence = ({
  siteCategory,
  values,
  discount,
  checkout,
  files,
  idempotencyKeyRef,
  locked,
}: Omit<WizardState, 'idempotencyKey' | 'fileNames'> & {
  files: readonly WizardFile[];
  idempotencyKeyRef: RefObject<string | null>;
  locked: boolean;
}): (() => void) => {
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
    [siteCategory, values, discount, checkout, files, idempotencyKeyRef],
  );
  useEffect(() => {
    if (!locked) persist();
  }, [persist, locked]);
  return persist;
};
