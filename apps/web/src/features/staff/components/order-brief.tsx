import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ORDER_STATUS_NAME, type OrderStatusId } from '@app/domain/order/rules';
import { paths } from '@/config/paths';
import { formatDateTime } from '@/lib/dates';
import type { StaffOrderView } from '../api/orders';
import { OrderFiles } from './order-files';

/** A term list: label, value; nothing for a value the customer did not fill. */
export function Terms({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
      {rows
        .filter(([, value]) => value !== null && value !== undefined && value !== '')
        .map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-slate-700">{term}</dt>
            <dd className="min-w-0 font-medium break-words text-slate-900">{value}</dd>
          </div>
        ))}
    </dl>
  );
}

const hoursText = (hours: number) => (hours % 24 === 0 ? `${hours / 24} ${hours === 24 ? 'day' : 'days'}` : `${hours} hours`);

/** ADR 0089: the whole brief, every field of SPEC §3 the customer filled, and the customer's files. */
export function OrderBrief({ order }: { order: StaffOrderView }) {
  const b = order.brief;
  const level = b.academicLevel ?? b.resumeLevel ?? b.thesisLevel;
  const extras = [
    b.features.premiumWriter === 2 && 'Premium writer',
    b.features.extraQualityCheck === 2 && 'Extra quality check',
    b.features.onePageSummary === 2 && 'One-page summary',
    b.features.originalityReport === 2 && 'Originality report',
  ].filter((x): x is string => typeof x === 'string');
  const preferred =
    b.preferredWritersList.length > 0
      ? `Writer${b.preferredWritersList.length === 1 ? '' : 's'} #${b.preferredWritersList.join(', #')}`
      : b.preferredWriterAnother
        ? 'Any writer but the previous one'
        : '';
  return (
    <div className="flex flex-col gap-4">
      <Terms
        rows={[
          ['Title', order.title || 'Untitled order'],
          ['Work type', order.workType.name],
          ['Paper type', b.assignment?.name],
          ['Resume service', b.resumeService?.name],
          ['Subject', b.subject?.name],
          ['Level', level?.name],
          ['Format', b.paperFormat?.name],
          ['Pages', `${b.pages} (${b.paragraphSpacing === 1 ? 'single' : 'double'} spaced)`],
          ['Sources', b.sources > 0 ? b.sources : 'None asked'],
          ['Urgency', hoursText(b.urgency)],
          ['Extras', extras.length > 0 ? extras.join(', ') : 'None'],
          ['Preferred writer', preferred],
        ]}
      />
      <div className="flex flex-col gap-1">
        <h3 className="text-sm font-semibold">Instructions</h3>
        <p className="text-sm break-words whitespace-pre-wrap text-slate-900">{b.description || 'The customer left no instructions.'}</p>
      </div>
      {b.credentials !== '' && (
        <div className="flex flex-col gap-1">
          <h3 className="text-sm font-semibold">Credentials</h3>
          <p className="text-sm break-words whitespace-pre-wrap text-slate-900">{b.credentials}</p>
        </div>
      )}
      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">Customer’s files</h3>
        <OrderFiles orderId={order.id} source="customer" label="Customer’s files" />
      </div>
    </div>
  );
}

/** ADR 0089: who ordered it and their other orders (support). */
export function CustomerCard({ order }: { order: StaffOrderView }) {
  return (
    <div className="flex flex-col gap-3">
      <Terms
        rows={[
          ['Name', order.customerName],
          ['Email', order.customerEmail ? <a href={`mailto:${order.customerEmail}`}>{order.customerEmail}</a> : null],
          ['Account', `#${order.idCustomer}`],
        ]}
      />
      <h3 className="text-sm font-semibold">Other orders</h3>
      {order.otherOrders.length === 0 ? (
        <p className="text-sm text-slate-700">No other orders.</p>
      ) : (
        <ul aria-label="The customer’s other orders" className="flex flex-col gap-1 text-sm">
          {order.otherOrders.map((o) => (
            <li key={o.id} className="break-words">
              <Link to={paths.staffOrder(o.id)} className="underline">
                #{o.id} {o.title || 'Untitled order'}
              </Link>{' '}
              <span className="text-slate-700">
                · {ORDER_STATUS_NAME[o.status as OrderStatusId] ?? `Status ${o.status}`} · {formatDateTime(o.dateCreated)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
