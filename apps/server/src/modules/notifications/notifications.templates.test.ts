import { describe, expect, it } from 'vitest';
import { compileMjml, demoMailItems, mailParts, mjmlSource, renderNotificationMail, type MailItem } from './notifications.templates';

// ADR 0088 addendum: a mail is its shape (compiled by mjml once per number of events) with its parts put in;
// it must be exactly what mjml makes of the filled source, whatever the parts hold.

const tricky: MailItem = {
  type: 'delivered',
  orderId: 77,
  title: 'Title with <b>tags</b> & "quotes" and @@title@@',
  body: "Line one\nLine two with 'apostrophes' and $& $1 @@body0@@",
};

describe('notification mail templates', () => {
  for (const items of [[tricky], demoMailItems(12).slice(0, 2), demoMailItems(34), [...demoMailItems(1), ...demoMailItems(2)]]) {
    it(`renders ${items.length} event(s) exactly as mjml renders the filled source`, async () => {
      for (const unsubscribeUrl of ['https://example.com/unsubscribe?t=a&b=<c>', null]) {
        const args = { firstName: 'Ada <script>', items, origin: 'https://example.com', unsubscribeUrl };
        const mail = await renderNotificationMail(args);
        expect(mail.html).toBe(await compileMjml(mjmlSource(mailParts(args))));
        expect(mail.html).not.toContain('<script>');
      }
    });
  }

  it('is fast once a shape is compiled (a mail in well under a millisecond on average)', async () => {
    const args = { firstName: 'Ada', items: demoMailItems(5).slice(0, 3), origin: 'https://example.com', unsubscribeUrl: null };
    await renderNotificationMail(args);
    const started = performance.now();
    for (let i = 0; i < 200; i++) await renderNotificationMail({ ...args, firstName: `Ada ${i}` });
    expect((performance.now() - started) / 200).toBeLessThan(5);
  });
});
