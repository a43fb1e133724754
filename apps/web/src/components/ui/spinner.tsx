import { LoaderCircle } from 'lucide';
import { Icon } from '@/components/ui/icon';

export function Spinner({ className = 'size-4' }: { className?: string }) {
  return <Icon icon={LoaderCircle} className={`animate-spin ${className}`} />;
}

/** UI contract "Startup": the full-page loading state. */
export function FullPageLoading() {
  return (
    <div role="status" aria-label="Loading" className="flex min-h-dvh items-center justify-center">
      <Spinner className="size-8 text-slate-500" />
    </div>
  );
}
