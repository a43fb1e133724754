import { randomBytes } from 'node:crypto';
import {
  calculatePrice,
  extensionAnswerBy,
  MESSAGE_DIRECTION,
  ORDER_STATUS,
  REVISION_STATUS,
  revisionEta,
  ROLE,
  toPriceTable,
  type ExtraKey,
  type OrderStatusId,
  type Price,
  type RevisionStatusId,
} from '@app/domain';
import { hashPassword } from '../../lib/password';
import type { Queryable } from '../client';
import { findAccountId, insertAccount } from './accounts';
import { seedConversation, type DemoConversation } from './conversation';
import { seedDemoLoyalty } from './loyalty';
import { seededCalcs } from './prices';

/** CONTRACT "Demo data": the accounts a fresh clone signs in with. */
export const DEMO_ACCOUNTS = {
  customer: { role: ROLE.customer, email: 'demo@example.com', password: 'demo12345', firstName: 'Alex', lastName: 'Morgan' },
  writer: { role: ROLE.writer, email: 'writer@example.com', password: 'writer12345', firstName: 'Jordan', lastName: 'Blake' },
  support: { role: ROLE.support, email: 'support@example.com', password: 'support12345', firstName: 'Sam', lastName: 'Rivera' },
  admin: { role: ROLE.admin, email: 'admin@example.com', password: 'admin12345', firstName: 'Robin', lastName: 'Hale' },
} as const;

/** CONTRACT "Demo data": WELCOME10 (10 %) and TOPWRITER20 (20 %, a top-writer discount). */
export const DEMO_DISCOUNT_CODES = [
  { code: 'WELCOME10', percent: 10, isTopWriterDiscount: false },
  { code: 'TOPWRITER20', percent: 20, isTopWriterDiscount: true },
] as const;

const HOUR_MS = 60 * 60 * 1000;
const DAY_HOURS = 24;

type DemoExtraKey = Exclude<ExtraKey, 'preferredWriter'>;

interface DemoOrder {
  title: string;
  description: string;
  siteCategory: number;
  workTypeId: number;
  levelId: number;
  paperTypeId: number;
  paperFormatId: number | null;
  resumeServiceId: number | null;
  subjectId: number;
  pages: number;
  sources: number;
  /** 1 single, 2 double (SPEC §3). */
  spacing: 1 | 2;
  urgencyHours: number;
  extras: Partial<Record<DemoExtraKey, true>>;
  discountCode?: (typeof DEMO_DISCOUNT_CODES)[number]['code'];
  hidden?: true;
  /** How long before now the order was placed. */
  createdHoursAgo: number;
  /** The walk to the current status: [status, hours after creation], the first one at creation. */
  history: readonly (readonly [OrderStatusId, number])[];
  /** ADR 0044: a free revision of the completed order, its statuses as [status, hours after completion]. */
  revision?: {
    levelId: number;
    categoryIds: readonly number[];
    description: string;
    history: readonly (readonly [RevisionStatusId, number])[];
  };
  /**
   * ADR 0047: the order's messages, oldest first, as [direction, hours after creation, body, seen by the
   * customer]. Staff have read every message; the customer's own count as seen.
   */
  conversation?: DemoConversation;
}

const S = ORDER_STATUS;

/** About ten orders in the dashboard's statuses (SPEC §4), one hidden, across the site's categories. */
const DEMO_ORDERS: readonly DemoOrder[] = [
  {
    title: 'The Role of Social Media in Modern Political Campaigns',
    description: 'Discuss how campaigns target voters on social platforms since 2008. Use at least three scholarly sources.',
    siteCategory: 1,
    workTypeId: 1,
    levelId: 2,
    paperTypeId: 1,
    paperFormatId: 1,
    resumeServiceId: null,
    subjectId: 7,
    pages: 3,
    sources: 3,
    spacing: 2,
    urgencyHours: 240,
    extras: {},
    createdHoursAgo: 5,
    history: [[S.unpaid, 0]],
  },
  {
    title: '10 Email Marketing Mistakes Small Businesses Still Make',
    description: 'A friendly listicle for a small-business blog, about 900 words, with a short call to action at the end.',
    siteCategory: 5,
    workTypeId: 1,
    levelId: 2,
    paperTypeId: 51,
    paperFormatId: 5,
    resumeServiceId: null,
    subjectId: 11,
    pages: 3,
    sources: 0,
    spacing: 2,
    urgencyHours: 96,
    extras: { originalityReport: true },
    createdHoursAgo: 30,
    history: [[S.unpaid, 0]],
  },
  {
    title: 'Literature Review: Mindfulness Interventions for Adolescent Anxiety',
    description: 'Review randomised controlled trials published since 2015; summarise effect sizes in a table.',
    siteCategory: 4,
    workTypeId: 1,
    levelId: 2,
    paperTypeId: 45,
    paperFormatId: 2,
    resumeServiceId: null,
    subjectId: 5,
    pages: 12,
    sources: 25,
    spacing: 2,
    urgencyHours: 336,
    extras: { premiumWriter: true, originalityReport: true },
    discountCode: 'TOPWRITER20',
    createdHoursAgo: 20,
    history: [
      [S.unpaid, 0],
      [S.paid, 0.3],
    ],
  },
  {
    title: 'Microplastics in Freshwater Ecosystems: Sources and Impacts',
    description: 'Research paper with an introduction, methods of detection, ecological effects and policy responses.',
    siteCategory: 1,
    workTypeId: 1,
    levelId: 3,
    paperTypeId: 13,
    paperFormatId: 2,
    resumeServiceId: null,
    subjectId: 24,
    pages: 8,
    sources: 10,
    spacing: 2,
    urgencyHours: 168,
    extras: { extraQualityCheck: true },
    createdHoursAgo: 3 * DAY_HOURS,
    history: [
      [S.unpaid, 0],
      [S.paid, 0.2],
      [S.inProgress, 2],
    ],
    conversation: [
      [
        MESSAGE_DIRECTION.supportToCustomer,
        2,
        'Thank you for your order! Jordan, an environmental science writer, is now working on it. Write to us here any time.',
        true,
      ],
      [
        MESSAGE_DIRECTION.writerToCustomer,
        3,
        "Hi! I'm Jordan, your writer. Would you like the policy section to focus on the EU, the US, or both?",
        true,
      ],
      [MESSAGE_DIRECTION.customerToWriter, 5, 'Hi Jordan, both please, with a short comparison table at the end.', true],
      [
        MESSAGE_DIRECTION.writerToCustomer,
        50,
        'The introduction and the detection methods are done. I will send the full draft before the deadline.',
        false,
      ],
    ],
  },
  {
    // SPEC §5: a resume order carries no title.
    title: '',
    description: 'Software engineer with 7 years in fintech moving into engineering management. Current CV attached by email.',
    siteCategory: 3,
    workTypeId: 1,
    levelId: 3,
    paperTypeId: 71,
    paperFormatId: null,
    resumeServiceId: 1,
    subjectId: 22,
    pages: 2,
    sources: 0,
    spacing: 2,
    urgencyHours: 120,
    extras: {},
    createdHoursAgo: 2 * DAY_HOURS,
    history: [
      [S.unpaid, 0],
      [S.paid, 0.1],
      [S.inProgress, 1],
    ],
  },
  {
    title: 'Symbolism in The Great Gatsby',
    description: 'Please proofread and tighten my draft; keep my argument about the green light and the valley of ashes.',
    siteCategory: 1,
    workTypeId: 2,
    levelId: 2,
    paperTypeId: 1,
    paperFormatId: 1,
    resumeServiceId: null,
    subjectId: 2,
    pages: 4,
    sources: 2,
    spacing: 2,
    urgencyHours: 72,
    extras: {},
    discountCode: 'WELCOME10',
    createdHoursAgo: 8 * DAY_HOURS,
    history: [
      [S.unpaid, 0],
      [S.paid, 0.5],
      [S.inProgress, 3],
      [S.completed, 66],
    ],
    revision: {
      levelId: 2,
      categoryIds: [1, 4],
      description: 'Please expand the paragraph on the valley of ashes and fix the citation style in the last section.',
      history: [
        [1, 20],
        [2, 22],
        [12, 34],
        [5, 36],
      ],
    },
  },
  {
    title: 'Comparing Keynesian and Monetarist Responses to the 2008 Crisis',
    description: 'Compare fiscal and monetary responses in the US and the UK; conclude with lessons for 2020.',
    siteCategory: 1,
    workTypeId: 1,
    levelId: 3,
    paperTypeId: 12,
    paperFormatId: 3,
    resumeServiceId: null,
    subjectId: 12,
    pages: 6,
    sources: 8,
    spacing: 2,
    urgencyHours: 240,
    extras: { onePageSummary: true },
    hidden: true,
    createdHoursAgo: 40 * DAY_HOURS,
    history: [
      [S.unpaid, 0],
      [S.paid, 1],
      [S.inProgress, 4],
      [S.completed, 220],
    ],
  },
  {
    title: 'Market Entry Strategy for a Plant-Based Snack Brand',
    description: 'Ten slides with speaker notes: market size, competitors, pricing, channels and a launch timeline.',
    siteCategory: 1,
    workTypeId: 3,
    levelId: 2,
    paperTypeId: 17,
    paperFormatId: 2,
    resumeServiceId: null,
    subjectId: 9,
    pages: 10,
    sources: 5,
    spacing: 2,
    urgencyHours: 120,
    extras: {},
    createdHoursAgo: 20 * DAY_HOURS,
    history: [
      [S.unpaid, 0],
      [S.paid, 0.4],
      [S.inProgress, 5],
      [S.refunded, 30],
    ],
  },
  {
    title: 'Was the Industrial Revolution a Net Benefit for Workers?',
    description: 'Argumentative essay for a high-school history class; take a clear position in the introduction.',
    siteCategory: 1,
    workTypeId: 1,
    levelId: 1,
    paperTypeId: 3,
    paperFormatId: 1,
    resumeServiceId: null,
    subjectId: 3,
    pages: 2,
    sources: 2,
    spacing: 1,
    urgencyHours: 240,
    extras: {},
    // Canceled before payment, so it never had a writer.
    createdHoursAgo: 15 * DAY_HOURS,
    history: [
      [S.unpaid, 0],
      [S.canceled, 26],
    ],
  },
  {
    title: 'Dissertation Chapter 3: Labour Movements in Interwar Britain',
    description: 'Edit for argument and structure; check Chicago footnotes. Supervisor comments are in the margin.',
    siteCategory: 4,
    workTypeId: 2,
    levelId: 3,
    paperTypeId: 42,
    paperFormatId: 3,
    resumeServiceId: null,
    subjectId: 3,
    pages: 25,
    sources: 40,
    spacing: 2,
    urgencyHours: 336,
    extras: { extraQualityCheck: true },
    createdHoursAgo: 6 * DAY_HOURS,
    history: [
      [S.unpaid, 0],
      [S.paid, 0.5],
      [S.inProgress, 6],
      [S.hold, 50],
    ],
  },
  {
    title: 'Case Study: Reducing Readmissions in Heart Failure Patients',
    description: 'Offer prepared by support after a chat: nurse-led discharge programme, Harvard referencing.',
    siteCategory: 1,
    workTypeId: 1,
    levelId: 4,
    paperTypeId: 7,
    paperFormatId: 4,
    resumeServiceId: null,
    subjectId: 16,
    pages: 6,
    sources: 6,
    spacing: 2,
    urgencyHours: 240,
    extras: { premiumWriter: true },
    createdHoursAgo: 26,
    history: [[S.offered, 0]],
  },
];

/** ADR 0071: how each demo move was made (the transition table's `by`), and the reason 7, 8 and 9 carry. */
const DEMO_HISTORY_VIA: Partial<Record<number, string>> = {
  [S.unpaid]: 'creation',
  [S.paid]: 'payment',
  [S.inProgress]: 'assignment',
  [S.refunded]: 'refund',
};
const DEMO_HISTORY_REASON: Partial<Record<number, string>> = {
  [S.refunded]: 'The customer asked for a refund',
  [S.canceled]: 'The customer canceled before paying',
  [S.hold]: 'Waiting for the supervisor’s comments',
};

/** The one price function (CONTRACT "Orders and catalogues") over the seeded tables, in integer cents. */
const priceDemoOrder = (order: DemoOrder, discountPercent: number): Price => {
  const result = calculatePrice(toPriceTable(seededCalcs(order.siteCategory)), {
    workType: order.workTypeId,
    level: order.levelId,
    urgency: order.urgencyHours,
    pages: order.pages,
    spacing: order.spacing,
    premiumWriter: order.extras.premiumWriter === true,
    // No demo order names preferred writers.
    preferredWriter: false,
    extraQualityCheck: order.extras.extraQualityCheck === true,
    originalityReport: order.extras.originalityReport === true,
    onePageSummary: order.extras.onePageSummary === true,
    discount: { percent: discountPercent, amount: 0 },
  });
  if (!result.ok) throw new Error(`demo order "${order.title}" cannot be priced: ${result.reason}`);
  return result.price;
};

/** CONTRACT "Order uid": random, at least 16 URL-safe characters. */
const newUid = (): string => randomBytes(12).toString('base64url');

/** A demo file's bytes, stored the way an upload is (ADR 0084: the demo's deliveries can be downloaded). */
type StoreText = (text: string) => Promise<{ key: string; size: number } | null>;

/** ADR 0084: a writer file on the order (of a revision when given), stored when a storage is at hand. */
const seedWriterFile = async (
  q: Queryable,
  store: StoreText,
  f: {
    orderId: number;
    customerId: number;
    writerId: number | undefined;
    name: string;
    text: string;
    at: Date;
    revisionId?: number | null;
  },
): Promise<number | null> => {
  const stored = await store(f.text);
  if (!stored) return null;
  const [row] = await q.query<{ id: number }>(
    `INSERT INTO order_files (order_id, customer_id, source, uploaded_by, name, type_name, size_bytes, storage_key, created_at, revision_id)
     VALUES ($1, $2, 'writer', $3, $4, 'txt', $5, $6, $7, $8) RETURNING id`,
    [f.orderId, f.customerId, f.writerId ?? null, f.name, stored.size, stored.key, f.at, f.revisionId ?? null],
  );
  return row ? Number(row.id) : null;
};

/** ADR 0084: a delivery carrying `fileIds`, with its timeline entry (and the answer's, when it was answered). */
const seedDeliveryRow = async (
  q: Queryable,
  d: {
    orderId: number;
    writerId: number | undefined;
    customerId: number;
    message: string;
    at: Date;
    reviewBy: Date;
    state: 'awaiting_review' | 'accepted';
    fileIds: number[];
    answeredAt?: Date;
  },
): Promise<void> => {
  const [row] = await q.query<{ id: number }>(
    `INSERT INTO order_deliveries (order_id, delivered_by, delivered_by_role, message, delivered_at, review_by, state, answered_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      d.orderId,
      d.writerId ?? null,
      ROLE.writer,
      d.message,
      d.at,
      d.state === 'awaiting_review' ? d.reviewBy : null,
      d.state,
      d.answeredAt ?? null,
    ],
  );
  if (!row) return;
  if (d.fileIds.length > 0)
    await q.query('INSERT INTO order_delivery_files (file_id, delivery_id) SELECT unnest($1::int[]), $2', [d.fileIds, row.id]);
  await q.query(
    `INSERT INTO order_events (order_id, type, actor_id, actor_role, note, created_at) VALUES ($1, 'delivered', $2, $3, $4, $5)`,
    [d.orderId, d.writerId ?? null, ROLE.writer, d.message, d.at],
  );
  if (d.state === 'accepted' && d.answeredAt)
    await q.query(`INSERT INTO order_events (order_id, type, actor_id, actor_role, created_at) VALUES ($1, 'accepted', $2, $3, $4)`, [
      d.orderId,
      d.customerId,
      ROLE.customer,
      d.answeredAt,
    ]);
};

const fileName = (title: string): string =>
  `${(title.trim() === '' ? 'resume' : title)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60)}.txt`;

/**
 * `store` keeps a demo file's bytes (the files storage); without it (tests of the seed alone) the demo's
 * deliveries carry no files.
 */
export const seedDemo = async (q: Queryable, now: Date, store: StoreText = async () => null): Promise<void> => {
  let awaitingSeeded = false;
  let extensionSeeded = false;
  if ((await findAccountId(q, DEMO_ACCOUNTS.customer.email)) !== null) return;

  for (const { code, percent, isTopWriterDiscount } of DEMO_DISCOUNT_CODES) {
    await q.query('INSERT INTO discount_codes (code, percent, is_top_writer_discount) VALUES ($1, $2, $3) ON CONFLICT (code) DO NOTHING', [
      code,
      percent,
      isTopWriterDiscount,
    ]);
  }

  const ids: Partial<Record<keyof typeof DEMO_ACCOUNTS, number>> = {};
  for (const [key, account] of Object.entries(DEMO_ACCOUNTS) as [
    keyof typeof DEMO_ACCOUNTS,
    (typeof DEMO_ACCOUNTS)[keyof typeof DEMO_ACCOUNTS],
  ][]) {
    const passwordHash = await hashPassword(account.password);
    const confirmedAt = new Date(now.getTime() - 60 * DAY_HOURS * HOUR_MS);
    // A staff account made earlier with `npm run ops` keeps its password.
    ids[key] = (await insertAccount(q, { ...account, passwordHash, confirmedAt })) ?? (await findAccountId(q, account.email)) ?? undefined;
  }
  const customerId = ids.customer;
  const writerId = ids.writer;
  if (customerId === undefined || writerId === undefined) throw new Error('demo accounts could not be created');
  // SPEC §3 "Preferred writer": the demo writer is one of the premium writers (migration 0002 column).
  await q.query('UPDATE users SET is_premium_writer = true WHERE id = $1', [writerId]);

  for (const order of DEMO_ORDERS) {
    const discount = DEMO_DISCOUNT_CODES.find((d) => d.code === order.discountCode);
    const price = priceDemoOrder(order, discount?.percent ?? 0);
    const createdAt = new Date(now.getTime() - order.createdHoursAgo * HOUR_MS);
    const at = (hoursAfterCreation: number) => new Date(createdAt.getTime() + hoursAfterCreation * HOUR_MS);
    const last = order.history[order.history.length - 1];
    if (!last) throw new Error(`demo order "${order.title}" has no status`);
    const [status, lastChangeHours] = last;
    // A writer is on every order that went past unpaid, except one canceled before payment.
    const hasWriter = order.history.some(([s]) => s !== S.unpaid && s !== S.canceled);
    const completedAt = status === S.completed ? at(lastChangeHours) : null;
    const [row] = await q.query<{ id: number }>(
      `INSERT INTO orders (uid, customer_id, site_category, work_type_id, level_id, paper_format_id, paper_type_id,
         resume_service_id, subject_id, title, description, pages, sources, spacing, urgency_hours, premium_writer,
         extra_quality_check, one_page_summary, originality_report, writer_id, status_id, hidden, deadline,
         basic_price_cents, final_price_cents, discount_code, discount_cents, price_breakdown, completed_at,
         created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
         $23, $24, $25, $26, $27, $28, $29, $30, $31)
       RETURNING id`,
      [
        newUid(),
        customerId,
        order.siteCategory,
        order.workTypeId,
        order.levelId,
        order.paperFormatId,
        order.paperTypeId,
        order.resumeServiceId,
        order.subjectId,
        order.title,
        order.description,
        order.pages,
        order.sources,
        order.spacing,
        order.urgencyHours,
        order.extras.premiumWriter === true,
        order.extras.extraQualityCheck === true,
        order.extras.onePageSummary === true,
        order.extras.originalityReport === true,
        hasWriter ? writerId : null,
        status,
        order.hidden === true,
        at(order.urgencyHours),
        price.basicPrice,
        price.finalPrice,
        discount?.code ?? null,
        price.priceDiscount,
        JSON.stringify(price),
        completedAt,
        createdAt,
        at(lastChangeHours),
      ],
    );
    if (!row) throw new Error(`demo order "${order.title}" was not stored`);
    for (const [historyStatus, hours] of order.history) {
      // Staff move an order on; the customer only creates it. ADR 0071: who, how, and why for 7, 8 and 9.
      const changedBy = historyStatus === S.unpaid ? customerId : (ids.support ?? null);
      await q.query(
        `INSERT INTO order_status_history (order_id, status_id, changed_by, changed_by_role, via, reason, created_at)
         VALUES ($1, $2, $3, (SELECT role FROM users WHERE id = $3), $4, $5, $6)`,
        [
          row.id,
          historyStatus,
          changedBy,
          DEMO_HISTORY_VIA[historyStatus] ?? 'support',
          DEMO_HISTORY_REASON[historyStatus] ?? null,
          at(hours),
        ],
      );
    }
    if (order.conversation) {
      await seedConversation(q, {
        orderId: row.id,
        customerId,
        writerId,
        supportId: ids.support ?? null,
        at,
        messages: order.conversation,
      });
    }
    // ADR 0084, "a demo that tells the truth": every paid order has its payment and transaction (so
    // /transactions agrees with the points), a refunded one its refund too.
    const paid = order.history.find(([s]) => s === S.paid);
    if (paid) {
      const paymentId = `demo-${row.id}-${randomBytes(6).toString('hex')}`;
      await q.query(
        `INSERT INTO payments (id, order_id, customer_id, provider, amount_cents, state, sandbox, provider_ref, created_at, updated_at)
         VALUES ($1, $2, $3, 'paycore', $4, $5, true, $1, $6, $7)`,
        [paymentId, row.id, customerId, price.finalPrice, status === S.refunded ? 'refunded' : 'paid', at(paid[1]), at(lastChangeHours)],
      );
      await q.query(
        `INSERT INTO transactions (customer_id, order_id, payment_id, provider, type, amount_cents, currency, created_at)
         VALUES ($1, $2, $3, 'paycore', 'payment', $4, 'USD', $5)`,
        [customerId, row.id, paymentId, price.finalPrice, at(paid[1])],
      );
      if (status === S.refunded)
        await q.query(
          `INSERT INTO transactions (customer_id, order_id, payment_id, provider, type, amount_cents, currency, created_at)
           VALUES ($1, $2, $3, 'paycore', 'refund', $4, 'USD', $5)`,
          [customerId, row.id, paymentId, price.finalPrice, at(lastChangeHours)],
        );
    }
    const writerFile = (name: string, text: string, when: Date, revisionId: number | null = null) =>
      seedWriterFile(q, store, { orderId: row.id, customerId, writerId, name, text, at: when, revisionId });
    // A completed order was delivered and accepted, with its files.
    if (completedAt) {
      const deliveredAt = new Date(completedAt.getTime() - 20 * HOUR_MS);
      const file = await writerFile(
        fileName(order.title),
        `${order.title}\n\nThe final paper, as the writer delivered it (demo file).\n\n${order.description}\n`,
        deliveredAt,
      );
      await seedDeliveryRow(q, {
        orderId: row.id,
        writerId,
        customerId,
        message: 'Here is the final paper. The sources are listed at the end; tell me if anything needs changing.',
        at: deliveredAt,
        reviewBy: new Date(deliveredAt.getTime() + 3 * DAY_HOURS * HOUR_MS),
        state: 'accepted',
        fileIds: file === null ? [] : [file],
        answeredAt: completedAt,
      });
    }
    // One order in progress waits for the customer's review, its clock running.
    if (status === S.inProgress && !awaitingSeeded) {
      awaitingSeeded = true;
      const deliveredAt = new Date(now.getTime() - 10 * HOUR_MS);
      const file = await writerFile(
        fileName(order.title),
        `${order.title}\n\nThe delivered paper (demo file).\n\n${order.description}\n`,
        deliveredAt,
      );
      await seedDeliveryRow(q, {
        orderId: row.id,
        writerId,
        customerId,
        message: 'The paper is ready. I followed your outline and added two recent studies.',
        at: deliveredAt,
        reviewBy: new Date(deliveredAt.getTime() + 3 * DAY_HOURS * HOUR_MS),
        state: 'awaiting_review',
        fileIds: file === null ? [] : [file],
      });
    } else if (status === S.inProgress && !extensionSeeded) {
      // Another asks for more time: an open proposal the customer has not answered yet.
      extensionSeeded = true;
      const deadline = at(order.urgencyHours);
      const proposedAt = new Date(now.getTime() - 2 * HOUR_MS);
      const proposed = new Date(deadline.getTime() + 18 * HOUR_MS);
      const reason = 'The employer’s job description changed, and I want to tailor the summary to it.';
      await q.query(
        `INSERT INTO order_extensions (order_id, proposed_by, proposed_by_role, previous_deadline, deadline, reason, answer_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [row.id, writerId ?? null, ROLE.writer, deadline, proposed, reason, extensionAnswerBy(proposedAt, deadline), proposedAt],
      );
      await q.query(
        `INSERT INTO order_events (order_id, type, actor_id, actor_role, deadline, note, created_at) VALUES ($1, 'extension_proposed', $2, $3, $4, $5, $6)`,
        [row.id, writerId ?? null, ROLE.writer, proposed, reason, proposedAt],
      );
    }
    if (order.revision && completedAt) {
      const revision = order.revision;
      const after = (hours: number) => new Date(completedAt.getTime() + hours * HOUR_MS);
      const requestedAt = after(revision.history[0]?.[1] ?? 0);
      const lastRevision = revision.history[revision.history.length - 1];
      const [stored] = await q.query<{ id: number }>(
        `INSERT INTO revisions (order_id, customer_id, status_id, level_id, category_ids, description, deadline, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5::smallint[], $6, $7, $8, $9) RETURNING id`,
        [
          row.id,
          customerId,
          lastRevision?.[0] ?? 1,
          revision.levelId,
          [...revision.categoryIds],
          revision.description,
          revisionEta(requestedAt, revision.levelId) ?? requestedAt,
          requestedAt,
          after(lastRevision?.[1] ?? 0),
        ],
      );
      for (const [revisionStatus, hours] of revision.history) {
        await q.query('INSERT INTO revision_status_history (revision_id, status_id, changed_by, created_at) VALUES ($1, $2, $3, $4)', [
          stored?.id,
          revisionStatus,
          revisionStatus === 1 ? customerId : (ids.support ?? null),
          after(hours),
        ]);
      }
      // A completed revision has its revised file.
      if (stored && lastRevision?.[0] === REVISION_STATUS.completed)
        await writerFile(
          `revised-${fileName(order.title)}`,
          `${order.title}\n\nThe revised paper (demo file).\n`,
          after(lastRevision[1]),
          Number(stored.id),
        );
    }
  }
  // ADR 0050, 0051: the demo customer's points and referrals.
  await seedDemoLoyalty(q, { customerId, now });
};
