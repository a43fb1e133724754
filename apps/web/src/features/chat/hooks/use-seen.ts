import { useCallback, useEffect, useRef } from 'react';

/**
 * Messages count as read only when seen (ADR 0049): at least half of the message in view of the list,
 * in a tab the customer is looking at (document.visibilityState). Returns a ref callback for each
 * unread message element (with `data-message-id`); `onSeen` gets ids as they become seen.
 */
export const useSeen = (root: React.RefObject<HTMLElement | null>, onSeen: (ids: number[]) => void) => {
  const observer = useRef<IntersectionObserver | null>(null);
  const inView = useRef(new Set<number>());
  const elements = useRef(new Map<number, Element>());
  const onSeenRef = useRef(onSeen);
  useEffect(() => {
    onSeenRef.current = onSeen;
  });

  const report = useCallback(() => {
    if (document.visibilityState !== 'visible' || inView.current.size === 0) return;
    onSeenRef.current([...inView.current]);
  }, []);

  useEffect(() => {
    if (typeof IntersectionObserver === 'undefined') return;
    const current = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const id = Number((entry.target as HTMLElement).dataset.messageId);
          if (!Number.isFinite(id)) continue;
          if (entry.isIntersecting) inView.current.add(id);
          else inView.current.delete(id);
        }
        report();
      },
      { root: root.current, threshold: 0.5 },
    );
    observer.current = current;
    for (const element of elements.current.values()) current.observe(element);
    const onVisibility = () => report();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      current.disconnect();
      observer.current = null;
    };
  }, [root, report]);

  return useCallback(
    (id: number) => (element: Element | null) => {
      const previous = elements.current.get(id);
      if (previous && previous !== element) {
        observer.current?.unobserve(previous);
        elements.current.delete(id);
        inView.current.delete(id);
      }
      if (element) {
        elements.current.set(id, element);
        observer.current?.observe(element);
      }
    },
    [],
  );
};
