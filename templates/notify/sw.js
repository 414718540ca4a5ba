{% autoescape off %}/* Staked! service worker (served at /sw.js by games/notify/views.py, version {{ version }}).
 * - keeps the app shell (styles, scripts, icons, the offline page) for a flaky connection;
 * - pages: network first, the offline page when there is no network (pages are never cached:
 *   they hold a player's secrets);
 * - shows the reminders' Web Push notifications and opens the game when one is tapped. */
"use strict";

var CACHE = "staked-shell-{{ version }}";
var SHELL = {{ shell }};
var OFFLINE = "{{ offline }}";

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return key.indexOf("staked-shell-") === 0 && key !== CACHE;
      }).map(function (key) { return caches.delete(key); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// A page that loaded while this worker was still activating (a navigation that started before
// the claim above) stays uncontrolled; pwa.js then asks to be claimed.
self.addEventListener("message", function (event) {
  if (event.data === "claim") event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () {
      return caches.match(OFFLINE);
    }));
    return;
  }
  if (SHELL.indexOf(url.pathname) !== -1) {
    // The shell from the cache at once, refreshed in the background for the next visit.
    event.respondWith(caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (cached) {
        var fresh = fetch(request).then(function (response) {
          if (response.ok) cache.put(request, response.clone());
          return response;
        });
        if (cached) {
          fresh.catch(function () {});
          return cached;
        }
        return fresh;
      });
    }));
  }
  // Everything else (polls, the API, moves) goes to the network as usual: a failed poll is
  // what makes the page show "Reconnecting…".
});

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  var title = data.title || "Staked!";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: data.tag || "staked",
    renotify: true,
    icon: "{{ shell_icon }}",
    badge: "{{ shell_icon }}",
    data: { url: data.url || "/" }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL((event.notification.data && event.notification.data.url) || "/",
                       self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (clients) {
      for (var i = 0; i < clients.length; i++) {
        if (clients[i].url === target && "focus" in clients[i]) return clients[i].focus();
      }
      return self.clients.openWindow(target);
    })
  );
});
{% endautoescape %}
