import { useEffect, useMemo } from 'react';
import { calculatePrice, priceFromWire, samePrice, toPriceTable, type PriceResult } from '@app/domain/pricing';
import { amountToCents } from '@app/domain/money';
import { priceInputForForm, toPriceCalcBody, type OrderFormValues } from '@app/domain/order-form/rules';
import { ApiError } from '@/lib/api-client';
import { useCalcs } from '../api/catalogues';
import { usePriceConfirmation } from '../api/pricing';
import { trackWizardEvent } from '../lib/debug';
import type { AppliedDiscount } from '../lib/persisted-state';
import type { WizardPrice } from './wizard-contexts';

/**
 * ADR 0027: the price moves in the same render as the input (one pure function over the price tables, no
 * request), and the server confirms it once the choices settle (SPEC §7 PUT …/calcs). What shows is the
 * server's figure for the choices on screen when it has one, else the client's.
 */
export const useWizardPriceState = (
  values: OrderFormValues,
  pagesLabel: WizardPrice['pagesLabel'],
  siteCategory: number,
  appliedDiscount: AppliedDiscount | null,
): WizardPrice => {
  const calcs = useCalcs(siteCategory);
  const table = useMemo(() => (calcs.data ? toPriceTable(calcs.data) : null), [calcs.data]);
  const clientPrice: PriceResult | null = useMemo(() => {
    if (!table) return null;
    const applied = appliedDiscount ? { percent: appliedDiscount.percent, amount: amountToCents(appliedDiscount.amount) } : undefined;
    return calculatePrice(table, priceInputForForm(values, applied));
  }, [table, values, appliedDiscount]);

  const calcBody = useMemo(() => toPriceCalcBody(values, siteCategory, appliedDiscount), [values, siteCategory, appliedDiscount]);
  const confirmation = usePriceConfirmation(siteCategory, calcBody);
  const serverData = confirmation.settled ? confirmation.query.data : undefined;
  const serverError = confirmation.settled ? confirmation.query.error : null;
  // A 422 without field errors is "no rate fits" (pricing.service); any other failure leaves the client's figure.
  const serverNoRate = serverError instanceof ApiError && serverError.status === 422 && Object.keys(serverError.fieldErrors).length === 0;
  const serverPrice = useMemo(() => (serverData ? priceFromWire(serverData) : null), [serverData]);
  const price: PriceResult | null = useMemo(
    () => (serverPrice ? { ok: true, price: serverPrice } : serverNoRate ? { ok: false, reason: 'no-rate' } : clientPrice),
    [serverPrice, serverNoRate, clientPrice],
  );
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
    if (serverError && !serverNoRate)
      trackWizardEvent('price-confirm-failed', serverError instanceof ApiError ? serverError.status : String(serverError));
  }, [serverError, serverNoRate]);
  const finalPrice = price?.ok ? price.price.finalPrice : null;
  useEffect(() => {
    if (finalPrice !== null) trackWizardEvent('price', finalPrice);
  }, [finalPrice]);

  const priceConfirmed = serverPrice !== null || serverNoRate;
  const { pages } = values;
  return useMemo(
    () => ({ price, noRateMessage, priceConfirmed, pages, pagesLabel }),
    [price, noRateMessage, priceConfirmed, pages, pagesLabel],
  );
};
