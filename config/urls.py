"""Top-level URLs: web UI, accounts, admin, REST API v1 and its OpenAPI schema."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("", include("games.urls")),
    path("accounts/", include("allauth.urls")),
    path("settings/", include("accounts.urls")),
    path("notifications/", include("notifications.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("games.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    # Developer pages answer 404 unless DEBUG is on.
    path("dev/", include("notifications.dev_urls")),
    # Inbound email webhooks for play by email (any django-anymail provider; see
    # docs/email-play.md), e.g. /anymail/mailgun/inbound_mime/.
    path("anymail/", include("anymail.urls")),
]

# JSON error bodies under /api/, Django's pages elsewhere.
handler400 = "games.api.errors.bad_request"
handler403 = "games.api.errors.permission_denied"
handler404 = "games.api.errors.page_not_found"
handler500 = "games.api.errors.server_error"
