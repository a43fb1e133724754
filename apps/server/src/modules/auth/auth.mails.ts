import {
  ACCOUNT_DELETION_LINK_LIFE,
  EMAIL_CHANGE_LINK_LIFE,
  AUTH_MESSAGE,
  EMAIL_CONFIRM_TTL_SECONDS,
  MAGIC_LINK_TTL_SECONDS,
  PASSWORD_RESET_TTL_SECONDS,
  NO_PASSWORD_NEEDED,
} from '@app/domain';
import type { MailMessage } from '../mail';
import { escapeHtml } from '../../lib/html';

/** Texts of the account mails: plain text plus simple HTML, each says what the link does and when it expires. */

const days = (seconds: number): string => `${Math.round(seconds / 86_400)} days`;
const hours = (seconds: number): string => `${Math.round(seconds / 3_600)} hours`;

const greeting = (firstName: string): string => (firstName ? `Hello ${firstName},` : 'Hello,');

interface Paragraph {
  text: string;
  link?: { url: string; label: string };
}

const IGNORE_IF_NOT_YOU = 'If you did not ask for this, you can ignore this email.';

const compose = (to: string, subject: string, firstName: string, paragraphs: Paragraph[], closing = IGNORE_IF_NOT_YOU): MailMessage => {
  const text = [greeting(firstName), ...paragraphs.map((p) => (p.link ? `${p.text}\n${p.link.url}` : p.text)), closing].join('\n\n');
  const html = [
    `<p>${escapeHtml(greeting(firstName))}</p>`,
    ...paragraphs.map((p) =>
      p.link
        ? `<p>${escapeHtml(p.text)}<br><a href="${escapeHtml(p.link.url)}">${escapeHtml(p.link.label)}</a></p>`
        : `<p>${escapeHtml(p.text)}</p>`,
    ),
    `<p>${escapeHtml(closing)}</p>`,
  ].join('\n');
  return { to, subject, text, html };
};

/** Sign-up: confirm the address; without a chosen password, also a magic link (CONTRACT "Identity"). */
export const welcomeMail = (m: { to: string; firstName: string; confirmUrl: string; magicLinkUrl: string | null }): MailMessage =>
  compose(m.to, 'Welcome! Please confirm your email', m.firstName, [
    { text: 'Thank you for signing up.' },
    {
      text: `Please confirm your email address by opening this link (it expires in ${days(EMAIL_CONFIRM_TTL_SECONDS)}):`,
      link: { url: m.confirmUrl, label: 'Confirm my email' },
    },
    ...(m.magicLinkUrl
      ? [
          {
            text: `We set a password for you. To sign in without it, open this link (it works once and expires in ${hours(MAGIC_LINK_TTL_SECONDS)}):`,
            link: { url: m.magicLinkUrl, label: 'Sign in' },
          },
          { text: NO_PASSWORD_NEEDED },
        ]
      : []),
  ]);

export const confirmEmailMail = (m: { to: string; firstName: string; confirmUrl: string }): MailMessage =>
  compose(m.to, 'Please confirm your email', m.firstName, [
    {
      text: `Please confirm your email address by opening this link (it expires in ${days(EMAIL_CONFIRM_TTL_SECONDS)}):`,
      link: { url: m.confirmUrl, label: 'Confirm my email' },
    },
  ]);

export const magicLinkMail = (m: { to: string; firstName: string; url: string }): MailMessage =>
  compose(m.to, 'Your sign-in link', m.firstName, [
    {
      text: `Open this link to sign in to your account. It works once. The link expires in ${hours(MAGIC_LINK_TTL_SECONDS)}.`,
      link: { url: m.url, label: 'Sign in' },
    },
  ]);

export const passwordResetMail = (m: { to: string; firstName: string; url: string }): MailMessage =>
  compose(m.to, 'Set a new password', m.firstName, [
    {
      text: `Open this link to set a new password for your account. It works once. The link expires in ${hours(PASSWORD_RESET_TTL_SECONDS)}.`,
      link: { url: m.url, label: 'Set a new password' },
    },
  ]);

/** ADR 0038: the mailbox was proven from another browser, so a password chosen before that proof was removed. */
export const passwordRemovedMail = (m: { to: string; firstName: string; resetUrl: string }): MailMessage =>
  compose(m.to, 'Your email is confirmed: please set a password', m.firstName, [
    { text: AUTH_MESSAGE.unprovenPasswordRemoved },
    {
      text: `Open this link to set a password. It works once. The link expires in ${hours(PASSWORD_RESET_TTL_SECONDS)}.`,
      link: { url: m.resetUrl, label: 'Set a password' },
    },
  ]);

/** ADR 0070: an account without a password confirms its deletion through this link (once, for an hour). */
export const accountDeletionMail = (m: { to: string; firstName: string; url: string }): MailMessage =>
  compose(m.to, 'Confirm the deletion of your account', m.firstName, [
    { text: 'You asked to delete your account. Deleting it signs you out everywhere and erases your personal data; it cannot be undone.' },
    {
      text: `To delete it, open this link while signed in (it works once and expires in ${ACCOUNT_DELETION_LINK_LIFE}):`,
      link: { url: m.url, label: 'Delete my account' },
    },
  ]);

/** ADR 0097: the other account's holder must not read this as harmless: what to do if it was not them. */
const NOT_YOU_SECURE = 'If this was not you, change your password now: that cancels the change and signs out your other devices.';

/** ADR 0097: to the new address: the link that makes it the account's email (once, 24 hours, while signed in). */
export const emailChangeMail = (m: { to: string; firstName: string; url: string }): MailMessage =>
  compose(m.to, 'Confirm your new email address', m.firstName, [
    { text: 'You asked to use this address for your account. Your email changes only when you open this link.' },
    {
      text: `Open it while signed in on the device where you asked (it works once and expires in ${EMAIL_CHANGE_LINK_LIFE}):`,
      link: { url: m.url, label: 'Use this email' },
    },
  ]);

/** ADR 0097: to the old address, when the change is asked for: nothing changed yet. */
export const emailChangeRequestedMail = (m: { to: string; firstName: string; newEmail: string }): MailMessage =>
  compose(
    m.to,
    'A change of your email was asked for',
    m.firstName,
    [
      {
        text: `Someone signed in to your account asked to change its email to ${m.newEmail}. Nothing changes until the link we sent to that address is opened.`,
      },
    ],
    NOT_YOU_SECURE,
  );

/** ADR 0097: to the old address, once changed. */
export const emailChangedMail = (m: { to: string; firstName: string; newEmail: string }): MailMessage =>
  compose(
    m.to,
    'Your email has been changed',
    m.firstName,
    [{ text: `Your account's email is now ${m.newEmail}. Emails about your orders and sign-in links go there from now on.` }],
    'If this was not you, contact our support at once.',
  );
