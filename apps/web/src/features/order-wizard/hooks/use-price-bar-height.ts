import { useCallback, useRef } from 'react';

/**
 * WCAG 2.4.11: the fixed price bar (below 992 px) must not cover the focused control. Its height goes
 * to `--price-bar-height`, which index.css turns into the page's bottom scroll padding (ADR 0042).
 */
export const usePriceBarHeight = () => {
  const observer = useRef<ResizeObserver | null>(null);
  return useCallback((bar: HTMLDivElement | null) => {
    const root = document.documentElement.style;
    observer.current?.disconnect();
    if (!bar) {
      root.removeProperty('--price-bar-height');
      return;
    }
    const measure = () => root.setProperty('--price-bar-height', `${bar.offsetHeight}px`);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    observer.current = new ResizeObserver(measure);
    observer.current.observe(bar);
  }, []);
};
