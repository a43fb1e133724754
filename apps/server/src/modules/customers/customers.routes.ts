import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCOUNT_DELETION_ATTEMPTS,
  accountDeletionAnswerSchema,
  accountDeletionBodySchema,
  accountDeletionConfirmBodySchema,
  billingDetailsSchema,
  consentHistorySchema,
  CUSTOMER_MESSAGE,
  customerSchema,
  customerUpdateBodySchema,
  emailChangeBodySchema,
  emailChangeConfirmBodySchema,
  emailConfirmBodySchema,
  messageBodySchema,
  passwordChangeBodySchema,
  privacyBodySchema,
  ROUTE_RATE_LIMITS,
  sessionListSchema,
} from '@app/domain';
import { currentUser } from '../../plugins/auth';
import { accountWindowRateLimit, authRateLimit, routeRateLimit } from '../../plugins/rate-limit';
import type { CustomersService } from './customers.service';
import { bearer, errorResponses, idParams } from '../../lib/route-schemas';

const idSchema = z.coerce.number().int().positive().max(2_147_483_647);

export const customersRoutes: FastifyPluginAsyncZod<{ service: CustomersService }> = async (app, { service }) => {
  const customer = { preHandler: app.requireCustomer, security: bearer } as const;

  app.put(
    '/api/en/customers/:id/privacy',
    {
      preHandler: customer.preHandler,
      schema: {
        tags: ['customers'],
        summary: 'Set the six consent flags (booleans); every change is kept in the consent history',
        security: customer.security,
        params: idParams,
        body: privacyBodySchema,
        response: { 200: customerSchema, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) =>
      service.updatePrivacy({ customerId: currentUser(request).userId, id: request.params.id, body: request.body, ip: request.ip }),
  );

  app.get(
    '/api/en/customers/customer/consent-history',
    {
      preHandler: customer.preHandler,
      schema: {
        tags: ['customers'],
        summary: 'The consent history (ADR 0097): the newest changes of the six flags, newest first, with the date and old → new',
        security: customer.security,
        response: { 200: consentHistorySchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.consentHistory({ customerId: currentUser(request).userId }),
  );

  app.put(
    '/api/en/customers/customer/password',
    {
      // ADR 0073: an argon2 check and hash per request.
      preHandler: [customer.preHandler, routeRateLimit(app, 'password-change', ROUTE_RATE_LIMITS.passwordChange)],
      schema: {
        tags: ['customers'],
        summary: 'Change the password with the current one; every other session ends, this one stays',
        security: customer.security,
        body: passwordChangeBodySchema,
        response: { 200: messageBodySchema, ...errorResponses(400, 401, 404, 409, 422, 429) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await service.changePassword({ customerId: user.userId, sid: user.sid ?? null, body: request.body });
      return { message: CUSTOMER_MESSAGE.passwordUpdated };
    },
  );

  // ADR 0070: the deletion's attempts (both calls, right or wrong) counted per account.
  const deletionAttempts = accountWindowRateLimit(
    app,
    'account-delete',
    ACCOUNT_DELETION_ATTEMPTS.max,
    ACCOUNT_DELETION_ATTEMPTS.windowMs,
    CUSTOMER_MESSAGE.deletionTooManyAttempts,
  );

  app.put(
    '/api/en/customers/customer/deactivate',
    {
      preHandler: [app.requireCustomer, deletionAttempts],
      schema: {
        tags: ['customers'],
        summary:
          'Delete the account (needs a confirmed email and the password; an account without one is mailed a confirmation link, 202): personal data erased, the books kept anonymised',
        security: customer.security,
        body: accountDeletionBodySchema.nullish(),
        response: { 200: accountDeletionAnswerSchema, 202: accountDeletionAnswerSchema, ...errorResponses(400, 401, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const done = await service.deactivate({ customerId: currentUser(request).userId, password: request.body?.password });
      if (done === 'mailed') return reply.status(202).send({ message: CUSTOMER_MESSAGE.deletionLinkSent, confirmByEmail: true });
      return { message: CUSTOMER_MESSAGE.accountDeleted };
    },
  );

  app.put(
    '/api/en/customers/customer/deactivate/confirm',
    {
      preHandler: [app.requireCustomer, deletionAttempts],
      schema: {
        tags: ['customers'],
        summary: "Delete the account with the mailed link's token (ADR 0070): once, only with a session of the same account",
        security: customer.security,
        body: accountDeletionConfirmBodySchema,
        response: { 200: accountDeletionAnswerSchema, ...errorResponses(400, 401, 404, 422, 429) },
      },
    },
    async (request) => {
      await service.confirmDeletion({ customerId: currentUser(request).userId, token: request.body.token });
      return { message: CUSTOMER_MESSAGE.accountDeleted };
    },
  );

  app.get(
    '/api/en/customers/customer/gdpr',
    {
      // ADR 0073: the account's whole history, read and streamed.
      preHandler: [customer.preHandler, routeRateLimit(app, 'personal-data-report', ROUTE_RATE_LIMITS.personalDataReport)],
      schema: {
        tags: ['customers'],
        summary: 'The personal-data report: a JSON attachment, streamed',
        security: customer.security,
        querystring: z.object({ id: idSchema }),
        // No response schema: the body is the JSON document, streamed as it is read.
        produces: ['application/json'],
      },
    },
    async (request, reply) => {
      const { userId } = currentUser(request);
      const pieces = await service.openReport({ customerId: userId, id: request.query.id });
      const body = Readable.from(pieces, { objectMode: false });
      // A failure half-way cannot change the status any more: the reply ends short, and the log says why.
      body.on('error', (error) => request.log.error({ err: error, userId }, 'personal-data report ended early'));
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="personal-data-${userId}.json"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  );

  app.get(
    '/api/en/customers/customer/sessions',
    {
      preHandler: customer.preHandler,
      schema: {
        tags: ['customers'],
        summary: 'The signed-in devices (one per refresh-token family), the current one marked',
        security: customer.security,
        response: { 200: sessionListSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return { sessions: await service.listSessions({ customerId: user.userId, sid: user.sid ?? null }) };
    },
  );

  app.delete(
    '/api/en/customers/customer/sessions/:sessionId',
    {
      preHandler: customer.preHandler,
      schema: {
        tags: ['customers'],
        summary: "End one session: its refresh and access tokens stop working; another account's session is a 404",
        security: customer.security,
        params: z.object({ sessionId: z.string().min(1).max(128) }),
        response: { 200: messageBodySchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      await service.endSession({ customerId: currentUser(request).userId, sessionId: request.params.sessionId });
      return { message: CUSTOMER_MESSAGE.sessionEnded };
    },
  );

  app.delete(
    '/api/en/customers/customer/sessions',
    {
      preHandler: customer.preHandler,
      schema: {
        tags: ['customers'],
        summary: 'End every session but this one',
        security: customer.security,
        response: { 200: messageBodySchema.extend({ ended: z.number().int() }), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const ended = await service.endOtherSessions({ customerId: user.userId, sid: user.sid ?? null });
      return { message: CUSTOMER_MESSAGE.otherSessionsEnded, ended };
    },
  );

  app.get(
    '/api/en/customers/customer',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['customers'],
        summary: 'The signed-in customer profile',
        security: bearer,
        response: { 200: customerSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.getProfile({ customerId: currentUser(request).userId }),
  );

  app.put(
    '/api/en/customers/customer',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['customers'],
        summary: 'Update name, phone and contact preferences',
        security: bearer,
        body: customerUpdateBodySchema,
        response: { 200: customerSchema, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => service.updateProfile({ customerId: currentUser(request).userId, update: request.body }),
  );

  app.put(
    '/api/en/customers/customer/billing',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['customers'],
        summary: 'Set the billing details printed on the next receipts (issued documents keep theirs)',
        security: bearer,
        body: billingDetailsSchema,
        response: { 200: customerSchema, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => service.updateBilling({ customerId: currentUser(request).userId, billing: request.body }),
  );

  // The emailed token is the proof: the link may be opened in a browser that is not signed in. An access
  // token of the same account, when sent, shows the proof came from a browser holding its session (ADR 0038).
  app.put(
    '/api/en/customers/customer/emails/confirm',
    {
      schema: {
        tags: ['customers'],
        summary: 'Confirm the email with the emailed token (status 3 becomes 1)',
        body: emailConfirmBodySchema,
        response: { 200: customerSchema.extend({ message: z.string().optional() }), ...errorResponses(400, 422) },
      },
    },
    async (request) => service.confirmEmail({ token: request.body.token, sessionUserId: await app.optionalUserId(request) }),
  );

  app.post(
    '/api/en/customers/customer/emails/change',
    {
      // ADR 0097: an argon2 check and two mails per request.
      preHandler: [customer.preHandler, routeRateLimit(app, 'email-change', ROUTE_RATE_LIMITS.emailChange)],
      schema: {
        tags: ['customers'],
        summary:
          'Ask to change the email (ADR 0097): a one-time link to the new address, bound to this session; the old address is told; the email stays until the link is used',
        security: customer.security,
        body: emailChangeBodySchema,
        response: { 202: messageBodySchema.extend({ email: z.string() }), ...errorResponses(400, 401, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      return reply
        .status(202)
        .send(await service.requestEmailChange({ customerId: user.userId, sid: user.sid ?? null, body: request.body }));
    },
  );

  app.put(
    '/api/en/customers/customer/emails/change/confirm',
    {
      preHandler: [customer.preHandler, routeRateLimit(app, 'email-change-confirm', ROUTE_RATE_LIMITS.emailChange)],
      schema: {
        tags: ['customers'],
        summary:
          "Change the email with the link's token (ADR 0097): once, only with a session of the same account, while the session that asked is live",
        security: customer.security,
        body: emailChangeConfirmBodySchema,
        response: { 200: customerSchema.extend({ message: z.string() }), ...errorResponses(400, 401, 404, 409, 422, 429) },
      },
    },
    async (request) => service.confirmEmailChange({ customerId: currentUser(request).userId, token: request.body.token }),
  );

  app.post(
    '/api/en/customers/customer/emails/resend',
    {
      onRequest: authRateLimit(app, 'confirm-resend').onRequest,
      preHandler: [app.requireCustomer, authRateLimit(app, 'confirm-resend').preHandler],
      schema: {
        tags: ['customers'],
        summary: 'Send the confirmation email again',
        security: bearer,
        response: { 200: messageBodySchema, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => {
      await service.resendConfirmation({ customerId: currentUser(request).userId });
      return { message: CUSTOMER_MESSAGE.confirmationResent };
    },
  );
};
