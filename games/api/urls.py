from django.urls import include, path

from games.api import views

app_name = "api"

urlpatterns = [
    path("auth/guest/", views.GuestView.as_view(), name="auth-guest"),
    path("auth/register/", views.RegisterView.as_view(), name="auth-register"),
    path("auth/token/", views.TokenView.as_view(), name="auth-token"),
    path("games/", views.GamesView.as_view(), name="games"),
    path("games/<str:code>/", views.game_detail, name="game"),
    path("games/<str:code>/join/", views.JoinView.as_view(), name="join"),
    path("games/<str:code>/leave/", views.LeaveView.as_view(), name="leave"),
    path("games/<str:code>/bots/", views.BotsView.as_view(), name="bots"),
    path("games/<str:code>/start/", views.StartView.as_view(), name="start"),
    path("games/<str:code>/events/", views.EventsView.as_view(), name="events"),
    path("games/<str:code>/actions/<str:action>/", views.ActionView.as_view(), name="action"),
    path("games/<str:code>/chat/", include("games.chat.api_urls")),
    path("games/<str:code>/seats/<int:seat>/bot/", views.SeatBotView.as_view(), name="seat-bot"),
    path(
        "games/<str:code>/seats/<int:seat>/invite/",
        views.SeatInviteView.as_view(),
        name="seat-invite",
    ),
    path("games/<str:code>/claim/", views.SeatClaimView.as_view(), name="claim"),
    path("games/<str:code>/rematch/", views.RematchView.as_view(), name="rematch"),
]
