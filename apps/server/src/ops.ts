import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { isValidEmail, normalizeEmail, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, ROLE } from '@app/domain';
import { loadConfig } from './config';
import type { Db } from './db/client';
import { DataDirLockedError } from './db/data-dir-lock';
import { openDatabase } from './db/open';
import { insertAccount } from './db/seed/accounts';
import { hashPassword } from './lib/password';
import { systemClock, type Clock } from './lib/clock';

/**
 * Operator commands (CONTRACT "Staff side"): `npm run ops -- staff:add --role writer|support --email E
 * --password P --name "First Last"` creates a staff account, the way to get the first one in production.
 */
export const USAGE = [
  'Usage: npm run ops -- <command> [options]',
  '',
  'Commands:',
  '  staff:add --role writer|support --email EMAIL --password PASSWORD --name "First Last"',
  '      Creates a writer or support account that signs in through the usual sign-in.',
].join('\n');

export interface OpsDeps {
  /** Opens the configured database (migrated and seeded); refuses while a server holds the data dir. */
  openDatabase: () => Promise<{ db: Db; release: () => void }>;
  out: (line: string) => void;
  err: (line: string) => void;
  clock?: Clock;
}

const STAFF_ROLES = { writer: ROLE.writer, support: ROLE.support } as const;
type StaffRoleName = keyof typeof STAFF_ROLES;
const isStaffRoleName = (value: string): value is StaffRoleName => Object.hasOwn(STAFF_ROLES, value);

const splitName = (name: string): { firstName: string; lastName: string } => {
  const [firstName = '', ...rest] = name.trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
};

const staffAdd = async (args: readonly string[], deps: OpsDeps): Promise<number> => {
  let values: { role?: string | undefined; email?: string | undefined; password?: string | undefined; name?: string | undefined };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { role: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    deps.err(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 1;
  }

  const problems: string[] = [];
  const role = values.role ?? '';
  if (!isStaffRoleName(role)) problems.push('--role must be writer or support');
  const email = values.email?.trim() ?? '';
  if (!isValidEmail(email)) problems.push('--email must be a valid email address');
  const password = values.password ?? '';
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    problems.push(`--password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  }
  const { firstName, lastName } = splitName(values.name ?? '');
  if (!firstName) problems.push('--name must not be empty');
  if (problems.length > 0 || !isStaffRoleName(role)) {
    deps.err(`${problems.join('\n')}\n\n${USAGE}`);
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
    const id = await insertAccount(db, {
      role: STAFF_ROLES[role],
      email,
      passwordHash: await hashPassword(password),
      firstName,
      lastName,
      confirmedAt: (deps.clock ?? systemClock).now(),
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

const main = async (): Promise<number> => {
  const config = loadConfig();
  return runOps(process.argv.slice(2), {
    openDatabase: () => openDatabase(config),
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
