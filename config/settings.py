"""Settings, all from the environment (see README.md for every variable).

With nothing set, the service runs on embedded defaults: SQLite and a filesystem Celery broker
under DATA_DIR, emails written to DATA_DIR/outbox. DATABASE_URL and REDIS_URL switch to
PostgreSQL and Redis.
"""

from pathlib import Path

from corsheaders.defaults import default_headers as cors_default_headers
from django_guid.integrations import CeleryIntegration

from config.environment import BASE_DIR, DATA_DIR, DEBUG, REDIS_URL, env
from config.local_secrets import development_secret

#: Shortest DJANGO_SECRET_KEY production accepts (Django's own deployment check asks for 50).
MIN_SECRET_KEY_LENGTH = 50
if DEBUG:
    # Development without DJANGO_SECRET_KEY: a random key made on first run and kept in
    # DATA_DIR/secret-key (0600), so no key in the repository signs anything a server accepts.
    SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="") or development_secret(
        DATA_DIR / "secret-key")
else:
    # Production must bring its own long secret: refusing to start beats signing sessions,
    # password-reset links and email reply addresses with a guessable key.
    from django.core.exceptions import ImproperlyConfigured

    SECRET_KEY = env.str("DJANGO_SECRET_KEY")
    # "insecure": Django's generated placeholders and the key this repository once shipped.
    if "insecure" in SECRET_KEY.lower():
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is a development key; production (DJANGO_DEBUG=false) needs its "
            "own random key, e.g. python -c 'import secrets; print(secrets.token_urlsafe(64))'.")
    if len(SECRET_KEY) < MIN_SECRET_KEY_LENGTH or len(set(SECRET_KEY)) < 5:
        raise ImproperlyConfigured(
            f"DJANGO_SECRET_KEY has {len(SECRET_KEY)} characters; production "
            f"(DJANGO_DEBUG=false) needs a random key of at least {MIN_SECRET_KEY_LENGTH}, "
            "e.g. python -c 'import secrets; print(secrets.token_urlsafe(64))'.")
#: Earlier keys, still accepted when checking signatures, so rotating the key keeps sessions,
#: unsubscribe links and the reply addresses of emails already sent working.
SECRET_KEY_FALLBACKS = env.list("DJANGO_SECRET_KEY_FALLBACKS", default=[])
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
#: Days of vacation a player may take per calendar year.
VACATION_DAYS_PER_YEAR = env.int("VACATION_DAYS_PER_YEAR", default=21)
#: Invitations one player may send per hour (every request counts, whoever it names).
GAME_INVITATIONS_PER_HOUR = env.int("GAME_INVITATIONS_PER_HOUR", default=20)
#: An invitation is answered no sooner than this, whether it named a player or nobody.
GAME_INVITATION_MIN_SECONDS = env.float("GAME_INVITATION_MIN_SECONDS", default=0.25)
#: How long a game's invite link (a signed token) can be used.
INVITE_LINK_MAX_AGE_DAYS = env.int("INVITE_LINK_MAX_AGE_DAYS", default=14)
#: Public address of the site, used for links in emails; unset, it follows the port the
#: development server was started on (`make run PORT=…` sets WEB_PORT).
SITE_URL = env.str(
    "SITE_URL", default=f"http://127.0.0.1:{env.int('WEB_PORT', default=8000)}").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "corsheaders",
    "allauth",
    "allauth.account",
    "oauth2_provider",
    "anymail",
    "django_guid",
    "accounts",
    "games",
    "notifications",
]

MIDDLEWARE = [
    # First: every answer carries X-Request-ID (the client's own, when it sent a UUID) and every
    # log line of the request names it (LOGGING's correlation_id filter).
    "django_guid.middleware.guid_middleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before CommonMiddleware, so its redirects and every API answer carry the CORS headers.
    "corsheaders.middleware.CorsMiddleware",
    # What the caller has left of its rate limits, on every API answer; a 304 is given back.
    "config.throttling.RateLimitHeadersMiddleware",
    # Inside CORS (its headers on every answer), outside the rest: any error answer under /api/
    # that is not JSON yet (Django's DEBUG pages, a bare 405) becomes the API's error body.
    "games.api.middleware.ApiJsonErrorsMiddleware",
    # ETag on every GET answer (a hash of what this caller gets), 304 on a matching
    # If-None-Match: pollers of a game or its log download nothing until it changes.
    "django.middleware.http.ConditionalGetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language from the cookie or Accept-Language; PlayerLanguageMiddleware below puts a
    # signed-in player's own choice first.
    "django.middleware.locale.LocaleMiddleware",
    # A control character in the query string (`?player=a%00b`) is a 400 before any view runs.
    "config.request_checks.RefuseControlCharactersMiddleware",
    # /api/v1/... with or without the final slash (the schema names paths without it).
    "games.api.middleware.ApiTrailingSlashMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.PlayerTimezoneMiddleware",
    "accounts.middleware.PlayerLanguageMiddleware",
    "notifications.inbound.webhooks.InboundWebhookGuard",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{DATA_DIR / 'turnpost.sqlite3'}")
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
# A reused connection that PostgreSQL dropped (restart, failover) is replaced before the request
# uses it, instead of failing that request.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Behind PgBouncer in transaction mode a server-side cursor (`.iterator()`) may meet another
# server connection on its next fetch: set this there (docs/scaling.md).
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = env.bool(
    "DATABASE_DISABLE_SERVER_SIDE_CURSORS", default=False)
#: Under ASGI every request runs in a thread of its own, so a persistent (CONN_MAX_AGE)
#: connection belongs to a thread that ends with the request: one new connection per request,
#: and PostgreSQL's connection limit is soon reached under load. A pool per process
#: (psycopg_pool, Django 5.1+) hands each request a connection and takes it back; on by default
#: in production (DJANGO_DEBUG=false) on PostgreSQL.
DATABASE_POOL_SIZE = env.int("DATABASE_POOL_SIZE", default=0 if DEBUG else 8)
#: Seconds a request waits for a pooled connection (all taken, or the database unreachable)
#: before it is answered 503.
DATABASE_POOL_TIMEOUT = env.float("DATABASE_POOL_TIMEOUT", default=10.0)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DATABASE_POOL_SIZE:
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps the connections instead
    # With a pool, Django hands this to psycopg_pool as `check=ConnectionPool.check_connection`:
    # each connection is tested as it leaves the pool, so the first request after PostgreSQL
    # dropped the pool's connections (a restart) gets a fresh one instead of a 503.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1, "max_size": DATABASE_POOL_SIZE, "timeout": DATABASE_POOL_TIMEOUT}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web, worker and beat share one SQLite file: wait for locks instead of failing at once.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
    # Tests on a file, as served, not Django's shared-cache memory database: there a second
    # connection's write fails at once ("database table is locked") instead of waiting, so the
    # tests of racing requests could not pass. pytest-django adds each xdist worker's suffix.
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / "test-turnpost.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def _redis_db(url: str, db: int) -> str:
    """The same Redis server with another database number (the cache must not share the
    broker's database: clearing it would drop queued tasks)."""
    base, _, last = url.rstrip("/").rpartition("/")
    return f"{base}/{db}" if last.isdigit() and "//" in base else f"{url.rstrip('/')}/{db}"


#: Seconds a cache (Redis) connection or command may take. The cache holds only what the site
#: can do without (rate-limit counters, cached sessions backed by the database) and fails open,
#: so an unreachable Redis must cost a request little time.
REDIS_CACHE_TIMEOUT = env.float("REDIS_CACHE_TIMEOUT", default=1.0)
#: An operation skipped because Redis is unreachable is logged (with its error), under this name.
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
DJANGO_REDIS_LOGGER = "config.cache"
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "config.cache.FailOpenRedisCache",
                          "LOCATION": env.str("REDIS_CACHE_URL", default=_redis_db(REDIS_URL, 1)),
                          "OPTIONS": {"IGNORE_EXCEPTIONS": True,
                                      "SOCKET_CONNECT_TIMEOUT": REDIS_CACHE_TIMEOUT,
                                      "SOCKET_TIMEOUT": REDIS_CACHE_TIMEOUT}}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                          "LOCATION": str(DATA_DIR / "cache")}}
#: Per process, least recently used dropped first: games' rendered views (games.selectors.views)
#: and the texts within them (games.presentation.texts); both never go stale by themselves.
CACHES["views"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                   "LOCATION": "views", "TIMEOUT": None, "OPTIONS": {"MAX_ENTRIES": 256}}
CACHES["texts"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                   "LOCATION": "texts", "TIMEOUT": None, "OPTIONS": {"MAX_ENTRIES": 20_000}}
#: Live events (games/bus.py): Redis pub/sub channels ignore database numbers, so every channel
#: name starts with this prefix; give each deployment sharing a Redis server its own.
EVENTS_CHANNEL_PREFIX = env.str("EVENTS_CHANNEL_PREFIX", default="turnpost")
EVENTS_PUBLISH_TIMEOUT = env.float("EVENTS_PUBLISH_TIMEOUT", default=1.0)
#: Event streams: a comment line this often keeps proxies from closing an idle stream.
STREAM_HEARTBEAT_SECONDS = env.float("STREAM_HEARTBEAT_SECONDS", default=15.0)
#: Without Redis one process relays new log entries from the database, this often (one small
#: indexed query; a bot's reply shows on the page within this of its commit).
STREAM_POLL_SECONDS = env.float("STREAM_POLL_SECONDS", default=0.25)
#: Open streams whose token, session, account or sight of the game ended are closed within
#: this (games/api/stream_access.py); at most this many streams per player and per address.
STREAM_ACCESS_CHECK_SECONDS = env.float("STREAM_ACCESS_CHECK_SECONDS", default=2.0)
STREAM_MAX_PER_USER = env.int("STREAM_MAX_PER_USER", default=20)
STREAM_MAX_PER_ADDRESS = env.int("STREAM_MAX_PER_ADDRESS", default=50)
#: Webhooks (notifications/webhooks.py): attempts per payload, the first retry's delay (doubled
#: each time), deliveries failed in a row before a webhook is turned off, seconds per request.
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", default=6)
WEBHOOK_RETRY_BASE_SECONDS = env.float("WEBHOOK_RETRY_BASE_SECONDS", default=30.0)
WEBHOOK_DISABLE_AFTER = env.int("WEBHOOK_DISABLE_AFTER", default=5)
WEBHOOK_TIMEOUT = env.float("WEBHOOK_TIMEOUT", default=10.0)
#: Development and tests only: lets webhooks go to http:// and internal addresses (loopback,
#: private networks), which production refuses.
ALLOW_LOCAL_DELIVERY_TARGETS = env.bool("ALLOW_LOCAL_DELIVERY_TARGETS", default=False)
#: Outbound https (config/outbound.py) trusts the CAs in this PEM file instead of the system's
#: (a private CA; the tests' own certificate). Empty: the system's.
OUTBOUND_CA_FILE = env.str("OUTBOUND_CA_FILE", default="")
#: Sessions live in the database and are read through the cache (never in the cache alone): a
#: Redis outage misses the cache and reads the database, so it logs nobody out. Django's cached_db,
#: through the process's cache object (accounts/sessions.py).
SESSION_ENGINE = "accounts.sessions"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "games:lobby"
SITE_ID = 1

# django-allauth: sign in with username or email; a new player confirms the address first
# (see ACCOUNT_EMAIL_VERIFICATION below), and a confirmed address is needed for email play.
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
# "mandatory": a new player confirms the address before the first login. That is what lets
# signup answer the same whether or not the address is registered (a known address gets an
# "you already have an account" email instead of an error); "optional" lets players in at once
# but tells a stranger which addresses have accounts.
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="mandatory")
# Following the link in the browser that signed up signs the new player in (allauth only does
# so for the session that made the signup, so a forwarded link logs nobody in elsewhere).
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_UNIQUE_EMAIL = True
# Signup and password reset never reveal whether an address has an account.
ACCOUNT_PREVENT_ENUMERATION = True
# Failed logins are counted per account (accounts.adapter), shared by the web login and the
# API token login: LOGIN_FAILURES_PER_ACCOUNT wrong passwords within LOGIN_FAILURE_WINDOW_SECONDS
# lock that account's password login for the rest of the window, from any address.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
LOGIN_FAILURES_PER_ACCOUNT = env.int("LOGIN_FAILURES_PER_ACCOUNT", default=5)
LOGIN_FAILURE_WINDOW_SECONDS = env.int("LOGIN_FAILURE_WINDOW_SECONDS", default=300)
LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE = env.int("LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE",
                                                default=10)
ACCOUNT_RATE_LIMITS = {
    "login_failed": f"{LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE}/m/ip,"
                    f"{LOGIN_FAILURES_PER_ACCOUNT}/{LOGIN_FAILURE_WINDOW_SECONDS}s/key",
}
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if not DEBUG else "http"

# The players' languages: English, Persian (right to left), Simplified Chinese and Italian.
# Signed-in players read their own choice (`User.language`); visitors get Accept-Language.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("fa", "فارسی"),
    ("zh-hans", "简体中文"),
    ("it", "Italiano"),
]
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "games" / "engines" / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(DATA_DIR / "static")))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
# `make run` serves with uvicorn, not runserver: WhiteNoise finds static files in place.
WHITENOISE_USE_FINDERS = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# ---- email and play by email: config/email_settings.py ----------------------------------------
from config.email_settings import *  # noqa: E402,F403

# ---- REST API ----------------------------------------------------------------------------------
#: Larger API request bodies are refused with 413; deeper JSON with 400.
API_MAX_BODY_BYTES = env.int("API_MAX_BODY_BYTES", default=256 * 1024)
API_MAX_JSON_DEPTH = env.int("API_MAX_JSON_DEPTH", default=32)
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.api.authentication.TokenOrBearerAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "games.api.pagination.Pagination",
    "PAGE_SIZE": 25,
    # The counters live in the cache, which fails open: with Redis unreachable nothing is limited.
    "DEFAULT_THROTTLE_CLASSES": [
        "config.throttling.AnonRateThrottle",
        "config.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("API_THROTTLE_ANON", default="60/min"),
        "user": env.str("API_THROTTLE_USER", default="600/min"),
        "token": env.str("API_THROTTLE_TOKEN", default="10/min"),
        "chat": env.str("API_THROTTLE_CHAT", default="20/min"),
    },
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    # JSON only (forms are for the HTML pages), bounded in size and depth: see games/api/parsers.py.
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.BoundedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "games.api.schema.ErrorDocumentingSchema",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
# Browser clients on other sites (a web client of the API) from these origins only, and only
# under /api/. Credentials are not shared: such clients send an API token, never our cookies.
from config.oauth import OAUTH2_PROVIDER  # noqa: E402,F401 - OAuth 2 for apps

# http redirect URIs only to loopback, checked where apps are registered (config/oauth.py).
SILENCED_SYSTEM_CHECKS = ["oauth2_provider.W008"]

CORS_ALLOWED_ORIGINS = env.list("CORS_ALLOWED_ORIGINS", default=[])
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_HEADERS = (*cors_default_headers, "idempotency-key", "if-none-match", "x-request-id")
CORS_EXPOSE_HEADERS = ["ETag", "Retry-After", "Location", "Link", "X-Request-ID",
                       "RateLimit-Policy", "RateLimit", "X-RateLimit-Limit",
                       "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Resource",
                       "Idempotent-Replayed"]
CORS_PREFLIGHT_MAX_AGE = 86400

# X-Request-ID (django-guid): a client's own UUID is kept, anything else replaced by a new one.
# Its Celery integration carries the id into the tasks a request queues (a message header; a
# task queued by the beat gets one of its own), and has the worker log with LOGGING, so each
# task's lines name the request that queued it.
DJANGO_GUID = {"GUID_HEADER_NAME": "X-Request-ID", "VALIDATE_GUID": True, "RETURN_HEADER": True,
               "EXPOSE_HEADER": False,  # corsheaders exposes it (CORS_EXPOSE_HEADERS)
               "INTEGRATIONS": [CeleryIntegration(use_django_logging=True)]}

SPECTACULAR_SETTINGS = {
    "TITLE": "Turnpost API",
    "DESCRIPTION": (
        "Play heavy board games slowly: lobby, moves and logs for third-party clients.\n\n"
        "Authenticate with a personal access token (`Authorization: Bearer <token>`). Every "
        "error answers `{code, message, details}`. The actions and views of each game are "
        "described as JSON Schemas at `GET /api/v1/engines/{slug}/`.\n\n"
        "Writing a bot or an app? Start with the guide [Writing a client](/api/writing-a-client/)."
    ),
    "SERVERS": [{"url": SITE_URL, "description": "This server"}],
    "TAGS": [
        {"name": "account", "description": "Who you are, and your games."},
        {"name": "tokens", "description": "Personal access tokens and the password login."},
        {"name": "engines", "description": "The games on offer, their options and JSON Schemas."},
        {"name": "games", "description": "The lobby and a game's life: create, join, start."},
        {"name": "moves", "description": "Legal actions, moves, resigning, log and export."},
        {"name": "chat", "description": "A game's chat."},
        {"name": "players", "description": "Public profiles, ratings and leaderboards."},
        {"name": "webhooks", "description": "Your webhooks and their delivery logs."},
        {"name": "moderation", "description": "Reports to the moderators."},
        {"name": "streams", "description": "Server-Sent Events: a game's changes, your notices."},
    ],
    "VERSION": "1.0.0",
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs pages load Swagger UI and Redoc from our static files, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "games.api.schema.declare_nullable_types",
                             "games.api.schema.paths_without_trailing_slash",
                             "games.api.stream_schema.add_event_streams",
                             "games.api.schema.declare_response_headers"],
    # Several models have a `status`; name each enum after its model so clients get stable names.
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.models.GameStatus",
        "ReportStatusEnum": "games.models.ReportStatus",
        "WebhookKindsEnum": "notifications.api.WEBHOOK_KIND_CHOICES",
        "GameWebhookKindsEnum": "notifications.api.GAME_WEBHOOK_KIND_CHOICES",
        "ErrorCodeEnum": "games.api.errors.ERROR_CODES",
    },
}

# ---- Celery: config/celery_settings.py ---------------------------------------------------------
from config.celery_settings import *  # noqa: E402,F403

# ---- security ----------------------------------------------------------------------------------
#: How many reverse proxies we run in front of the app. Each appends the address it saw to
#: X-Forwarded-For, so the client is the NUM_PROXIES-th address from the right; with 0 (the
#: default: nothing in front) the header is ignored and REMOTE_ADDR names the client. A larger
#: number than the real one lets clients choose their own address for every rate limit.
NUM_PROXIES = env.int("NUM_PROXIES", default=0)
REST_FRAMEWORK["NUM_PROXIES"] = NUM_PROXIES  # DRF throttles (token login, chat, anon, user)
ALLAUTH_TRUSTED_PROXY_COUNT = NUM_PROXIES  # allauth's login, signup and reset rate limits
# (gunicorn trusts X-Forwarded-Proto only from FORWARDED_ALLOW_IPS: see config/gunicorn.py.)

# Content-Security-Policy (django-csp): scripts and <style> elements only from our own static
# files or carrying this response's nonce ({{ request.csp_nonce }}); style attributes stay
# allowed (allauth and DRF templates hide elements with them; they cannot run code).
from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE  # noqa: E402 - kept with its use

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

if not DEBUG:
    # No SECURE_PROXY_SSL_HEADER: gunicorn passes X-Forwarded-Proto on to everyone but only
    # believes it from FORWARDED_ALLOW_IPS (config/gunicorn.py), so Django takes the scheme
    # from gunicorn and a client talking to gunicorn directly cannot claim https.
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Each line names its request's X-Request-ID (None outside a request).
    "filters": {"correlation_id": {"()": "django_guid.log_filters.CorrelationId"}},
    "formatters": {"request_id": {
        "format": "[%(correlation_id)s] %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["correlation_id"],
                             "formatter": "request_id"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # Not a line per request for each id it makes or each client id it replaces.
    "loggers": {"django_guid": {"level": "ERROR"}},
}
