"""Top-level URLs: web UI, accounts, admin, REST API v1 and its OpenAPI schema."""

from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_replace, csp_update
from django.contrib import admin
from django.urls import include, path, re_path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)
from oauth2_provider import urls as oauth_urls

from accounts.views import language_choose
from games.api.guide import writing_a_client
from notifications import api_urls, live_views
from notifications.channels.streams import user_stream

# Swagger UI and Redoc come from our static files (drf-spectacular-sidecar), so the docs work
# offline. Swagger UI's start-up script is served from our own URL (the split view); the pages'
# inline style rules, and Redoc's web worker (a blob: URL), need exceptions to the site's CSP.
_api_docs = csp_update({"style-src": [UNSAFE_INLINE]})(
    SpectacularSwaggerSplitView.as_view(url_name="api-schema"))
# Redoc injects its styles at run time: a nonce in style-src would void 'unsafe-inline'.
_api_redoc = csp_replace({"style-src": [SELF, UNSAFE_INLINE], "worker-src": [SELF, "blob:"]})(
    SpectacularRedocView.as_view(url_name="api-schema", template_name="api/redoc.html"))

urlpatterns = [
    path("", include("games.web.urls")),
    path("accounts/", include("allauth.urls")),
    path("settings/", include("accounts.urls")),
    path("notifications/", include("notifications.urls")),
    path("admin/", admin.site.urls),
    # The language switcher on every page, and the scripts' strings in the page's language.
    path("language/", language_choose, name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    # The player's own event stream lives with their notifications (games never imports them).
    re_path(r"^api/v1/stream/events/?$", user_stream, name="api-user-stream"),
    path("api/v1/me/webhooks/", include("notifications.api_urls")),
    path("api/v1/games/<int:game_id>/webhooks/", include(api_urls.game_urlpatterns)),
    # Installing the site on a phone: the manifest, and the service worker at the root scope.
    path("manifest.webmanifest", live_views.manifest, name="web-manifest"),
    path("sw.js", live_views.service_worker, name="service-worker"),
    # OAuth 2 for apps (config/oauth.py): authorize (the consent page), token, revoke_token, and
    # the server's metadata (RFC 8414) where clients look for it.
    path("oauth/", include((oauth_urls.base_urlpatterns[:3], "oauth2_provider"))),
    path("", include((oauth_urls.metadata_urlpatterns[:1], "oauth2_provider_metadata"))),
    path("api/v1/", include("games.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", _api_docs, name="api-docs"),
    path("api/redoc/", _api_redoc, name="api-redoc"),
    path("api/writing-a-client/", writing_a_client, name="api-guide"),
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
