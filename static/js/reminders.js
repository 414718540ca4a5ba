/* Staked! - the reminders page: turn Web Push on or off for this phone. Asks for permission,
 * subscribes through the service worker's pushManager with the server's VAPID key, and gives the
 * subscription to the API (POST/DELETE /api/v1/me/push-subscriptions/). */
(function () {
  "use strict";

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("push");
    var on = box && box.querySelector("[data-push-on]");
    if (!on) return; // push is off on this server
    var off = box.querySelector("[data-push-off]");
    var status = box.querySelector("[data-push-status]");
    var subscriptions = box.getAttribute("data-subscriptions-url");

    function say(text) { status.textContent = text; }

    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.isSecureContext) {
      on.hidden = true;
      say("This browser cannot get push notifications here. On an iPhone, add Staked! to the " +
          "home screen and open it from there.");
      return;
    }

    function csrf() {
      try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; }
      catch (e) { return ""; }
    }

    function call(method, url, body) {
      return fetch(url, {
        method: method,
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
        body: body === undefined ? undefined : JSON.stringify(body)
      }).then(function (response) {
        if (response.ok) return response.status === 204 ? null : response.json();
        return response.json().then(function (error) { throw new Error(error.detail); });
      });
    }

    function keyBytes(base64url) {
      var base64 = (base64url + "===".slice((base64url.length + 3) % 4))
        .replace(/-/g, "+").replace(/_/g, "/");
      var raw = atob(base64);
      var bytes = new Uint8Array(raw.length);
      for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
      return bytes;
    }

    function current() {
      return navigator.serviceWorker.ready.then(function (registration) {
        return registration.pushManager.getSubscription();
      });
    }

    function show(subscribed) {
      on.hidden = subscribed;
      off.hidden = !subscribed;
    }

    current().then(function (subscription) {
      show(!!subscription);
      if (subscription) say("This phone gets push reminders.");
    });

    on.addEventListener("click", function () {
      on.disabled = true;
      Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") {
          throw new Error("Notifications are blocked for this site: allow them in the " +
                          "browser's settings, then try again.");
        }
        return call("GET", box.getAttribute("data-key-url"));
      }).then(function (key) {
        return navigator.serviceWorker.ready.then(function (registration) {
          return registration.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: keyBytes(key.public_key)
          });
        });
      }).then(function (subscription) {
        return call("POST", subscriptions, subscription.toJSON());
      }).then(function () {
        show(true);
        say("Done: this phone gets push reminders.");
      }).catch(function (error) {
        say(error.message || "Push could not be turned on.");
      }).then(function () { on.disabled = false; });
    });

    off.addEventListener("click", function () {
      current().then(function (subscription) {
        if (!subscription) return null;
        return call("DELETE", subscriptions, { endpoint: subscription.endpoint })
          .catch(function () {}) // unknown to the server already: unsubscribe anyway
          .then(function () { return subscription.unsubscribe(); });
      }).then(function () {
        show(false);
        say("This phone no longer gets push reminders.");
      });
    });
  });
})();
