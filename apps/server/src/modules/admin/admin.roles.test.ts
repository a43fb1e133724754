import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUS, ROLE } from '@app/domain';
import { createAccessTokens } from '../auth';
import { insertCustomer, insertOrder } from '../../testing/factories';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

/** ADR 0090: an admin (7) passes every support check of the staff API (CONTRACT "Staff side"). */

let t: TestApp;
let admin: string;
let writerId: number;
let customerId: number;

const addStaff = async (role: number, email: string): Promise<number> => {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, first_name, last_name, status_id) VALUES ($1, $2, 'x', 'Ad', 'Min', 1) RETURNING id`,
    [role, email],
  );
  if (!row) throw new Error('no user');
  return row.id;
};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  t = await buildTestApp();
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  const adminId = await addStaff(ROLE.admin, 'roles.admin@example.com');
  admin = await tokens.sign({ userId: adminId, role: ROLE.admin });
  writerId = await addStaff(ROLE.writer, 'roles.writer@example.com');
  customerId = (await insertCustomer(t, 'roles.customer@example.com')).id;
});
afterAll(async () => {
  await t.close();
});

describe('role 7 admin has everything support has', () => {
  it('answers /api/staff/me with role 7', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/staff/me', headers: auth(admin) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ role: ROLE.admin, email: 'roles.admin@example.com' });
  });

  it('sees every order of the queue (not a writer scope)', async () => {
    const { id } = await insertOrder(t.db, { customerId, status: ORDER_STATUS.paid, title: 'Admin sees me' });
    const res = await t.app.inject({ method: 'GET', url: `/api/staff/orders/${id}`, headers: auth(admin) });
    expect(res.statusCode).toBe(200);
  });

  it('assigns a writer and holds an order (support-only moves)', async () => {
    const { id } = await insertOrder(t.db, { customerId, status: ORDER_STATUS.paid, title: 'Assign me' });
    const assign = await t.app.inject({
      method: 'PUT',
      url: `/api/staff/orders/${id}/writer`,
      headers: auth(admin),
      payload: { idWriter: writerId },
    });
    expect(assign.statusCode).toBe(200);
    expect(assign.json()).toMatchObject({ idWriter: writerId, status: ORDER_STATUS.inProgress });
    const hold = await t.app.inject({
      method: 'PUT',
      url: `/api/staff/orders/${id}/status`,
      headers: auth(admin),
      payload: { status: ORDER_STATUS.hold, reason: 'Waiting for the customer' },
    });
    expect(hold.statusCode).toBe(200);
  });

  it.each(['/api/staff/payments/unapplied', '/api/staff/payments/refund-claims', '/api/staff/payments/attention', '/api/staff/revisions'])(
    'opens the support view %s',
    async (url) => {
      expect((await t.app.inject({ method: 'GET', url, headers: auth(admin) })).statusCode).toBe(200);
    },
  );
});
