import { useEffect, useState } from 'react';
import { Check, Copy } from 'lucide';
import { LOYALTY_MESSAGE } from '@app/domain/loyalty/rules';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { toast } from '@/components/ui/toast';

/** How long the button itself reads "Copied" (ADR 0097). */
const COPIED_MS = 2000;

/**
 * SPEC §8 'Copied to clipboard!': copies `text`; the toast says so and the button reads "Copied" for a
 * moment (ADR 0097); where the browser refuses, says how to copy by hand.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      toast.success(LOYALTY_MESSAGE.copied);
    } catch {
      toast.error('Your browser did not allow copying: select the text and copy it.');
    }
  };
  return (
    // The visible text stays part of the name (axe label-content-name-mismatch) in both states.
    <Button variant="secondary" onClick={() => void copy()} aria-label={copied ? `Copied. ${label}` : label}>
      <Icon icon={copied ? Check : Copy} className="size-4" />
      {copied ? 'Copied' : 'Copy'}
    </Button>
  );
}
