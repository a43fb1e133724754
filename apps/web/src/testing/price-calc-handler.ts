import { http, HttpResponse } from 'msw';
import { priceCalcBodySchema, priceInputForCalcBody, priceToWire, type PriceResponse } from '@app/domain/order-form';
import { calculatePrice, toPriceTable } from '@app/domain/pricing';
import { calcsFixture } from '@/testing/catalogue-fixtures';

export interface PriceCalcCall {
  body: Record<string, unknown>;
  aborted: () => boolean;
}

/**
 * `PUT …/orders/calcs` answered as the server answers it (pricing.service): the domain's price over the
 * served tables, 422 with a message when no rate fits. `adjust` lets a test make the server disagree,
 * `delayMs` keeps an answer in flight.
 */
export const priceCalcHandler = (
  calls: PriceCalcCall[] = [],
  {
    adjust,
    delayMs = 0,
    noRate,
  }: {
    adjust?: (price: PriceResponse, body: Record<string, unknown>) => PriceResponse;
    delayMs?: number | ((body: Record<string, unknown>) => number);
    /** bodies the server's tables have no rate for, whatever the client's say */
    noRate?: (body: Record<string, unknown>) => boolean;
  } = {},
) =>
  http.put('/api/en/sites/categories/:category/orders/calcs', async ({ request, params }) => {
    const raw = (await request.json()) as Record<string, unknown>;
    let aborted = false;
    request.signal.addEventListener('abort', () => {
      aborted = true;
    });
    calls.push({ body: raw, aborted: () => aborted });
    const wait = typeof delayMs === 'function' ? delayMs(raw) : delayMs;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const category = Number(params.category);
    const input = priceInputForCalcBody(priceCalcBodySchema.parse(raw), category);
    const result = input ? calculatePrice(toPriceTable(calcsFixture(category)), input) : null;
    if (!result?.ok || noRate?.(raw)) return HttpResponse.json({ message: 'This combination of options has no price' }, { status: 422 });
    const wire = priceToWire(result.price);
    return HttpResponse.json(adjust ? adjust(wire, raw) : wire);
  });

/** `POST …/discounts/apply` with the demo codes (CONTRACT "Demo data"). */
export const discountHandler = (codes: string[] = []) =>
  http.post('/api/en/orders/discounts/apply', async ({ request }) => {
    const code = (await request.formData()).get('code');
    if (typeof code === 'string') codes.push(code);
    if (code === 'WELCOME10') return HttpResponse.json({ code, amount: 0, percent: 10, isTopWriterDiscount: false });
    if (code === 'TOPWRITER20') return HttpResponse.json({ code, amount: 0, percent: 20, isTopWriterDiscount: true });
    return HttpResponse.json({ errors: { code: ['Invalid discount code'] } }, { status: 422 });
  });
