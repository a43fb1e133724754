import { formatUsd } from '@app/domain/money';
import { ORDER_EDIT_MESSAGE } from '@app/domain/order/rules';
import { useWizardPrice } from '../hooks/wizard-contexts';

/** SPEC §3 "Price": basic price, each extra, the discount and the final price, always in view. */
export function PriceSummary() {
  const { price, pages, pagesLabel, noRateMessage } = useWizardPrice();
  if (!price) return <p className="text-sm text-slate-600">Loading prices…</p>;
  if (!price.ok) {
    // The server's own words when it refused these choices (PUT …/calcs 422), else the same words here.
    return (
      <div role="status" className="text-sm text-slate-700">
        <p data-testid="price-problem">{noRateMessage ?? ORDER_EDIT_MESSAGE.noRate}</p>
        <p>Please choose another deadline or level.</p>
      </div>
    );
  }
  const p = price.price;
  const rows: [string, number][] = [
    [
      `Basic price (${pages} ${pagesLabel === 'slides' ? (pages === 1 ? 'slide' : 'slides') : pages === 1 ? 'page' : 'pages'})`,
      p.basicPrice,
    ],
    ['Premium writer', p.pricePremiumWriter],
    ['Preferred writer', p.pricePreferedWriter],
    ['Extra quality check', p.priceExtraQualityCheck],
    ['Originality report', p.priceQuality],
    ['One-page summary', p.priceOnePageSummary],
  ];
  return (
    <dl className="flex flex-col gap-1 text-sm">
      {rows
        .filter(([, cents], i) => i === 0 || cents > 0)
        .map(([label, cents]) => (
          <div key={label} className="flex justify-between gap-4">
            <dt className="text-slate-700">{label}</dt>
            <dd>{formatUsd(cents)}</dd>
          </div>
        ))}
      {p.priceDiscount > 0 && (
        <div className="flex justify-between gap-4 text-green-800">
          <dt>Discount</dt>
          <dd>−{formatUsd(p.priceDiscount)}</dd>
        </div>
      )}
      <div className="mt-2 flex justify-between gap-4 border-t border-slate-200 pt-2 text-base font-semibold">
        <dt>Total</dt>
        <dd data-testid="final-price">{formatUsd(p.finalPrice)}</dd>
      </div>
    </dl>
  );
}

/** The total alone, for the bottom bar of the narrow layout. */
export function PriceTotal() {
  const { price } = useWizardPrice();
  return <span className="text-lg font-semibold">{price?.ok ? formatUsd(price.price.finalPrice) : '—'}</span>;
}
