import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyServerOptions } from 'fastify';

/**
 * Fastify's `trustProxy` from TRUST_PROXY (ADR 0032). A hop count becomes a function: the socket's peer
 * and the next `hops - 1` X-Forwarded-For entries are proxies, the entry before them is the client.
 * (Fastify 5 takes a bare number as "trust nothing"; `true` would trust every hop, so a client could
 * write its own address into X-Forwarded-For.)
 */
export const trustProxyOption = (trust: false | number | string[]): FastifyServerOptions['trustProxy'] => {
  if (trust === false || trust === 0) return false;
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust;
};

/** The eight 16-bit groups of an IPv6 address (zone and embedded IPv4 tail allowed), or null. */
const ipv6Groups = (address: string): number[] | null => {
  let text = address.split('%')[0] ?? '';
  const tail = text.slice(text.lastIndexOf(':') + 1);
  if (isIPv4(tail)) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = `${text.slice(0, text.length - tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest, ...more] = text.split('::');
  if (more.length > 0) return null;
  const headParts = head ? head.split(':') : [];
  const restParts = rest === undefined ? [] : rest ? rest.split(':') : [];
  const missing = 8 - headParts.length - restParts.length;
  if (rest === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...headParts, ...Array<string>(rest === undefined ? 0 : missing).fill('0'), ...restParts].map((g) =>
    Number.parseInt(g, 16),
  );
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
};

/**
 * The rate-limit identity of a client address: an IPv4 address as it is (an IPv4-mapped IPv6 address
 * as its IPv4 form), an IPv6 address as its /64 network, which one subscriber usually holds whole, so
 * stepping through its 2^64 addresses does not buy fresh budgets (ADR 0032).
 */
export const clientBucket = (ip: string): string => {
  if (!isIPv6(ip.split('%')[0] ?? '')) return ip;
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
};

/** The socket's peer (not X-Forwarded-For) is this machine. */
export const isLoopback = (address: string | undefined): boolean => {
  if (!address) return false;
  if (isIPv4(address)) return address.startsWith('127.');
  const bucket = clientBucket(address);
  if (isIPv4(bucket)) return bucket.startsWith('127.');
  const groups = ipv6Groups(address);
  return groups !== null && groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1;
};
