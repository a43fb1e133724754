import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '@app/domain';
import { loadConfig } from './config';
import type { Db } from './db/client';
import { openDatabase } from './db/open';
import { verifyPassword } from './lib/password';
import { PASSWORD_ON_ARGV, readPassword, runOps, type OpsDeps } from './ops';
import { createTestDb } from './testing/build-test-app';

let db: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ db, drop } = await createTestDb());
});
afterAll(async () => {
  await drop();
});

/**
 * runOps against the test database; it closes the database it opens, so it gets a view whose close does
 * nothing. `stdin` is what is piped to the command (the password, as `printf '%s\n' "$PASSWORD" |` sends it).
 */
const run = async (argv: string[], openDb?: OpsDeps['openDatabase'], stdin = '') => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOps(argv, {
    openDatabase: openDb ?? (async () => ({ db: { ...db, close: async () => undefined }, release: () => undefined })),
    readPassword: () => readPassword(Readable.from([Buffer.from(stdin)]), new PassThrough()),
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

const account = async (email: string) =>
  (
    await db.query<{
      role: number;
      first_name: string;
      last_name: string;
      status_id: number;
      password_hash: string;
      email_confirmed_at: Date | null;
    }>('SELECT role, first_name, last_name, status_id, password_hash, email_confirmed_at FROM users WHERE lower(email) = $1', [email])
  )[0];

describe('npm run ops -- staff:add (CONTRACT "Staff side")', () => {
  it('creates an active writer account that can sign in with the given password', async () => {
    const result = await run(
      ['staff:add', '--role', 'writer', '--email', 'New.Writer@Example.com', '--name', 'Ada  Byron King'],
      undefined,
      'longenough1\n',
    );
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toContain('new.writer@example.com');
    expect(result.out).not.toContain('longenough1');
    const stored = await account('new.writer@example.com');
    expect(stored).toMatchObject({ role: ROLE.writer, first_name: 'Ada', last_name: 'Byron King', status_id: 1 });
    expect(stored?.email_confirmed_at).not.toBeNull();
    expect(await verifyPassword(stored?.password_hash ?? '', 'longenough1')).toBe(true);
  });

  it('creates a support account with role 6', async () => {
    expect(
      (await run(['staff:add', '--role', 'support', '--email', 'help@example.com', '--name', 'Kim'], undefined, 'longenough2')).code,
    ).toBe(0);
    expect(await account('help@example.com')).toMatchObject({ role: ROLE.support, first_name: 'Kim', last_name: '' });
  });

  it('creates an admin account with role 7 (ADR 0090)', async () => {
    expect(
      (await run(['staff:add', '--role', 'admin', '--email', 'boss@example.com', '--name', 'Ari Lane'], undefined, 'longenough3')).code,
    ).toBe(0);
    expect(await account('boss@example.com')).toMatchObject({ role: ROLE.admin, first_name: 'Ari', last_name: 'Lane' });
  });

  it('refuses an email that already has an account, in any letter case, and changes nothing', async () => {
    const before = await account('writer@example.com');
    const result = await run(
      ['staff:add', '--role', 'support', '--email', 'WRITER@example.com', '--name', 'Someone Else'],
      undefined,
      'different99\n',
    );
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/already exists/);
    expect(await account('writer@example.com')).toEqual(before);
  });

  it.each([
    [['staff:add', '--role', 'owner', '--email', 'a@example.com', '--name', 'A B'], /--role must be writer, support or admin/],
    [['staff:add', '--role', 'writer', '--email', 'not-an-email', '--name', 'A B'], /--email must be a valid email/],
    [['staff:add', '--role', 'writer', '--email', 'a@example.com', '--name', '  '], /--name must not be empty/],
    [['staff:add', '--role', 'writer', '--email', 'a@example.com', '--name', 'A', '--admin'], /Unknown option/],
    // ADR 0039: a password on the command line is refused, whatever it is.
    [
      ['staff:add', '--role', 'writer', '--email', 'a@example.com', '--password', 'longenough', '--name', 'A B'],
      /--password is not accepted/,
    ],
    [['staff:add', '--role', 'writer', '--email', 'a@example.com', '--password=longenough', '--name', 'A B'], /--password is not accepted/],
    [['staff:remove'], /Unknown command: staff:remove/],
    [[], /No command given/],
  ])('refuses %j with exit code 1 and says why', async (argv, message) => {
    const result = await run(
      argv,
      async () => {
        throw new Error('the database must not be opened for invalid arguments');
      },
      'longenough\n',
    );
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
      const result = await run(
        ['staff:add', '--role', 'writer', '--email', 'locked@example.com', '--name', 'L'],
        () => openDatabase(config),
        'longenough\n',
      );
      expect(result.code).toBe(1);
      expect(result.err).toContain(`PID ${process.ppid}`);
      expect(result.err).toMatch(/Stop that process/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a piped password of the wrong length, after asking, and changes nothing', async () => {
    const result = await run(['staff:add', '--role', 'writer', '--email', 'short@example.com', '--name', 'S'], undefined, 'short\n');
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/The password must be 8 to \d+ characters/);
    expect(await account('short@example.com')).toBeUndefined();
  });

  it('never echoes the password or names it in its output', async () => {
    const result = await run(
      ['staff:add', '--role', 'writer', '--email', 'quiet@example.com', '--name', 'Q'],
      undefined,
      'secret-pass-9\n',
    );
    expect(result.code).toBe(0);
    expect(`${result.out}${result.err}`).not.toContain('secret-pass-9');
    expect(PASSWORD_ON_ARGV).toMatch(/prompt|stdin/);
  });
});

/** A terminal stand-in: node:tty's ReadStream interface (isTTY, setRawMode) over a stream the test types into. */
const terminal = () => {
  const input = Object.assign(new PassThrough(), { isTTY: true, rawModes: [] as boolean[] });
  const tty = Object.assign(input, {
    setRawMode: (mode: boolean) => {
      tty.rawModes.push(mode);
      return tty;
    },
  });
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString('utf8')));
  return { tty, output, shown: () => shown };
};

describe('the password prompt (a terminal: raw mode, nothing echoed)', () => {
  it('asks twice, echoes nothing of what is typed, takes Backspace, and restores the terminal', async () => {
    const { tty, output, shown } = terminal();
    const password = readPassword(tty, output);
    tty.write('longenougx\u007fh');
    tty.write('\r');
    await new Promise((resolve) => setImmediate(resolve));
    tty.write('longenough\r');
    await expect(password).resolves.toBe('longenough');
    expect(shown()).toBe('Password: \nRepeat the password: \n');
    expect(tty.rawModes).toEqual([true, false, true, false]);
  });

  it('refuses two different passwords', async () => {
    const { tty, output } = terminal();
    const password = readPassword(tty, output);
    tty.write('longenough1\r');
    await new Promise((resolve) => setImmediate(resolve));
    tty.write('longenough2\r');
    await expect(password).rejects.toThrow(/differ/);
  });

  it('gives up on Ctrl-C', async () => {
    const { tty, output } = terminal();
    const password = readPassword(tty, output);
    tty.write('long\u0003');
    await expect(password).rejects.toThrow(/Cancelled/);
    expect(tty.rawModes).toEqual([true, false]);
  });

  it('reads a piped password up to its line end', async () => {
    await expect(readPassword(Readable.from([Buffer.from('pass word 1\r\nignored\n')]), new PassThrough())).resolves.toBe('pass word 1');
  });
});
