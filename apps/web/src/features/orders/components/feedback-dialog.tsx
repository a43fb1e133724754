import { useId, useState, type FormEvent } from 'react';
import { REVIEW_COMMENT_MAX_LENGTH, REVIEW_MESSAGE } from '@app/domain/review/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { inputClass } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useCreateReview } from '../api/create-review';
import { RatingInput } from './rating-input';

interface FeedbackDialogProps {
  orderId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const RATING_REQUIRED = 'Please choose a rating';

/**
 * SPEC §2 feedback modal: a rating in half stars and a comment. SPEC §8 "Review": success 'Your review
 * has been added.'; a server message is shown as a warning.
 */
export function FeedbackDialog({ orderId, open, onOpenChange }: FeedbackDialogProps) {
  const id = useId();
  const [rating, setRating] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [ratingMissing, setRatingMissing] = useState(false);
  const review = useCreateReview(orderId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (rating === null) {
      setRatingMissing(true);
      return;
    }
    review.mutate(
      { rating, comment: comment.trim() },
      {
        onSuccess: () => {
          toast.success(REVIEW_MESSAGE.added);
          onOpenChange(false);
        },
      },
    );
  };

  const serverWarning = review.error instanceof ApiError && review.error.serverMessage !== undefined ? review.error.serverMessage : null;

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Leave feedback">
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <RatingInput
          label="Rating"
          value={rating}
          onChange={(next) => {
            setRating(next);
            setRatingMissing(false);
          }}
          describedBy={ratingMissing ? `${id}-rating-error` : undefined}
        />
        {ratingMissing && (
          <p id={`${id}-rating-error`} className="text-sm text-red-700">
            {RATING_REQUIRED}
          </p>
        )}
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-comment`} className="text-sm font-medium text-slate-800">
            Comment
          </label>
          <textarea
            id={`${id}-comment`}
            className={`${inputClass} min-h-28`}
            maxLength={REVIEW_COMMENT_MAX_LENGTH}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
          />
        </div>
        {review.isError &&
          (serverWarning !== null ? (
            <Alert tone="warning">{serverWarning}</Alert>
          ) : (
            <Alert tone="error">{errorMessage(review.error)}</Alert>
          ))}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" busy={review.isPending}>
            Send feedback
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
