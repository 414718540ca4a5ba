"""Top-level URLs: the web pages, the admin and the v1 API (schema and Swagger UI)."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games import health
from games.history import urls as history_urls
from games.notify import urls as notify_urls

urlpatterns = [
    path("", include("games.urls")),
    path("", include(notify_urls.pages)),
    path("", include(history_urls.pages)),
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("api/v1/", include("games.api.urls")),
    path("api/v1/", include((notify_urls.api, "notify-api"))),
    path("api/v1/", include((history_urls.api, "history-api"))),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/v1/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]
