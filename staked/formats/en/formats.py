"""English formats with the timezone named: "30 Nov 2026, 12:22 UTC" (the admin's times)."""

DATETIME_FORMAT = "j M Y, H:i T"
SHORT_DATETIME_FORMAT = "j M Y, H:i T"
DATE_FORMAT = "j M Y"
TIME_FORMAT = "H:i T"
