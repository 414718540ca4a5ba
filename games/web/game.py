"""Web pages: thin views over games.services (the only writer) and games.selectors.game.

Every page is rendered from `selectors.game_view(game, user)` — the viewer's own engine view —
and the log from `selectors.events_tail`. No rule lives here: what a player may do comes from
`view["pending"]`, and a refused move shows the engine's or the service's own words.

htmx: a page works without JavaScript (forms post and redirect); with htmx the game partial
(`games/game.html#game`) is swapped in place, and `changed` answers 204 while nothing changed.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from django.contrib.auth import login
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import select_template
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.domain import identity, polls, room_screen
from games.domain.errors import refusal
from games.domain.inputs import ACTIONS as ACTION_INPUTS
from games.domain.options import spectators_allowed
from games.engine import IllegalAction
from games.engine.vocabulary import ActionName
from games.models import Game
from games.notify.preferences import time_zone_seen
from games.presenters import game as presenters
from games.presenters import glossary, news_cards, times, waiting
from games.presenters.wording import for_people
from games.selectors import game as selectors
from games.selectors import listing
from games.selectors import news as news_reads
from games.services import GameError, accounts, news
from games.services.seats import seen as mark_seen
from games.web.forms import CreateForm, JoinForm, OptionsForm, SeatJoinForm, action_args
from relics import presenters as relic_pages

LOG_TAIL = 120  # events shown in the game's log (the newest)
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


# --- identity -----------------------------------------------------------------------------


def identify(request: HttpRequest, name: str):
    """The phone's guest identity, kept in the session (made like the API's GuestView)."""
    user = request.user
    if user.is_authenticated:
        accounts.display_name_set(user, name)
        return user
    user = services.guest_create(name=name)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return user


def display_name(user) -> str:
    if not user.is_authenticated:
        return ""
    return user.first_name or user.username


def _problem(exc: Exception) -> tuple[str, int]:
    """The refusal in words (the rule that forbids it) and its HTTP status, as the API answers
    it (games/domain/errors.py)."""
    refused = refusal(exc)
    if refused is None:
        raise exc
    return refused.detail, refused.status


def _said(exc: Exception, detail: str) -> tuple[str, dict, str]:
    """A refusal's words, with the seats an engine refusal names (its template and data)."""
    if isinstance(exc, IllegalAction) and exc.template:
        return detail, exc.data, exc.template
    return detail, {}, ""


def _error_words(error: str | tuple[str, dict, str], names: dict[int, str]):
    """A refusal as HTML: each seat it names as its player's name (`for_people`)."""
    text, data, template = (error, {}, "") if isinstance(error, str) else error
    return for_people(text, names, data, template)


# --- home ---------------------------------------------------------------------------------


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render_home(request)


def render_home(request, *, create=None, join=None, error=None, status=200) -> HttpResponse:
    """The home page, with a refused form (and its error) where one was posted."""
    name = display_name(request.user)
    context = {
        "create_form": create or CreateForm(initial={"name": name}),
        "join_form": join or JoinForm(initial={"name": name}),
        **inbox_context(request),
        "name": name,
        "error": error,
    }
    return render(request, "home.html", context, status=status)


def inbox_context(request) -> dict:
    """ "Your tables" (an inbox across games): games that wait on your move first,
    then by deadline, each with its phase and deadline in the viewer's time zone; then the
    latest finished ones. `move_count` goes in the page title and the app's icon badge."""
    zone, now = times.of_request(request), datetime.now(UTC)
    games = listing.my_games(request.user)
    rows = listing.inbox(request.user, games)
    for row in rows:
        game = row["game"]
        row["phase_label"] = presenters.phase_label(game.phase)
        row["deadline_text"] = game.deadline and times.deadline(game.deadline, zone, now)
    finished = [
        {"game": game, "seat": identity.player_in(game.players.all(), request.user)}
        for game in listing.for_home(request.user, games)
        if game.status not in (Game.Status.LOBBY, Game.Status.RUNNING)
    ]
    mine = rows + [row for row in finished if row["seat"] is not None]
    return {"my_games": mine, "move_count": sum(1 for row in rows if row["your_move"])}


@require_GET
def inbox(request: HttpRequest) -> HttpResponse:
    """The home page's "Your tables" alone: its poll keeps the list and the badge count fresh."""
    return render(request, "home.html#inbox", inbox_context(request))


@require_POST
def create(request: HttpRequest) -> HttpResponse:
    form = CreateForm(request.POST)
    if not form.is_valid():
        return render_home(request, create=form, status=400)
    user = identify(request, form.cleaned_data["name"])
    try:
        game = services.game_create(
            host=user, options=form.options(), name=form.cleaned_data["name"]
        )
    except GameError as exc:  # too_many_lobbies
        return render_home(request, create=form, error=exc.detail, status=exc.status)
    return redirect("game", code=game.code)


@require_POST
def join(request: HttpRequest) -> HttpResponse:
    form = JoinForm(request.POST)
    if not form.is_valid():
        return render_home(request, join=form, status=400)
    code = form.cleaned_data["code"]
    try:
        selectors.game_get(code)
    except GameError as exc:
        return render_home(request, join=form, error=exc.detail, status=exc.status)
    user = identify(request, form.cleaned_data["name"])
    try:
        services.game_join(code=code, user=user, name=form.cleaned_data["name"])
    except GameError as exc:
        return render_home(request, join=form, error=exc.detail, status=exc.status)
    return redirect("game", code=code)


# --- a game ---------------------------------------------------------------------------------


def game_or_404(code: str) -> Game:
    try:
        return selectors.game_get(code.upper())
    except GameError as exc:
        raise Http404(exc.detail) from None


@require_GET
def game(request: HttpRequest, code: str) -> HttpResponse:
    game = game_or_404(code)
    if not may_watch(game, identity.seat_of(game, request.user)):
        raise Http404(NO_SPECTATORS)
    # A window found overdue is closed first, whatever the timers are doing.
    return render_game(request, services.close_if_overdue(game))


@require_GET
def changed(request: HttpRequest, code: str) -> HttpResponse:
    """The poll: 204 (htmx swaps nothing) while the version is the one the page shows.

    Where spectators may watch, the unchanged path is one cache read (selectors.poll_state);
    only a change renders, or a window past its deadline, which this closes first.
    Elsewhere the viewer's seat is asked first: someone who may not
    watch gets the same 404 whatever version they name (a 204 would confirm it)."""
    code = code.upper()
    held = request.GET.get("v")
    version, open_to_all, fresh = selectors.poll_state(code)
    if version is None:
        raise Http404("No such game.")
    if open_to_all and fresh and held == str(version):
        return HttpResponse(status=204)
    game = game_or_404(code)
    if not open_to_all and not may_watch(game, identity.seat_of(game, request.user)):
        raise Http404(NO_SPECTATORS)
    game = services.close_if_overdue(game)  # an overdue window closes first
    if held == str(game.version):
        return HttpResponse(status=204)
    return render_game(request, game)


NO_SPECTATORS = "The host does not allow spectators at this table."


def may_watch(game: Game, seat: int | None) -> bool:
    """Who may see a game's page: its players; anyone in the lobby (to sit down); and anyone
    at all where the host lets spectators watch."""
    return seat is not None or game.status == Game.Status.LOBBY or spectators_allowed(game.options)


@require_POST
def seat_join(request: HttpRequest, code: str) -> HttpResponse:
    """Sit down at a table from its invite link."""
    game = game_or_404(code)
    form = SeatJoinForm(request.POST)
    if not form.is_valid():
        return render_game(request, game, join_form=form, status=400)
    user = identify(request, form.cleaned_data["name"])
    try:
        game = services.game_join(code=game.code, user=user, name=form.cleaned_data["name"])
    except GameError as exc:
        return render_game(request, game, error=exc.detail, status=exc.status)
    return done(request, game)


@require_POST
def start(request: HttpRequest, code: str) -> HttpResponse:
    game = game_or_404(code)
    try:
        game = services.game_start(code=game.code, user=request.user)
    except (GameError, IllegalAction) as exc:
        detail, status = _problem(exc)
        return render_game(request, game, error=_said(exc, detail), status=status)
    return done(request, game)


@require_POST
def update_options(request: HttpRequest, code: str) -> HttpResponse:
    """The host changes the table's options in the lobby (services.game_update_options)."""
    game = game_or_404(code)
    form = OptionsForm(request.POST)
    if not form.is_valid():
        return render_game(request, game, error="Those options are not valid.", status=400)
    try:
        game = services.game_update_options(
            code=game.code, user=request.user, options=form.options()
        )
    except GameError as exc:
        return render_game(request, game, error=exc.detail, status=exc.status)
    return done(request, game)


@require_POST
def add_bots(request: HttpRequest, code: str) -> HttpResponse:
    """The host fills seats with bots from the lobby (services.game_add_bots)."""
    game = game_or_404(code)
    try:
        count = max(1, min(int(request.POST.get("count", 1)), 12))
    except ValueError:
        count = 1
    try:
        game = services.game_add_bots(code=game.code, user=request.user, count=count)
    except GameError as exc:
        return render_game(request, game, error=exc.detail, status=exc.status)
    return done(request, game)


@require_POST
def leave(request: HttpRequest, code: str) -> HttpResponse:
    game = game_or_404(code)
    try:
        services.game_leave(code=game.code, user=request.user)
    except GameError as exc:
        return render_game(request, game, error=exc.detail, status=exc.status)
    if request.htmx:
        response = HttpResponse(status=200)
        response["HX-Redirect"] = reverse("home")
        return response
    return redirect("home")


@require_POST
def act(request: HttpRequest, code: str, action: str) -> HttpResponse:
    """One action of docs/api.md from a form; answers with the updated game at once."""
    game = game_or_404(code)
    serializer_class = ACTION_INPUTS.get(action)
    if serializer_class is None:
        return render_game(request, game, error=f"There is no action '{action}'.", status=400)
    # A refused move's error shows beside the form that sent it, which keeps the
    # player's choices ("name=value" as posted).
    refused = {
        "action": action,
        "relic": request.POST.get("relic"),
        "kept": {
            f"{k}={v}"
            for k in request.POST
            if k != "csrfmiddlewaretoken"
            for v in request.POST.getlist(k)
        },
    }
    serializer = serializer_class(data=action_args(request.POST))
    if not serializer.is_valid():
        fields = ", ".join(sorted(serializer.errors))
        return render_game(
            request, game, error=f"Choose a {fields} first.", status=400, refused=refused
        )
    try:
        game = services.action_apply(
            code=game.code, user=request.user, name=action, args=dict(serializer.validated_data)
        )
    except (GameError, IllegalAction) as exc:
        detail, status = _problem(exc)
        game.refresh_from_db()
        return render_game(request, game, error=_said(exc, detail), status=status, refused=refused)
    return done(request, game)


def done(request: HttpRequest, game: Game) -> HttpResponse:
    """After a change: htmx gets the new partial now; a plain form post is redirected."""
    if request.htmx:
        return render_game(request, game)
    return redirect("game", code=game.code)


def render_game(
    request, game: Game, *, error=None, join_form=None, status=200, refused=None
) -> HttpResponse:
    context = game_context(request, game, error=error, join_form=join_form, refused=refused)
    template = "games/game.html#game" if request.htmx else "games/game.html"
    return render(request, template, context, status=status)


# --- presentation: the view dict as a page ----------------------------------------------------


def game_context(request, game: Game, *, error=None, join_form=None, refused=None) -> dict:
    view = selectors.game_view(game, request.user)
    me = view.get("me")
    if not may_watch(game, me["seat"] if me else None):
        raise Http404(NO_SPECTATORS)
    names = {s["seat"]: s["name"] for s in view["seats"]}
    seat = me["seat"] if me else None
    events = selectors.events_tail(game, seat, LOG_TAIL)
    for e in events:
        e["text"] = for_people(e["text"], names, e["data"], e["template"])
    events.reverse()
    status = view["status"]
    zone = times.of_request(request)
    context = {
        "game": game,
        "view": view,
        "me": me,
        "names": names,
        "seats": presenters.seating(view, me),
        "events": events,
        "error": error and _error_words(error, names),
        "phase_label": presenters.phase_label(view["phase"]),
        "is_host": seat is not None and view.get("host_seat") == seat,
        "poll_seconds": polls.pace(view),  # the server sets the pace (games/domain/polls.py)
        "poll_token": polls.page_token(game.code, game.version, request.session.session_key),
        "server_now": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "deadline_text": times.deadline_of(view.get("deadline"), zone),
        "vacation": presenters.vacation_card(view, me, zone, datetime.now(UTC)),
        "join_form": join_form or SeatJoinForm(initial={"name": display_name(request.user)}),
    }
    if status == Game.Status.LOBBY:
        invite = request.build_absolute_uri(reverse("game", args=[game.code]))
        context.update(invite=invite, qr_svg=presenters.qr_svg(invite))
        context["bot_counts"] = list(range(1, game.seat_limit - len(context["seats"]) + 1))
        context["options_form"] = OptionsForm.of(game.options)
        context.update(options_words(game.options))
    if me:
        mark_seen(game, me["seat"])
        time_zone_seen(request.user, request.COOKIES.get(times.COOKIE))
        context["my"] = next(s for s in context["seats"] if s["is_me"])
        context["role_label"] = presenters.ROLE_LABELS.get(me.get("role"), "")
        context["knowledge"] = [presenters.knowledge(k, names) for k in me.get("knowledge", [])]
        context["role_card"] = presenters.role_card(me, names)
        context["knowledge_words"] = glossary.knowledge_words(me.get("knowledge", []), me)
        context["badge_words"] = glossary.badge_words(context["my"], me)
        context["hand_words"] = glossary.hand_words(me.get("tokens", []), view["phase"])
        context["news"] = news_cards.cards(news_reads.unread(game, me["seat"]), me["seat"], names)
        context["hand"] = presenters.hand(me.get("tokens", []))
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
    context["dining"] = presenters.dining_steps(
        view.get("last_dining"), names, view.get("last_wills")
    )
    context["recap_words"] = glossary.recap_words(context["dining"])
    # The reveal plays once per seat (news.look), for a spectator on every load as before.
    reveal = (context["dining"] or {}).get("key", "")
    context["animate_reveal"] = bool(reveal)
    if me:
        context.update(_since(request, game, me["seat"], names, zone, reveal))
    context["effects"] = [
        {
            **e,
            "target": presenters.named_seat(e["seat"], names),
            "by_name": presenters.named_seat(e["by"], names),
        }
        for e in view.get("effects") or []
    ]
    if status == Game.Status.FINISHED:
        context["roles"] = presenters.roles_revealed(view, names)
    context.update(_async_play(request, game, context["is_host"]))
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
    the open proposal, and what this viewer may do: the host moves it, a living player asks."""
    clock = view.get("clock")
    if not clock or view["status"] != "running":
        return None
    seat = me["seat"] if me else None
    card = {
        "paused": clock["paused"],
        "left": _left(clock["paused_left"]) if clock["paused"] else "",
        "host": is_host,
        "voter": seat in clock["voters"],
        "timed": bool(view.get("deadline")) or clock["paused"],
        "choices": EXTEND_CHOICES,
        "vote": None,
    }
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
            line["text"] = for_people(line["text"], names, line["data"], line["template"])
        card["at"] = look.since_at and times.clock(look.since_at, zone)
        out["since"] = card
    return out


def _async_play(request, game: Game, is_host: bool) -> dict:
    """On the game page: the shared-screen link, and the host's remedies for a seat
    flagged as away (games.services.seats)."""
    rows = remedies(request, game) if is_host and game.state else []
    return {
        "display_url": room_screen.display_url(game, is_host=is_host),
        "remedies": rows,
        "remedies_open": any(r["afk"] for r in rows),
    }


def remedies(request: HttpRequest, game: Game) -> list[dict]:
    """For the host's page only: the seats the host may hand on, with any open handover link
    (a secret of the host's: nobody else's page carries it)."""
    rows = []
    for p in game.players.filter(Q(is_bot=True) | Q(afk=True)):
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

RULE_PAGES = [
    ("setup", "Setup and goal"),
    ("round", "A round"),
    ("dining", "Dining and ties"),
    ("ghosts", "Ghosts"),
    ("lord", "The Vampire Lord"),
    ("relics", "Sacred Relics"),
    ("last-wills", "Last Wills"),
    ("bots", "How the bots play"),
]


@require_GET
def rules(request: HttpRequest, page: str = "") -> HttpResponse:
    slugs = [slug for slug, _ in RULE_PAGES]
    if page and page not in slugs:
        raise Http404("No such rules page.")
    back = request.GET.get("game", "").upper()
    context = {
        "pages": RULE_PAGES,
        "page": page,
        # Back to the game the player came from (a code only: never an arbitrary address).
        "game_code": back if re.fullmatch(r"[A-Z0-9]{6}", back) else "",
    }
    if page:
        i = slugs.index(page)
        context["title"] = RULE_PAGES[i][1]
        context["prev"] = RULE_PAGES[i - 1] if i > 0 else None
        context["next"] = RULE_PAGES[i + 1] if i + 1 < len(RULE_PAGES) else None
        return render(request, f"rules/{page}.html", context)
    return render(request, "rules/index.html", context)
