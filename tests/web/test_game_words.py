"""Game words explained: each word a player meets has one plain sentence and a "More"
link to its part of the rules pages (games/presenters/glossary.py), and the game page shows it as a
tappable term where the player first has to act on it. Through the real URLs."""

from __future__ import annotations

import html as html_lib
import re

import pytest

from games.presenters import glossary
from games.presenters.wording import without_rule_ids
from tests.web.test_play import DOUBLE_TIE, ROUND_1, ROUND_2

pytestmark = pytest.mark.django_db

ISSUE_WORDS = {
    "stake", "feast", "alpha", "double_stake", "protected", "ghost", "ghost_vote",
    "examination", "investigation", "mesmerized", "vampire_lord", "dining", "mingling",
    "intervention", "relic", "last_will",
}  # fmt: skip
TERM = re.compile(
    r'<details class="term" id="(?P<id>[^"]+)" data-term="(?P<key>\w+)"(?P<open> open)?>\s*'
    r'<summary><span class="term-word">(?P<word>[^<]+)</span>.*?</summary>\s*'
    r'<p class="term-says">(?P<says>[^<]+) <a class="term-more" href="(?P<more>[^"]+)">',
    re.S,
)


def terms(html: str) -> dict[str, dict]:
    """The terms of a page by word: the first of each, as the page shows it."""
    found = {}
    for m in TERM.finditer(html):
        found.setdefault(m["key"], {**m.groupdict(), "says": html_lib.unescape(m["says"])})
    return found


def explained(html: str) -> list[str]:
    """The words a part of a page explains as they are (no tap: inside "What you know")."""
    return re.findall(r"<dt>([^<]+)</dt><dd>[^<]+ <a class=\"term-more\"", html)


def part(html: str, start: str, end: str) -> str:
    return html.split(start, 1)[1].split(end, 1)[0]


def test_every_game_word_has_a_plain_sentence_and_its_more_link_lands_on_the_rules(client):
    assert ISSUE_WORDS <= set(glossary.WORDS)
    pages = {}
    for w in glossary.WORDS.values():
        assert w.says.endswith(".") and without_rule_ids(w.says) == w.says, w
        assert len(w.says) <= 170, w  # one or two short sentences, for a phone
        if w.key not in ("vampire_lord", "mesmerized"):  # secrets: only for those who know
            assert "Vampire Lord" not in w.says and "Mesmerized" not in w.says, w
        if w.page not in pages:
            response = client.get(f"/rules/{w.page}/")
            assert response.status_code == 200, w.page
            pages[w.page] = response.content.decode()
        assert f'id="{w.anchor}"' in pages[w.page], w


def test_the_token_chooser_explains_stake_feast_and_mingling_closed_with_a_more_link(table):
    t = table("LVHHHH")
    html = t.page(3)
    chooser = terms(part(html, 'data-action="place_token"', "</form>"))
    assert list(chooser) == ["stake", "feast", "mingling"]
    feast = chooser["feast"]
    assert feast["word"] == "Feast" and feast["says"] == glossary.word("feast").says
    assert feast["more"] == f"/rules/dining/?game={t.code}#election"
    assert feast["id"] == "term-feast-tokens-r1"
    assert not any(t["open"] for t in chooser.values())  # opened on first sight by the phone
    assert t.phone(3).client.get(feast["more"]).status_code == 200


def test_round_two_explains_the_alphas_tokens_the_recap_badges_and_what_you_know(table):
    t = table("LVHHHH")
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    alpha = t.page(5)  # Eli: most Feasts in round 1
    # From round 2 the recap keeps its place on the first screen: the tokens' words are in
    # "In hand" (the closed pill of the player's tokens), below it, no longer in the chooser.
    assert terms(part(alpha, 'data-action="place_token"', "</form>")) == {}
    hand = terms(part(alpha, 'id="me-things"', 'id="knowledge"'))
    assert list(hand)[:4] == ["feast", "double_stake", "investigation", "mingling"]
    assert hand["double_stake"]["id"] == "term-double_stake-hand-r2"
    recap = terms(part(alpha, 'id="recap-1"', 'class="card me"'))
    assert list(recap) == ["protected", "examination", "alpha", "dining"]
    assert "alpha" in hand  # the badge's word
    # What a player knows is explained inside "What you know", which only they open.
    assert explained(part(t.page(4), 'id="knowledge"', "</details>")) == ["Examination"]
    assert explained(part(t.page(2), 'id="knowledge"', "</details>")) == ["Vampire Lord"]
    for seat in (3, 4, 5, 6):  # Hunters: neither secret word anywhere on their page
        page = t.page(seat)
        assert "vampire_lord" not in page and "Mesmerized" not in page, seat


def test_the_ghost_screen_explains_the_ghost_vote_and_protection(table):
    t = table("LVHHHH")
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    t.play(ROUND_2)  # Ben (seat 2) is Staked
    ghost = t.page(2)
    # In Mingling the Ghost screen is one line (the vote must stay on the first screen): the
    # Ghost vote's own form explains its words.
    screen = terms(part(ghost, 'data-action="intervention_vote"', "</form>"))
    assert list(screen) == ["ghost_vote", "protected"]
    assert screen["ghost_vote"]["more"] == f"/rules/ghosts/?game={t.code}#intervention"
    assert "ghost" in terms(part(ghost, 'id="me-things"', 'id="knowledge"'))  # the badge's word


def test_a_tie_names_the_tie_vote_and_the_relic_board_its_relics(table):
    t = table("LVHHHH", relics=True)
    assert "relic" in terms(part(t.page(2), "data-relic-board", "</section>"))
    t.play(DOUBLE_TIE)
    tie = terms(part(t.page(1), 'class="card tie"', "</section>"))
    assert list(tie) == ["tie_vote", "examination"]


def test_the_last_will_form_names_its_word(table):
    t = table("LVHHHH", last_wills=True, seed=1)  # Ben draws a card that names a player
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    t.play(ROUND_2)  # Ben (seat 2) is Staked and draws a Last Will
    form = terms(part(t.page(2), 'data-action="resolve_choice"', "</form>"))
    assert list(form) == ["last_will"]
    assert form["last_will"]["more"] == f"/rules/last-wills/?game={t.code}#last-wills"
