import { useId, useState, type FormEvent } from 'react';
import { AFTER_PAYMENT_MESSAGE } from '@app/domain/delivery/rules';
import { REVIEW_COMMENT_MAX_LENGTH, REVIEW_MESSAGE } from '@app/domain/review/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { inputClass } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { useAfterPaymentAction } from '../api/after-payment';
import { RatingInput } from './rating-input';

/**
 * ADR 0084: accepting the delivery completes the order and starts the free revisions; the rating and the
 * review are offered in the same sheet (both optional; a comment needs a rating).
 */
export function AcceptDeliveryDialog({
  orderId,
  open,
  onOpenChange,
}: {
  orderId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const [rating, setRating] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [ratingMissing, setRatingMissing] = useState(false);
  const action = useAfterPaymentAction(orderId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = comment.trim();
    if (text !== '' && rating === null) {
      setRatingMissing(true);
      return;
    }
    action.mutate(
      { kind: 'accept', body: rating === null ? {} : { rating, comment: text } },
      {
        onSuccess: () => {
          toast.success(AFTER_PAYMENT_MESSAGE.accepted);
          onOpenChange(false);
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Accept the delivery">
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <p className="text-sm text-slate-700">
          Accepting completes the order. Free revisions stay open from today if something needs fixing later.
        </p>
        <RatingInput
          label="Rate your writer (optional)"
          value={rating}
          onChange={(next) => {
            setRating(next);
            setRatingMissing(false);
          }}
          describedBy={ratingMissing ? `${id}-rating-error` : undefined}
        />
        {ratingMissing && (
          <p id={`${id}-rating-error`} className="text-sm text-red-700">
            {REVIEW_MESSAGE.invalidRating}: choose the stars for your review
          </p>
        )}
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-comment`} className="text-sm font-medium text-slate-800">
            Review (optional)
          </label>
          <textarea
            id={`${id}-comment`}
            className={`${inputClass} min-h-28`}
            maxLength={REVIEW_COMMENT_MAX_LENGTH}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
          />
        </div>
        {action.isError && <Alert tone="error">{errorMessage(action.error)}</Alert>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" busy={action.isPending}>
            Accept and complete
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** ADR 0084: asking for changes stops the review clock; the message goes to the writer's chat. */
export function RequestChangesDialog({
  orderId,
  open,
  onOpenChange,
}: {
  orderId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const [message, setMessage] = useState('');
  const [missing, setMissing] = useState(false);
  const action = useAfterPaymentAction(orderId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (message.trim() === '') {
      setMissing(true);
      return;
    }
    action.mutate(
      { kind: 'changes', message: message.trim() },
      {
        onSuccess: () => {
          toast.success(AFTER_PAYMENT_MESSAGE.changesSent);
          onOpenChange(false);
        },
      },
    );
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Ask for changes">
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-message`} className="text-sm font-medium text-slate-800">
            What should the writer change?
          </label>
          <textarea
            id={`${id}-message`}
            className={`${inputClass} min-h-32`}
            maxLength={1500}
            value={message}
            aria-invalid={missing || undefined}
            aria-describedby={missing ? `${id}-message-error` : undefined}
            onChange={(event) => {
              setMessage(event.target.value);
              setMissing(false);
            }}
          />
          {missing && (
            <p id={`${id}-message-error`} className="text-sm text-red-700">
              {AFTER_PAYMENT_MESSAGE.changesRequired}
            </p>
          )}
        </div>
        <p className="text-sm text-slate-700">
          The review time stops while your writer works on the changes; the message also goes to your writer’s chat.
        </p>
        {action.isError && <Alert tone="error">{errorMessage(action.error)}</Alert>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" busy={action.isPending}>
            Send to the writer
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
