// Every table has one owner, and only its owner writes it (ADR 0077): exits 1 when a server module's code
// writes (INSERT INTO, UPDATE, DELETE FROM, TRUNCATE, MERGE INTO) a table another module owns, when a table
// the migrations create has no owner here (or an owner here names no table), or when a write's table
// cannot be read from the SQL text. Reads are free: a module may join another's tables.
// Another module's rows change through that module's index.ts (`orderWrites(tx)`, an erase step, …).
// `npm run lint:owners`, part of `npm run lint`.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const ts = createRequire(join(root, 'package.json'))('typescript');
const SERVER = join(root, 'apps', 'server', 'src');
const MIGRATIONS = join(SERVER, 'db', 'migrations');

/**
 * Table → the one module (folder of apps/server/src/modules) that writes it. `db` is the infrastructure
 * in apps/server/src/db (migrations, the app secrets); no module writes its tables. A new migration's
 * table gets its line here.
 */
export const TABLE_OWNERS = {
  // accounts: identity, credentials, sessions, emailed links (ADR 0007, 0053); the profile and consent
  // columns too: the customers module changes them through auth's face (`accountWrites(tx)`).
  users: 'auth',
  refresh_tokens: 'auth',
  one_time_tokens: 'auth',
  // ADR 0085: the Terms and Privacy Policy versions each customer accepted.
  terms_acceptances: 'auth',
  consent_history: 'customers',
  mail_outbox: 'mail',
  // ADR 0088: notifications (the bell, their mail's state), the customer's choices, browser push subscriptions.
  notifications: 'notifications',
  notification_preferences: 'notifications',
  push_subscriptions: 'notifications',
  site_settings: 'catalogue',
  catalogue_items: 'catalogue',
  urgencies: 'catalogue',
  price_rates: 'catalogue',
  price_extras: 'catalogue',
  price_settings: 'catalogue',
  discount_codes: 'discounts',
  orders: 'orders',
  order_status_history: 'orders',
  order_status_counts: 'orders',
  order_deliveries: 'delivery',
  order_delivery_files: 'delivery',
  order_extensions: 'delivery',
  order_events: 'delivery',
  // ADR 0087: disputes and the files they carry (the files module owns the files' rows).
  order_disputes: 'disputes',
  order_dispute_files: 'disputes',
  order_idempotency_keys: 'orders',
  order_files: 'files',
  payments: 'payments',
  payment_events: 'payments',
  unapplied_payments: 'payments',
  refund_claims: 'payments',
  // ADR 0086: upgrades of a paid order, paid by the difference through the payments' own attempts.
  order_upgrades: 'payments',
  transactions: 'transactions',
  // ADR 0085: receipts and credit notes, their numbering and the seller printed on them.
  transaction_documents: 'transactions',
  document_counters: 'transactions',
  document_seller: 'transactions',
  order_reviews: 'reviews',
  revisions: 'revisions',
  revision_status_history: 'revisions',
  chat_sequences: 'chat',
  messages: 'chat',
  message_files: 'chat',
  chat_read_pointers: 'chat',
  chat_unseen_mail: 'chat',
  // ADR 0089: a writer's capacity and availability.
  writer_profiles: 'staff',
  loyalty_points_ledger: 'loyalty',
  referrals: 'loyalty',
  // ADR 0090: who did what in the staff console, before and after.
  audit_log: 'audit',
  app_secrets: 'db',
  schema_migrations: 'db',
};

/** The tables the migrations leave (CREATE TABLE, less DROP TABLE, through RENAME TO), and the runner's own. */
export const migrationTables = (dir = MIGRATIONS) => {
  const tables = new Set(['schema_migrations']);
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    const sql = stripSqlComments(readFileSync(join(dir, file), 'utf8'));
    const statement =
      /\b(?:CREATE\s+(?:UNLOGGED\s+)?TABLE(?:\s+IF\s+NOT\s+EXISTS)?\s+(\w+)|DROP\s+TABLE(?:\s+IF\s+EXISTS)?\s+(\w+)|ALTER\s+TABLE(?:\s+IF\s+EXISTS)?\s+(\w+)\s+RENAME\s+TO\s+(\w+))/gi;
    for (const m of sql.matchAll(statement)) {
      if (m[1]) tables.add(m[1].toLowerCase());
      if (m[2]) tables.delete(m[2].toLowerCase());
      if (m[3]) {
        tables.delete(m[3].toLowerCase());
        tables.add(m[4].toLowerCase());
      }
    }
  }
  return tables;
};

const stripSqlComments = (sql) => sql.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/--[^\n]*/g, ' ');

/** Stands for an interpolated `${…}` in a template's SQL text. */
const HOLE = '\u0000';

/** The text of every string and template literal of a TypeScript file (a template's `${…}` as HOLE), with its line. */
export const sqlTexts = (fileName, source) => {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false);
  const texts = [];
  const at = (node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const visit = (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) texts.push({ line: at(node), text: node.text });
    else if (ts.isTemplateExpression(node)) {
      texts.push({ line: at(node), text: node.head.text + node.templateSpans.map((s) => HOLE + s.literal.text).join('') });
      node.templateSpans.forEach((s) => visit(s.expression));
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return texts;
};

const NAME = String.raw`(?:"[^"]+"|[A-Za-z_][\w$]*)`;
const TARGET = String.raw`(?:ONLY\s+)?(?:${NAME}(?:\s*\.\s*${NAME})?|${HOLE})`;
const WRITE = new RegExp(
  String.raw`\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO|TRUNCATE(?:\s+TABLE)?)\s+(${TARGET})((?:\s*,\s*${TARGET})*)`,
  'gi',
);
/** `FOR UPDATE`, `FOR NO KEY UPDATE`, `ON CONFLICT … DO UPDATE`, `ON UPDATE`: not a write of their own. */
const NOT_A_WRITE_AFTER = /\b(FOR|KEY|DO|ON)\s*$/i;

const tableName = (raw) => {
  const last = raw.split('.').at(-1).trim();
  return (last.startsWith('"') ? last.slice(1, -1) : last).toLowerCase();
};

/**
 * The writes in one text: `{ verb, table }`, table null when it is an interpolation. A lowercase verb on a
 * word that names no table is prose ("could not update profile"), not SQL.
 */
export const writesIn = (text, tables) => {
  const sql = stripSqlComments(text);
  const found = [];
  for (const m of sql.matchAll(WRITE)) {
    const verb = m[1].replace(/\s+/g, ' ').toUpperCase();
    if (verb === 'UPDATE' && NOT_A_WRITE_AFTER.test(sql.slice(0, m.index))) continue;
    const targets = [m[2], ...(verb.startsWith('TRUNCATE') && m[3] ? m[3].split(',').slice(1) : [])];
    for (const raw of targets) {
      const target = raw.trim().replace(/^ONLY\s+/i, '');
      if (target === HOLE) {
        found.push({ verb, table: null });
        continue;
      }
      const table = tableName(target);
      const isSql = m[1] === m[1].toUpperCase();
      if (tables.has(table) || isSql) found.push({ verb, table });
    }
  }
  return found;
};

const filesUnder = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });

/** The module a server source file belongs to (`modules/<m>/…`), or null outside the modules. */
const moduleOf = (path) => {
  const parts = relative(SERVER, path).split(sep);
  return parts[0] === 'modules' ? parts[1] : null;
};

/**
 * Every problem, as lines to print: the ownership table against the migrations and the module folders,
 * then each write by a module (tests excluded: they arrange rows of any table) of a table it does not own.
 * db/ and testing/ are the infrastructure and the test harness (migrations, seed, fixtures).
 */
export const ownershipProblems = ({ owners = TABLE_OWNERS, tables = migrationTables(), files } = {}) => {
  const problems = [];
  const modules = new Set(readdirSync(join(SERVER, 'modules')));
  for (const table of tables)
    if (!owners[table]) problems.push(`table ${table} (migrations) has no owner: add it to TABLE_OWNERS in scripts/check-table-owners.mjs`);
  for (const [table, owner] of Object.entries(owners)) {
    if (!tables.has(table)) problems.push(`TABLE_OWNERS names ${table}, which no migration creates`);
    if (owner !== 'db' && !modules.has(owner)) problems.push(`TABLE_OWNERS gives ${table} to ${owner}, which is no module`);
  }
  const sources =
    files ??
    filesUnder(SERVER)
      .filter((p) => p.endsWith('.ts') && !p.endsWith('.test.ts'))
      .map((p) => ({ path: p, source: readFileSync(p, 'utf8') }));
  for (const { path, source } of sources) {
    const rel = relative(SERVER, path).split(sep).join('/');
    if (rel.startsWith('db/') || rel.startsWith('testing/')) continue;
    const writer = moduleOf(path);
    for (const { line, text } of sqlTexts(path, source)) {
      for (const { verb, table } of writesIn(text, tables)) {
        const where = `apps/server/src/${rel}:${line}`;
        if (table === null) problems.push(`${where}: ${verb} of a table named by an interpolation; write the table's name in the SQL text`);
        else if (!tables.has(table)) problems.push(`${where}: ${verb} ${table}, a table no migration creates`);
        else if (owners[table] !== writer)
          problems.push(
            `${where}: ${verb} ${table} from ${writer ? `the ${writer} module` : 'outside the modules'}; ${table} belongs to ${
              owners[table] === 'db' ? 'apps/server/src/db: call its function' : `the ${owners[table]} module: call its index.ts`
            }`,
          );
      }
    }
  }
  return problems;
};

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = ownershipProblems();
  if (problems.length > 0) {
    console.error(`Table ownership (ADR 0077): ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
}
