import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from './clock';
import type { AccessClaims } from './jwt';

/**
 * ADR 0080: a download ticket lets the browser's own download manager fetch one file: the signed-in page
 * asks the download path for a link (`?link=1`, with its bearer token, every access rule checked), and
 * the answer is that same path with `?ticket=`: good for that path only, with GET, for a minute, for the
 * account and session that asked (an ended session ends it too). Never logged (app.ts redacts `ticket`).
 */
export const DOWNLOAD_TICKET_TTL_SECONDS = 60;
const VERSION = 'v1';

export interface DownloadTickets {
  issue(claims: AccessClaims, path: string): string;
  /** The claims of a ticket made for exactly `path` and not expired, or null. */
  verify(ticket: string, path: string): AccessClaims | null;
}

interface TicketBody {
  u: number;
  r: number;
  s?: string;
  p: string;
  e: number;
}

export const createDownloadTickets = (secret: string, clock: Clock): DownloadTickets => {
  // Its own key, derived from the app secret: a ticket is never an access token, nor the reverse.
  const key = createHmac('sha256', secret).update('download-ticket').digest();
  const sign = (body: string): Buffer => createHmac('sha256', key).update(`${VERSION}.${body}`).digest();
  return {
    issue: ({ userId, role, sid }, path) => {
      const body: TicketBody = {
        u: userId,
        r: role,
        ...(sid ? { s: sid } : {}),
        p: path,
        e: Math.floor(clock.now().getTime() / 1000) + DOWNLOAD_TICKET_TTL_SECONDS,
      };
      const encoded = Buffer.from(JSON.stringify(body)).toString('base64url');
      return `${encoded}.${sign(encoded).toString('base64url')}`;
    },
    verify: (ticket, path) => {
      const [encoded, signature, extra] = ticket.split('.');
      if (!encoded || !signature || extra !== undefined) return null;
      const expected = sign(encoded);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      let body: TicketBody;
      try {
        body = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as TicketBody;
      } catch {
        return null;
      }
      if (body.p !== path || !(body.e * 1000 > clock.now().getTime())) return null;
      if (!Number.isSafeInteger(body.u) || typeof body.r !== 'number') return null;
      return { userId: body.u, role: body.r, ...(typeof body.s === 'string' ? { sid: body.s } : {}) };
    },
  };
};
