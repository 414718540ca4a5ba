"""The history's pages: `/me/games` (your finished games and figures; a guest may register there
and keep them) and `/g/{code}/replay/` (a finished game's public log, round by round, then every
role). Thin: `selectors` reads (the rows were written as each game ended: `records`)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import update_session_auth_hash
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games.domain import identity
from games.domain.options import spectators_allowed
from games.history import records, selectors
from games.presenters.game import ROLE_LABELS, roles_revealed
from games.presenters.wording import for_people
from games.selectors import game as game_selectors
from games.services import GameError, accounts

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


# --- a finished game's public replay ------------------------------------------------------------


@require_GET
def replay(request: HttpRequest, code: str) -> HttpResponse:
    """Step `?round=N` of the public log, or `?round=end`: the outcome and every role (R1.4)."""
    game = selectors.replay_game(code)
    if game is None:
        raise Http404("Only a finished game has a replay.")
    if not spectators_allowed(game.options) and identity.seat_of(game, request.user) is None:
        raise Http404("The host does not allow spectators at this table.")
    steps = [str(n) for n in range(1, game.round + 1)] + ["end"]
    step = request.GET.get("round", "1")
    if step not in steps:
        raise Http404("This game has no such round.")
    view = game_selectors.game_view(game, None)  # finished: roles are public (R1.4)
    names = {s["seat"]: s["name"] for s in view["seats"]}
    i = steps.index(step)
    context = {
        "game": game,
        "view": view,
        "step": step,
        "steps": steps,
        "previous": steps[i - 1] if i > 0 else None,
        "next": steps[i + 1] if i + 1 < len(steps) else None,
        "finished_at": records.finished_at(game),
        "winner_label": TEAM_LABELS.get(view["winner"], ""),
    }
    if step == "end":  # the last step: every role, and who won
        context["roles"] = roles_revealed(view, names)
    else:
        log = selectors.public_log(game, int(step))
        context["events"] = [for_people(e.text, names, e.data, e.template) for e in log]
    return render(request, "history/replay.html", context)
