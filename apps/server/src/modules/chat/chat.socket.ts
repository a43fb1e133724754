import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import type { RawData, WebSocket } from 'ws';
import {
  CHAT_PATH,
  customerFrameSchema,
  isCustomerRole,
  isStaffRole,
  isFrameId,
  ROLE,
  SOCKET_CLOSE,
  SOCKET_EVENT,
  SOCKET_FRAME_MAX_BYTES,
  SOCKET_FRAMES_PER_SECOND_MAX,
  staffFrameSchema,
} from '@app/domain';
import type { AccessClaims, AccessTokens } from '../../lib/jwt';
import type { Connection, Hub } from './chat.hub';
import type { ChatService } from './chat.service';

const PONG = JSON.stringify({ event: SOCKET_EVENT.pong });
const errorFrame = (message: string): string => JSON.stringify({ event: SOCKET_EVENT.error, data: { message } });

/** The `exp` of a token that verified (seconds → ms); the socket is closed with 4401 when it passes. */
const expiryMs = (token: string): number => {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
};

/**
 * The customer socket `{chat}/customers/orders/messages?accessToken=` (CONTRACT "Chat") and the staff
 * socket `{chat}/staff/orders/messages?accessToken=` (ADR 0047). The token is checked before the upgrade
 * is answered, so no frame can arrive before the socket knows whose it is; a bad or expired one (or the
 * wrong kind of account) closes it with 4401. Frames over 4 KiB close it with 1009 (ws's maxPayload).
 */
export const chatSockets: FastifyPluginAsync<{ service: ChatService; hub: Hub; tokens: AccessTokens }> = async (
  app,
  { service, hub, tokens },
) => {
  await app.register(websocket, {
    options: { maxPayload: SOCKET_FRAME_MAX_BYTES, perMessageDeflate: false, clientTracking: false },
    // The app's close: sockets are closed with 1001 by the hub (clients reconnect to another instance).
    preClose: async () => hub.stop(),
  });

  const verified = new WeakMap<FastifyRequest, { claims: AccessClaims; expiresAtMs: number }>();
  const verifyToken = async (request: FastifyRequest): Promise<void> => {
    const token = (request.query as { accessToken?: unknown }).accessToken;
    if (typeof token !== 'string' || token === '') return;
    const claims = await tokens.verify(token);
    if (claims) verified.set(request, { claims, expiresAtMs: expiryMs(token) });
  };

  const open = (socket: WebSocket, request: FastifyRequest, side: 'customer' | 'staff'): void => {
    const auth = verified.get(request);
    const role = auth?.claims.role ?? 0;
    const allowed = side === 'customer' ? isCustomerRole(role) : isStaffRole(role);
    if (!auth || !allowed) {
      socket.close(SOCKET_CLOSE.unauthorized, 'unauthorized');
      return;
    }
    const actor = { userId: auth.claims.userId, role };
    const conn: Connection = {
      socket,
      userId: actor.userId,
      kind: side === 'customer' ? 'customer' : role === ROLE.writer ? 'writer' : 'support',
      expiresAtMs: auth.expiresAtMs,
      sid: auth.claims.sid,
      alive: true,
    };
    if (!hub.add(conn)) {
      socket.close(SOCKET_CLOSE.tooManySockets, 'too many sockets');
      return;
    }
    let windowStart = 0;
    let framesInWindow = 0;
    const schema = side === 'customer' ? customerFrameSchema : staffFrameSchema;
    socket.on('pong', () => {
      conn.alive = true;
    });
    socket.on('message', (raw: RawData) => {
      conn.alive = true;
      const now = Date.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        framesInWindow = 0;
      }
      framesInWindow += 1;
      if (framesInWindow > SOCKET_FRAMES_PER_SECOND_MAX) return;
      let parsed;
      try {
        parsed = schema.safeParse(JSON.parse(raw.toString()));
      } catch {
        parsed = undefined;
      }
      if (!parsed?.success) {
        socket.send(errorFrame('Unknown frame'));
        return;
      }
      const frame = parsed.data;
      if (frame.event === SOCKET_EVENT.ping) {
        socket.send(PONG);
        return;
      }
      // ADR 0067: an id no order can have (not a positive int4) names nothing: dropped here, unanswered,
      // before it reaches a query (PostgreSQL refused 99,999,999,999 and the failure was logged at warn).
      if (!isFrameId(frame.data.orderId)) {
        app.log.debug({ event: frame.event }, 'chat: a frame with an id out of range dropped');
        return;
      }
      const start = frame.event === SOCKET_EVENT.customerTypingStart || frame.event === SOCKET_EVENT.supportTypingStart;
      service
        .typing({ actor, orderId: frame.data.orderId, chat: frame.data.chat, start })
        .catch((error: unknown) => app.log.warn({ err: error }, 'chat: a typing frame failed'));
    });
    socket.on('close', () => hub.remove(conn));
    // @fastify/websocket's own error listener holds the upgrade's request and reply (and their raw
    // request and response) for as long as the socket lives, some kilobytes per idle socket (issue 10's
    // budget: 16 KB); this one does what its default does (log, terminate) and lets them go.
    socket.removeAllListeners('error');
    socket.on('error', (error) => {
      app.log.warn({ err: error }, 'chat: a socket failed');
      hub.remove(conn);
      socket.terminate();
    });
  };

  app.get(CHAT_PATH.customerSocket, { websocket: true, preValidation: verifyToken, schema: { hide: true } }, (socket, request) =>
    open(socket, request, 'customer'),
  );
  app.get(CHAT_PATH.staffSocket, { websocket: true, preValidation: verifyToken, schema: { hide: true } }, (socket, request) =>
    open(socket, request, 'staff'),
  );
};
