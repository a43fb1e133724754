// ADR 0088: the service worker of Web Push. Registered only when the customer turns browser notifications
// on (after their first order), never on a first visit; it caches nothing and handles no fetch, so pages
// load exactly as without it.
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const link = typeof data.link === 'string' && data.link.startsWith('/') ? data.link : '/dashboard';
  event.waitUntil(
    self.registration.showNotification(typeof data.title === 'string' ? data.title : 'An update on your order', {
      body: typeof data.body === 'string' ? data.body : '',
      data: { link },
      tag: typeof data.id === 'number' ? `notification-${data.id}` : undefined,
      icon: '/favicon.svg',
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.link ?? '/dashboard', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url === target);
      return open ? open.focus() : self.clients.openWindow(target);
    }),
  );
});
