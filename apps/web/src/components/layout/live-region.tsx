import { useAnnouncement } from '@/lib/announce';

/** The app's one polite live region (ADR 0042); `announce()` from lib/announce.ts writes into it. */
export function LiveRegion() {
  const text = useAnnouncement();
  return (
    <div aria-live="polite" aria-atomic="true" className="sr-only" data-testid="live-region">
      {text}
    </div>
  );
}
