// The service worker (served at /sw.js so that it covers the whole site): shows the pushes the
// server sends and opens the game when one is tapped. It caches nothing: a turn-based game
// page must never show an old state.
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = {body: event.data.text()}; }
  event.waitUntil(self.registration.showNotification(data.title || "Turnpost", {
    body: data.body || "",
    tag: data.tag,
    renotify: Boolean(data.tag),
    icon: "/static/icons/icon-192.png",
    badge: "/static/icons/icon-192.png",
    data: {url: data.url || "/"}
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = event.notification.data && event.notification.data.url || "/";
  event.waitUntil(self.clients.matchAll({type: "window", includeUncontrolled: true}).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url === url && "focus" in windows[i]) { return windows[i].focus(); }
    }
    return self.clients.openWindow(url);
  }));
});
