import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUS, ROLE, SOCKET_EVENT, siteSettingsSchema } from '@app/domain';
import type { Queryable } from '../../db/client';
import { systemClock } from '../../lib/clock';
import { createAccessTokens } from '../../lib/jwt';
import { messageForm, openSocket } from '../../testing/chat-fixtures';
import { insertOrder } from '../../testing/factories';

/**
 * ADR 0048, CONTRACT "Serving": the chat module as its own process (SERVER_ROLE=chat, what `npm run chat`
 * sets), beside the main one whose CHAT_BASE_URL points at it. Two real processes (main.ts through tsx,
 * as the lifecycle test runs it) on one PostgreSQL database.
 */
const ROOT = path.resolve(import.meta.dirname, '../../../../..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = `chat_process_${randomBytes(5).toString('hex')}`;
const JWT_SECRET = `chat-process-secret-${randomBytes(16).toString('hex')}`;
let dataDir: string;
let databaseUrl: string;
const children: ChildProcess[] = [];

const admin = async (url: string, sql: string, params: unknown[] = []) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
};

const startServer = async (env: Record<string, string>): Promise<{ port: number; output: () => string }> => {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'development',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      JWT_SECRET,
      SEED_DEMO: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) {
        clearInterval(timer);
        resolve(Number(match[1]));
      }
    }, 50);
    child.on('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`server exited with ${code} before listening:\n${out}`));
    });
  });
  return { port, output: () => out };
};

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'chat-process-'));
  await admin(SERVER_URL, `CREATE DATABASE ${DB_NAME}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${DB_NAME}`;
  databaseUrl = url.toString();
});
afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(dataDir, { recursive: true, force: true });
  await admin(SERVER_URL, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
});

describe('ADR 0048: the chat as its own process (npm run chat)', () => {
  it(
    'serves the chat at CHAT_BASE_URL while the main process points its settings there and serves no chat',
    { timeout: 180_000 },
    async () => {
      const chat = await startServer({
        SERVER_ROLE: 'chat',
        CHAT_BASE_URL: 'http://127.0.0.1/chat',
        PUBLIC_ORIGIN: 'http://127.0.0.1:3999',
      });
      const chatBase = `http://127.0.0.1:${chat.port}/chat`;
      const main = await startServer({ CHAT_BASE_URL: chatBase, PUBLIC_ORIGIN: 'http://127.0.0.1:3999' });
      const mainUrl = `http://127.0.0.1:${main.port}`;

      const settings = siteSettingsSchema.parse(await (await fetch(`${mainUrl}/api/en/sites/settings`)).json());
      expect(settings.messages_url).toBe(chatBase);
      expect(settings.baseOrderMessengerURL).toBe(chatBase);
      expect(settings.baseWebSocketGatewayURL).toBe(`ws://127.0.0.1:${chat.port}/chat`);

      const [customer] = await admin(
        databaseUrl,
        `INSERT INTO users (role, email, password_hash, status_id) VALUES (1, 'process.customer@example.com', 'x', 1) RETURNING id`,
      );
      const [support] = await admin(
        databaseUrl,
        `INSERT INTO users (role, email, password_hash, status_id) VALUES (6, 'process.support@example.com', 'x', 1) RETURNING id`,
      );
      const adminDb: Queryable = {
        query: async <T>(sql: string, params?: readonly unknown[]) => (await admin(databaseUrl, sql, [...(params ?? [])])) as T[],
      };
      const order = await insertOrder(adminDb, {
        customerId: Number(customer?.id),
        title: 'Process essay',
        pages: 3,
        status: ORDER_STATUS.inProgress,
      });
      const tokens = createAccessTokens(JWT_SECRET, systemClock);
      const customerToken = await tokens.sign({ userId: Number(customer?.id), role: ROLE.customer });
      const supportToken = await tokens.sign({ userId: Number(support?.id), role: ROLE.support });

      // The main process no longer serves the chat; the chat process serves nothing else.
      expect(
        (await fetch(`${mainUrl}/chat/api/customers/orders/unread`, { headers: { authorization: `Bearer ${customerToken}` } })).status,
      ).toBe(404);
      expect((await fetch(`http://127.0.0.1:${chat.port}/api/en/sites/settings`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${chat.port}/healthz`)).status).toBe(200);

      const socket = await openSocket(`ws://127.0.0.1:${chat.port}/chat/customers/orders/messages?accessToken=${customerToken}`);
      const form = messageForm({ message: JSON.stringify({ body: 'from the chat process' }) });
      const sent = await fetch(`${chatBase}/api/staff/orders/${order.id}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${supportToken}`, ...form.headers },
        body: form.payload,
      });
      expect(sent.status).toBe(200);
      const frame = await socket.next((f) => f.event === SOCKET_EVENT.newMessage, 2000);
      expect((frame.data as { message: { body: string } }).message.body).toBe('from the chat process');
      socket.close();

      // The web app on PUBLIC_ORIGIN calls it across origins.
      const preflight = await fetch(`${chatBase}/api/customers/orders/unread`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://127.0.0.1:3999',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3999');
      const unread = await fetch(`${chatBase}/api/customers/orders/unread`, {
        headers: { authorization: `Bearer ${customerToken}`, origin: 'http://127.0.0.1:3999' },
      });
      expect(unread.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3999');
      expect(await unread.json()).toEqual({ total: 1, orders: [{ orderId: order.id, total: 1 }] });
    },
  );
});
