"""Top-level URLs: the web pages, the admin and the v1 API (schema and Swagger UI)."""

from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games.history import urls as history_urls
from games.notify import urls as notify_urls
from games.web import health
from staked.metrics import metrics_view

# Swagger UI's start script is a file of its own (the split view), so the site's policy of no
# inline script holds; its page still needs inline styles and data: images.
swagger_ui = csp_update({"style-src": ["'unsafe-inline'"], "img-src": ["data:"]})(
    SpectacularSwaggerSplitView.as_view(url_name="api-schema")
)

urlpatterns = [
    path("", include("games.web.urls")),
    path("", include(notify_urls.pages)),
    path("", include(history_urls.pages)),
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", metrics_view, name="metrics"),  # 404 unless METRICS is on
    path("api/v1/", include("games.api.urls")),
    path("api/v1/", include((notify_urls.api, "notify-api"))),
    path("api/v1/", include((history_urls.api, "history-api"))),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/v1/docs/", swagger_ui, name="api-docs"),
]

# Every error on the API is JSON; pages keep their HTML (staked/errors.py).
handler400 = "staked.errors.bad_request"
handler403 = "staked.errors.permission_denied"
handler404 = "staked.errors.page_not_found"
handler500 = "staked.errors.server_error"
