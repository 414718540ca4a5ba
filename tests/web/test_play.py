"""Playing through the pages: every action form, the rule shown for an illegal move, ties,
the round-1 examiner, the Ghost vote, Dining results and the end screen."""

import pytest

from tests.web.conftest import Phone, alert_text

pytestmark = pytest.mark.django_db

NO_CHOICE = {"overturned_table", "public_confession", "restless_spirit", "nothing_to_say"}
ROUND_1 = {  # seat 3 has the most Stakes; seat 5 the most Feasts
    1: "S3 S4 F5",
    2: "S3 S4 F5",
    3: "S4 S5 F6",
    4: "S3 S5 F6",
    5: "S3 S6 F4",
    6: "S3 S4 F5",
}
ROUND_2 = {  # Alpha 5 (Double-Stake, Feast, Investigation): seat 2 is Staked, 6 elected
    1: "S2 S3 F4",
    2: "S3 S4 F6",
    3: "S2 S4 F6",
    4: "S2 S3 F6",
    5: "D2 F6 I3",
    6: "S2 S3 F4",
}
ROUND_3 = {  # Ghost 2 protects 3; Alpha 6 investigates 4; the Lord (1) is Staked
    1: "S4 S5 F3",
    3: "S1 S4 F5",
    4: "S1 S5 F3",
    5: "S1 S4 F3",
    6: "D1 F5 I4",
}


def test_placing_a_token_answers_with_the_updated_partial_at_once(table):
    t = table("LVHHHH")
    response = t.phone(3).act(t.code, "place_token", token="stake", target="4")
    html = response.content.decode()
    assert "<html" not in html and 'id="game"' in html
    assert "Placed:" in html and "Stake → Dev" in html
    assert 'class="placed-chip" title="Cleo">3<' in t.page(1)  # everyone sees who placed


def test_a_form_post_without_htmx_redirects_back_to_the_game(table):
    t = table("LVHHHH")
    response = t.phone(3).post(
        f"/g/{t.code}/act/place_token", {"token": "stake", "target": "4"}, htmx=False, expect=302
    )
    assert response["Location"] == f"/g/{t.code}/"


@pytest.mark.parametrize(
    "fields, status, rule",
    [
        ({"token": "stake", "target": "3"}, 400, "You may not place a token on yourself."),
        ({"token": "double_stake", "target": "4"}, 400, "You have no Double-Stake token to place."),
        ({"token": "stake"}, 400, "Choose a target first."),
    ],
)
def test_an_illegal_tap_shows_the_rule_that_forbids_it_and_changes_nothing(
    table, fields, status, rule
):
    t = table("LVHHHH")
    before = t.game.version
    response = t.phone(3).act(t.code, "place_token", expect=status, **fields)
    assert alert_text(response.content.decode()).endswith(rule)
    assert t.game.version == before


def test_two_tokens_on_one_player_is_refused_with_r3_1(table):
    t = table("LVHHHH")
    t.phone(3).place(t.code, "S4")
    response = t.phone(3).act(t.code, "place_token", expect=400, token="feast", target="4")
    assert "two of your tokens on the same player" in alert_text(response.content.decode())


def test_a_ghost_may_not_place_tokens_and_a_stranger_has_no_seat(table):
    t = table("LVHHHH")
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    t.play(ROUND_2)  # seat 2 is now a Ghost
    response = t.phone(2).act(t.code, "place_token", expect=409, token="stake", target="3")
    assert "Ghosts never place tokens." in alert_text(response.content.decode())
    from tests.web.conftest import Phone

    response = Phone("Zed").act(t.code, "place_token", expect=403, token="stake", target="3")
    assert "You have no seat at this table." in alert_text(response.content.decode())


def test_an_unknown_action_is_refused_in_words(table):
    t = table("LVHHHH")
    response = t.phone(3).act(t.code, "fly", expect=400)
    assert "There is no action 'fly'." in alert_text(response.content.decode())


def test_round_one_examiner_choice_through_the_page(table):
    t = table("LVHHHH")
    t.play(ROUND_1)
    html = t.page(3)
    assert "Who examines your role?" in html
    assert 'name="target" value="1"' in html and 'name="target" value="3"' not in html
    assert "Who examines your role?" not in t.page(4)
    html = t.phone(3).act(t.code, "choose_examiner", target="4").content.decode()
    assert "Round 2" in html
    # Cleo's own page speaks to her; everyone else's names her.
    assert "<strong>You</strong> had the most Stakes" in html
    assert '<strong><bdi class="name">Dev</bdi></strong> examined your role' in html
    other = t.page(2)
    assert '<strong><bdi class="name">Cleo</bdi></strong> had the most Stakes' in other
    assert '<strong><bdi class="name">Dev</bdi></strong> examined their role' in other
    # The examiner learned seat 3's role; nobody else did.
    assert '<bdi class="name">Cleo</bdi> is a Hunter' in t.page(4)
    assert '<bdi class="name">Cleo</bdi> is a Hunter' not in t.page(5)


def test_dining_results_show_protection_investigation_tokens_elimination_and_alpha(table):
    t = table("LVHHHH")
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    t.play(ROUND_2)
    html = t.page(4)
    assert "Dining, round 2" in html
    assert 'investigated <strong><bdi class="name">Cleo</bdi></strong>' in html
    assert '<strong><bdi class="name">Ben</bdi></strong> was Staked' in html
    assert '<strong><bdi class="name">Fay</bdi></strong> is elected Alpha Hunter' in html
    assert 'Double-Stake <span class="muted">from Eli</span>' in html
    assert "👻 Ghost" in html
    assert '<bdi class="name">Eli</bdi>\'s' not in html
    # The Alpha (5) learned the investigated role.
    assert '<bdi class="name">Cleo</bdi> is a Hunter' in t.page(5)
    assert "your Investigation" in t.page(5)


def test_r4_1_the_kept_dining_is_each_readers_own_and_names_them_you(table):
    """The full Dining's HTML is kept in the cache (templates/games/_dining_section.html): each
    page still reads its own, "you" where the reader is named, and a spectator's names everyone."""
    t = table("LVHHHH", spectators=True)
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    t.play(ROUND_2)  # Ben (2) is Staked, Fay (6) elected

    def dining(html: str) -> str:
        return html.split('class="card section dining-section', 1)[1].split("</details>", 1)[0]

    for _ in range(3):  # drawn (the reveal, then without it), then read from the cache
        ben, fay = dining(t.page(2)), dining(t.page(6))
        assert "🪦 <strong>You</strong> were Staked and are now a Ghost." in ben
        assert "<strong>You</strong> are elected Alpha Hunter" in dining(t.page(6))
        assert '<bdi class="name">Ben</bdi></strong> was Staked' in fay
        assert '<bdi class="name">Ben</bdi></strong> was Staked' not in ben
    watcher = Phone("Zed")
    watcher.sign_up()
    seen = dining(watcher.page(t.code))
    assert '<bdi class="name">Ben</bdi></strong> was Staked' in seen and ">You<" not in seen


def test_the_ghost_dial_and_a_whole_game_to_the_end_screen(table):
    t = table("LVHHHH")
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    t.play(ROUND_2)
    ghost = t.page(2)
    assert "Your Ghost vote" in ghost and "Place your tokens" not in ghost
    assert "Alpha Hunter this round" in t.page(6)
    html = t.phone(2).act(t.code, "intervention_vote", target="3").content.decode()
    assert "Your Ghost vote" not in html
    t.play(ROUND_3)
    for seat in range(1, 7):
        html = t.page(seat)
        assert "The Hunters win!" in html
        assert "Vampire Lord" in html and "Mesmerized" not in html.split("Table log")[0]
    assert "🏆 You won." in t.page(3) and "You lost this time." in t.page(1)
    assert '🛡 <strong><bdi class="name">Cleo</bdi></strong> is Protected.' in t.page(4)
    # The end says who and why, to its reader.
    why = '<p data-end-why><bdi class="name">Ana</bdi> was Staked. No Vampire or Vampire Lord'
    assert why in t.page(4)
    assert "<p data-end-why>You were Staked. No Vampire or Vampire Lord" in t.page(1)


# Round 1 with Stakes tied (seats 3 and 4, on 4) and Feasts tied (seats 5 and 6, on 2).
DOUBLE_TIE = {
    1: "S3 S4 F5",
    2: "S3 S4 F5",
    3: "S4 S5 F6",
    4: "S3 S5 F6",
    5: "S4 S6 F3",
    6: "S3 S5 F4",
}


def test_a_tie_vote_through_the_pages(table):
    t = table("LVHHHH")
    t.play(DOUBLE_TIE)
    html = t.page(1)
    assert "Tie for the most Stakes" in html and "Cast my vote" in html
    assert 'name="target" value="3"' in html and 'name="target" value="5"' not in html
    response = t.phone(1).act(t.code, "tiebreak_vote", expect=400, target="5")
    assert (
        'Votes may only name the tied players: <bdi class="name">Cleo</bdi> and '
        '<bdi class="name">Dev</bdi>.'
    ) in alert_text(response.content.decode())
    # Names, and the count that tied them: never a number beside a name (it read as a count).
    assert (
        '<p class="tie-who"><bdi class="name">Cleo</bdi> and <bdi class="name">Dev</bdi> are '
        "tied with 4 Stakes each.</p>"
    ) in html
    for seat, vote in {1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 3}.items():
        t.phone(seat).act(t.code, "tiebreak_vote", target=str(vote))
    assert "Who examines your role?" in t.page(3)
    t.phone(3).act(t.code, "choose_examiner", target="2")
    html = t.page(1)
    assert "Tie for Alpha Hunter" in html
    for seat in range(1, 7):
        t.phone(seat).act(t.code, "tiebreak_vote", target="6")
    html = t.page(2)
    assert '<strong><bdi class="name">Fay</bdi></strong> is elected Alpha Hunter' in html
    assert 'Tie for the most Stakes: <strong><bdi class="name">Cleo</bdi></strong> (vote)' in html


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_last_will_is_drawn_and_resolved_through_the_pages(table, seed):
    import re

    t = table("LVHHHH", last_wills=True, seed=seed)
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    t.play(ROUND_2)  # seat 2 is Staked and draws a Last Will
    html = t.page(2)
    (drawn,) = t.game.state["ext"]["last_wills"]["draws"]
    assert drawn["seat"] == 2
    # R13: these four cards ask nothing; every other (relics off) names a player
    chooses = drawn["card"] not in NO_CHOICE
    assert ('data-action="resolve_choice"' in html) == chooses, drawn
    if chooses:
        assert 'data-action="resolve_choice"' not in t.page(3)
        form = html.split('data-action="resolve_choice"')[1].split("</form>")[0]
        choice = re.search(r'name="choice" value="([^"]+)"', form).group(1)
        seats = re.findall(r'name="targets" value="(\d+)"', form)
        need = 2 if 'type="checkbox"' in form else 1
        response = t.phone(2).post(
            f"/g/{t.code}/act/resolve_choice", {"choice": choice, "targets": seats[:need]}
        )
        html = response.content.decode()
        assert 'data-action="resolve_choice"' not in html
    assert "Your Last Will" in html  # Ben's own page speaks to him; the others name him
    assert 'Last Will of <bdi class="name">Ben</bdi>' in t.page(3)
    assert 'Waiting for <bdi class="name">Ben</bdi> to choose' not in t.page(4)


def test_sacred_relics_are_handed_out_through_the_pages(table):
    import re

    t = table("LVHHHH", relics=True, seed=7)
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    for _ in range(12):  # R10.2: each giver in turn gives the relic they drew
        pages = {seat: t.page(seat) for seat in range(1, 7)}
        givers = [s for s, html in pages.items() if 'data-action="give_relic"' in html]
        if not givers:
            break
        assert len(givers) == 1
        form = pages[givers[0]].split('data-action="give_relic"')[1].split("</form>")[0]
        assert "You drew:" in form
        fields = {"target": re.findall(r'name="target" value="(\d+)"', form)[0]}
        cards = re.findall(r'name="card" value="([^"]+)"', form)
        if cards:
            fields["card"] = cards[0]
        t.phone(givers[0]).act(t.code, "give_relic", **fields)
    holders = [s for s in range(1, 7) if "Your relic:" in t.page(s)]
    assert len(holders) >= 5, holders
