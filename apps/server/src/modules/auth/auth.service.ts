import { createHmac } from 'node:crypto';
import {
  ACCOUNT_DELETION_LINK_TTL_SECONDS,
  ACCOUNT_DELETION_PARAM,
  AUTH_MESSAGE,
  CUSTOMER_MESSAGE,
  CUSTOMER_STATUS,
  DomainError,
  EMAIL_CHANGE_PARAM,
  EMAIL_CHANGE_TTL_SECONDS,
  EMAIL_CONFIRM_TTL_SECONDS,
  ERROR_CODE,
  FORGOT_PASSWORD_RESULT,
  MAGIC_LINK_TTL_SECONDS,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RESET_TTL_SECONDS,
  PROFILE_PHONE_MAX_LENGTH,
  REFRESH_TOKEN_TTL_SECONDS,
  ROLE,
  deviceFromUserAgent,
  isValidEmail,
  isValidName,
  normalizeEmail,
  type FieldErrors,
  type MagicLinkTarget,
  type Session,
  type TermsAcceptanceBody,
  type TermsStatus,
  type Tokens,
} from '@app/domain';
import type { AppContext } from '../../context';
import type { TermsRecord } from './auth.terms';
import type { TwoFactor } from './auth.two-factor';
import { hashPassword, verifyPassword } from '../../lib/password';
import { hashToken, randomToken } from '../../lib/tokens';
import {
  accountDeletionMail,
  confirmEmailMail,
  emailChangedMail,
  emailChangeMail,
  emailChangeRequestedMail,
  magicLinkMail,
  passwordRemovedMail,
  passwordResetMail,
  welcomeMail,
} from './auth.mails';
import type { AccountRow, AuthRepo, OneTimePurpose, SessionClient } from './auth.repo';
import { notFound } from '../../lib/errors';

/**
 * ADR 0069: sessions of an account that just ended, by ids only: `sids` names them (refresh-token
 * families); without it every session of the account ended but `exceptSid`, if any.
 */
export interface SessionsEnded {
  userId: number;
  sids?: readonly string[];
  exceptSid?: string | null;
}

type AuthDeps = Pick<AppContext, 'clock' | 'tokens' | 'mailer' | 'origin' | 'log'> & {
  repo: AuthRepo;
  /** ADR 0061: the secret a refresh token's child is derived from (shared by every instance). */
  rotationKey: () => Promise<string>;
  /** ADR 0051: a sign-up with a valid ref_id becomes a referral (the loyalty module records it). */
  onReferredSignUp?: (e: { referrerId: number; referredId: number; hashDevice: string; now: Date }) => Promise<void>;
  /** ADR 0069: told after every committed end of sessions (the chat closes their sockets on every instance). */
  onSessionsEnded?: (ended: SessionsEnded) => void;
  /** ADR 0085: the terms on record (sign-up with the checkbox ticked, the dialog's acceptance). */
  terms?: TermsRecord;
  /** ADR 0090: staff two-factor sign-in: the code after the password; no magic link past it. */
  twoFactor?: Pick<TwoFactor, 'checkSignIn' | 'enabled'>;
};

const DEACTIVATED = CUSTOMER_STATUS.deactivated.id;
/** ADR 0061: how long after a rotation the same refresh token may ask for it again (its answer was lost). */
const REFRESH_REPLAY_SECONDS = 30;
const plusSeconds = (date: Date, seconds: number): Date => new Date(date.getTime() + seconds * 1000);
const unauthorized = (): DomainError => new DomainError(ERROR_CODE.unauthorized, 'Refresh token is invalid or expired');

export interface SignUpInput {
  email: string;
  password: string | undefined;
  firstName: string;
  lastName: string;
  phone: string;
  isEnabledNightCall: boolean;
  refId: string | number | null | undefined;
  hashDevice: string | undefined;
  ip: string;
  userAgent?: string;
  /** ADR 0085: the terms checkbox was ticked; the current versions are recorded as accepted. */
  termsAccepted?: boolean;
}

export const createAuthService = ({
  repo,
  rotationKey,
  clock,
  tokens,
  mailer,
  origin,
  log,
  onReferredSignUp,
  onSessionsEnded,
  terms,
  twoFactor,
}: AuthDeps) => {
  /**
   * ADR 0069: the one place that announces ended sessions, after the revocation committed. The HTTP
   * answer never waits for it or fails with it: the sockets' periodic re-check is the safety net.
   */
  const sessionsEnded = (ended: SessionsEnded): void => {
    try {
      onSessionsEnded?.(ended);
    } catch (error) {
      log.warn({ err: error, userId: ended.userId }, 'ended sessions not announced');
    }
  };
  // ADR 0061: the child of a refresh token is a keyed hash of it, so asking again for a rotation whose
  // answer was lost (a reload, a dropped connection) gets the same child instead of revoking the family.
  const childOf = async (refreshToken: string): Promise<string> =>
    createHmac('sha256', await rotationKey())
      .update(refreshToken)
      .digest('base64url');
  // Unknown emails still pay for one hash check, so timing does not tell which emails exist.
  let dummyHash: Promise<string> | undefined;
  const burnPasswordCheck = async (password: string): Promise<void> => {
    dummyHash ??= hashPassword(randomToken());
    await verifyPassword(await dummyHash, password);
  };

  /** A new session (refresh-token family); the access token names it (`sid`, ADR 0053). */
  const issueTokens = async (account: { id: number; role: number }, client?: SessionClient): Promise<Tokens> => {
    const now = clock.now();
    const familyId = randomToken();
    const refreshToken = randomToken();
    await repo.insertRefreshToken({
      userId: account.id,
      familyId,
      tokenHash: hashToken(refreshToken),
      expiresAt: plusSeconds(now, REFRESH_TOKEN_TTL_SECONDS),
      now,
      client,
    });
    return { accessToken: await tokens.sign({ userId: account.id, role: account.role, sid: familyId }), refreshToken };
  };

  const newOneTimeToken = async (userId: number, purpose: OneTimePurpose, ttlSeconds: number): Promise<string> => {
    const now = clock.now();
    const token = randomToken();
    await repo.insertOneTimeToken({ userId, purpose, tokenHash: hashToken(token), expiresAt: plusSeconds(now, ttlSeconds), now });
    return token;
  };

  const confirmUrlFor = async (userId: number): Promise<string> =>
    `${origin}/profile?confirmEmail=${await newOneTimeToken(userId, 'email_confirm', EMAIL_CONFIRM_TTL_SECONDS)}`;

  /** A deactivated account (CONTRACT status 4) is treated as absent by every sign-in path. */
  const activeAccountByEmail = async (email: string): Promise<AccountRow | null> => {
    const account = await repo.findAccountByEmail(normalizeEmail(email));
    return account && account.statusId !== DEACTIVATED ? account : null;
  };

  const resetUrlFor = async (userId: number): Promise<string> =>
    `${origin}/reset-password?token=${await newOneTimeToken(userId, 'password_reset', PASSWORD_RESET_TTL_SECONDS)}`;

  /**
   * ADR 0038: a proof of the mailbox. `sessionUserId` is the account of the access token the request
   * carried, if any: the same account means the proof came from a browser holding its session.
   * When a password chosen before the first proof is removed, the customer is told by mail how to set one.
   */
  const proveMailbox = async (
    account: { id: number; email: string; firstName: string },
    sessionUserId: number | null,
  ): Promise<boolean> => {
    const { passwordRemoved, sessionsEnded: ended } = await repo.proveMailbox({
      userId: account.id,
      sameSession: sessionUserId === account.id,
      now: clock.now(),
    });
    if (ended) sessionsEnded({ userId: account.id });
    if (passwordRemoved) {
      log.info({ userId: account.id }, 'mailbox proven from another browser: unproven password removed, sessions revoked');
      const mail = passwordRemovedMail({ to: account.email, firstName: account.firstName, resetUrl: await resetUrlFor(account.id) });
      await mailer.send(mail).catch((error: unknown) => log.error({ err: error, userId: account.id }, 'password-removed mail not sent'));
    }
    return passwordRemoved;
  };

  const referrerIdOf = async (refId: SignUpInput['refId']): Promise<number | null> => {
    if (refId === null || refId === undefined || refId === '') return null;
    const id = Number(refId);
    if (!Number.isSafeInteger(id) || id <= 0) return null;
    return (await repo.customerExists(id)) ? id : null;
  };

  return {
    /** CONTRACT "Errors and access": wrong credentials answer 400 with a message, never 401. */
    signIn: async ({
      email,
      password,
      hashDevice,
      otp,
      client,
    }: {
      email: string;
      password: string;
      hashDevice?: string | undefined;
      /** ADR 0090: the authenticator's code, for an account with two-factor sign-in on */
      otp?: string | undefined;
      client?: SessionClient;
    }): Promise<Tokens> => {
      const account = isValidEmail(email) ? await activeAccountByEmail(email) : null;
      if (!account) {
        await burnPasswordCheck(password);
        throw new DomainError(ERROR_CODE.badRequest, AUTH_MESSAGE.wrongCredentials);
      }
      if (!(await verifyPassword(account.passwordHash, password))) {
        throw new DomainError(ERROR_CODE.badRequest, AUTH_MESSAGE.wrongCredentials);
      }
      // ADR 0090: only after the right password is the code asked for (a wrong password never learns of it).
      await twoFactor?.checkSignIn({ userId: account.id, code: otp });
      if (hashDevice) await repo.setHashDevice(account.id, hashDevice);
      return issueTokens(account, client);
    },

    /** SPEC §7 sign_up; SPEC §8 "Signup and login" messages; CONTRACT "Identity" (status 3, optional password). */
    /** ADR 0085: the current versions of the Terms and Privacy Policy and whether the customer accepted both. */
    termsStatus: async ({ userId }: { userId: number }): Promise<TermsStatus> => {
      if (!terms) throw new Error('terms record not configured');
      return terms.status(userId);
    },

    /** ADR 0085: the dialog's acceptance, of the versions it showed (409 when they are no longer current). */
    acceptTerms: async ({
      userId,
      body,
      client,
    }: {
      userId: number;
      body: TermsAcceptanceBody;
      client: SessionClient;
    }): Promise<TermsStatus> => {
      if (!terms) throw new Error('terms record not configured');
      return terms.accept({ customerId: userId, body, client: { ip: client.ip, userAgent: client.userAgent } });
    },

    signUp: async (input: SignUpInput): Promise<Tokens> => {
      const errors: FieldErrors = {};
      const email = normalizeEmail(input.email);
      if (!isValidName(input.firstName)) errors.firstName = [AUTH_MESSAGE.invalidName];
      if (input.lastName && !isValidName(input.lastName)) errors.lastName = [AUTH_MESSAGE.invalidName];
      if (!isValidEmail(email)) errors.email = [AUTH_MESSAGE.invalidEmailSignup];
      if (input.password !== undefined && input.password !== '' && input.password.length < PASSWORD_MIN_LENGTH) {
        errors.password = [AUTH_MESSAGE.passwordTooShort];
      }
      // SPEC §5 "Profile": phones are kept as digits only, at most 21 of them.
      const phone = input.phone.replace(/\D/g, '');
      if (phone.length > PROFILE_PHONE_MAX_LENGTH) errors.phone = ['Phone accepts digits only, max 21 characters'];
      if (Object.keys(errors).length > 0) throw new DomainError(ERROR_CODE.validation, 'Invalid request', errors);

      const registered = (): DomainError =>
        new DomainError(ERROR_CODE.validation, AUTH_MESSAGE.emailRegistered, { email: [AUTH_MESSAGE.emailRegistered] });
      if (await repo.emailExists(email)) throw registered();

      const chosePassword = Boolean(input.password);
      const referrerId = await referrerIdOf(input.refId);
      const userId = await repo.insertUser({
        role: ROLE.customer,
        email,
        passwordHash: await hashPassword(chosePassword && input.password ? input.password : randomToken()),
        firstName: input.firstName,
        lastName: input.lastName,
        phone,
        statusId: CUSTOMER_STATUS.awaitingConfirmation.id,
        enabledNightCalls: input.isEnabledNightCall,
        referrerId,
        hashDevice: input.hashDevice ?? '',
        ipClient: input.ip,
        passwordUnproven: chosePassword,
        passwordSet: chosePassword,
        now: clock.now(),
      });
      // The unique index on lower(email) settles a race between two sign-ups of one address.
      if (userId === null) throw registered();
      if (referrerId !== null && onReferredSignUp) {
        // The account stands whatever happens to its referral (ADR 0051): a failure is logged, not shown.
        await onReferredSignUp({ referrerId, referredId: userId, hashDevice: input.hashDevice ?? '', now: clock.now() }).catch(
          (error: unknown) => log.error({ err: error, userId }, 'referral not recorded'),
        );
      }

      if (input.termsAccepted && terms) {
        // The account stands without it: the dialog after the next sign-in asks again (ADR 0085).
        await terms
          .recordSignUp(userId, { ip: input.ip, userAgent: input.userAgent ?? '' })
          .catch((error: unknown) => log.error({ err: error, userId }, 'terms acceptance not recorded'));
      }

      const magicLinkUrl = chosePassword
        ? null
        : `${origin}/order?magicLink=${await newOneTimeToken(userId, 'magic_link', MAGIC_LINK_TTL_SECONDS)}`;
      const mail = welcomeMail({ to: email, firstName: input.firstName, confirmUrl: await confirmUrlFor(userId), magicLinkUrl });
      // The account exists whatever the mail server does; the customer can ask for the mail again.
      await mailer.send(mail).catch((error: unknown) => log.error({ err: error, userId }, 'welcome mail not sent'));
      return issueTokens({ id: userId, role: ROLE.customer }, { userAgent: input.userAgent ?? '', ip: input.ip });
    },

    /** CONTRACT "Identity": rotated on every refresh; a rotated token presented again revokes its family. */
    refresh: async ({ refreshToken, client }: { refreshToken: string; client?: SessionClient }): Promise<Tokens> => {
      const now = clock.now();
      const tokenHash = hashToken(refreshToken);
      const child = await childOf(refreshToken);
      const rotated = await repo.rotateRefreshToken({
        tokenHash,
        childHash: hashToken(child),
        expiresAt: plusSeconds(now, REFRESH_TOKEN_TTL_SECONDS),
        now,
        replayAfter: plusSeconds(now, -REFRESH_REPLAY_SECONDS),
        client,
      });
      if (!rotated) {
        const reused = await repo.revokeFamilyIfRotated(tokenHash, now);
        if (reused) {
          log.warn('refresh token reuse detected: token family revoked');
          sessionsEnded({ userId: reused.userId, sids: [reused.familyId] });
        }
        throw unauthorized();
      }
      return { accessToken: await tokens.sign({ userId: rotated.userId, role: rotated.role, sid: rotated.familyId }), refreshToken: child };
    },

    logout: async ({ refreshToken }: { refreshToken: string }): Promise<void> => {
      const ended = await repo.revokeFamilyOf(hashToken(refreshToken), clock.now());
      if (ended) sessionsEnded({ userId: ended.userId, sids: [ended.familyId] });
    },

    /** CONTRACT: 'fail' when the email is registered, 'success' when it is free. */
    checkEmail: async ({ email }: { email: string }): Promise<'fail' | 'success'> => {
      if (!isValidEmail(email)) {
        throw new DomainError(ERROR_CODE.validation, AUTH_MESSAGE.invalidEmail, { email: [AUTH_MESSAGE.invalidEmail] });
      }
      return (await repo.emailExists(normalizeEmail(email))) ? 'fail' : 'success';
    },

    requestMagicLink: async ({ email, target }: { email: string; target: MagicLinkTarget }): Promise<void> => {
      if (!isValidEmail(email)) {
        throw new DomainError(ERROR_CODE.validation, AUTH_MESSAGE.emailMandatory, { email: [AUTH_MESSAGE.emailMandatory] });
      }
      const account = await activeAccountByEmail(email);
      if (!account) throw notFound(AUTH_MESSAGE.emailNotOnSite);
      // ADR 0090: a link is one factor; an account with two-factor sign-in gets none (answered the same).
      if (await twoFactor?.enabled(account.id)) return;
      const token = await newOneTimeToken(account.id, 'magic_link', MAGIC_LINK_TTL_SECONDS);
      await mailer.send(magicLinkMail({ to: account.email, firstName: account.firstName, url: `${origin}/${target}?magicLink=${token}` }));
    },

    /** Single use, 12 hours; opening the emailed link proves the address, so it also confirms it (ADR 0010). */
    signInWithMagicLink: async ({
      token,
      sessionUserId = null,
      client,
    }: {
      token: string;
      sessionUserId?: number | null;
      client?: SessionClient;
    }): Promise<Tokens & { message?: string }> => {
      const now = clock.now();
      const userId = await repo.consumeOneTimeToken({ purpose: 'magic_link', tokenHash: hashToken(token), now });
      const account = userId === null ? null : await repo.findAccountById(userId);
      if (!account || account.statusId === DEACTIVATED) throw notFound('This link is invalid or has expired');
      // ADR 0090: a link never signs in past a second factor.
      if (await twoFactor?.enabled(account.id)) throw notFound('This link is invalid or has expired');
      const passwordRemoved = await proveMailbox(account, sessionUserId);
      const tokens = await issueTokens(account, client);
      return passwordRemoved ? { ...tokens, message: AUTH_MESSAGE.unprovenPasswordRemoved } : tokens;
    },

    /** CONTRACT: 0 on success (a one-time link is mailed), 1 for an unknown email. */
    forgotPassword: async ({ email }: { email: string }): Promise<0 | 1> => {
      if (!isValidEmail(email)) {
        throw new DomainError(ERROR_CODE.validation, AUTH_MESSAGE.emailMandatory, { mail: [AUTH_MESSAGE.emailMandatory] });
      }
      const account = await activeAccountByEmail(email);
      if (!account) return FORGOT_PASSWORD_RESULT.unknownEmail;
      const token = await newOneTimeToken(account.id, 'password_reset', PASSWORD_RESET_TTL_SECONDS);
      await mailer.send(
        passwordResetMail({ to: account.email, firstName: account.firstName, url: `${origin}/reset-password?token=${token}` }),
      );
      return FORGOT_PASSWORD_RESULT.success;
    },

    /** A new password ends every session of the account and every other reset link. */
    resetPassword: async ({ token, password }: { token: string; password: string }): Promise<void> => {
      // One transaction: a failure half-way leaves the token unspent and the old password (ADR 0038).
      const userId = await repo.resetPassword({
        tokenHash: hashToken(token),
        passwordHash: await hashPassword(password),
        now: clock.now(),
      });
      if (userId === null) throw new DomainError(ERROR_CODE.badRequest, AUTH_MESSAGE.resetLinkInvalid);
      sessionsEnded({ userId });
    },

    /** CONTRACT "Identity": the link is {origin}/profile?confirmEmail={token}. */
    sendEmailConfirmation: async ({ userId }: { userId: number }): Promise<void> => {
      const account = await repo.findAccountById(userId);
      if (!account) throw notFound();
      if (await repo.isEmailConfirmed(userId)) throw new DomainError(ERROR_CODE.badRequest, CUSTOMER_MESSAGE.emailAlreadyConfirmed);
      await mailer.send(confirmEmailMail({ to: account.email, firstName: account.firstName, confirmUrl: await confirmUrlFor(userId) }));
    },

    /** ADR 0053: the account's signed-in devices, the one asking marked current. */
    listSessions: async ({ userId, currentSid }: { userId: number; currentSid: string | null }): Promise<Session[]> =>
      (await repo.listSessions(userId, clock.now()))
        .map((s) => ({
          id: s.familyId,
          device: deviceFromUserAgent(s.userAgent),
          ip: s.ip,
          signedInAt: s.signedInAt.toISOString(),
          lastSeenAt: s.lastSeenAt.toISOString(),
          current: s.familyId === currentSid,
        }))
        // This device first, then the others by when they were last seen.
        .sort((a, b) => Number(b.current) - Number(a.current)),

    /** Ends one session of the account: its refresh token and, through the liveness check, its access tokens. */
    endSession: async ({ userId, sessionId }: { userId: number; sessionId: string }): Promise<void> => {
      if (!(await repo.revokeSession({ userId, familyId: sessionId, now: clock.now() }))) throw notFound();
      sessionsEnded({ userId, sids: [sessionId] });
    },

    /** Ends every session of the account but the one asking; the count ended. */
    endOtherSessions: async ({ userId, currentSid }: { userId: number; currentSid: string | null }): Promise<number> => {
      const ended = await repo.revokeOtherSessions({ userId, keepFamilyId: currentSid, now: clock.now() });
      if (ended > 0) sessionsEnded({ userId, exceptSid: currentSid });
      return ended;
    },

    /**
     * ADR 0069: every session of the account ended with its deletion (the customers module's transaction
     * removed its tokens): announced like every other end of sessions.
     */
    accountDeleted: ({ userId }: { userId: number }): void => sessionsEnded({ userId }),

    /** ADR 0090: a staff account suspended or its password reset by an admin (tokens revoked in that transaction): announced the same way. */
    staffSessionsRevoked: ({ userId }: { userId: number }): void => sessionsEnded({ userId }),

    /**
     * SPEC §7 PUT …/customer/password: the current password proves the holder; the new one ends every other
     * session (this one stays signed in). A wrong current password changes nothing (ADR 0053).
     */
    changePassword: async (c: {
      userId: number;
      currentSid: string | null;
      currentPassword: string;
      newPassword: string;
    }): Promise<void> => {
      const account = await repo.findAccountById(c.userId);
      if (!account || account.statusId === DEACTIVATED) throw notFound();
      if (!(await verifyPassword(account.passwordHash, c.currentPassword))) {
        throw new DomainError(ERROR_CODE.badRequest, CUSTOMER_MESSAGE.somethingWentWrong, {
          currentPassword: [CUSTOMER_MESSAGE.wrongCurrentPassword],
        });
      }
      const changed = await repo.changePassword({
        userId: c.userId,
        expectedHash: account.passwordHash,
        passwordHash: await hashPassword(c.newPassword),
        keepFamilyId: c.currentSid,
        now: clock.now(),
      });
      // Another change won the race with the same current password: this one is refused, nothing changed.
      if (!changed) throw new DomainError(ERROR_CODE.conflict, CUSTOMER_MESSAGE.somethingWentWrong);
      sessionsEnded({ userId: c.userId, exceptSid: c.currentSid });
      log.info({ userId: c.userId }, 'password changed; other sessions ended');
    },

    /**
     * ADR 0070: the proof a deletion asks for. An account with a password must send it: missing or wrong is
     * a 400 naming the field (never 401, which the web app takes for an expired token). An account without
     * one is mailed a fresh link (older ones are spent) to {origin}/profile?deleteAccount={token}, and
     * nothing is deleted yet. 'proven' lets the deletion go ahead.
     */
    proveForDeletion: async ({ userId, password }: { userId: number; password: string | undefined }): Promise<'proven' | 'mailed'> => {
      const account = await repo.findAccountById(userId);
      if (!account || account.statusId === DEACTIVATED) throw notFound();
      if (!account.passwordSet) {
        const now = clock.now();
        await repo.spendOneTimeTokens({ userId, purpose: 'account_delete', now });
        const token = await newOneTimeToken(userId, 'account_delete', ACCOUNT_DELETION_LINK_TTL_SECONDS);
        await mailer.send(
          accountDeletionMail({
            to: account.email,
            firstName: account.firstName,
            url: `${origin}/profile?${ACCOUNT_DELETION_PARAM}=${token}`,
          }),
        );
        log.info({ userId }, 'account deletion: confirmation link mailed');
        return 'mailed';
      }
      if (!password) {
        throw new DomainError(ERROR_CODE.badRequest, CUSTOMER_MESSAGE.deletionPasswordMissing, {
          password: [CUSTOMER_MESSAGE.deletionPasswordMissing],
        });
      }
      if (!(await verifyPassword(account.passwordHash, password))) {
        log.info({ userId }, 'account deletion refused: wrong password');
        throw new DomainError(ERROR_CODE.badRequest, CUSTOMER_MESSAGE.deletionWrongPassword, {
          password: [CUSTOMER_MESSAGE.deletionWrongPassword],
        });
      }
      return 'proven';
    },

    /** ADR 0070: spends the mailed deletion link, only for the account it was made for; else a 400. */
    spendDeletionLink: async ({ userId, token }: { userId: number; token: string }): Promise<void> => {
      const spent = await repo.consumeOwnOneTimeToken({ userId, purpose: 'account_delete', tokenHash: hashToken(token), now: clock.now() });
      if (!spent) throw new DomainError(ERROR_CODE.badRequest, CUSTOMER_MESSAGE.deletionLinkInvalid);
    },

    /**
     * ADR 0097: asks to change the email. The new address must be valid, not the current one and not
     * another account's; an account with a password proves it is its holder with it. The link goes to the
     * new address (bound to this session), and the old address is told; the email stays until the link is used.
     */
    requestEmailChange: async (c: { userId: number; sid: string | null; email: string; password: string | undefined }): Promise<string> => {
      const account = await repo.findAccountById(c.userId);
      if (!account || account.statusId === DEACTIVATED) throw notFound();
      const email = normalizeEmail(c.email);
      const invalid = (field: string, message: string): DomainError =>
        new DomainError(ERROR_CODE.validation, message, { [field]: [message] });
      if (!isValidEmail(email)) throw invalid('email', AUTH_MESSAGE.invalidEmail);
      if (email === normalizeEmail(account.email)) throw invalid('email', CUSTOMER_MESSAGE.emailChangeSame);
      // A session without its id (issued before ADR 0053) cannot be bound: it signs in again first.
      if (c.sid === null) throw new DomainError(ERROR_CODE.unauthorized, 'Access Token is invalid or expired');
      if (account.passwordSet) {
        if (!c.password) {
          throw new DomainError(ERROR_CODE.badRequest, CUSTOMER_MESSAGE.emailChangePasswordMissing, {
            password: [CUSTOMER_MESSAGE.emailChangePasswordMissing],
          });
        }
        if (!(await verifyPassword(account.passwordHash, c.password))) {
          log.info({ userId: c.userId }, 'email change refused: wrong password');
          throw new DomainError(ERROR_CODE.badRequest, CUSTOMER_MESSAGE.emailChangeWrongPassword, {
            password: [CUSTOMER_MESSAGE.emailChangeWrongPassword],
          });
        }
      }
      if (await repo.emailExists(email)) throw invalid('email', CUSTOMER_MESSAGE.emailChangeTaken);
      const now = clock.now();
      const token = randomToken();
      await repo.insertEmailChange({
        userId: c.userId,
        tokenHash: hashToken(token),
        newEmail: email,
        familyId: c.sid,
        expiresAt: plusSeconds(now, EMAIL_CHANGE_TTL_SECONDS),
        now,
      });
      await mailer.send(
        emailChangeMail({ to: email, firstName: account.firstName, url: `${origin}/profile?${EMAIL_CHANGE_PARAM}=${token}` }),
      );
      // The old address is told; the change stands or falls with the link whatever this mail does.
      await mailer
        .send(emailChangeRequestedMail({ to: account.email, firstName: account.firstName, newEmail: email }))
        .catch((error: unknown) => log.error({ err: error, userId: c.userId }, 'email change notice to the old address not sent'));
      log.info({ userId: c.userId }, 'email change asked: link mailed to the new address');
      return email;
    },

    /** ADR 0097: the link from the new address, with a session of the same account: the email changes once. */
    confirmEmailChange: async ({ userId, token }: { userId: number; token: string }): Promise<string> => {
      const done = await repo.changeEmail({ userId, tokenHash: hashToken(token), now: clock.now() });
      if (done.result === 'taken') {
        throw new DomainError(ERROR_CODE.conflict, CUSTOMER_MESSAGE.emailChangeTaken);
      }
      if (done.result !== 'changed') throw new DomainError(ERROR_CODE.badRequest, CUSTOMER_MESSAGE.emailChangeLinkInvalid);
      await mailer
        .send(emailChangedMail({ to: done.oldEmail, firstName: done.firstName, newEmail: done.newEmail }))
        .catch((error: unknown) => log.error({ err: error, userId }, 'email changed notice to the old address not sent'));
      log.info({ userId }, 'email changed');
      return done.newEmail;
    },

    /** Returns the confirmed account's id; a bad, used or expired token is a 400. */
    confirmEmail: async ({
      token,
      sessionUserId = null,
    }: {
      token: string;
      sessionUserId?: number | null;
    }): Promise<{ userId: number; passwordRemoved: boolean }> => {
      const now = clock.now();
      const userId = await repo.consumeOneTimeToken({ purpose: 'email_confirm', tokenHash: hashToken(token), now });
      const account = userId === null ? null : await repo.findAccountById(userId);
      if (!account) throw new DomainError(ERROR_CODE.badRequest, AUTH_MESSAGE.resetLinkInvalid);
      return { userId: account.id, passwordRemoved: await proveMailbox(account, sessionUserId) };
    },
  };
};
export type AuthService = ReturnType<typeof createAuthService>;
