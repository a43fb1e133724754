/**
 * The zod-free half of the auth context: constants, messages and plain checks. The web app's first
 * chunk imports `@app/domain/auth/rules` so that the sign-in page does not load zod (ADR 0020).
 */
/** SPEC §9 / CONTRACT "Identity". */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const MAGIC_LINK_TTL_SECONDS = 12 * 60 * 60;
export const PASSWORD_RESET_TTL_SECONDS = 12 * 60 * 60;
export const EMAIL_CONFIRM_TTL_SECONDS = 7 * 24 * 60 * 60;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
/** CONTRACT "Errors and access": rate limit for the auth-like endpoints. */
export const AUTH_RATE_LIMIT_PER_MINUTE = 10;

/** Roles (SPEC §1; CONTRACT "Staff side"). 1 and 2 are customers; 7 admin has everything support has, plus the admin routes (ADR 0090). */
export const ROLE = { customer: 1, customerAlt: 2, writer: 3, support: 6, admin: 7 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];
/** The customer roles and the staff roles, as lists (SQL takes them as one array parameter). */
export const CUSTOMER_ROLE_IDS: readonly Role[] = [ROLE.customer, ROLE.customerAlt];
export const STAFF_ROLE_IDS: readonly Role[] = [ROLE.writer, ROLE.support, ROLE.admin];
export const isCustomerRole = (role: number): boolean => (CUSTOMER_ROLE_IDS as readonly number[]).includes(role);
export const isStaffRole = (role: number): boolean => (STAFF_ROLE_IDS as readonly number[]).includes(role);
/** ADR 0090: every support check passes for support and for an admin (7 has everything support may do). */
export const hasSupportRights = (role: number): boolean => role === ROLE.support || role === ROLE.admin;
export const isAdminRole = (role: number): boolean => role === ROLE.admin;

/**
 * Issue 27: how a customer who signed up at checkout without a password gets back in, said the same at
 * checkout and in the welcome mail.
 */
export const NO_PASSWORD_NEEDED =
  'No password needed: to come back, choose "Email me a sign-in link" on the sign-in page and open the link we send to this address.';

/** SPEC §8 "Signup and login" and "Email and password notices", exactly worded. */
export const AUTH_MESSAGE = {
  invalidName: 'Please provide valid Name',
  invalidEmailSignup: 'Please provide valid Email',
  emailRegistered: 'This email is already registered. Maybe you are already a member.',
  signedUp: 'You have successfully signed up',
  invalidEmail: 'Invalid email address.',
  passwordMandatory: 'The "Password" field is mandatory.',
  emailMandatory: 'An email field is mandatory.',
  newPasswordSent: 'Check your email for a new password.',
  emailNotOnSite: "Email doesn't exist on site",
  emailCheckError: 'An error occurred while checking your email. Please contact us via email or live chat for resolution.',
  emailOnItsWay: 'An email is on its way!',
  wrongCredentials: 'Wrong email or password',
  tooManyRequests: 'Too many requests. Please try again later.',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  resetLinkInvalid: 'This link is invalid or has expired',
  passwordChanged: 'Your password has been changed. You can sign in now.',
  // Not SPEC texts (ADR 0038): told when a mailbox proof from another browser ends a password set before it.
  unprovenPasswordRemoved:
    'Your email is confirmed. The password chosen when this account was created was removed and every other session was signed out, because the address had not been confirmed from that browser. To sign in with a password, set a new one with the link we emailed you or with "Forgot password".',
} as const;

/** The body shown under 'An email is on its way!' (SPEC §8: starts 'We sent an email', ends 'The link expires in 12 hours'). */
export const emailOnItsWayBody = (email: string): string =>
  `We sent an email to ${email} with a link to sign in. The link expires in 12 hours`;

// SPEC §5 "Email check: a standard address pattern" (the WHATWG input[type=email] pattern).
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
export const EMAIL_MAX_LENGTH = 254;
export const isValidEmail = (email: string): boolean => email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email.trim());
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** CONTRACT: POST /forgotpassword answers 0 on success, 1 when the email is unknown. */
export const FORGOT_PASSWORD_RESULT = { success: 0, unknownEmail: 1 } as const;

/** The longest first or last name a sign-up stores. */
export const NAME_MAX_LENGTH = 100;
/** A name is valid when it holds at least one letter and no markup (SPEC §8 'Please provide valid Name'). */
export const isValidName = (name: string): boolean => /\p{L}/u.test(name) && !/[<>]/.test(name);
