import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError, ERROR_CODE, TRANSPORT_MESSAGE, isCustomerRole, isStaffRole } from '@app/domain';
import type { DownloadTickets } from '../lib/download-tickets';
import type { Actor } from '../lib/actor';
import type { AccessClaims, AccessTokens } from '../lib/jwt';
import { notFound } from '../lib/errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guards below; null on public routes. */
    user: AccessClaims | null;
  }
  interface FastifyInstance {
    /** Any signed-in account. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Customers only; a staff token gets 404 (CONTRACT "Staff side"). */
    requireCustomer: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Writers and support only; a customer token gets 404. */
    requireStaff: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** The account of a valid access token on a public route, or null (no token, or an invalid one). */
    optionalUserId: (request: FastifyRequest) => Promise<number | null>;
    /**
     * ADR 0080: the path of this (guarded, GET) request with a download ticket for the signed-in user,
     * which the browser's download manager can fetch without the bearer header.
     */
    downloadLink: (request: FastifyRequest) => string;
  }
}

export const bearerToken = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
};

const pathOf = (request: FastifyRequest): string => request.url.split('?', 1)[0] ?? request.url;

/** ADR 0080: `?ticket=` on a GET, when no bearer header came (a ticket is a download's, nothing else's). */
const ticketOf = (request: FastifyRequest): string | null => {
  if (request.method !== 'GET') return null;
  const ticket = (request.query as Record<string, unknown> | undefined)?.ticket;
  return typeof ticket === 'string' && ticket !== '' ? ticket : null;
};

const verifyRequest = async (tokens: AccessTokens, tickets: DownloadTickets, request: FastifyRequest): Promise<AccessClaims> => {
  const token = bearerToken(request);
  const ticket = token ? null : ticketOf(request);
  if (ticket) {
    // Made for this very path, not expired, and its account and session still live (ADR 0053).
    const claims = tickets.verify(ticket, pathOf(request));
    if (!claims || !(await tokens.isLive(claims))) throw new DomainError(ERROR_CODE.unauthorized, 'Access Token is invalid or expired');
    return claims;
  }
  if (!token) throw new DomainError(ERROR_CODE.unauthorized, TRANSPORT_MESSAGE.accessTokenMissing);
  const claims = await tokens.verify(token);
  if (!claims) throw new DomainError(ERROR_CODE.unauthorized, 'Access Token is invalid or expired');
  return claims;
};

export const authPlugin = fp(
  async (app: FastifyInstance, opts: { tokens: AccessTokens; tickets: DownloadTickets }) => {
    app.decorateRequest('user', null);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      request.user = await verifyRequest(opts.tokens, opts.tickets, request);
    });
    app.decorate('requireCustomer', async (request: FastifyRequest) => {
      const claims = await verifyRequest(opts.tokens, opts.tickets, request);
      if (!isCustomerRole(claims.role)) throw notFound();
      request.user = claims;
    });
    app.decorate('optionalUserId', async (request: FastifyRequest) => {
      const token = bearerToken(request);
      return token ? ((await opts.tokens.verify(token))?.userId ?? null) : null;
    });
    app.decorate('downloadLink', (request: FastifyRequest) => {
      const path = pathOf(request);
      return `${path}?ticket=${opts.tickets.issue(currentUser(request), path)}`;
    });
    app.decorate('requireStaff', async (request: FastifyRequest) => {
      const claims = await verifyRequest(opts.tokens, opts.tickets, request);
      if (!isStaffRole(claims.role)) throw notFound();
      request.user = claims;
    });
  },
  { name: 'auth' },
);

/** The signed-in user of a guarded route (the guard ran, so it is set). */
export const currentUser = (request: FastifyRequest): AccessClaims => {
  if (!request.user) throw new DomainError(ERROR_CODE.unauthorized, TRANSPORT_MESSAGE.accessTokenMissing);
  return request.user;
};

/** The signed-in user of a guarded route as the services' Actor: its account and role, nothing else of the token. */
export const currentActor = (request: FastifyRequest): Actor => {
  const { userId, role } = currentUser(request);
  return { userId, role };
};
