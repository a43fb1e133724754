import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CUSTOMER_MESSAGE, customerSchema, customerUpdateBodySchema, emailConfirmBodySchema, errorBodySchema, messageBodySchema } from '@app/domain';
import { currentUser } from '../../plugins/auth';
import { authRateLimit } from '../../plugins/rate-limit';
import type { CustomersService } from './customers.service';


export const customersRoutes: FastifyPluginAsyncZod<{ service: CustomersService }> = async (app, { service }) => {
  app.get(
    '/api/en/customers/customer',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['customers'],
        summary: 'The signed-in customer profile',
        security: [{ bearer: [] }],
        response: { 200: customerSchema, 401: errorBodySchema, 404: errorBodySchema },
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
        security: [{ bearer: [] }],
        body: customerUpdateBodySchema,
        response: { 200: customerSchema, 401: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema },
      },
    },
    async (request) => service.updateProfile({ customerId: currentUser(request).userId, update: request.body }),
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
        response: { 200: customerSchema.extend({ message: z.string().optional() }), 400: errorBodySchema, 422: errorBodySchema },
      },
    },
    async (request) => service.confirmEmail({ token: request.body.token, sessionUserId: await app.optionalUserId(request) }),
  );

  app.post(
    '/api/en/customers/customer/emails/resend',
    {
      onRequest: authRateLimit(app, 'confirm-resend').onRequest,
      preHandler: [app.requireCustomer, authRateLimit(app, 'confirm-resend').preHandler],
      schema: {
        tags: ['customers'],
        summary: 'Send the confirmation email again',
        security: [{ bearer: [] }],
        response: { 200: messageBodySchema, 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      await service.resendConfirmation({ customerId: currentUser(request).userId });
      return { message: CUSTOMER_MESSAGE.confirmationResent };
    },
  );
};
