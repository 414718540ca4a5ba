"""Sacred Relics through the pages (R10–R11): the distribution form, the relic board with the open
window and its countdown, my relic card, and a control for each relic's choice — each submitted
through the real URLs applies the move, and bad input is refused in words and changes nothing.

Games are dealt by staff (`roles`) with a fixed relic draw (`relic_deck`); round 1 is
tests/web/test_play.py's ROUND_1 (seat 5 is elected Alpha), so the givers are 5, 6, 1, 2, 3, 4 and
each gives to the next seat up: the deck below makes seat s receive wanted[s].
"""

from __future__ import annotations

import re

import pytest
from django.http import QueryDict
from django.template.loader import render_to_string
from django.utils.html import escape

from games.engine import state_from_json
from tests.web.conftest import Phone, alert_text
from tests.web.test_play import ROUND_1

pytestmark = pytest.mark.django_db

GIVERS = [5, 6, 1, 2, 3, 4]  # R10.2: from the new Alpha (seat 5), clockwise
WINDOWS = {  # pre-mingling: Bell (1), Ring (2); post-mingling: Candle (3), Bangles (4, 5), Key (6)
    1: "ritual_bell",
    2: "signet_ring",
    3: "whisper_wick_candle",
    4: "bangle_of_oaths",
    5: "bangle_of_oaths",
    6: "key_of_quick_passage",
}
# Their printed names (R10.1), written out here rather than read from relics.rules.
WINDOW_NAMES = {
    1: "Ritual Bell",
    2: "Signet Ring",
    3: "Whisper-Wick Candle",
    4: "Bangle of Oaths",
    5: "Bangle of Oaths",
    6: "Key of Quick Passage",
}
PASSIVE = {  # Blood of the One (3) acts during Mingling; Van Helsing's Journal (6) after Dining
    1: "crown_of_solomon",
    2: "ceremonial_dagger",
    3: "blood_of_the_one",
    4: "seers_orb",
    5: "cross_of_saint_john",
    6: "van_helsings_journal",
}
ROUND_2 = {  # Alpha 5 holds the Double-Stake, Feast and Investigation; seat 2 is Staked
    1: "S2 S3 F4",
    2: "S3 S4 F6",
    3: "S2 S4 F6",
    4: "S2 S3 F6",
    5: "D2 F6 I3",
    6: "S3 S4 F1",
}
SPARE = "effigy_of_innocence"


def deck(wanted: dict[int, str]) -> list[str]:
    """Giver GIVERS[i] draws the card of GIVERS[i+1]; the last giver draws seat 5's and SPARE."""
    return [wanted[s] for s in GIVERS[1:]] + [wanted[GIVERS[0]], SPARE]


def round_one(table, wanted: dict[int, str], **options):
    t = table("LVHHHH", relics=True, relic_deck=deck(wanted), **options)
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    return t


def distribute(t) -> None:
    for i, giver in enumerate(GIVERS):
        fields = {"target": str(GIVERS[(i + 1) % len(GIVERS)])}
        if i == len(GIVERS) - 1:
            fields["card"] = t.wanted[5]
        t.phone(giver).act(t.code, "give_relic", **fields)


@pytest.fixture
def relic_game(table):
    """make(wanted) -> a relic game at the start of round 2 in which seat s holds wanted[s]."""

    def make(wanted: dict[int, str], **options):
        t = round_one(table, wanted, **options)
        t.wanted = wanted
        distribute(t)
        assert t.game.state["phase"] != "give_relic"
        return t

    return make


def state(t):
    return state_from_json(t.game.state)


def form(html: str, action: str) -> str:
    return html.split(f'data-action="{action}"')[1].split("</form>")[0]


def refused(t, seat: int, action: str, status: int = 400, **fields) -> str:
    """Post a bad move: it is refused with the rule in words and changes nothing."""
    before = t.game.version, t.game.state
    response = t.phone(seat).act(t.code, action, expect=status, **fields)
    assert (t.game.version, t.game.state) == before
    return alert_text(response.content.decode())


def placed_by(t, seat: int) -> set[int]:
    return {p.owner for p in state(t).placements if p.target == seat}


def pass_window(t) -> None:
    seat = state(t).ext["relics"]["window"]["seat"]
    t.phone(seat).act(t.code, "pass")


# --- distribution (R10.2) ---------------------------------------------------------------------


def test_r10_2_the_giver_sees_the_drawn_relic_and_its_text_and_gives_it_from_the_page(table):
    t = round_one(table, WINDOWS)
    html = t.page(5)
    give = form(html, "give_relic")
    assert "You drew: <strong>Key of Quick Passage</strong>" in give
    assert "Discard: ignore every token on your seat this round" in give
    assert re.findall(r'name="target" value="(\d+)"', give) == ["6", "1", "2", "3", "4"]
    assert 'data-action="give_relic"' not in t.page(6)  # only the giver has the form
    assert 'data-relic-giver="5"' in t.page(6) and "You drew" not in t.page(6)
    t.phone(5).act(t.code, "give_relic", target="6")
    assert "Your relic: <strong>Key of Quick Passage</strong>" in t.page(6)
    assert 'data-action="give_relic"' in t.page(6)  # the next giver's turn


def test_r10_2_a_bad_recipient_is_refused_in_words_and_changes_nothing(table):
    t = round_one(table, WINDOWS)
    assert refused(t, 5, "give_relic", target="5").endswith(
        "Give it to another player who has no relic yet."
    )
    assert refused(t, 6, "give_relic", status=409, target="1").endswith(
        'It is <bdi class="name">Eli</bdi>\'s turn to give a relic.'
    )
    assert refused(t, 5, "give_relic").endswith("Choose a target first.")


def test_r10_2_the_last_giver_picks_one_of_two_relics_from_the_page(table):
    t = round_one(table, WINDOWS)
    t.wanted = WINDOWS
    for i, giver in enumerate(GIVERS[:-1]):
        t.phone(giver).act(t.code, "give_relic", target=str(GIVERS[i + 1]))
    give = form(t.page(4), "give_relic")
    drawn = "You drew: <strong>Bangle of Oaths</strong> and <strong>Effigy of Innocence</strong>"
    assert drawn in give
    assert re.findall(r'name="card" value="([^"]+)"', give) == [
        "bangle_of_oaths",
        "effigy_of_innocence",
    ]
    assert re.findall(r'name="target" value="(\d+)"', give) == ["5"]
    assert refused(t, 4, "give_relic", target="5", card="ritual_bell").endswith(
        "Name the 'card' you give: one of the two you drew."
    )
    t.phone(4).act(t.code, "give_relic", target="5", card="bangle_of_oaths")
    assert "Your relic: <strong>Bangle of Oaths</strong>" in t.page(5)
    assert "Every player holds a Sacred Relic." in t.page(1)


# --- the board and my relic card --------------------------------------------------------------


def test_r10_3_every_page_shows_the_open_window_its_countdown_and_its_holder(relic_game):
    t = relic_game(WINDOWS)
    window = state(t).ext["relics"]["window"]
    assert window["seat"] == 1 and window["as"] == "ritual_bell"
    for seat in range(1, 7):
        html = t.page(seat)
        board = html.split("data-relic-board")[1].split("</section>")[0]
        assert 'data-relic-window="ritual_bell" data-relic-holder="1"' in board
        assert "<strong>Ritual Bell</strong>, before mingling." in board
        assert "<strong>Ana</strong> chooses or passes." in board  # R10.2a: public
        deadline = re.search(r'data-deadline="([^"]+)"', board).group(1)
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", deadline)
        assert 'is-active" aria-current="step" data-slot="pre-1"' in board
        assert "Bangle of Oaths</strong> ×2" in board
        if seat != 1:
            assert 'data-action="use_relic"' not in html
            assert (  # whom the table waits for, and why
                'Waiting for <bdi class="name">Ana</bdi> to decide whether to use the Ritual Bell.'
                in html
            )
    spectator = Phone("Zed").page(t.code)  # the board is public: spectators see it too
    assert 'data-relic-window="ritual_bell"' in spectator and "data-my-relic" not in spectator


def test_r10_1_my_relic_card_shows_its_name_and_text_to_me_alone(relic_game):
    t = relic_game(WINDOWS)
    html = t.page(6)
    assert 'data-my-relic="key_of_quick_passage"' in html
    assert "Discard: ignore every token on your seat this round, Investigation included." in html
    for seat in range(1, 6):
        assert 'data-my-relic="key_of_quick_passage"' not in t.page(seat)


def _held(html: str) -> dict[int, list[str]]:
    """seat -> relic ids on the board's "Who holds what" list."""
    listing = html.split("data-relic-holdings")[1].split("</ul>")[0]
    return {
        int(seat): re.findall(r'data-held="([^"]+)"', row)
        for seat, row in re.findall(r'data-holder="(\d+)">(.*?)</li>', listing, re.S)
    }


def test_r10_2a_every_page_and_the_table_display_show_who_holds_which_relic(relic_game):
    """R10.2a amended: the cards lie face-up: every seat, a spectator and the room's shared
    screen see each seat's relics (on the board and on the table's seats)."""
    t = relic_game(WINDOWS)
    expected = {s: [r] for s, r in WINDOWS.items()}
    pages = [t.page(seat) for seat in range(1, 7)] + [Phone("Zed").page(t.code)]
    for html in pages:
        assert _held(html) == expected
        assert '<span class="seat-relic" title="Negate one living player' in html
        assert 'data-seat-relics="6"><span class="seat-relic" title="Discard: ignore every' in html
    screen = t.phone(1).client.get(f"/t/{t.code}/").content.decode()
    for seat in WINDOWS:
        name = escape(WINDOW_NAMES[seat])
        assert f'data-seat-relics="{seat}"><span class="seat-relic">✦ {name}' in screen
    assert "<strong>Ana</strong> chooses or passes." in screen


# --- a control for each relic's choice (R11) --------------------------------------------------


def test_r11_bell_silences_a_relic_from_the_page(relic_game):
    t = relic_game(WINDOWS)
    use = form(t.page(1), "use_relic")
    assert "Use the Ritual Bell" in use and 'name="relic" value="ritual_bell"' in use
    # R10.2a: each card on the table by name, the seat with it
    assert re.findall(r'name="pick" value="(\d+:\w+)"', use) == [
        "2:signet_ring",
        "3:whisper_wick_candle",
        "4:bangle_of_oaths",
        "5:bangle_of_oaths",
        "6:key_of_quick_passage",
    ]
    assert "Ben: <strong>Signet Ring</strong>" in use
    assert "pass" in t.page(1).split('data-action="pass"')[1].split("</form>")[0].lower()
    t.phone(1).act(t.code, "use_relic", relic="ritual_bell", pick="2:signet_ring")
    assert 'Signet Ring</strong> <span class="badge">negated this round</span>' in t.page(2)
    assert state(t).phase == "mingling"  # the negated Ring's window is skipped (R10.3)


def test_r11_bell_refuses_a_bad_target_in_words_and_changes_nothing(relic_game):
    t = relic_game(WINDOWS)
    assert refused(t, 1, "use_relic", relic="ritual_bell", targets="9").endswith(
        "The Ritual Bell targets a living player's relic."
    )
    assert refused(t, 1, "use_relic", relic="ritual_bell").endswith(
        "'targets' must list 1 seat number(s)."
    )
    assert refused(t, 1, "use_relic", relic="ritual_bell", targets="2", card="seers_orb").endswith(
        "(not the same one two rounds running)."
    )
    assert refused(t, 2, "use_relic", status=409, relic="signet_ring", targets="3").endswith(
        "It is not your relic's window."
    )


def test_r11_ring_swaps_relics_from_the_page(relic_game):
    t = relic_game(WINDOWS)
    pass_window(t)
    use = form(t.page(2), "use_relic")
    assert "Use the Signet Ring" in use and "Swap relics" in use
    t.phone(2).act(t.code, "use_relic", relic="signet_ring", targets="6")
    assert "Your relic: <strong>Key of Quick Passage</strong>" in t.page(2)
    assert "Your relic: <strong>Signet Ring</strong>" in t.page(6)


def _to_post_mingling(t, plan=ROUND_2):
    while state(t).phase == "relic_window":
        pass_window(t)
    t.play(plan)
    assert state(t).phase == "relic_window"


def test_r11_candle_moves_a_token_from_the_page(relic_game):
    t = relic_game(WINDOWS)
    _to_post_mingling(t)
    html = t.page(3)
    assert 'data-relic-window="whisper_wick_candle"' in html
    use = form(html, "use_relic")
    assert "Use the Whisper-Wick Candle" in use
    assert "On <strong>Dev</strong>:" in use
    moves = re.findall(r'name="moves" value="(\d+:\d+)"', use)
    assert "4:1" in moves and "6:5" in moves and "3:4" in moves
    assert "stake" not in use.lower()  # whose tokens, never which (R3.2)
    assert 1 in placed_by(t, 4) and 5 in placed_by(t, 6)
    t.phone(3).act(t.code, "use_relic", relic="whisper_wick_candle", moves=["4:1", "6:5"])
    assert 1 in placed_by(t, 6) and 5 in placed_by(t, 4)
    assert 1 not in placed_by(t, 4) and 5 not in placed_by(t, 6)
    assert (
        '<bdi class="name">Cleo</bdi>&#x27;s Whisper-Wick Candle swaps a token between '
        '<bdi class="name">Dev</bdi> and <bdi class="name">Fay</bdi>.'
    ) in t.page(1)


@pytest.mark.parametrize(
    "moves, rule",
    [
        (["4:1", "6:4"], "A token may not end on its own owner's seat."),
        (["4:1", "6:2"], "Two of one owner's tokens may not share a seat."),
        (["4:1", "4:2"], "Name two seats in 'targets' and the owner of the token on each"),
        (["4:1"], "'targets' must list 2 seat number(s)."),
        (["4:5", "6:2"], "Choose a token placed on each of the two seats."),
        ([], "'targets' must list 2 seat number(s)."),
        (["4:x", "6:2"], "Choose a owners first."),
    ],
)
def test_r11_candle_refuses_a_bad_pick_in_words_and_changes_nothing(relic_game, moves, rule):
    t = relic_game(WINDOWS)
    _to_post_mingling(t)
    assert rule in refused(t, 3, "use_relic", relic="whisper_wick_candle", moves=moves)


def test_r11_bangle_moves_tokens_to_the_other_holder_from_the_page(relic_game):
    t = relic_game(WINDOWS)
    _to_post_mingling(t)
    pass_window(t)  # the Candle
    use = form(t.page(4), "use_relic")
    assert "Use the Bangle of Oaths" in use
    assert re.findall(r'name="owners" value="(\d+)"', use) == ["1", "2", "3", "6"]
    assert "token from Ana<" in use
    t.phone(4).act(t.code, "use_relic", relic="bangle_of_oaths", owners=["1", "2"])
    assert placed_by(t, 4) == {3, 6}
    assert {1, 2} <= placed_by(t, 5)
    assert (
        '<bdi class="name">Dev</bdi>&#x27;s Bangle of Oaths moves 2 tokens to '
        '<bdi class="name">Eli</bdi>.'
    ) in t.page(1)


@pytest.mark.parametrize(
    "owners, rule",
    [
        (["5"], "Move only tokens that lie on your own seat."),
        (["1", "9"], "Move only tokens that lie on your own seat."),
        (["1", "2", "3"], "Choose a owners first."),
    ],
)
def test_r11_bangle_refuses_a_bad_pick_in_words_and_changes_nothing(relic_game, owners, rule):
    t = relic_game(WINDOWS)
    _to_post_mingling(t)
    pass_window(t)
    assert rule in refused(t, 4, "use_relic", relic="bangle_of_oaths", owners=owners)


def test_r11_key_is_discarded_from_the_page(relic_game):
    t = relic_game(WINDOWS)
    _to_post_mingling(t)
    for _ in range(3):  # the Candle and both Bangles pass
        pass_window(t)
    use = form(t.page(6), "use_relic")
    assert "Use the Key of Quick Passage" in use and "Discard the Key" in use
    t.phone(6).act(t.code, "use_relic", relic="key_of_quick_passage")
    assert 'Key of Quick Passage</strong> <span class="badge">discarded</span>' in t.page(6)
    assert '<bdi class="name">Fay</bdi> uses the Key of Quick Passage' in t.page(1)


def test_r11_blood_names_a_player_during_mingling_from_the_page(relic_game):
    t = relic_game(PASSIVE)
    html = t.page(3)
    assert 'data-action="place_token"' in html
    use = form(html, "use_relic")
    assert "Use the Blood of the One" in use
    assert re.findall(r'name="targets" value="(\d+)"', use) == ["1", "2", "3", "4", "5", "6"]
    assert 'data-action="use_relic"' not in t.page(4)
    assert refused(t, 3, "use_relic", relic="blood_of_the_one", targets="9").endswith(
        "Blood of the One names a living player."
    )
    t.phone(3).act(t.code, "use_relic", relic="blood_of_the_one", targets="2")
    assert re.search(
        r'<bdi class="name">\w+</bdi> uses Blood of the One: '
        r'<bdi class="name">Ben</bdi> is not Mesmerized\.',
        t.page(5),
    )
    assert 'Blood of the One</strong> <span class="badge">discarded</span>' in t.page(3)


def test_r11_van_helsing_examines_the_eliminated_from_the_page(relic_game):
    t = relic_game(PASSIVE)
    t.play(ROUND_2)
    while state(t).phase == "relic_window":  # Blood of the One's post-mingling slot
        pass_window(t)
    assert state(t).phase == "relic_choice"
    html = t.page(6)
    choice = form(html, "resolve_choice")
    assert "Van Helsing&#x27;s Journal" in choice and "Your Last Will" not in choice
    assert re.findall(r'name="targets" value="(\d+)"', choice) == ["2"]
    assert 'data-action="pass"' in html
    assert 'data-action="resolve_choice"' not in t.page(5)
    assert refused(t, 6, "resolve_choice", choice="van_helsings_journal", targets="3").endswith(
        'Choose one of <bdi class="name">Ben</bdi>.'  # the one seat it offers, by name
    )
    t.phone(6).act(t.code, "resolve_choice", choice="van_helsings_journal", targets="2")
    assert '<bdi class="name">Ben</bdi> is a Vampire' in t.page(6)
    assert "silent: Ghosts' relics do not work" in t.page(2)  # R10.3: Ben is a Ghost
    assert '<bdi class="name">Ben</bdi> is a Vampire' not in t.page(5)


# --- every card's offer renders a form that posts what the engine asks (R11) -------------------
# The engine's own states (tests/relics helpers) through views.action_form and the action's
# template; the form is filled as a phone would and its post goes through action_args, the API's
# input serializer and the engine. The forms above are also played through the real URLs.


def _fill(html: str, picks: dict[str, list[str]]) -> QueryDict:
    """Hidden fields as they are; a radio or checkbox group as picked (else a radio's first)."""
    post = QueryDict(mutable=True)
    for name, value in re.findall(r'type="hidden" name="([^"]+)" value="([^"]*)"', html):
        if name != "csrfmiddlewaretoken":
            post.appendlist(name, value)
    for kind, name in sorted(set(re.findall(r'type="(radio|checkbox)" name="([^"]+)"', html))):
        offered = re.findall(rf'type="{kind}" name="{name}" value="([^"]+)"', html)
        chosen = picks.get(name, offered[:1] if kind == "radio" else [])
        assert set(chosen) <= set(offered), (name, chosen, offered)
        post.setlist(name, chosen)
    return post


def _submit_form(t, seat: int, action: str, **picks) -> str:
    """Render `action`'s form for `seat`, post it as filled, and return the form's HTML."""
    from games.domain.inputs import ACTIONS
    from games.engine import view as engine_view
    from games.web.forms import action_args
    from games.web.game_page import action_form

    seen = engine_view(t.state, seat)
    names = {s["seat"]: f"P{s['seat']}" for s in seen["seats"]}
    (offer,) = [p for p in seen["pending"] if p["action"] == action]
    a = action_form(offer, names, seen)
    html = render_to_string(a["template"], {"a": a, "view": {**seen, "code": "ACDEFG"}})
    serializer = ACTIONS[action](data=action_args(_fill(html, picks)))
    assert serializer.is_valid(), serializer.errors
    t.do(seat, action, **serializer.validated_data)
    return html


def test_r11_hindsight_glass_form_copies_a_ghosts_relic_then_acts_as_it():
    from tests.relics.test_r11_cards import glass_round, until_window

    t = glass_round(s2="ritual_bell", s5="false_idol")
    until_window(t, 3)
    html = _submit_form(t, 3, "use_relic", pick=["2:ritual_bell"])
    assert "Use the Hindsight Looking Glass" in html and "Which Ghost" in html
    html = _submit_form(t, 3, "use_relic", pick=["5:false_idol"])  # as the Ritual Bell, at once
    assert "Use the Ritual Bell" in html
    assert t.view(5)["me"]["relics"][0]["negated"] is True


def test_r11_signet_ring_form_never_offers_the_crown():
    from tests.relics.test_r11_cards import table, until_window

    t = table(windows=True, s2="signet_ring", s6="crown_of_solomon")
    until_window(t, 2)
    html = _submit_form(t, 2, "use_relic", pick=["5:ritual_bell"])
    assert "6:crown_of_solomon" not in html and "5:ritual_bell" in html
    assert t.view(5)["me"]["relics"][0]["id"] == "signet_ring"


def test_r11_scales_form_settles_a_tie_by_discarding_it():
    from tests.relics.test_r11_cards import TIE, finish_round, table, to_post

    t = table(s6="scales_of_justice")
    to_post(t, TIE)
    finish_round(t)
    assert t.state.phase == "relic_window"  # before the tie vote (R11 amended)
    html = _submit_form(t, 6, "use_relic", targets=["3"])
    assert "Use the Scales of Justice" in html and "Settle it" in html
    assert "A tie for elimination: nobody votes until you decide or pass." in html
    assert "Deciding discards the Scales." in html
    assert re.findall(r'name="targets" value="(\d+)"', html) == ["3", "5"]
    assert not t.alive(3) and t.alive(5)


def test_r11_false_idol_form_hands_it_over_when_its_holder_is_killed():
    from tests.relics.test_r11_cards import TIE, finish_round, table, to_post

    t = table(s5="false_idol", s6="crown_of_solomon")
    to_post(t, TIE)
    finish_round(t)
    assert t.state.phase == "relic_choice"
    html = _submit_form(t, 5, "resolve_choice", targets=["6"])
    assert "The False Idol" in html and "Your Last Will" not in html
    assert sorted(r["id"] for r in t.view(6)["me"]["relics"]) == [
        "crown_of_solomon",
        "false_idol",
    ]


@pytest.mark.parametrize(
    "relic, args",
    [
        ("whisper_wick_candle", {"moves": ["4:1", "6:5"]}),
        ("bangle_of_oaths", {"owners": ["1"]}),
        ("key_of_quick_passage", {}),
        ("blood_of_the_one", {"targets": ["2"]}),
        ("ritual_bell", {"pick": ["2:signet_ring"]}),
    ],
)
def test_r11_each_window_form_posts_the_arguments_the_engine_takes(relic, args):
    """The other window relics' forms, filled and posted the same way (R10.3 post slots 1–4)."""
    from tests.relics.conftest import relic_table, window

    wanted = {**WINDOWS, 6: relic} if relic not in WINDOWS.values() else WINDOWS
    t = relic_table("LVHHHH", wanted, elect=5, windows=True)
    while window(t) and window(t)["as"] != relic:
        t.do(window(t)["seat"], "pass")
    if window(t) is None:  # a post-mingling relic: mingle first
        t.mingle(ROUND_2)
        while window(t)["as"] != relic:
            t.do(window(t)["seat"], "pass")
    seat = window(t)["seat"]
    before = t.state
    _submit_form(t, seat, "use_relic", **args)
    assert t.state != before and (window(t) is None or window(t)["seat"] != seat)
