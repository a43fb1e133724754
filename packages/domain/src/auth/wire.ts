import { z } from 'zod';

import {
  AUTH_MESSAGE,
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  TERMS_VERSION_MAX_LENGTH,
  isValidEmail,
} from './rules/index';

export const emailSchema = z.string().trim().max(EMAIL_MAX_LENGTH).refine(isValidEmail, { message: AUTH_MESSAGE.invalidEmail });

export const tokensSchema = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type Tokens = z.infer<typeof tokensSchema>;

export const signInBodySchema = z.object({
  email: z.string().trim().min(1, AUTH_MESSAGE.invalidEmail).max(EMAIL_MAX_LENGTH),
  password: z.string().min(1, AUTH_MESSAGE.passwordMandatory).max(PASSWORD_MAX_LENGTH),
  hashDevice: z.string().max(128).optional(),
  /** ADR 0090: the authenticator's 6-digit code, for a staff account with two-factor sign-in on. */
  otp: z.string().trim().max(10).optional(),
});
export type SignInBody = z.infer<typeof signInBodySchema>;

/** SPEC §7 sign_up body. Password is optional (CONTRACT "Identity": the server then sets a random one). */
export const signUpBodySchema = z.object({
  email: z.string().trim().max(EMAIL_MAX_LENGTH),
  password: z.string().max(PASSWORD_MAX_LENGTH).optional(),
  firstName: z.string().trim().max(NAME_MAX_LENGTH).optional().default(''),
  lastName: z.string().trim().max(NAME_MAX_LENGTH).optional().default(''),
  phone: z.string().trim().max(32).optional().default(''),
  isEnabledNightCall: z.boolean().optional().default(false),
  ref_id: z.union([z.string(), z.number()]).optional().nullable(),
  hashDevice: z.string().max(128).optional(),
  /**
   * Issue 24 (ADR 0085): the checkout's terms checkbox was ticked; the current versions of the Terms and
   * the Privacy Policy are recorded as accepted with the time, address and browser. Without it the
   * account is made and the dialog asks after sign-in.
   */
  terms: z.boolean().optional(),
});
export type SignUpBody = z.input<typeof signUpBodySchema>;

/** GET /api/en/customers/terms: the current versions and whether this customer accepted both. */
export const termsStatusSchema = z.object({
  termsVersion: z.string(),
  privacyVersion: z.string(),
  accepted: z.boolean(),
  /** ISO 8601: the customer's last acceptance, null when none is on record. */
  acceptedAt: z.string().nullable(),
});
export type TermsStatus = z.infer<typeof termsStatusSchema>;

/** POST /api/en/customers/terms/acceptances: the versions the customer read (409 when they are no longer current). */
export const termsAcceptanceBodySchema = z.object({
  termsVersion: z.string().min(1).max(TERMS_VERSION_MAX_LENGTH),
  privacyVersion: z.string().min(1).max(TERMS_VERSION_MAX_LENGTH),
});
export type TermsAcceptanceBody = z.infer<typeof termsAcceptanceBodySchema>;

export const checkmailBodySchema = z.object({ email: z.string().trim().max(EMAIL_MAX_LENGTH) });
/** CONTRACT: 'fail' when the email is registered, 'success' when it is free. */
export const checkmailResponseSchema = z.object({ status: z.enum(['fail', 'success']) });

/** CONTRACT "Identity": the emailed link opens `/order?magicLink=…` or `/dashboard?magicLink=…`. */
export const MAGIC_LINK_TARGETS = ['order', 'dashboard'] as const;
export type MagicLinkTarget = (typeof MAGIC_LINK_TARGETS)[number];
export const magicLinkBodySchema = z.object({
  email: z.string().trim().max(EMAIL_MAX_LENGTH),
  target: z.enum(MAGIC_LINK_TARGETS).optional().default('dashboard'),
});
export const forgotPasswordBodySchema = z.object({ mail: z.string().trim().max(EMAIL_MAX_LENGTH) });

export const passwordResetBodySchema = z.object({
  token: z.string().min(1).max(256),
  password: z.string().min(PASSWORD_MIN_LENGTH, AUTH_MESSAGE.passwordTooShort).max(PASSWORD_MAX_LENGTH),
});

export const messageBodySchema = z.object({ message: z.string() });

/** CONTRACT "Staff side": GET /api/staff/me. */
export const staffMeSchema = z.object({
  id: z.number().int(),
  role: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});
export type StaffMe = z.infer<typeof staffMeSchema>;
