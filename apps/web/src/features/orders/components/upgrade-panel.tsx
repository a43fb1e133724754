import { lazy, Suspense, useId, useRef, useState, type ReactNode } from 'react';
import { ArrowUpCircle } from 'lucide';
import type { OrderDetail } from '@app/domain/order';
import { upgradeBlocked } from '@app/domain/upgrade/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Icon } from '@/components/ui/icon';
import type { UpgradeCharge } from './upgrade-form';

// ADR 0101: the form loads when opened (react-hook-form stays off the order page's first paint).
const UpgradeForm = lazy(() => import('./upgrade-form').then((m) => ({ default: m.UpgradeForm })));

export type { UpgradeCharge } from './upgrade-form';

/**
 * ADR 0086: "Upgrade order" on a paid order's page: more pages, extras, a shorter deadline, with the new
 * price and the difference previewed live by the server's one price function; the difference is paid
 * through the payment feature's chooser (`pay`, composed by the route). Shown only while the order can
 * take an upgrade.
 */
export function UpgradePanel({ order, idSite, pay }: { order: OrderDetail; idSite: number; pay: (charge: UpgradeCharge) => ReactNode }) {
  if (upgradeBlocked({ statusId: order.status, delivered: order.delivery !== null, amountDueCents: 0 }) !== null) return null;
  return <UpgradeSection order={order} idSite={idSite} pay={pay} />;
}

function UpgradeSection({ order, idSite, pay }: { order: OrderDetail; idSite: number; pay: (charge: UpgradeCharge) => ReactNode }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <h2 id={`${id}-title`} className="flex items-center gap-2 text-lg font-semibold">
            <Icon icon={ArrowUpCircle} className="size-5 text-primary" />
            Upgrade order
          </h2>
          <p className="text-sm text-slate-700">Add pages or extras, or get it sooner. You pay only the difference.</p>
        </div>
        <Button variant={open ? 'secondary' : 'primary'} aria-expanded={open} aria-controls={`${id}-form`} onClick={() => setOpen(!open)}>
          {open ? 'Close' : 'Upgrade order'}
        </Button>
      </div>
      {open && (
        <Suspense fallback={<Spinner />}>
          <UpgradeForm formId={`${id}-form`} formRef={formRef} order={order} idSite={idSite} pay={pay} />
        </Suspense>
      )}
    </section>
  );
}

/** After the provider sent the customer back from paying an upgrade (`?upgrade=success|fail|closed`). */
export function UpgradeReturnNotice({ result }: { result: string | null }) {
  if (result === 'success')
    return (
      <Alert tone="success" title="Upgrade paid">
        Thank you. The order now shows its new pages, extras and deadline; a receipt is on your transactions page.
      </Alert>
    );
  if (result === 'fail')
    return (
      <Alert tone="error" title="The upgrade was not paid">
        Your order is unchanged. You can try again from “Upgrade order”, with the same or another way to pay.
      </Alert>
    );
  if (result === 'closed')
    return (
      <Alert tone="info" title="This upgrade is no longer open">
        It was paid already or replaced by a newer one. Nothing was charged for it now.
      </Alert>
    );
  return null;
}
