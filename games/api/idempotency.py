"""`Idempotency-Key` on every API POST that creates (a game, a token, a webhook, an invitation,
a chat message, a report): a retry with the same key answers the first answer again and creates
nothing; the same key with another request is refused (422 `idempotency_key_reused`).

Moves keep their record inside the move's own transaction (games.services.play); both use one
table and one check (`IdempotencyRecord.first_answer`). Here the record is claimed first, in the
transaction that runs the view: a second request with the same key waits on the unique index
until the first commits, then replays it (or, if the first failed and rolled back, runs)."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable

from django.db import IntegrityError, transaction
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from games.models import IdempotencyRecord

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 128

#: The request header, for `extend_schema(parameters=[...])` of each operation that takes it.
IDEMPOTENCY_KEY = OpenApiParameter(
    HEADER, OpenApiTypes.STR, OpenApiParameter.HEADER,
    description="Any unique string of 1 to 128 characters (a UUID): a retry with the same key "
                "answers the first answer again (with `Idempotent-Replayed: true`) and changes "
                "nothing; the same key with another request is refused (422 "
                "`idempotency_key_reused`). Keys are kept 7 days. A secret shown once (a token, "
                "a webhook's secret) is left out of a replay.")


def idempotency_key(request) -> str | None:
    """The request's key, None without one; a 400 for one out of bounds."""
    key = request.headers.get(HEADER) or None
    if key is not None and not 1 <= len(key) <= MAX_KEY_LENGTH:
        raise ValidationError({HEADER: gettext("Must be 1 to 128 characters.")})
    return key


def _fingerprint(request, leaving_out: tuple[str, ...] = ()) -> str:
    data = request.data
    if leaving_out and isinstance(data, dict):
        data = {name: value for name, value in data.items() if name not in leaving_out}
    body = json.dumps([request.method, request.path.rstrip("/"), data],
                      sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(body.encode()).hexdigest()


def _replay(record: IdempotencyRecord) -> Response:
    headers = {"Idempotent-Replayed": "true"}
    if record.location:
        headers["Location"] = record.location
    return Response(record.response, status=record.status_code, headers=headers)


def idempotent_answer(request, *, user, respond: Callable[[], Response],
                      secret_fields: tuple[str, ...] = (),
                      unfingerprinted: tuple[str, ...] = ()) -> Response:
    """`respond()`, once per Idempotency-Key of `user` (the caller): a retry gets the first
    answer again. `secret_fields` are shown once and never stored: a replay answers without
    them (a token is kept only as its digest). `unfingerprinted` body fields are left out of the
    stored fingerprint (a password: even its hash is not kept)."""
    key = idempotency_key(request) if request.method == "POST" else None
    if key is None or not user.is_authenticated:
        return respond()
    fingerprint = _fingerprint(request, unfingerprinted)
    with transaction.atomic():
        try:
            with transaction.atomic():
                record = IdempotencyRecord.objects.create(
                    user=user, key=key, request_fingerprint=fingerprint)
        except IntegrityError:
            record = IdempotencyRecord.first_answer(user=user, key=key, fingerprint=fingerprint)
            return _replay(record)
        response = respond()
        if response.status_code >= 400:
            transaction.set_rollback(True)  # nothing made: the key stays free
            return response
        data = response.data
        if isinstance(data, dict):
            data = {name: value for name, value in data.items() if name not in secret_fields}
        record.response = data
        record.status_code = response.status_code
        record.location = response.get("Location", "")
        record.save(update_fields=["response", "status_code", "location"])
    return response


def idempotent(*, secret_fields: tuple[str, ...] = ()):
    """Decorates a DRF view's POST handler (see `idempotent_answer`), for the signed-in
    caller."""

    def decorate(handler):
        @functools.wraps(handler)
        def handle(view, request, *args, **kwargs):
            return idempotent_answer(
                request, user=request.user, secret_fields=secret_fields,
                respond=lambda: handler(view, request, *args, **kwargs))

        return handle

    return decorate

