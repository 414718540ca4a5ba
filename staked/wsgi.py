"""WSGI entry point (gunicorn staked.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "staked.settings")

application = get_wsgi_application()
