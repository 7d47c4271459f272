"""The signed token in a play-by-email Reply-To address (play+TOKEN@example.org)."""

# The token binds a player, a game and the game version the email showed, plus where the listed
# choices started (for "more"). It must fit an address local part (at most 64 characters) and
# survive mail systems that lower-case addresses, so it is base36 fields and a base32 MAC instead of
# `signing.dumps` output (long, mixed-case base64). The MAC is `django.core.signing.Signer`'s HMAC,
# so SECRET_KEY_FALLBACKS rotation works as for every other signed value.

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.core import signing
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext

SALT = "notifications.inbound.reply-token"
#: Tokens count time in minutes since this moment, to keep them short.
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
MAC_BYTES = 10  # 80 bits: forging one needs ~2^79 guesses, each costing an email
_TOKEN = re.compile(r"^[0-9a-z]{1,13}(?:-[0-9a-z]{1,13}){4}-[a-z2-7]{16}$")


class BadToken(Exception):
    """The address carries no token we issued (unknown, mangled or forged)."""


class ExpiredToken(Exception):
    """A token we issued, but too old to act on. Carries the claims so we can still help."""

    def __init__(self, claims: ReplyClaims) -> None:
        super().__init__("expired")
        self.claims = claims


@dataclass(frozen=True)
class ReplyClaims:
    user_id: int
    game_id: int
    version: int
    issued_at: datetime
    #: Index of the first choice the email listed ("more" continues from the next page).
    offset: int = 0


def _base36(number: int) -> str:
    if number < 0:
        raise ValueError("negative")
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if number == 0:
            return out


def _mac(payload: str, key) -> str:
    signer = signing.Signer(salt=SALT, algorithm="sha256")
    raw = base64.urlsafe_b64decode(signer.signature(payload, key=key) + "==")
    return base64.b32encode(raw[:MAC_BYTES]).decode().lower()


def _keys() -> list:
    signer = signing.Signer(salt=SALT, algorithm="sha256")
    return [signer.key, *signer.fallback_keys]


def max_age() -> timedelta:
    return timedelta(days=settings.EMAIL_PLAY_TOKEN_MAX_AGE_DAYS)


def make_token(*, user_id: int, game_id: int, version: int, offset: int = 0,
               now: datetime | None = None) -> str:
    now = now or timezone.now()
    minutes = max(int((now - EPOCH).total_seconds() // 60), 0)
    payload = "-".join(_base36(n) for n in (user_id, game_id, version, minutes, offset))
    return f"{payload}-{_mac(payload, _keys()[0])}"


def read_token(token: str, *, now: datetime | None = None) -> ReplyClaims:
    """The claims of a token we issued; raises BadToken, or ExpiredToken when too old."""
    token = token.strip().lower()
    if not _TOKEN.match(token):
        raise BadToken(gettext("not a reply token"))
    payload, _, mac = token.rpartition("-")
    if not any(constant_time_compare(mac, _mac(payload, key)) for key in _keys()):
        raise BadToken(gettext("bad signature"))
    user_id, game_id, version, minutes, offset = (int(part, 36) for part in payload.split("-"))
    claims = ReplyClaims(user_id=user_id, game_id=game_id, version=version,
                         issued_at=EPOCH + timedelta(minutes=minutes), offset=offset)
    if (now or timezone.now()) - claims.issued_at > max_age():
        raise ExpiredToken(claims)
    return claims


# ---- addresses ----------------------------------------------------------------------------------


def play_address() -> str:
    """The base address replies go to (play@example.org); empty turns email play off."""
    return settings.EMAIL_PLAY_ADDRESS


def reply_address(token: str) -> str:
    local, _, domain = play_address().partition("@")
    return f"{local}+{token}@{domain}"


def token_from_addresses(addresses: list[str]) -> str | None:
    """The token in the first address of the form play+TOKEN@domain (domain not checked: a
    forwarding MTA may rewrite it; the signature is what counts)."""
    local = play_address().partition("@")[0].lower()
    pattern = re.compile(rf"(?:^|[<\s,:]){re.escape(local)}\+([0-9a-z-]+)@", re.IGNORECASE)
    for address in addresses:
        match = pattern.search(address or "")
        if match:
            return match.group(1).lower()
    return None
