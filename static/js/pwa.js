/* Staked! - the installable app: registers the service worker (/sw.js), and shows a clear
 * "Reconnecting…" banner while the server cannot be reached (a poll failed, or the phone is
 * offline), hidden again as soon as a request gets an answer. */
(function () {
  "use strict";

  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
      // A page that loaded while the worker was activating is not controlled: ask for it.
      navigator.serviceWorker.ready.then(function (registration) {
        if (!navigator.serviceWorker.controller && registration.active) {
          registration.active.postMessage("claim");
        }
      });
    });
  }

  function banner(offline) {
    var el = document.getElementById("connection");
    if (el) el.hidden = !offline;
    document.documentElement.classList.toggle("is-offline", offline);
  }

  function poller() {
    return document.querySelector("[hx-get][hx-trigger*='every']");
  }

  // htmx fires afterRequest for every answer, and with status 0 when nothing answered.
  document.addEventListener("htmx:afterRequest", function (e) {
    var status = e.detail.xhr ? e.detail.xhr.status : 0;
    banner(status === 0 || status === 502 || status === 503 || status === 504);
  });
  document.addEventListener("htmx:sendError", function () { banner(true); });
  window.addEventListener("offline", function () { banner(true); });
  window.addEventListener("online", function () {
    // Poll at once (the poll's trigger listens to visibilitychange); its answer hides the banner.
    if (poller()) document.dispatchEvent(new Event("visibilitychange"));
    else banner(false);
  });
  if (navigator.onLine === false) {
    document.addEventListener("DOMContentLoaded", function () { banner(true); });
  }
})();
