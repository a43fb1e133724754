import { useId, useRef, type KeyboardEvent } from 'react';
import { Star } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { RATING_CHOICES, ratingLabel, stepRating } from '@app/domain/dashboard/rules';
import { REVIEW_RATING_MAX, REVIEW_RATING_STEP } from '@app/domain/review/rules';

interface RatingInputProps {
  value: number | null;
  onChange: (rating: number) => void;
  label: string;
  describedBy?: string | undefined;
}

/**
 * SPEC §3 "Feedback": five stars in half steps, as a radio group of ten native radios (0.5 … 5). Each
 * star is two touch targets (its left and right halves, 24 × 48 px); arrow keys move by half a star,
 * Home and End go to the ends; the choice is read out as "3.5 out of 5 stars".
 */
export function RatingInput({ value, onChange, label, describedBy }: RatingInputProps) {
  const name = useId();
  const group = useRef<HTMLDivElement>(null);

  const choose = (rating: number) => {
    onChange(rating);
    group.current?.querySelector<HTMLInputElement>(`input[value="${rating}"]`)?.focus();
  };

  // On each radio (the only focusable parts of the group), so the group itself needs no tab stop.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const current = value ?? 0;
    const moves: Record<string, () => number> = {
      ArrowRight: () => stepRating(current, 1),
      ArrowUp: () => stepRating(current, 1),
      ArrowLeft: () => stepRating(current, -1),
      ArrowDown: () => stepRating(current, -1),
      Home: () => REVIEW_RATING_STEP,
      End: () => REVIEW_RATING_MAX,
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    choose(move());
  };

  const shown = value ?? 0;
  return (
    <div className="flex flex-col gap-1">
      <div
        ref={group}
        role="radiogroup"
        aria-label={label}
        aria-describedby={describedBy}
        className="flex w-fit rounded-md has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary"
      >
        {Array.from({ length: REVIEW_RATING_MAX }, (_, star) => (
          <span key={star} className="relative flex size-12">
            <Icon
              icon={Star}
              aria-hidden="true"
              className={`size-12 ${shown >= star + 1 ? 'fill-amber-500 text-amber-600' : 'text-slate-400'}`}
              strokeWidth={1.5}
            />
            {shown === star + 0.5 && (
              <span aria-hidden="true" className="absolute inset-y-0 left-0 w-1/2 overflow-hidden">
                <Icon icon={Star} className="size-12 fill-amber-500 text-amber-600" strokeWidth={1.5} />
              </span>
            )}
            {[star + 0.5, star + 1].map((rating) => (
              <label key={rating} className={`absolute inset-y-0 w-1/2 cursor-pointer ${rating === star + 0.5 ? 'left-0' : 'right-0'}`}>
                <input
                  type="radio"
                  name={name}
                  value={rating}
                  checked={value === rating}
                  // Only the chosen radio (or the first, before a choice) is in the tab order, as in any radio group.
                  tabIndex={value === rating || (value === null && rating === RATING_CHOICES[0]) ? 0 : -1}
                  onChange={() => onChange(rating)}
                  onKeyDown={onKeyDown}
                  className="peer sr-only"
                />
                <span className="sr-only">{ratingLabel(rating)}</span>
              </label>
            ))}
          </span>
        ))}
      </div>
      <p aria-hidden="true" className="text-sm text-slate-700">
        {value === null ? 'Choose a rating' : ratingLabel(value)}
      </p>
    </div>
  );
}
