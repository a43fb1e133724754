import { CalendarPlus } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { Button } from '@/components/ui/button';
import { downloadCalendarFile } from '../lib/calendar';

interface AddToCalendarProps {
  /** what the entry says, e.g. "Order #12 deadline" */
  title: string;
  description: string;
  /** ISO 8601 */
  at: string;
  /** the page the entry links back to */
  path: string;
  uid: string;
  fileName: string;
  label?: string;
}

/** ADR 0045: an `.ics` file of a deadline or a due date, for the customer's own calendar. */
export function AddToCalendarButton({ title, description, at, path, uid, fileName, label = 'Add to calendar' }: AddToCalendarProps) {
  return (
    <Button
      variant="secondary"
      className="px-3!"
      onClick={() =>
        downloadCalendarFile(
          { uid: `${uid}@${window.location.host}`, title, description, at: new Date(at), url: `${window.location.origin}${path}` },
          fileName,
        )
      }
    >
      <Icon icon={CalendarPlus} className="size-4" />
      {label}
    </Button>
  );
}
