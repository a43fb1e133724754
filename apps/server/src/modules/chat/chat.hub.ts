import {
  ROLE,
  SERVER_PING_INTERVAL_MS,
  SOCKET_CLOSE,
  SOCKET_EVENT,
  SOCKETS_PER_CUSTOMER_MAX,
  SOCKETS_PER_STAFF_MAX,
  staffChatOf,
  type ChatId,
  type ChatMessage,
  type OrderUnread,
} from '@app/domain';
import type { Logger } from '../../lib/logger';
import { NOTIFICATION_SOCKET_EVENT, NOTIFICATIONS_READ_SOCKET_EVENT, type NotificationEvent } from '@app/domain';
import type { ChatBus, NotificationWake, SessionsEndedWake, WakeUp } from './chat.bus';
import type { CustomerUnread } from './chat.model';

/** What the hub needs of a WebSocket (ws's satisfies it; no Fastify type here, DESIGN rule 2). */
export interface ChatSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  ping(): void;
  terminate(): void;
  readonly bufferedAmount: number;
  readonly readyState: number;
}

export interface Connection {
  socket: ChatSocket;
  userId: number;
  kind: 'customer' | 'writer' | 'support';
  /** when the access token it opened with expires (ms since epoch): then it is closed with 4401 */
  expiresAtMs: number;
  /** the session (refresh-token family, the token's `sid`) it opened with: when it ends, 4401 (ADR 0069) */
  sid?: string | undefined;
  /** answered the last protocol ping (or sent anything) */
  alive: boolean;
}

/** What the hub reads when a wake-up concerns its sockets (the service, over PostgreSQL). */
export interface HubReads {
  message(id: number): Promise<ChatMessage | null>;
  customerUnread(input: { customerId: number; orderId: number }): Promise<CustomerUnread>;
  staffUnread(input: { orderId: number; chats: readonly ChatId[] }): Promise<OrderUnread>;
  ordersOfWriterFor(input: { writerId: number; customerIds: number[] }): Promise<{ orderId: number; customerId: number }[]>;
  /** ADR 0088: a notification with the user's unread count (null: not theirs, or gone). */
  notification?(input: { userId: number; notificationId: number }): Promise<NotificationEvent | null>;
  notificationsUnread?(userId: number): Promise<number>;
}

const OPEN = 1;
/** How long an ended session is remembered, for a socket whose upgrade was answered while its end went by (ADR 0069). */
const RECENT_ENDS_MS = 60_000;
const RECENT_ENDS_MAX = 10_000;

/** Whether a "sessions ended" wake-up ends the session this connection opened with (ADR 0069). */
const endsSessionOf = (wake: SessionsEndedWake, conn: Connection): boolean => {
  if (wake.userId !== conn.userId) return false;
  if (wake.sids) return conn.sid !== undefined && wake.sids.includes(conn.sid);
  // Every session of the account but one: a socket whose token names no session is closed too (it
  // reconnects if its account is still live).
  return wake.exceptSid === undefined || wake.exceptSid === null || conn.sid !== wake.exceptSid;
};
/** A socket that lets this much pile up unsent is a client that does not read: it is dropped. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

const frame = (event: number, data: unknown): string => JSON.stringify({ event, data });

/**
 * The chats whose unread count is this staff connection's: its role's own chat, the domain's rule that
 * chat.actor.ts and the staff console use too (a writer reads the writer chat, support the support chat).
 */
const staffReads = (kind: Connection['kind']): readonly ChatId[] => [staffChatOf(kind === 'writer' ? ROLE.writer : ROLE.support)];

/**
 * The sockets of this instance and the fan-out to them (ADR 0048). A wake-up (from this instance or,
 * through Redis, another) is matched to the local sockets it concerns; only then is PostgreSQL read,
 * once per wake-up, and the frame serialised once for all of them. A customer hears only their own
 * orders: sockets are found by the customer id the order row carries.
 */
export const createHub = ({
  bus,
  reads,
  log,
  now = () => Date.now(),
  isLive,
}: {
  bus: ChatBus;
  reads: HubReads;
  log: Logger;
  now?: () => number;
  /** ADR 0069: whether the account and session a socket opened with are still live (asked every sweep). */
  isLive?: (session: { userId: number; sid?: string | undefined }) => Promise<boolean>;
}) => {
  const customers = new Map<number, Set<Connection>>();
  // ADR 0066: per customer with sockets here, the version of each order's counts last sent to them.
  const unreadSent = new Map<number, Map<number, number>>();
  const staff = new Map<number, Set<Connection>>();
  const support = new Set<Connection>();
  let open = 0;

  const send = (conn: Connection, data: string): void => {
    if (conn.socket.readyState !== OPEN) return;
    if (conn.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      conn.socket.terminate();
      return;
    }
    conn.socket.send(data);
  };
  const sendAll = (conns: Iterable<Connection>, data: string): void => {
    for (const conn of conns) send(conn, data);
  };

  /** Staff connections that follow `chat` of an order assigned to `writerId`. */
  const staffFor = (chat: ChatId, writerId: number | null): Connection[] => {
    const list: Connection[] = [];
    for (const conn of support) list.push(conn);
    if (chat === 'writer' && writerId !== null) for (const conn of staff.get(writerId) ?? []) if (conn.kind === 'writer') list.push(conn);
    return list;
  };

  const writerPresenceChanged = (writerId: number, present: boolean): void => {
    bus
      .setWriterPresence(writerId, present)
      .catch((error: unknown) => log.warn({ err: error }, 'chat: writer presence not stored'))
      .finally(() => bus.publish({ t: 'writer-online', writerId }));
  };

  const unreadFrame = (orderId: number, counts: OrderUnread) => frame(SOCKET_EVENT.unread, { orderId, ...counts });

  /**
   * The customer's counts of an order after a change: those the wake-up carries, else read now. Counts
   * older than some already sent (a wake-up from another instance that arrived late) are not sent, so
   * the last frame 5 a tab hears is the newest state.
   */
  const sendCustomerUnread = async (own: Set<Connection>, wake: { customerId: number; orderId: number; unread?: CustomerUnread }) => {
    const counts = wake.unread ?? (await reads.customerUnread({ customerId: wake.customerId, orderId: wake.orderId }));
    const sent = unreadSent.get(wake.customerId) ?? new Map<number, number>();
    if ((sent.get(wake.orderId) ?? -1) >= counts.version) return;
    sent.set(wake.orderId, counts.version);
    if (customers.has(wake.customerId)) unreadSent.set(wake.customerId, sent);
    sendAll(own, unreadFrame(wake.orderId, { total: counts.writer + counts.support, writer: counts.writer, support: counts.support }));
  };

  /** ADR 0088: the user's sockets here hear a new notification (20) or their new unread count (21), each once. */
  const notificationsSent = new Map<number, number[]>();
  const onNotification = async (wake: NotificationWake): Promise<void> => {
    const conns = [...(customers.get(wake.userId) ?? []), ...(staff.get(wake.userId) ?? [])];
    if (conns.length === 0) return;
    if (wake.notificationId === undefined) {
      if (!reads.notificationsUnread) return;
      sendAll(conns, frame(NOTIFICATIONS_READ_SOCKET_EVENT, { unread: await reads.notificationsUnread(wake.userId) }));
      return;
    }
    const sent = notificationsSent.get(wake.userId) ?? [];
    if (sent.includes(wake.notificationId) || !reads.notification) return;
    const event = await reads.notification({ userId: wake.userId, notificationId: wake.notificationId });
    if (!event) return;
    sent.push(wake.notificationId);
    if (sent.length > 50) sent.shift();
    notificationsSent.set(wake.userId, sent);
    sendAll(conns, frame(NOTIFICATION_SOCKET_EVENT, event));
  };

  const onWake = async (wake: Exclude<WakeUp, SessionsEndedWake>): Promise<void> => {
    if (wake.t === 'notification') return onNotification(wake);
    if (wake.t === 'writer-online') {
      if (customers.size === 0) return;
      const online = await bus.isWriterOnline(wake.writerId);
      const orders = await reads.ordersOfWriterFor({ writerId: wake.writerId, customerIds: [...customers.keys()] });
      for (const { orderId, customerId } of orders)
        sendAll(customers.get(customerId) ?? [], frame(SOCKET_EVENT.writerOnline, { orderId, online }));
      return;
    }
    const own = customers.get(wake.customerId);
    const team = staffFor(wake.chat, wake.writerId);
    if (!own && team.length === 0) return;

    if (wake.t === 'typing') {
      const data = { orderId: wake.orderId, chat: wake.chat };
      if (wake.fromCustomer) {
        sendAll(team, frame(wake.start ? SOCKET_EVENT.customerTypingStart : SOCKET_EVENT.customerTypingStop, data));
      } else if (own) sendAll(own, frame(wake.start ? SOCKET_EVENT.supportTypingStart : SOCKET_EVENT.supportTypingStop, data));
      return;
    }

    if (wake.t === 'message') {
      const message = await reads.message(wake.messageId);
      if (!message) return;
      const data = frame(SOCKET_EVENT.newMessage, { message });
      if (own) sendAll(own, data);
      sendAll(team, data);
      if (!wake.fromCustomer && own) await sendCustomerUnread(own, wake);
      if (wake.fromCustomer) await sendStaffUnread(team, wake.orderId, wake.chat);
      return;
    }

    // read
    const data = frame(SOCKET_EVENT.read, {
      orderId: wake.orderId,
      chat: wake.chat,
      by: wake.by,
      messageId: wake.messageId,
      sequence: wake.sequence,
    });
    if (wake.by === 'customer') {
      // The customer's other tabs: the counts went down.
      if (own) await sendCustomerUnread(own, wake);
      sendAll(team, data);
    } else {
      if (own) sendAll(own, data);
      sendAll(team, data);
      await sendStaffUnread(team, wake.orderId, wake.chat);
    }
  };

  /** Staff whose unread count of this order's `chat` may have changed hear their new counts. */
  const sendStaffUnread = async (team: Connection[], orderId: number, chat: ChatId): Promise<void> => {
    const concerned = team.filter((conn) => staffReads(conn.kind).includes(chat));
    const byKind = new Map<Connection['kind'], Connection[]>();
    for (const conn of concerned) byKind.set(conn.kind, [...(byKind.get(conn.kind) ?? []), conn]);
    for (const [kind, conns] of byKind) sendAll(conns, unreadFrame(orderId, await reads.staffUnread({ orderId, chats: staffReads(kind) })));
  };

  const remove = (conn: Connection): void => {
    const map = conn.kind === 'customer' ? customers : staff;
    const set = map.get(conn.userId);
    if (!set?.delete(conn)) return;
    open -= 1;
    support.delete(conn);
    if (set.size === 0) {
      map.delete(conn.userId);
      if (conn.kind === 'customer') unreadSent.delete(conn.userId);
      notificationsSent.delete(conn.userId);
      if (conn.kind === 'writer') writerPresenceChanged(conn.userId, false);
    }
  };

  /** The sessions' sockets here are closed with 4401 at once and hear nothing more (ADR 0069). */
  const recentEnds: { wake: SessionsEndedWake; at: number }[] = [];
  const endSocket = (conn: Connection): void => {
    remove(conn);
    conn.socket.close(SOCKET_CLOSE.unauthorized, 'session ended');
  };
  const sessionsEnded = (wake: SessionsEndedWake): void => {
    const at = Date.now();
    const kept = recentEnds.findIndex((end) => end.at > at - RECENT_ENDS_MS);
    recentEnds.splice(0, kept < 0 ? recentEnds.length : kept);
    if (recentEnds.length >= RECENT_ENDS_MAX) recentEnds.shift();
    recentEnds.push({ wake, at });
    for (const conn of [...(customers.get(wake.userId) ?? []), ...(staff.get(wake.userId) ?? [])]) {
      if (endsSessionOf(wake, conn)) endSocket(conn);
    }
  };

  // Wake-ups of one order are handled one after the other, so the frames a socket gets follow the order
  // of the changes, and the last unread count it hears was read after the last change (no stale badge).
  const chains = new Map<string, Promise<void>>();
  bus.onWake((wake) => {
    if (wake.t === 'sessions-ended') {
      sessionsEnded(wake);
      return;
    }
    const key = wake.t === 'writer-online' ? `w${wake.writerId}` : wake.t === 'notification' ? `n${wake.userId}` : `o${wake.orderId}`;
    const run = (chains.get(key) ?? Promise.resolve())
      .then(() => onWake(wake))
      .catch((error: unknown) => log.error({ err: error, event: wake.t }, 'chat: a wake-up could not be delivered'));
    chains.set(key, run);
    void run.then(() => {
      if (chains.get(key) === run) chains.delete(key);
    });
  });

  let timer: NodeJS.Timeout | undefined;
  const everyConnection = function* (): Generator<Connection> {
    for (const set of customers.values()) yield* set;
    for (const set of staff.values()) yield* set;
  };
  /** Protocol pings every 30 s; a socket that did not answer the last one, or whose token expired, goes. */
  const sweep = (): void => {
    const at = now();
    for (const conn of everyConnection()) {
      if (at >= conn.expiresAtMs) {
        conn.socket.close(SOCKET_CLOSE.unauthorized, 'token expired');
        continue;
      }
      if (!conn.alive) {
        conn.socket.terminate();
        continue;
      }
      conn.alive = false;
      try {
        conn.socket.ping();
      } catch {
        conn.socket.terminate();
      }
    }
    // ADR 0069: the safety net under the wake-ups (one lost while Redis was away, a chat process that
    // does not hear the main one): every socket's session is asked again, in batched queries.
    if (isLive) {
      for (const conn of everyConnection()) {
        isLive({ userId: conn.userId, sid: conn.sid })
          .then((live) => {
            if (!live) endSocket(conn);
          })
          .catch((error: unknown) => log.warn({ err: error }, 'chat: a socket session could not be checked'));
      }
    }
    const writers = [...staff.entries()].filter(([, set]) => [...set].some((c) => c.kind === 'writer')).map(([id]) => id);
    bus.refreshPresence(writers).catch((error: unknown) => log.warn({ err: error }, 'chat: presence refresh failed'));
  };

  return {
    /**
     * Registers a socket; false when the account already has its maximum open (the caller closes with 4429).
     * A socket whose session ended while its upgrade was answered is closed with 4401 instead (ADR 0069).
     */
    add(conn: Connection): boolean {
      const at = Date.now();
      if (recentEnds.some((end) => end.at > at - RECENT_ENDS_MS && endsSessionOf(end.wake, conn))) {
        conn.socket.close(SOCKET_CLOSE.unauthorized, 'session ended');
        return true;
      }
      const map = conn.kind === 'customer' ? customers : staff;
      const set = map.get(conn.userId) ?? new Set<Connection>();
      if (set.size >= (conn.kind === 'customer' ? SOCKETS_PER_CUSTOMER_MAX : SOCKETS_PER_STAFF_MAX)) return false;
      set.add(conn);
      map.set(conn.userId, set);
      if (conn.kind === 'support') support.add(conn);
      open += 1;
      if (conn.kind === 'writer' && set.size === 1) writerPresenceChanged(conn.userId, true);
      return true;
    },
    remove,
    /** Resolves when every wake-up received so far has been delivered (tests and benches). */
    idle: async (): Promise<void> => {
      while (chains.size > 0) await Promise.all([...chains.values()]);
    },
    /** Sockets open on this instance (the /metrics gauge). */
    openSockets: (): number => open,
    start(intervalMs: number = SERVER_PING_INTERVAL_MS): void {
      if (timer) return;
      timer = setInterval(sweep, intervalMs);
      timer.unref();
    },
    /** Stops the pings and closes every socket with 1001 (the server is going away; clients reconnect). */
    stop(): void {
      clearInterval(timer);
      timer = undefined;
      for (const conn of [...everyConnection()]) conn.socket.close(SOCKET_CLOSE.goingAway, 'server shutting down');
    },
    sweep,
  };
};
export type Hub = ReturnType<typeof createHub>;
