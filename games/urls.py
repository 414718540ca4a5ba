"""The web pages (issue 4). The API has its own routes in games/api/urls.py."""

from django.urls import include, path

from games import display, seat_pages, views

urlpatterns = [
    path("", views.home, name="home"),
    path("new", views.create, name="create"),
    path("join", views.join, name="join"),
    path("rules/", views.rules, name="rules"),
    path("rules/<slug:page>/", views.rules, name="rules-page"),
    path("g/<str:code>/", views.game, name="game"),
    path("g/<str:code>/changed", views.changed, name="changed"),
    path("g/<str:code>/join", views.seat_join, name="seat-join"),
    path("g/<str:code>/start", views.start, name="start"),
    path("g/<str:code>/leave", views.leave, name="leave"),
    path("g/<str:code>/bots", views.add_bots, name="add-bots"),
    path("g/<str:code>/options", views.update_options, name="update-options"),
    path("g/<str:code>/act/<str:action>", views.act, name="act"),
    path("g/<str:code>/chat/", include("games.chat.urls")),
    path("g/<str:code>/seats/<int:seat>/bot", seat_pages.seat_bot, name="seat-bot"),
    path("g/<str:code>/seats/<int:seat>/invite", seat_pages.seat_invite, name="seat-invite"),
    path("g/<str:code>/claim/<str:token>", seat_pages.seat_claim, name="seat-claim"),
    path("g/<str:code>/rematch", seat_pages.rematch, name="rematch"),
    path("t/<str:code>/", display.display, name="display"),
    path("t/<str:code>/changed", display.display_changed, name="display-changed"),
]
