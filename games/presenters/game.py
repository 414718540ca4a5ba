"""How the game looks to a person: labels, phase names, the Dining's steps, names in
log lines, and the seats, ties and roles of a view as the pages show them.

Everything here turns a viewer's engine view (`selectors.game_view`) or a log line into what a
template shows; nothing reads the database or decides a rule. The game page (games.web.game), the
table display (games.web.display), the history pages, the admin and the reminders (games.notify) all
use these, so a label or a phrase is written once.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict

import qrcode
import qrcode.image.svg
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games.domain import names as player_names
from games.engine import vocabulary
from games.engine.vocabulary import TieKind
from games.presenters import glossary, times
from games.presenters.wording import for_people, joined, tie_sentence, without_rule_ids
from relics import presenters as relic_pages

POLL_SECONDS = 2  # how often a page asks whether the game changed

ROLE_LABELS = vocabulary.ROLE_LABELS
TOKEN_LABELS = vocabulary.TOKEN_LABELS
PHASE_LABELS = {
    "lobby": "Lobby",
    "role_reveal": "Role reveal",
    "mingling": "Mingling",
    "tiebreak": "Tie vote",
    "choose_examiner": "Round 1 examination",
    "dining": "Dining",
    "last_will": "Last Will",
    "give_relic": "Relics handed out",
    "relic_window": "Relic window",
    "relic_choice": "Relic choice",
    "finished": "Game over",
}
SOURCE_LABELS = {
    "night": "night information",
    "investigation": "your Investigation",
    "examination": "your examination",
    "mesmerism": "Mesmerism",
}
TIE_LABELS = {
    TieKind.ELIMINATION: "Tie for elimination",
    TieKind.ELECTION: "Tie for Alpha Hunter",
    TieKind.EXAMINATION: "Tie for the most Stakes",
    TieKind.INTERVENTION: "Tie in the Ghostly Intervention",
}


def phase_label(phase: str) -> str:
    """The phase as players name it ("Tie vote"); a module's own phase in plain words."""
    return PHASE_LABELS.get(phase) or phase.replace("_", " ").capitalize()


def window_name(phase: str, round_: int) -> str:
    """A timed window as people name it: "Mingling window of round 2"; the round said once
    where the phase's own name already says it ("Round 1 examination window", never "... of
    round 1")."""
    label = phase_label(phase)
    if _NAMES_A_ROUND.search(label):
        return f"{label} window"
    return f"{label} window of round {round_}"


_NAMES_A_ROUND = re.compile(r"\bround \d", re.IGNORECASE)


def qr_svg(url: str, label: str = "QR code of the invite link") -> str:
    """A link as an inline SVG QR code (server-side; no script, no image request)."""
    image = qrcode.make(
        url, image_factory=qrcode.image.svg.SvgPathImage, border=2, box_size=10
    ).to_string(encoding="unicode")
    return image.replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1)


def seating(view: dict, me: dict | None) -> list[dict]:
    """The seating tiles: each seat of the view, marked for `me` (None: a spectator's)."""
    names = {s["seat"]: s["name"] for s in view["seats"]}
    my_seat = me["seat"] if me else None
    waiting = set(view.get("waiting_for") or [])
    relics = relic_pages.holders(view)  # face-up under each seating tile (R10.2a)
    # Roles shown to everyone (a Last Will's Public Confession) are public knowledge.
    revealed = {
        r["seat"]: ROLE_LABELS.get(r["role"], r["role"]) for r in view.get("public_roles") or []
    }
    out = []
    for s in view["seats"]:
        out.append(
            {
                **s,
                "is_me": s["seat"] == my_seat,
                "is_host": s["seat"] == view.get("host_seat"),
                "waiting": s["seat"] in waiting,
                "revealed_role": revealed.get(s["seat"]),
                "placed_names": [(o, names.get(o, "")) for o in s.get("placed_by", [])],
                "relics": relics.get(s["seat"], []),
            }
        )
    return out


def hand(tokens: list[str]) -> list[dict]:
    """A hand of tokens counted by kind, in the order of the rules."""
    counts: dict[str, int] = {}
    for t in tokens:
        counts[t] = counts.get(t, 0) + 1
    return [
        {"token": t, "label": TOKEN_LABELS.get(t, t), "count": n}
        for t, n in sorted(counts.items(), key=lambda item: token_order(item[0]))
    ]


def knowledge(k: dict, names: dict[int, str]) -> dict:
    """One thing the viewer knows about a seat, as a sentence and where it came from."""
    who = named_seat(k["seat"], names)
    if k.get("mesmerized"):
        text = format_html("{} is Mesmerized", who)
    elif k.get("role"):
        article = "the" if k["role"] == "vampire_lord" else "a"
        text = format_html("{} is {} {}", who, article, ROLE_LABELS[k["role"]])
    else:
        text = who
    source = SOURCE_LABELS.get(k.get("source"), str(k.get("source", "")).replace("_", " "))
    return {"seat": k["seat"], "text": text, "source": source, "round": k.get("round")}


# The role card's goal line (R12), and what a role knows when the night told it nothing (R1.3).
GOALS = {
    "hunter": "You win when no Vampire and no Lord is left alive.",
    "vampire": "You win when at most one Hunter is left alive.",
    "vampire_lord": "You win when at most one Hunter is left alive.",
}
KNOWS_NOTHING = {
    "hunter": "You know nobody's role, and nobody knows yours: find the Vampires by what they do.",
    "vampire": "You know nobody else's role.",
    "vampire_lord": "The Vampires know you are their Lord; you do not know who they are.",
}


def role_card(me: dict, names: dict[int, str]) -> dict:
    """The viewer's role card: its name, its goal and every role it knows (R1.3: the night's
    teammates, then anything learned since), or a line saying it knows none. The same card on
    the role reveal before round 1 and in the hold-to-look card."""
    role = me.get("role", "")
    facts = [knowledge(k, names) for k in me.get("knowledge") or []]
    knows = [f["text"] for f in facts if f["source"] == SOURCE_LABELS["night"]]
    knows += [
        format_html("{} ({}, round {})", f["text"], f["source"], f["round"])
        for f in facts
        if f["source"] != SOURCE_LABELS["night"]
    ]
    if not knows:
        knows = [KNOWS_NOTHING.get(role, "")]
    return {
        "role": role,
        "label": ROLE_LABELS.get(role, ""),
        "goal": GOALS.get(role, ""),
        "mesmerized": bool(me.get("mesmerized")),
        "knows": knows,
    }


def words(identifier) -> str:
    """An id without a name of its own ("last_stand") in words ("Last stand")."""
    return str(identifier).replace("_", " ").capitalize()


def token_order(token: str) -> int:
    """Sort key: tokens in the order of the rules, a module's own after them."""
    return list(TOKEN_LABELS).index(token) if token in TOKEN_LABELS else len(TOKEN_LABELS)


def targets(seats: list[int], names: dict[int, str]) -> list[dict]:
    """Seats to choose from, with their names."""
    return [{"seat": s, "name": names.get(s, "")} for s in seats]


def tie_vote(tie: dict | None, names: dict[int, str]) -> dict | None:
    """The open tie vote (the view's `tie`) with its label and named seats; None without one."""
    if not tie:
        return None
    return {
        **tie,
        "label": TIE_LABELS.get(tie["kind"], "Tie vote"),
        "candidates": targets(tie["candidates"], names),
        "voters": targets(tie["voters"], names),
        "voted": set(tie.get("voted", [])),
        "sentence": tie_sentence(tie, names),
        "decider_name": named_seat(tie.get("decider"), names),
        "words": glossary.TIE_WORDS.get(tie["kind"], ("tie_vote",)),
    }


def named_seat(seat: int | None, names: dict[int, str]) -> SafeString | None:
    """'<bdi class="name">Eli</bdi>': a person by name (plain text: named_seat_text)."""
    if seat is None:
        return None
    return player_names.as_html(names.get(seat, "?"))


def named_seat_text(seat: int, names: dict[int, str]) -> str:
    """'Eli': a person by name in plain text (a screen reader's announcement), unquoted: a
    voice reads no quotation marks, and a page shows no name in them (docs/voice.md)."""
    return names.get(seat, "?")


def dining_steps(
    d: dict | None,
    names: dict[int, str],
    last_wills: list | None = None,
    will_lines: list | None = None,
    reader: int | None = None,
) -> dict | None:
    """`last_dining` as the steps of R4.1, to be revealed one after the other.

    A Last Will's result is written from its lines' templates (`will_lines`,
    games.selectors.last_will_lines), so it names people, not seats. On a seat's own page
    (`reader`) that seat is "you": `you` lists the steps whose subject is the reader, for the
    template's verbs ("You had the most Stakes and are a Ghost now")."""
    if not d:
        return None

    def who(seat):
        if reader is not None and seat == reader:
            return mark_safe("you")
        return named_seat(seat, names)

    lines = {(w["round"], w["seat"]): w["lines"] for w in will_lines or []}
    wills = [
        {
            **w,
            "who": who(w["seat"]),
            "yours": reader is not None and w["seat"] == reader,
            "chosen": [who(t) for t in w.get("targets") or []],
            "result": _will_result(w, lines, names, reader),
        }
        for w in last_wills or []
        if w.get("round") == d["round"]
    ]

    on_seat: dict[int, list[dict]] = defaultdict(list)
    for t in d.get("tokens", []):
        on_seat[t["target"]].append(
            {
                "owner": "you" if t["owner"] == reader else names.get(t["owner"], "?"),
                "token": t["token"],
                "label": TOKEN_LABELS[t["token"]],
            }
        )
    tokens = [{"seat": who(s), "tokens": on_seat[s]} for s in sorted(on_seat)]
    unplaced = [
        {"owner": who(u["owner"]), "label": TOKEN_LABELS.get(u["token"], u["token"])}
        for u in d.get("unplaced", [])
    ]
    dials = [{"voter": who(v["voter"]), "target": who(v["target"])} for v in d["intervention"]]
    ties = [
        {
            "label": TIE_LABELS.get(t["kind"], t["kind"]),
            "result": who(t["result"]) or "no result",
            "how": t["decided_by"].replace("_", " "),
            "votes": [{"voter": who(v["voter"]), "target": who(v["target"])} for v in t["votes"]],
        }
        for t in d.get("ties", [])
    ]
    return {
        "round": d["round"],
        # Changes whenever the Dining shows more: the page then plays the reveal again.
        "key": f"{d['round']}-{_digest(d, wills)}",
        "complete": d.get("complete", False),
        "dials": dials,
        "protected": who(d.get("protected")),
        "investigated": who(d.get("investigated")),
        "tokens": tokens,
        "unplaced": unplaced,
        "examined": who(d.get("examined")),
        "examiner": who(d.get("examiner")),
        "eliminated": who(d.get("eliminated")),
        "alpha_elected": who(d.get("alpha_elected")),
        "ties": ties,
        "last_wills": wills,
        "first_round": d["round"] == 1,
        # Deaths in Dining beyond the Staked player (a Bangle partner, Blood of the One, a Last
        # Stand), and the Cross of Saint John's count when it decided the game (relics).
        "also_died": [who(s) for s in d.get("deaths", []) if s != d.get("eliminated")],
        "cross": {**d["cross"], "seat": who(d["cross"]["seat"])} if d.get("cross") else None,
        "you": {
            key
            for key in ("examined", "examiner", "eliminated", "alpha_elected", "protected")
            if reader is not None and d.get(key) == reader
        },
    }


def _will_result(w: dict, lines: dict, names: dict[int, str], reader: int | None):
    """A resolved Last Will's result in words for people, from its lines (seats by name)."""
    found = lines.get((w["round"], w["seat"]))
    if not found:
        return w.get("result")
    said = [for_people("", names, line["data"], line["template"], reader) for line in found]
    return mark_safe(" ".join(said))


def _digest(*parts) -> str:
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:10]


def roles_revealed(view: dict, names: dict[int, str]) -> list[dict]:
    """Every seat's role, name and whether it won, for the roles table (templates/games/_roles.html)
    of the end screen and of the replay's last step."""
    out = []
    for r in view.get("roles") or []:
        out.append(
            {
                **r,
                "name": names.get(r["seat"], ""),
                "label": ROLE_LABELS[r["role"]],
                "won": r["won"],
            }
        )
    return out


def vacation_card(view: dict, me: dict | None, tz, now) -> dict | None:
    """The player's vacation card (docs/slow-games.md "Vacation"), times in the viewer's zone:
    their vacation under way, the one planned, or the form; None where there is none (a
    spectator, a live game, a finished game)."""
    if me is None or view["status"] == "finished":
        return None
    if (view.get("options") or {}).get("preset") != "async":
        return None
    mine = me.get("vacation") or {}
    return {
        "on": bool(mine.get("on")),
        "planned": bool(mine) and not mine.get("on"),
        "from_text": times.clock_of(mine.get("from"), tz),
        "until_text": times.clock_of(mine.get("until"), tz),
        "min": times.field_value(now, tz),
        "zone": "your time" if tz is not None else "UTC",
    }


def end_sentence(view: dict, dining: dict | None) -> SafeString:
    """Why the game ended, with who (docs/voice.md, the end screen): the rule's reason in words,
    and the Dining that ended it. `dining` is `dining_steps` of this page (names, or "you")."""
    reason = without_rule_ids(view.get("outcome") or "")
    dining = dining or {}
    cross = dining.get("cross")
    if cross:
        return format_html(
            "{} held the Cross of Saint John and was Staked: {} of the {} Stake votes on them "
            "came from the Vampires, at least half, so the Hunters win at once.",
            _capital(cross["seat"]),
            cross["from_vampires"],
            cross["stake_votes"],
        )
    died = [*dining.get("also_died", [])]
    if dining.get("eliminated"):
        last = dining["eliminated"]
        said = format_html("{} {} Staked", _capital(last), _was(last))
        if died:
            said = format_html("{}, and {} died too", said, joined(died))
        return format_html("{}. {}", said, reason)
    if died:
        return format_html("{} died. {}", _capital(joined(died)), reason)
    return format_html("{}", reason)


def _capital(who) -> SafeString:
    return mark_safe("You" + who[3:]) if who.startswith("you") else who


def _was(who) -> str:
    return "were" if who == "you" else "was"
