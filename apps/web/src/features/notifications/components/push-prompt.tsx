import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { readStored, writeStored } from '@/lib/persisted';
import { enablePush, pushSupported } from '../api/push';

const DISMISSED = 'push-prompt-dismissed';

/**
 * ADR 0088: browser notifications are offered after a meaningful moment (the customer has an order), never
 * on a first visit, and only while this browser gets no push: its permission not yet asked, or granted (the
 * site allowed before, or a subscription that failed) with no subscription; "Not now" is remembered on this
 * device. The permission is asked only when the customer clicks.
 */
export function PushPrompt({ hasOrder }: { hasOrder: boolean }) {
  const [state, setState] = useState<'idle' | 'busy' | 'done' | 'failed'>('idle');
  const [dismissed, setDismissed] = useState(() => readStored(DISMISSED) === '1');
  // Permission granted: whether this browser already has a subscription (looked up, never registered here).
  const [subscribed, setSubscribed] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    if (!pushSupported() || Notification.permission !== 'granted') return;
    let live = true;
    navigator.serviceWorker
      .getRegistration('/')
      .then((registration) => registration?.pushManager.getSubscription() ?? null)
      .then((subscription) => live && setSubscribed(subscription !== null))
      .catch(() => live && setSubscribed(true));
    return () => {
      live = false;
    };
  }, []);
  if (!pushSupported() || dismissed || !hasOrder) return null;
  // Once the customer clicked, the offer stays to tell how it went.
  if (state === 'idle' && Notification.permission === 'denied') return null;
  if (state === 'idle' && Notification.permission === 'granted' && subscribed !== false) return null;
  if (state === 'done')
    return (
      <p role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900">
        Browser notifications are on. Choose which ones in Settings.
      </p>
    );
  return (
    <section
      aria-labelledby="push-prompt-title"
      className="flex flex-wrap items-center gap-3 rounded-md border border-slate-300 bg-white p-3 text-sm"
    >
      <div className="flex min-w-0 flex-1 flex-col">
        <h2 id="push-prompt-title" className="font-semibold">
          Get told when your writer delivers
        </h2>
        <p className="text-slate-700">Turn on browser notifications for your orders, even when this page is closed.</p>
        {state === 'failed' && <p className="text-red-800">Browser notifications could not be turned on.</p>}
      </div>
      <div className="flex gap-2">
        <Button
          busy={state === 'busy'}
          onClick={() => {
            setState('busy');
            enablePush()
              .then((permission) => setState(permission === 'granted' ? 'done' : 'idle'))
              .catch(() => setState('failed'));
          }}
        >
          Turn on
        </Button>
        <Button
          variant="secondary"
          onClick={() => {
            writeStored(DISMISSED, '1');
            setDismissed(true);
          }}
        >
          Not now
        </Button>
      </div>
    </section>
  );
}
