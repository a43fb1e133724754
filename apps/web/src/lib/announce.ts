import { useEffect, useState } from 'react';

/**
 * One polite live region for the whole app (ADR 0042): route changes and wizard steps are spoken
 * through it. The region is mounted once, before any page, so screen readers already watch it.
 */
let listener: ((text: string) => void) | null = null;

/** Says `text` through the app's live region (a repeat of the same text is said again). */
export const announce = (text: string): void => {
  listener?.(text);
};

/** The announce function, for components (kept a hook so callers read like the rest of the app). */
export const useAnnounce = (): ((text: string) => void) => announce;

/** The text the live region shows now; cleared first so that the same words are spoken twice. */
export const useAnnouncement = (): string => {
  const [text, setText] = useState('');
  useEffect(() => {
    let timer = 0;
    listener = (next) => {
      setText('');
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setText(next), 100);
    };
    return () => {
      listener = null;
      window.clearTimeout(timer);
    };
  }, []);
  return text;
};
