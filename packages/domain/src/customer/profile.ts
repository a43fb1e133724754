import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../auth/rules/index';
import { BILLING_LIMITS } from '../transaction/rules/index';

/** CONTRACT "Identity": customer status ids. */
export const CUSTOMER_STATUS = {
  active: { id: 1, name: 'Active' },
  awaitingConfirmation: { id: 3, name: 'Awaiting Confirmation' },
  deactivated: { id: 4, name: 'Deactivated' },
} as const;
export type CustomerStatusId = (typeof CUSTOMER_STATUS)[keyof typeof CUSTOMER_STATUS]['id'];
export const customerStatusName = (id: number): string => Object.values(CUSTOMER_STATUS).find((s) => s.id === id)?.name ?? 'Unknown';

/** SPEC §5 "Profile: phone accepts digits only, max 21 characters". */
export const PROFILE_PHONE_MAX_LENGTH = 21;
export const isValidProfilePhone = (phone: string): boolean =>
  phone === '' || (/^\d+$/.test(phone) && phone.length <= PROFILE_PHONE_MAX_LENGTH);

/**
 * ADR 0070: the deletion's proof. An account with a password sends it; one without (made at checkout,
 * or whose unproven password was removed, ADR 0038) is mailed a link that works once, for an hour, and
 * only with a session of the same account. Attempts (both calls) are limited per account.
 */
export const ACCOUNT_DELETION_LINK_TTL_SECONDS = 60 * 60;
/** The link's life as the mail and the message say it. */
export const ACCOUNT_DELETION_LINK_LIFE = '1 hour';
export const ACCOUNT_DELETION_ATTEMPTS = { max: 5, windowMs: 15 * 60_000 } as const;

export const CUSTOMER_MESSAGE = {
  profileUpdated: 'Your personal information has been successfully updated.',
  privacyFailed: 'Problem occured while setting your preferences',
  accountDeleted: 'Your account has been successfully deleted.',
  emailNotConfirmed: 'Email is not confirmed',
  confirmationSent: (email: string) => `A confirmation email has been sent to ${email}`,
  emailConfirmed: 'Your email has been confirmed.',
  emailAlreadyConfirmed: 'Your email is already confirmed.',
  confirmationResent: 'Success',
  // SPEC §8 "Profile and privacy": the failure text of the profile's calls, the password change included.
  somethingWentWrong: 'Something went wrong',
  // SPEC §8 "Account deletion": the other failure.
  deletionFailed: 'Error',
  // Not SPEC texts (ADR 0053): the password change and the session list.
  wrongCurrentPassword: 'The current password is not correct',
  passwordUpdated: 'Your password has been changed. Your other sessions were signed out.',
  sessionEnded: 'The session has been signed out.',
  /** ADR 0097: a merged device row of several sessions. */
  sessionsEnded: (count: number) => (count === 1 ? 'The session has been signed out.' : `${count} sessions have been signed out.`),
  otherSessionsEnded: 'All other sessions have been signed out.',
  preferencesSaved: 'Your preferences have been saved.',
  // Not SPEC texts (ADR 0070): the deletion asks for a proof first.
  deletionPasswordMissing: 'Enter your password to delete your account',
  deletionWrongPassword: 'The password is not correct',
  deletionLinkSent: `We sent you an email with a link to confirm the deletion. Open it while signed in; it works once and expires in ${ACCOUNT_DELETION_LINK_LIFE}.`,
  deletionLinkInvalid: 'This deletion link is invalid or has expired',
  deletionTooManyAttempts: 'Too many attempts to delete the account. Please try again later.',
  // Not SPEC texts (ADR 0097): the email change, confirmed on the new address.
  emailChangeSent: (email: string) =>
    `We sent a link to ${email}. Open it while signed in on this device to change your email; until then your email stays as it is.`,
  emailChanged: (email: string) => `Your email has been changed to ${email}.`,
  emailChangeSame: 'This is already your email address.',
  emailChangeTaken: 'This email is already used by another account.',
  emailChangeLinkInvalid: 'This email change link is invalid or has expired',
  emailChangePasswordMissing: 'Enter your password to change your email',
  emailChangeWrongPassword: 'The password is not correct',
} as const;

export const facebookDataSchema = z.object({
  fbMessengerAppId: z.string().nullable(),
  fbPageId: z.string().nullable(),
  ref: z.string().nullable(),
  userRef: z.string().nullable(),
  isChecked: z.boolean(),
});

/** SPEC §3 "Customer profile". */
export const customerSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  country: z.string(),
  state: z.string(),
  city: z.string(),
  address: z.string(),
  zip: z.string(),
  ipClient: z.string(),
  status: z.object({ id: z.number().int(), name: z.string() }),
  role: z.number().int(),
  enabledNewsletters: z.boolean(),
  enabledNightCalls: z.boolean(),
  enabledFacebookMessenger: z.boolean(),
  facebookData: facebookDataSchema,
  enabledCookiesUsage: z.boolean(),
  enabledPersonalData: z.boolean(),
  enabledTechnicalData: z.boolean(),
  enabledLocationUsage: z.boolean(),
  enabledInformationSharing: z.boolean(),
  enabledEmailSubscription: z.boolean(),
  emailConfirmed: z.boolean(),
  /**
   * ADR 0070: the account has no password of its own and signs in by magic link only (a checkout without
   * one, or a password removed, ADR 0038); its deletion is confirmed through a mailed link.
   */
  signInByLinkOnly: z.boolean(),
  /** Issue 24: what receipts print as the buyer (ADR 0085); each document keeps a copy as it was at payment time. */
  billing: z.object({ name: z.string(), company: z.string(), taxId: z.string(), address: z.string() }),
});
export type Customer = z.infer<typeof customerSchema>;

/** SPEC §5 "Profile": the phone's message (SPEC gives the rule, not a text; this names the rule). */
export const PROFILE_PHONE_MESSAGE = 'Phone accepts digits only, max 21 characters';
/** Address fields of SPEC §3 "Customer profile": lengths a postal address needs, no more. */
export const PROFILE_TEXT_MAX_LENGTH = 100;
export const PROFILE_ADDRESS_MAX_LENGTH = 250;
export const PROFILE_ZIP_MAX_LENGTH = 20;
const addressField = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `At most ${max} characters` });

/** Control characters other than the address's line breaks are refused (they would print as boxes). */
const hasControl = (v: string): boolean =>
  [...v].some((c) => {
    const code = c.charCodeAt(0);
    return (code < 0x20 && c !== '\n') || code === 0x7f;
  });
const billingField = (max: number, multiline = false) =>
  addressField(max)
    .transform((v) => (multiline ? v.replace(/\r\n?/g, '\n').replace(/\n{3,}/g, '\n\n') : v))
    .refine((v) => !hasControl(v) && (multiline || !v.includes('\n')), { message: 'Remove the special characters' });

/**
 * Issue 24 (ADR 0085): the billing details on the profile, `PUT /api/en/customers/customer/billing` and the
 * optional `billing` of the profile PUT. Every field may be empty (a receipt then prints the profile's name).
 */
export const billingDetailsSchema = z.object({
  name: billingField(BILLING_LIMITS.name),
  company: billingField(BILLING_LIMITS.company),
  taxId: billingField(BILLING_LIMITS.taxId),
  address: billingField(BILLING_LIMITS.address, true),
});
export type BillingDetailsBody = z.infer<typeof billingDetailsSchema>;

/**
 * SPEC §7: PUT /api/en/customers/customer body. The address fields (country, state, city, address, zip,
 * SPEC §3) are optional: a body without them (SPEC's six fields) keeps the stored values (ADR 0053).
 */
export const customerUpdateBodySchema = z.object({
  enabledFacebookMessenger: z.boolean(),
  enabledNewsletters: z.boolean(),
  enabledNightCalls: z.boolean(),
  firstName: z.string().trim().max(PROFILE_TEXT_MAX_LENGTH),
  lastName: z.string().trim().max(PROFILE_TEXT_MAX_LENGTH),
  phone: z.string().trim().refine(isValidProfilePhone, { message: PROFILE_PHONE_MESSAGE }),
  country: addressField(PROFILE_TEXT_MAX_LENGTH).optional(),
  state: addressField(PROFILE_TEXT_MAX_LENGTH).optional(),
  city: addressField(PROFILE_TEXT_MAX_LENGTH).optional(),
  address: addressField(PROFILE_ADDRESS_MAX_LENGTH).optional(),
  zip: addressField(PROFILE_ZIP_MAX_LENGTH).optional(),
  /** Absent: the stored billing details stay (ADR 0085). */
  billing: billingDetailsSchema.optional(),
});
export type CustomerUpdateBody = z.infer<typeof customerUpdateBodySchema>;

export const emailConfirmBodySchema = z.object({ token: z.string().min(1).max(256) });

/** ADR 0097: how long the email change link mailed to the new address works. */
export const EMAIL_CHANGE_TTL_SECONDS = 24 * 60 * 60;
/** The link's life as the mail says it. */
export const EMAIL_CHANGE_LINK_LIFE = '24 hours';
/**
 * `POST /api/en/customers/customer/emails/change` (ADR 0097): the new address, and the password for an
 * account that has one (a stolen session alone cannot move the account to another mailbox).
 */
export const emailChangeBodySchema = z.object({
  email: z.string().trim().max(254),
  password: z.string().max(PASSWORD_MAX_LENGTH).optional(),
});
export type EmailChangeBody = z.infer<typeof emailChangeBodySchema>;
/** `PUT /api/en/customers/customer/emails/change/confirm`: the mailed link's token. */
export const emailChangeConfirmBodySchema = z.object({ token: z.string().min(1).max(256) });

/**
 * SPEC §7 "PUT privacy preferences per customer id" (CONTRACT path `PUT /api/en/customers/{id}/privacy`,
 * flags as booleans): the wire name of each flag and the profile field it sets (SPEC §3).
 */
export const PRIVACY_CONSENTS = [
  {
    key: 'cookies_usages',
    field: 'enabledCookiesUsage',
    label: 'Cookies',
    description: 'Cookies that keep you signed in and remember your choices.',
  },
  {
    key: 'personal_data',
    field: 'enabledPersonalData',
    label: 'Personal data',
    description: 'Processing the personal data you gave us to fulfil your orders.',
  },
  {
    key: 'technical_data',
    field: 'enabledTechnicalData',
    label: 'Technical data',
    description: 'Device and browser data that help us keep the site working.',
  },
  {
    key: 'location_usages',
    field: 'enabledLocationUsage',
    label: 'Location',
    description: 'Your approximate location, to show local prices and times.',
  },
  {
    key: 'information_sharing',
    field: 'enabledInformationSharing',
    label: 'Information sharing',
    description: 'Sharing information with partners who help deliver the service.',
  },
  {
    key: 'email_subscription',
    field: 'enabledEmailSubscription',
    label: 'Email subscription',
    description: 'Emails about offers and news.',
  },
] as const;
export type PrivacyConsentKey = (typeof PRIVACY_CONSENTS)[number]['key'];
export type PrivacyConsentField = (typeof PRIVACY_CONSENTS)[number]['field'];

export const privacyBodySchema = z.strictObject({
  cookies_usages: z.boolean(),
  personal_data: z.boolean(),
  technical_data: z.boolean(),
  location_usages: z.boolean(),
  information_sharing: z.boolean(),
  email_subscription: z.boolean(),
});
export type PrivacyBody = z.infer<typeof privacyBodySchema>;

/** The privacy body that sets a customer's current flags (the modal starts from it). */
export const privacyBodyOf = (customer: Pick<Customer, PrivacyConsentField>): PrivacyBody => ({
  cookies_usages: customer.enabledCookiesUsage,
  personal_data: customer.enabledPersonalData,
  technical_data: customer.enabledTechnicalData,
  location_usages: customer.enabledLocationUsage,
  information_sharing: customer.enabledInformationSharing,
  email_subscription: customer.enabledEmailSubscription,
});

/** The flags that a privacy body changes, with their old and new values (the consent history's rows). */
export const changedConsents = (
  before: PrivacyBody,
  after: PrivacyBody,
): { consent: PrivacyConsentKey; previous: boolean; granted: boolean }[] =>
  PRIVACY_CONSENTS.filter(({ key }) => before[key] !== after[key]).map(({ key }) => ({
    consent: key,
    previous: before[key],
    granted: after[key],
  }));

export const consentHistoryEntrySchema = z.object({
  consent: z.string(),
  granted: z.boolean(),
  previous: z.boolean(),
  date: z.string(),
});
export type ConsentHistoryEntry = z.infer<typeof consentHistoryEntrySchema>;
/** ADR 0097: how many changes the privacy modal lists, newest first (the report carries them all). */
export const CONSENT_HISTORY_LIMIT = 100;
/** `GET /api/en/customers/customer/consent-history` (ADR 0097): the newest changes and how many there are. */
export const consentHistorySchema = z.object({ entries: z.array(consentHistoryEntrySchema), total: z.number().int() });
export type ConsentHistory = z.infer<typeof consentHistorySchema>;
/** The modal's name of a consent's wire key ("location_usages" → "Location"); the key itself when unknown. */
export const consentLabel = (key: string): string => PRIVACY_CONSENTS.find((c) => c.key === key)?.label ?? key;

/** PUT /api/en/customers/customer/deactivate (ADR 0070): the password, for an account that has one. */
export const accountDeletionBodySchema = z.object({ password: z.string().max(PASSWORD_MAX_LENGTH).optional() });
export type AccountDeletionBody = z.infer<typeof accountDeletionBodySchema>;
/** Its answer: deleted, or (an account without a password) a confirmation link mailed (202). */
export const accountDeletionAnswerSchema = z.object({ message: z.string(), confirmByEmail: z.boolean().optional() });
/** PUT /api/en/customers/customer/deactivate/confirm: the mailed link's token. */
export const accountDeletionConfirmBodySchema = z.object({ token: z.string().min(1).max(256) });

/** PUT /api/en/customers/customer/password (SPEC §7): the current password proves the holder. */
export const passwordChangeBodySchema = z.object({
  currentPassword: z.string().min(1, { message: 'Enter your current password' }).max(PASSWORD_MAX_LENGTH),
  newPassword: z
    .string()
    .min(PASSWORD_MIN_LENGTH, { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` })
    .max(PASSWORD_MAX_LENGTH, { message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters` }),
});
export type PasswordChangeBody = z.infer<typeof passwordChangeBodySchema>;

/** The profile's password form: the body plus the new password typed twice. */
export const PASSWORD_MISMATCH_MESSAGE = 'The passwords do not match';
export const passwordChangeFormSchema = passwordChangeBodySchema
  .extend({ repeatPassword: z.string() })
  .refine((v) => v.newPassword === v.repeatPassword, { path: ['repeatPassword'], message: PASSWORD_MISMATCH_MESSAGE });
export type PasswordChangeFormValues = z.infer<typeof passwordChangeFormSchema>;

/** Active sessions (beyond SPEC; ADR 0053): one refresh-token family is one signed-in device. */
export const sessionSchema = z.object({
  id: z.string(),
  device: z.string(),
  ip: z.string(),
  signedInAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type Session = z.infer<typeof sessionSchema>;
export const sessionListSchema = z.object({ sessions: z.array(sessionSchema) });

const BROWSERS: readonly [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: readonly [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** "Chrome on Android" from a User-Agent header; "Unknown device" when it names neither. */
export const deviceFromUserAgent = (userAgent: string): string => {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
};

/**
 * ADR 0097: the devices list shows one row per device (the same device label, read from the user agent):
 * repeats of one browser on one system (a sign-in after each cleared cookie, a magic link each week) are
 * one row with their count and the latest "last seen". The row with this session comes first, the others
 * by last seen, newest first.
 */
export interface DeviceGroup {
  device: string;
  /** every session of the device, newest last seen first */
  sessions: Session[];
  lastSeenAt: string;
  /** this browser's session is one of them */
  current: boolean;
  /** the sessions "sign out" ends: all of them, or on this device all but this one */
  endable: string[];
}

export const groupSessionsByDevice = (sessions: readonly Session[]): DeviceGroup[] => {
  const byDevice = new Map<string, Session[]>();
  for (const s of sessions) byDevice.set(s.device, [...(byDevice.get(s.device) ?? []), s]);
  return [...byDevice.entries()]
    .map(([device, list]) => {
      const sorted = [...list].sort((a, b) => Date.parse(b.lastSeenAt) - Date.parse(a.lastSeenAt));
      return {
        device,
        sessions: sorted,
        lastSeenAt: sorted[0]?.lastSeenAt ?? '',
        current: sorted.some((s) => s.current),
        endable: sorted.filter((s) => !s.current).map((s) => s.id),
      };
    })
    .sort((a, b) => Number(b.current) - Number(a.current) || Date.parse(b.lastSeenAt) - Date.parse(a.lastSeenAt));
};
