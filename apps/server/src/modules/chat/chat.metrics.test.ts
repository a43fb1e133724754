import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { chatFixtures, openSocket } from '../../testing/chat-fixtures';

const METRICS_TOKEN = 'chat-metrics-token-0123456789';
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ env: { METRICS_TOKEN } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});

const gauge = async (): Promise<number> => {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  return Number(/^chat_open_sockets (\d+)$/m.exec(res.body)?.[1] ?? NaN);
};

describe('ADR 0048: /metrics counts open chat sockets', () => {
  it('goes up with a socket and down when it closes', async () => {
    expect(await gauge()).toBe(0);
    const customer = await chatFixtures(t).customer('chat.metrics@example.com');
    const socket = await openSocket(
      `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/chat/customers/orders/messages?accessToken=${customer.token}`,
    );
    expect(await gauge()).toBe(1);
    socket.close();
    await socket.closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await gauge()).toBe(0);
  });
});
