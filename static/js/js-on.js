/* Staked! - marks the page as scripted before it is drawn (CSS hides what only works with JS). */
document.documentElement.classList.add("js");
/* The browser's time zone, for the times the server writes (games/presenters/times.py): a cookie every
 * request carries, so even the first page load after it says "closes Tue 22:41" in local time. */
(function () {
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && /^[A-Za-z0-9_+\/-]{1,64}$/.test(zone) && document.cookie.indexOf("tz=" + zone) < 0) {
      document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
    }
  } catch (e) { /* no Intl: the pages say UTC */ }
})();
