import { Copy } from 'lucide';
import { LOYALTY_MESSAGE } from '@app/domain/loyalty/rules';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { toast } from '@/components/ui/toast';

/** SPEC §8 'Copied to clipboard!': copies `text`; where the browser refuses, says how to copy by hand. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(LOYALTY_MESSAGE.copied);
    } catch {
      toast.error('Your browser did not allow copying: select the text and copy it.');
    }
  };
  return (
    <Button variant="secondary" onClick={() => void copy()} aria-label={label}>
      <Icon icon={Copy} className="size-4" />
      Copy
    </Button>
  );
}
