"""The history's pages: `/me/games` (your finished games and figures; a guest may register there
and keep them) and `/g/{code}/replay/` (a finished game's story: its turning points, each round
as the table saw it once Dining revealed it, then every role), with the host's switch that
shares it publicly. Thin: `selectors` reads, `sharing` writes the switch."""

from __future__ import annotations

from django import forms
from django.contrib.auth import update_session_auth_hash
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_POST

from games.domain import identity
from games.domain.options import spectators_allowed
from games.history import selectors, sharing
from games.presenters import story as story_words
from games.presenters.game import ROLE_LABELS, roles_revealed
from games.services import GameError, accounts, seat_links

PER_PAGE = 20
TEAM_LABELS = {"hunters": "Hunters", "vampires": "Vampires"}
ARTICLES = {"hunter": "a", "vampire": "a", "vampire_lord": "the"}  # "You were the Vampire Lord"


class RegisterForm(forms.Form):
    username = forms.RegexField(
        regex=accounts.USERNAME_PATTERN,
        max_length=40,
        help_text="3 to 40 letters, digits or . @ + - _",
        error_messages={"invalid": "Use 3 to 40 letters, digits or . @ + - _ (no spaces)."},
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    password = forms.CharField(
        min_length=8,
        max_length=128,
        help_text="at least 8 characters",
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )


# --- your games ---------------------------------------------------------------------------------


@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    return _my_games(request, RegisterForm())


@require_POST
def register(request: HttpRequest) -> HttpResponse:
    """A guest registers from their history page and keeps this identity (accounts.py)."""
    if not accounts.is_guest(request.user):
        return redirect("my-games")
    form = RegisterForm(request.POST)
    if not form.is_valid():
        return _my_games(request, form, status=400)
    try:
        user, _ = accounts.account_register(
            user=request.user,
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password"],
        )
    except GameError as exc:
        form.add_error("username", exc.detail)
        return _my_games(request, form, status=exc.status)
    update_session_auth_hash(request, user)  # the new password would sign this phone out
    return redirect(reverse("my-games") + "?registered=1")


def _my_games(request: HttpRequest, form: RegisterForm, *, status: int = 200) -> HttpResponse:
    user = request.user
    if not user.is_authenticated:
        return render(request, "history/my_games.html", {"anonymous": True})
    rows = selectors.counted(user).prefetch_related("game__players")
    page = Paginator(rows, PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "games": [_labelled(selectors.game_row(request, r)) for r in page.object_list],
        "figures": _labelled_figures(selectors.figures(user)),
        "guest": accounts.is_guest(user),
        "form": form,
        "registered": request.GET.get("registered") == "1",
        "username": user.username,
    }
    return render(request, "history/my_games.html", context, status=status)


def _labelled(row: dict) -> dict:
    return {
        **row,
        "role_label": ROLE_LABELS[row["role"]],
        "article": ARTICLES[row["role"]],
        "team_label": TEAM_LABELS[row["team"]],
        "others": [p for p in row["players"] if p["seat"] != row["seat"]],
    }


def _labelled_figures(figures: dict) -> dict:
    for r in figures["by_role"]:
        r["label"] = ROLE_LABELS[r["role"]]
    return figures


# --- a finished game's replay: its story ------------------------------------------------------

SUMMARY, END = "summary", "end"


@require_GET
def replay(request: HttpRequest, code: str) -> HttpResponse:
    """A finished game's story, one screen a step: the turning points (`?round=summary`, the
    first), each round (`?round=2`: the table with every token Dining revealed, then what it
    did), then `?round=end`: the outcome and every role (R1.4)."""
    game = _readable(request, code)
    return _replay_page(request, game, request.GET.get("round", SUMMARY))


@require_POST
def replay_share(request: HttpRequest, code: str) -> HttpResponse:
    """The host's switch: `public=on` shares the replay with anyone who has the link, `off`
    stops. A refusal redraws the replay with its words and code, and changes nothing."""
    game = _readable(request, code)
    step = request.POST.get("round", SUMMARY)
    if step not in {SUMMARY, END, *(str(n) for n in range(1, game.round + 1))}:
        step = SUMMARY  # the page the form came from is only where to go back to
    public = {"on": True, "off": False}.get(request.POST.get("public"), request.POST.get("public"))
    try:
        sharing.replay_share(code=game.code, user=request.user, public=public)
    except GameError as exc:
        return _replay_page(request, game, step, refusal=exc)
    query = urlencode({"round": step})
    return redirect(reverse("replay", args=[game.code]) + f"?{query}#share")


def _readable(request: HttpRequest, code: str):
    game = selectors.replay_game(code)
    if game is None:
        raise Http404("Only a finished game has a replay.")
    if not selectors.replay_readable(game, request.user):
        raise Http404("The host does not allow spectators at this table.")
    return game


def _replay_page(request: HttpRequest, game, step: str, refusal: GameError | None = None):
    told = selectors.story(game)
    view = told["view"]
    names = {s["seat"]: s["name"] for s in view["seats"]}
    steps = [SUMMARY, *(str(r["round"]) for r in told["rounds"]), END]
    if step not in steps:
        raise Http404("This game has no such round.")
    i = steps.index(step)
    context = {
        "game": game,
        "view": view,
        "step": step,
        "steps": steps,
        "previous": steps[i - 1] if i > 0 else None,
        "next": steps[i + 1] if i + 1 < len(steps) else None,
        "rounds": len(told["rounds"]),
        "finished_at": told["finished_at"],
        "winner_label": TEAM_LABELS.get(view["winner"], ""),
        "host": identity.is_host(game, request.user),
        # A browser a seat link signed in plays that seat only: the switch is the host's own
        # device's (games/web/middleware/seat_scope.py lets only the seat's play through).
        "scoped": bool(request.session.get(seat_links.SCOPE_KEY)),
        "public": told["public"],
        "spectators": spectators_allowed(game.options),
        "refusal": refusal,
    }
    if step == SUMMARY:
        context["points"] = story_words.summary(told["turning_points"], names, view["outcome"])
    elif step == END:
        context["roles"] = roles_revealed(view, names)
    else:
        round_ = told["rounds"][i - 1]
        context["screen"] = story_words.round_screen(round_, sorted(names), names, told["lines"])
    status = refusal.status if refusal is not None else 200
    return render(request, "history/replay.html", context, status=status)
