"""A finished game's story (games/history/story.py) and its words (games/presenters/story.py),
on real engine games: random bot games at 6-12 seats with Sacred Relics and Last Wills, and
crafted rounds of tests/engine/table.py. The story reads only the public lines and the end's
public roles (R1.4); these tests check that what it tells agrees with the whole truth."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import view
from games.engine.vocabulary import EventKind, Role
from games.history.story import examinations, rounds, story, turning_points
from games.presenters.story import point_line, point_seats, point_text, summary
from tests.conftest import examples
from tests.engine.table import Table
from tests.engine.test_r6_first_round import LORD_STAKED
from tests.history.tables import bot_play

GAMES = [(players, seed) for seed in range(examples(4, 25)) for players in (6, 8, 10, 12)]


def public_lines(events) -> list[dict]:
    """What a spectator reads of `events`, as selectors.story hands them over."""
    return [
        {"round": e.round, "kind": e.kind, "data": e.data, "text": e.text, "template": e.template}
        for e in events
        if e.audience is None
    ]


@pytest.fixture(scope="module")
def games():
    """Finished random games: (final state, every event)."""
    return [bot_play(players, seed)[:2] for players, seed in GAMES]


def test_r4_1_each_round_holds_every_token_and_ghost_vote_its_dining_revealed(games):
    for state, events in games:
        told = story(public_lines(events), view(state, None)["roles"])
        assert [r["round"] for r in told["rounds"]] == list(range(1, state.round + 1))
        revealed = {e.round: e.data for e in events if e.kind == EventKind.DINING}
        for r in told["rounds"]:
            if r["round"] not in revealed:
                assert r["dining"] is None
                continue
            data = revealed[r["round"]]
            assert r["dining"]["tokens"] == data["tokens"]
            assert r["dining"]["unplaced"] == data["unplaced"]
            assert r["dining"]["ghost_votes"] == data["intervention"]
        dead = {d["seat"] for r in told["rounds"] for d in r["deaths"]}
        assert dead == {p.seat for p in state.players if not p.alive}
        for before, after in zip(told["rounds"], told["rounds"][1:], strict=False):
            died = {d["seat"] for d in before["deaths"]}
            assert after["living"] == [s for s in before["living"] if s not in died]


def test_r8_1_everyone_mesmerized_at_the_end_has_their_look_at_the_lord_as_a_turning_point(
    games,
):
    seen = 0
    for state, events in games:
        roles = view(state, None)["roles"]
        points = story(public_lines(events), roles)["turning_points"]
        lord = next(p.seat for p in state.players if p.role == Role.VAMPIRE_LORD)
        mesmerisms = [p for p in points if p["kind"] == "mesmerism"]
        assert {p["examiner"] for p in mesmerisms} == {r["seat"] for r in roles if r["mesmerized"]}
        assert all(p["target"] == lord for p in mesmerisms)
        seen += len(mesmerisms)
    assert seen, "some random game has a Mesmerism"


def test_r6_1_r4_2_the_first_find_is_the_first_look_by_a_hunter_at_a_vampire(games):
    found = 0
    for state, events in games:
        lines = public_lines(events)
        role = {p.seat: p.role for p in state.players}
        points = story(lines, view(state, None)["roles"])["turning_points"]
        finds = [p for p in points if p["kind"] == "first_find"]
        # the private lines say what each look showed: the first of a Hunter's that showed a Vampire
        truth = [
            e
            for e in events
            if e.kind == EventKind.EXAMINED
            and role[e.audience[0]] == Role.HUNTER
            and e.data["role"] in (Role.VAMPIRE, Role.VAMPIRE_LORD)
        ]
        assert len(finds) == (1 if truth else 0)
        if truth:
            [find] = finds
            assert (find["examiner"], find["target"], find["round"]) == (
                truth[0].audience[0],
                truth[0].data["seat"],
                truth[0].round,
            )
            assert find["role"] == truth[0].data["role"]
            found += 1
    assert found


def test_every_look_the_public_log_tells_of_is_one_a_player_made(games):
    """`examinations` reads the public lines only; each is one private `examined` line."""
    for _, events in games:
        looks = [
            (x["round"], x["examiner"], x["target"]) for x in examinations(public_lines(events))
        ]
        private = [
            (e.round, e.audience[0], e.data["seat"]) for e in events if e.kind == EventKind.EXAMINED
        ]
        assert looks == private


def test_r5_the_closest_vote_is_the_voted_tie_with_the_smallest_lead(games):
    def lead(tie):
        if tie["decided_by"] != "vote":
            return 0
        counts = sorted(Counter(v["target"] for v in tie["votes"]).values(), reverse=True)
        return counts[0] - (counts[1] if len(counts) > 1 else 0)

    closest = 0
    for state, events in games:
        told = story(public_lines(events), view(state, None)["roles"])
        settled = [t for r in told["rounds"] for t in r["ties"]]
        # Every tie names its candidates, and a voted one who voted: a Ghosts' tie that the
        # latest Ghost's dial settled at once (no line opened it) included.
        assert all(t["candidates"] for t in settled), settled
        voted = [t for t in settled if t["decided_by"] in ("vote", "latest_ghost")]
        assert all(t["voters"] for t in voted), voted
        ties = [
            (lead(t), r["round"])
            for r in told["rounds"]
            for t in r["ties"]
            if t["decided_by"] in ("vote", "latest_ghost", "no_result")
        ]
        [point] = [p for p in told["turning_points"] if p["kind"] == "closest_vote"] or [None]
        if not ties:
            assert point is None
            continue
        assert (lead(point), point["round"]) == min(ties)
        closest += 1
    assert closest


def test_r12_the_decisive_round_is_the_last_and_names_who_won(games):
    for state, events in games:
        points = story(public_lines(events), view(state, None)["roles"])["turning_points"]
        assert points[-1]["kind"] == "decisive"
        assert points[-1]["round"] == state.round
        assert points[-1]["winner"] == state.outcome.winner
        assert [p["round"] for p in points] == sorted(p["round"] for p in points)


def test_each_turning_point_reads_as_a_sentence_naming_its_seats(games):
    for state, events in games:
        end = view(state, None)
        names = {s: f"Name{s}" for s in range(1, len(state.players) + 1)}
        points = story(public_lines(events), end["roles"])["turning_points"]
        for point, words in zip(points, summary(points, names, end["outcome"]), strict=True):
            text = point_text(point, end["outcome"])
            assert text.startswith(f"Round {point['round']}") and "{" not in text, text
            assert "(R" not in words["text"] and "Seat " not in words["text"], words
            for seat in point_seats(point):
                assert f"Name{seat}<" in words["text"], (seat, words)


def test_r6_1_r8_1_a_hunter_who_examines_the_lord_in_round_1_is_the_mesmerism():
    t = Table("LVHHHH")
    t.mingle(LORD_STAKED)
    t.do(1, "choose_examiner", target=4)
    lines = public_lines(t.events)
    roles = [{"seat": p.seat, "role": p.role, "mesmerized": p.mesmerized} for p in t.state.players]
    points = turning_points(lines, rounds(lines, [1, 2, 3, 4, 5, 6]), roles)
    assert [p["kind"] for p in points] == ["first_find", "mesmerism"]
    text, data = point_line(points[1])
    assert text == (
        "Round 1: {examiner:Seat} examined {target:seat}, the Vampire Lord, and was "
        "Mesmerized: a Hunter playing for the Vampires from then on."
    )
    assert data == {"examiner": 4, "target": 1}
    assert point_text(points[0]) == (
        "Round 1: Seat 4 examined seat 1 and saw the Vampire Lord: the first Vampire a Hunter "
        "found."
    )
    first = rounds(lines, [1, 2, 3, 4, 5, 6])[0]
    assert first["examination"] == {"examiner": 4, "target": 1}
    assert first["deaths"] == [] and first["alpha_elected"] == 4
