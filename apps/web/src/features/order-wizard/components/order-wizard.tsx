import { lazy, Suspense, useEffect } from 'react';
import { useSearchParams } from 'wouter';
import { Spinner } from '@/components/ui/spinner';
import { setWizardDebug } from '../lib/debug';
import { readWizardParams } from '../lib/wizard-params';
import { NEW_ORDER, WizardFor, type OrderWizardProps } from './wizard-steps';

// Reading an order to edit or clone (its query, its files, its editable statuses) is not part of a new
// order's first paint (ADR 0062).
const EditedOrderWizard = lazy(() => import('./edited-order-wizard').then((m) => ({ default: m.EditedOrderWizard })));

/**
 * SPEC §2 /order: the new-order wizard (three steps of SPEC §4, live price, checkout). This part reads
 * the address: a signed-in customer's `editingOrderId` or `cloningOrder` opens that order first;
 * `WizardState` holds the state (ADR 0056).
 */
export function OrderWizard(props: OrderWizardProps) {
  const [search] = useSearchParams();
  const params = readWizardParams(search);
  const sourceId = props.customer ? (params.editingId ?? params.cloningId) : null;
  useEffect(() => setWizardDebug(params.debug), [params.debug]);
  if (sourceId === null) return <WizardFor wizard={props} search={search} params={params} source={NEW_ORDER} />;
  return (
    <Suspense fallback={<Spinner className="size-6" />}>
      <EditedOrderWizard
        params={params}
        sourceId={sourceId}
        render={(source) => <WizardFor wizard={props} search={search} params={params} source={source} />}
      />
    </Suspense>
  );
}
