import type { ReactNode } from 'react';
import { orderFormFromOrder } from '@app/domain/order-form/rules';
import { isOrderEditable, ORDER_EDIT_MESSAGE } from '@app/domain/order/rules';
import { Spinner } from '@/components/ui/spinner';
import { useOrder, useOrderFiles } from '../api/orders';
import type { WizardFile } from '../hooks/wizard-contexts';
import type { WizardParams } from '../lib/wizard-params';
// Types only: the wizard itself comes from the caller, so this chunk shares no code with the first step's.
import type { WizardSource } from './wizard-steps';

/**
 * SPEC §2 /order?editingOrderId= and ?cloningOrder= for a signed-in customer: the order (and, when
 * edited, its files) first, then the wizard on its values. An order that cannot be edited says so.
 */
export function EditedOrderWizard({
  params,
  sourceId,
  render,
}: {
  params: WizardParams;
  sourceId: number;
  /** the wizard for the order read (`WizardFor`) */
  render: (source: WizardSource) => ReactNode;
}) {
  const order = useOrder(sourceId);
  const files = useOrderFiles(params.editingId);
  if (order.isPending) return <Spinner className="size-6" />;
  if (params.editingId !== null && files.isPending) return <Spinner className="size-6" />;
  const source = order.data;
  const editable = params.editingId !== null && source !== undefined && isOrderEditable(source.status, params.forceEditing);
  const remoteFiles: WizardFile[] = editable
    ? (files.data ?? []).map((f) => ({ key: `remote-${f.id}`, remote: true, id: f.id, name: f.name, size: f.size }))
    : [];
  const editing =
    editable && source
      ? { id: source.id, remoteFileIds: remoteFiles.map((f) => (f.remote ? f.id : 0)), forceEditing: params.forceEditing }
      : null;
  const notEditable = params.editingId !== null && (order.isError || (source !== undefined && !editable));
  return render({
    id: source?.id ?? null,
    prefill: source ? orderFormFromOrder(source) : {},
    siteCategory: source?.siteCategory,
    remoteFiles,
    discount: Boolean(source?.discount),
    editing,
    notEditable: notEditable ? ORDER_EDIT_MESSAGE.notEditable : null,
  });
}
