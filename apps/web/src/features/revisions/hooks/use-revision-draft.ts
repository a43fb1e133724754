import { useCallback, useEffect, useState } from 'react';

/** What the customer has chosen and typed in the revision wizard. */
export interface RevisionDraft {
  step: 0 | 1 | 2;
  policyAccepted: boolean;
  categories: number[];
  description: string;
  level: number | null;
}

export const EMPTY_DRAFT: RevisionDraft = { step: 0, policyAccepted: false, categories: [], description: '', level: null };

const storageKey = (orderId: number): string => `revisionDraft:${orderId}`;

const read = (orderId: number): RevisionDraft => {
  try {
    const raw = window.localStorage.getItem(storageKey(orderId));
    if (raw === null) return EMPTY_DRAFT;
    const value = JSON.parse(raw) as Partial<RevisionDraft>;
    return {
      step: value.step === 1 || value.step === 2 ? value.step : 0,
      policyAccepted: value.policyAccepted === true,
      categories: Array.isArray(value.categories) ? value.categories.filter((c): c is number => typeof c === 'number') : [],
      description: typeof value.description === 'string' ? value.description : '',
      level: typeof value.level === 'number' ? value.level : null,
    };
  } catch {
    return EMPTY_DRAFT;
  }
};

/**
 * DESIGN rule 9 "nothing a user typed is lost on refresh or error": the wizard's choices live in
 * localStorage per order until the revision is created (files cannot be kept: the browser forgets them).
 */
export const useRevisionDraft = (orderId: number) => {
  const [draft, setDraft] = useState<RevisionDraft>(() => read(orderId));
  useEffect(() => {
    try {
      window.localStorage.setItem(storageKey(orderId), JSON.stringify(draft));
    } catch {
      // Without storage the draft lasts as long as the page.
    }
  }, [orderId, draft]);
  const update = useCallback((change: Partial<RevisionDraft>) => setDraft((d) => ({ ...d, ...change })), []);
  const clear = useCallback(() => {
    try {
      window.localStorage.removeItem(storageKey(orderId));
    } catch {
      // Nothing to remove.
    }
    setDraft(EMPTY_DRAFT);
  }, [orderId]);
  return { draft, update, clear };
};
