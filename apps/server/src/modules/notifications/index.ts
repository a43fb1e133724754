import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { NotificationEvent } from '@app/domain';
import type { AppContext } from '../../context';
import { storedAppSecret } from '../../db/app-secrets';
import type { Queryable } from '../../db/client';
import { createPeriodicJob } from '../../lib/periodic-job';
import { createNotificationJobs, type DocumentPdf, type NotificationJobs } from './notifications.jobs';
import { onNotified } from './notifications.notify';
import { createPushSender, resolveVapidKeys, type PushSender } from './notifications.push';
import { createNotificationsRepo, toWire } from './notifications.repo';
import { notificationsRoutes } from './notifications.routes';
import { createNotificationsService } from './notifications.service';
import { demoMailItems, renderNotificationMail } from './notifications.templates';
import { createUnsubscribeTokens } from './notifications.unsubscribe';

export { notify, notifyRole, onNotified, type NotifyEvent, type NotificationFacts } from './notifications.notify';
export { renderNotificationMail, demoMailItems } from './notifications.templates';
export type { NotificationJobs };
/** The account deletion's erase step and the personal-data report's section (ADR 0052, 0077). */
export { eraseNotifications, notificationPreferencesReport, notificationsReport } from './notifications.personal-data.repo';

/** What socket event 20 carries, read for the hub once the notification committed; null when it is not the user's. */
export const notificationEvent = async (
  q: Queryable,
  { userId, notificationId }: { userId: number; notificationId: number },
): Promise<NotificationEvent | null> => {
  const repo = createNotificationsRepo(q);
  const row = await repo.find({ userId, id: notificationId });
  if (!row) return null;
  return { notification: toWire(row), unread: await repo.unread(userId) };
};
export const notificationsUnread = (q: Queryable, userId: number): Promise<number> => createNotificationsRepo(q).unread(userId);

const UNSUBSCRIBE_SECRET = 'notifications_unsubscribe_secret';

/**
 * ADR 0088: notifications. The routes of CONTRACT "Notifications", the unsubscribe link, and the job (mails,
 * reminders) from ready to close on every instance. `devAllow` (not in production): the journeys' run of the
 * job at a later time and the mail previews.
 */
export const notificationsModule: FastifyPluginAsyncZod<{
  ctx: Pick<AppContext, 'config' | 'db' | 'clock' | 'log' | 'origin' | 'mailer'>;
  /** ADR 0085: the receipts' and credit notes' PDFs that go with their mails. */
  documentPdf: DocumentPdf;
  devAllow?: (request: FastifyRequest) => boolean;
  /** Tests: the job, to run by hand. */
  onJobs?: (jobs: NotificationJobs) => void;
  queued?: () => void;
}> = async (app, { ctx, documentPdf, devAllow, onJobs, queued }) => {
  const secret = await storedAppSecret(ctx.db, UNSUBSCRIBE_SECRET, () => randomBytes(32).toString('base64url'));
  const tokens = createUnsubscribeTokens(secret);
  const service = createNotificationsService({ db: ctx.db, clock: ctx.clock, tokens });
  // ADR 0088: Web Push keys (made on the first start when not configured) and the push of each new notification.
  const keys = await resolveVapidKeys(ctx.config, ctx.db);
  const push: PushSender = createPushSender({
    db: ctx.db,
    keys,
    subject: ctx.config.notifications.vapidSubject ?? ctx.origin,
    log: ctx.log,
  });
  const pusher = async () => push;
  await app.register(notificationsRoutes, { service, pushKey: async () => (await pusher()).publicKey });
  const stopPush = onNotified((n) => {
    if (n.notificationId === undefined) return;
    const told = { userId: n.userId, notificationId: n.notificationId };
    // Only this instance heard it (it made the notification): one push per browser.
    void pusher()
      .then((p) => p.send(told))
      .catch((error: unknown) => ctx.log.warn({ err: error, userId: n.userId }, 'notifications: push failed'));
  });
  app.addHook('onClose', async () => stopPush());
  const jobs = createNotificationJobs({
    db: ctx.db,
    clock: ctx.clock,
    log: ctx.log,
    origin: ctx.origin,
    mailTransport: ctx.mailer.kind,
    tokens,
    fontFile: ctx.config.receiptFontFile,
    documentPdf,
    ...(queued ? { queued } : {}),
  });
  onJobs?.(jobs);
  if (devAllow && ctx.config.env !== 'production') {
    const guard = async (request: FastifyRequest, reply: { callNotFound(): void }) => {
      if (!devAllow(request)) return reply.callNotFound();
    };
    app.post(
      '/api/dev/notifications/run',
      {
        onRequest: guard,
        bodyLimit: 1024,
        schema: {
          tags: ['dev'],
          summary: 'Runs the notifications job now, as if the time were `at` (default: now)',
          body: z.object({ at: z.string().datetime().optional() }).default({}),
          response: { 200: z.object({ reminders: z.number().int(), mails: z.number().int() }) },
        },
      },
      async (request) => jobs.runOnce(request.body.at ? new Date(request.body.at) : undefined),
    );
    app.get(
      '/api/dev/mail-preview',
      {
        onRequest: guard,
        schema: {
          tags: ['dev'],
          summary: 'Every notification mail rendered with demo data (`?type=` one, `?format=text`)',
          querystring: z.object({ type: z.string().max(40).optional(), format: z.enum(['html', 'text']).default('html') }),
        },
      },
      async (request, reply) => {
        const items = demoMailItems().filter((i) => !request.query.type || i.type === request.query.type);
        const parts = await Promise.all(
          items.map((item) =>
            renderNotificationMail({
              firstName: 'Alex',
              items: [item],
              origin: ctx.origin,
              unsubscribeUrl: `${ctx.origin}/api/notifications/unsubscribe?token=demo`,
            }),
          ),
        );
        if (request.query.format === 'text')
          return reply
            .header('content-type', 'text/plain; charset=utf-8')
            .send(parts.map((p) => `Subject: ${p.subject}\n\n${p.text}`).join('\n\n-----\n\n'));
        return reply.header('content-type', 'text/html; charset=utf-8').send(parts.map((p) => p.html).join('<hr>'));
      },
    );
  }
  const job = createPeriodicJob({
    intervalMs: ctx.config.notifications.jobIntervalMs,
    run: () => jobs.runOnce(),
    log: ctx.log,
    failure: 'notifications job run failed',
  });
  app.addHook('onReady', async () => job.start());
  app.addHook('onClose', async () => job.stop());
};
