import { memo, type ReactNode } from 'react';
import { Link } from 'wouter';
import { Copy, Download, MessageSquareQuote, Pencil } from 'lucide';
import { Icon } from '@/components/ui/icon';
import type { OrderDetail } from '@app/domain/order';
import { ORDER_STATUS, ORDER_STATUS_NAME, WORK_TYPE, type OrderStatusId } from '@app/domain/order/rules';
import { wordsFor } from '@app/domain/order-form/rules';
import { amountToCents, formatUsd } from '@app/domain/money';
import { orderActions, orderStatusStyle } from '@app/domain/dashboard/rules';
import { siteCategoryName } from '@app/domain/settings/rules';
import { formatFileSize } from '@app/domain/files/rules';
import { Button, buttonClass } from '@/components/ui/button';
import { RatingStars } from '@/components/ui/rating-stars';
import { StatusBadge } from '@/components/ui/status-badge';
import { toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { downloadOrderFile } from '../api/order-files';
import { countdown, formatDateTime, formatTimeLeft } from '@/lib/dates';
import { useNow } from '@/lib/use-now';

const usd = (amount: number) => formatUsd(amountToCents(amount));
const onOff = (value: 1 | 2) => (value === 2 ? 'Yes' : 'No');
const statusName = (status: number) => ORDER_STATUS_NAME[status as OrderStatusId] ?? `Status ${status}`;

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Label and value pairs; empty values are left out (a field the customer did not choose). */
function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
      {rows
        .filter(([, value]) => value !== null && value !== undefined && value !== '')
        .map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="pt-0.5 text-sm font-medium text-slate-700">{label}</dt>
            <dd className="mb-2 text-slate-900 break-words whitespace-pre-line sm:mb-0">{value}</dd>
          </div>
        ))}
    </dl>
  );
}

interface OrderDetailsProps {
  order: OrderDetail;
  /** the Pay action of an unpaid order, composed by the route from the payment feature (DESIGN rule 2) */
  payAction: (order: OrderDetail) => ReactNode;
  onLeaveFeedback: () => void;
}

/** SPEC §2 "/orderinfo/{id}/details": everything the customer chose, the price, the status and its history. */
// Memo: the order page draws again when its address follows a tab switch (ADR 0101); the details, with the
// same order and steady callbacks, are not built again then (ADR 0102).
export const OrderDetails = memo(function OrderDetails({ order, payAction, onLeaveFeedback }: OrderDetailsProps) {
  const now = useNow();
  const actions = orderActions(order);
  // ADR 0084: a finished job (delivered, or closed) has no countdown any more.
  const finished =
    order.delivery?.state === 'awaiting_review' ||
    ([ORDER_STATUS.completed, ORDER_STATUS.refunded, ORDER_STATUS.canceled] as number[]).includes(order.status);
  const left = countdown(order.deadline, now);
  const presentation = order.workType.id === WORK_TYPE.presentation;
  const level = order.academicLevel ?? order.resumeLevel ?? order.thesisLevel;
  const { price } = order;

  const priceRows: [string, number][] = [
    ['Basic price', price.basicPrice],
    ['Premium writer', price.pricePremiumWriter],
    ['Preferred writer', price.pricePreferedWriter],
    ['Extra quality check', price.priceExtraQualityCheck],
    ['Originality report', price.priceQuality],
    ['One-page summary', price.priceOnePageSummary],
  ];

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(16rem,1fr)]">
      <div className="flex min-w-0 flex-col gap-4">
        <Section title="Status">
          <div className="flex flex-wrap items-center gap-3">
            <StatusBadge tone={orderStatusStyle(order.status)}>{order.orderStatus.name}</StatusBadge>
            <span className="text-sm text-slate-700">
              Deadline <time dateTime={order.deadline}>{formatDateTime(order.deadline)}</time>
            </span>
            {!finished && <span className="text-sm font-medium text-slate-900">{left ?? formatTimeLeft(order.deadline, now)}</span>}
          </div>
          <div className="flex flex-wrap gap-2">
            {actions.pay && payAction(order)}
            {actions.edit && (
              <Link to={paths.orderEdit(order.id)} className={buttonClass('secondary', 'no-underline')}>
                <Icon icon={Pencil} className="size-4" />
                Edit
              </Link>
            )}
            {actions.clone && (
              <Link to={paths.orderClone(order.id)} className={buttonClass('secondary', 'no-underline')}>
                <Icon icon={Copy} className="size-4" />
                Clone
              </Link>
            )}
            {actions.leaveFeedback && (
              <Button variant="secondary" onClick={onLeaveFeedback}>
                <Icon icon={MessageSquareQuote} className="size-4" />
                Leave feedback
              </Button>
            )}
            {order.fileForDownload && (
              <Button
                variant="secondary"
                onClick={() => {
                  if (order.fileForDownload)
                    void downloadOrderFile(order.fileForDownload).catch((error: unknown) => toast.error(errorMessage(error)));
                }}
              >
                <Icon icon={Download} className="size-4" />
                Download {order.fileForDownload.name} ({formatFileSize(order.fileForDownload.size)})
              </Button>
            )}
          </div>
        </Section>

        {order.feedback && (
          <Section title="Your feedback">
            <RatingStars rating={order.feedback.rating} />
            {order.feedback.comment !== '' && <p className="whitespace-pre-line text-slate-900">{order.feedback.comment}</p>}
          </Section>
        )}

        <Section title="Order details">
          <Facts
            rows={[
              ['Title', order.title],
              ['Service', siteCategoryName(order.siteCategory)],
              ['Type of work', order.workType.name],
              ['Level', level?.name],
              ['Paper type', order.assignment?.name],
              ['Resume service', order.resumeService?.name],
              ['Subject', order.subject?.name],
              ['Paper format', order.paperFormat?.name],
              [
                presentation ? 'Slides' : 'Pages',
                presentation ? order.pages : `${order.pages} (${wordsFor(order.pages, order.paragraphSpacing)} words)`,
              ],
              ['Spacing', order.paragraphSpacing === 1 ? 'Single' : 'Double'],
              ['Sources', order.sources],
              ['Urgency', order.urgency >= 24 && order.urgency % 24 === 0 ? `${order.urgency / 24} days` : `${order.urgency} hours`],
              ['Paper details', order.description],
              ['Credentials', order.credentials],
              ['Created', formatDateTime(order.dateCreated)],
            ]}
          />
        </Section>

        <Section title="Features">
          <Facts
            rows={[
              ['Premium writer', onOff(order.features.premiumWriter)],
              ['Extra quality check', onOff(order.features.extraQualityCheck)],
              ['One-page summary', onOff(order.features.onePageSummary)],
              ['Originality report', onOff(order.features.originalityReport)],
              ['Preferred writers', order.preferredWritersList.map((w) => `WR-${w}`).join(', ')],
              [
                'Another writer if they are busy',
                order.preferredWritersList.length > 0 ? (order.preferredWriterAnother ? 'Yes' : 'No') : '',
              ],
              ['Your writer', order.idWriter !== null ? `WR-${order.idWriter}` : ''],
            ]}
          />
        </Section>
      </div>

      <div className="flex min-w-0 flex-col gap-4">
        <Section title="Price">
          <dl className="flex flex-col gap-1.5">
            {priceRows
              .filter(([, amount]) => amount !== 0)
              .map(([label, amount]) => (
                <div key={label} className="flex justify-between gap-4 text-sm">
                  <dt className="text-slate-700">{label}</dt>
                  <dd className="tabular-nums">{usd(amount)}</dd>
                </div>
              ))}
            {order.discount && (
              <div className="flex justify-between gap-4 text-sm">
                <dt className="text-slate-700">Discount ({order.discount.code})</dt>
                <dd className="text-green-800 tabular-nums">−{usd(order.discount.amount)}</dd>
              </div>
            )}
            {!order.discount && price.priceDiscount !== 0 && (
              <div className="flex justify-between gap-4 text-sm">
                <dt className="text-slate-700">Discount</dt>
                <dd className="text-green-800 tabular-nums">−{usd(price.priceDiscount)}</dd>
              </div>
            )}
            <div className="mt-1 flex justify-between gap-4 border-t border-slate-200 pt-2 font-semibold">
              <dt>Total</dt>
              <dd className="tabular-nums">{usd(order.finalPrice)}</dd>
            </div>
          </dl>
        </Section>

        <Section title="Status history">
          <ol className="flex flex-col gap-3 border-l-2 border-slate-200 pl-4">
            {order.statusHistory.map((entry, index) => (
              <li key={`${entry.status}-${entry.date}-${index}`} className="relative">
                <span aria-hidden="true" className="absolute top-1.5 -left-[1.4rem] size-2.5 rounded-full bg-slate-500" />
                <p className="text-sm font-medium text-slate-900">{statusName(entry.status)}</p>
                <p className="text-sm text-slate-700">
                  <time dateTime={entry.date}>{formatDateTime(entry.date)}</time>
                </p>
                {/* ADR 0071: cancel, refund and hold carry support's reason. */}
                {entry.reason && <p className="text-sm break-words text-slate-700">{entry.reason}</p>}
              </li>
            ))}
          </ol>
        </Section>
      </div>
    </div>
  );
});
