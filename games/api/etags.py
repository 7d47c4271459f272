"""Conditional GETs of a game's API answers (the game, its legal actions, its log): a weak ETag
computed before anything is rendered, from the game's stamp (games.selectors.game_stamp, one
query) and what decides the answer for this caller, and a 304 answered from that query alone.

A weak validator (RFC 9110 §8.8.1) marks answers that mean the same, not byte-equal ones: the
game's `time_left_seconds` keep counting down under one ETag (they are as of the answer's Date;
`deadline_at` is what a client counts from). Everything else the answer shows is in the tag:
the stamp (version, status, seats, clocks, names, vacations, ratings), the caller (user, seat,
timezone), the language, the media type, the host and the query string, and REPRESENTATION.
The tag is an HMAC under the secret key, so it says nothing of what it covers and a client
cannot make one up for another caller's answer. The answers are private to their caller: no
shared cache may store them, and a cache in the caller's own client revalidates every time.
"""

from __future__ import annotations

from django.http import HttpResponseNotModified
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.crypto import salted_hmac
from django.utils.http import parse_etags

from games.engines.registry import get_engine
from games.presentation.texts import reader_language
from games.selectors.stamps import GameStamp

#: Raise it with a release that changes what a game's answers say without changing a game (their
#: shape, a translation catalog, a migration that rewrites log texts), so that no client keeps
#: an old body under a 304.
REPRESENTATION = 1
#: What a private answer varies on besides its URL (the caller, the language, the media type).
VARY = ("Authorization", "Cookie", "Accept-Language", "Accept")


def game_etag(request, stamp: GameStamp, *, answer: str) -> str | None:
    """The weak ETag of `answer` ("game", "actions", "log") for this request, or None for an
    answer that gets none of its own (the browsable API's HTML, which carries a fresh CSRF
    token and script nonce each time)."""
    renderer = getattr(request, "accepted_renderer", None)
    if renderer is None or renderer.format != "json":
        return None
    user = request.user
    viewer = ((user.pk, stamp.viewer_seat(user), user.timezone) if user.is_authenticated
              else (None, None, None))
    covered = (REPRESENTATION, answer, get_engine(stamp.engine).rules_version, stamp.values,
               viewer, reader_language(request), timezone.get_current_timezone_name(),
               request.accepted_media_type, request.get_host(), request.path,
               sorted(request.query_params.lists()))
    digest = salted_hmac("games.api.conditional", repr(covered), algorithm="sha256")
    return f'W/"{digest.hexdigest()[:32]}"'


def _weak(tag: str) -> str:
    return tag.removeprefix("W/")


def not_modified(request, etag: str | None):
    """A 304 (with the validator's headers) when the request's If-None-Match holds `etag`
    (weak comparison, as RFC 9110 asks for If-None-Match), else None."""
    header = request.headers.get("If-None-Match")
    if etag is None or not header:
        return None
    sent = parse_etags(header)
    if "*" not in sent and _weak(etag) not in {_weak(tag) for tag in sent}:
        return None
    return private(HttpResponseNotModified(), etag)


def private(response, etag: str | None):
    """Marks a game answer as the caller's own: `private, no-cache` (stored by the caller's
    client at most, and revalidated), varying on the caller, and its ETag when it has one (the
    ConditionalGetMiddleware then leaves it as it is instead of hashing the body)."""
    if etag is not None:
        response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, VARY)
    return response
