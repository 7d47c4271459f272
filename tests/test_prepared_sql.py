"""The one read made once as SQL (config.prepared_sql: a token with its player) gives the
models the ORM gives: every field, of the same type, and the joined player, on PostgreSQL and
SQLite alike."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import PersonalAccessToken
from accounts.tokens import ALL_SCOPES, TokenInvalid, token_authenticate, token_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def assert_same_model(ours, theirs, *, same_types: bool = True) -> None:
    assert type(ours) is type(theirs)
    assert not ours._state.adding and ours._state.db == theirs._state.db
    for each in type(theirs)._meta.concrete_fields:
        mine, orm = getattr(ours, each.attname), getattr(theirs, each.attname)
        assert mine == orm, each.name
        assert type(mine) is type(orm) or not same_types, each.name


def test_the_token_read_is_the_orms():
    user = UserFactory()
    token, raw = token_create(user=user, name="client", scopes=ALL_SCOPES, via="test",
                              expires_at=datetime.now(UTC) + 30 * DAY)
    read = token_authenticate(raw)
    orm = PersonalAccessToken.objects.select_related("user").get(pk=token.pk)
    assert_same_model(read, orm)
    assert read.scopes == list(ALL_SCOPES)  # JSON, decoded as the field decodes it
    with CaptureQueriesContext(connection) as queries:
        assert_same_model(read.user, orm.user)
    assert len(queries) == 0  # the player came with the token
    with pytest.raises(TokenInvalid):
        token_authenticate(raw + "x")
