"""Top-level URLs: web UI, accounts, admin, REST API v1 and its OpenAPI schema."""

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

# Swagger UI comes from its CDN; its start-up script is served from our own URL (the split
# view), so only the page's few inline style rules need an exception to the site's CSP.
_SWAGGER_CDN = spectacular_settings.SWAGGER_UI_DIST.split("/npm/")[0]
_api_docs = csp_update({"script-src": [_SWAGGER_CDN], "style-src": [_SWAGGER_CDN, UNSAFE_INLINE],
                        "img-src": [_SWAGGER_CDN]})(
    SpectacularSwaggerSplitView.as_view(url_name="api-schema"))

urlpatterns = [
    path("", include("games.urls")),
    path("accounts/", include("allauth.urls")),
    path("settings/", include("accounts.urls")),
    path("notifications/", include("notifications.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("games.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", _api_docs, name="api-docs"),
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
