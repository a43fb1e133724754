import { Star, StarHalf } from 'lucide';
import { Icon } from '@/components/ui/icon';

/** Five stars showing a rating in half steps (read-only); the number is given as text for everyone. */
export function RatingStars({ rating, max = 5, className = 'size-5' }: { rating: number; max?: number; className?: string }) {
  return (
    <span role="img" aria-label={`${rating} out of ${max} stars`} className="inline-flex items-center gap-0.5">
      {Array.from({ length: max }, (_, i) => {
        const fill = rating - i;
        if (fill >= 1) return <Icon icon={Star} key={i} aria-hidden="true" className={`${className} fill-amber-500 text-amber-600`} />;
        if (fill >= 0.5) {
          return (
            <span key={i} className="relative inline-flex">
              <Icon icon={Star} className={`${className} text-slate-400`} />
              <Icon icon={StarHalf} className={`${className} absolute inset-0 fill-amber-500 text-amber-600`} />
            </span>
          );
        }
        return <Icon icon={Star} key={i} aria-hidden="true" className={`${className} text-slate-400`} />;
      })}
    </span>
  );
}
