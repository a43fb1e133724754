import { LATER_CODE_ELEMENT_ID, SERVER_DRAWN_ATTRIBUTE } from '@app/domain/routes';
import { whenIdle } from './idle';

let done = false;

/**
 * ADR 0040, "preload now and prefetch later": the server lists the code the page may
 * load later (the wizard's steps 2 and 3, its dialogs); once the page is drawn and the browser idle (on a
 * page the server drew: once the visitor starts on it, ADR 0100), each file is fetched at the lowest
 * priority into the HTTP cache, without running it. The code runs when it
 * is imported (the wizard's next step, a dialog), from the cache. Once per page load.
 */
export const prefetchLaterCode = (): void => {
  if (done || typeof document === 'undefined') return;
  done = true;
  const text = document.getElementById(LATER_CODE_ELEMENT_ID)?.textContent;
  if (!text) return;
  let urls: unknown;
  try {
    urls = JSON.parse(text);
  } catch {
    return;
  }
  if (!Array.isArray(urls)) return;
  const files = urls.filter((url): url is string => typeof url === 'string' && url.startsWith('/assets/'));
  // ADR 0100: a page the server drew for a visitor (/order, /login) fetches it once the visitor starts on the
  // page (pointer, key, touch), when the wizard runs its later steps too: a visit that leaves without
  // touching the page downloads none of it (about 130 KiB on /order, most of it the checkout's phone input).
  if (document.querySelector(`[${SERVER_DRAWN_ATTRIBUTE}]`)) onFirstInput(() => appendInSlices(files));
  else appendInSlices(files);
};

const FIRST_INPUT_EVENTS = ['pointerdown', 'keydown', 'touchstart'] as const;

const onFirstInput = (run: () => void): void => {
  const start = () => {
    for (const name of FIRST_INPUT_EVENTS) window.removeEventListener(name, start, true);
    run();
  };
  for (const name of FIRST_INPUT_EVENTS) window.addEventListener(name, start, { capture: true, passive: true });
};

/**
 * Each link starts a fetch, which costs the main thread a little: the links go in while the browser is
 * idle, a few per idle period, so that the page's list (some thirty files on /order) is no long task on a
 * slow phone (ADR 0065). Without requestIdleCallback (Safari), one task per link.
 */
const appendInSlices = (urls: string[]): void => {
  const slice = (deadline?: IdleDeadline) => {
    do {
      const url = urls.shift();
      if (url === undefined) return;
      const link = document.createElement('link');
      link.rel = 'prefetch';
      link.crossOrigin = 'anonymous';
      link.href = url;
      document.head.append(link);
    } while (deadline !== undefined && deadline.timeRemaining() > 1);
    if (urls.length > 0) whenIdle(slice, { fallbackMs: 0 });
  };
  slice();
};

/** For tests: prefetch again. */
export const resetPrefetchLaterCode = (): void => {
  done = false;
};
