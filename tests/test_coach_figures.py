"""The coach's figures: the stored file is well-formed and big enough to quote, the command
writes the same shape from a tiny run, and the paired copies measure what they say
(games/simulate/counterfactual.py, games/bots/strategies/counterfactual.py)."""

from __future__ import annotations

import io
import json
import pathlib
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command

from games.bots import situations
from games.bots.strategies import sensible
from games.bots.strategies.counterfactual import variant
from games.presenters import coach_tips
from games.simulate import Config, counterfactual, wilson
from tests.test_coach import me, running, table

ROOT = pathlib.Path(__file__).resolve().parents[1]
RELIC_SITUATIONS = {situations.relic_use(r) for r in situations.TURN_RELICS}
RELIC_SITUATIONS.add(situations.DAGGER_STACK)


def check_well_formed(data: dict) -> None:
    """Every figure: counts that add up, rates inside their 95 % Wilson intervals, a paired
    difference inside its own interval, and the situation and move said in words."""
    assert data["players"] == 6 and data["strategy"] == "sensible"
    assert data["command"].startswith("python manage.py coach_figures")
    assert set(data["tables"]) == {"standard", "relics"}
    keys = set()
    for tip in data["tips"]:
        key = (tip["situation"], tip["table"], tip["team"])
        assert key not in keys, key
        keys.add(key)
        assert tip["situation"] in situations.SITUATIONS
        assert tip["team"] in ("hunters", "vampires")
        assert tip["about"] and tip["move"]
        n = tip["games"]
        assert 0 < n <= data["tables"][tip["table"]]["games"]
        for arm in ("with", "without"):
            wins, rate, (low, high) = (tip[arm][k] for k in ("wins", "rate", "ci95"))
            assert 0 <= wins <= n and rate == round(wins / n, 6)
            assert 0 <= low <= rate <= high <= 1
            assert (low, high) == tuple(round(x, 6) for x in wilson(wins, n))
        d = tip["difference"]
        assert d["only_with"] - d["only_without"] == tip["with"]["wins"] - tip["without"]["wins"]
        assert d["ci95"][0] <= d["points"] <= d["ci95"][1]
        assert abs(d["points"] - (tip["with"]["rate"] - tip["without"]["rate"]) * 100) < 0.01
        if tip["situation"] in RELIC_SITUATIONS:
            assert tip["table"] == "relics"


def test_the_stored_coach_figures_are_well_formed_and_large_enough_to_quote():
    data = json.loads(coach_tips.FIGURES.read_text())
    check_well_formed(data)
    assert data["tables"]["standard"]["games"] >= 1000
    assert data["tables"]["relics"]["games"] >= 1000
    measured = {(t["situation"], t["table"]) for t in data["tips"]}
    for situation in situations.SITUATIONS:  # every situation measured at its tables
        tables = ("relics",) if situation in RELIC_SITUATIONS else ("standard", "relics")
        for table_name in tables:
            assert (situation, table_name) in measured
    the_tip = (situations.STAKE_FOUND_VAMPIRE, "standard", "hunters")
    assert coach_tips.figures()["by_key"][the_tip]["games"] >= 200


def test_the_balance_page_shows_the_stored_figures():
    """docs/balance.md's table is the one the command prints for the stored file."""
    table = counterfactual.markdown(json.loads(coach_tips.FIGURES.read_text()))
    assert table in (ROOT / "docs" / "balance.md").read_text()
    assert table in (ROOT / "docs" / "balance-notes.md").read_text()  # kept by the next report


def test_the_coach_figures_command_writes_a_tiny_run_to_the_path_it_is_given(tmp_path):
    out = tmp_path / "figures.json"
    stdout = io.StringIO()
    call_command(
        "coach_figures",
        games=3,
        relic_games=2,
        workers=1,
        out=str(out),
        no_progress=True,
        stdout=stdout,
    )
    data = json.loads(out.read_text())
    check_well_formed(data)
    assert data["tables"]["standard"]["games"] == 3 and data["tables"]["relics"]["games"] == 2
    assert f"wrote {out}" in stdout.getvalue()
    with pytest.raises(CommandError):
        call_command("coach_figures", games=0, out=str(out), stdout=io.StringIO())


def test_paired_copies_give_the_same_counts_on_one_worker_or_two_without_django():
    code = (
        "import sys, games.simulate as s, games.simulate.counterfactual as c;"
        "s.runner.CHUNK = 4;"  # three chunks of a dozen games, for the two workers to share
        "config = s.Config(players=6, games=12, seed=3);"
        "one, two = c.run(config, workers=1), c.run(config, workers=2);"
        "assert one.counts == two.counts and one.games == two.games == 12, (one, two);"
        "assert one.counts;"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework')];"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_a_strategy_that_does_the_same_either_way_wins_the_same_in_both_copies(monkeypatch):
    """Both copies of a game draw the same random numbers: where the move changes nothing,
    every pair agrees."""
    monkeypatch.setattr(
        counterfactual, "variant", lambda situation, made: sensible.choose, raising=True
    )
    pairs = counterfactual.Pairs()
    config = Config(players=6, games=3, relics=True, last_wills=True, seed=5)
    for i in range(config.games):
        counterfactual.measure(config, i, pairs)
    assert pairs.counts
    for _, made, avoided, only_made, only_avoided in pairs.counts.values():
        assert made == avoided and only_made == only_avoided == 0, pairs.counts


def test_the_variant_makes_or_avoids_the_move_only_in_its_situation():
    hand = ["stake", "stake", "feast"]
    pending = [
        {
            "action": "place_token",
            "options": {
                "tokens": hand,
                "targets": [2, 3],
                "targets_by_token": dict.fromkeys(hand, [2, 3]),
            },
        }
    ]
    knows = [{"seat": 2, "source": "investigation", "round": 2, "role": "vampire"}]
    view = running(
        3, "mingling", table(*[True] * 6), me(1, tokens=hand, knowledge=knows), pending=pending
    )
    made = variant(situations.STAKE_FOUND_VAMPIRE, True)(None, view)
    avoided = variant(situations.STAKE_FOUND_VAMPIRE, False)(None, view)
    assert made == ("place_token", {"token": "stake", "target": 2})
    assert avoided[0] == "place_token" and avoided[1]["target"] == 3
    assert avoided[1]["token"] == "stake"
    view["me"]["knowledge"] = []  # not in the situation: the sensible move
    for flag in (True, False):
        assert variant(situations.STAKE_FOUND_VAMPIRE, flag)(None, view) == sensible.choose(
            None, view
        )
