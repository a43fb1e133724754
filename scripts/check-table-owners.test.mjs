// scripts/check-table-owners.mjs: every table has one owner and only its owner writes it (ADR 0077).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationTables, ownershipProblems, sqlTexts, TABLE_OWNERS, writesIn } from './check-table-owners.mjs';

const tables = new Set(['orders', 'payments', 'users', 'messages']);
const writes = (text) => writesIn(text, tables);
const server = path.resolve(import.meta.dirname, '..', 'apps', 'server', 'src');
const moduleFile = (m, name, source) => ({ path: path.join(server, 'modules', m, name), source });

describe('writesIn: the tables one SQL text writes', () => {
  it.each([
    ['INSERT INTO orders (id) VALUES ($1)', 'INSERT INTO', 'orders'],
    ['UPDATE orders SET pending = false WHERE id = $1', 'UPDATE', 'orders'],
    ['UPDATE orders o SET pending = false FROM payments p WHERE p.order_id = o.id', 'UPDATE', 'orders'],
    ['DELETE FROM payments USING orders o WHERE o.id = payments.order_id', 'DELETE FROM', 'payments'],
    ['update orders set pending = false', 'UPDATE', 'orders'],
    ['UPDATE public.orders SET pending = false', 'UPDATE', 'orders'],
    ['UPDATE "orders" SET pending = false', 'UPDATE', 'orders'],
    ['UPDATE ONLY orders SET pending = false', 'UPDATE', 'orders'],
    ['MERGE INTO orders o USING payments p ON p.order_id = o.id WHEN MATCHED THEN DO NOTHING', 'MERGE INTO', 'orders'],
    ['WITH moved AS (SELECT 1) UPDATE messages SET body = $2', 'UPDATE', 'messages'],
  ])('%s', (sql, verb, table) => {
    expect(writes(sql)).toEqual([{ verb, table }]);
  });

  it('finds a write inside a CTE and the statement after it', () => {
    expect(writes('WITH gone AS (DELETE FROM payments WHERE id = $1 RETURNING order_id) UPDATE orders SET pending = false')).toEqual([
      { verb: 'DELETE FROM', table: 'payments' },
      { verb: 'UPDATE', table: 'orders' },
    ]);
  });

  it('counts every table of a TRUNCATE', () => {
    expect(writes('TRUNCATE TABLE orders, public.payments')).toEqual([
      { verb: 'TRUNCATE TABLE', table: 'orders' },
      { verb: 'TRUNCATE TABLE', table: 'payments' },
    ]);
  });

  it('an upsert writes its insert table once (DO UPDATE is the same write)', () => {
    expect(writes('INSERT INTO users (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email')).toEqual([
      { verb: 'INSERT INTO', table: 'users' },
    ]);
  });

  it.each([
    'SELECT id FROM orders WHERE id = $1 FOR UPDATE',
    'SELECT id FROM orders o JOIN payments p ON p.order_id = o.id FOR UPDATE OF o SKIP LOCKED',
    'SELECT id FROM orders WHERE id = $1 FOR NO KEY UPDATE',
    'SELECT 1 -- UPDATE orders SET pending = true',
    'SELECT 1 /* DELETE FROM payments */',
  ])('no write: %s', (sql) => {
    expect(writes(sql)).toEqual([]);
  });

  it('lowercase prose whose word names no table is not SQL; an uppercase verb on an unknown name is', () => {
    expect(writes('could not update profile')).toEqual([]);
    expect(writes('UPDATE profiles SET x = 1')).toEqual([{ verb: 'UPDATE', table: 'profiles' }]);
    // Prose that names a table is read as SQL: a false alarm is the side the check errs on.
    expect(writes('could not update users today')).toEqual([{ verb: 'UPDATE', table: 'users' }]);
  });

  it('a table named by an interpolation is reported as unknown (null)', () => {
    const [text] = sqlTexts('x.ts', 'const q = `UPDATE ${table} SET a = 1`;');
    expect(writes(text.text)).toEqual([{ verb: 'UPDATE', table: null }]);
  });
});

describe('sqlTexts: the literals of a TypeScript file', () => {
  it('reads strings and templates with their lines, not comments', () => {
    const source = [
      '// UPDATE orders SET a = 1',
      "const a = 'DELETE FROM payments';",
      'const b = `UPDATE orders SET x = ${f(`INSERT INTO users`)} WHERE y`;',
    ].join('\n');
    expect(sqlTexts('x.ts', source)).toEqual([
      { line: 2, text: 'DELETE FROM payments' },
      { line: 3, text: 'UPDATE orders SET x = \u0000 WHERE y' },
      { line: 3, text: 'INSERT INTO users' },
    ]);
  });
});

describe('ownershipProblems', () => {
  const owners = { orders: 'orders', payments: 'payments', users: 'auth', messages: 'chat' };

  it('passes a module writing its own tables and reading others', () => {
    const files = [moduleFile('orders', 'orders.repo.ts', "q.query('UPDATE orders SET a = 1 FROM payments p WHERE p.id = $1')")];
    expect(ownershipProblems({ owners, tables, files })).toEqual([]);
  });

  it("fails a module writing another module's table, with the file, line and owner", () => {
    const files = [moduleFile('customers', 'customers.repo.ts', "\nq.query('DELETE FROM payments WHERE customer_id = $1')")];
    expect(ownershipProblems({ owners, tables, files })).toEqual([
      'apps/server/src/modules/customers/customers.repo.ts:2: DELETE FROM payments from the customers module; payments belongs to the payments module: call its index.ts',
    ]);
  });

  it('fails a write from outside the modules, to an unknown table, or to an interpolated one', () => {
    const files = [
      { path: path.join(server, 'lib', 'x.ts'), source: "q.query('UPDATE users SET a = 1')" },
      moduleFile('chat', 'chat.repo.ts', "q.query('INSERT INTO chat_things (a) VALUES (1)'); q.query(`DELETE FROM ${t}`)"),
    ];
    expect(ownershipProblems({ owners, tables, files })).toEqual([
      'apps/server/src/lib/x.ts:1: UPDATE users from outside the modules; users belongs to the auth module: call its index.ts',
      'apps/server/src/modules/chat/chat.repo.ts:1: INSERT INTO chat_things, a table no migration creates',
      "apps/server/src/modules/chat/chat.repo.ts:1: DELETE FROM of a table named by an interpolation; write the table's name in the SQL text",
    ]);
  });

  it('leaves db/ and testing/ alone (migrations, seed, fixtures)', () => {
    const files = [
      { path: path.join(server, 'db', 'seed.ts'), source: "q.query('INSERT INTO orders (id) VALUES (1)')" },
      { path: path.join(server, 'testing', 'factories.ts'), source: "q.query('INSERT INTO payments (id) VALUES (1)')" },
    ];
    expect(ownershipProblems({ owners, tables, files })).toEqual([]);
  });

  it('fails a table without an owner, an owner of no table, and an owner that is no module', () => {
    const problems = ownershipProblems({
      owners: { orders: 'orders', payments: 'nobody', gone: 'chat', users: 'auth' },
      tables,
      files: [],
    });
    expect(problems).toEqual([
      'table messages (migrations) has no owner: add it to TABLE_OWNERS in scripts/check-table-owners.mjs',
      'TABLE_OWNERS gives payments to nobody, which is no module',
      'TABLE_OWNERS names gone, which no migration creates',
    ]);
  });
});

describe('the server as it is', () => {
  it('every table the migrations create has exactly one owner', () => {
    expect(new Set(Object.keys(TABLE_OWNERS))).toEqual(migrationTables());
  });

  it('no module writes a table it does not own', () => {
    expect(ownershipProblems()).toEqual([]);
  });
});
