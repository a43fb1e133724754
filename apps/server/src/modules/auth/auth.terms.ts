import {
  DomainError,
  ERROR_CODE,
  TERMS_ACCEPTANCE_CONTEXT,
  TERMS_MESSAGE,
  type TermsAcceptanceBody,
  type TermsAcceptanceContext,
  type TermsStatus,
} from '@app/domain';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createTermsRepo } from './auth.terms.repo';

/** Where an acceptance came from. */
export interface AcceptanceClient {
  ip: string;
  userAgent: string;
}

/**
 * Issue 24 (ADR 0085): the Terms of Use and Privacy Policy on record. `versions` are the current ones
 * (TERMS_VERSION, PRIVACY_VERSION, or digests of the files); a customer whose acceptances never name both
 * is asked again (the web app's dialog after sign-in).
 */
export const createTermsRecord = ({
  db,
  clock,
  currentVersions,
}: {
  db: Db;
  clock: Clock;
  /** Read when used (the settings of the app that asks). */
  currentVersions: () => { terms: string; privacy: string };
}) => {
  const repo = createTermsRepo(db);
  const record = (customerId: number, context: TermsAcceptanceContext, client: AcceptanceClient): Promise<void> => {
    const versions = currentVersions();
    return repo.insert({
      customerId,
      termsVersion: versions.terms,
      privacyVersion: versions.privacy,
      context,
      ip: client.ip,
      userAgent: client.userAgent,
      now: clock.now(),
    });
  };

  const status = async (customerId: number): Promise<TermsStatus> => {
    const versions = currentVersions();
    const last = await repo.latest(customerId, versions.terms, versions.privacy);
    return {
      termsVersion: versions.terms,
      privacyVersion: versions.privacy,
      accepted: last.current,
      acceptedAt: last.acceptedAt?.toISOString() ?? null,
    };
  };

  return {
    /** Sign-up with the terms checkbox ticked: the current versions, accepted now. */
    recordSignUp: (customerId: number, client: AcceptanceClient): Promise<void> =>
      record(customerId, TERMS_ACCEPTANCE_CONTEXT.signUp, client),
    status,
    /** The dialog's "I accept": only the versions the customer was shown, and only while they are current (409 otherwise). */
    accept: async ({
      customerId,
      body,
      client,
    }: {
      customerId: number;
      body: TermsAcceptanceBody;
      client: AcceptanceClient;
    }): Promise<TermsStatus> => {
      const versions = currentVersions();
      if (body.termsVersion !== versions.terms || body.privacyVersion !== versions.privacy)
        throw new DomainError(ERROR_CODE.conflict, TERMS_MESSAGE.versionChanged);
      await record(customerId, TERMS_ACCEPTANCE_CONTEXT.prompt, client);
      return status(customerId);
    },
  };
};
export type TermsRecord = ReturnType<typeof createTermsRecord>;
