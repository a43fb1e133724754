import mjml2html from 'mjml';
import { isEmailLocked, NOTIFICATION_LABEL, notificationLink, type NotificationType } from '@app/domain';
import { escapeHtml } from '../../lib/html';

/** One event a mail tells of. */
export interface MailItem {
  type: NotificationType;
  orderId: number | null;
  title: string;
  body: string;
  data?: Record<string, unknown>;
}

/** The button of each type's section. */
const ACTION: Record<NotificationType, string> = {
  payment_received: 'View your order',
  writer_assigned: 'Follow your order',
  delivered: 'Review the work',
  completed: 'Open your order',
  deadline_soon: 'Open your order',
  extension_requested: 'Answer the request',
  revision_updated: 'Open the revision',
  payment_reminder: 'Pay for your order',
  refund_issued: 'View your transactions',
  dispute_updated: 'Open the dispute',
  message_unseen: 'Reply in the chat',
};

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

const linkOf = (origin: string, item: MailItem): string =>
  item.type === 'refund_issued'
    ? `${origin}/transactions`
    : `${origin}${notificationLink(item.type, item.orderId, item.data) ?? '/dashboard'}`;

/** The subject: the event's title, or for a burst the order and what happened. */
export const subjectOf = (items: readonly MailItem[]): string => {
  const [only] = items;
  if (items.length === 1 && only) return only.title;
  const order = items.find((i) => i.orderId !== null)?.orderId;
  const kinds = [...new Set(items.map((i) => NOTIFICATION_LABEL[i.type]))];
  return `${order ? `Order #${order}` : 'Your orders'}: ${kinds.join(', ')}`;
};

/** The parts of a mail, each already HTML (escaped text, or the footer's links). */
interface MailParts {
  title: string;
  greeting: string;
  footer: string;
  items: { label: string; title: string; body: string; href: string; action: string }[];
}

/** The mjml source of a mail from its parts. */
export const mjmlSource = (p: MailParts): string => {
  const sections = p.items
    .map(
      (item) => `
    <mj-section css-class="card" background-color="#ffffff" padding="16px 24px" border-radius="8px">
      <mj-column>
        <mj-text css-class="label" font-size="12px" color="#4b5563" text-transform="uppercase" letter-spacing="0.05em">${item.label}</mj-text>
        <mj-text css-class="title" font-size="18px" font-weight="600" color="#111827">${item.title}</mj-text>
        <mj-text css-class="body" font-size="15px" line-height="1.5" color="#1f2937">${item.body}</mj-text>
        <mj-button href="${item.href}" background-color="#1d4ed8" color="#ffffff" border-radius="6px" align="left">${item.action}</mj-button>
      </mj-column>
    </mj-section>
    <mj-section padding="6px 0"><mj-column><mj-spacer height="6px" /></mj-column></mj-section>`,
    )
    .join('');
  return `<mjml lang="en">
  <mj-head>
    <mj-title>${p.title}</mj-title>
    <mj-attributes><mj-all font-family="-apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif" /></mj-attributes>
    <mj-raw><meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark"></mj-raw>
    <mj-style>
      @media (prefers-color-scheme: dark) {
        .page, .page > div, body { background-color: #111827 !important; }
        .card > table, .card > div, .card td { background-color: #1f2937 !important; }
        .title div, .body div, .intro div { color: #f9fafb !important; }
        .label div, .footer div { color: #d1d5db !important; }
        .footer a { color: #93c5fd !important; }
      }
    </mj-style>
  </mj-head>
  <mj-body css-class="page" background-color="#f3f4f6" width="600px">
    <mj-section padding="24px 24px 8px"><mj-column>
      <mj-text css-class="intro" font-size="16px" color="#111827">${p.greeting}</mj-text>
    </mj-column></mj-section>
    ${sections}
    <mj-section padding="8px 24px 24px"><mj-column>
      <mj-text css-class="footer" font-size="12px" line-height="1.5" color="#4b5563">${p.footer}</mj-text>
    </mj-column></mj-section>
  </mj-body>
</mjml>`;
};

/** mjml to HTML, refusing a template mjml finds invalid. */
export const compileMjml = async (source: string): Promise<string> => {
  const { html, errors } = await mjml2html(source, { validationLevel: 'soft' });
  if (errors.length > 0) throw new Error(`notification mail template: ${errors[0]?.formattedMessage ?? 'invalid'}`);
  return html;
};

/**
 * mjml takes tens of milliseconds of the server's one thread per mail (a job draining mail would stall the
 * requests beside it, `bench/notifications.mjs`): each shape of mail (its number of events) is compiled once
 * with a token in place of every part, and a mail is its shape with the tokens replaced in one pass.
 */
const TOKEN = /@@(\w+)@@/g;
const token = (name: string): string => `@@${name}@@`;
const SHAPES_KEPT = 20;
const shapes = new Map<number, Promise<string>>();
const shapeOf = (events: number): Promise<string> => {
  let shape = shapes.get(events);
  if (!shape) {
    shape = compileMjml(
      mjmlSource({
        title: token('title'),
        greeting: token('greeting'),
        footer: token('footer'),
        items: Array.from({ length: events }, (_, i) => ({
          label: token(`label${i}`),
          title: token(`title${i}`),
          body: token(`body${i}`),
          href: token(`href${i}`),
          action: token(`action${i}`),
        })),
      }),
    );
    if (events <= SHAPES_KEPT) shapes.set(events, shape);
    shape.catch(() => shapes.delete(events));
  }
  return shape;
};
const fill = (shape: string, p: MailParts): string => {
  const values = new Map<string, string>([
    ['title', p.title],
    ['greeting', p.greeting],
    ['footer', p.footer],
  ]);
  p.items.forEach((item, i) => {
    values.set(`label${i}`, item.label);
    values.set(`title${i}`, item.title);
    values.set(`body${i}`, item.body);
    values.set(`href${i}`, item.href);
    values.set(`action${i}`, item.action);
  });
  return shape.replace(TOKEN, (_, name: string) => values.get(name) ?? '');
};

/** The parts of a notification mail, each HTML. */
export const mailParts = ({
  firstName,
  items,
  origin,
  unsubscribeUrl,
}: {
  firstName: string;
  items: readonly MailItem[];
  origin: string;
  unsubscribeUrl: string | null;
}): MailParts => ({
  title: escapeHtml(subjectOf(items)),
  greeting: escapeHtml(firstName ? `Hello ${firstName},` : 'Hello,'),
  footer: unsubscribeUrl
    ? `You get this email because these notifications are on. <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe from ${escapeHtml(
        NOTIFICATION_LABEL[items.find((i) => !isEmailLocked(i.type))?.type ?? 'delivered'].toLowerCase(),
      )} emails</a> or <a href="${escapeHtml(`${origin}/profile`)}">choose what you get</a>.`
    : `This is a record of your payment and is always sent. <a href="${escapeHtml(`${origin}/profile`)}">Choose your other notifications</a>.`,
  items: items.map((item) => ({
    label: escapeHtml(NOTIFICATION_LABEL[item.type]),
    title: escapeHtml(item.title),
    body: escapeHtml(item.body).replace(/\n/g, '<br>'),
    href: escapeHtml(linkOf(origin, item)),
    action: escapeHtml(ACTION[item.type]),
  })),
});

/**
 * ADR 0088: a notification mail from its events, with mjml (responsive tables the common clients read, a
 * dark-mode palette through `prefers-color-scheme`), and its plain-text twin. One section per event, each
 * with its button to the right tab of the order; the footer's unsubscribe link when the mail can be turned off.
 */
export const renderNotificationMail = async (args: {
  firstName: string;
  items: readonly MailItem[];
  origin: string;
  /** null: a receipt (cannot be turned off) */
  unsubscribeUrl: string | null;
}): Promise<RenderedMail> => {
  const { items, origin, unsubscribeUrl } = args;
  const parts = mailParts(args);
  const html = fill(await shapeOf(items.length), parts);
  const text = [
    args.firstName ? `Hello ${args.firstName},` : 'Hello,',
    ...items.map((item) =>
      [`${NOTIFICATION_LABEL[item.type].toUpperCase()}: ${item.title}`, item.body, `${ACTION[item.type]}: ${linkOf(origin, item)}`].join(
        '\n',
      ),
    ),
    unsubscribeUrl
      ? `Unsubscribe from these emails: ${unsubscribeUrl}\nChoose what you get: ${origin}/profile`
      : `This is a record of your payment and is always sent.`,
  ].join('\n\n');
  return { subject: subjectOf(items), html, text };
};

/** Demo events of every type: the preview (`npm run ops -- mail:preview`, the dev route). */
export const demoMailItems = (orderId = 1234): MailItem[] =>
  (Object.keys(ACTION) as NotificationType[]).map((type) => ({
    type,
    orderId,
    title: `${NOTIFICATION_LABEL[type]}: order #${orderId}`,
    body: `What happened on "Sample essay" (order #${orderId}): ${NOTIFICATION_LABEL[type].toLowerCase()}.`,
  }));
