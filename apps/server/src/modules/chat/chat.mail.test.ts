import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { chatFixtures, messageForm } from '../../testing/chat-fixtures';
import { createUnseenMailJob, notifyUnseen, type UnseenTell } from './chat.mail';
import { createChatMailRepo } from './chat.mail.repo';
import type { ChatHandle } from './index';

const MINUTE = 60_000;
let t: TestApp;
let fx: ReturnType<typeof chatFixtures>;
let handle: ChatHandle | undefined;
let writer: { id: number; token: string };
let support: { id: number; token: string };
let n = 0;
const newCustomer = async () => {
  n += 1;
  const customer = await fx.customer(`chat.mail.${n}@example.com`);
  return { ...customer, email: `chat.mail.${n}@example.com`, orderId: await fx.order(customer.id, writer.id) };
};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
/** Tokens live 15 minutes of the test clock, which these tests move: staff sign again for every message. */
const staffSay = async (who: 'support' | 'writer', orderId: number, body: string) => {
  const token = await fx.tokens.sign(who === 'support' ? { userId: support.id, role: 6 } : { userId: writer.id, role: 3 });
  const form = messageForm({ message: JSON.stringify({ body }) });
  const res = await t.app.inject({
    method: 'POST',
    url: `/chat/api/staff/orders/${orderId}/messages`,
    headers: { ...auth(token), ...form.headers },
    payload: form.payload,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { id: number };
};
const read = (token: string, orderId: number, ids: number[]) =>
  t.app.inject({
    method: 'PUT',
    url: `/chat/api/customers/orders/${orderId}/messages/read`,
    headers: auth(token),
    payload: { messages: ids.join(',') },
  });
/**
 * ADR 0088: what the job told the customer, as the `message_unseen` notifications it made (their mail is
 * the notifications job's: notifications.test.ts): title, and body with the link it opens.
 */
let told: { to: string; subject: string; text: string }[] = [];
const mailsTo = (email: string) => told.filter((m) => m.to === email);
const refresh = async () => {
  told = (
    await t.db.query<{ email: string; title: string; body: string; order_id: number; data: { chat?: string } }>(
      `SELECT u.email, n.title, n.body, n.order_id, n.data FROM notifications n JOIN users u ON u.id = n.user_id
        WHERE n.type = 'message_unseen' ORDER BY n.id`,
    )
  ).map((r) => ({
    to: r.email,
    subject: r.title,
    text: `${r.body}\n/orderinfo/${r.order_id}/messages${r.data.chat === 'support' ? '?panel=support' : ''}`,
  }));
};
const run = async () => {
  if (!handle) throw new Error('no chat handle');
  await handle.mailJob.runOnce();
  await refresh();
};

beforeAll(async () => {
  t = await buildTestApp({ onChatReady: (h) => (handle = h) });
  fx = chatFixtures(t);
  writer = await fx.writer('chat.mail.writer@example.com');
  support = await fx.support('chat.mail.support@example.com');
});
afterAll(async () => {
  await t.close();
});

/** Moves the test clock forward (never back: the job's rows remember times). */
const later = (_customer: unknown, ms: number): void => {
  t.clock.advance(ms);
};

describe('ADR 0048: the unseen-message mail', () => {
  it('mails once, 5 minutes after an unread support message, with the message and a link to the support chat', async () => {
    const c = await newCustomer();
    await staffSay('support', c.orderId, 'Your paper needs a <b>source</b> list');
    later(c, 4 * MINUTE);
    await run();
    expect(mailsTo(c.email)).toHaveLength(0);
    later(c, MINUTE);
    await run();
    const [mail] = mailsTo(c.email);
    expect(mailsTo(c.email)).toHaveLength(1);
    expect(mail?.text).toContain('Your paper needs a source list');
    expect(mail?.text).toContain(`/orderinfo/${c.orderId}/messages?panel=support`);
    expect(mail?.subject).toContain(`order #${c.orderId}`);
    later(c, 10 * MINUTE);
    await run();
    expect(mailsTo(c.email)).toHaveLength(1);
  });

  it('sends none when the customer reads the message meanwhile, and links the writer chat without a panel', async () => {
    const c = await newCustomer();
    const m = await staffSay('writer', c.orderId, 'Draft is ready');
    await read(c.token, c.orderId, [m.id]);
    later(c, 6 * MINUTE);
    await run();
    expect(mailsTo(c.email)).toHaveLength(0);
    await staffSay('writer', c.orderId, 'Did you see it?');
    later(c, 5 * MINUTE);
    await run();
    expect(mailsTo(c.email)).toHaveLength(1);
    expect(mailsTo(c.email)[0]?.text).toContain(`/orderinfo/${c.orderId}/messages\n`.trimEnd());
    expect(mailsTo(c.email)[0]?.text).not.toContain('Draft is ready');
    expect(mailsTo(c.email)[0]?.text).not.toContain('panel=support');
  });

  it('sends at most one mail per conversation an hour, then one naming only the messages since', async () => {
    const c = await newCustomer();
    await staffSay('support', c.orderId, 'first');
    later(c, 5 * MINUTE);
    await run();
    expect(mailsTo(c.email)).toHaveLength(1);
    later(c, 5 * MINUTE);
    await staffSay('support', c.orderId, 'second');
    later(c, 10 * MINUTE);
    await run();
    expect(mailsTo(c.email)).toHaveLength(1);
    later(c, 46 * MINUTE);
    await run();
    expect(mailsTo(c.email)).toHaveLength(2);
    expect(mailsTo(c.email)[1]?.text).toContain('second');
    expect(mailsTo(c.email)[1]?.text).not.toContain('first');
  });

  it('survives a restart: a new job on the same database sends what was due, a claimed row is left to its lease, and nothing goes twice', async () => {
    const c = await newCustomer();
    await staffSay('support', c.orderId, 'while we were down');
    later(c, 6 * MINUTE);
    // A run that claimed the row and died before settling it: its lease holds the row for 2 minutes.
    const claimed = await createChatMailRepo(t.db).claimDue({
      now: t.clock.now(),
      claimedUntil: new Date(t.clock.now().getTime() + 2 * MINUTE),
      limit: 100,
    });
    expect(claimed.map((r) => r.orderId)).toContain(c.orderId);
    const restarted = createUnseenMailJob({
      db: t.db,
      clock: t.clock,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      tell: notifyUnseen(t.db, t.clock),
      intervalMs: 0,
    });
    await restarted.runOnce();
    await refresh();
    expect(mailsTo(c.email)).toHaveLength(0);
    later(c, 3 * MINUTE);
    await Promise.all([restarted.runOnce(), run()]);
    await refresh();
    expect(mailsTo(c.email)).toHaveLength(1);
    later(c, 2 * 60 * MINUTE);
    await Promise.all([restarted.runOnce(), run()]);
    await refresh();
    expect(mailsTo(c.email)).toHaveLength(1);
  });

  it('puts the row back when telling fails and tells on a later run', async () => {
    const c = await newCustomer();
    await staffSay('support', c.orderId, 'retry me');
    later(c, 5 * MINUTE);
    let failNext = true;
    const real = notifyUnseen(t.db, t.clock);
    const flaky = createUnseenMailJob({
      db: t.db,
      clock: t.clock,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      tell: async (u: UnseenTell) => {
        if (failNext) {
          failNext = false;
          throw new Error('the database said no');
        }
        await real(u);
      },
      intervalMs: 0,
    });
    await flaky.runOnce();
    await refresh();
    expect(mailsTo(c.email)).toHaveLength(0);
    later(c, 5 * MINUTE);
    await flaky.runOnce();
    await refresh();
    expect(mailsTo(c.email)).toHaveLength(1);
  });
});
