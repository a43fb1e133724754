import { useMemo } from 'react';
import { calculatePrice, toPriceTable } from '@app/domain/pricing';
import { priceInputForForm, type OrderFormValues } from '@app/domain/order-form/rules';
import { useCalcs } from '../api/catalogues';

export interface ExtraPrices {
  premiumWriter: number | null;
  extraQualityCheck: number | null;
  originalityReport: number | null;
  onePageSummary: number | null;
}

const NONE: ExtraPrices = { premiumWriter: null, extraQualityCheck: null, originalityReport: null, onePageSummary: null };

/**
 * What each extra adds to this order, in cents, before it is ticked (issue 27): the domain's one price
 * function (ADR 0027) over the same tables, with all four extras on, read line by line. The server's
 * confirmation of the total is unchanged; these are the same figures the summary shows once ticked.
 */
export const useExtraPrices = (values: OrderFormValues, siteCategory: number): ExtraPrices => {
  const calcs = useCalcs(siteCategory);
  return useMemo(() => {
    if (!calcs.data) return NONE;
    const all = { ...values, premiumWriter: true, extraQualityCheck: true, originalityReport: true, onePageSummary: true };
    const result = calculatePrice(toPriceTable(calcs.data), priceInputForForm(all));
    if (!result.ok) return NONE;
    const p = result.price;
    return {
      premiumWriter: p.pricePremiumWriter,
      extraQualityCheck: p.priceExtraQualityCheck,
      originalityReport: p.priceQuality,
      onePageSummary: p.priceOnePageSummary,
    };
  }, [calcs.data, values]);
};
