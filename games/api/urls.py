"""The API v1's routes (docs/api.md), each resource's views in a module of its own: accounts
(auth), games (list, create, one game, the lobby), events (the log and the stream), clock (the
deadline), actions (moves) and seats (presence, vacation, handovers, seat links, the rematch);
what they share is respond.py."""

from django.urls import include, path

from games.api import accounts, actions, clock, events, games, seats
from games.domain.inputs import ACTIONS

app_name = "api"

urlpatterns = [
    path("auth/guest/", accounts.GuestView.as_view(), name="auth-guest"),
    path("auth/register/", accounts.RegisterView.as_view(), name="auth-register"),
    path("auth/token/", accounts.TokenView.as_view(), name="auth-token"),
    path("games/", games.GamesView.as_view(), name="games"),
    path("games/<code:code>/", games.game_detail, name="game"),
    path("games/<code:code>/join/", games.JoinView.as_view(), name="join"),
    path("games/<code:code>/leave/", games.LeaveView.as_view(), name="leave"),
    path("games/<code:code>/bots/", games.BotsView.as_view(), name="bots"),
    path("games/<code:code>/start/", games.StartView.as_view(), name="start"),
    path("games/<code:code>/events/", events.EventsView.as_view(), name="events"),
    path("games/<code:code>/stream/", events.game_stream, name="stream"),
    path(
        "games/<code:code>/deadline/extend/",
        clock.ClockExtendView.as_view(),
        name="deadline-extend",
    ),
    path(
        "games/<code:code>/deadline/pause/", clock.ClockPauseView.as_view(), name="deadline-pause"
    ),
    path(
        "games/<code:code>/deadline/resume/",
        clock.ClockResumeView.as_view(),
        name="deadline-resume",
    ),
    path("games/<code:code>/deadline/vote/", clock.ClockVoteView.as_view(), name="deadline-vote"),
    # One route per action (its own operation in the schema), then any other name: a 400.
    *[
        path(
            f"games/<code:code>/actions/{name}/",
            actions.action_view(name),
            {"action": name},
            name=f"action-{name}",
        )
        for name in ACTIONS
    ],
    path("games/<code:code>/actions/<name:action>/", actions.any_action_view, name="action"),
    path("games/<code:code>/chat/", include("games.chat.api_urls")),
    path("games/<code:code>/here/", seats.SeatHereView.as_view(), name="seat-here"),
    path("games/<code:code>/vacation/", seats.VacationView.as_view(), name="vacation"),
    path("games/<code:code>/seats/<seat:seat>/bot/", seats.SeatBotView.as_view(), name="seat-bot"),
    path(
        "games/<code:code>/seats/<seat:seat>/invite/",
        seats.SeatInviteView.as_view(),
        name="seat-invite",
    ),
    path("games/<code:code>/claim/", seats.SeatClaimView.as_view(), name="claim"),
    path("games/<code:code>/seat-link/", seats.SeatLinkView.as_view(), name="seat-link"),
    path("games/<code:code>/rematch/", seats.RematchView.as_view(), name="rematch"),
]
