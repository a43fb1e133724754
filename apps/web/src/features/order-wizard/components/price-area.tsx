import { useMemo, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useWizardPriceState } from '../hooks/use-wizard-price';
import { PriceContext, useWizardDiscount, useWizardForm } from '../hooks/wizard-contexts';
import { PriceBar } from './price-bar';
import { DiscountDisclosure } from './discount-field';
import { PriceSummary } from './price-summary';

/** The price, in a component of its own: its confirmation re-renders the price alone (ADR 0056). */
function WizardPriceProvider({ children }: { children: ReactNode }) {
  const { values, deps, siteCategory } = useWizardForm();
  const { discount, discountBlocked } = useWizardDiscount();
  const price = useWizardPriceState(values, deps.pagesLabel, siteCategory, discount && !discountBlocked ? discount : null);
  return <PriceContext.Provider value={price}>{children}</PriceContext.Provider>;
}

/**
 * The wizard's price (SPEC §3, ADR 0027): the summary beside the steps, drawn into `asideSlot`, and the
 * narrow layout's bar. Its code (the price tables' arithmetic, the server's confirmation) loads just after
 * the first paint, which draws the step and a placeholder bar (ADR 0062).
 */
export function PriceArea({ asideSlot }: { asideSlot: HTMLElement | null }) {
  const summary = useMemo(
    () => (
      <div className="flex flex-col gap-3">
        <PriceSummary />
        <DiscountDisclosure />
      </div>
    ),
    [],
  );
  return (
    <WizardPriceProvider>
      {asideSlot && createPortal(summary, asideSlot)}
      <PriceBar summary={summary} />
    </WizardPriceProvider>
  );
}
