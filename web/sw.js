// Outflank's service worker, served at /sw.js with the whole site as its scope. It only shows
// the notifications the server pushes to this browser (the account chose which, in the bell's
// panel) and opens what a clicked one points at. It caches nothing.
// A push's payload: {"id", "kind", "title", "body", "url"}.

// The open pages are taken at once, so that a clicked notification can lead one of them on.
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  if (!event.data) return;
  let message;
  try {
    message = event.data.json();
  } catch {
    return;
  }
  const title = message.title || 'Outflank';
  event.waitUntil(self.registration.showNotification(title, {
    body: message.body || '',
    tag: message.id ? String(message.id) : undefined,
    data: { url: message.url || '/' },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  // Only the site's own pages are opened.
  const url = target.origin === self.location.origin ? target.href : self.location.origin + '/';
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const tab = open.find((client) => new URL(client.url).origin === self.location.origin);
    if (tab) {
      const focused = await tab.focus();
      try {
        await (focused || tab).navigate(url);
        return;
      } catch {
        // A tab this worker does not control cannot be navigated: a new one is opened.
      }
    }
    await self.clients.openWindow(url);
  })());
});
