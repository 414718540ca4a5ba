"""Included by games/api/urls.py under `games/<code>/chat/`."""

from django.urls import path

from games.chat import api

urlpatterns = [
    path("<name:channel>/", api.ChatView.as_view(), name="chat"),
    path("<name:channel>/<id:message_id>/hide/", api.HideView.as_view(), name="chat-hide"),
]
