"""Routes of the reminders: `pages` at the root (the worker must be at /sw.js to control every
page), `api` under /api/v1/ (staked/urls.py includes both)."""

from django.urls import path

from games.notify import api as api_views
from games.notify import views

pages = [
    path("me/reminders", views.reminders, name="reminders"),
    path(
        "me/reminders/confirm/<str:token>",
        views.confirm_email,
        name="reminders-confirm",
    ),
    path("me/reminders/unsubscribe/<str:token>", views.unsubscribe, name="reminders-unsubscribe"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("offline", views.offline, name="offline"),
]

api = [
    path("me/notifications/", api_views.PreferencesView.as_view(), name="me-notifications"),
    path(
        "me/notifications/email-confirmation/",
        api_views.EmailConfirmationView.as_view(),
        name="me-email-confirmation",
    ),
    path(
        "me/push-subscriptions/",
        api_views.PushSubscriptionsView.as_view(),
        name="me-push-subscriptions",
    ),
    path("push/vapid-public-key/", api_views.VapidPublicKeyView.as_view(), name="vapid-key"),
]
