"""The end screen says who ended the game and why (games.presenters.game.end_sentence), to its
reader: a Cross of Saint John names its holder and the count; a last Staking names who fell."""

from __future__ import annotations

from django.utils.html import format_html

from games.presenters.game import end_sentence

ELI = format_html('<bdi class="name">{}</bdi>', "Eli")


def test_r12_3_the_cross_ends_the_game_with_its_holder_and_the_count():
    view = {"outcome": "The Cross of Saint John (R11, R12.3).", "winner": "hunters"}
    dining = {"cross": {"seat": ELI, "from_vampires": 3, "stake_votes": 4}}
    said = end_sentence(view, dining)
    assert said == (
        '<bdi class="name">Eli</bdi> held the Cross of Saint John and was Staked: 3 of the 4 '
        "Stake votes on them came from the Vampires, at least half, so the Hunters win at once."
    )


def test_r12_2_the_last_staking_names_who_fell_and_says_you_to_its_reader():
    view = {"outcome": "At most one living player is a Hunter (R12.2).", "winner": "vampires"}
    assert end_sentence(view, {"eliminated": ELI}) == (
        '<bdi class="name">Eli</bdi> was Staked. At most one living player is a Hunter.'
    )
    mine = end_sentence(view, {"eliminated": "you", "also_died": [ELI]})
    assert mine == (
        'You were Staked, and <bdi class="name">Eli</bdi> died too. At most one living player '
        "is a Hunter."
    )
