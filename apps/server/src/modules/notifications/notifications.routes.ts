import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MARK_READ_IDS_MAX,
  NOTIFICATION_MESSAGE,
  NOTIFICATION_TYPES,
  notificationListSchema,
  notificationPreferencesSchema,
  NOTIFICATIONS_PAGE_MAX,
  ROUTE_RATE_LIMITS,
} from '@app/domain';
import { escapeHtml } from '../../lib/html';
import { bearer, errorResponses } from '../../lib/route-schemas';
import { currentUser } from '../../plugins/auth';
import { routeRateLimit } from '../../plugins/rate-limit';
import type { NotificationsService, UnsubscribeOutcome } from './notifications.service';

const listSchema = notificationListSchema;
const preferencesSchema = notificationPreferencesSchema;
const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(NOTIFICATIONS_PAGE_MAX).default(20),
});
/** `{ ids }` bounded on the raw input (a bigger list is 422 before any query), or `{ all: true }`. */
const readBody = z.union([
  z.object({ all: z.literal(true) }).strict(),
  z
    .object({
      ids: z
        .array(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER))
        .min(1, NOTIFICATION_MESSAGE.idsOrAll)
        .max(MARK_READ_IDS_MAX, NOTIFICATION_MESSAGE.tooManyIds),
    })
    .strict(),
]);
const preferencesBody = z
  .record(z.string().max(40), z.object({ email: z.boolean().optional(), push: z.boolean().optional() }).strict())
  .refine((r) => Object.keys(r).length <= NOTIFICATION_TYPES.length + 1, NOTIFICATION_MESSAGE.unknownType);

const page = (title: string, text: string, form?: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>` +
  `<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1f2937}button{font:inherit;padding:.5rem 1rem;border-radius:.375rem;border:0;background:#1d4ed8;color:#fff;cursor:pointer}@media (prefers-color-scheme:dark){body{background:#111827;color:#f3f4f6}}</style></head>` +
  `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${form ?? ''}<p><a href="/profile">Manage all your notifications</a></p></body></html>`;

const outcomePage = (outcome: UnsubscribeOutcome): { status: number; html: string } =>
  outcome === 'unsubscribed'
    ? {
        status: 200,
        html: page('You are unsubscribed', 'You will no longer get these emails. You can turn them on again on your profile page.'),
      }
    : outcome === 'stale'
      ? {
          status: 409,
          html: page('This link is no longer valid', 'You changed this setting after this email was sent, so the link no longer applies.'),
        }
      : { status: 400, html: page('This link is not valid', 'The unsubscribe link is broken or has expired.') };

/** CONTRACT "Notifications" (ADR 0088): the customer's list, marking read, preferences; the staff bell; the unsubscribe link. */
const pushSubscriptionBody = z
  .object({
    endpoint: z.url({ protocol: /^https$/ }).max(1000),
    keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
  })
  .strip();

export const notificationsRoutes: FastifyPluginAsyncZod<{ service: NotificationsService; pushKey: () => Promise<string> }> = async (
  app,
  { service, pushKey },
) => {
  // ADR 0088: Web Push: the server's public key, and the browser's subscription.
  app.get(
    '/api/en/customers/push/key',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['notifications'],
        summary: 'The VAPID public key browsers subscribe with',
        security: bearer,
        response: { 200: z.object({ publicKey: z.string() }), ...errorResponses(401, 404) },
      },
    },
    async () => ({ publicKey: await pushKey() }),
  );
  app.post(
    '/api/en/customers/push/subscriptions',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['notifications'],
        summary: "Stores this browser's push subscription",
        security: bearer,
        body: pushSubscriptionBody,
        response: { 204: z.null(), ...errorResponses(401, 404, 422) },
      },
    },
    async (request, reply) => {
      const { endpoint, keys } = request.body;
      await service.subscribePush({ userId: currentUser(request).userId, endpoint, p256dh: keys.p256dh, auth: keys.auth });
      return reply.status(204).send(null);
    },
  );
  app.delete(
    '/api/en/customers/push/subscriptions',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['notifications'],
        summary: "Forgets this browser's push subscription",
        security: bearer,
        body: z.object({ endpoint: z.string().max(1000) }),
        response: { 204: z.null(), ...errorResponses(401, 404, 422) },
      },
    },
    async (request, reply) => {
      await service.unsubscribePush({ userId: currentUser(request).userId, endpoint: request.body.endpoint });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/en/customers/notifications',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['notifications'],
        summary: "The customer's notifications, newest first",
        security: bearer,
        querystring: listQuery,
        response: { 200: listSchema, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => service.list({ userId: currentUser(request).userId, ...request.query }),
  );
  app.put(
    '/api/en/customers/notifications/read',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['notifications'],
        summary: `Marks notifications read: { ids } (at most ${MARK_READ_IDS_MAX}, all the customer's, else 404) or { all: true }`,
        security: bearer,
        body: readBody,
        response: { 200: z.object({ unread: z.number() }), ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => service.markRead({ userId: currentUser(request).userId, ids: 'all' in request.body ? 'all' : request.body.ids }),
  );
  app.get(
    '/api/en/customers/notification-preferences',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['notifications'],
        summary: 'Per type, whether it is mailed and pushed',
        security: bearer,
        response: { 200: preferencesSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.preferences(currentUser(request).userId),
  );
  app.put(
    '/api/en/customers/notification-preferences',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['notifications'],
        summary: 'Changes some types and channels (receipts cannot be turned off: 422); answers them all',
        security: bearer,
        body: preferencesBody,
        response: { 200: preferencesSchema, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => service.setPreferences({ userId: currentUser(request).userId, changes: request.body }),
  );

  // The staff console's bell: what staff must act on (the same table, their own rows).
  app.get(
    '/api/staff/notifications',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['notifications'],
        summary: "A staff member's notifications, newest first",
        security: bearer,
        querystring: listQuery,
        response: { 200: listSchema, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => service.list({ userId: currentUser(request).userId, ...request.query }),
  );
  app.put(
    '/api/staff/notifications/read',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['notifications'],
        summary: 'Marks staff notifications read',
        security: bearer,
        body: readBody,
        response: { 200: z.object({ unread: z.number() }), ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => service.markRead({ userId: currentUser(request).userId, ids: 'all' in request.body ? 'all' : request.body.ids }),
  );

  // ADR 0088: the unsubscribe link. GET shows a button (a link checker that opens it changes nothing); POST
  // is the one-click (RFC 8058: `List-Unsubscribe=One-Click` from the mail client) and the button's.
  const unsubscribeLimit = routeRateLimit(app, 'unsubscribe', ROUTE_RATE_LIMITS.unsubscribe);
  const tokenQuery = z.object({ token: z.string().max(300) });
  app.get(
    '/api/notifications/unsubscribe',
    {
      preHandler: unsubscribeLimit,
      schema: { tags: ['notifications'], summary: 'The unsubscribe page of a mail', querystring: tokenQuery },
    },
    async (request, reply) => {
      const action = `/api/notifications/unsubscribe?token=${encodeURIComponent(request.query.token)}`;
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .send(
          page(
            'Unsubscribe',
            'Stop getting emails of this kind?',
            `<form method="post" action="${escapeHtml(action)}"><button type="submit">Unsubscribe</button></form>`,
          ),
        );
    },
  );
  app.post(
    '/api/notifications/unsubscribe',
    {
      preHandler: unsubscribeLimit,
      schema: { tags: ['notifications'], summary: 'One-click unsubscribe (RFC 8058)', querystring: tokenQuery },
    },
    async (request, reply) => {
      const { status, html } = outcomePage(await service.unsubscribe(request.query.token));
      return reply.status(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    },
  );
};
