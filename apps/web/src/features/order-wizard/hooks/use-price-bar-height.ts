import { useCallback, useRef } from 'react';

/**
 * WCAG 2.4.11: the fixed price bar (below 992 px) must not cover the focused control. Its height goes
 * to `--price-bar-height`, which index.css turns into the page's bottom scroll padding (ADR 0042).
 * The height comes from a ResizeObserver, which reports it once the browser has laid the page out
 * (and again when it changes): reading `offsetHeight` when the bar mounts forced the layout of the whole
 * page inside the wizard's first render, its longest part on a slow phone (ADR 0062).
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
    const write = (height: number) => {
      const value = `${Math.round(height)}px`;
      if (root.getPropertyValue('--price-bar-height') !== value) root.setProperty('--price-bar-height', value);
    };
    if (typeof ResizeObserver === 'undefined') {
      write(bar.offsetHeight);
      return;
    }
    observer.current = new ResizeObserver(([entry]) => {
      write(entry?.borderBoxSize?.[0]?.blockSize ?? bar.offsetHeight);
    });
    observer.current.observe(bar);
  }, []);
};
