import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { AUDIT_ACTION, isValidEmail, normalizeEmail, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, ROLE } from '@app/domain';
import { BackupError, createBackup, describeBackup, restoreBackup, verifyBackup, type BackupPlace } from './backup/backup';
import { loadConfig, loadEnvFile, type Config } from './config';
import type { Db } from './db/client';
import { DataDirLockedError } from './db/data-dir-lock';
import { openDatabase } from './db/open';
import { PgToolError } from './db/pg-dump';
import { SnapshotError } from './db/snapshot';
import { insertAccount } from './db/seed/accounts';
import { hashPassword } from './lib/password';
import type { FileStorage } from './lib/file-storage';
import { openFileStorage } from './modules/files';
import { recordAudit } from './modules/audit';
import { systemClock, type Clock } from './lib/clock';

/**
 * Operator commands (CONTRACT "Staff side"): `npm run ops -- staff:add --role writer|support|admin --email E
 * --name "First Last"` creates a staff account, the way to get the first one in production. The password
 * is never an argument (shell history, `ps`): it is typed at a prompt that does not echo it, or piped on
 * stdin (ADR 0039).
 */
export const USAGE = [
  'Usage: npm run ops -- <command> [options]',
  '',
  'Commands:',
  '  staff:add --role writer|support|admin --email EMAIL --name "First Last"',
  '      Creates a writer, support or admin account that signs in through the usual sign-in.',
  '      The password is asked for at a prompt (not shown), or read from stdin when piped:',
  '      printf \'%s\\n\' "$PASSWORD" | npm run ops -- staff:add --role writer --email EMAIL --name "First Last"',
  '  backup FILE',
  '      Writes one archive (tar.gz) with the database and the files while the server runs (docs/operations.md).',
  '  restore FILE',
  '      Restores an archive into an empty DATA_DIR (or the empty database of DATABASE_URL) and an empty FILES_DIR;',
  '      the archive is checked whole before anything is written.',
  '  backup:verify FILE',
  '      Checks an archive against its manifest (size and SHA-256 of every entry) without restoring it.',
].join('\n');

export const PASSWORD_ON_ARGV =
  '--password is not accepted: a password on the command line stays in the shell history and is visible to `ps`. Type it at the prompt, or pipe it on stdin.';

export interface OpsDeps {
  /** Opens the configured database (migrated and seeded); refuses while a server holds the data dir. */
  openDatabase: () => Promise<{ db: Db; release: () => void }>;
  /** The new account's password: from the terminal prompt or from stdin (readPassword below). */
  readPassword: () => Promise<string>;
  out: (line: string) => void;
  err: (line: string) => void;
  clock?: Clock;
  /** Where the database and the files are (from the configuration): what `backup` reads and `restore` writes. */
  place?: BackupPlace;
}

/** The configured database and file store, as backup and restore see them (ADR 0082). */
export const backupPlaceOf = (
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'filesDir'>,
  /** The opened object store when FILES_STORAGE=s3 (ADR 0080): the archive then lists its objects. */
  objectStorage?: FileStorage,
): BackupPlace => ({
  database: config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
  files:
    objectStorage && objectStorage.kind === 's3'
      ? { kind: 'listed', name: 's3', storage: objectStorage }
      : { kind: 'disk', root: config.filesDir },
});

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** backup, restore and backup:verify: one FILE argument each; a refusal is a sentence, exit 1. */
const backupCommand = async (command: 'backup' | 'restore' | 'backup:verify', args: readonly string[], deps: OpsDeps): Promise<number> => {
  const [file, ...rest] = args;
  if (!file || file.startsWith('-') || rest.length > 0) {
    deps.err(`${command} takes one argument: the archive's file name.\n\n${USAGE}`);
    return 1;
  }
  const place = deps.place;
  if (!place) {
    deps.err('No database configured.');
    return 1;
  }
  try {
    if (command === 'backup') {
      const done = await createBackup(file, place, (deps.clock ?? systemClock).now());
      const pause = done.snapshot
        ? done.snapshot.via === 'server'
          ? ` (copied by the running server, queries paused ${done.snapshot.pausedMs} ms)`
          : ' (no server was running)'
        : '';
      deps.out(
        `Backed up the ${done.database === 'pglite' ? 'embedded database' : 'PostgreSQL database'}${pause} and ${done.files} files (${mib(done.bytes)}) to ${done.file} (${mib(done.archiveBytes)}).`,
      );
    } else if (command === 'restore') {
      const done = await restoreBackup(file, place);
      deps.out(
        `Restored the backup of ${done.createdAt}: the ${done.database === 'pglite' ? 'embedded database' : 'PostgreSQL database'} and ${done.files} files.` +
          (done.missingObjects ? ` ${done.missingObjects} of the objects it lists are not in the storage.` : ''),
      );
    } else {
      deps.out(`${file} is intact: ${describeBackup(await verifyBackup(file))}.`);
    }
    return 0;
  } catch (error) {
    if (
      error instanceof BackupError ||
      error instanceof SnapshotError ||
      error instanceof PgToolError ||
      error instanceof DataDirLockedError
    ) {
      deps.err(error instanceof DataDirLockedError ? `${error.message} A restore needs the server stopped.` : error.message);
      return 1;
    }
    throw error;
  }
};

const STAFF_ROLES = { writer: ROLE.writer, support: ROLE.support, admin: ROLE.admin } as const;
type StaffRoleName = keyof typeof STAFF_ROLES;
const isStaffRoleName = (value: string): value is StaffRoleName => Object.hasOwn(STAFF_ROLES, value);

const splitName = (name: string): { firstName: string; lastName: string } => {
  const [firstName = '', ...rest] = name.trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
};

const staffAdd = async (args: readonly string[], deps: OpsDeps): Promise<number> => {
  if (args.some((arg) => arg === '--password' || arg.startsWith('--password='))) {
    deps.err(`${PASSWORD_ON_ARGV}\n\n${USAGE}`);
    return 1;
  }
  let values: { role?: string | undefined; email?: string | undefined; name?: string | undefined };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { role: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    deps.err(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 1;
  }

  const problems: string[] = [];
  const role = values.role ?? '';
  if (!isStaffRoleName(role)) problems.push('--role must be writer, support or admin');
  const email = values.email?.trim() ?? '';
  if (!isValidEmail(email)) problems.push('--email must be a valid email address');
  const { firstName, lastName } = splitName(values.name ?? '');
  if (!firstName) problems.push('--name must not be empty');
  if (problems.length > 0 || !isStaffRoleName(role)) {
    deps.err(`${problems.join('\n')}\n\n${USAGE}`);
    return 1;
  }
  const password = await deps.readPassword();
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    deps.err(`The password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters; nothing was changed.`);
    return 1;
  }

  let opened: { db: Db; release: () => void };
  try {
    opened = await deps.openDatabase();
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      deps.err(`Cannot open the database: ${error.message}`);
      return 1;
    }
    throw error;
  }
  const { db, release } = opened;
  try {
    const passwordHash = await hashPassword(password);
    const now = (deps.clock ?? systemClock).now();
    // ADR 0090: the new account and its audit entry (no actor: the command line) in one transaction.
    const id = await db.transaction(async (tx) => {
      const created = await insertAccount(tx, { role: STAFF_ROLES[role], email, passwordHash, firstName, lastName, confirmedAt: now });
      if (created !== null) {
        await recordAudit(tx, {
          actor: null,
          action: AUDIT_ACTION.staffAdd,
          before: null,
          after: { id: created, role: STAFF_ROLES[role], email: normalizeEmail(email), active: true, twoFactor: false, via: 'ops' },
          at: now,
        });
      }
      return created;
    });
    if (id === null) {
      deps.err(`An account with the email ${normalizeEmail(email)} already exists; nothing was changed.`);
      return 1;
    }
    deps.out(`Created ${role} account #${id} for ${normalizeEmail(email)} (${[firstName, lastName].filter(Boolean).join(' ')}).`);
    return 0;
  } finally {
    await db.close();
    release();
  }
};

/** Runs one command; returns the process exit code (0 done, 1 refused). */
export const runOps = async (argv: readonly string[], deps: OpsDeps): Promise<number> => {
  const [command, ...args] = argv;
  switch (command) {
    case 'staff:add':
      return staffAdd(args, deps);
    case 'backup':
    case 'restore':
    case 'backup:verify':
      return backupCommand(command, args, deps);
    case 'help':
    case '--help':
    case '-h':
      deps.out(USAGE);
      return 0;
    default:
      deps.err(`${command ? `Unknown command: ${command}` : 'No command given.'}\n\n${USAGE}`);
      return 1;
  }
};

/** All of a piped stdin, up to its first line end: the password, without the newline `printf`/`echo` add. */
export const readPipedPassword = async (input: Readable): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
};

/** A terminal: readable, with raw mode (node:tty's ReadStream). */
export interface TerminalInput extends Readable {
  isTTY?: boolean;
  setRawMode(mode: boolean): unknown;
}
const isTerminal = (input: Readable & { isTTY?: boolean }): input is TerminalInput =>
  input.isTTY === true && 'setRawMode' in input && typeof input.setRawMode === 'function';

/**
 * Asks for the password on the terminal without echoing it: raw mode, one key at a time; Enter ends it,
 * Backspace deletes, Ctrl-C or Ctrl-D give up (rejects). The terminal is put back as it was.
 */
export const promptPassword = (input: TerminalInput, output: Writable, prompt = 'Password: '): Promise<string> =>
  new Promise((resolve, reject) => {
    let password = '';
    output.write(prompt);
    input.setRawMode(true);
    input.resume();
    const done = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(password);
    };
    const onData = (data: Buffer | string) => {
      for (const char of String(data)) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003' || char === '\u0004') return done(new Error('Cancelled; nothing was changed.'));
        if (char === '\u007f' || char === '\b') password = password.slice(0, -1);
        else if (char >= ' ') password += char;
      }
    };
    input.on('data', onData);
  });

/** The password from the terminal (asked twice, they must match) or, when stdin is piped, from stdin. */
export const readPassword = async (input: Readable & { isTTY?: boolean }, output: Writable): Promise<string> => {
  if (!isTerminal(input)) return readPipedPassword(input);
  const first = await promptPassword(input, output);
  const again = await promptPassword(input, output, 'Repeat the password: ');
  if (first !== again) throw new Error('The two passwords differ; nothing was changed.');
  return first;
};

const main = async (): Promise<number> => {
  loadEnvFile();
  const config = loadConfig();
  return runOps(process.argv.slice(2), {
    openDatabase: () => openDatabase(config),
    readPassword: () => readPassword(process.stdin, process.stderr),
    place: backupPlaceOf(config, config.s3 ? await openFileStorage(config) : undefined),
    out: (line) => console.info(line),
    err: (line) => console.error(line),
  });
};

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
