import { createHash } from 'node:crypto';
import { COLOR_SCHEME_ATTRIBUTE, COLOR_SCHEME_STORAGE_KEY } from '@app/domain';

/**
 * ADR 0094: the customer's colour scheme, set on <html> before the first paint of every page the server
 * sends (the app's shell, drawn or not, and its own pages), so a customer who chose Dark on a light
 * device (or Light on a dark one) never sees a flash of the other theme. Without a choice nothing is set
 * and the style sheets follow the device (`color-scheme: light dark`). The `color-scheme` meta, when the
 * page has one, follows the choice too: the browser paints the page's canvas from it before any style.
 * localStorage may throw (storage disabled): the page then follows the device.
 *
 * The same text in every page, so the CSP allows it by its hash (`THEME_BOOT_HASH`), as `APP_LOADER`.
 */
export const THEME_BOOT = `(function () {
  try {
    var choice = localStorage.getItem('${COLOR_SCHEME_STORAGE_KEY}');
    if (choice !== 'light' && choice !== 'dark') return;
    document.documentElement.setAttribute('${COLOR_SCHEME_ATTRIBUTE}', choice);
    var meta = document.querySelector('meta[name="color-scheme"]');
    if (meta) meta.setAttribute('content', choice);
  } catch (e) {}
})();`;

/** The CSP source that allows `THEME_BOOT`. */
export const THEME_BOOT_HASH = `'sha256-${createHash('sha256').update(THEME_BOOT).digest('base64')}'`;

/** The script element, for a page's <head> (after its `color-scheme` meta, before its <body>). */
export const THEME_BOOT_ELEMENT = `<script>${THEME_BOOT}</script>`;
