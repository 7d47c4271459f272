"""django-anymail's inbound webhooks as an entrance for play by email: the signal receiver's work,
and a middleware around anymail's webhook views."""

# The middleware refuses to serve them without ANYMAIL_WEBHOOK_SECRET (503; development makes one
# in DATA_DIR, config/settings.py), so anymail's basic auth guards every delivery in every mode;
# and it turns what a malformed or oversized delivery raises inside anymail into a recorded
# refusal answered 200, since providers retry every other status.

from __future__ import annotations

import hashlib
import logging
import uuid

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse

from notifications.inbound import trust

logger = logging.getLogger(__name__)


def webhook_email_receive(*, event, esp_name: str):
    """One message from anymail's `inbound` signal, with the provider's own SPF/DKIM/DMARC
    fields (see `trust.provider_verdicts`)."""
    from notifications.inbound.services import inbound_email_receive

    verdicts = trust.provider_verdicts(esp_name, getattr(event, "esp_event", None), event.message)
    return inbound_email_receive(message=event.message, channel=f"webhook:{esp_name}".lower(),
                                 provider_verdicts=verdicts)


def webhook_secret_missing() -> bool:
    """Inbound webhooks would take posts from anyone: no ANYMAIL_WEBHOOK_SECRET (in any mode)."""
    return not settings.ANYMAIL.get("WEBHOOK_SECRET")


def _anymail_view_class(view_func):
    from anymail.webhooks.base import AnymailCoreWebhookView

    view_class = getattr(view_func, "view_class", None)
    if isinstance(view_class, type) and issubclass(view_class, AnymailCoreWebhookView):
        return view_class
    return None


class InboundWebhookGuard:
    """Middleware for django-anymail's webhook views only (every other view passes untouched)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        view_class = _anymail_view_class(view_func)
        if view_class is None:
            return None
        if webhook_secret_missing():
            logger.error("inbound webhook refused: ANYMAIL_WEBHOOK_SECRET is not set")
            return HttpResponse("Inbound email webhooks are switched off: this site runs "
                                "without ANYMAIL_WEBHOOK_SECRET.", status=503,
                                content_type="text/plain")
        request.inbound_webhook_view = (view_class, getattr(view_func, "view_initkwargs", {}))
        return None

    def process_exception(self, request, exception):
        from anymail.exceptions import AnymailConfigurationError, AnymailWebhookValidationFailure
        from django.core.exceptions import ImproperlyConfigured

        from notifications.inbound.services import _transient_errors

        found = getattr(request, "inbound_webhook_view", None)
        if found is not None and isinstance(exception, (AnymailConfigurationError,
                                                        ImproperlyConfigured)):
            # Our configuration: loud in the error log, and a plain 503 (the provider retries)
            # instead of a 500 page for a provider this site has no keys for.
            logger.error("inbound webhook refused: %s", exception)
            return HttpResponse("This inbound email webhook is not configured on this site.",
                                status=503, content_type="text/plain")
        if found is None or isinstance(exception, (AnymailWebhookValidationFailure,
                                                   *_transient_errors())):
            # anymail's own 400, or a passing fault the provider's retry will get past.
            return None
        view_class, initkwargs = found
        if not _authenticated(request, view_class, initkwargs):
            return None
        esp_name = view_class.esp_name.lower() if isinstance(view_class.esp_name, str) else ""
        _record_failed_delivery(request, channel=f"webhook:{esp_name}", exception=exception)
        return HttpResponse()


def _authenticated(request, view_class, initkwargs) -> bool:
    """Whether the delivery passes anymail's own checks (basic auth, the provider's signature),
    so a stranger's post is never recorded. A body too large to read is judged by basic auth
    alone, the one check that needs no body."""
    from anymail.webhooks.base import AnymailBasicAuthMixin

    view = view_class(**initkwargs)
    try:
        view.run_validators(request)
    except RequestDataTooBig:
        try:
            AnymailBasicAuthMixin.validate_request(view, request)
        except Exception:  # any failure means "not authenticated"
            return False
        return bool(view.basic_auth)
    except Exception:  # any failure means "not authenticated"
        return False
    return True


def _record_failed_delivery(request, *, channel: str, exception: Exception) -> None:
    from django.utils import timezone

    from notifications.inbound.services import inbound_too_large_receive
    from notifications.models import InboundMessage, InboundStatus

    now = timezone.now()
    size = int(request.META.get("CONTENT_LENGTH") or 0)
    if isinstance(exception, RequestDataTooBig):
        # The body was never read: no sender to answer, only the size to record.
        inbound_too_large_receive(head=b"", size=size, channel=channel, now=now,
                                  message_id=f"<too-large-{uuid.uuid4().hex}@turnpost.invalid>")
        return
    try:
        body = request.body
    except Exception:  # a body that cannot be read is recorded without it
        body = b""
    digest = hashlib.sha256(body).hexdigest()
    logger.warning("inbound webhook delivery could not be parsed: %s", exception)
    InboundMessage.objects.get_or_create(
        message_id=f"<malformed-{digest}@turnpost.invalid>",
        defaults={"channel": channel[:40], "received_at": now, "raw": body[:64 * 1024],
                  "status": InboundStatus.REFUSED, "reason": "malformed",
                  "detail": f"The provider's delivery could not be read: "
                            f"{type(exception).__name__}: {exception}"[:2000].replace("\x00", "")})
