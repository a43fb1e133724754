import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { APP_LOADER_HASH } from './app-loader';
import { EARLY_REQUESTS_HASH } from './early-requests';
import { THEME_BOOT_HASH } from './theme-boot';

/**
 * A strict Content-Security-Policy: scripts and styles only from our origin, no inline script but the
 * one a drawn page asks for the app's code with (allowed by its hash, ADR 0065) and the one that sets the
 * customer's colour scheme before the first paint (its hash, ADR 0094), and the one that starts a signed-in
 * page's first requests (its hash, ADR 0100); no framing, connections to our origin only.
 */
export const CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", APP_LOADER_HASH, THEME_BOOT_HASH, EARLY_REQUESTS_HASH],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  objectSrc: ["'none'"],
};

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The policy as a header value, with an extra style-src nonce when given. */
export const contentSecurityPolicy = (styleNonce?: string): string =>
  Object.entries(CSP_DIRECTIVES)
    .map(([name, values]) => {
      const all = name === 'styleSrc' && styleNonce ? [...values, `'nonce-${styleNonce}'`] : values;
      return `${kebab(name)} ${all.join(' ')}`;
    })
    .join(';');

/**
 * Every answer's security headers, computed once: what @fastify/helmet 13 (helmet 8) sent with
 * `contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES }`, `crossOriginEmbedderPolicy: false`
 * and `strictTransportSecurity: false` (ADR 0026; security.test.ts compares the two). Helmet rebuilt its
 * middleware and re-parsed the policy on every request, about half the time of a price calculation.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': contentSecurityPolicy(),
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
});

/**
 * The JSON API's answers (and its file downloads) are never rendered as a page, so the headers that only
 * steer a document (opener policy, origin-agent cluster, DNS prefetch, IE's download and XSS switches,
 * Flash's cross-domain policy) do nothing there. They get the OWASP REST Security set instead, with a
 * stricter policy: nothing may load and nothing may frame them (ADR 0026).
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
});

/**
 * Production only (it is served over HTTPS behind the load balancer): browsers keep to HTTPS for a year,
 * subdomains included. helmet's default value. Never sent in development, where http://localhost
 * would be pinned to HTTPS (ADR 0033).
 */
export const HSTS_HEADER = 'max-age=31536000; includeSubDomains';

/**
 * API answers carry tokens (sign-in, refresh, magic link) and personal data (profile, orders, files), so
 * no cache, shared or private, may keep them. A public answer (site settings, catalogues) says
 * otherwise itself (ADR 0033).
 */
export const API_CACHE_CONTROL = 'no-store';

/** `/api/…` answers JSON and files; `/api/docs` is the OpenAPI page, a document. */
export const isApiPath = (url: string): boolean => url.startsWith('/api/') && !url.startsWith('/api/docs');

/**
 * One synchronous onRequest hook on the root instance, so every answer carries the headers: routes,
 * the not-found handler, validation and other errors, static files. They go in the reply's headers, not
 * on the raw response: Node then writes the reply's header object as it is instead of validating each
 * header twice, and a route still overrides one with reply.header (useStyleNonce, file downloads, the
 * catalogues' cache-control). Both sets are still computed once, at start (ADR 0026).
 */
export const registerSecurityHeaders = (app: FastifyInstance, { hsts }: { hsts: boolean }): void => {
  const strict = hsts ? { 'strict-transport-security': HSTS_HEADER } : {};
  const page = Object.freeze({ ...SECURITY_HEADERS, ...strict });
  const api = Object.freeze({ ...API_SECURITY_HEADERS, ...strict, 'cache-control': API_CACHE_CONTROL });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiPath(request.url) ? api : page);
    done();
  });
};

/**
 * For an HTML answer that carries one inline <style> (index.html hands it to the dialogs' scroll lock,
 * the sandbox pages style themselves): a fresh nonce, and this answer's policy allowing it.
 */
export const useStyleNonce = (reply: FastifyReply): string => {
  const nonce = randomBytes(16).toString('hex');
  reply.header('Content-Security-Policy', contentSecurityPolicy(nonce));
  return nonce;
};
