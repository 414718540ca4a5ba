"""Included by games/urls.py under `g/<code>/chat/`."""

from django.urls import path

from games.chat import views

urlpatterns = [
    path("<str:channel>/", views.channel_view, name="chat"),
    path("<str:channel>/messages", views.messages_view, name="chat-messages"),
    path("<str:channel>/<int:message_id>/hide", views.hide_view, name="chat-hide"),
]
