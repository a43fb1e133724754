import { describe, expect, it } from 'vitest';
import {
  defaultPreferences,
  effectivePreferences,
  isEmailLocked,
  NOTIFICATION_TYPES,
  notificationFrameSchema,
  notificationLink,
  paymentReminderTimes,
} from './index';

describe('notification rules (ADR 0088)', () => {
  it('every type is mailed by default, none pushed; receipts stay mailed whatever a row says', () => {
    const prefs = defaultPreferences();
    expect(NOTIFICATION_TYPES.every((t) => prefs[t].email && !prefs[t].push)).toBe(true);
    const stored = effectivePreferences([
      { type: 'payment_received', email: false, push: true },
      { type: 'delivered', email: false, push: true },
      { type: 'nonsense', email: false, push: false },
    ]);
    expect(stored.payment_received).toEqual({ email: true, push: true });
    expect(stored.delivered).toEqual({ email: false, push: true });
    expect(Object.keys(stored)).toHaveLength(NOTIFICATION_TYPES.length);
    expect(NOTIFICATION_TYPES.filter(isEmailLocked)).toEqual(['payment_received', 'refund_issued']);
  });

  it('reminders at 30 % and 80 % of the time from creation to deadline; none without time', () => {
    const created = new Date('2030-01-01T00:00:00Z');
    expect(paymentReminderTimes(created, new Date('2030-01-11T00:00:00Z')).map((d) => d.toISOString())).toEqual([
      '2030-01-04T00:00:00.000Z',
      '2030-01-09T00:00:00.000Z',
    ]);
    expect(paymentReminderTimes(created, created)).toEqual([]);
  });

  it('each type opens its tab of the order: messages with the support panel, a revision by id', () => {
    expect(notificationLink('delivered', 5)).toBe('/orderinfo/5/details');
    expect(notificationLink('revision_updated', 5, { revisionId: 9 })).toBe('/orderinfo/5/revisions?revision=9');
    expect(notificationLink('message_unseen', 5, { chat: 'support' })).toBe('/orderinfo/5/messages?panel=support');
    expect(notificationLink('message_unseen', 5, { chat: 'writer' })).toBe('/orderinfo/5/messages');
    expect(notificationLink('payment_reminder', null)).toBeNull();
  });

  it('socket frames 20 and 21 parse; anything else does not', () => {
    const notification = {
      id: 1,
      type: 'delivered',
      orderId: 2,
      title: 't',
      body: 'b',
      link: '/orderinfo/2/details',
      createdAt: 'x',
      readAt: null,
    };
    expect(notificationFrameSchema.safeParse({ event: 20, data: { notification, unread: 1 } }).success).toBe(true);
    expect(notificationFrameSchema.safeParse({ event: 21, data: { unread: 0 } }).success).toBe(true);
    expect(
      notificationFrameSchema.safeParse({ event: 20, data: { notification: { ...notification, type: 'x' }, unread: 1 } }).success,
    ).toBe(false);
    expect(notificationFrameSchema.safeParse({ event: 5, data: {} }).success).toBe(false);
  });
});
