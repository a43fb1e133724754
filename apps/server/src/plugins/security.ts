import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from '@fastify/helmet';

/**
 * A strict Content-Security-Policy: scripts and styles only from our origin, no inline script, no
 * framing, connections to our origin only.
 */
const CSP_DIRECTIVES: Record<string, string[]> = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
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

export const registerSecurityHeaders = async (app: FastifyInstance): Promise<void> => {
  await app.register(helmet, {
    // The static policy is computed once; API answers pay nothing per request for it.
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
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
