/* The room screen's narrator (/t/{code}/): speaks what the table display shows, with the
 * browser's own speech synthesis (nothing leaves the browser).
 *
 * The server builds the words from the public view (games/presenters/narration.py) and puts them in the
 * page as JSON (#narration's data-lines, inside the polled #display): a list of lines with stable ids, and
 * the time cues of the open window. This file only queues, in order, the lines it has not said
 * yet, and says a cue when the time left (the countdown's data-deadline) passes it.
 *
 * Muted when the page opens: browsers refuse to speak before a tap, and a screen that starts
 * talking by itself surprises a room. Lines that come while muted are skipped, not saved up.
 * The voice and the speed are kept in localStorage. */
(function () {
  "use strict";

  var synth = window.speechSynthesis;
  if (!synth || !window.SpeechSynthesisUtterance) return; // the controls stay hidden

  var PREFIX = "staked.narrator.";
  var CUE_GRACE = 5; // seconds: a cue first seen up to this late is still said
  var said = Object.create(null); // line or cue id -> true (said, or passed while muted)
  var above = Object.create(null); // cue id -> true once seen with more time left than it
  var on = false;
  var cues = []; // [{seconds, text}] of the open window
  var deadline = null; // its deadline (ISO 8601), from the countdown
  var skew = 0; // server time - this screen's time, in ms
  var lastLine = null;

  function stored(name) {
    try { return window.localStorage.getItem(PREFIX + name); } catch (e) { return null; }
  }

  function store(name, value) {
    try { window.localStorage.setItem(PREFIX + name, value); } catch (e) { /* private mode */ }
  }

  function chosenVoice() {
    var uri = stored("voice");
    if (!uri) return null;
    var voices = synth.getVoices();
    for (var i = 0; i < voices.length; i++) if (voices[i].voiceURI === uri) return voices[i];
    return null;
  }

  function say(text) {
    var utterance = new SpeechSynthesisUtterance(text);
    var voice = chosenVoice();
    utterance.lang = voice ? voice.lang : document.documentElement.lang || "en";
    if (voice) utterance.voice = voice;
    utterance.rate = parseFloat(stored("rate")) || 1;
    synth.speak(utterance); // the browser queues it after the lines before
  }

  // --- the lines and cues from the server --------------------------------------------------
  function read() {
    var el = document.getElementById("narration");
    if (!el) return null;
    try { return JSON.parse(el.getAttribute("data-lines")); } catch (e) { return null; }
  }

  function syncClock() {
    var el = document.querySelector("#display [data-deadline]");
    deadline = el ? el.getAttribute("data-deadline") : null;
    var server = el ? Date.parse(el.getAttribute("data-now")) : NaN;
    if (!isNaN(server)) skew = server - Date.now();
  }

  function update(speak) {
    var data = read();
    if (!data) return;
    syncClock();
    data.lines.forEach(function (line) {
      lastLine = line.text;
      if (said[line.id]) return;
      said[line.id] = true;
      if (speak && on) say(line.text);
    });
    cues = data.timer ? data.timer.cues : [];
    tick();
  }

  // A cue is said when the time left passes it: only if this screen saw the window with more
  // time left (a 60 s tie vote does not open with "One minute left"), and not long after (a
  // screen that slept through it stays quiet).
  function tick() {
    if (!deadline) return;
    var left = (Date.parse(deadline) - (Date.now() + skew)) / 1000;
    cues.forEach(function (cue) {
      var id = deadline + "/" + cue.seconds; // once per window and cue
      if (said[id]) return;
      if (left > cue.seconds) {
        above[id] = true;
        return;
      }
      said[id] = true;
      if (on && above[id] && left > cue.seconds - CUE_GRACE) say(cue.text);
    });
  }

  // --- the controls ---------------------------------------------------------------------------
  function setOn(value) {
    on = value;
    var button = document.querySelector("[data-narrator-toggle]");
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.querySelector(".narrator-icon").textContent = on ? "🔊" : "🔇";
    button.querySelector(".narrator-state").textContent = on ? "on" : "off";
    var hint = document.querySelector("[data-narrator-hint]");
    if (hint) hint.hidden = on;
    if (on) {
      say(lastLine || "The narrator is on."); // where the game is now: the latest line
    } else {
      synth.cancel();
    }
  }

  function fillVoices(select) {
    var voices = synth.getVoices().slice().sort(function (a, b) {
      var ae = a.lang.indexOf("en") === 0 ? 0 : 1;
      var be = b.lang.indexOf("en") === 0 ? 0 : 1;
      return ae - be || a.name.localeCompare(b.name);
    });
    var keep = stored("voice") || "";
    while (select.options.length > 1) select.remove(1);
    voices.forEach(function (voice) {
      var option = document.createElement("option");
      option.value = voice.voiceURI;
      option.textContent = voice.name + " (" + voice.lang + ")";
      select.appendChild(option);
    });
    select.value = keep;
    if (select.value !== keep) select.value = ""; // that voice is not on this machine
  }

  function setUp() {
    var panel = document.getElementById("narrator");
    if (!panel) return;
    var voiceSelect = panel.querySelector("[data-narrator-voice]");
    var rateSelect = panel.querySelector("[data-narrator-rate]");
    fillVoices(voiceSelect);
    if (synth.addEventListener) {
      synth.addEventListener("voiceschanged", function () { fillVoices(voiceSelect); });
    }
    if (stored("rate")) rateSelect.value = stored("rate");
    panel.querySelector("[data-narrator-toggle]").addEventListener("click", function () {
      setOn(!on);
    });
    voiceSelect.addEventListener("change", function () {
      store("voice", voiceSelect.value);
      if (on) say("This is the narrator's voice.");
    });
    rateSelect.addEventListener("change", function () {
      store("rate", rateSelect.value);
      if (on) say("This is the narrator's speed.");
    });
    panel.hidden = false;
    update(false); // what the screen shows on opening counts as said
    window.setInterval(tick, 500);
  }

  document.addEventListener("DOMContentLoaded", setUp);
  // Each refresh of #display brings the lines anew; only the new ones are said.
  document.addEventListener("htmx:afterSettle", function () { update(true); });
})();
