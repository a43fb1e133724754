import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '@app/domain';
import { loadConfig } from './config';
import type { Db } from './db/client';
import { openDatabase } from './db/open';
import { verifyPassword } from './lib/password';
import { runOps, type OpsDeps } from './ops';
import { createTestDb } from './testing/build-test-app';

let db: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ db, drop } = await createTestDb());
});
afterAll(async () => {
  await drop();
});

/** runOps against the test database; it closes the database it opens, so it gets a view whose close does nothing. */
const run = async (argv: string[], openDb?: OpsDeps['openDatabase']) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOps(argv, {
    openDatabase: openDb ?? (async () => ({ db: { ...db, close: async () => undefined }, release: () => undefined })),
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

const account = async (email: string) =>
  (
    await db.query<{ role: number; first_name: string; last_name: string; status_id: number; password_hash: string; email_confirmed_at: Date | null }>(
      'SELECT role, first_name, last_name, status_id, password_hash, email_confirmed_at FROM users WHERE lower(email) = $1',
      [email],
    )
  )[0];

describe('npm run ops -- staff:add (CONTRACT "Staff side")', () => {
  it('creates an active writer account that can sign in with the given password', async () => {
    const result = await run(['staff:add', '--role', 'writer', '--email', 'New.Writer@Example.com', '--password', 'longenough1', '--name', 'Ada  Byron King']);
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toContain('new.writer@example.com');
    expect(result.out).not.toContain('longenough1');
    const stored = await account('new.writer@example.com');
    expect(stored).toMatchObject({ role: ROLE.writer, first_name: 'Ada', last_name: 'Byron King', status_id: 1 });
    expect(stored?.email_confirmed_at).not.toBeNull();
    expect(await verifyPassword(stored?.password_hash ?? '', 'longenough1')).toBe(true);
  });

  it('creates a support account with role 6', async () => {
    expect((await run(['staff:add', '--role', 'support', '--email', 'help@example.com', '--password', 'longenough2', '--name', 'Kim'])).code).toBe(0);
    expect(await account('help@example.com')).toMatchObject({ role: ROLE.support, first_name: 'Kim', last_name: '' });
  });

  it('refuses an email that already has an account, in any letter case, and changes nothing', async () => {
    const before = await account('writer@example.com');
    const result = await run(['staff:add', '--role', 'support', '--email', 'WRITER@example.com', '--password', 'different99', '--name', 'Someone Else']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/already exists/);
    expect(await account('writer@example.com')).toEqual(before);
  });

  it.each([
    [['staff:add', '--role', 'admin', '--email', 'a@example.com', '--password', 'longenough', '--name', 'A B'], /--role must be writer or support/],
    [['staff:add', '--role', 'writer', '--email', 'not-an-email', '--password', 'longenough', '--name', 'A B'], /--email must be a valid email/],
    [['staff:add', '--role', 'writer', '--email', 'a@example.com', '--password', 'short', '--name', 'A B'], /--password must be 8/],
    [['staff:add', '--role', 'writer', '--email', 'a@example.com', '--password', 'longenough', '--name', '  '], /--name must not be empty/],
    [['staff:add', '--role', 'writer', '--email', 'a@example.com', '--password', 'longenough', '--name', 'A', '--admin'], /Unknown option/],
    [['staff:remove'], /Unknown command: staff:remove/],
    [[], /No command given/],
  ])('refuses %j with exit code 1 and says why', async (argv, message) => {
    const result = await run(argv, async () => {
      throw new Error('the database must not be opened for invalid arguments');
    });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(message);
    expect(result.err).toContain('Usage: npm run ops');
    expect(await account('a@example.com')).toBeUndefined();
  });

  it('refuses clearly while a server holds the embedded data directory', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ops-lock-'));
    try {
      // The parent of this test worker stands in for a running server.
      writeFileSync(path.join(dataDir, 'server.lock'), String(process.ppid));
      const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
      const result = await run(['staff:add', '--role', 'writer', '--email', 'locked@example.com', '--password', 'longenough', '--name', 'L'], () =>
        openDatabase(config),
      );
      expect(result.code).toBe(1);
      expect(result.err).toContain(`PID ${process.ppid}`);
      expect(result.err).toMatch(/Stop that process/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
