"""The "sensible" strategy: plays for its team from what its seat may know, and nothing more.

`choose(rng, view)` is handed one seat's `engine.view(state, seat)` (a plain dict, `pending`
included) and nothing else, so it cannot use a secret its seat does not hold. It keeps no memory
between moves: everything it weighs is in the view (its knowledge, the last Dining's revealed
tokens, the Last Wills' public results).

How it plays (the guide page "How the bots play" says the same in words):
- Everyone sorts the other living players into allies, enemies and unknowns. Vampires know their
  team (R1.3) and who is Mesmerized (R8.2); a Mesmerized Hunter knows the Lord it saw; Hunters know
  what they examined, public confessions and Kindred-or-Not verdicts.
- Hunters score unknowns by the last Dining: a Stake on a known Hunter (or on me) or a Feast on a
  known Vampire is suspicious; a Stake on a known Vampire or a Feast on a known Hunter is
  reassuring. What the whole table saw counts too: the stakers of the player who drew the most
  Stakes (Vampires pile up on one Hunter), pairs who feasted each other, the new Alpha's feasters.
  Every Hunter breaks ties the same way, so with the same facts their Stakes meet.
  Stakes and the Double-Stake go to enemies and the most suspicious; the Feast to the
  most trusted; the Investigation to the most suspicious player whose role is still unknown.
- The Vampire team never stakes its own. It ranks Hunters by the threat they pose (who staked a
  Vampire last round, who investigated one, the Alpha) with a tie-break every Vampire computes the
  same way from public facts, so their Stakes converge without talking. Vampires feast each other.
  The Lord does not expose itself: it feasts a Hunter rather than a Vampire, and when it must pick
  its own examiner (R6.1) it picks a Hunter, who is Mesmerized.
- Ghosts protect their most trusted ally (Hunters) or the ally most in danger (Vampire team).
- Ties: vote against the worst enemy for elimination, for the best ally for Alpha.
- Last Wills and relics: harmful effects on enemies, helpful ones on allies. Who holds which
  relic is public (R10.2a), so the relics that target a card name the one worth most
  (`RELIC_WORTH`): the Ritual Bell silences an enemy's best relic, the Signet Ring takes a known
  enemy's best one, the Hindsight Looking Glass copies the best Ghost relic, an ally's first (the
  False Idol goes to enemies, so it is never copied). The Vampire team keeps its Stakes off a
  Cross of Saint John holder while another target is left. The Whisper-Wick Candle makes the swap
  that best moves likely Stakes (my own tokens are known, a Vampire stakes Hunters and feasts its
  own) from allies onto enemies, only when the placements (public while mingling) make it legal.
  The Bangle of Oaths moves likely Stakes off my seat onto the partner's while that lowers the
  higher of our two counts (if either of us dies, both do). The Scales of Justice settle a Dining
  tie when their holder is tied (it costs nothing), or when a known enemy or ally is among the
  tied (it costs the card); otherwise the tie goes to the vote. A Hunter reads Van Helsing's
  Journal unless the dead seat may well be the Lord.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from games.bots.strategies.randomly import Choice, random_choice
from games.engine.vocabulary import STAKE_VOTES, ActionName, LastWillId, RelicId, Role, Team, Token

HUNTERS, VAMPIRES = Team.HUNTERS, Team.VAMPIRES
VAMPIRE_ROLES = (Role.VAMPIRE, Role.VAMPIRE_LORD)
STAKES = STAKE_VOTES

# Last Wills: which kind of player each card's choice should name.
ON_ENEMY = {
    LastWillId.DYING_ACCUSATION,
    LastWillId.GRUDGE,
    LastWillId.SPILLED_WINE,
    LastWillId.BROKEN_STAKE,
    LastWillId.LAST_STAND,
    LastWillId.SHATTERED_RELIC,
    LastWillId.SEALED_RELIQUARY,
}
ON_ALLY = {LastWillId.TOAST, LastWillId.KINGMAKER, LastWillId.HEIRLOOM}
HARMFUL_RELICS = {RelicId.FALSE_IDOL}  # better in an enemy's hands
# How much a relic helps whoever holds it, for the relics that pick a card (Bell, Ring, Glass).
RELIC_WORTH = {
    RelicId.SCALES_OF_JUSTICE: 3,
    RelicId.EFFIGY_OF_INNOCENCE: 3,
    RelicId.SEERS_ORB: 2,
    RelicId.VAN_HELSINGS_JOURNAL: 2,
    RelicId.CROSS_OF_SAINT_JOHN: 2,
    RelicId.CEREMONIAL_DAGGER: 2,
    RelicId.KEY_OF_QUICK_PASSAGE: 2,
    RelicId.WHISPER_WICK_CANDLE: 2,
    RelicId.BLOOD_OF_THE_ONE: 2,
    RelicId.CROWN_OF_SOLOMON: 1,
    RelicId.RITUAL_BELL: 1,
    RelicId.SIGNET_RING: 1,
    RelicId.HINDSIGHT_LOOKING_GLASS: 1,
    RelicId.BANGLE_OF_OATHS: 0,
    RelicId.FALSE_IDOL: -2,
}
TOKEN_ORDER = {Token.DOUBLE_STAKE: 0, Token.STAKE: 1, Token.INVESTIGATION: 2, Token.FEAST: 3}
UNSEEN_STAKE = 2 / 3  # Stake votes a token of unknown kind is worth: 2 Stakes and a Feast
CANDLE_GAIN = 0.5  # the least improvement (in Stake votes) worth a Candle swap
JOURNAL_CROWD = 5  # a Hunter reads the Journal when the Lord may be any of this many seats


class Reading:
    """What one seat believes about the table, built once per move from its view."""

    def __init__(self, view: dict):
        self.view = view
        me = view["me"]
        self.me = me["seat"]
        self.role = me["role"]
        self.lord = self.role == Role.VAMPIRE_LORD
        self.team = VAMPIRES if self.role in VAMPIRE_ROLES or me["mesmerized"] else HUNTERS
        seats = view["seats"]
        self.living = [s["seat"] for s in seats if s["alive"]]
        self.alpha = next((s["seat"] for s in seats if s["alpha"]), None)
        self.known = self._known(me)
        self.score = self._scores()

    # -- beliefs ----------------------------------------------------------------------------

    def _known(self, me: dict) -> dict[int, str]:
        """seat -> the team this seat knows it is on."""
        known: dict[int, str] = {self.me: self.team}
        mesmerized = set()
        for fact in me["knowledge"]:
            if fact.get("mesmerized"):
                mesmerized.add(fact["seat"])
            elif "role" in fact:
                known[fact["seat"]] = VAMPIRES if fact["role"] in VAMPIRE_ROLES else HUNTERS
        for public in self.view.get("public_roles") or ():
            known[public["seat"]] = VAMPIRES if public["role"] in VAMPIRE_ROLES else HUNTERS
        for will in self.view.get("last_wills") or ():  # Kindred or Not: one known, so the other
            if will["card"]["id"] == LastWillId.KINDRED_OR_NOT and "same_side" in will:
                a, b = will["targets"]
                same = will["same_side"]
                for x, y in ((a, b), (b, a)):
                    if x in known and y not in known:
                        side = known[x] if same else (HUNTERS if known[x] == VAMPIRES else VAMPIRES)
                        known[y] = side
        for seat in mesmerized:
            known[seat] = VAMPIRES
        if any(fact.get("source") == "night" for fact in me["knowledge"]):
            # A Vampire knows every Vampire (R1.3), and so does a Lord who was told them.
            for seat in self.living:
                known.setdefault(seat, HUNTERS)
        return known

    def _scores(self) -> dict[int, float]:
        """seat -> how much this seat wants that one gone (higher: stake it first)."""
        dining = self.view.get("last_dining") or {}
        tokens = dining.get("tokens") or ()
        ally, enemy = self.team, VAMPIRES if self.team == HUNTERS else HUNTERS
        score = dict.fromkeys(self.living, 0.0)
        if self.team == HUNTERS:
            for p in tokens:
                owner = p["owner"]
                if owner not in score:
                    continue
                side = self.known.get(p["target"])
                if side is None:
                    continue
                token = p["token"]
                weight = STAKES.get(token, 0)
                if side == ally:
                    score[owner] += 1.0 * weight - (1.0 if token == Token.FEAST else 0.0)
                else:
                    score[owner] += -1.5 * weight + (2.0 if token == Token.FEAST else 0.0)
            self._public_suspicion(dining, tokens, score)
            # The same tie-break for every Hunter: with the same facts, their Stakes meet too.
            shared = _shared_order(dining.get("round"), len(score))
            for i, seat in enumerate(sorted(score)):
                score[seat] += shared[i] * 0.5
        else:
            # Public facts only, so every Vampire ranks the Hunters alike and their Stakes meet.
            shared = _shared_order(dining.get("round"), len(score))
            for i, seat in enumerate(sorted(score)):
                score[seat] += shared[i]
            for p in tokens:
                owner = p["owner"]
                if owner in score and self.known.get(p["target"]) == ally:
                    if p["token"] == Token.INVESTIGATION:
                        score[owner] += 3.0
                    score[owner] += 1.5 * STAKES.get(p["token"], 0)
            if self.alpha in score:
                score[self.alpha] += 1.0
        for seat, side in self.known.items():
            if seat in score:
                score[seat] += 100.0 if side == enemy else -100.0
        return score

    def _public_suspicion(self, dining: dict, tokens, score: dict[int, float]) -> None:
        """What the whole table saw at the last Dining, read the way a Hunter would: Vampires
        pile their Stakes on one Hunter and feast each other, so the stakers of the player who
        drew the most Stakes, pairs who feasted each other and whoever feasted the newly elected
        Alpha deserve a closer look."""
        target = dining.get("eliminated") or dining.get("examined")
        if target is not None and target != self.me and self.known.get(target) != VAMPIRES:
            for p in tokens:
                if p["target"] == target and p["owner"] in score:
                    score[p["owner"]] += 0.8 * STAKES.get(p["token"], 0)
        feasts = {(p["owner"], p["target"]) for p in tokens if p["token"] == Token.FEAST}
        for owner, target in feasts:
            if (target, owner) in feasts and owner in score:
                score[owner] += 1.0
        elected = dining.get("alpha_elected")
        if elected is not None:
            for owner, target in feasts:
                if target == elected and owner in score and owner != self.me:
                    score[owner] += 0.4

    # -- rankings ---------------------------------------------------------------------------

    def enemies_first(self, seats) -> list[int]:
        return sorted(seats, key=lambda s: (-self.score.get(s, 0.0), s))

    def allies_first(self, seats) -> list[int]:
        return sorted(seats, key=lambda s: (self.score.get(s, 0.0), s))

    def worst(self, seats) -> int:
        score = self.score
        return min(seats, key=lambda s: (-score.get(s, 0.0), s))

    def best(self, seats) -> int:
        score = self.score
        return min(seats, key=lambda s: (score.get(s, 0.0), s))

    def is_ally(self, seat: int) -> bool:
        return self.known.get(seat) == self.team

    def danger(self, seat: int) -> int:
        """Stake votes a seat drew at the last Dining (how exposed an ally is)."""
        tokens = (self.view.get("last_dining") or {}).get("tokens") or ()
        return sum(STAKES.get(p["token"], 0) for p in tokens if p["target"] == seat)


def _remembered_reading(view: dict, memo: dict) -> Reading:
    """The seat's Reading of an earlier view when everything a Reading reads is the same: the
    same Dining (the very token list), knowledge, public roles, Last Wills, living and Alpha."""
    me = view["me"]
    dining = view.get("last_dining") or {}
    tokens = dining.get("tokens")
    key = (
        me["role"],
        me["mesmerized"],
        len(me["knowledge"]),
        len(view.get("public_roles") or ()),
        sum(1 for w in view.get("last_wills") or () if w["resolved"]),
        tuple(s["seat"] for s in view["seats"] if s["alive"]),
        next((s["seat"] for s in view["seats"] if s["alpha"]), None),
        dining.get("round"),
        dining.get("eliminated"),
        dining.get("examined"),
        dining.get("alpha_elected"),
    )
    kept = memo.get(me["seat"])
    if kept is not None and kept[0] == key and kept[1] is tokens:
        reading = kept[2]
        reading.view = view
        return reading
    reading = Reading(view)
    memo[me["seat"]] = (key, tokens, reading)
    return reading


@functools.lru_cache(maxsize=1024)
def _shared_order(round_: int | None, n: int) -> tuple[float, ...]:
    """A tie-break every Vampire derives alike from public facts (the round, the living count)."""
    shared = random.Random(f"{round_}:{n}")
    return tuple(shared.random() for _ in range(n))


# --- the moves --------------------------------------------------------------------------------


def choose(rng: random.Random, view: dict, memo: dict | None = None) -> Choice | None:
    """One move for the seat whose view this is: (action name, arguments), or None.

    `memo`, a dict kept for one game (the simulator's), lets a seat reuse what it read from its
    own earlier view while nothing it reads from has changed."""
    pending = view.get("pending") or []
    if not pending or view.get("me") is None:
        return None
    if pending[0]["action"] == ActionName.READY:  # the role reveal: a bot has seen its role
        return ActionName.READY, {}
    options: dict[str, dict] = {}
    for p in pending:  # the first of a kind: a window's own use_relic comes before the Blood's
        options.setdefault(p["action"], p["options"])
    r = Reading(view) if memo is None else _remembered_reading(view, memo)
    if ActionName.GIVE_RELIC in options:
        return _give_relic(r, options[ActionName.GIVE_RELIC])
    if ActionName.RESOLVE_CHOICE in options:
        return _resolve(r, options[ActionName.RESOLVE_CHOICE], ActionName.PASS in options)
    if ActionName.USE_RELIC in options and ActionName.PASS in options:  # a relic window of my own
        return _window(r, options[ActionName.USE_RELIC])
    if ActionName.TIEBREAK_VOTE in options:
        return _tiebreak(r, options[ActionName.TIEBREAK_VOTE])
    if ActionName.CHOOSE_EXAMINER in options:
        return ActionName.CHOOSE_EXAMINER, {
            "target": _examiner(r, options[ActionName.CHOOSE_EXAMINER]["targets"])
        }
    if ActionName.PLACE_TOKEN in options:
        return _place(r, options[ActionName.PLACE_TOKEN])
    if ActionName.INTERVENTION_VOTE in options:
        return ActionName.INTERVENTION_VOTE, {
            "target": _protect(r, options[ActionName.INTERVENTION_VOTE])
        }
    return random_choice(rng, pending, view)


def _place(r: Reading, options: dict) -> Choice:
    tokens = sorted(options["tokens"], key=TOKEN_ORDER.get)
    placed: dict[int, list[str]] = {}
    for p in r.view["me"]["placed"]:
        placed.setdefault(p["target"], []).append(p["token"])
    free = [t for t in options["targets"] if t not in placed]
    for token in tokens:
        if free:
            return ActionName.PLACE_TOKEN, {"token": token, "target": _target_for(r, token, free)}
    # Only seats that already hold one of my tokens are offered: the Dagger's second Stake.
    stackable = [t for t in options["targets"] if set(placed.get(t, ())) == {Token.STAKE}]
    return ActionName.PLACE_TOKEN, {
        "token": Token.STAKE,
        "target": r.worst(stackable or options["targets"]),
    }


def _target_for(r: Reading, token: str, free: list[int]) -> int:
    if token in STAKES:
        enemies = [s for s in free if not r.is_ally(s)]
        if r.team == VAMPIRES:  # a Cross of Saint John staked by Vampires wins for the Hunters
            crosses = _working(r.view, RelicId.CROSS_OF_SAINT_JOHN)
            enemies = [s for s in enemies if s not in crosses] or enemies
        return r.worst(enemies or free)
    if token == Token.INVESTIGATION:
        unknown = [s for s in free if s not in r.known]
        if r.team == VAMPIRES:  # learns nothing new; look like a Hunter checking a Hunter
            unknown = [s for s in free if not r.is_ally(s)]
        return r.worst(unknown or free)
    # The Feast: Vampires feast each other, except the Lord, who keeps up a Hunter's face.
    if r.team == VAMPIRES and not r.lord:
        allies = [s for s in free if r.is_ally(s)]
        if allies:
            return r.allies_first(allies)[0]
    if r.lord:
        hunters = [s for s in free if not r.is_ally(s)]
        return min(hunters or free, key=lambda s: (r.score[s], s))
    return r.best(free)


def _protect(r: Reading, options: dict) -> int:
    targets = options["targets"]
    allies = [s for s in targets if r.is_ally(s)]
    if r.team == VAMPIRES and allies:
        return max(allies, key=lambda s: (r.danger(s), -s))
    return r.best(targets)


def _tiebreak(r: Reading, options: dict) -> Choice:
    tie = r.view.get("tie") or {}
    candidates = options["targets"]
    if tie.get("kind") in ("election",):
        return ActionName.TIEBREAK_VOTE, {"target": r.best(candidates)}
    if tie.get("kind") == "intervention":
        return ActionName.TIEBREAK_VOTE, {"target": _protect(r, {"targets": candidates})}
    return ActionName.TIEBREAK_VOTE, {"target": r.worst(candidates)}


def _examiner(r: Reading, targets: list[int]) -> int:
    """R6.1: I have the most Stakes and choose who sees my role."""
    if r.lord or r.view["me"]["mesmerized"]:
        hunters = [s for s in targets if not r.is_ally(s)]  # the Lord Mesmerizes a Hunter
        return r.best(hunters or targets)
    if r.team == VAMPIRES:
        allies = [s for s in targets if r.is_ally(s)]  # a Vampire shows its card to its own
        return allies[0] if allies else r.best(targets)
    return r.best(targets)  # a Hunter shows its card to the player it trusts most


def _resolve(r: Reading, options: dict, may_pass: bool) -> Choice:
    card = options["choice"]
    targets = options["targets"]
    count = options.get("count", 1)
    if card == RelicId.VAN_HELSINGS_JOURNAL:  # a dead player's role, at the risk of the Lord's gaze
        if _reads_journal(r, targets[0]):
            return ActionName.RESOLVE_CHOICE, {"choice": card, "targets": targets[:1]}
        return ActionName.PASS, {}
    if card == RelicId.FALSE_IDOL:
        return ActionName.RESOLVE_CHOICE, {"choice": card, "targets": [r.worst(targets)]}
    if count == 2:  # Kindred or Not: a suspect beside someone whose side is known
        suspect = r.worst(targets)
        rest = [s for s in targets if s != suspect]
        if r.team == VAMPIRES:
            hunters = [s for s in targets if not r.is_ally(s)]
            picks = (hunters if len(hunters) >= 2 else r.enemies_first(targets))[:2]
        else:
            known = [s for s in rest if s in r.known]
            picks = [suspect, (known or r.allies_first(rest))[0]]
        return ActionName.RESOLVE_CHOICE, {"choice": card, "targets": picks}
    if card in ON_ALLY:
        target = r.best(targets)
    elif card == LastWillId.PARTING_GLANCE and r.team == HUNTERS:
        unknown = [s for s in targets if s not in r.known]
        target = r.worst(unknown or targets)
    else:
        target = r.worst(targets)
    return ActionName.RESOLVE_CHOICE, {"choice": card, "targets": [target]}


def _give_relic(r: Reading, options: dict) -> Choice:
    targets = options["targets"]
    drawn = [d["id"] for d in r.view["me"].get("drawn") or ()]
    args: dict[str, Any] = {}
    relic = drawn[0] if drawn else None
    if "cards" in options:
        good = [c for c in options["cards"] if c not in HARMFUL_RELICS]
        relic = good[0] if good else options["cards"][0]
        args["card"] = relic
    if relic in HARMFUL_RELICS:
        args["target"] = r.worst(targets)
    else:
        args["target"] = r.best(targets)
    return ActionName.GIVE_RELIC, args


def _window(r: Reading, options: dict) -> Choice:
    relic = options["relic"]
    targets = options.get("targets") or []
    cards = options.get("cards_by_seat") or {}
    if relic == RelicId.RITUAL_BELL and targets:  # silence the best relic of the worst enemies
        enemies = r.enemies_first(s for s in targets if not r.is_ally(s))
        pairs = [(s, c) for s in enemies for c in cards.get(str(s), ()) if RELIC_WORTH.get(c, 0)]
        pairs = [(s, c) for s, c in pairs if RELIC_WORTH[c] > 0]
        if pairs:
            seat, card = max(pairs, key=lambda pair: RELIC_WORTH[pair[1]])
            return ActionName.USE_RELIC, {"relic": relic, "targets": [seat], "card": card}
    if relic == RelicId.SIGNET_RING and targets:
        target = _ring_target(r, targets)
        card = _best(cards, target) if target is not None else None
        if card is not None and RELIC_WORTH.get(card, 0) > RELIC_WORTH[RelicId.SIGNET_RING]:
            return ActionName.USE_RELIC, {"relic": relic, "targets": [target], "card": card}
    if relic == RelicId.HINDSIGHT_LOOKING_GLASS and targets:
        worth = {g: RELIC_WORTH.get(_best(cards, g), 0) for g in targets}
        useful = [g for g in targets if worth[g] > 0]
        if useful:  # the best copy, an ally's first among equals
            seat = max(useful, key=lambda g: (worth[g], r.known.get(g) == r.team, -g))
            return ActionName.USE_RELIC, {
                "relic": relic,
                "targets": [seat],
                "card": _best(cards, seat),
            }
    if relic == RelicId.BANGLE_OF_OATHS:
        owners = _bangle_moves(r, options)
        if owners:
            return ActionName.USE_RELIC, {"relic": relic, "owners": owners}
    if relic == RelicId.SCALES_OF_JUSTICE:
        winner = _scales_choice(r, options)
        if winner is not None:
            return ActionName.USE_RELIC, {"relic": relic, "targets": [winner]}
    if relic == RelicId.WHISPER_WICK_CANDLE:
        swap = _candle_swap(r, options)
        if swap is not None:
            a, b, oa, ob = swap
            return ActionName.USE_RELIC, {"relic": relic, "targets": [a, b], "owners": [oa, ob]}
    if relic == RelicId.KEY_OF_QUICK_PASSAGE:
        me = next(s for s in r.view["seats"] if s["seat"] == r.me)
        worried = 2 if r.team == VAMPIRES else 3
        if sum(not r.is_ally(o) for o in me["placed_by"]) >= worried:
            return ActionName.USE_RELIC, {"relic": relic}
    if relic == RelicId.BLOOD_OF_THE_ONE and r.team == HUNTERS and targets:
        # Only an examiner can have been Mesmerized: name one I do not trust.
        dining = r.view.get("last_dining") or {}
        examiners = {dining.get("examiner")} | {
            p["owner"] for p in dining.get("tokens") or () if p["token"] == Token.INVESTIGATION
        }
        suspects = [s for s in targets if s in examiners and s != r.me and not r.is_ally(s)]
        if suspects:
            return ActionName.USE_RELIC, {"relic": relic, "targets": [r.worst(suspects)]}
    return ActionName.PASS, {}


def _working(view: dict, relic: str) -> set[int]:
    """The seats whose relic works as `relic` now, by the public holdings (R10.2a)."""
    return {
        h["seat"]
        for h in (view.get("relics") or {}).get("holdings") or ()
        if (h["acting_as"] or h["relic"]) == relic and not h["discarded"] and not h["negated"]
    }


def _best(cards: dict, seat: int) -> str | None:
    """The card worth most among those a Bell, Ring or Glass may target at `seat`."""
    offered = cards.get(str(seat)) or []
    return max(offered, key=lambda c: RELIC_WORTH.get(c, 0)) if offered else None


def _bangle_moves(r: Reading, options: dict) -> list[int]:
    """Owners of the tokens on my seat to move to the Bangle partner's: the likeliest Stakes,
    up to 2, while that lowers the higher of our two expected counts (we die together). Only
    moves the token rules allow: never onto the token's owner, never beside another of its
    owner's tokens (R11 ruling)."""
    partner = options.get("partner")
    if partner is None:
        return []
    placed_by = {s["seat"]: s["placed_by"] for s in r.view["seats"]}
    on_me = next(s["placed_by"] for s in r.view["seats"] if s["seat"] == r.me)
    mine = {o: _stake_odds(r, o, r.me) for o in on_me}
    legal = [o for o in options.get("owners") or () if o in mine]  # each is a legal move
    me_count = sum(mine.values())
    partner_count = sum(_stake_odds(r, o, partner) for o in placed_by.get(partner, ()))
    moved = []
    for owner in sorted(legal, key=lambda o: (-mine[o], o))[:2]:  # R11: up to 2 tokens
        odds = mine[owner]
        if max(me_count - odds, partner_count + odds) >= max(me_count, partner_count):
            break
        moved.append(owner)
        me_count, partner_count = me_count - odds, partner_count + odds
    return moved


def _scales_choice(r: Reading, options: dict) -> int | None:
    """The Scales' window on a Dining tie: a tied holder (who keeps the card) always settles it;
    another settles it (and discards the card) only for a known enemy or ally among the tied."""
    tie = ((r.view.get("relics") or {}).get("window") or {}).get("tie") or {}
    candidates = options.get("targets") or []
    if not candidates:
        return None
    known = [c for c in candidates if c in r.known and c != r.me]
    if tie.get("kind") == "election":
        allies = [c for c in candidates if r.is_ally(c)]
        if not options.get("discard") or allies:
            return r.best(allies or candidates)
        return None
    others = [c for c in candidates if c != r.me] or candidates
    if not options.get("discard") or known:
        return r.worst(others)
    return None


def _ring_target(r: Reading, targets: list[int]) -> int | None:
    """The Ring trades itself for a living player's relic: worth it against an enemy, who loses
    its relic and is left with a Ring that can only swap. None: no enemy I know of (aimed at
    mere suspects, the Hunters' Rings cost them games in simulation)."""
    enemies = [s for s in targets if r.known.get(s) not in (None, r.team)]
    return r.worst(enemies) if enemies else None


def _candle_swap(r: Reading, options: dict) -> tuple[int, int, int, int] | None:
    """The legal swap (seat a, seat b, owner on a, owner on b) that best moves likely Stakes off
    allies onto enemies, or None when none gains CANDLE_GAIN Stake votes. Who placed on whom is
    public while mingling; which token it is, only for my own."""
    placed_by = {s["seat"]: s["placed_by"] for s in r.view["seats"] if s["alive"]}
    stakes = {
        seat: sum(_stake_odds(r, owner, seat) for owner in owners)
        for seat, owners in placed_by.items()
    }
    before = _table_value(r, stakes)
    best, gain = None, CANDLE_GAIN
    for move in options.get("moves") or ():  # every swap the rules allow (R11 ruling)
        (a, b), (oa, ob) = move["targets"], move["owners"]
        if placed_by[a].count(oa) > 1 or placed_by[b].count(ob) > 1:
            continue  # a Dagger's stack: which of the two tokens moves is not mine to tell
        moved = _stake_odds(r, oa, a) - _stake_odds(r, ob, b)
        if not moved:
            continue
        after = {**stakes, a: stakes[a] - moved, b: stakes[b] + moved}
        value = _table_value(r, after) - before
        if value > gain:
            best, gain = (a, b, oa, ob), value
    return best


def _stake_odds(r: Reading, owner: int, seat: int) -> float:
    """Stake votes `owner`'s token on `seat` is likely worth: mine I know; a Vampire stakes
    Hunters and feasts its own; anyone else's is 2 Stakes and a Feast, so 2/3."""
    if owner == r.me:
        token = next((p["token"] for p in r.view["me"]["placed"] if p["target"] == seat), None)
        return float(STAKES.get(token, 0))
    if r.known.get(owner) == VAMPIRES and seat in r.known:
        return 0.2 if r.known[seat] == VAMPIRES else 0.9
    return UNSEEN_STAKE


def _table_value(r: Reading, stakes: dict[int, float]) -> float:
    """How good a spread of Stake votes is for my team: Stakes on enemies, none on allies, and
    above all an enemy on top."""

    def side(seat: int) -> int:
        known = r.known.get(seat)
        return 0 if known is None else (-1 if known == r.team else 1)

    top = max(stakes, key=lambda s: (stakes[s], -s))
    return sum(side(s) * n for s, n in stakes.items()) + 2 * side(top)


def _reads_journal(r: Reading, seat: int) -> bool:
    """A Hunter learns a dead player's role, and so how to read who staked and feasted them;
    but a Hunter who examines the Lord is Mesmerized (R8.1), so it reads only when the Lord may
    be any of JOURNAL_CROWD seats, is known to be elsewhere, or its Crown protects it. The
    Vampire side already knows the roles that matter."""
    if r.role in VAMPIRE_ROLES or seat in r.known:
        return False
    me = r.view["me"]
    crowned = any(
        RelicId.CROWN_OF_SOLOMON in (c["id"], c.get("acting_as")) and not c["negated"]
        for c in me.get("relics") or ()
        if not c["discarded"]
    )
    if me["mesmerized"] or crowned:
        return True
    facts = list(me["knowledge"]) + list(r.view.get("public_roles") or ())
    if any(f.get("role") == Role.VAMPIRE_LORD for f in facts):
        return True  # the Lord is someone I know, not this seat
    unknown = [s["seat"] for s in r.view["seats"] if s["seat"] not in r.known]
    return len(unknown) >= JOURNAL_CROWD
