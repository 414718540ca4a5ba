"""Routes of the history: `pages` at the root, `api` under /api/v1/ (staked/urls.py includes
both, as it does the reminders')."""

from django.urls import path

from games.history import api as api_views
from games.history import views

pages = [
    path("me/games", views.my_games, name="my-games"),
    path("me/games/register", views.register, name="my-games-register"),
    path("g/<code:code>/replay/", views.replay, name="replay"),
    path("g/<code:code>/replay/share", views.replay_share, name="replay-share"),
]

api = [
    path("me/games/", api_views.MyGamesView.as_view(), name="me-games"),
    path("me/stats/", api_views.MyStatsView.as_view(), name="me-stats"),
    path("games/<code:code>/story/", api_views.StoryView.as_view(), name="story"),
]
