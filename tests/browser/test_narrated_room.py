"""The narrated room screen in a real browser: a laptop at 1280×720 opens `/t/{code}/`,
the bots play a whole game, and every line the page hands to the speech synthesis is captured
(`speechSynthesis` is replaced before the page loads, so nothing is heard and every call is kept).

The lines must come in the order the game produced them, each once, and none may name a secret:
no role of a living player before the end, no private result, nothing about the tokens of a
Mingling still going on."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.engine import state_from_json
from games.engine.view import waiting_for
from games.models import Event, Game, Player
from games.presenters import narration
from games.selectors import game as selectors
from tests.browser.conftest import WAIT_MS
from tests.factories import running_game

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips these tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = {"viewport": {"width": 1280, "height": 720}}
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
SEED = 20261130
ROLE_WORDS = re.compile(r"Hunter|Vampire|Lord|Mesmeri", re.IGNORECASE)
CONFESSION = re.compile(r"^(\w+) was (a Hunter|a Vampire|the Vampire Lord)\.$")

# Replaces the browser's speech synthesis before any script of the page runs: each utterance is
# kept with what the screen showed when it was queued.
SPEECH_STUB = """
(() => {
  const spoken = [];
  window.__spoken = spoken;
  window.__cancelled = 0;
  window.SpeechSynthesisUtterance = class {
    constructor(text) { this.text = text; this.rate = 1; this.voice = null; this.lang = ""; }
  };
  const voices = [
    {name: "Test Voice", voiceURI: "test-voice", lang: "en-GB", default: false},
    {name: "Other Voice", voiceURI: "other-voice", lang: "fr-FR", default: true},
  ];
  const synth = {
    speaking: false, pending: false, paused: false,
    speak(u) {
      const board = document.getElementById("display");
      const round = board && board.querySelector(".round");
      spoken.push({
        text: u.text, rate: u.rate, voice: u.voice ? u.voice.voiceURI : null,
        phase: board ? board.querySelector(".phase").dataset.phase : null,
        round: round ? round.textContent : null,
      });
    },
    cancel() { window.__cancelled += 1; },
    pause() {}, resume() {},
    getVoices() { return voices; },
    addEventListener() {}, removeEventListener() {},
  };
  Object.defineProperty(window, "speechSynthesis", {value: synth, configurable: true});
})();
"""


def screen(browser, server):
    context = browser.new_context(base_url=server.url, **SCREEN)
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(SPEECH_STUB)
    return context


def spoken(page) -> list[dict]:
    return page.evaluate("window.__spoken")


def bots_lobby() -> Game:
    """Six seats whose players the bots will play (the test moves them, one move at a time)."""
    users = [get_user_model().objects.create_user(f"{n.lower()}-{SEED}") for n in NAMES]
    game = services.game_create(host=users[0], options={"seed": SEED}, name=NAMES[0])
    for user, name in zip(users[1:], NAMES[1:], strict=True):
        services.game_join(code=game.code, user=user, name=name)
    game.users = users
    return game


def one_move(game: Game) -> None:
    """A bot moves for a seat the game waits on (services.bot_act, as the Celery task does);
    when nobody can, the open window's timer runs out."""
    game.refresh_from_db()
    state = state_from_json(game.state)
    if not any(services.bot_act(game_id=game.id, seat=s) for s in waiting_for(state)):
        services.game_expire(game_id=game.id, now=state.deadline + 1)


class Script:
    """The lines the public view offered, in the order they first appeared (what a screen that
    saw every change would say), with who was alive at that moment."""

    def __init__(self):
        self.lines: list[dict] = []
        self.ids: set[str] = set()

    def add(self, game: Game) -> bool:
        game.refresh_from_db()
        view = selectors.game_view(game, None)
        living = {s["name"] for s in view["seats"] if s["alive"]}
        # As the room screen gets it (games/web/display.py): the Last Wills' lines beside the view.
        view = {**view, "last_will_lines": selectors.last_will_lines(game)}
        new = [line for line in narration.lines(view) if line["id"] not in self.ids]
        for line in new:
            self.ids.add(line["id"])
            self.lines.append({**line, "living": living, "over": view["status"] == "finished"})
        return bool(new)


@pytest.mark.long(18)
def test_the_room_screen_says_a_whole_game_in_order_and_never_a_secret(browser, server, artifacts):
    game = bots_lobby()
    context = screen(browser, server)
    try:
        tv = context.new_page()
        tv.goto(f"/t/{game.code}/")
        board = tv.locator("#display")
        panel = tv.locator("#narrator")
        expect(panel).to_be_visible()
        toggle = panel.get_by_role("button", name=re.compile("Narrator"))
        expect(toggle).to_have_attribute("aria-pressed", "false")  # muted until tapped

        # Voice and speed are the room's choice, kept in this browser across reloads.
        panel.locator("summary").click()
        panel.get_by_label("Voice").select_option("test-voice")
        panel.get_by_label("Speed").select_option("1.2")
        tv.reload()
        expect(panel.get_by_label("Voice")).to_have_value("test-voice")
        expect(panel.get_by_label("Speed")).to_have_value("1.2")

        script = Script()
        script.add(game)
        # The game starts while the narrator is muted: nothing is said, nothing saved up.
        services.game_start(code=game.code, user=game.users[0])
        Player.objects.filter(game=game).update(is_bot=True)
        script.add(game)
        expect(board.locator(".phase")).to_have_text("Mingling")
        assert spoken(tv) == []
        muted = set(script.ids)

        toggle.click()  # on: it says where the game is now
        expect(toggle).to_have_attribute("aria-pressed", "true")
        expect(toggle).to_contain_text("on")
        tv.wait_for_function("() => window.__spoken.length === 1")
        assert spoken(tv)[0]["text"] == "Round 1: Mingling. Place your tokens."

        shot = False
        while game.status != Game.Status.FINISHED:
            one_move(game)
            if script.add(game):  # new lines: let the screen show them before the next move
                expect(board).to_have_attribute("data-version", str(game.version))
            if not shot and any(line["id"] == "r2-eliminated" for line in script.lines):
                tv.screenshot(path=str(artifacts / "room-narrated.png"))
                shot = True
            assert game.round < 12, "the game should have ended by now"
        expect(board.locator(".display-end")).to_be_visible()
        expected = [line for line in script.lines if line["id"] not in muted]
        tv.wait_for_function(f"() => window.__spoken.length >= {len(expected) + 1}")
        said = spoken(tv)
        tv.screenshot(path=str(artifacts / "room-narrated-end.png"))
    finally:
        context.close()

    # In order, each once, as the game produced them; in the room's voice and speed.
    assert [s["text"] for s in said[1:]] == [line["text"] for line in expected]
    assert all((s["voice"], s["rate"]) == ("test-voice", 1.2) for s in said)
    ids = [line["id"] for line in expected]
    for needed in ("r1-dining", "r1-alpha", "r2-mingling", "r2-dining", "end", "end-roles"):
        assert needed in ids, (needed, ids)
    assert any(re.fullmatch(r"r\d+-eliminated", i) for i in ids)
    assert any(re.fullmatch(r"r\d+-will-\d+", i) for i in ids)

    # Never a secret.
    private = [e.text for e in Event.objects.filter(game=game, audience__isnull=False)]
    names = {p.seat: p.name for p in game.players.all()}
    private = [narration.plain(text, names) for text in private]
    by_text = {line["text"]: line for line in expected}
    assert private  # night information at least (R1.3): something to keep secret
    said_in_mingling = 0
    for s in said[1:]:
        line = by_text[s["text"]]
        assert not any(p in s["text"] for p in private), s["text"]
        if not line["over"]:  # R1.4: roles only at the end; a Public Confession is a Ghost's
            confessed = CONFESSION.match(s["text"])
            if confessed:
                assert confessed.group(1) not in line["living"], s["text"]
            else:
                words = re.sub(r"“[^”]*”", "", s["text"]).replace("Alpha Hunter", "")
                assert not ROLE_WORDS.search(words), s["text"]
        if s["phase"] == "mingling":  # this round's tokens are still face down
            this_round = s["round"].replace("Round ", "r") + "-"
            assert not line["id"].startswith(this_round) or line["id"].endswith("-mingling")
            said_in_mingling += 1
    assert said_in_mingling, "no line was said during a Mingling: the check above never ran"


@pytest.mark.long(15)
def test_the_room_screen_says_the_time_left_at_one_minute_and_at_ten_seconds(browser, server):
    long_window, short_window = running_game(6, mingling=72), running_game(6, mingling=22)
    context = screen(browser, server)
    try:
        pages = []
        for game in (long_window, short_window):
            page = context.new_page()
            page.goto(f"/t/{game.code}/")
            page.get_by_role("button", name=re.compile("Narrator")).click()
            page.wait_for_function("() => window.__spoken.length === 1")
            pages.append(page)
        minute, ten = pages
        minute.wait_for_function("() => window.__spoken.length === 2", timeout=30_000)
        ten.wait_for_function("() => window.__spoken.length === 2", timeout=30_000)
        assert spoken(minute)[1]["text"] == "One minute left to place your tokens."
        assert spoken(ten)[1]["text"] == "Ten seconds left."
        assert len(spoken(minute)) == 2  # said once: the cue is not repeated on every tick
        # Muted again: speech stops at once.
        minute.get_by_role("button", name=re.compile("Narrator")).click()
        assert minute.evaluate("window.__cancelled") == 1
    finally:
        context.close()
