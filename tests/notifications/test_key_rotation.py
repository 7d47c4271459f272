"""Rotating DJANGO_SECRET_KEY with the old key in DJANGO_SECRET_KEY_FALLBACKS keeps the reply
addresses of emails already sent working; without the fallback they are refused."""

import pytest

from notifications.inbound.tokens import BadToken, make_token, read_token


def test_a_reply_address_survives_a_key_rotation_only_with_the_fallback(settings):
    settings.SECRET_KEY = "the-old-key-" + "x" * 40
    token = make_token(user_id=7, game_id=3, version=12)
    settings.SECRET_KEY = "the-new-key-" + "y" * 40
    settings.SECRET_KEY_FALLBACKS = []
    with pytest.raises(BadToken):
        read_token(token)
    settings.SECRET_KEY_FALLBACKS = ["the-old-key-" + "x" * 40]
    claims = read_token(token)
    assert (claims.user_id, claims.game_id, claims.version) == (7, 3, 12)
