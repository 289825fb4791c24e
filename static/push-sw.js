// Keydom's service worker: shows a turn message pushed by the server (Web Push), with the
// page and the tab closed, and opens the seat's game when the notification is clicked.
// The message arrives encrypted to this browser; its "url" is the seat's own link.
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  let message = { title: "Keydom", body: "A game waits for you.", url: null };
  try {
    if (event.data) message = Object.assign(message, event.data.json());
  } catch (err) { /* not JSON: show the default text */ }
  const options = {
    body: message.body,
    icon: "/static/push-icon.svg",
    data: { url: message.url },
    // One notification per game: a newer message about it replaces the older one.
    tag: message.url ? "keydom-" + message.url.split("/g/")[1].split("/")[0] : "keydom",
    renotify: true,
  };
  event.waitUntil(self.registration.showNotification(message.title, options));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  const url = event.notification.data && event.notification.data.url;
  if (!url) return;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    const open = windows.find(function (w) { return w.url === url; });
    return open ? open.focus() : self.clients.openWindow(url);
  }));
});
