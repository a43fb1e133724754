import { createHash } from 'node:crypto';

/** The element of a drawn page that lists the app's code for `APP_LOADER`: `{ "entry": url, "preload": [url…] }`. */
export const APP_CODE_ELEMENT_ID = 'app-code';

/**
 * ADR 0065: a page the server drew shows itself before any of the app's code is asked for. This script,
 * at the end of the page, asks for it once the page is painted (the frame after the first), or at once in a
 * tab that is not visible (it paints nothing), or after 250 ms whatever happens. Until then the page
 * has the whole connection to itself; on a slow network its first paint waits for nothing but its own HTML.
 *
 * The same text in every page, so the CSP allows it by its hash (`APP_LOADER_HASH`), not by a nonce.
 */
export const APP_LOADER = `(function () {
  var code = JSON.parse(document.getElementById('${APP_CODE_ELEMENT_ID}').textContent);
  var started = false;
  function add(element) {
    element.crossOrigin = '';
    document.head.appendChild(element);
  }
  function start() {
    if (started) return;
    started = true;
    code.preload.forEach(function (url) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = url;
      add(link);
    });
    var script = document.createElement('script');
    script.type = 'module';
    script.src = code.entry;
    add(script);
  }
  if (document.visibilityState !== 'visible') return start();
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  setTimeout(start, 250);
})();`;

/** The CSP source that allows `APP_LOADER` and no other inline script. */
export const APP_LOADER_HASH = `'sha256-${createHash('sha256').update(APP_LOADER).digest('base64')}'`;
