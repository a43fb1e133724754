import { createHash } from 'node:crypto';
import { EARLY_REQUESTS_ELEMENT_ID, EARLY_REQUESTS_GLOBAL } from '@app/domain';

/**
 * ADR 0100: a signed-in customer's page asks for its first answers (the customer, the page's data, the
 * paths in `EARLY_REQUESTS_ELEMENT_ID`) as soon as its <head> is read, with the access token the web app
 * keeps in localStorage (UI contract "Storage": `accessToken`), instead of once the app's code has
 * arrived and run (HTML, entry, customer, route, data: a waterfall). It only starts the requests; the
 * app takes each answer once, for the same path and token (`apps/web/src/lib/early-requests.ts`), and
 * asks again for anything else. Without a token, or with storage refused, it does nothing.
 *
 * The same text in every page, so the CSP allows it by its hash (`EARLY_REQUESTS_HASH`), as `APP_LOADER`.
 */
export const EARLY_REQUESTS = `(function () {
  try {
    var token = localStorage.getItem('accessToken');
    if (!token) return;
    var paths = JSON.parse(document.getElementById('${EARLY_REQUESTS_ELEMENT_ID}').textContent);
    var early = {};
    paths.forEach(function (path) {
      var response = fetch(path, { headers: { Accept: 'application/json', Authorization: 'Bearer ' + token } });
      response.catch(function () {});
      early[path] = { token: token, at: Date.now(), response: response };
    });
    window.${EARLY_REQUESTS_GLOBAL} = early;
  } catch (e) {}
})();`;

/** The CSP source that allows `EARLY_REQUESTS`. */
export const EARLY_REQUESTS_HASH = `'sha256-${createHash('sha256').update(EARLY_REQUESTS).digest('base64')}'`;
