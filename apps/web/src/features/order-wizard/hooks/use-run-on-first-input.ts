import { useEffect } from 'react';

/**
 * Runs `load` once the visitor starts on the page (pointer, key, touch), when the browser is idle: the
 * later steps' code, downloaded while idle (the page's prefetch links, ADR 0040), is evaluated then and
 * not during the first paint. `load` must be stable.
 */
export const useRunOnFirstInput = (load: () => void) => {
  useEffect(() => {
    const events = ['pointerdown', 'keydown', 'touchstart'] as const;
    let idle: number | undefined;
    const stop = () => {
      for (const name of events) window.removeEventListener(name, start);
    };
    function start() {
      stop();
      idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(load, { timeout: 1_000 }) : window.setTimeout(load, 50);
    }
    for (const name of events) window.addEventListener(name, start, { passive: true });
    return () => {
      stop();
      if (idle !== undefined) (typeof cancelIdleCallback === 'function' ? cancelIdleCallback : window.clearTimeout)(idle);
    };
  }, [load]);
};
