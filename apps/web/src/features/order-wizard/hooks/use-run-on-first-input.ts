import { useEffect } from 'react';
import { whenIdle } from '@/lib/idle';

/**
 * Runs `load` once the visitor starts on the page (pointer, key, touch), when the browser is idle: the
 * later steps' code, downloaded while idle (the page's prefetch links, ADR 0040), is evaluated then and
 * not during the first paint. `load` must be stable.
 */
export const useRunOnFirstInput = (load: () => void) => {
  useEffect(() => {
    const events = ['pointerdown', 'keydown', 'touchstart'] as const;
    let cancelIdle: (() => void) | undefined;
    const stop = () => {
      for (const name of events) window.removeEventListener(name, start);
    };
    function start() {
      stop();
      cancelIdle = whenIdle(() => load(), { timeout: 1_000, fallbackMs: 50 });
    }
    for (const name of events) window.addEventListener(name, start, { passive: true });
    return () => {
      stop();
      cancelIdle?.();
    };
  }, [load]);
};
