import { useCallback, useEffect, useState } from 'react';
import { readStoredJson, writeStored, writeStoredJson } from '@/lib/persisted';

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

/** A stored draft, field by field: what an older version or a hand edit left is dropped, not trusted. */
const decodeDraft = (value: unknown): RevisionDraft | null => {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Partial<Record<keyof RevisionDraft, unknown>>;
  return {
    step: v.step === 1 || v.step === 2 ? v.step : 0,
    policyAccepted: v.policyAccepted === true,
    categories: Array.isArray(v.categories) ? v.categories.filter((c): c is number => typeof c === 'number') : [],
    description: typeof v.description === 'string' ? v.description : '',
    level: typeof v.level === 'number' ? v.level : null,
  };
};

/**
 * DESIGN rule 9 "nothing a user typed is lost on refresh or error": the wizard's choices live in
 * localStorage per order until the revision is created (files cannot be kept: the browser forgets them).
 */
export const useRevisionDraft = (orderId: number) => {
  const [draft, setDraft] = useState<RevisionDraft>(() => readStoredJson(storageKey(orderId), decodeDraft) ?? EMPTY_DRAFT);
  useEffect(() => writeStoredJson(storageKey(orderId), draft), [orderId, draft]);
  const update = useCallback((change: Partial<RevisionDraft>) => setDraft((d) => ({ ...d, ...change })), []);
  const clear = useCallback(() => {
    writeStored(storageKey(orderId), null);
    setDraft(EMPTY_DRAFT);
  }, [orderId]);
  return { draft, update, clear };
};
