"""Web pages (issue 4): thin views over games.services (the only writer) and games.selectors.

Every page is rendered from `selectors.game_view(game, user)` — the viewer's own engine view —
and the log from `selectors.events_tail`. No rule lives here: what a player may do comes from
`view["pending"]`, and a refused move shows the engine's or the service's own words.

htmx: a page works without JavaScript (forms post and redirect); with htmx the game partial
(`games/game.html#game`) is swapped in place, and `changed` answers 204 while nothing changed.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from datetime import UTC, datetime

import qrcode
import qrcode.image.svg
from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import select_template
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET, require_POST

from games import accounts, identity, listing, selectors, services
from games import names as player_names
from games.api.serializers import ACTIONS as ACTION_INPUTS
from games.engine import IllegalAction, vocabulary
from games.engine.vocabulary import ActionName, TieKind
from games.errors import refusal
from games.forms import CreateForm, JoinForm, OptionsForm, SeatJoinForm, action_args
from games.models import Game
from games.options import spectators_allowed
from games.seats import seen as mark_seen
from games.services import GameError
from relics import pages as relic_pages

LOG_TAIL = 120  # events shown in the game's log (the newest)
POLL_SECONDS = 2

ROLE_LABELS = vocabulary.ROLE_LABELS
TOKEN_LABELS = vocabulary.TOKEN_LABELS
PHASE_LABELS = {
    "lobby": "Lobby",
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
# Actions with a page of their own; any other action (a module's) gets the generic form.
ACTION_TEMPLATES = {
    ActionName.PLACE_TOKEN,
    ActionName.INTERVENTION_VOTE,
    ActionName.TIEBREAK_VOTE,
    ActionName.CHOOSE_EXAMINER,
    ActionName.RESOLVE_CHOICE,
    ActionName.PASS,
}


# --- identity -----------------------------------------------------------------------------


def _identify(request: HttpRequest, name: str):
    """The phone's guest identity, kept in the session (made like the API's GuestView)."""
    user = request.user
    if user.is_authenticated:
        accounts.display_name_set(user, name)
        return user
    user = services.guest_create(name=name)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return user


def _display_name(user) -> str:
    if not user.is_authenticated:
        return ""
    return user.first_name or user.username


def _problem(exc: Exception) -> tuple[str, int]:
    """The refusal in words (the rule that forbids it) and its HTTP status, as the API answers
    it (games/errors.py)."""
    refused = refusal(exc)
    if refused is None:
        raise exc
    return refused.detail, refused.status


# --- home ---------------------------------------------------------------------------------


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return _home(request)


def _home(request, *, create=None, join=None, error=None, status=200) -> HttpResponse:
    name = _display_name(request.user)
    mine = []
    for game in listing.for_home(request.user):  # all of a player's own, never crowded out
        seat = identity.player_in(game.players.all(), request.user)
        if seat is not None:
            mine.append({"game": game, "seat": seat})
    context = {
        "create_form": create or CreateForm(initial={"name": name}),
        "join_form": join or JoinForm(initial={"name": name}),
        "my_games": mine,
        "name": name,
        "error": error,
    }
    return render(request, "home.html", context, status=status)


@require_POST
def create(request: HttpRequest) -> HttpResponse:
    form = CreateForm(request.POST)
    if not form.is_valid():
        return _home(request, create=form, status=400)
    user = _identify(request, form.cleaned_data["name"])
    try:
        game = services.game_create(
            host=user, options=form.options(), name=form.cleaned_data["name"]
        )
    except GameError as exc:  # too_many_lobbies
        return _home(request, create=form, error=exc.detail, status=exc.status)
    return redirect("game", code=game.code)


@require_POST
def join(request: HttpRequest) -> HttpResponse:
    form = JoinForm(request.POST)
    if not form.is_valid():
        return _home(request, join=form, status=400)
    code = form.cleaned_data["code"]
    try:
        selectors.game_get(code)
    except GameError as exc:
        return _home(request, join=form, error=exc.detail, status=exc.status)
    user = _identify(request, form.cleaned_data["name"])
    try:
        services.game_join(code=code, user=user, name=form.cleaned_data["name"])
    except GameError as exc:
        return _home(request, join=form, error=exc.detail, status=exc.status)
    return redirect("game", code=code)


# --- a game ---------------------------------------------------------------------------------


def _game_or_404(code: str) -> Game:
    try:
        return selectors.game_get(code.upper())
    except GameError as exc:
        raise Http404(exc.detail) from None


@require_GET
def game(request: HttpRequest, code: str) -> HttpResponse:
    return _render_game(request, _game_or_404(code))


@require_GET
def changed(request: HttpRequest, code: str) -> HttpResponse:
    """The poll: 204 (htmx swaps nothing) while the version is the one the page shows.

    Where spectators may watch, the unchanged path is one cache read (selectors.poll_state);
    only a change renders. Elsewhere the viewer's seat is asked first: someone who may not
    watch gets the same 404 whatever version they name (a 204 would confirm it)."""
    code = code.upper()
    held = request.GET.get("v")
    version, open_to_all = selectors.poll_state(code)
    if version is None:
        raise Http404("No such game.")
    if open_to_all and held == str(version):
        return HttpResponse(status=204)
    game = _game_or_404(code)
    if not open_to_all and not may_watch(game, identity.seat_of(game, request.user)):
        raise Http404(NO_SPECTATORS)
    if held == str(game.version):
        return HttpResponse(status=204)
    return _render_game(request, game)


NO_SPECTATORS = "The host does not allow spectators at this table."


def may_watch(game: Game, seat: int | None) -> bool:
    """Who may see a game's page: its players; anyone in the lobby (to sit down); and anyone
    at all where the host lets spectators watch."""
    return seat is not None or game.status == Game.Status.LOBBY or spectators_allowed(game.options)


@require_POST
def seat_join(request: HttpRequest, code: str) -> HttpResponse:
    """Sit down at a table from its invite link."""
    game = _game_or_404(code)
    form = SeatJoinForm(request.POST)
    if not form.is_valid():
        return _render_game(request, game, join_form=form, status=400)
    user = _identify(request, form.cleaned_data["name"])
    try:
        game = services.game_join(code=game.code, user=user, name=form.cleaned_data["name"])
    except GameError as exc:
        return _render_game(request, game, error=exc.detail, status=exc.status)
    return _done(request, game)


@require_POST
def start(request: HttpRequest, code: str) -> HttpResponse:
    game = _game_or_404(code)
    try:
        game = services.game_start(code=game.code, user=request.user)
    except (GameError, IllegalAction) as exc:
        detail, status = _problem(exc)
        return _render_game(request, game, error=detail, status=status)
    return _done(request, game)


@require_POST
def update_options(request: HttpRequest, code: str) -> HttpResponse:
    """The host changes the table's options in the lobby (services.game_update_options)."""
    game = _game_or_404(code)
    form = OptionsForm(request.POST)
    if not form.is_valid():
        return _render_game(request, game, error="Those options are not valid.", status=400)
    try:
        game = services.game_update_options(
            code=game.code, user=request.user, options=form.options()
        )
    except GameError as exc:
        return _render_game(request, game, error=exc.detail, status=exc.status)
    return _done(request, game)


@require_POST
def add_bots(request: HttpRequest, code: str) -> HttpResponse:
    """The host fills seats with bots from the lobby (services.game_add_bots)."""
    game = _game_or_404(code)
    try:
        count = max(1, min(int(request.POST.get("count", 1)), 12))
    except ValueError:
        count = 1
    try:
        game = services.game_add_bots(code=game.code, user=request.user, count=count)
    except GameError as exc:
        return _render_game(request, game, error=exc.detail, status=exc.status)
    return _done(request, game)


@require_POST
def leave(request: HttpRequest, code: str) -> HttpResponse:
    game = _game_or_404(code)
    try:
        services.game_leave(code=game.code, user=request.user)
    except GameError as exc:
        return _render_game(request, game, error=exc.detail, status=exc.status)
    if request.htmx:
        response = HttpResponse(status=200)
        response["HX-Redirect"] = reverse("home")
        return response
    return redirect("home")


@require_POST
def act(request: HttpRequest, code: str, action: str) -> HttpResponse:
    """One action of API.md from a form; answers with the updated game at once."""
    game = _game_or_404(code)
    serializer_class = ACTION_INPUTS.get(action)
    if serializer_class is None:
        return _render_game(request, game, error=f"There is no action '{action}'.", status=400)
    serializer = serializer_class(data=action_args(request.POST))
    if not serializer.is_valid():
        fields = ", ".join(sorted(serializer.errors))
        return _render_game(request, game, error=f"Choose a {fields} first.", status=400)
    try:
        game = services.action_apply(
            code=game.code, user=request.user, name=action, args=dict(serializer.validated_data)
        )
    except (GameError, IllegalAction) as exc:
        detail, status = _problem(exc)
        game.refresh_from_db()
        return _render_game(request, game, error=detail, status=status)
    return _done(request, game)


def _done(request: HttpRequest, game: Game) -> HttpResponse:
    """After a change: htmx gets the new partial now; a plain form post is redirected."""
    if request.htmx:
        return _render_game(request, game)
    return redirect("game", code=game.code)


def _render_game(request, game: Game, *, error=None, join_form=None, status=200) -> HttpResponse:
    context = game_context(request, game, error=error, join_form=join_form)
    template = "games/game.html#game" if request.htmx else "games/game.html"
    return render(request, template, context, status=status)


# --- presentation: the view dict as a page ----------------------------------------------------


def game_context(request, game: Game, *, error=None, join_form=None) -> dict:
    view = selectors.game_view(game, request.user)
    me = view.get("me")
    if not may_watch(game, me["seat"] if me else None):
        raise Http404(NO_SPECTATORS)
    names = {s["seat"]: s["name"] for s in view["seats"]}
    seat = me["seat"] if me else None
    events = selectors.events_tail(game, seat, LOG_TAIL)
    for e in events:
        e["text"] = with_names(e["text"], names, e["data"])
    events.reverse()
    status = view["status"]
    context = {
        "game": game,
        "view": view,
        "me": me,
        "names": names,
        "seats": _seats(view, me),
        "events": events,
        "error": error,
        "phase_label": phase_label(view["phase"]),
        "is_host": seat is not None and view.get("host_seat") == seat,
        "poll_seconds": POLL_SECONDS,
        "server_now": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "join_form": join_form or SeatJoinForm(initial={"name": _display_name(request.user)}),
    }
    if status == Game.Status.LOBBY:
        invite = request.build_absolute_uri(reverse("game", args=[game.code]))
        context.update(invite=invite, qr_svg=qr_svg(invite))
        context["bot_counts"] = list(range(1, game.seat_limit - len(context["seats"]) + 1))
        context["options_form"] = OptionsForm.of(game.options)
    if me:
        mark_seen(game, me["seat"])
        context["my"] = next(s for s in context["seats"] if s["is_me"])
        context["role_label"] = ROLE_LABELS.get(me.get("role"), "")
        context["knowledge"] = [_fact(k, names) for k in me.get("knowledge", [])]
        context["hand"] = _hand(me.get("tokens", []))
        context["placed"] = [
            {
                "target": p["target"],
                "name": names.get(p["target"]),
                "token": p["token"],
                "label": TOKEN_LABELS.get(p["token"], p["token"]),
            }
            for p in me.get("placed", [])
        ]
    context["actions"] = [_action(p, names, view) for p in view.get("pending", [])]
    context["relic_board"] = relic_pages.board(view, names)
    context["my_relics"] = relic_pages.mine(me)
    context["tie"] = _tie(view.get("tie"), names)
    context["dining"] = dining_steps(view.get("last_dining"), names, view.get("last_wills"))
    context["effects"] = [
        {**e, "target": _who(e["seat"], names), "by_name": _who(e["by"], names)}
        for e in view.get("effects") or []
    ]
    if status == Game.Status.FINISHED:
        context["roles"] = _roles(view, names)
    context.update(_async_play(request, game, context["is_host"]))
    context["announcement"] = _announcement(view, context["dining"])
    return context


def _async_play(request, game: Game, is_host: bool) -> dict:
    """Issue 9 on the game page: the shared-screen link, and the host's remedies for a seat
    flagged as away (games.seats)."""
    from games import display, seat_pages

    remedies = seat_pages.remedies(request, game) if is_host and game.state else []
    return {
        "display_url": display.display_url(game, is_host=is_host),
        "remedies": remedies,
        "remedies_open": any(r["afk"] for r in remedies),
    }


def phase_label(phase: str) -> str:
    return PHASE_LABELS.get(phase) or phase.replace("_", " ").capitalize()


_SEAT = re.compile(r"\b([Ss]eat) (\d+)\b(?!\s*\()")


def with_names(text: str, names: dict[int, str], data: dict | None = None) -> SafeString:
    """A log line as HTML, names shown as names (games.names.as_html), never as text.

    'seat 5' -> 'seat 5 (<bdi class="name">Eli</bdi>)', looked up in the game's text only. A
    service line that quotes a person's name (`data["name"]`: "“Eve” sat down at seat 2.") shows
    that name in the same element instead of the quoted text."""
    named = (data or {}).get("name")
    if isinstance(named, str):
        before, slot, after = text.partition(player_names.quoted(named))
        if slot:
            return format_html("{}{}{}", before, player_names.as_html(named), after)
    out, last = [], 0
    for match in _SEAT.finditer(text):
        out.append(escape(text[last : match.end()]))
        seat = int(match.group(2))
        if seat in names:
            out.append(format_html(" ({})", player_names.as_html(names[seat])))
        last = match.end()
    out.append(escape(text[last:]))
    return mark_safe("".join(out))


def qr_svg(url: str) -> str:
    """The invite link as an inline SVG QR code (server-side; no script, no image request)."""
    image = qrcode.make(
        url, image_factory=qrcode.image.svg.SvgPathImage, border=2, box_size=10
    ).to_string(encoding="unicode")
    return image.replace("<svg ", '<svg role="img" aria-label="QR code of the invite link" ', 1)


def _seats(view: dict, me: dict | None) -> list[dict]:
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


def _hand(tokens: list[str]) -> list[dict]:
    counts: dict[str, int] = {}
    for t in tokens:
        counts[t] = counts.get(t, 0) + 1
    return [
        {"token": t, "label": TOKEN_LABELS.get(t, t), "count": n}
        for t, n in sorted(counts.items(), key=lambda item: _token_order(item[0]))
    ]


def _fact(k: dict, names: dict[int, str]) -> dict:
    who = _who(k["seat"], names)
    if k.get("mesmerized"):
        text = format_html("{} is Mesmerized", who)
    elif k.get("role"):
        article = "the" if k["role"] == "vampire_lord" else "a"
        text = format_html("{} is {} {}", who, article, ROLE_LABELS[k["role"]])
    else:
        text = who
    source = SOURCE_LABELS.get(k.get("source"), str(k.get("source", "")).replace("_", " "))
    return {"seat": k["seat"], "text": text, "source": source, "round": k.get("round")}


def _words(identifier) -> str:
    return str(identifier).replace("_", " ").capitalize()


def _token_order(token: str) -> int:
    return list(TOKEN_LABELS).index(token) if token in TOKEN_LABELS else len(TOKEN_LABELS)


def _targets(seats: list[int], names: dict[int, str]) -> list[dict]:
    return [{"seat": s, "name": names.get(s, "")} for s in seats]


def _action(pending: dict, names: dict[int, str], view: dict) -> dict:
    action, options = pending["action"], pending.get("options", {})
    # A relic's choice has a form of its own (relics/pages.py); others by action name.
    extra = relic_pages.action(pending, view, names) if view.get("relics") is not None else {}
    name = extra.pop("template", action if action in ACTION_TEMPLATES else "generic")
    templates = [f"games/actions/{name}.html", f"games/actions/{action}.html"]
    out = {
        "action": action,
        "options": options,
        "template": select_template([*templates, "games/actions/generic.html"]).template.name,
        "targets": _targets(options.get("targets", []), names),
        "label": action.replace("_", " ").capitalize(),
    }
    if "tokens" in options:
        hand = {h["token"]: h["count"] for h in _hand(view["me"].get("tokens", []))}
        out["tokens"] = [
            {"token": t, "label": TOKEN_LABELS.get(t, t), "count": hand.get(t, 1)}
            for t in sorted(options["tokens"], key=_token_order)
        ]
    # A module's choices (cards, relics, named choices) are offered as they come.
    me = view.get("me") or {}
    known = {c["id"]: c["name"] for c in (me.get("drawn") or []) + (me.get("relics") or [])}
    for key in ("cards", "choices", "relics"):
        if isinstance(options.get(key), list):
            out[key] = [
                c if isinstance(c, dict) else {"id": c, "name": known.get(c, _words(c))}
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
            {"id": options.get("choice"), "name": _words(options.get("choice", "")), "text": ""},
        )
        out["count"] = options.get("count", 1)
    if action == ActionName.TIEBREAK_VOTE and view.get("tie"):
        out["label"] = TIE_LABELS.get(view["tie"]["kind"], "Tie vote")
    return out


def _tie(tie: dict | None, names: dict[int, str]) -> dict | None:
    if not tie:
        return None
    return {
        **tie,
        "label": TIE_LABELS.get(tie["kind"], "Tie vote"),
        "candidates": _targets(tie["candidates"], names),
        "voters": _targets(tie["voters"], names),
        "voted": set(tie.get("voted", [])),
    }


def _who(seat: int | None, names: dict[int, str]) -> SafeString | None:
    """'<bdi class="name">Eli</bdi> (seat 5)': for the page (plain text: _plain_who)."""
    if seat is None:
        return None
    return format_html("{} (seat {})", player_names.as_html(names.get(seat, "?")), seat)


def _plain_who(seat: int, names: dict[int, str]) -> str:
    return f"{player_names.quoted(names.get(seat, '?'))} (seat {seat})"


def dining_steps(
    d: dict | None, names: dict[int, str], last_wills: list | None = None
) -> dict | None:
    """`last_dining` as the steps of R4.1, to be revealed one after the other."""
    if not d:
        return None

    def who(seat):
        return _who(seat, names)

    wills = [
        {
            **w,
            "who": who(w["seat"]),
            "chosen": [who(t) for t in w.get("targets") or []],
        }
        for w in last_wills or []
        if w.get("round") == d["round"]
    ]

    on_seat: dict[int, list[dict]] = defaultdict(list)
    for t in d.get("tokens", []):
        on_seat[t["target"]].append(
            {
                "owner": names.get(t["owner"], "?"),
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
    }


def _digest(*parts) -> str:
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:10]


def _roles(view: dict, names: dict[int, str]) -> list[dict]:
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


def _announcement(view: dict, dining: dict | None) -> str:
    """One sentence for screen readers (aria-live) whenever the phase or a result changes."""
    if view["status"] == Game.Status.LOBBY:
        return f"Lobby: {len(view['seats'])} players seated."
    if view["status"] == Game.Status.FINISHED:
        return f"Game over: the {str(view.get('winner', '')).capitalize()} win."
    parts = [f"Round {view['round']}: {phase_label(view['phase'])}."]
    last, names = view.get("last_dining") or {}, {s["seat"]: s["name"] for s in view["seats"]}
    if dining:
        if dining["eliminated"]:
            parts.append(f"{_plain_who(last['eliminated'], names)} was Staked.")
        if dining["alpha_elected"]:
            parts.append(f"{_plain_who(last['alpha_elected'], names)} is elected Alpha Hunter.")
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
