/** ADR 0097: the sentence a shared referral link travels with. */
export const REFERRAL_SHARE_TEXT = 'Get your paper written by a professional: sign up with my link.';
const SUBJECT = 'An invitation to order your paper';

/** ADR 0097: where the referral link can be shared without the Web Share API (a desktop browser). */
export const referralShareLinks = (url: string): { name: string; label: string; href: string }[] => [
  {
    name: 'Email',
    label: 'Share your referral link by email',
    href: `mailto:?subject=${encodeURIComponent(SUBJECT)}&body=${encodeURIComponent(`${REFERRAL_SHARE_TEXT}\n\n${url}`)}`,
  },
  {
    name: 'WhatsApp',
    label: 'Share your referral link on WhatsApp',
    href: `https://wa.me/?text=${encodeURIComponent(`${REFERRAL_SHARE_TEXT} ${url}`)}`,
  },
  {
    name: 'X',
    label: 'Share your referral link on X',
    href: `https://x.com/intent/tweet?text=${encodeURIComponent(REFERRAL_SHARE_TEXT)}&url=${encodeURIComponent(url)}`,
  },
];

/** The Web Share API with a link (phones, some desktops); feature-detected, never assumed. */
export const canShareLink = (url: string): boolean => {
  if (typeof navigator === 'undefined' || typeof navigator.share !== 'function') return false;
  try {
    return typeof navigator.canShare !== 'function' || navigator.canShare({ url });
  } catch {
    return false;
  }
};
