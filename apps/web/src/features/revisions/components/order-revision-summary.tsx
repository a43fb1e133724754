import type { OrderDetail } from '@app/domain/order';
import { isRevisionsTabEnabled } from '@app/domain/dashboard/rules';
import { useRevisions } from '../api/revisions';
import { useNow } from '@/lib/use-now';
import { AddToCalendarButton } from './add-to-calendar-button';
import { RevisionWindowText } from './revision-window-note';

/**
 * Revisions (ADR 0044, 0045) on the order page: the order deadline for the customer's calendar, and, once the order is
 * completed, the free-revision window (the revision list's first page carries it; the tab shares the cache).
 */
export function OrderRevisionSummary({ order }: { order: Pick<OrderDetail, 'id' | 'status' | 'deadline' | 'title'> }) {
  const completed = isRevisionsTabEnabled(order.status);
  const list = useRevisions(order.id, 1, completed);
  const now = useNow();
  // A deadline already behind the customer is no calendar entry.
  const upcoming = new Date(order.deadline).getTime() > now;
  if (!upcoming && !completed) return null;
  return (
    <div className="flex flex-wrap items-center gap-3">
      {completed && list.data && <RevisionWindowText window={list.data.window} />}
      {upcoming && (
        <AddToCalendarButton
          title={`Order #${order.id} deadline`}
          description={order.title}
          at={order.deadline}
          path={`/orderinfo/${order.id}/details`}
          uid={`order-${order.id}-deadline`}
          fileName={`order-${order.id}-deadline.ics`}
          label="Add deadline to calendar"
        />
      )}
    </div>
  );
}
