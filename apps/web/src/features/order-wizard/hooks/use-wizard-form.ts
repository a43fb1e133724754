import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { applyFormDependencies, defaultOrderForm, type FormDependencies, type OrderFormValues } from '@app/domain/order-form/rules';
import { trackWizardEvent } from '../lib/debug';

/**
 * The form's values and service (SPEC §4). A plain state hook, not react-hook-form: every field is
 * validated by the domain's functions and react-hook-form would be 12.6 kB gzip of the first paint (ADR 0025).
 */
export const useWizardFormState = (start: { values: OrderFormValues; siteCategory: number }) => {
  const [values, setValues] = useState<OrderFormValues>(start.values);
  const [siteCategory, setSiteCategoryState] = useState(start.siteCategory);
  const valuesRef = useRef(values);
  useEffect(() => {
    valuesRef.current = values;
  }, [values]);

  const deps: FormDependencies = useMemo(() => applyFormDependencies(values, { siteCategory }), [values, siteCategory]);

  /** Every change goes through the SPEC §4 dependencies, so a disabled option never stays chosen. */
  const update = useCallback(
    (patch: Partial<OrderFormValues>) => {
      setValues((current) => {
        const next = applyFormDependencies({ ...current, ...patch }, { siteCategory, previousWorkType: current.workType });
        // Free text is kept as typed; the dependencies only clamp numbers and switch options.
        return {
          ...next.values,
          title: patch.title ?? current.title,
          details: patch.details ?? current.details,
          credentials: patch.credentials ?? current.credentials,
        };
      });
    },
    [siteCategory],
  );

  /** The service choice (CONTRACT): another category has other lists and another level field. */
  const setSiteCategory = useCallback((category: number) => {
    const current = valuesRef.current;
    const defaults = defaultOrderForm(category);
    const next = applyFormDependencies(
      {
        ...defaults,
        pages: current.pages,
        title: current.title,
        details: current.details,
        credentials: current.credentials,
        discountCode: current.discountCode,
      },
      { siteCategory: category },
    ).values;
    setValues(next);
    setSiteCategoryState(category);
    trackWizardEvent('category', category);
  }, []);

  return { rawValues: values, values: deps.values, deps, update, siteCategory, setSiteCategory };
};
