"""The game's pages as a phone uses them: tap, tap, confirm (a page object for Playwright)."""

from __future__ import annotations

import re
from pathlib import Path

from games import services
from games.models import Game
from tests.secrets_on_page import token_types_outside_my_own

try:
    from playwright.sync_api import Page, expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    Page, expect = object, None

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
# axe-core from the npm registry, kept beside the tests (vendor/README.md): never served to players.
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
RULE_ID = re.compile(r"\bR\d+(?:\.\d+)+[a-z]?\b|\(R\d+[a-z]?\)")


class Phone:
    def __init__(self, page: Page, name: str):
        self.page = page
        self.name = name
        self.seat: int | None = None

    # --- getting to a table -------------------------------------------------------------------

    def open_table(self, *, last_wills: bool = True) -> str:
        """Open a new table from the home page; returns its code."""
        self.page.goto("/")
        create = self.page.locator("form[action='/new']")
        create.get_by_label("Your name").fill(self.name)
        create.locator('input[name="last_wills"]').set_checked(last_wills)
        create.get_by_role("button", name="Open the table").click()
        self.page.wait_for_url(re.compile(r"/g/[A-Z0-9]{6}/$"))
        self.seat = 1
        return self.code

    def join_by_link(self, url: str) -> None:
        self.page.goto(url)
        self.page.get_by_label("Your name").fill(self.name)
        self.page.get_by_role("button", name=re.compile("Join table")).click()
        expect(self.page.locator("#game")).to_contain_text("Leave this table")

    def join_by_code(self, code: str) -> None:
        self.page.goto("/")
        join = self.page.locator("form[action='/join']")
        join.get_by_label("Game code").fill(code.lower())
        join.get_by_label("Your name").fill(self.name)
        join.get_by_role("button", name="Join").click()
        expect(self.page.locator("#game")).to_contain_text("Leave this table")

    @property
    def code(self) -> str:
        return re.search(r"/g/([A-Z0-9]{6})/", self.page.url).group(1)

    # --- reading the page -------------------------------------------------------------------

    def version(self) -> int:
        return int(self.page.get_attribute("#game", "data-version"))

    def text(self, selector: str) -> str:
        return self.page.locator(selector).first.inner_text()

    def my_role(self) -> str:
        marker = self.page.locator(".role-face").get_attribute("data-secret-role")
        seat, role = marker.split(":")
        assert int(seat) == self.seat
        return role

    def is_alpha(self) -> bool:
        return (
            self.page.locator(f'#table-region .seat[data-seat="{self.seat}"].is-alpha').count() == 1
        )

    def round_over(self, number: int) -> bool:
        """Wait until round `number` is over; True when the game ended with it."""
        # Predicates are functions: a bare expression is eval'd, which the CSP forbids.
        self.page.wait_for_function(
            "() => document.querySelector('#game.status-finished') || "
            "(document.querySelector('#game .status-bar .round') || {}).textContent"
            f" === 'Round {number + 1}'"
        )
        return self.page.locator("#game.status-finished").count() == 1

    # --- acting -------------------------------------------------------------------------------

    def choose_token(self, token: str) -> None:
        form = self.page.locator('form[data-action="place_token"]')
        form.locator(f'label:has(input[name="token"][value="{token}"])').click()

    def choose_target(self, seat: int, action: str = "place_token") -> None:
        form = self.page.locator(f'form[data-action="{action}"]')
        form.locator(f'label:has(input[name="target"][value="{seat}"])').click()

    def confirm(self, action: str = "place_token", expect: int = 200, choose=None) -> None:
        """Tap the form's button until its request leaves. `choose()` makes the choices again
        before each tap after the first: a refresh that replaced the form under the finger can
        leave it without them, and the browser then sends nothing (a person taps them again)."""
        button = self.page.locator(f'form[data-action="{action}"] button[type=submit]')
        sent = []

        def watch(request):
            if "/act/" in request.url:
                sent.append(request)

        self.page.on("request", watch)
        for attempt in range(3):
            if attempt and choose is not None:
                choose()
            button.click()
            for _ in range(50):  # up to 5 s for the request to leave
                if sent:
                    break
                self.page.wait_for_timeout(100)
            if sent:
                break
            # The tap landed as a refresh replaced the form, and nothing was sent; a person
            # taps again. (Once a request has left, it is never sent twice.)
        self.page.remove_listener("request", watch)
        assert sent, f"the {action} was never sent"
        answer = sent[0].response()
        assert answer is not None and answer.status == expect, (answer, self.alert())
        if expect == 200:
            # Wait for this answer's own page, not merely a newer version: a poll that brought
            # another player's move while this one was being tapped raises the version too, and
            # the next tap could then land on the old form just before this answer replaces it.
            answered = int(re.search(r'data-version="(\d+)"', answer.text()).group(1))
            self.page.wait_for_function(
                f"() => +document.querySelector('#game').dataset.version >= {answered}"
            )
        else:
            self.page.wait_for_selector("#game [role=alert]")

    def place(self, token: str, seat: int) -> None:
        self.page.wait_for_selector('form[data-action="place_token"]')
        self.read_takeover_news()
        self.choose_token(token)
        self.choose_target(seat)
        self.confirm(choose=lambda: (self.choose_token(token), self.choose_target(seat)))

    def ready(self) -> None:
        """The role reveal before round 1 (games opened on the page have one): tap Ready."""
        self.page.wait_for_selector('form[data-action="ready"]')
        self.confirm("ready")

    def dial(self, action: str, seat: int) -> None:
        """Turn a dial: the Ghost dial, a tie vote, or the round-1 examiner choice."""
        self.page.wait_for_selector(f'form[data-action="{action}"]')
        self.read_takeover_news()
        self.choose_target(seat, action)
        self.confirm(action, choose=lambda: self.choose_target(seat, action))

    def got_it(self) -> None:
        """Tap "Got it" on the first news card, and wait for it to go."""
        card = self.page.locator("#game .news").first
        number = card.get_attribute("data-news")
        card.get_by_role("button", name="Got it").click()
        expect(self.page.locator(f'#game .news[data-news="{number}"]')).to_have_count(0)

    def read_takeover_news(self) -> None:
        """News that takes over the screen (being Mesmerized) is read before anything else."""
        while self.page.locator("#game .news-takeover").count():
            self.got_it()

    def alert(self) -> str:
        found = self.page.locator("#game [role=alert]")
        return found.inner_text() if found.count() else ""

    # --- waiting for the others (the page refreshes itself every 2 s) ---------------------------

    def wait_for_round(self, number: int) -> None:
        expect(self.page.locator("#game .status-bar .round")).to_have_text(f"Round {number}")

    def wait_for_placements(self, count: int) -> None:
        expect(self.page.locator("#table-region .table .placed-chip")).to_have_count(3 * count)

    def wait_for_dining(self, number: int) -> None:
        """Round `number`'s Dining is on the page, opened where it is a section (under the
        next round's recap it is one tap away), as a player who wants every step does."""
        expect(self.page.locator("#game .dining h2").first).to_contain_text(f"round {number}")
        self.open_dining()

    def open_section(self, section_id: str) -> None:
        """Open a section with a tap on its title, as a player does: the page remembers the tap
        (static/js/staked.js, data-remember), so the section stays open when a live refresh
        brings its region back. Setting `open` from a script would be undone by that refresh."""
        if not self.page.locator(f"#{section_id}[open]").count():
            self.page.locator(f"#{section_id} > summary").click()
        expect(self.page.locator(f"#{section_id}")).to_have_attribute("open", "")

    def open_dining(self) -> None:
        closed = self.page.locator("#game details.dining-section:not([open]) > summary")
        if closed.count():
            closed.first.click()

    def wait_for_reveal(self) -> None:
        """The Dining results appear one step after another: wait for the last step."""
        self.page.wait_for_function(
            "() => Array.from(document.querySelectorAll('#game .dining .step'))"
            ".every(el => getComputedStyle(el).opacity === '1')"
        )

    # --- checks ---------------------------------------------------------------------------------

    def check_role_card_hold(self) -> None:
        face = self.page.locator(".role-face")
        expect(face).to_be_hidden()
        summary = self.page.locator(".role-card summary")
        summary.scroll_into_view_if_needed()
        box = summary.bounding_box()
        self.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.page.mouse.down()
        expect(face).to_be_visible()
        self.page.mouse.up()
        expect(face).to_be_hidden()

    def check_hidden_information(self, roles: dict[int, str]) -> None:
        """The HTML of this seat names no other seat's role it was not told, and shows the type
        of no token but its own."""
        html = self.page.content()
        shown = set(re.findall(r'data-secret-role="([^"]+)"', html))
        assert f"{self.seat}:{roles[self.seat]}" in shown
        others = {s for s in shown if not s.startswith(f"{self.seat}:")}
        mine = roles[self.seat]
        if mine == "vampire":  # R1.3: a Vampire is told who the Lord and the Vampires are
            told = {str(s) for s, r in roles.items() if r != "hunter" and s != self.seat}
        else:  # six players: the Lord does not know the Vampire (R1.2); Hunters learn nothing
            told = set()
        assert others == told, (self.seat, mine, others)
        if mine == "hunter":
            assert "Vampire Lord" not in self.page.locator("#game").inner_text(), self.seat
        assert token_types_outside_my_own(html) == [], self.seat

    def check_fits_the_phone(self) -> None:
        """No horizontal scrolling; every control is at least 44 px tall."""
        self.page.wait_for_load_state()  # measured with the page's CSS, not before it came
        wide = self.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0, f"{wide}px of horizontal scrolling"
        small = self.page.evaluate(
            """Array.from(document.querySelectorAll(
                 '#game button, #game .chip, #game .seat-pick, #game .dial-pick, #game summary'))
               .filter(el => el.checkVisibility())
               .map(el => [el.textContent.trim().slice(0, 30), el.getBoundingClientRect().height])
               .filter(([, h]) => h < 44)"""
        )
        assert small == [], small
        self.check_tap_targets()

    def check_tap_targets(self) -> None:
        """Every control on the page a finger can reach is at least 44×44 px (a checkbox or
        radio button counts as its label, which is what a finger taps). Reach: rendered and not
        inside a closed section (`checkVisibility`: a closed details' content keeps its boxes,
        laid out in a pill's width, but no finger reaches it)."""
        small = self.page.evaluate(
            """Array.from(document.querySelectorAll(
                 'a[href], button, select, summary, input:not([type=hidden]), textarea'))
               .map(el => (el.matches('input[type=radio], input[type=checkbox]')
                           && el.closest('label')) || el)
               .filter(el => el.checkVisibility() && !el.closest('.visually-hidden, .skip'))
               .map(el => [el.tagName + ' ' + el.textContent.trim().slice(0, 30),
                           Math.round(el.getBoundingClientRect().width),
                           Math.round(el.getBoundingClientRect().height)])
               .filter(([, w, h]) => w < 44 || h < 44)"""
        )
        assert small == [], small

    def check_accessibility(self) -> None:
        """axe-core finds no serious or critical violation on the page as it is now (contrast
        included). Evaluated through the browser's devtools, so the page's CSP is untouched."""
        self.page.wait_for_load_state()
        # The Dining's reveal fades its steps in: judge the page as it ends, not mid-fade.
        self.page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
        if not self.page.evaluate("() => typeof window.axe === 'object'"):
            self.page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
        found = self.page.evaluate(
            """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
                 .filter(v => v.impact === 'serious' || v.impact === 'critical')
                 .map(v => [v.id, v.impact, v.nodes.slice(0, 4).map(n =>
                     n.target.join(' ') + ' | ' + (n.failureSummary || '').slice(0, 160))])"""
        )
        assert found == [], found

    def check_in_first_screen(self, selector: str) -> None:
        """`selector` is visible without scrolling: its top inside the first 844 px."""
        self.page.evaluate("window.scrollTo(0, 0)")
        box = self.page.locator(selector).first.bounding_box()
        assert box is not None, f"{selector} is not shown"
        assert 0 <= box["y"] and box["y"] + min(box["height"], 120) <= 844, (selector, box)

    def check_words_for_people(self) -> None:
        """No rule ID in anything the player can read (they are for developers and the rules)."""
        text = self.page.locator("body").inner_text()
        found = RULE_ID.findall(text)
        assert not found, found

    def screenshot(self, path: Path, *, selector: str | None = None, full_page=False) -> None:
        if selector:
            self.page.locator(selector).first.screenshot(path=str(path))
        else:
            self.page.screenshot(path=str(path), full_page=full_page)


def seat_six(
    pages: list[Page], *, artifacts: Path | None = None, ready: bool = True
) -> list[Phone]:
    """Ana opens a table on the home page; Cleo types the code, the others follow the invite
    link; Ana starts, and every phone taps Ready on its role reveal (`ready`: False leaves the
    table in the reveal). Returns the phones by seat."""
    table = [Phone(page, name) for page, name in zip(pages, NAMES, strict=True)]
    ana = table[0]
    code = ana.open_table(last_wills=False)  # a plain game: every vote goes as planned
    invite = ana.page.locator(".invite-link a").get_attribute("href")
    assert invite.endswith(f"/g/{code}/")
    for seat, phone in enumerate(table[1:], start=2):
        if phone.name == "Cleo":
            phone.join_by_code(code)
        else:
            phone.join_by_link(invite)
        phone.seat = seat
    expect(ana.page.locator(".lobby-seat")).to_have_count(6)
    expect(ana.page.locator("#game .deck")).to_contain_text("4 Hunters")
    if artifacts is not None:
        ana.check_fits_the_phone()
        ana.screenshot(artifacts / "lobby.png", full_page=True)
    if not ready:  # the test reads every phone's reveal: more than the live preset's 30 s
        game = Game.objects.get(code=code)
        timers = {**game.options["timers"], "reveal": 600}
        services.game_update_options(
            code=code, user=game.host, options={**game.options, "timers": timers}
        )
    ana.page.get_by_role("button", name="Start the game").click()
    if ready:
        start_round_one(table)
    return table


def start_round_one(table: list[Phone]) -> None:
    """After Start: each phone taps Ready on its role reveal, and round 1's Mingling opens on
    every phone (the last Ready opens it)."""
    for phone in table:
        phone.ready()
    for phone in table:
        phone.page.wait_for_selector('form[data-action="place_token"]')
