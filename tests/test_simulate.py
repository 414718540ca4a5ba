"""The balance simulator (games/simulate/) and its command: reproducible, worker-independent."""

from __future__ import annotations

import io
import json
import pathlib
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command

import relics.rules
from games import simulate
from tests.conftest import examples

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _without_timing(figures: dict) -> dict:
    return {k: v for k, v in figures.items() if k != "timing"}


def test_the_simulator_is_pure_python_without_django():
    code = (
        "import sys, games.simulate as s;"
        "s.run(s.Config(players=6, games=3), workers=1);"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework')];"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_a_seeded_run_gives_the_same_figures_on_one_worker_or_two():
    # 60 games: two chunks (runner.CHUNK) for the two workers to share; `make test-long` 120.
    games = examples(suite=60, long=120)
    config = simulate.Config(players=8, games=games, relics=True, last_wills=True, seed=7)
    one = simulate.run(config, workers=1)
    two = simulate.run(config, workers=2)
    assert _without_timing(one) == _without_timing(two)
    assert one["games"] == games and one["illegal_moves"] == 0
    again = simulate.run(config, workers=2)
    assert _without_timing(again) == _without_timing(one)
    other = simulate.run(simulate.Config(**{**config.__dict__, "seed": 8}), workers=1)
    assert _without_timing(other) != _without_timing(one)


def test_the_figures_add_up():
    f = simulate.run(simulate.Config(players=10, games=60, relics=True, seed=1), workers=1)
    hunters, vampires = f["win_rate"]["hunters"], f["win_rate"]["vampires"]
    assert hunters["wins"] + vampires["wins"] == 60
    assert hunters["ci95"][0] <= hunters["rate"] <= hunters["ci95"][1]
    assert f["average_rounds"] >= 2
    assert 0 <= f["lord_examined"]["rate"] <= 1 and 0 <= f["hunters_mesmerized"]["rate"] <= 1
    assert f["hunters_mesmerized"]["games"] <= f["lord_examined"]["games"]  # R8.1
    assert set(f["relics"]) == set(relics.rules.BY_ID)
    for relic in f["relics"].values():
        assert 0 < relic["games_in_play"] < 60
        rates = relic["hunters_in_play"]["rate"], relic["hunters_not_in_play"]["rate"]
        assert relic["difference"] == pytest.approx(rates[0] - rates[1], abs=1e-5)
    assert sum(f["end_reasons"].values()) == 60


def test_the_wilson_interval():
    low, high = simulate.wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert simulate.wilson(0, 10)[0] == 0.0 and simulate.wilson(10, 10)[1] == pytest.approx(1.0)


def test_the_command_prints_the_figures_and_writes_them_as_json(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    path = tmp_path / "figures.json"
    call_command(
        "simulate",
        players="6",
        games=30,
        relics=True,
        last_wills=True,
        seed=3,
        workers=2,
        json=str(path),
        bench=True,
        stdout=out,
        stderr=err,
    )
    text = out.getvalue()
    assert "Hunters   win" in text and "95 % CI" in text and "Average rounds" in text
    assert "Lord examined" in text and "Hunters Mesmerized" in text and "Relic →" in text
    last = text.strip().splitlines()[-1]
    assert last.startswith("BENCH simulate games_per_s_10p=") and last.endswith("workers=2")
    assert "30/30 games" in err.getvalue()  # the progress bar
    data = json.loads(path.read_text())
    assert data["games"] == 30 and data["config"]["players"] == 6
    assert {"hunters", "vampires"} == set(data["win_rate"])
    assert {"average_rounds", "lord_examined", "hunters_mesmerized", "relics"} <= set(data)
    single = simulate.run(simulate.Config(6, 30, True, True, "sensible", 3), workers=1)
    assert _without_timing(data) == _without_timing(single)


def test_the_command_writes_a_balance_report_with_its_chart(tmp_path):
    report = tmp_path / "balance.md"
    call_command(
        "simulate",
        players="6-7",
        games=10,
        workers=1,
        report=str(report),
        no_progress=True,
        stdout=io.StringIO(),
    )
    text = report.read_text()
    assert "python manage.py simulate" in text and "| 7 | yes |" in text and "| 6 | no |" in text
    svg = (tmp_path / "balance.svg").read_text()
    assert svg.startswith("<svg") and svg.count("<polyline") == 2


def test_the_balance_report_ends_with_the_hand_written_notes(tmp_path):
    report, notes = tmp_path / "balance.md", tmp_path / "notes.md"
    notes.write_text("## What moved\n\nThe Dagger, as printed.\n")
    call_command(
        "simulate",
        players="6",
        games=5,
        workers=1,
        report=str(report),
        notes=str(notes),
        no_progress=True,
        stdout=io.StringIO(),
    )
    text = report.read_text()
    assert "## What moved\n\nThe Dagger, as printed." in text


def test_the_command_refuses_a_player_count_out_of_range():
    with pytest.raises(CommandError, match="6–12"):
        call_command("simulate", players="4-8", games=1, stdout=io.StringIO())
