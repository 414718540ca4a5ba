"""R13 The Last Will deck is data: 16 entries, 18 cards with copies, one effect per card."""

from __future__ import annotations

from collections import Counter

from games.engine.last_wills import BY_ID, CARDS, EFFECTS

# R13's list, written out again here rather than read from the engine: id -> copies
R13 = {
    "parting_glance": 2,
    "dying_accusation": 2,
    "toast": 1,
    "spilled_wine": 1,
    "broken_stake": 1,
    "grudge": 1,
    "overturned_table": 1,
    "kingmaker": 1,
    "public_confession": 1,
    "restless_spirit": 1,
    "kindred_or_not": 1,
    "last_stand": 1,
    "heirloom": 1,
    "shattered_relic": 1,
    "sealed_reliquary": 1,
    "nothing_to_say": 1,
}
NAMES = {
    "parting_glance": "Parting Glance",
    "dying_accusation": "Dying Accusation",
    "toast": "Toast to a Friend",
    "spilled_wine": "Spilled Wine",
    "broken_stake": "Broken Stake",
    "grudge": "Grudge",
    "overturned_table": "Overturned Table",
    "kingmaker": "Kingmaker",
    "public_confession": "Public Confession",
    "restless_spirit": "Restless Spirit",
    "kindred_or_not": "Kindred or Not",
    "last_stand": "Last Stand",
    "heirloom": "Heirloom",
    "shattered_relic": "Shattered Relic",
    "sealed_reliquary": "Sealed Reliquary",
    "nothing_to_say": "Nothing to Say",
}
TWO_TARGETS = {"kindred_or_not"}
NO_CHOICE = {"overturned_table", "public_confession", "restless_spirit", "nothing_to_say"}
NEXT_ROUND = {"dying_accusation", "toast", "spilled_wine", "broken_stake", "grudge"}
NEXT_ROUND |= {"restless_spirit", "sealed_reliquary"}
THIS_ROUND = {"overturned_table", "kingmaker"}


def test_r13_deck_has_16_entries_and_18_cards_with_copies():
    assert len(CARDS) == 16
    assert sum(c.copies for c in CARDS) == 18
    assert {c.id: c.copies for c in CARDS} == R13
    assert all(c.copies >= 1 for c in CARDS)


def test_r13_deck_ids_are_unique_and_in_the_order_of_r13():
    ids = [c.id for c in CARDS]
    assert len(ids) == len(set(ids))
    assert ids == list(R13)
    assert BY_ID == {c.id: c for c in CARDS}


def test_r13_deck_every_card_has_an_effect_and_every_effect_a_card():
    cards = {c.id for c in CARDS}
    assert cards - set(EFFECTS) == set(), "cards without an effect"
    assert set(EFFECTS) - cards == set(), "effects without a card"
    assert all(callable(f) for f in EFFECTS.values())


def test_r13_deck_names_relics_exactly_for_the_three_relic_cards():
    assert {c.id for c in CARDS if c.names_relics} == {
        "heirloom",
        "shattered_relic",
        "sealed_reliquary",
    }


def test_r13_deck_names_texts_timings_and_choices_are_data():
    for c in CARDS:
        assert c.name == NAMES[c.id]
        assert isinstance(c.text, str) and c.text.endswith(".")
        assert c.timing in ("now", "this_round", "next_round")
        assert (c.choice is None) == (c.id in NO_CHOICE), c.id
        assert (c.choice == "two_living") == (c.id in TWO_TARGETS), c.id
    assert {c.id for c in CARDS if c.timing == "next_round"} == NEXT_ROUND
    assert {c.id for c in CARDS if c.timing == "this_round"} == THIS_ROUND
    assert {c.id for c in CARDS if c.choice == "stakers"} == {"grudge", "last_stand"}
    assert BY_ID["kingmaker"].choice == "electable"


def test_r13_deck_card_texts_are_the_apps_own_and_distinct():
    texts = Counter(c.text for c in CARDS)
    assert max(texts.values()) == 1
