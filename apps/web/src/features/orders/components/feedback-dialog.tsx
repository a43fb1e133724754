import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
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

interface FeedbackFields {
  rating: number | null;
  comment: string;
}

/**
 * SPEC §2 feedback modal: a rating in half stars and a comment. SPEC §8 "Review": success 'Your review
 * has been added.'; a server message is shown as a warning.
 */
export function FeedbackDialog({ orderId, open, onOpenChange }: FeedbackDialogProps) {
  const id = useId();
  const review = useCreateReview(orderId);
  const { control, register, handleSubmit, formState } = useForm<FeedbackFields>({ defaultValues: { rating: null, comment: '' } });
  const ratingMissing = formState.errors.rating !== undefined;

  const submit = handleSubmit(({ rating, comment }) => {
    if (rating === null) return;
    review.mutate(
      { rating, comment: comment.trim() },
      {
        onSuccess: () => {
          toast.success(REVIEW_MESSAGE.added);
          onOpenChange(false);
        },
      },
    );
  });

  const serverWarning = review.error instanceof ApiError && review.error.serverMessage !== undefined ? review.error.serverMessage : null;

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Leave feedback">
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4" noValidate>
        <Controller
          control={control}
          name="rating"
          rules={{ validate: (value) => value !== null || RATING_REQUIRED }}
          render={({ field }) => (
            <RatingInput
              label="Rating"
              value={field.value}
              onChange={field.onChange}
              describedBy={ratingMissing ? `${id}-rating-error` : undefined}
            />
          )}
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
            {...register('comment')}
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
