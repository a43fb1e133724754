import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '@app/domain';
import { buildTestApp, type TestApp } from './testing/build-test-app';
import { insertCustomer } from './testing/factories';
import { signedInStaff } from './testing/sessions';

/**
 * ADR 0078: every route with a row id in its path (`{id}`, `{fileId}`) reads it with the one path-id schema:
 * an id that is not one answers the 404 of an unknown id to a signed-in caller, and 401 without a token.
 * The routes are read from the OpenAPI document, so a route added later is checked too.
 */
let t: TestApp;
let customer: string;
let staff: string;
let admin: string;

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
}
const ID_PARAMS = new Set(['id', 'fileId']);
const routes: { method: string; path: string }[] = [];

beforeAll(async () => {
  t = await buildTestApp({ env: { API_DOCS: 'true' } });
  customer = (await insertCustomer(t, 'path-ids@example.com')).token;
  staff = (await signedInStaff(t, { role: ROLE.support, tag: 'path-ids' })).session.accessToken;
  // ADR 0090: the admin routes' guard asks for role 7 with two-factor sign-in on, before the path id.
  const adminAccount = await signedInStaff(t, { role: ROLE.admin, tag: 'path-ids-admin' });
  await t.db.query("UPDATE users SET totp_enabled_at = now(), totp_secret_enc = 'test' WHERE id = $1", [adminAccount.id]);
  admin = adminAccount.session.accessToken;
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const ids = (operation.parameters ?? []).filter((p) => p.in === 'path' && ID_PARAMS.has(p.name));
      // A body would be validated (422) before the guard; those routes' ids are checked by their own tests.
      if (ids.length > 0 && operation.requestBody === undefined) routes.push({ method: method.toUpperCase(), path });
    }
  }
});
afterAll(async () => {
  await t?.close();
});

describe('path ids on every route', () => {
  it('finds the routes with ids in their paths', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes).toContainEqual({ method: 'GET', path: '/api/en/orders/{id}' });
    expect(routes).toContainEqual({ method: 'GET', path: '/api/staff/orders/{id}/files/{fileId}' });
  });

  it('answers a non-id with the 404 of an unknown id, and 401 without a token', async () => {
    for (const { method, path } of routes) {
      const token = path.startsWith('/api/staff/admin/') ? admin : path.startsWith('/api/staff/') ? staff : customer;
      for (const bad of ['abc', '0', '2147483648']) {
        const url = path.replace(/\{(id|fileId)\}/g, bad);
        const res = await t.app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${token}` } });
        expect({ route: `${method} ${path}`, bad, status: res.statusCode, body: res.json() as unknown }).toEqual({
          route: `${method} ${path}`,
          bad,
          status: 404,
          body: { message: 'Not found' },
        });
      }
      const anonymous = await t.app.inject({ method: method as 'GET', url: path.replace(/\{(id|fileId)\}/g, 'abc') });
      expect({ route: `${method} ${path}`, status: anonymous.statusCode }).toEqual({ route: `${method} ${path}`, status: 401 });
    }
  });
});
