"""The engine's words: every phase, action, token, role, team, tie kind, event kind, relic and
Last Will id, as `StrEnum`s, and the labels players read for them.

A member equals its string (`Phase.DINING == "dining"`, same hash, JSON-encoded as the string), so
states stored before these existed load and compare exactly as before, and a layer outside the
engine (API, pages, bots) names a phase or an action with these instead of retyping it.
Hot paths use module-level aliases (`state.STAKE`): an enum member read through its class costs
an attribute lookup on every move.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Public phase names, as clients see them in the view (`view["phase"]`)."""

    ROLE_REVEAL = "role_reveal"  # before round 1: each player looks at their role, taps Ready
    MINGLING = "mingling"
    TIEBREAK = "tiebreak"
    CHOOSE_EXAMINER = "choose_examiner"
    DINING = "dining"
    FINISHED = "finished"
    LAST_WILL = "last_will"  # the eliminated player's Last Will choice (R13)
    GIVE_RELIC = "give_relic"  # a player gives the relic they drew (R10.2)
    RELIC_WINDOW = "relic_window"  # one holder's window (R10.3; a Dining tie or last call, R11)
    RELIC_CHOICE = "relic_choice"  # an optional passive choice (Van Helsing, False Idol)
    RELICS = "relics"  # between two relic windows of one stage (never waits on anyone)


class ActionName(StrEnum):
    """Every action of docs/api.md; the last four belong to modules (relics, Last Wills)."""

    READY = "ready"  # the role reveal: "I have seen my role"

    PLACE_TOKEN = "place_token"
    INTERVENTION_VOTE = "intervention_vote"
    TIEBREAK_VOTE = "tiebreak_vote"
    CHOOSE_EXAMINER = "choose_examiner"
    GIVE_RELIC = "give_relic"
    USE_RELIC = "use_relic"
    PASS = "pass"
    RESOLVE_CHOICE = "resolve_choice"


class Token(StrEnum):
    STAKE = "stake"
    FEAST = "feast"
    DOUBLE_STAKE = "double_stake"
    INVESTIGATION = "investigation"


class Role(StrEnum):
    HUNTER = "hunter"
    VAMPIRE = "vampire"
    VAMPIRE_LORD = "vampire_lord"


class Team(StrEnum):
    """Who wins (R12); a Mesmerized Hunter plays with the Vampires (R1.4)."""

    HUNTERS = "hunters"
    VAMPIRES = "vampires"


class TieKind(StrEnum):
    ELIMINATION = "elimination"
    ELECTION = "election"
    EXAMINATION = "examination"  # round 1: the most Stakes (R6.1)
    INTERVENTION = "intervention"


class EventKind(StrEnum):
    """`Event.kind` of every log line the engine and its modules write."""

    GAME_STARTED = "game_started"
    NIGHT = "night"
    READY = "ready"
    REVEAL_OVER = "reveal_over"
    ROUND_STARTED = "round_started"
    TOKEN_PLACED = "token_placed"
    TOKENS_SET_ASIDE = "tokens_set_aside"
    INTERVENTION_VOTE = "intervention_vote"
    MINGLING_OVER = "mingling_over"
    DINING = "dining"
    PROTECTED = "protected"
    INVESTIGATION = "investigation"
    EXAMINED = "examined"
    EXAMINATION = "examination"
    MESMERIZED = "mesmerized"
    MOST_STAKED = "most_staked"
    ELIMINATED = "eliminated"
    NO_ELIMINATION = "no_elimination"
    ALPHA_ELECTED = "alpha_elected"
    NO_ALPHA = "no_alpha"
    TIE = "tie"
    TIE_VOTE = "tie_vote"
    TIE_RECOUNT = "tie_recount"
    TIE_SETTLED = "tie_settled"
    GAME_OVER = "game_over"
    LAST_WILL = "last_will"
    LAST_WILL_REDRAW = "last_will_redraw"
    LAST_WILL_EFFECT = "last_will_effect"
    LAST_WILL_VOID = "last_will_void"
    LAST_WILL_TIMEOUT = "last_will_timeout"
    RELICS_READY = "relics_ready"
    RELIC_GIVEN = "relic_given"
    RELIC_RECEIVED = "relic_received"
    RELIC_USED = "relic_used"
    RELIC_NEGATED = "relic_negated"
    RELIC_TIMEOUT = "relic_timeout"
    RELIC_BANGLE = "relic_bangle"
    RELIC_CROSS = "relic_cross"
    RELIC_SCALES = "relic_scales"


class RelicId(StrEnum):
    """The Sacred Relics of R10–R11 (the cards are in relics/rules/cards.py)."""

    RITUAL_BELL = "ritual_bell"
    SIGNET_RING = "signet_ring"
    HINDSIGHT_LOOKING_GLASS = "hindsight_looking_glass"
    WHISPER_WICK_CANDLE = "whisper_wick_candle"
    BANGLE_OF_OATHS = "bangle_of_oaths"
    KEY_OF_QUICK_PASSAGE = "key_of_quick_passage"
    BLOOD_OF_THE_ONE = "blood_of_the_one"
    CEREMONIAL_DAGGER = "ceremonial_dagger"
    SEERS_ORB = "seers_orb"
    EFFIGY_OF_INNOCENCE = "effigy_of_innocence"
    FALSE_IDOL = "false_idol"
    CROSS_OF_SAINT_JOHN = "cross_of_saint_john"
    CROWN_OF_SOLOMON = "crown_of_solomon"
    SCALES_OF_JUSTICE = "scales_of_justice"
    VAN_HELSINGS_JOURNAL = "van_helsings_journal"


class LastWillId(StrEnum):
    """The Last Will cards of R13 (the deck is in last_wills.py)."""

    PARTING_GLANCE = "parting_glance"
    DYING_ACCUSATION = "dying_accusation"
    TOAST = "toast"
    SPILLED_WINE = "spilled_wine"
    BROKEN_STAKE = "broken_stake"
    GRUDGE = "grudge"
    OVERTURNED_TABLE = "overturned_table"
    KINGMAKER = "kingmaker"
    PUBLIC_CONFESSION = "public_confession"
    RESTLESS_SPIRIT = "restless_spirit"
    KINDRED_OR_NOT = "kindred_or_not"
    LAST_STAND = "last_stand"
    HEIRLOOM = "heirloom"
    SHATTERED_RELIC = "shattered_relic"
    SEALED_RELIQUARY = "sealed_reliquary"
    NOTHING_TO_SAY = "nothing_to_say"


WORDS = (Phase, ActionName, Token, Role, Team, TieKind, EventKind, RelicId, LastWillId)

STAKE_VOTES = {Token.STAKE: 1, Token.DOUBLE_STAKE: 2}  # R3.5: a Double-Stake is 2 Stake votes

ROLE_LABELS = {Role.HUNTER: "Hunter", Role.VAMPIRE: "Vampire", Role.VAMPIRE_LORD: "Vampire Lord"}
ROLE_NAMES = {  # in a sentence: "seat 3 is a Hunter"
    Role.HUNTER: "a Hunter",
    Role.VAMPIRE: "a Vampire",
    Role.VAMPIRE_LORD: "the Vampire Lord",
}
TOKEN_LABELS = {
    Token.STAKE: "Stake",
    Token.FEAST: "Feast",
    Token.DOUBLE_STAKE: "Double-Stake",
    Token.INVESTIGATION: "Investigation",
}
