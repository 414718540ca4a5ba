"""The game page's context for one viewer: their own engine view (selectors.game_view) and the
log they may see, turned into what the page shows. No rule lives here: what a player may do
comes from `view["pending"]`, and a refused move shows the engine's or the service's own words."""

from __future__ import annotations

from datetime import UTC, datetime

from django.http import Http404, HttpRequest
from django.template.loader import select_template
from django.urls import reverse

from games import services
from games.domain import identity, polls, room_screen
from games.domain.options import spectators_allowed
from games.engine.vocabulary import ActionName
from games.models import Game
from games.notify.preferences import time_zone_seen
from games.presenters import game as presenters
from games.presenters import glossary, news_cards, times, waiting
from games.presenters.wording import for_people
from games.selectors import game as selectors
from games.selectors import news as news_reads
from games.services import news
from games.services.seat_links import SIGNED_OUT_KEY
from games.services.seats import seen as mark_seen
from games.web import regions
from games.web.forms import OptionsForm, SeatJoinForm
from relics import presenters as relic_pages

OWN_LINES = 20  # a seat's own private lines shown under "Only you saw" (the newest)
# How much longer the host (or a proposal to the table) can make a window, on the page.
EXTEND_CHOICES = [
    (15, "15 minutes"),
    (60, "1 hour"),
    (180, "3 hours"),
    (720, "12 hours"),
    (1440, "1 day"),
]

# Actions with a page of their own; any other action (a module's) gets the generic form.
ACTION_TEMPLATES = {
    ActionName.PLACE_TOKEN,
    ActionName.INTERVENTION_VOTE,
    ActionName.TIEBREAK_VOTE,
    ActionName.CHOOSE_EXAMINER,
    ActionName.RESOLVE_CHOICE,
    ActionName.PASS,
    ActionName.READY,
}


def display_name(user) -> str:
    if not user.is_authenticated:
        return ""
    return user.first_name or user.username


def _error_words(error: str | tuple[str, dict, str], names: dict[int, str]):
    """A refusal as HTML: each seat it names as its player's name (`for_people`)."""
    text, data, template = (error, {}, "") if isinstance(error, str) else error
    return for_people(text, names, data, template)


NO_SPECTATORS = "The host does not allow spectators at this table."


def may_watch(game: Game, seat: int | None) -> bool:
    """Who may see a game's page: its players; anyone in the lobby (to sit down); and anyone
    at all where the host lets spectators watch."""
    return seat is not None or game.status == Game.Status.LOBBY or spectators_allowed(game.options)


# --- presentation: the view dict as a page ----------------------------------------------------


def game_context(request, game: Game, *, error=None, join_form=None, refused=None) -> dict:
    """The page of one viewer: their own part (`#game`: the first screen and what is theirs)
    and the shared regions (games/web/regions.py: the table and the public log, cached per
    game version and audience)."""
    players = selectors.seats(game)  # read once, for the viewer's view and the regions
    view = selectors.game_view(game, request.user, players)
    me = view.get("me")
    if not may_watch(game, me["seat"] if me else None):
        raise Http404(NO_SPECTATORS)
    names = {s["seat"]: s["name"] for s in view["seats"]}
    seat = me["seat"] if me else None
    status = view["status"]
    zone = times.of_request(request)
    context = {
        "game": game,
        "view": view,
        "me": me,
        "names": names,
        "seats": presenters.seating(view, me),
        "regions": regions.shared(game, players, regions.zone_name(request), view),
        "error": error and _error_words(error, names),
        "phase_label": presenters.phase_label(view["phase"]),
        "is_host": seat is not None and view.get("host_seat") == seat,
        "poll_seconds": polls.pace(view),  # the server sets the pace (games/domain/polls.py)
        "poll_token": polls.page_token(game.code, game.version, request.session.session_key),
        "server_now": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "deadline_text": times.deadline_of(view.get("deadline"), zone),
        "vacation": presenters.vacation_card(view, me, zone, datetime.now(UTC)),
        "join_form": join_form or SeatJoinForm(initial={"name": display_name(request.user)}),
        # A browser a seat link had signed in, signed out since (games/web/middleware/seat_scope.py)
        "signed_out_here": not me and game.code in request.session.get(SIGNED_OUT_KEY, []),
    }
    if status == Game.Status.LOBBY:
        invite = request.build_absolute_uri(reverse("game", args=[game.code]))
        context.update(invite=invite, qr_svg=presenters.qr_svg(invite))
        context["bot_counts"] = list(range(1, game.seat_limit - len(context["seats"]) + 1))
        context["options_form"] = OptionsForm.of(game.options)
        context.update(options_words(game.options))
    if me:
        # A page is a read: these write at most once a minute ("last seen") and once an hour
        # (the browser's time zone) per seat, never on every draw (docs/slow-games.md "Coming
        # back"); so does `news.look` below, for "Since you last looked" and the reveal.
        mark_seen(game, me["seat"])
        time_zone_seen(request.user, request.COOKIES.get(times.COOKIE))
        context["my"] = next(s for s in context["seats"] if s["is_me"])
        context["role_label"] = presenters.ROLE_LABELS.get(me.get("role"), "")
        context["knowledge"] = [presenters.knowledge(k, names) for k in me.get("knowledge", [])]
        context["role_card"] = presenters.role_card(me, names)
        context["knowledge_words"] = glossary.knowledge_words(me.get("knowledge", []), me)
        context["badge_words"] = glossary.badge_words(context["my"], me)
        context["hand_words"] = glossary.hand_words(me.get("tokens", []), view["phase"])
        # The pill "In hand" explains its tokens from round 2 (round 1: the token chooser) and the
        # seat's badges (templates/games/_sections.html).
        later = (view.get("round") or 0) > 1 and me.get("tokens")
        shown = [*(context["hand_words"] if later else []), *context["badge_words"]]
        context["me_words"] = [glossary.word(k).word for k in dict.fromkeys(shown)]
        mine = next(p for p in players if p.seat == seat)
        unread, lines = news_reads.page_lines(game, seat, mine, own=OWN_LINES)
        context["news"] = news_cards.cards(unread, seat, names, me.get("role"))
        context["hand"] = presenters.hand(me.get("tokens", []))
        for e in lines:
            e["text"] = for_people(e["text"], names, e["data"], e["template"], seat)
        context["own_lines"] = lines[::-1]
        context["placed"] = [
            {
                "target": p["target"],
                "name": names.get(p["target"]),
                "token": p["token"],
                "label": presenters.TOKEN_LABELS.get(p["token"], p["token"]),
            }
            for p in me.get("placed", [])
        ]
    for s in context["seats"]:  # "on vacation until ..." in the viewer's zone
        s["vacation_text"] = times.clock_of(s.get("vacation_until"), zone)
    context["actions"] = [action_form(p, names, view) for p in view.get("pending", [])]
    # A Ghost whose move is not the Ghost vote (it waits, or its Last Will, a relic to hand on)
    # reads what a Ghost does under its move (templates/games/_play.html).
    context["ghost_vote_form"] = any(
        a["action"] == ActionName.INTERVENTION_VOTE for a in context["actions"]
    )
    if refused and error:  # beside the first form of the action that was refused
        form = next(
            (
                a
                for a in context["actions"]
                if a["action"] == refused["action"]
                and (a["options"].get("relic") or None) == (refused["relic"] or None)
            ),
            None,
        )
        if form is not None:
            form.update(error=context["error"], kept=refused["kept"])
    context["relic_board"] = relic_pages.board(view, names)
    context["waiting"] = waiting.reason(view, names, context["relic_board"])
    context["my_relics"] = relic_pages.mine(me)
    context["tie"] = presenters.tie_vote(view.get("tie"), names)
    wills = view.get("last_wills")
    context["dining"] = presenters.dining_steps(
        view.get("last_dining"),
        names,
        wills,
        selectors.last_will_lines(game) if wills else None,
        reader=me["seat"] if me else None,
    )
    context["recap_words"] = glossary.recap_words(context["dining"])
    # The reveal plays once per seat (news.look, kept in the cache), for a spectator on every
    # load as before.
    reveal = (context["dining"] or {}).get("key", "")
    context["animate_reveal"] = bool(reveal)
    if me:
        context.update(_since(request, game, me["seat"], names, zone, reveal))
    if status == Game.Status.FINISHED:
        context["roles"] = presenters.roles_revealed(view, names)
        context["end_why"] = presenters.end_sentence(view, context["dining"])
    context.update(_async_play(request, game, players, context["is_host"]))
    context["clock"] = clock_card(view, me, context["is_host"], names)
    context["reminder_prompt"] = reminder_prompt(request, game, me)
    context["announcement"] = _announcement(view, context["dining"])
    return context


def options_words(options: dict) -> dict:
    """The lobby's summary of the timers and the table's clock, in human units."""
    timers = options.get("timers", {})
    words = ", ".join(
        f"{label} {_span(timers[key])}"
        for key, label in (
            ("reveal", "role reveal"),
            ("mingling", "Mingling"),
            ("relic", "relic windows"),
            ("tiebreak", "ties"),
            ("choice", "choices"),
        )
        if timers.get(key)
    )
    clock = []
    quiet = options.get("quiet_hours")
    zone = options.get("time_zone", "UTC")
    if quiet:
        clock.append(f"quiet {quiet['start']:02d}:00–{quiet['end']:02d}:00")
    if options.get("deadline_hour") is not None:
        clock.append(f"Mingling closes at {options['deadline_hour']:02d}:00")
    text = f"{', '.join(clock)} ({zone})" if clock else ""
    return {"timers_text": words, "clock_text": text}


def _span(seconds: int) -> str:
    if seconds % 3600 == 0:
        return f"{seconds // 3600} h"
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"


def clock_card(view: dict, me: dict | None, is_host: bool, names: dict[int, str]) -> dict | None:
    """The table's clock on the page (docs/slow-games.md "Moving a deadline"): paused or not,
    the open proposal, and what this viewer may do: the host moves it, a living player asks.

    None where it would be an empty card (nothing timed; a spectator with nothing to read). It is
    a card below the recap where it matters (a slow game, a paused or moved clock, a vote in
    progress); in a live game whose clock nobody touched, its controls fold into one closed line
    at the foot of the page, so that they never stand between a move and what just happened."""
    clock = view.get("clock")
    if not clock or view["status"] != "running":
        return None
    seat = me["seat"] if me else None
    card = {
        "paused": clock["paused"],
        "left": _left(clock["paused_left"]) if clock["paused"] else "",
        "host": is_host,
        "voter": seat in clock["voters"],
        "choices": EXTEND_CHOICES,
        "vote": None,
        "stamp": clock["stamp"],  # sent back by the extend and vote forms: a repeat acts once
    }
    if not (view.get("deadline") or clock["paused"]):
        return None
    if not (card["host"] or card["voter"] or clock["paused"] or clock["vote"]):
        return None
    slow = (view.get("options") or {}).get("preset") == "async"
    card["folded"] = not (slow or clock["paused"] or clock["vote"] or clock.get("moved"))
    vote = clock["vote"]
    if vote:
        what = (
            f"extend the deadline by {services.deadlines.span(vote['minutes'])}"
            if vote["proposal"] == "extend"
            else f"{vote['proposal']} the game"
        )
        card["vote"] = {
            **vote,
            "who": names.get(vote["by"], f"Seat {vote['by']}"),
            "what": what,
            "count": len(vote["yes"]),
            "mine": seat in vote["yes"],
        }
    return card


def _left(seconds: int | None) -> str:
    minutes = max(round((seconds or 0) / 60), 1)
    hours, minutes = divmod(minutes, 60)
    if hours and minutes:
        return f"{hours} h {minutes} min"
    return f"{hours} h" if hours else f"{minutes} min"


def reminder_prompt(request, game: Game, me: dict | None) -> bool:
    """Offer reminders to a seated person in a slow game who has none turned on."""
    if not me or game.options.get("preset") != "async" or game.status not in ("lobby", "running"):
        return False
    prefs = getattr(request.user, "notify_preferences", None)
    if prefs is None:
        return True
    email = prefs.email_enabled and prefs.email_confirmed
    push = prefs.push_enabled and request.user.push_subscriptions.exists()
    return not (email or push)


def _since(request, game: Game, seat: int, names: dict, zone, reveal: str) -> dict:
    """ "Since you last looked": the card's lines when the player came back to news,
    and whether this seat still has the Dining reveal `reveal` to see."""
    hidden = request.headers.get("X-Staked-Hidden", "")
    look = news.look(
        game,
        seat,
        returning=not request.htmx,
        hidden=int(hidden) if hidden.isascii() and hidden.isdigit() and len(hidden) < 9 else None,
        reveal=reveal,
    )
    out = {"animate_reveal": look.animate_reveal}
    if look.since_seq is not None:
        card = news_reads.since(game, seat, look.since_seq)
        for line in card["lines"]:
            line["text"] = for_people(line["text"], names, line["data"], line["template"], seat)
        card["at"] = look.since_at and times.clock(look.since_at, zone)
        card["at_iso"] = look.since_at and look.since_at.isoformat()
        out["since"] = card
    return out


def _async_play(request, game: Game, players: list, is_host: bool) -> dict:
    """On the game page: the shared-screen link, and the host's remedies for a seat
    flagged as away (games.services.seats)."""
    rows = remedies(request, game, players) if is_host and game.state else []
    return {
        "display_url": room_screen.display_url(game, is_host=is_host),
        # The host of a table without spectators can replace the room screen's key.
        "room_key_renewable": is_host and not spectators_allowed(game.options),
        "remedies": rows,
        "remedies_open": any(r["afk"] for r in rows),
    }


def remedies(request: HttpRequest, game: Game, players: list | None = None) -> list[dict]:
    """For the host's page only: the seats the host may hand on, with any open handover link
    (a secret of the host's: nobody else's page carries it). `players`: the game's seats,
    when the caller has read them already."""
    rows = []
    seats = game.players.all() if players is None else players
    for p in (p for p in seats if p.is_bot or p.afk):
        if identity.is_hosts_seat(p, game):
            continue  # the host's own seat stays with the host: never offered
        link = p.claim_token and request.build_absolute_uri(
            reverse("seat-claim", args=[game.code, p.claim_token])
        )
        rows.append(
            {"seat": p.seat, "name": p.name, "afk": p.afk, "is_bot": p.is_bot, "link": link}
        )
    return sorted(rows, key=lambda r: r["seat"])


def action_form(pending: dict, names: dict[int, str], view: dict) -> dict:
    """What the form of one pending action needs: its template, targets, tokens and choices."""
    action, options = pending["action"], pending.get("options", {})
    # A relic's choice has a form of its own (relics/presenters.py); others by action name.
    extra = relic_pages.action(pending, view, names) if view.get("relics") is not None else {}
    name = extra.pop("template", action if action in ACTION_TEMPLATES else "generic")
    templates = [f"games/actions/{name}.html", f"games/actions/{action}.html"]
    out = {
        "action": action,
        "options": options,
        "template": select_template([*templates, "games/actions/generic.html"]).template.name,
        "targets": presenters.targets(options.get("targets", []), names),
        "label": action.replace("_", " ").capitalize(),
    }
    if "tokens" in options:
        hand = {h["token"]: h["count"] for h in presenters.hand(view["me"].get("tokens", []))}
        out["tokens"] = [
            {"token": t, "label": presenters.TOKEN_LABELS.get(t, t), "count": hand.get(t, 1)}
            for t in sorted(options["tokens"], key=presenters.token_order)
        ]
        out["words"] = glossary.hand_words(options["tokens"], "mingling")
    # A module's choices (cards, relics, named choices) are offered as they come.
    me = view.get("me") or {}
    known = {c["id"]: c["name"] for c in (me.get("drawn") or []) + (me.get("relics") or [])}
    for key in ("cards", "choices", "relics"):
        if isinstance(options.get(key), list):
            out[key] = [
                c if isinstance(c, dict) else {"id": c, "name": known.get(c, presenters.words(c))}
                for c in options[key]
            ]
    out.update(extra)
    if action == ActionName.RESOLVE_CHOICE and "relic" not in extra:
        me = view.get("me") or {}
        out["card"] = next(
            (
                w["card"]
                for w in view.get("last_wills") or []
                if w["seat"] == me.get("seat") and not w["resolved"]
            ),
            {
                "id": options.get("choice"),
                "name": presenters.words(options.get("choice", "")),
                "text": "",
            },
        )
        out["count"] = options.get("count", 1)
    if action == ActionName.TIEBREAK_VOTE and view.get("tie"):
        out["label"] = presenters.TIE_LABELS.get(view["tie"]["kind"], "Tie vote")
    return out


def _announcement(view: dict, dining: dict | None) -> str:
    """One sentence for screen readers (aria-live) whenever the phase or a result changes."""
    if view["status"] == Game.Status.LOBBY:
        return f"Lobby: {len(view['seats'])} players seated."
    if view["status"] == Game.Status.FINISHED:
        return f"Game over: the {str(view.get('winner', '')).capitalize()} win."
    parts = [f"Round {view['round']}: {presenters.phase_label(view['phase'])}."]
    last, names = view.get("last_dining") or {}, {s["seat"]: s["name"] for s in view["seats"]}
    who = presenters.named_seat_text
    if dining:
        if dining["eliminated"]:
            parts.append(f"{who(last['eliminated'], names)} was Staked.")
        if dining["alpha_elected"]:
            parts.append(f"{who(last['alpha_elected'], names)} is elected Alpha Hunter.")
    if view.get("pending"):
        parts.append("Your move.")
    return " ".join(parts)


# --- rules ---------------------------------------------------------------------------------
