from django.urls import include, path

from games.api import views
from games.domain.inputs import ACTIONS

app_name = "api"

urlpatterns = [
    path("auth/guest/", views.GuestView.as_view(), name="auth-guest"),
    path("auth/register/", views.RegisterView.as_view(), name="auth-register"),
    path("auth/token/", views.TokenView.as_view(), name="auth-token"),
    path("games/", views.GamesView.as_view(), name="games"),
    path("games/<code:code>/", views.game_detail, name="game"),
    path("games/<code:code>/join/", views.JoinView.as_view(), name="join"),
    path("games/<code:code>/leave/", views.LeaveView.as_view(), name="leave"),
    path("games/<code:code>/bots/", views.BotsView.as_view(), name="bots"),
    path("games/<code:code>/start/", views.StartView.as_view(), name="start"),
    path("games/<code:code>/events/", views.EventsView.as_view(), name="events"),
    path("games/<code:code>/stream/", views.game_stream, name="stream"),
    path(
        "games/<code:code>/deadline/extend/",
        views.ClockExtendView.as_view(),
        name="deadline-extend",
    ),
    path(
        "games/<code:code>/deadline/pause/", views.ClockPauseView.as_view(), name="deadline-pause"
    ),
    path(
        "games/<code:code>/deadline/resume/",
        views.ClockResumeView.as_view(),
        name="deadline-resume",
    ),
    path("games/<code:code>/deadline/vote/", views.ClockVoteView.as_view(), name="deadline-vote"),
    # One route per action (its own operation in the schema), then any other name: a 400.
    *[
        path(
            f"games/<code:code>/actions/{name}/",
            views.action_view(name),
            {"action": name},
            name=f"action-{name}",
        )
        for name in ACTIONS
    ],
    path("games/<code:code>/actions/<name:action>/", views.any_action_view, name="action"),
    path("games/<code:code>/chat/", include("games.chat.api_urls")),
    path("games/<code:code>/here/", views.SeatHereView.as_view(), name="seat-here"),
    path("games/<code:code>/vacation/", views.VacationView.as_view(), name="vacation"),
    path("games/<code:code>/seats/<seat:seat>/bot/", views.SeatBotView.as_view(), name="seat-bot"),
    path(
        "games/<code:code>/seats/<seat:seat>/invite/",
        views.SeatInviteView.as_view(),
        name="seat-invite",
    ),
    path("games/<code:code>/claim/", views.SeatClaimView.as_view(), name="claim"),
    path("games/<code:code>/seat-link/", views.SeatLinkView.as_view(), name="seat-link"),
    path("games/<code:code>/rematch/", views.RematchView.as_view(), name="rematch"),
]
