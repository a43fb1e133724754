import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENT } from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { chatFixtures, openSocket, type TestSocket } from '../../testing/chat-fixtures';

/**
 * ADR 0067: a client frame's ids are checked at the edge. A typing frame naming order 99,999,999,999
 * reached PostgreSQL ("out of range for type integer") and logged a stack at warn; now it is dropped
 * unanswered, with nothing above debug in the log and no query, and the socket stays open and usable.
 * The app logs at debug here and the test reads pino's destination (as plugins/logging.test.ts does).
 */
interface Writable {
  write(chunk: string): unknown;
}
const pinoStreamOf = (logger: object): Writable => {
  for (let o: object | null = logger; o; o = Object.getPrototypeOf(o) as object | null) {
    const symbol = Object.getOwnPropertySymbols(o).find((s) => s.description === 'pino.stream');
    if (symbol) return (o as Record<symbol, Writable>)[symbol] as Writable;
  }
  throw new Error('pino destination not found');
};

let t: TestApp;
let fx: ReturnType<typeof chatFixtures>;
let base: string;
const sockets: TestSocket[] = [];
const lines: { level: number; msg?: string }[] = [];
const queries: { sql: string; params: readonly unknown[] }[] = [];

beforeAll(async () => {
  t = await buildTestApp({ env: { LOG_LEVEL: 'debug' } });
  const stream = pinoStreamOf(t.app.log);
  stream.write = (chunk: string) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { level: number; msg?: string });
    return true;
  };
  // Every query the app sends, seen on its way to the real database.
  const query = t.db.query.bind(t.db);
  t.db.query = (sql, params) => {
    queries.push({ sql, params: params ?? [] });
    return query(sql, params);
  };
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  fx = chatFixtures(t);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

const socketOf = async (path: string, token: string) => {
  const socket = await openSocket(`${base}/chat/${path}?accessToken=${encodeURIComponent(token)}`);
  sockets.push(socket);
  return socket;
};
const WARN = 40;

describe('ADR 0067: client frames with ids no order can have', () => {
  it.each([99_999_999_999, 2_147_483_648, 0, -1, Number.MAX_SAFE_INTEGER])(
    'drops a typing frame for order %d: no answer, no query, nothing above debug, the socket still serves',
    async (orderId) => {
      const customer = await fx.customer(`frames.${String(orderId).replace('-', 'm')}@example.com`);
      const support = await fx.support(`frames.support.${String(orderId).replace('-', 'm')}@example.com`);
      const mine = await socketOf('customers/orders/messages', customer.token);
      const staff = await socketOf('staff/orders/messages', support.token);
      const realOrder = await fx.order(customer.id);
      const linesBefore = lines.length;
      const queriesBefore = queries.length;

      mine.send({ event: SOCKET_EVENT.customerTypingStart, data: { orderId, chat: 'support' } });
      staff.send({ event: SOCKET_EVENT.supportTypingStart, data: { orderId } });
      expect(await mine.none(() => true, 500)).toBe(true);
      expect(await staff.none(() => true, 0)).toBe(true);
      expect(queries.slice(queriesBefore)).toEqual([]);
      const logged = lines.slice(linesBefore);
      expect(logged.filter((l) => l.level >= WARN)).toEqual([]);
      expect(logged.filter((l) => l.msg === 'chat: a frame with an id out of range dropped')).toHaveLength(2);

      // Still open and usable: a ping is answered, and typing on a real order reaches staff.
      mine.send({ event: SOCKET_EVENT.ping });
      expect((await mine.next((f) => f.event === SOCKET_EVENT.pong)).event).toBe(SOCKET_EVENT.pong);
      mine.send({ event: SOCKET_EVENT.customerTypingStart, data: { orderId: realOrder, chat: 'support' } });
      expect((await staff.next((f) => f.event === SOCKET_EVENT.customerTypingStart)).data).toEqual({ orderId: realOrder, chat: 'support' });
      expect(mine.ws.readyState).toBe(mine.ws.OPEN);
    },
  );
});
