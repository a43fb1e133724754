/**
 * Issue 24 (ADR 0085): which version of the Terms of Use and of the Privacy Policy a customer accepted,
 * when, from which address and browser. Sign-up (the checkout's terms checkbox) records it; a new version
 * asks again after the next sign-in, in a dialog that records the acceptance.
 */
/** Where it was accepted: the sign-up (the checkout's terms checkbox) or the dialog after a sign-in. */
export const TERMS_ACCEPTANCE_CONTEXT = { signUp: 'sign_up', prompt: 'prompt' } as const;
export type TermsAcceptanceContext = (typeof TERMS_ACCEPTANCE_CONTEXT)[keyof typeof TERMS_ACCEPTANCE_CONTEXT];

export const TERMS_MESSAGE = {
  dialogTitle: 'We have updated our Terms of Use and Privacy Policy',
  dialogBody: 'Please read the current versions and accept them to keep using your account.',
  accept: 'I accept',
  signOut: 'Sign out',
  /** The versions shown are no longer the current ones (they changed while the dialog was open). */
  versionChanged: 'The Terms changed while this page was open. Please read the current version.',
} as const;

/** A version as it is stored and shown: short, printable. */
export const TERMS_VERSION_MAX_LENGTH = 64;
/** The User-Agent kept with an acceptance, cut to this many characters. */
export const TERMS_USER_AGENT_MAX_LENGTH = 512;
