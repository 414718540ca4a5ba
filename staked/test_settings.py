"""The settings of the test run (pyproject.toml's DJANGO_SETTINGS_MODULE): the site's own settings,
with a fast password hasher. The real hasher (PBKDF2, a million rounds) costs a tenth of a second
a password by design; hundreds of tests make staff users, and none of them tests the hashing.
Deployments and the tests that start the site in a process of its own use staked.settings."""

from staked.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Server bots move after 0.1–0.3 s instead of a human-like 1–3 s: no test is about the pause,
# and the ones that play with bots through a real worker would wait it out at every move.
BOT_PAUSE_MS = 200

# A test's commits need not wait for the disk (PostgreSQL's synchronous_commit, for this
# session only): the data of a test run never has to survive a power cut, and the tests that
# commit (live servers, threads, whole games) spend much of their time waiting on fsync otherwise.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"  # noqa: F405
