"""Open event streams end when their access ends.

A stream is checked when it opens (games/api/streams.py); it then stays open for hours. Each
stream hands the hub (games/live/hub.py) what let it in, a `StreamAccess`: the token (or the
session and the password it was opened under), the user, and the game with the viewer's seat.
Every STREAM_ACCESS_CHECK_SECONDS the hub asks `lost_access` about all the streams of its
process at once; a stream whose token was revoked or expired, whose session ended or password
changed, whose player was banned or deactivated, or whose viewer may no longer see the game (or
sits elsewhere now) gets a `closed` event with the reason and is closed.

The check reads the database in a fixed number of queries, whatever the number of streams:
tokens, OAuth tokens, legacy tokens, users (with a ban), sessions, and games, seats and
invitations (at most eight, those no stream needs skipped). Token expiry is timed here, without a
query.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.crypto import salted_hmac
from oauth2_provider.models import get_access_token_model

from accounts.models import PersonalAccessToken, Sanction, User
from accounts.oauth import is_oauth_token
from games.live import hub as live
from games.selectors.access import sight_of

# One check of 200 open streams (100 by token on 50 games, half of them private; 100 by session;
# 200 players), measured on the project's 2-core machine under other load
# (tests/live/test_stream_access.py): 5 queries of about 1 ms each, 13-18 ms in all, in a worker
# thread every STREAM_ACCESS_CHECK_SECONDS (2 s) per web process: under 1 % of a core. The
# queries grow with the ids they name, not in number.


@dataclass(frozen=True)
class StreamAccess:
    """What let a stream in, kept for as long as it is open."""

    user_id: int | None
    #: A personal access token (accounts.tokens) by id, with its expiry, timed here.
    token_id: int | None = None
    expires_at: datetime | None = None
    #: An OAuth app's access token (accounts.oauth) by id; revoking deletes it.
    oauth_token_id: int | None = None
    #: A token from the password login of earlier versions (deleted on a password change).
    legacy_token_key: str | None = None
    #: A session cookie, and a mark of the password the stream opened under.
    session_key: str | None = None
    password_mark: str | None = None
    #: The game stream's game and the viewer's seat (None: a spectator).
    game_id: int | None = None
    seat: int | None = None


def access_of(request, user, credentials) -> StreamAccess:
    """The StreamAccess of a stream opened by `user` with `credentials` (the token, or None for
    the session cookie or nobody)."""
    from rest_framework.authtoken.models import Token

    user_id = user.pk if user.is_authenticated else None
    if isinstance(credentials, PersonalAccessToken):
        return StreamAccess(user_id, token_id=credentials.pk, expires_at=credentials.expires_at)
    if isinstance(credentials, Token):
        return StreamAccess(user_id, legacy_token_key=credentials.key)
    if is_oauth_token(credentials):
        return StreamAccess(user_id, oauth_token_id=credentials.pk, expires_at=credentials.expires)
    if user_id is None:
        return StreamAccess(None)
    return StreamAccess(user_id, session_key=request.session.session_key,
                        password_mark=password_mark(user.password))


def password_mark(password_hash: str) -> str:
    """What tells a password change (as Django's session hash does), without keeping the
    password's hash itself."""
    return salted_hmac("games.api.stream_access.password_mark", password_hash,
                       algorithm="sha256").hexdigest()


def lost_access(accesses: list[StreamAccess], now: datetime | None = None) -> dict[int, str]:
    """Which of `accesses` (by index) lost their access, and why (the `closed` event's
    reason)."""
    now = now or timezone.now()
    lost: dict[int, str] = {}
    for index, access in enumerate(accesses):
        if access.expires_at is not None and access.expires_at <= now:
            lost[index] = "token_expired"
    _check_tokens(accesses, lost)
    _check_users(accesses, lost)
    _check_sessions(accesses, lost, now)
    _check_games(accesses, lost)
    return lost


def _still_open(accesses, lost):
    return ((index, access) for index, access in enumerate(accesses) if index not in lost)


def _check_tokens(accesses, lost) -> None:
    from rest_framework.authtoken.models import Token

    token_ids = {access.token_id for _, access in _still_open(accesses, lost) if access.token_id}
    if token_ids:
        live_ids = set(PersonalAccessToken.objects.filter(
            pk__in=token_ids, revoked_at__isnull=True).values_list("pk", flat=True))
        for index, access in _still_open(accesses, lost):
            if access.token_id and access.token_id not in live_ids:
                lost[index] = "token_revoked"
    oauth_ids = {access.oauth_token_id for _, access in _still_open(accesses, lost)
                 if access.oauth_token_id}
    if oauth_ids:
        live_ids = set(get_access_token_model().objects.filter(pk__in=oauth_ids)
                       .values_list("pk", flat=True))
        for index, access in _still_open(accesses, lost):
            if access.oauth_token_id and access.oauth_token_id not in live_ids:
                lost[index] = "token_revoked"
    keys = {access.legacy_token_key for _, access in _still_open(accesses, lost)
            if access.legacy_token_key}
    if keys:
        live_keys = set(Token.objects.filter(key__in=keys).values_list("key", flat=True))
        for index, access in _still_open(accesses, lost):
            if access.legacy_token_key and access.legacy_token_key not in live_keys:
                lost[index] = "token_revoked"


def _check_users(accesses, lost) -> None:
    user_ids = {access.user_id for _, access in _still_open(accesses, lost) if access.user_id}
    if not user_ids:
        return
    banned = Sanction.objects.bans_in_force().filter(user=OuterRef("pk"))
    users = {pk: (active, password, is_banned) for pk, active, password, is_banned in
             User.objects.filter(pk__in=user_ids).annotate(banned=Exists(banned))
             .values_list("pk", "is_active", "password", "banned")}
    marks: dict[int, str] = {}
    for index, access in _still_open(accesses, lost):
        if access.user_id is None:
            continue
        found = users.get(access.user_id)
        if found is None or not found[0]:
            lost[index] = "account_inactive"
        elif found[2]:
            lost[index] = "account_banned"
        elif access.password_mark is not None:
            if access.user_id not in marks:
                marks[access.user_id] = password_mark(found[1])
            if marks[access.user_id] != access.password_mark:
                lost[index] = "password_changed"


def _check_sessions(accesses, lost, now) -> None:
    from importlib import import_module

    keys = {access.session_key for _, access in _still_open(accesses, lost)
            if access.password_mark is not None}
    if not keys:
        return
    model = import_module(settings.SESSION_ENGINE).SessionStore.get_model_class()
    live_keys = set(model.objects.filter(session_key__in=keys, expire_date__gt=now)
                    .values_list("session_key", flat=True))
    for index, access in _still_open(accesses, lost):
        if access.password_mark is not None and access.session_key not in live_keys:
            lost[index] = "signed_out"


def _check_games(accesses, lost) -> None:
    watchers = {(access.game_id, access.user_id) for _, access in _still_open(accesses, lost)
                if access.game_id is not None}
    if not watchers:
        return
    sight = sight_of(watchers)
    for index, access in _still_open(accesses, lost):
        if access.game_id is None:
            continue
        pair = (access.game_id, access.user_id)
        if pair not in sight:
            lost[index] = "not_visible"
        elif sight[pair] != access.seat:
            lost[index] = "seat_changed"  # its events were rendered for the old seat


live.ACCESS_CHECK = lost_access
