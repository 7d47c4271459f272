"""Django's database sessions, read with one statement made once (config.prepared_sql): every
page and poll of a signed-in player reads its session first, and the ORM spent more CPU
building that read than the database spent running it. Writes are Django's own."""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db import connections
from django.utils import timezone

from config.prepared_sql import PreparedRead

_SESSION_READ = PreparedRead(
    Session, where="{table}.session_key = %s AND {table}.expire_date > %s")


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        connection = connections[Session.objects.db]
        session = _SESSION_READ.first(
            [self.session_key, connection.ops.adapt_datetimefield_value(timezone.now())])
        if session is None:
            self._session_key = None
        return session
