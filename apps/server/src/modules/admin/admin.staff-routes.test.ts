import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '@app/domain';
import { insertCustomer } from '../../testing/factories';
import { signedInStaff } from '../../testing/sessions';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

/**
 * CONTRACT "Staff side" abuse: a customer token gets 404 from every staff route, and a writer or support
 * 403 from every admin route (ADR 0090). The routes are read from the OpenAPI document, so a new route is
 * checked without a change here. Routes with a body validate it before the guard; they are called with
 * an empty JSON object, which a guard that runs first still answers.
 */
interface Operation {
  requestBody?: unknown;
}
let t: TestApp;
let customer: string;
let writer: string;
let support: string;
const routes: { method: string; path: string; body: boolean }[] = [];

beforeAll(async () => {
  t = await buildTestApp({ env: { API_DOCS: 'true' } });
  customer = (await insertCustomer(t, 'staff-routes.customer@example.com')).token;
  writer = (await signedInStaff(t, { role: ROLE.writer, tag: 'staff-routes-writer' })).session.accessToken;
  support = (await signedInStaff(t, { role: ROLE.support, tag: 'staff-routes-support' })).session.accessToken;
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
  for (const [path, operations] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/staff/')) continue;
    for (const [method, operation] of Object.entries(operations)) {
      routes.push({ method: method.toUpperCase(), path, body: operation.requestBody !== undefined });
    }
  }
});
afterAll(async () => {
  await t?.close();
});

const call = (route: (typeof routes)[number], token: string) =>
  t.app.inject({
    method: route.method as 'GET',
    url: route.path.replace(/\{[^}]+\}/g, '1'),
    headers: { authorization: `Bearer ${token}` },
    ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
  });

describe('every staff route', () => {
  it('finds the staff and admin routes', () => {
    expect(routes.length).toBeGreaterThan(20);
    expect(routes).toContainEqual(expect.objectContaining({ method: 'PUT', path: '/api/staff/admin/prices' }));
    expect(routes).toContainEqual(expect.objectContaining({ method: 'GET', path: '/api/staff/audit' }));
  });

  it('answers a customer token 404 on every staff route without a body (and every admin route)', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      if (route.body && !route.path.startsWith('/api/staff/admin/')) continue;
      const res = await call(route, customer);
      if (res.statusCode !== 404) wrong.push(`${route.method} ${route.path}: ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers a writer and support 403 on every admin route and the audit log', async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => r.path.startsWith('/api/staff/admin/') || r.path.startsWith('/api/staff/audit'))) {
      for (const token of [writer, support]) {
        const res = await call(route, token);
        if (res.statusCode !== 403) wrong.push(`${route.method} ${route.path}: ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
