"""pytest plugin, loaded by ``-p staked.pytest_plugin`` in pyproject.toml's addopts.

pytest-django imports the settings before any conftest.py is read, and the settings refuse to
start without a SECRET_KEY when DEBUG is off (as in tests). This module is imported earlier,
while pytest parses its options, and gives the test run (and the subprocesses it starts) a fresh
random key unless one is already set.
"""

import os
import secrets

os.environ.setdefault("SECRET_KEY", "test-" + secrets.token_urlsafe(48))
# With DEBUG off (as under `make test`) the settings redirect plain HTTP to HTTPS; Django's test
# client speaks plain HTTP. tests/test_production.py checks the production defaults apart.
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

# Importing this module first ran staked/__init__.py, which loads the Celery app, and
# staked/celery.py sets DJANGO_SETTINGS_MODULE=staked.settings when it is unset. pytest-django
# prefers that environment variable to pyproject.toml's DJANGO_SETTINGS_MODULE, so the run got
# the site's settings (with the slow password hasher) instead of staked.test_settings. Drop it:
# the ini file decides, and `--ds` still chooses another module. Subprocesses that must run the
# site's own settings name them (tests/test_production.py and the like).
if os.environ.get("DJANGO_SETTINGS_MODULE") == "staked.settings":
    del os.environ["DJANGO_SETTINGS_MODULE"]

# `make test` runs the suite in pytest-xdist workers (scripts/run_tests.sh). Tests clear the
# cache (FLUSHDB) and read the broker's queues, so each worker takes Redis databases of its own:
# worker gwN moves REDIS_URL's and CELERY_BROKER_URL's database numbers up by 2 × (N + 1)
# (the run's 0 and 1 become 2 and 3 for gw0, 4 and 5 for gw1, ...). Its test database is its own
# already (tests/conftest.py names it after the process).
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw"):
    import re

    for _name in ("REDIS_URL", "CELERY_BROKER_URL"):
        _url = os.environ.get(_name, "")
        _match = re.fullmatch(r"(redis://.*/)(\d+)", _url)
        if _match:
            _shift = 2 * (int(_worker[2:]) + 1)
            os.environ[_name] = f"{_match[1]}{int(_match[2]) + _shift}"
