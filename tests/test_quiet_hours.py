"""The table's local clock (games/domain/quiet_hours.py) as pure
functions of timestamps: quiet hours that wrap past midnight, a fixed local Mingling hour, daylight
saving."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from games.domain import quiet_hours
from games.services.clock import policy

BERLIN = ZoneInfo("Europe/Berlin")
NIGHT = {"time_zone": "Europe/Berlin", "quiet_hours": {"start": 22, "end": 8}}


def at(*args, zone=BERLIN) -> float:
    return datetime(*args, tzinfo=zone).timestamp()


def test_a_deadline_inside_quiet_hours_that_wrap_past_midnight_moves_to_their_end():
    assert quiet_hours.in_quiet(at(2026, 6, 1, 23, 30), NIGHT)
    assert quiet_hours.quiet_end(at(2026, 6, 1, 23, 30), NIGHT) == at(2026, 6, 2, 8)
    assert quiet_hours.quiet_end(at(2026, 6, 2, 3, 0), NIGHT) == at(2026, 6, 2, 8)
    assert quiet_hours.quiet_end(at(2026, 6, 1, 22, 0), NIGHT) == at(2026, 6, 2, 8)  # start: in


def test_a_deadline_outside_quiet_hours_stays_and_the_end_hour_is_not_quiet():
    for ts in (at(2026, 6, 1, 8, 0), at(2026, 6, 1, 21, 59), at(2026, 6, 1, 12, 0)):
        assert not quiet_hours.in_quiet(ts, NIGHT)
        assert quiet_hours.quiet_end(ts, NIGHT) == ts


def test_quiet_hours_within_one_day_and_no_quiet_hours_at_all():
    lunch = {"time_zone": "UTC", "quiet_hours": {"start": 12, "end": 14}}
    assert quiet_hours.quiet_end(at(2026, 6, 1, 13, 15, zone=ZoneInfo("UTC")), lunch) == at(
        2026, 6, 1, 14, zone=ZoneInfo("UTC")
    )
    assert quiet_hours.quiet_end(at(2026, 6, 1, 3), {"time_zone": "Europe/Berlin"}) == at(
        2026, 6, 1, 3
    )


def test_quiet_hours_are_read_on_the_tables_clock_across_a_daylight_saving_change():
    # Berlin moves from UTC+1 to UTC+2 in the night of 29 March 2026: 08:00 local is 06:00 UTC.
    end = quiet_hours.quiet_end(at(2026, 3, 29, 1, 30), NIGHT)
    assert end == at(2026, 3, 29, 8) == datetime(2026, 3, 29, 6, tzinfo=ZoneInfo("UTC")).timestamp()


def test_the_fixed_hour_is_the_first_one_at_least_half_the_timer_after_the_window_opens():
    slow = {"time_zone": "Europe/Berlin", "deadline_hour": 21}
    half_a_day = 6 * 3600
    # Opens 10:00: 21:00 the same day is 11 h later, more than half of a 12-hour Mingling.
    assert quiet_hours.fixed_hour(at(2026, 6, 1, 10), slow, half_a_day) == at(2026, 6, 1, 21)
    # Opens 20:30: 21:00 today is too soon; 21:00 tomorrow.
    assert quiet_hours.fixed_hour(at(2026, 6, 1, 20, 30), slow, half_a_day) == at(2026, 6, 2, 21)
    assert quiet_hours.fixed_hour(at(2026, 6, 1, 10), {}, half_a_day) is None


def test_the_policy_applies_the_fixed_hour_to_mingling_only_then_keeps_out_of_quiet_hours():
    options = {**NIGHT, "deadline_hour": 23, "timers": {"mingling": 12 * 3600}}
    opened = at(2026, 6, 1, 10)
    # Mingling would close at 23:00, inside the quiet hours: it moves to 08:00.
    assert policy(options, "mingling", opened, opened + 12 * 3600) == at(2026, 6, 2, 8)
    # A tie vote keeps its own timer (2 h: noon), outside the quiet hours.
    assert policy(options, "tiebreak", opened, opened + 7200) == opened + 7200


def test_only_iana_zone_names_are_time_zones():
    assert quiet_hours.valid_zone("Europe/Berlin") and quiet_hours.valid_zone("UTC")
    for bad in ("Mars/Olympus", "", "../etc/passwd", "x" * 80, None):
        assert not quiet_hours.valid_zone(bad)


def test_a_deadline_reads_on_the_tables_clock_with_its_zone():
    assert quiet_hours.local_text(at(2026, 6, 2, 21), NIGHT) == "Tue 21:00 (Europe/Berlin)"
