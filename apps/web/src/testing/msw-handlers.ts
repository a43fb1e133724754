import { defaultPreferences } from '@app/domain/notification';
import { REVISION_CATEGORIES, REVISION_LEVELS } from '@app/domain/revision/rules';
import { http, HttpResponse, ws } from 'msw';
import {
  academicLevelsFixture,
  calcsFixture,
  paperFormatsFixture,
  paperTypesFixture,
  subjectsFixture,
  urgenciesFixture,
  workTypesFixture,
} from './catalogue-fixtures';
import { customerFixture, orderDetailFixture, sessionsFixture, settingsFixture } from './fixtures';
import { loyaltySummaryFixture } from './loyalty-fixtures';
import { priceCalcHandler } from './price-calc-handler';

/** What a healthy API answers; a test overrides one handler with server.use() to change a story. */
/** ADR 0047: the chat server at settings' `messages_url` and its socket (CONTRACT "Chat"). */
export const CHAT_HTTP = 'http://localhost:3000/chat';
export const chatSocket = ws.link('ws://localhost:3000/chat/customers/orders/messages');

export const defaultHandlers = [
  // The startup socket of a signed-in customer connects and stays quiet; a test takes it over with server.use().
  chatSocket.addEventListener('connection', () => undefined),
  http.get(`${CHAT_HTTP}/api/customers/orders/unread`, () => HttpResponse.json({ total: 0, orders: [] })),
  http.get(`${CHAT_HTTP}/api/customers/orders/:id/messages/unread`, () => HttpResponse.json({ total: 0, writer: 0, support: 0 })),
  http.get(`${CHAT_HTTP}/api/customers/orders/:id/messages`, () => HttpResponse.json({ messages: [] })),
  http.get(`${CHAT_HTTP}/api/customers/orders/:id/writer/online`, () => HttpResponse.json({ online: false })),
  http.get('/api/en/sites/settings', () => HttpResponse.json(settingsFixture)),
  http.get('/api/en/customers/customer', ({ request }) =>
    request.headers.get('Authorization')
      ? HttpResponse.json(customerFixture())
      : HttpResponse.json({ message: 'Unauthorized' }, { status: 401 }),
  ),
  http.get('/api/en/customers/customer/sessions', () => HttpResponse.json({ sessions: sessionsFixture })),
  // ADR 0097: no consent changes yet (the privacy modal's own test answers otherwise).
  http.get('/api/en/customers/customer/consent-history', () => HttpResponse.json({ entries: [], total: 0 })),
  // ADR 0085: the current Terms and Privacy Policy, accepted (the dialog's own test answers otherwise).
  http.get('/api/en/customers/terms', () =>
    HttpResponse.json({ termsVersion: '1', privacyVersion: '1', accepted: true, acceptedAt: '2030-01-01T00:00:00.000Z' }),
  ),
  http.get('/api/en/customers/receipts/years', () => HttpResponse.json({ years: [] })),
  // ADR 0088: the bell and the preferences table (nothing yet, every type at its default).
  http.get('/api/en/customers/notifications', () => HttpResponse.json({ notifications: [], total: 0, unread: 0 })),
  http.get('/api/staff/notifications', () => HttpResponse.json({ notifications: [], total: 0, unread: 0 })),
  http.get('/api/en/customers/notification-preferences', () => HttpResponse.json(defaultPreferences())),
  http.get('/api/en/orders/count', () => HttpResponse.json({ total: 3, byStatus: { '1': 1, '5': 2 } })),
  http.post('/api/en/auth/jwt/logout', () => HttpResponse.json({})),
  http.get('/api/en/sites/categories/:category/orders', () => HttpResponse.json({ orders: [], total: 0 })),
  // The order wizard's public catalogues (SPEC §7, CONTRACT "Errors and access": no token needed),
  // before /api/en/orders/:id, which would match /api/en/orders/academic_levels.
  http.get('/api/en/sites/categories/:c/orders/work_types', () => HttpResponse.json(workTypesFixture)),
  http.get('/api/en/sites/categories/:c/orders/assignments', () => HttpResponse.json(paperTypesFixture)),
  http.get('/api/en/sites/categories/:c/orders/subjects', () => HttpResponse.json(subjectsFixture)),
  http.get('/api/en/sites/categories/:c/orders/paper_formats', () => HttpResponse.json(paperFormatsFixture)),
  http.get('/api/en/sites/categories/:c/orders/calcs', ({ params }) => HttpResponse.json(calcsFixture(Number(params.c)))),
  http.get('/api/en/sites/:idSite/orders/urgencies', () => HttpResponse.json(urgenciesFixture)),
  // The wizard's debounced price confirmation (ADR 0027), priced as the server prices.
  priceCalcHandler(),
  http.get('/api/en/orders/academic_levels', () => HttpResponse.json(academicLevelsFixture)),
  http.get('/api/en/orders/resume_levels', () => HttpResponse.json(academicLevelsFixture.slice(0, 3))),
  http.get('/api/en/orders/thesis_levels', () => HttpResponse.json(academicLevelsFixture.slice(2))),
  http.get('/api/en/orders/resume_services', () => HttpResponse.json([{ id: 1, name: 'Resume writing' }])),
  http.get('/api/en/customers/customer/preferred_writers', () =>
    HttpResponse.json([
      { idWriter: 12, isPremium: true },
      { idWriter: 31, isPremium: false },
    ]),
  ),
  // Revisions (ADR 0044): before `/orders/:id`, which would match `/orders/revisions` too.
  http.get('/api/en/orders/revisions/categories', () => HttpResponse.json(REVISION_CATEGORIES)),
  http.get('/api/en/orders/revisions/levels', () => HttpResponse.json(REVISION_LEVELS)),
  http.get('/api/en/orders/revisions/:id/customers/files', () => HttpResponse.json([])),
  http.get('/api/en/orders/revisions/:id/writers/files', () => HttpResponse.json([])),
  http.get('/api/en/orders/revisions', () =>
    HttpResponse.json({ revisions: [], total: 0, window: { until: null, open: false, daysLeft: 0 }, activeRevision: null }),
  ),
  // ADR 0050: /loyalty.
  http.get('/api/en/orders/discounts/loyalty_discounts', () => HttpResponse.json(loyaltySummaryFixture())),
  http.get('/api/en/customers/referral', () => HttpResponse.json({ url: 'http://localhost:3000/order?ref_id=7', readyReferrals: 0 })),
  http.get('/api/en/customers/referrals/referral_customers', () => HttpResponse.json({ referrals: [], total: 0 })),
  http.get('/api/en/orders/:id', ({ params }) => HttpResponse.json(orderDetailFixture({ id: Number(params.id) }))),
  http.get('/api/en/orders/:id/customers/files', () => HttpResponse.json([])),
  http.get('/api/en/orders/:id/writers/files', () => HttpResponse.json([])),
];
