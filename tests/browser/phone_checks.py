"""What every phone must show at every phase, in one function.

`check_seat(phone)` asserts, for one seat as it is now:
(a) its control (the first form of "Your move") or the reason it waits
    (games/presenters/waiting.py's `[data-waiting]`) is inside the first screen (on the end screen:
    who won);
(b) every unacknowledged private news card is inside the first screen (a card that takes over
    the screen is checked, then read with "Got it", as a person would, before the rest);
(c) nothing overflows horizontally; (d) no rule ID in the visible text; (e) every tap target is
at least 44x44 px; (f) with `axe=True`, axe-core finds no serious or critical violation;
(h) once its news is read, the seat's own title, where it has one, is inside the first screen:
"You are a Ghost" for a Ghost, "You are the Alpha Hunter this round" for the living Alpha
(`check_every_phone`, from the game's state, on every phone), and no card on the page is empty;
(g) the page as the player found it is at most two screens (MAX_HEIGHT, 1,688 px at 390x844):
every section closed (the pills at the end: what you hold and know, the full Dining, the table,
the log, table talk; a relic usable besides the move; one a test opened is closed for the
measure), news cards still unread, words open where the page opened them. Printed per phase
(`check_every_phone`); a page over is saved as artifacts/too-tall-seat-N.png before it fails.

It leaves every news card it found unread unless `read_news=True`: then, once checked, each is
read with "Got it", so that the next phase's news arrives on a phone that read the last.
"""

from __future__ import annotations

import time
from pathlib import Path

from games.models import Game
from tests.browser.conftest import ARTIFACTS
from tests.browser.pages import Phone
from tests.conftest import HYPOTHESIS_PROFILE

CONTROL = "#game section.actions form[data-action], #game section.actions [data-waiting]"
NEWS = "#game .news"
TAKEOVER = "#game .news-takeover"
END = "#game .end .end-title"
MAX_HEIGHT = 2 * 844  # (g) px: two screens of a 390x844 phone
HEIGHTS: list[tuple[int, int]] = []  # (seat, px) of every page checked in this process
UPDATES: list[float] = []  # seconds from a move's commit until a phone showed it (printed)


def check_seat(
    phone: Phone, *, axe: bool = False, shot: Path | None = None, read_news: bool = True
) -> None:
    """(a)-(f) above for `phone`'s seat, and (g) measured; `shot`: save a screenshot of the
    first screen there (taken with any news still on it: what the player sees first)."""
    page = phone.page
    # The Dining's reveal fades its steps in: judge the page as it ends, not mid-fade.
    page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
    if shot is not None:
        page.evaluate("window.scrollTo(0, 0)")
        phone.screenshot(shot)
    while page.locator(TAKEOVER).count():  # (b) it covers the screen, so it comes first
        _check_news(phone, TAKEOVER)
        _check_page(phone, axe=axe)
        phone.got_it()
    for i in range(page.locator(NEWS).count()):  # (b) each card, top to bottom
        _check_news(phone, f"{NEWS} >> nth={i}")
    try:
        if page.locator("#game.status-finished").count():
            phone.check_in_first_screen(END)  # (a) the end screen: who won, first
        else:
            phone.check_in_first_screen(CONTROL)  # (a)
    except AssertionError:  # the whole page as it was, to see what pushed the control down
        phone.screenshot(ARTIFACTS / f"failed-seat-{phone.seat}.png", full_page=True)
        raise
    _check_page(phone, axe=axe)
    _check_height(phone)  # (g)
    if read_news:
        while page.locator(NEWS).count():
            phone.got_it()


def check_title(phone: Phone, *, ghost: bool, alpha: bool) -> None:
    """(h): the title the rules give this seat now is said on its first screen, and no card of
    the page is an empty box."""
    page = phone.page
    if page.locator("#game.status-finished").count() == 0:
        if ghost:
            phone.check_in_first_screen("#game #ghost-title")
        if alpha and not ghost:
            phone.check_in_first_screen("#game [data-alpha-line]")
        assert page.locator("#game [data-alpha-line]").count() == int(alpha and not ghost)
    empty = page.evaluate(
        """() => [...document.querySelectorAll("#game .card")]
             .filter(c => c.checkVisibility() && !c.innerText.trim())
             .map(c => c.className + ": " + c.outerHTML.slice(0, 200))"""
    )
    assert not empty, f"{phone.name}: empty cards {empty}"


def control_of(phone: Phone) -> str:
    """The seat's control as the page names it: its first action, or its waiting sentence."""
    found = phone.page.locator(CONTROL)
    if not found.count():
        return "end" if phone.page.locator(END).count() else "none"
    return found.first.get_attribute("data-action") or found.first.inner_text()


def _check_news(phone: Phone, selector: str) -> None:
    phone.check_in_first_screen(f"{selector} >> .news-title")
    phone.check_in_first_screen(f"{selector} >> button")  # "Got it" within reach too


# The page's height as the player found it: the sections a test opened (as a player would: the
# full Dining, the table, the log) closed for the measure and opened again, the same task, so no
# frame shows it; the recap (open as the page comes) and the words opened on first sight stay.
HEIGHT_UNOPENED = """() => {
  const opened = [...document.querySelectorAll("details[open]")]
    .filter(d => !d.matches(".term, .recap, .move-more:has(.form-error)"));
  opened.forEach(d => { d.open = false; });
  const height = document.documentElement.scrollHeight;
  opened.forEach(d => { d.open = true; });
  return height;
}"""


def _check_height(phone: Phone) -> None:
    height = phone.page.evaluate(HEIGHT_UNOPENED)
    HEIGHTS.append((phone.seat, height))
    if height > MAX_HEIGHT:  # the whole page (as the test left it), to see what made it tall
        phone.screenshot(ARTIFACTS / f"too-tall-seat-{phone.seat}.png", full_page=True)
    assert height <= MAX_HEIGHT, f"{phone.name}'s page is {height} px tall, over two screens"


def _check_page(phone: Phone, *, axe: bool) -> None:
    phone.check_fits_the_phone()  # (c), and (e) through check_tap_targets
    phone.check_words_for_people()  # (d)
    if axe:
        phone.check_accessibility()  # (f)


# `make test` checks, at each phase, the first phone of each kind of screen and of each role
# (the seats that move first), and runs axe-core once per game on each kind of screen (its form,
# or waiting; Ghost or not; with news or not); `make test-long` (HYPOTHESIS_PROFILE=long) checks
# every phone, with axe-core on each kind at every phase.
EVERY_PHONE = HYPOTHESIS_PROFILE == "long"
AXED: set[tuple] = set()  # (game code, kind of screen) already checked by axe-core (`make test`)


def axe_kind(phone: Phone, ghost: bool) -> tuple:
    control = phone.page.locator(CONTROL)
    form = control.first.get_attribute("data-action") if control.count() else None
    return (form or "waiting", ghost, phone.page.locator(NEWS).count() > 0)


def read_all_news(phone: Phone) -> None:
    while phone.page.locator(TAKEOVER).count():
        phone.got_it()
    while phone.page.locator(NEWS).count():
        phone.got_it()


def check_every_phone(
    code: str,
    table: list[Phone],
    phase: str,
    artifacts: Path,
    roles: dict[int, str],
    movers: set[int] | frozenset[int] = frozenset(),
) -> None:
    """Every phone shows the game as it is now (the server's version), then `check_seat` on each,
    the seats that move first. (a)-(e) on every phone; axe-core (f), about 0.65 s a page, on the
    first phone of each kind of screen (its control, Ghost or not, with news or not) that this
    game has not shown axe yet (`make test-long`: at every phase; 71 runs in the eight-phone game,
    where every phone at every phase would be about 220). One screenshot per role (a Ghost's
    role counts apart), of the first phone of that role: artifacts/<phase>-<role>.png, `phase`
    starting with its round."""
    game = Game.objects.get(code=code)
    ghosts = set(game.state["ghosts"])
    # The phase's last tap has been answered: how long until each phone shows its version
    # (the waits follow one another, so each is an upper bound; the mover's own page came with
    # its answer).
    asked = time.monotonic()
    for phone in table:
        phone.page.wait_for_function(
            f"() => +document.querySelector('#game').dataset.version >= {game.version}"
        )
        UPDATES.append(time.monotonic() - asked)
    waits = sorted(UPDATES)
    print(
        f"tap-to-update so far: p50 {waits[len(waits) // 2]:.2f} s, "
        f"p95 {waits[int(len(waits) * 0.95)]:.2f} s over {len(waits)} phone updates"
    )
    axed: set[tuple] = set()  # the kinds of screen checked in full at this phase
    shots: set[Path] = set()
    measured = len(HEIGHTS)
    alpha = game.state.get("alpha") if game.status == Game.Status.RUNNING else None
    for phone in sorted(table, key=lambda p: (p.seat not in movers, p.seat)):
        role = roles[phone.seat] + ("-ghost" if phone.seat in ghosts else "")
        shot = artifacts / f"{phase}-{role}.png"
        screen = (control_of(phone), phone.seat in ghosts, phone.page.locator(NEWS).count() > 0)
        kind = (code, *axe_kind(phone, phone.seat in ghosts))
        axe = screen not in axed if EVERY_PHONE else kind not in AXED
        if EVERY_PHONE or screen not in axed or shot not in shots:
            check_seat(phone, axe=axe, shot=None if shot in shots else shot)
            if axe:
                AXED.add(kind)
        else:  # a screen of a kind already checked at this phase: its news read, as a player would
            read_all_news(phone)
        check_title(phone, ghost=phone.seat in ghosts, alpha=phone.seat == alpha)  # news read
        axed.add(screen)
        shots.add(shot)
    heights = sorted(h for _, h in HEIGHTS[measured:])
    over = sum(h > MAX_HEIGHT for h in heights)
    print(f"page heights at {phase}: max {heights[-1]} px, median {heights[len(heights) // 2]} px,")
    print(f"  {over} of {len(heights)} pages over {MAX_HEIGHT} px")
