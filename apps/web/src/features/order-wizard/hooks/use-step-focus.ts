import { useEffect, useRef } from 'react';
import { useAnnounce } from '@/lib/announce';

/**
 * ADR 0042: when the step changes after the wizard opened, its heading takes the focus and `label` is
 * announced ('Step 2 of 3: Instructions'), unless `focusElsewhere` moves the focus itself (a field named by
 * an error) and answers true. Returns the heading's ref.
 */
export const useStepFocus = (step: number, label: string, focusElsewhere: () => boolean) => {
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef(step);
  const announce = useAnnounce();
  useEffect(() => {
    if (shown.current === step) return;
    shown.current = step;
    if (!focusElsewhere()) heading.current?.focus();
    announce(label);
  }, [step, label, announce, focusElsewhere]);
  return heading;
};
