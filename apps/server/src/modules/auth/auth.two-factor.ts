import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { DomainError, ERROR_CODE, isAdminRole, isStaffRole, type TwoFactorSetup, type TwoFactorStatus } from '@app/domain';
import type { Db, Queryable } from '../../db/client';
import { row, setPending, spend, turnOn } from './auth.two-factor.repo';
import type { Clock } from '../../lib/clock';

/** ADR 0090: the messages of two-factor sign-in (not SPEC texts). */
export const TWO_FACTOR_MESSAGE = {
  codeNeeded: 'Enter the 6-digit code from your authenticator app',
  codeWrong: 'That code is not right. Enter the code your authenticator app shows now.',
  noSetup: 'Start the set-up again: no QR code is waiting for a code',
  staffOnly: 'Two-factor sign-in is for staff accounts',
} as const;

/** A code is accepted for the 30 s step it names and one step either side (clock drift), each step once. */
const EPOCH_TOLERANCE_S = 30;
const STEP_S = 30;
const CODE_PATTERN = /^\d{6}$/;
const ISSUER = 'Writing Service staff';

/**
 * Secrets at rest: AES-256-GCM under a key derived from the JWT secret (app.ts), never stored. The stored
 * text is `iv.ciphertext.tag` in base64url; a key that does not fit fails the check (never a 500 with the
 * secret in it). Neither the secret nor a code is ever logged.
 */
const encrypt = (key: Buffer, plain: string): string => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, body, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.');
};
const decrypt = (key: Buffer, stored: string): string | null => {
  const [iv, body, tag] = stored.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !body || !tag) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
};

/** The time step a code matches, or null (otplib: RFC 6238, SHA-1, 6 digits, 30 s). */
const matchingStep = async (secret: string, code: string, now: Date): Promise<number | null> => {
  if (!CODE_PATTERN.test(code)) return null;
  const epoch = Math.floor(now.getTime() / 1000);
  const result = await verify({ secret, token: code, epoch, epochTolerance: EPOCH_TOLERANCE_S });
  return result.valid ? Math.floor(epoch / STEP_S) + result.delta : null;
};

/**
 * Two-factor sign-in (TOTP) for staff accounts (ADR 0090): set up with a QR code, turned on by a first
 * good code, asked at every password sign-in once on. Admins must turn it on before the admin routes open.
 * The auth module owns `users`, where the encrypted secret lives.
 */
export const createTwoFactor = ({ db, clock, key }: { db: Db; clock: Clock; key: Buffer }) => {
  return {
    enabled: async (userId: number): Promise<boolean> => ((await row(db, userId))?.totp_enabled_at ?? null) !== null,

    status: async (userId: number): Promise<TwoFactorStatus> => {
      const r = await row(db, userId);
      return { enabled: r?.totp_enabled_at !== null && r?.totp_enabled_at !== undefined, required: r ? isAdminRole(r.role) : false };
    },

    /** A new secret waiting for its first code (an earlier one waiting is replaced); the QR code as SVG. */
    setup: async (userId: number): Promise<TwoFactorSetup> => {
      const r = await row(db, userId);
      if (!r || !isStaffRole(r.role)) throw new DomainError(ERROR_CODE.forbidden, TWO_FACTOR_MESSAGE.staffOnly);
      const secret = generateSecret();
      await setPending(db, { userId, pendingEnc: encrypt(key, secret) });
      const otpauthUrl = generateURI({ issuer: ISSUER, label: r.email, secret });
      const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      return { secret, otpauthUrl, qrSvg };
    },

    /**
     * The first good code turns it on: the waiting secret becomes the account's, in `tx` (the caller's
     * transaction also records the audit entry). 422 for a wrong code, nothing changed.
     */
    enable: async (tx: Queryable, { userId, code }: { userId: number; code: string }): Promise<void> => {
      const r = await row(tx, userId);
      const pending = r?.totp_pending_enc ? decrypt(key, r.totp_pending_enc) : null;
      if (!r || !pending) throw new DomainError(ERROR_CODE.validation, TWO_FACTOR_MESSAGE.noSetup, { code: [TWO_FACTOR_MESSAGE.noSetup] });
      const step = await matchingStep(pending, code, clock.now());
      if (step === null)
        throw new DomainError(ERROR_CODE.validation, TWO_FACTOR_MESSAGE.codeWrong, { code: [TWO_FACTOR_MESSAGE.codeWrong] });
      await turnOn(tx, { userId, now: clock.now(), step });
    },

    /**
     * The sign-in's second step: nothing for an account without two-factor; otherwise a code of the
     * current step (or one either side) not used before. A 400 with `errors.otp`, as a wrong password is a
     * 400 (CONTRACT "Errors and access"), so the sign-in form asks for the code.
     */
    checkSignIn: async ({ userId, code }: { userId: number; code: string | undefined }): Promise<void> => {
      const r = await row(db, userId);
      if (!r?.totp_enabled_at || !r.totp_secret_enc) return;
      if (!code) throw new DomainError(ERROR_CODE.badRequest, TWO_FACTOR_MESSAGE.codeNeeded, { otp: [TWO_FACTOR_MESSAGE.codeNeeded] });
      const secret = decrypt(key, r.totp_secret_enc);
      const step = secret === null ? null : await matchingStep(secret, code.trim(), clock.now());
      if (step === null || !(await spend(db, userId, step))) {
        throw new DomainError(ERROR_CODE.badRequest, TWO_FACTOR_MESSAGE.codeWrong, { otp: [TWO_FACTOR_MESSAGE.codeWrong] });
      }
    },
  };
};
export type TwoFactor = ReturnType<typeof createTwoFactor>;
