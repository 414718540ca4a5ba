"""Included by games/web/urls.py under `g/<code>/chat/`."""

from django.urls import path

from games.chat import views

urlpatterns = [
    path("<name:channel>/", views.channel_view, name="chat"),
    path("<name:channel>/messages", views.messages_view, name="chat-messages"),
    path("<name:channel>/<id:message_id>/hide", views.hide_view, name="chat-hide"),
]
