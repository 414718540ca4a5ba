"""The reminders page and the installable app: web app manifest, service worker, offline page."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from games.domain.errors import DomainError
from games.notify import confirm, preferences, push, unsubscribe_links
from games.notify.forms import RemindersForm
from games.presenters import times

THEME = "#14100f"  # --bg in static/css/staked.css
# What the service worker keeps for offline use: the look of the app, never a player's page.
SHELL = [
    "css/staked.css",
    "css/pwa.css",
    "js/htmx.min.js",
    "js/staked.js",
    "js/pwa.js",
    "js/js-on.js",
    "js/offline.js",
    "img/favicon.svg",
    "img/icon-192.png",
    "img/icon-512.png",
]


def reminders(request: HttpRequest) -> HttpResponse:
    """Choose the channels: push on this phone (JS, through the API) and/or e-mail (this form)."""
    if not request.user.is_authenticated:
        return render(request, "notify/reminders.html", {"anonymous": True})
    zone = request.COOKIES.get(times.COOKIE)  # the browser's: a row made here starts in it
    prefs = preferences.preferences_of(request.user, zone)
    form = RemindersForm(instance=prefs)
    status, resend_error = 200, None
    if request.method == "POST" and "resend" in request.POST:
        try:
            preferences.link_resend(request.user)
            return redirect(reverse("reminders") + "?sent=1")
        except DomainError as exc:
            if exc.code != "rate_limited":  # no address, or confirmed already: nothing to send
                return redirect("reminders")
            resend_error, status = exc.detail, exc.status
    elif request.method == "POST":
        form = RemindersForm(request.POST, instance=prefs)
        if form.is_valid():
            preferences.preferences_save(request.user, form.cleaned_data, zone)
            return redirect(reverse("reminders") + "?saved=1")
        status = 400
    context = {
        "form": form,
        "prefs": prefs,
        "resend_error": resend_error,
        "sent": request.GET.get("sent") == "1",
        "saved": request.GET.get("saved") == "1",
        "push_available": push.enabled(),
        "devices": request.user.push_subscriptions.count(),
    }
    return render(request, "notify/reminders.html", context, status=status)


@require_http_methods(["GET", "POST"])
def confirm_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link in the confirmation e-mail: a button (GET changes nothing, so a mail scanner that
    opens links confirms nothing), which confirms. No sign-in needed: the token is the proof."""
    try:
        prefs = confirm.preferences_for(token)
    except confirm.LinkInvalid as exc:
        return render(request, "notify/confirm_email.html", {"invalid": str(exc)}, status=400)
    if request.method == "POST":
        prefs = confirm.confirm(token)
    return render(request, "notify/confirm_email.html", {"prefs": prefs})


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> HttpResponse:
    icons = [
        {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("img/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    body = {
        "name": "Staked!",
        "short_name": "Staked!",
        "description": "A hidden-role party game for 6 to 12 friends.",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME,
        "background_color": THEME,
        "icons": icons,
    }
    return HttpResponse(json.dumps(body, indent=2), content_type="application/manifest+json")


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js from the root, so that it controls every page. Its text changes whenever a shell
    file does (the version is their hash), which makes browsers install the new shell."""
    shell = [static(path) for path in SHELL] + [reverse("offline")]
    body = render_to_string(
        "notify/sw.js",
        {
            "version": _shell_version(),
            "shell": json.dumps(shell),
            "offline": reverse("offline"),
            "shell_icon": static("img/icon-192.png"),
        },
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # browsers check for a new worker on every visit
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows when a page cannot be loaded (kept in its cache)."""
    return render(request, "notify/offline.html")


@cache
def _shell_version() -> str:
    digest = hashlib.sha256()
    files = [Path(finders.find(path)) for path in SHELL]
    templates = [
        Path(get_template(name).origin.name) for name in ("notify/offline.html", "notify/sw.js")
    ]
    for file in files + templates:
        digest.update(file.read_bytes())
    return digest.hexdigest()[:12]


@csrf_exempt  # the token is the proof; a mail client's one-click POST carries no CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The e-mails' unsubscribe link: a button (GET changes nothing: a mail scanner that follows
    links stops nothing), and the one-click POST of RFC 8058 (`List-Unsubscribe-Post`). No
    sign-in needed."""
    try:
        if request.method == "POST":
            unsubscribe_links.unsubscribe(token)
        else:
            unsubscribe_links.unsubscribe_target(token)
    except DomainError as exc:
        context = {"invalid": exc.detail}
        return render(request, "notify/unsubscribe.html", context, status=exc.status)
    return render(request, "notify/unsubscribe.html", {"done": request.method == "POST"})
