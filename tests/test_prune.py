"""What only grows is pruned once a day by beat: used seat links past their lifetime, expired
sessions (every guest has one) and long-past digest days; what is still needed stays."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.utils import timezone

from games import tasks
from games.models import SeatLinkUse
from games.notify import tasks as notify_tasks
from games.notify.models import DigestLog

pytestmark = pytest.mark.django_db


def test_the_daily_prune_drops_used_links_past_their_lifetime_and_expired_sessions():
    old = SeatLinkUse.objects.create(nonce="old")
    recent = SeatLinkUse.objects.create(nonce="recent")
    SeatLinkUse.objects.filter(pk=old.pk).update(used_at=timezone.now() - timedelta(days=9))
    SeatLinkUse.objects.filter(pk=recent.pk).update(used_at=timezone.now() - timedelta(days=7))
    Session.objects.create(session_key="gone", session_data="", expire_date=timezone.now())
    Session.objects.create(
        session_key="kept", session_data="", expire_date=timezone.now() + timedelta(days=1)
    )

    assert tasks.prune.apply().get() == 1
    assert list(SeatLinkUse.objects.values_list("nonce", flat=True)) == ["recent"]
    assert list(Session.objects.values_list("session_key", flat=True)) == ["kept"]


def test_the_daily_prune_forgets_digest_days_a_week_old_and_keeps_this_weeks():
    user = get_user_model().objects.create_user("ana")
    today = datetime.now(UTC).date()
    for days in (0, 6, 8, 30):
        DigestLog.objects.create(user=user, day=today - timedelta(days=days))

    assert notify_tasks.digest_prune.apply().get() == 2
    kept = set(DigestLog.objects.values_list("day", flat=True))
    assert kept == {today, today - timedelta(days=6)}
    assert all(isinstance(d, date) for d in kept)


def test_beat_runs_both_prunes_daily():
    tasks_by_name = {e["task"]: e["schedule"] for e in settings.CELERY_BEAT_SCHEDULE.values()}
    assert tasks_by_name["games.tasks.prune"] == 86400.0
    assert tasks_by_name["notify.tasks.digest_prune"] == 86400.0
