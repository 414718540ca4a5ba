/* Staked! - the offline page comes back by itself once the network does. */
(function () {
  "use strict";
  window.addEventListener("online", function () { location.reload(); });
  setInterval(function () { if (navigator.onLine) location.reload(); }, 15000);
  var retry = document.getElementById("retry");
  if (retry) retry.addEventListener("click", function () { location.reload(); });
})();
