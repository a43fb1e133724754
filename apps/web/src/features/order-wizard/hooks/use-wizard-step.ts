import { useCallback } from 'react';
import { useSearchParams } from 'wouter';
import { trackWizardEvent } from '../lib/debug';

export type WizardStep = 1 | 2 | 3;

const readStep = (raw: string | null): WizardStep => (raw === '2' ? 2 : raw === '3' ? 3 : 1);

/** The step lives in the URL (?step=), so refresh and back keep it (SPEC §4 "Order form steps"). */
export const useWizardStep = (highestReachable: WizardStep) => {
  const [params, setParams] = useSearchParams();
  const wanted = readStep(params.get('step'));
  // SPEC §4: a step opens only when the ones before it are complete.
  const step = Math.min(wanted, highestReachable) as WizardStep;
  const goTo = useCallback(
    (next: WizardStep) => {
      trackWizardEvent('step', next);
      setParams(
        (prev) => {
          const copy = new URLSearchParams(prev);
          copy.set('step', String(next));
          return copy;
        },
        { replace: false },
      );
    },
    [setParams],
  );
  return { step, goTo };
};
