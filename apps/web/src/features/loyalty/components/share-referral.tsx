import { useState } from 'react';
import { Mail, MessageCircle, Share2 } from 'lucide';
import { Button, buttonClass } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { toast } from '@/components/ui/toast';
import { canShareLink, REFERRAL_SHARE_TEXT, referralShareLinks } from './share-links';
import { CopyButton } from './copy-button';

const ICONS = { Email: Mail, WhatsApp: MessageCircle } as const;

/**
 * ADR 0097: the referral link's share buttons. Where the browser has the Web Share API (phones), one
 * Share button opens the system's sheet; elsewhere the link goes by email, WhatsApp or X. Copy is always
 * there, and says when it copied.
 */
export function ShareReferral({ url }: { url: string }) {
  // Read once: the API does not come and go while the page is open.
  const [native] = useState(() => canShareLink(url));
  const share = async () => {
    try {
      await navigator.share({ title: 'My referral link', text: REFERRAL_SHARE_TEXT, url });
    } catch (error) {
      // The customer closed the sheet: nothing to say.
      if (error instanceof DOMException && error.name === 'AbortError') return;
      toast.error('Your browser could not share the link: copy it instead.');
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="referral-share">
      {native && (
        <Button onClick={() => void share()} aria-label="Share your referral link">
          <Icon icon={Share2} className="size-4" />
          Share
        </Button>
      )}
      <CopyButton text={url} label="Copy your referral link" />
      {!native &&
        referralShareLinks(url).map((link) => {
          const icon = link.name in ICONS ? ICONS[link.name as keyof typeof ICONS] : null;
          return (
            <a
              key={link.name}
              href={link.href}
              target={link.href.startsWith('mailto:') ? undefined : '_blank'}
              rel="noopener noreferrer"
              aria-label={link.label}
              className={buttonClass('secondary')}
            >
              {icon && <Icon icon={icon} className="size-4" />}
              {link.name}
            </a>
          );
        })}
    </div>
  );
}
