import { LATER_CODE_ELEMENT_ID } from '@app/domain/routes';

let done = false;

/**
 * ADR 0040, "preload now and prefetch later": the server lists the code the page may
 * load later (the wizard's steps 2 and 3, its dialogs); once the page is drawn and the browser idle, each
 * file is fetched at the lowest priority into the HTTP cache, without running it. The code runs when it
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
  for (const url of urls) {
    if (typeof url !== 'string' || !url.startsWith('/assets/')) continue;
    const link = document.createElement('link');
    link.rel = 'prefetch';
    link.crossOrigin = 'anonymous';
    link.href = url;
    document.head.append(link);
  }
};

/** For tests: prefetch again. */
export const resetPrefetchLaterCode = (): void => {
  done = false;
};
