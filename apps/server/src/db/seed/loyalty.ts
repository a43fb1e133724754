import { randomBytes } from 'node:crypto';
import { LEDGER_KIND, PAID_ORDER_STATUSES, pointsForPayment, ROLE } from '@app/domain';
import { hashPassword } from '../../lib/password';
import type { Queryable } from '../client';
import { insertAccount } from './accounts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Two friends the demo customer referred (ADR 0051): one just signed up (1), one with a paid order (3). */
export const DEMO_REFERRED = [
  { email: 'friend.new@example.com', firstName: 'Riley', lastName: 'Chen', paid: false },
  { email: 'friend.ready@example.com', firstName: 'Casey', lastName: 'Ortiz', paid: true },
] as const;

/**
 * Loyalty demo data (ADR 0050, 0051): the demo customer's paid orders earned their points (one ledger entry each, ADR
 * 0050), and two referrals. The friends' passwords are random: nobody signs in as them.
 */
export const seedDemoLoyalty = async (q: Queryable, { customerId, now }: { customerId: number; now: Date }): Promise<void> => {
  const paid = await q.query<{ id: number; final_price_cents: number; updated_at: Date | string }>(
    `SELECT id, final_price_cents, updated_at FROM orders WHERE customer_id = $1 AND status_id IN (${PAID_ORDER_STATUSES.join(', ')}) ORDER BY id`,
    [customerId],
  );
  for (const order of paid) {
    const points = pointsForPayment(order.final_price_cents);
    if (points <= 0) continue;
    await q.query(
      `INSERT INTO loyalty_points_ledger (customer_id, kind, points, entry_key, order_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (entry_key) DO NOTHING`,
      [customerId, LEDGER_KIND.earned, points, `earned:demo-order:${order.id}`, order.id, new Date(order.updated_at)],
    );
  }

  const template = paid[0];
  for (const [i, friend] of DEMO_REFERRED.entries()) {
    const joined = new Date(now.getTime() - (10 - i * 4) * DAY_MS);
    const id = await insertAccount(q, {
      role: ROLE.customer,
      email: friend.email,
      firstName: friend.firstName,
      lastName: friend.lastName,
      passwordHash: await hashPassword(randomBytes(24).toString('base64url')),
      confirmedAt: joined,
    });
    if (id === null) continue;
    await q.query('UPDATE users SET referrer_id = $2, created_at = $3 WHERE id = $1', [id, customerId, joined]);
    await q.query(
      `INSERT INTO referrals (referrer_id, referred_id, hash_device, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [customerId, id, `demo-device-${i}`, joined],
    );
    if (friend.paid && template) {
      // A copy of one of the demo orders, paid by the friend: the referral is ready to use.
      await q.query(
        `INSERT INTO orders (uid, customer_id, site_category, work_type_id, level_id, paper_format_id, paper_type_id, resume_service_id,
           subject_id, title, description, pages, sources, spacing, urgency_hours, status_id, deadline, basic_price_cents,
           final_price_cents, price_breakdown, created_at, updated_at)
         SELECT $2, $3, site_category, work_type_id, level_id, paper_format_id, paper_type_id, resume_service_id,
           subject_id, title, description, pages, sources, spacing, urgency_hours, 2, deadline, basic_price_cents,
           basic_price_cents, price_breakdown, $4, $4
         FROM orders WHERE id = $1`,
        [template.id, randomBytes(16).toString('base64url'), id, joined],
      );
    }
  }
};
