import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUTH_MESSAGE,
  checkmailBodySchema,
  checkmailResponseSchema,
  DomainError,
  ERROR_CODE,
  forgotPasswordBodySchema,
  magicLinkBodySchema,
  messageBodySchema,
  passwordResetBodySchema,
  signInBodySchema,
  signUpBodySchema,
  termsAcceptanceBodySchema,
  termsStatusSchema,
  tokensSchema,
} from '@app/domain';
import { bearerToken, currentUser } from '../../plugins/auth';
import { multipartFields } from '../../plugins/form-body';
import { authRateLimit } from '../../plugins/rate-limit';
import type { AuthService } from './auth.service';
import { bearer, errorResponses } from '../../lib/route-schemas';

/** The refresh token travels as the bearer on refresh and logout (SPEC §7); missing is a 401. */
const refreshTokenOf = (request: FastifyRequest): string => {
  const token = bearerToken(request);
  if (!token) throw new DomainError(ERROR_CODE.unauthorized, 'Refresh token is missing');
  return token;
};

/** Where a session is signed in or refreshed from: the device list of the profile (ADR 0053). */
export const clientOf = (request: FastifyRequest): { userAgent: string; ip: string } => ({
  userAgent: request.headers['user-agent'] ?? '',
  ip: request.ip,
});

export const authRoutes: FastifyPluginAsyncZod<{ service: AuthService }> = async (app, { service }) => {
  app.post(
    '/api/en/auth/jwt/sign_in',
    {
      ...authRateLimit(app, 'sign-in'),
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password (customers, writers and support)',
        body: signInBodySchema,
        response: { 200: tokensSchema, ...errorResponses(400, 422, 429) },
      },
    },
    async (request) => service.signIn({ ...request.body, client: clientOf(request) }),
  );

  app.post(
    '/api/en/auth/jwt/sign_up',
    {
      ...authRateLimit(app, 'sign-up'),
      schema: {
        tags: ['auth'],
        summary: 'Create a customer account (status 3, Awaiting Confirmation) and sign in',
        body: signUpBodySchema,
        response: { 200: tokensSchema, ...errorResponses(422, 429) },
      },
    },
    async (request) => {
      const b = request.body;
      return service.signUp({
        email: b.email,
        password: b.password,
        firstName: b.firstName,
        lastName: b.lastName,
        phone: b.phone,
        isEnabledNightCall: b.isEnabledNightCall,
        refId: b.ref_id,
        hashDevice: b.hashDevice,
        ip: request.ip,
        userAgent: clientOf(request).userAgent,
        termsAccepted: b.terms === true,
      });
    },
  );

  app.get(
    '/api/en/customers/terms',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['auth'],
        summary: 'The current versions of the Terms of Use and the Privacy Policy, and whether the customer accepted both',
        security: bearer,
        response: { 200: termsStatusSchema, ...errorResponses(401) },
      },
    },
    async (request) => service.termsStatus({ userId: currentUser(request).userId }),
  );

  app.post(
    '/api/en/customers/terms/acceptances',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['auth'],
        summary: 'Accept the versions shown (recorded with the time, IP and user agent); 409 when they are no longer current',
        security: bearer,
        body: termsAcceptanceBodySchema,
        response: { 200: termsStatusSchema, ...errorResponses(401, 409, 422) },
      },
    },
    async (request) => service.acceptTerms({ userId: currentUser(request).userId, body: request.body, client: clientOf(request) }),
  );

  app.put(
    '/api/en/auth/jwt/refresh',
    {
      schema: {
        tags: ['auth'],
        summary: 'Rotate the refresh token (sent as the bearer) and get a new pair',
        security: bearer,
        response: { 200: tokensSchema, ...errorResponses(401) },
      },
    },
    async (request) => service.refresh({ refreshToken: refreshTokenOf(request), client: clientOf(request) }),
  );

  app.post(
    '/api/en/auth/jwt/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke the refresh token sent as the bearer (idempotent)',
        security: bearer,
        response: { 200: z.object({}), ...errorResponses(401) },
      },
    },
    async (request) => {
      await service.logout({ refreshToken: refreshTokenOf(request) });
      return {};
    },
  );

  app.post(
    '/api/checkmail',
    {
      preValidation: multipartFields,
      ...authRateLimit(app, 'checkmail'),
      schema: {
        tags: ['auth'],
        summary: "Is the email registered? 'fail' when it is, 'success' when it is free",
        body: checkmailBodySchema,
        response: { 200: checkmailResponseSchema, ...errorResponses(422, 429) },
      },
    },
    async (request) => ({ status: await service.checkEmail(request.body) }),
  );

  app.post(
    '/api/magic_link',
    {
      preValidation: multipartFields,
      ...authRateLimit(app, 'magic-link-request'),
      schema: {
        tags: ['auth'],
        summary: 'Email a one-time sign-in link (12 hours)',
        body: magicLinkBodySchema,
        response: { 200: messageBodySchema, ...errorResponses(404, 422, 429) },
      },
    },
    async (request) => {
      await service.requestMagicLink(request.body);
      return { message: AUTH_MESSAGE.emailOnItsWay };
    },
  );

  app.get(
    '/api/en/auth/magic_link/:token',
    {
      ...authRateLimit(app, 'magic-link-sign-in'),
      schema: {
        tags: ['auth'],
        summary: 'Sign in with an emailed link, once (an access token of the same account keeps its sessions, ADR 0038)',
        params: z.object({ token: z.string().min(1).max(256) }),
        response: { 200: tokensSchema.extend({ message: z.string().optional() }), ...errorResponses(404, 429) },
      },
    },
    async (request) =>
      service.signInWithMagicLink({
        token: request.params.token,
        sessionUserId: await app.optionalUserId(request),
        client: clientOf(request),
      }),
  );

  app.post(
    '/forgotpassword',
    {
      preValidation: multipartFields,
      ...authRateLimit(app, 'forgot-password'),
      schema: {
        tags: ['auth'],
        summary: 'Email a one-time link to set a new password: 0 on success, 1 for an unknown email',
        body: forgotPasswordBodySchema,
        response: { 200: z.union([z.literal(0), z.literal(1)]), ...errorResponses(422, 429) },
      },
    },
    async (request, reply) => reply.type('application/json').send(await service.forgotPassword({ email: request.body.mail })),
  );

  app.put(
    '/api/en/auth/password/reset',
    {
      // ADR 0073: the new password is hashed (argon2) before the token is looked up; no account, so per
      // client address, CONTRACT's 10 a minute.
      onRequest: authRateLimit(app, 'password-reset').onRequest,
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the emailed one-time token; ends every session',
        body: passwordResetBodySchema,
        response: { 200: messageBodySchema, ...errorResponses(400, 422, 429) },
      },
    },
    async (request) => {
      await service.resetPassword(request.body);
      return { message: AUTH_MESSAGE.passwordChanged };
    },
  );
};
