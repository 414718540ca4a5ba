/* Staked! - the little the pages need beyond htmx: a countdown synced to the server's clock,
 * the hold-to-look role card, choices kept across live refreshes, and aria-live announcements.
 * Every page works without this file. */
(function () {
  "use strict";

  // --- countdown: the server's deadline, corrected for this phone's clock --------------------
  var skew = 0; // server time - phone time, in ms

  function syncClock(root) {
    var el = root.querySelector("[data-now]");
    if (el) {
      var server = Date.parse(el.getAttribute("data-now"));
      if (!isNaN(server)) skew = server - Date.now();
    }
  }

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  function format(seconds) {
    if (seconds <= 0) return "time is up";
    var d = Math.floor(seconds / 86400);
    var h = Math.floor((seconds % 86400) / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = Math.floor(seconds % 60);
    if (d > 0) return d + "d " + h + "h";
    if (h > 0) return h + ":" + pad(m) + ":" + pad(s);
    return m + ":" + pad(s);
  }

  // A long window reads as a time of day in this browser's zone, "closes Tue 1 Dec 22:41 (in
  // 11 h 50 min)" (the server's words, games/presenters/times.py); under an hour it counts down (mm:ss).
  var WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

  function inWords(seconds) {
    var minutes = Math.floor(seconds / 60);
    var d = Math.floor(minutes / 1440), h = Math.floor((minutes % 1440) / 60), m = minutes % 60;
    if (d > 0) return d + (d === 1 ? " day" : " days") + (h ? " " + h + " h" : "");
    return h + " h" + (m ? " " + m + " min" : "");
  }

  // The parts of `at` as a clock in `zone` reads them (an IANA name; "" for this browser's).
  function parts(at, zone) {
    if (zone) {
      try {
        var p = {};
        new Intl.DateTimeFormat("en-GB", {
          timeZone: zone, weekday: "short", day: "numeric", month: "numeric", year: "numeric",
          hour: "2-digit", minute: "2-digit", hourCycle: "h23"
        }).formatToParts(at).forEach(function (x) { p[x.type] = x.value; });
        return { weekday: p.weekday, day: +p.day, month: +p.month - 1, year: +p.year,
                 hh: p.hour, mm: p.minute, zone: zone };
      } catch (e) { /* an unknown zone: this browser's */ }
    }
    return { weekday: WEEKDAYS[at.getDay()], day: at.getDate(), month: at.getMonth(),
             year: at.getFullYear(), hh: pad(at.getHours()), mm: pad(at.getMinutes()) };
  }

  // "Tue 1 Dec 22:41", as games/presenters/times.py `clock` writes it; `zone` "UTC" says so.
  function clockText(at, zone) {
    var p = parts(at, zone);
    var text = p.weekday + " " + p.day + " " + MONTHS[p.month] + " " + p.hh + ":" + p.mm;
    return zone === "UTC" ? text + " UTC" : text;
  }

  function closes(deadline, seconds, zone) {
    return "closes " + clockText(new Date(deadline), zone) + " (in " + inWords(seconds) + ")";
  }

  // A time the server wrote in UTC because it did not know this browser's zone yet (a first
  // visit: the tz cookie is set by js-on.js as the page loads) is written again in local time,
  // so that no page shows "17:00 UTC" beside local times. `data-local-time="stamp"`: "14:05"
  // today, as times.stamp writes it.
  function localTimes(root) {
    root.querySelectorAll("[data-local-time]").forEach(function (el) {
      if (!/ UTC$/.test(el.textContent)) return;
      var at = new Date(el.getAttribute("datetime") || el.getAttribute("data-at"));
      if (isNaN(at.getTime())) return;
      var now = parts(new Date(), "");
      var p = parts(at, "");
      var today = p.day === now.day && p.month === now.month && p.year === now.year;
      el.textContent = el.getAttribute("data-local-time") === "stamp" && today
        ? p.hh + ":" + p.mm : clockText(at, "");
    });
  }

  function tick() {
    var now = Date.now() + skew;
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var deadline = Date.parse(el.getAttribute("data-deadline"));
      var left = (deadline - now) / 1000;
      var value = el.querySelector(".countdown-value");
      // The room screen writes the table's zone (data-zone), every other page this browser's.
      var zone = el.getAttribute("data-zone") || "";
      var text = left >= 3600 ? closes(deadline, left, zone) : "⏱ " + format(left);
      // Written only when it reads differently: an unchanged write still costs a layout, every
      // second, and a slow game's "closes Tue 1 Dec 17:00 (in 2 h 59 min)" reads the same for a
      // minute at a time.
      if (value && value.textContent !== text) value.textContent = text;
      el.classList.toggle("urgent", left > 0 && left <= 15);
    });
  }

  // --- the inbox's count: "(2) Staked!" and the installed app's icon (Badging API) ------------
  function badge(root) {
    var el = root.querySelector ? root.querySelector("[data-move-count]") : null;
    if (!el) return;
    var count = parseInt(el.getAttribute("data-move-count"), 10) || 0;
    document.title = (count ? "(" + count + ") " : "") + document.title.replace(/^\(\d+\) /, "");
    try {
      if (count && navigator.setAppBadge) navigator.setAppBadge(count);
      else if (!count && navigator.clearAppBadge) navigator.clearAppBadge();
    } catch (e) { /* no badge on this browser */ }
  }

  // --- the role card: visible only while held -----------------------------------------------
  function bindHold(root) {
    root.querySelectorAll("details[data-hold]").forEach(function (card) {
      if (card.dataset.bound) return;
      card.dataset.bound = "1";
      var summary = card.querySelector("summary");
      var show = function (e) { if (e && e.cancelable && e.type === "touchstart") e.preventDefault(); card.open = true; };
      var hide = function () { card.open = false; };
      summary.addEventListener("click", function (e) { e.preventDefault(); });
      summary.addEventListener("pointerdown", show);
      summary.addEventListener("touchstart", show, { passive: false });
      ["pointerup", "pointercancel", "pointerleave", "touchend", "touchcancel", "blur"].forEach(
        function (type) { summary.addEventListener(type, hide); });
      summary.addEventListener("keydown", function (e) {
        if (e.key === " " || e.key === "Enter") { e.preventDefault(); card.open = true; }
      });
      summary.addEventListener("keyup", function (e) {
        if (e.key === " " || e.key === "Enter") { e.preventDefault(); card.open = false; }
      });
      summary.addEventListener("contextmenu", function (e) { e.preventDefault(); });
    });
  }

  // --- secrets close by themselves: "What you know" ([data-auto-hide] seconds after it was
  // opened, and at once when the player leaves the page), so a glance at the phone later shows
  // only what the table knows. A live refresh in between keeps it open until its time is up. ---
  var openedAt = {};

  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (!d.matches || !d.matches("details[data-auto-hide]")) return;
    if (d.open && !openedAt[d.id]) openedAt[d.id] = Date.now();
    if (!d.open) delete openedAt[d.id];
  }, true);

  function autoHide(all) {
    document.querySelectorAll("details[data-auto-hide][open]").forEach(function (d) {
      var limit = parseFloat(d.getAttribute("data-auto-hide")) * 1000;
      if (all || !openedAt[d.id] || Date.now() - openedAt[d.id] >= limit) {
        d.open = false;
        delete openedAt[d.id];
      }
    });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") autoHide(true);
  });
  window.addEventListener("pagehide", function () { autoHide(true); });

  // --- game words (games/presenters/glossary.py, templates/games/_term.html; docs/phone-screens.md "Game
  // words"): the first time a word is on this browser's screen its explanation shows open, once;
  // "seen" is kept in localStorage, across games (once you know what a Feast is, you know it), and
  // a word counts as seen only once its open explanation was on screen. After that every term is
  // closed, a tap away. A term the player opened or closed stays so across live refreshes: its id
  // names the word, the place and the round, so a new round starts with seen words closed. -----
  var SEEN_WORDS = "staked:words-seen";
  var termOpen = {}; // term id -> open, for this page's life
  var firstSight = {}; // word -> id of the one term opened for it on first sight

  function seenWords() {
    try { return JSON.parse(window.localStorage.getItem(SEEN_WORDS) || "[]") || []; } catch (e) { return []; }
  }

  function onScreen(el) {
    if (el.checkVisibility && !el.checkVisibility()) return false; // inside a closed <details>
    var says = el.querySelector(".term-says") || el;
    var box = says.getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight; // all of it
  }

  function noteSeen() {
    var seen = seenWords(), added = false;
    document.querySelectorAll("details.term[open][data-term]").forEach(function (d) {
      var word = d.getAttribute("data-term");
      if (seen.indexOf(word) < 0 && onScreen(d)) { seen.push(word); added = true; }
    });
    if (added) {
      try { window.localStorage.setItem(SEEN_WORDS, JSON.stringify(seen)); } catch (e) { /* no storage: it opens again next load */ }
    }
  }

  function explainTerms(root) {
    var seen = seenWords();
    // A page (a load, a live refresh) opens a word only where its explanation is wholly on the
    // screen, as "seen" counts it: further down it stays a closed pill, a tap away (opened there,
    // each took 85-320 px under the fold and pushed the page past two screens). A section the
    // player opens shows its words open.
    var opened = root.matches && root.matches("details");
    root.querySelectorAll("details.term[data-term]").forEach(function (d) {
      if (Object.prototype.hasOwnProperty.call(termOpen, d.id)) {
        if (d.open !== termOpen[d.id]) d.open = termOpen[d.id]; // the player's choice, kept
        return;
      }
      var word = d.getAttribute("data-term");
      if (seen.indexOf(word) >= 0) return;
      if (firstSight[word] && document.getElementById(firstSight[word])) return; // once a page
      if (d.checkVisibility && !d.checkVisibility()) return; // its turn comes when shown
      if (!opened && d.getBoundingClientRect().top >= window.innerHeight) return; // below the fold
      d.open = true;
      if (!opened && d.getBoundingClientRect().bottom > window.innerHeight) {
        d.open = false; // its explanation would not be wholly on the screen: closed, a tap away
        return;
      }
      firstSight[word] = d.id;
      termOpen[d.id] = true;
    });
    noteSeen();
  }

  // Before a swap the page itself is the player's choice: a tap whose toggle event has not fired
  // yet (it fires a task later) is taken now, so the swap cannot reopen what was just closed.
  function keepTerms() {
    document.querySelectorAll("details.term[data-term][id]").forEach(function (d) {
      // The server renders every term closed: one open without a record is the player's tap.
      if (d.open || Object.prototype.hasOwnProperty.call(termOpen, d.id)) termOpen[d.id] = d.open;
    });
  }

  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (!d.matches || !d.matches("details")) return;
    if (d.matches("details.term")) {
      if (d.id) termOpen[d.id] = d.open;
    } else if (d.open) {
      explainTerms(d); // a section opened: a word inside it is shown now
    }
    noteSeen();
  }, true);

  // --- keep what the player was choosing when the game refreshes under their finger ----------
  var kept = null;

  function remember(root, keepChoices) {
    var checked = [];
    if (keepChoices) root.querySelectorAll("input[data-keep]:checked").forEach(function (input) {
      var form = input.form && input.form.getAttribute("data-action");
      checked.push([form, input.name, input.value]);
    });
    var open = [];
    root.querySelectorAll("details[data-keep-open][open]").forEach(function (d) { open.push(d.id); });
    var closed = [];
    root.querySelectorAll("details[data-keep-closed]:not([open])").forEach(function (d) { closed.push(d.id); });
    var values = [];  // a select the player set (how many bots, how much longer)
    if (keepChoices) root.querySelectorAll("select[data-keep-value]").forEach(function (select) {
      if (select.id) values.push([select.id, select.value]);
    });
    kept = { checked: checked, open: open, closed: closed, values: values };
  }

  function restore(root) {
    if (!kept) return;
    kept.checked.forEach(function (k) {
      var sel = 'form[data-action="' + k[0] + '"] input[data-keep][name="' + k[1] + '"]';
      root.querySelectorAll(sel).forEach(function (input) {
        if (input.value === k[2]) input.checked = true;
      });
    });
    kept.open.forEach(function (id) {
      var d = document.getElementById(id);
      if (d) d.open = true;
    });
    kept.closed.forEach(function (id) {
      var d = document.getElementById(id);
      if (d) d.open = false;
    });
    kept.values.forEach(function (k) {
      var select = document.getElementById(k[0]);
      if (select && select.querySelector('option[value="' + k[1] + '"]')) select.value = k[1];
    });
    kept = null;
  }

  // --- the confirm button says what it will do ------------------------------------------------
  function describe(form) {
    var button = form.querySelector("button[data-confirm]");
    if (!button) return;
    if (!button.dataset.original) button.dataset.original = button.textContent;
    var token = form.querySelector('input[name="token"]:checked');
    var target = form.querySelector('input[name="target"]:checked');
    var needsToken = !!form.querySelector('input[name="token"]');
    if (target && (token || !needsToken)) {
      button.textContent = button.dataset.confirm
        .replace("{token}", token ? token.dataset.label : "")
        .replace("{target}", target.dataset.label + " (" + target.value + ")");
      button.classList.add("ready");
    } else {
      button.textContent = button.dataset.original;
      button.classList.remove("ready");
    }
  }

  function describeAll(root) {
    root.querySelectorAll("form[data-action]").forEach(describe);
    root.querySelectorAll("[data-pairs]").forEach(pairUp);
    root.querySelectorAll("[data-max]").forEach(limit);
  }

  // --- a choice of up to `data-max` (a Last Will naming two, the Bangle's two tokens) ----------
  function limit(group) {
    var max = parseInt(group.getAttribute("data-max"), 10);
    var boxes = group.querySelectorAll("input[type=checkbox]");
    var ticked = 0;
    boxes.forEach(function (b) { if (b.checked) ticked += 1; });
    boxes.forEach(function (b) { if (!b.checked) b.disabled = ticked >= max; });
  }

  // --- a choice of two that the rules allow only in pairs (the Whisper-Wick Candle) ------------
  // `data-pairs` lists the legal pairs of values (the engine's offer): once one box is ticked,
  // only the boxes that make a legal pair with it stay enabled; with two, none more.
  function pairUp(group) {
    var pairs = JSON.parse(group.getAttribute("data-pairs"));
    var boxes = group.querySelectorAll("input[type=checkbox]");
    var ticked = [];
    boxes.forEach(function (b) { if (b.checked) ticked.push(b.value); });
    boxes.forEach(function (b) {
      if (b.checked) { b.disabled = false; return; }
      b.disabled = ticked.length >= 2 || (ticked.length === 1 && !pairs.some(function (p) {
        return (p[0] === ticked[0] && p[1] === b.value) || (p[1] === ticked[0] && p[0] === b.value);
      }));
    });
  }

  document.addEventListener("change", function (e) {
    if (e.target.form) describe(e.target.form);
    var group = e.target.closest && e.target.closest("[data-pairs]");
    if (group) pairUp(group);
    var capped = e.target.closest && e.target.closest("[data-max]");
    if (capped) limit(capped);
  });

  // --- announcements for screen readers -------------------------------------------------------
  var lastAnnouncement = null;

  function announce(root) {
    var el = root.querySelector("[data-announce]");
    if (!el) return;
    var text = el.textContent.trim();
    if (text && text !== lastAnnouncement) {
      if (lastAnnouncement !== null) document.getElementById("announcer").textContent = text;
      lastAnnouncement = text;
    }
  }

  // --- copy and share the invite link ------------------------------------------------------
  document.addEventListener("click", function (e) {
    var copy = e.target.closest("[data-copy]");
    if (copy && navigator.clipboard) {
      navigator.clipboard.writeText(copy.getAttribute("data-copy")).then(function () {
        copy.textContent = "Copied!";
      });
    }
    var share = e.target.closest("[data-share]");
    if (share) {
      var url = share.getAttribute("data-share");
      if (navigator.share) {
        navigator.share({ title: share.getAttribute("data-share-title"), url: url }).catch(function () {});
      } else if (navigator.clipboard) {
        navigator.clipboard.writeText(url).then(function () { share.textContent = "Link copied!"; });
      }
    }
  });

  // --- the table's time zone: the host's browser zone, unless they typed another ------------
  function browserZone(root) {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
    root.querySelectorAll("input[data-browser-zone]").forEach(function (input) {
      if (!input.value && zone) input.value = zone;
    });
  }

  // --- the shared regions (games/web/regions.py): the same HTML for every phone; this phone's
  // own seat is marked here, and each request says which versions of them the page holds, so
  // that an answer brings back only those that moved. ---
  function markMine() {
    var game = document.getElementById("game");
    var mine = game && game.getAttribute("data-my-seat");
    document.querySelectorAll("#table-region li.seat[data-seat]").forEach(function (li) {
      var me = li.getAttribute("data-seat") === mine;
      li.classList.toggle("is-me", me);
      var name = li.querySelector(".seat-name");
      var mark = name && name.querySelector(".you");
      if (me && name && !mark) {
        mark = document.createElement("span");
        mark.className = "muted you";
        mark.textContent = " (you)";
        name.insertBefore(mark, name.querySelector(".visually-hidden"));
      } else if (!me && mark) {
        mark.remove();
      }
    });
  }

  document.addEventListener("htmx:configRequest", function (e) {
    var held = [];
    document.querySelectorAll("[data-region-version]").forEach(function (el) {
      held.push(el.id.replace(/-region$/, "") + "=" + el.getAttribute("data-region-version"));
    });
    if (held.length) e.detail.headers["X-Staked-Regions"] = held.join(",");
  });

  // --- sections one tap away (the table, the log: details[data-remember]): open or closed as
  // the player left them, on this browser, across refreshes and games. ---
  var SECTIONS = "staked:sections";

  function sections() {
    try { return JSON.parse(window.localStorage.getItem(SECTIONS) || "{}") || {}; } catch (e) { return {}; }
  }

  function applySections() {
    var kept = sections();
    document.querySelectorAll("details[data-remember][id]").forEach(function (d) {
      if (Object.prototype.hasOwnProperty.call(kept, d.id) && d.open !== kept[d.id]) d.open = kept[d.id];
    });
  }

  // Only the player's own tap counts (a live refresh does not).
  document.addEventListener("click", function (e) {
    var summary = e.target.closest && e.target.closest("summary");
    var d = summary && summary.parentElement;
    if (!d || !d.matches("details[data-remember][id]")) return;
    var kept = sections();
    kept[d.id] = !d.open; // the click opens or closes it right after this
    try { window.localStorage.setItem(SECTIONS, JSON.stringify(kept)); } catch (err) { /* no storage: as the page says next load */ }
  });

  function setUp(root) {
    markMine();
    applySections();
    browserZone(root);
    syncClock(root);
    bindHold(root);
    restore(root);
    explainTerms(root);
    describeAll(root);
    announce(root);
    badge(root);
    localTimes(root);
    tick();
  }

  document.addEventListener("DOMContentLoaded", function () {
    setUp(document);
    setInterval(function () { tick(); autoHide(false); noteSeen(); }, 1000);
  });
  // Polls ([data-poll-visible]) only while the page is in view. Not a trigger filter: those are
  // eval'd, and the Content-Security-Policy allows no eval.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    if (document.visibilityState !== "visible" && elt && elt.hasAttribute("data-poll-visible")) {
      e.preventDefault();
    }
  });

  document.addEventListener("htmx:beforeSwap", function (e) {
    // Only a live refresh keeps the choices; after the player's own move the form starts afresh.
    // The whole document: the shared regions (the log) come back out of band beside #game.
    // Only an answer that will be swapped: a 204 ("nothing changed") also passes here, and what
    // it remembered would be put back by a later, unrelated swap over the player's newer choice.
    var verb = e.detail.requestConfig && e.detail.requestConfig.verb;
    if (e.detail.shouldSwap && e.detail.target && e.detail.target.id === "game") {
      remember(document, verb === "get");
    }
    keepTerms();
  });
  // The choices come back in the swap's own task, not at settle (were a settle delay set, a tap
  // in between would be overwritten, or a choice look lost under the player's finger).
  document.addEventListener("htmx:afterSwap", function () { restore(document); });

  // --- a news card that arrives above the view (the player scrolled down) gets a cue ---------
  var newsBefore = null;
  function newsNumbers() {
    return Array.prototype.map.call(document.querySelectorAll("#game [data-news]"), function (n) {
      return n.getAttribute("data-news");
    });
  }
  function dropCue() {
    var cue = document.querySelector("[data-news-cue]");
    if (cue) cue.remove();
  }
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "game") newsBefore = newsNumbers();
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (newsBefore === null) return;
    var before = newsBefore;
    newsBefore = null;
    var fresh = Array.prototype.filter.call(document.querySelectorAll("#game [data-news]"), function (n) {
      return before.indexOf(n.getAttribute("data-news")) < 0;
    });
    if (!fresh.length || fresh[0].getBoundingClientRect().bottom > 0) return;  // in view already
    dropCue();
    var cue = document.createElement("button");
    cue.type = "button";
    cue.className = "news-cue";
    cue.setAttribute("data-news-cue", "");
    cue.textContent = "✉ News for you, above ↑";
    cue.addEventListener("click", function () {
      var card = document.querySelector("#game [data-news]");
      if (card) card.scrollIntoView({ block: "start" });
      dropCue();
    });
    document.body.appendChild(cue);
  });
  window.addEventListener("scroll", function () {
    var cue = document.querySelector("[data-news-cue]");
    var card = document.querySelector("#game [data-news]");
    if (cue && (!card || card.getBoundingClientRect().bottom > 0)) dropCue();
  }, { passive: true });
  document.addEventListener("htmx:afterSettle", function () { setUp(document); });

  // --- "Since you last looked" (games/services/news.py): each request says how long this page was out of
  // sight before it (seconds), so the server tells a player watching the page live (no card)
  // from one who comes back to a tab left in the background for hours. Captured on window:
  // before htmx's own visibilitychange poll is sent. ---
  var hiddenAt = null, hiddenFor = 0;
  window.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") {
      hiddenAt = Date.now();
    } else if (hiddenAt !== null) {
      hiddenFor = Math.max(hiddenFor, Date.now() - hiddenAt);
      hiddenAt = null;
    }
  }, true);
  document.addEventListener("htmx:configRequest", function (e) {
    e.detail.headers["X-Staked-Hidden"] = String(Math.round(hiddenFor / 1000));
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail.successful) hiddenFor = 0;
  });
})();
