"""The game's own words, each explained in one sentence ("game words explained on first
sight, with a tap for more"): the pages show a word as a tappable term
(`{% term %}`/`{% terms %}` in games/templatetags/words.py, templates/games/_term.html) whose
explanation comes from here, with a "More" link to the part of the rules pages that tells the
rest. docs/phone-screens.md, "Game words", says when a term shows its explanation open.

A presenter: plain data, no database, no rule decided. The sentences follow docs/rules.md and
docs/voice.md (no rule IDs, second person where natural). Two words are secrets of their own:
"Vampire Lord" and "Mesmerized" are explained only on the phones of players who already know
them (the role knowledge), and no other sentence here names them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Word:
    key: str
    word: str  # as the pages write it
    says: str  # one plain sentence (or two short ones)
    page: str  # the rules page (games.web.game.RULE_PAGES) that tells more
    anchor: str  # the element's id on that page


WORDS: dict[str, Word] = {
    w.key: w
    for w in [
        Word(
            "stake",
            "Stake",
            "Put it on someone you suspect: from round 2, the player with the most Stakes at "
            "Dining is Staked and becomes a Ghost.",
            "dining",
            "elimination",
        ),
        Word(
            "feast",
            "Feast",
            "Put it on someone you trust: the player with the most Feasts is the Alpha Hunter "
            "next round.",
            "dining",
            "election",
        ),
        Word(
            "alpha",
            "Alpha Hunter",
            "The player with the most Feasts leads the next round and plays special tokens: "
            "a Double-Stake, a Feast and an Investigation.",
            "round",
            "alpha",
        ),
        Word(
            "double_stake",
            "Double-Stake",
            "The Alpha Hunter's Stake: it counts as two Stakes on the player it lands on.",
            "round",
            "alpha",
        ),
        Word(
            "investigation",
            "Investigation",
            "The Alpha Hunter's third token: whoever it lands on shows their role to the Alpha "
            "in secret. Everyone learns who was investigated, never what was seen.",
            "dining",
            "investigation",
        ),
        Word(
            "protected",
            "Protected",
            "The player the Ghosts chose most this round: every token on them is ignored, so "
            "they cannot be Staked, elected or investigated. Never two rounds in a row.",
            "ghosts",
            "intervention",
        ),
        Word(
            "ghost",
            "Ghost",
            "A player who was Staked. Ghosts place no tokens and get none, but they still win "
            "or lose with their team, cast a Ghost vote each round and break ties.",
            "ghosts",
            "ghosts",
        ),
        Word(
            "ghost_vote",
            "Ghost vote",
            "Each round every Ghost secretly picks one living player; the one picked most is "
            "Protected at Dining. A Ghost vote is final.",
            "ghosts",
            "intervention",
        ),
        Word(
            "intervention",
            "Ghostly Intervention",
            "The Ghost votes, shown at the start of Dining: the player the Ghosts picked most "
            "is Protected this round.",
            "ghosts",
            "intervention",
        ),
        Word(
            "examination",
            "Examination",
            "Nobody dies in round 1: the player with the most Stakes picks someone else, who "
            "looks at their Secret Role in secret.",
            "round",
            "first-round",
        ),
        Word(
            "mesmerized",
            "Mesmerized",
            "A Hunter who looks at the Lord's card is Mesmerized: from then on they win only "
            "with the Vampires, though their card still says Hunter.",
            "lord",
            "mesmerism",
        ),
        Word(
            "vampire_lord",
            "Vampire Lord",
            "The Vampires' leader: any Hunter who looks at the Lord's card is Mesmerized and "
            "secretly changes sides.",
            "lord",
            "lord",
        ),
        Word(
            "mingling",
            "Mingling",
            "Place every token before the time is up: one still in your hand counts as a Stake "
            "against you.",
            "round",
            "mingling",
        ),
        Word(
            "dining",
            "Dining",
            "When Mingling ends every token is shown and counted: the most Stakes is Staked, "
            "the most Feasts becomes the next Alpha Hunter.",
            "dining",
            "dining",
        ),
        Word(
            "relic",
            "Sacred Relic",
            "A card every player is given after round 1, face-up for all to see: a power its "
            "holder uses in its turn, or one always at work, while the holder lives.",
            "relics",
            "when",
        ),
        Word(
            "last_will",
            "Last Will",
            "A card drawn by a player who dies at Dining: one last move, made before the "
            "game goes on.",
            "last-wills",
            "last-wills",
        ),
        Word(
            "tie_vote",
            "Tie vote",
            "When players tie for the most Stakes or Feasts, the Ghosts vote between them (with "
            "no Ghosts, everyone does). Still tied, and nobody decides in time: nothing happens.",
            "dining",
            "ties",
        ),
    ]
}

# The tokens of the token chooser, each explained by the word of the same key.
TOKEN_WORDS = ("stake", "feast", "double_stake", "investigation")

# What the Dining's tie kinds (games.engine.vocabulary.TieKind) are about.
TIE_WORDS = {
    "elimination": ("tie_vote", "stake"),
    "election": ("tie_vote", "alpha"),
    "examination": ("tie_vote", "examination"),
    "intervention": ("intervention",),
}


def word(key: str) -> Word:
    """The word `key` ("feast"); a KeyError names a word the glossary lacks."""
    return WORDS[key]


def knowledge_words(knowledge: list[dict], me: dict | None) -> list[str]:
    """The words the viewer's own knowledge uses (the view's `me.knowledge`, and whether they
    are Mesmerized): explained inside "What you know", which only they open."""
    keys = []
    for k in knowledge:
        if k.get("mesmerized") or k.get("source") == "mesmerism":
            keys.append("mesmerized")
        if k.get("role") == "vampire_lord":
            keys.append("vampire_lord")
        if k.get("source") in ("investigation", "examination"):
            keys.append(k["source"])
    if me and me.get("mesmerized"):
        keys.append("mesmerized")
    if me and me.get("role") == "vampire_lord":
        keys.append("vampire_lord")
    return list(dict.fromkeys(keys))


def hand_words(tokens: list[str], phase: str) -> list[str]:
    """The words of a hand of tokens, in the order of the rules, and Mingling while it is on (a
    token still in hand counts against its owner)."""
    keys = [k for k in TOKEN_WORDS if k in tokens]
    return [*keys, "mingling"] if phase == "mingling" else keys


def recap_words(dining: dict | None) -> list[str]:
    """The words of the last Dining's recap (games.presenters.game.dining_steps), in its order."""
    if not dining:
        return []
    keys = ["protected"]
    if dining.get("investigated"):
        keys.append("investigation")
    if dining.get("first_round") and dining.get("examiner"):
        keys.append("examination")
    if dining.get("eliminated"):
        keys.append("ghost")
    if dining.get("last_wills"):
        keys.append("last_will")
    if dining.get("ties"):
        keys.append("tie_vote")
    keys.extend(["alpha", "dining"])
    return keys


def badge_words(tile: dict, me: dict) -> list[str]:
    """The words of the viewer's own badges (their seating tile, games.presenters.game.seating):
    Alpha Hunter, Protected, Ghost."""
    keys = []
    if tile.get("alpha"):
        keys.append("alpha")
    if tile.get("protected"):
        keys.append("protected")
    if not me.get("alive", True):
        keys.append("ghost")
    return keys
