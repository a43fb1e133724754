import { apiFetch } from '@/lib/api-client';

/** The types a customer who turns browser notifications on gets pushed (each can be changed in /profile). */
export const PUSHED_BY_DEFAULT = [
  'writer_assigned',
  'delivered',
  'extension_requested',
  'message_unseen',
  'deadline_soon',
  'revision_updated',
] as const;

export const pushSupported = (): boolean =>
  typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

const keyBytes = (base64url: string): Uint8Array<ArrayBuffer> => {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
};

/**
 * ADR 0088: asks the browser's permission (only from the customer's click), registers the service worker
 * (`/sw.js`, at this moment, never at page load), subscribes with the server's VAPID key, stores the
 * subscription and turns push on for the usual types. Answers the permission the browser gave.
 */
export const enablePush = async (): Promise<NotificationPermission> => {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission;
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  await navigator.serviceWorker.ready;
  const { publicKey } = await apiFetch<{ publicKey: string }>('/api/en/customers/push/key');
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  const json = subscription.toJSON();
  await apiFetch('/api/en/customers/push/subscriptions', {
    method: 'POST',
    json: { endpoint: json.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } },
  });
  await apiFetch('/api/en/customers/notification-preferences', {
    method: 'PUT',
    json: Object.fromEntries(PUSHED_BY_DEFAULT.map((type) => [type, { push: true }])),
  });
  return permission;
};
