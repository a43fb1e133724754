import { useCallback, useEffect, useMemo, useState } from 'react';
import { amountToCents, formatUsd } from '@app/domain/money';
import { allowedPaymentSystems, paymentRedirectPath, paymentStart, upgradeRedirectPath } from '@app/domain/payment';
import type { PaymentSystem } from '@app/domain/settings';
import { hashDevice } from '@/lib/storage';
import { leavePageFor } from '../lib/leave-page';
import type { PayableOrder, PaymentSettings, UpgradeCharge } from '../lib/types';

/**
 * SPEC §4 "Payment flow": the allowed systems come from the category and work-type rule; with more than
 * one and multipayment on the chooser opens, otherwise the first is used at once; then
 * 'Please wait for redirect to payment system...' (RedirectNotice) and the redirect of SPEC §7 with the
 * device hash.
 */
export const usePay = (order: PayableOrder, settings: PaymentSettings, upgrade?: UpgradeCharge) => {
  const [choosing, setChoosing] = useState(false);
  // Where the page is about to go; set first so the notice is on screen before the page unloads.
  const [target, setTarget] = useState<string | null>(null);
  const start = useMemo(
    () => paymentStart(allowedPaymentSystems(settings.payments_rules, order.siteCategory, order.workType.id), settings.multipayment),
    [settings.payments_rules, settings.multipayment, order.siteCategory, order.workType.id],
  );

  const pay = useCallback(
    (system: PaymentSystem) => {
      setChoosing(false);
      // ADR 0086: an upgrade's difference goes through the same providers, on its own checkout path.
      setTarget(
        upgrade ? upgradeRedirectPath(system, upgrade.upgradeId, hashDevice()) : paymentRedirectPath(system, order.uid, hashDevice()),
      );
    },
    [order.uid, upgrade],
  );
  // After the render that shows 'Please wait for redirect to payment system...' (RedirectNotice).
  useEffect(() => {
    if (target !== null) leavePageFor(target);
  }, [target]);

  /** The Pay action: the chooser, or straight to the only (or first) system. */
  const begin = useCallback(() => {
    if (start.kind === 'chooser') setChoosing(true);
    else pay(start.system);
  }, [start, pay]);

  return {
    /** SPEC §9: the price with 2 decimals */
    price: formatUsd(amountToCents(upgrade ? upgrade.difference : order.finalPrice)),
    systems: start.kind === 'chooser' ? start.systems : [start.system],
    choosing,
    setChoosing,
    /** the redirect has started: show RedirectNotice */
    leaving: target !== null,
    begin,
    pay,
  };
};

export type PayFlow = ReturnType<typeof usePay>;
