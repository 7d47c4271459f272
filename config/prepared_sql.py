"""The project's hand-written SQL, all of it: the reads on the hottest paths, each written once
per database and handed straight to the cursor.

Measured reason (docs/architecture.md, "Hand-written SQL"; `make bench
PYTEST_ARGS=tests/perf/test_request_costs.py`): Django's ORM builds a statement anew on every
query, and for these short reads building it costs more CPU than the database spends running
it (the stamp's four joins and subquery: ~3 ms to build, ~0.3 ms to run and read). Each read
below saves ≥ 15 % of the CPU of the request it serves, measured side by side in one run;
tests/test_prepared_sql.py checks each against the ORM query it stands for, field by field, on
PostgreSQL and SQLite.

The SQL names tables and columns through the models' metadata: `{g}` is alias g's table (quoted,
followed by its alias), `{g.field}` that field's column. Every value read goes through its
field's conversions from the database, as the ORM's own reads do; model rows through
`Model.from_db`, a joined model cached on its foreign key. Models are named by label, so
`config` imports none of the apps.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.db import connections, models, router
from django.db.models.expressions import RawSQL
from django.db.transaction import TransactionManagementError

_NAME = re.compile(r"\{(\w+)(?:\.(\w+))?\}")


def _converters(expression, connection) -> tuple:
    """The conversions the ORM applies to a value of `expression` read from `connection`."""
    return tuple(connection.ops.get_db_converters(expression)
                 + expression.get_db_converters(connection))


def _convert(row: Sequence[Any], converters: Sequence, connection) -> list[Any]:
    values = list(row)
    for index, (expression, steps) in enumerate(converters):
        for convert in steps:
            values[index] = convert(values[index], expression, connection)
    return values


class _Names:
    """`{alias}` and `{alias.field}` of a statement's text, from the models' metadata."""

    def __init__(self, tables: dict[str, str], connection) -> None:
        self.models = {alias: apps.get_model(label) for alias, label in tables.items()}
        self.quote = connection.ops.quote_name

    def field(self, alias: str, name: str) -> models.Field:
        return self.models[alias]._meta.get_field(name)

    def render(self, text: str) -> str:
        def name(match: re.Match) -> str:
            alias, field_name = match.groups()
            if field_name is None:
                return f"{self.quote(self.models[alias]._meta.db_table)} {alias}"
            return f"{alias}.{self.quote(self.field(alias, field_name).column)}"

        return _NAME.sub(name, text)


@dataclass
class PreparedValues:
    """Rows of values, as `values_list` gives them: `select` is a list of `alias.field`, or of
    (SQL, `alias.field` whose type the value has) for a computed column; `sql` the rest of the
    statement (FROM ... WHERE ...). `tables`: alias -> model label."""

    tables: dict[str, str]
    select: list[str | tuple[str, str]]
    sql: str
    _statements: dict[str, tuple[str, tuple]] = field(default_factory=dict, repr=False)

    def rows(self, params: Sequence[Any], using: str | None = None) -> list[list[Any]]:
        connection = connections[using or router.db_for_read(
            apps.get_model(next(iter(self.tables.values()))))]
        sql, converters = self._statement(connection)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        return [_convert(row, converters, connection) for row in rows]

    def _statement(self, connection) -> tuple[str, tuple]:
        statement = self._statements.get(connection.alias)
        if statement is None:
            names = _Names(self.tables, connection)
            columns, converters = [], []
            for item in self.select:
                sql, typed = item if isinstance(item, tuple) else (f"{{{item}}}", item)
                each = names.field(*typed.split("."))
                columns.append(names.render(sql))
                expression = (each.get_col(typed.split(".")[0]) if sql == f"{{{typed}}}"
                              else RawSQL(sql, [], output_field=each))
                converters.append((expression, _converters(expression, connection)))
            statement = self._statements[connection.alias] = (
                f"SELECT {', '.join(columns)} {names.render(self.sql)}", tuple(converters))
        return statement


@dataclass(frozen=True)
class _Statement:
    sql: str
    model: type[models.Model]
    names: tuple[str, ...]  # the model's attribute names, in column order
    join: models.ForeignKey | None
    joined_names: tuple[str, ...]  # the joined model's
    converters: tuple  # per column: (expression, the conversions the ORM applies)


@dataclass
class PreparedRead:
    """Model rows: `SELECT` of `model`'s columns (alias `m`), its `join` foreign key's model's
    (LEFT OUTER JOIN, alias `j`) and `extra` columns (name: (SQL, the `alias.field` whose type
    the value has, or a field); set as attributes on each row), then `where` (WHERE ...,
    ORDER BY ...; `lock`: FOR UPDATE, where the database has it). `tables`: more aliases the
    SQL names. Placeholders are `%s`: the extras' first, in order, then the `where`'s. `known`:
    instances the rows' foreign keys point to (by field name), cached on each row as a related
    manager's rows have them."""

    model: str
    where: str
    join: str | None = None
    extra: dict[str, tuple[str, str | models.Field]] = field(default_factory=dict)
    tables: dict[str, str] = field(default_factory=dict)
    lock: bool = False
    _statements: dict[str, _Statement] = field(default_factory=dict, repr=False)

    def rows(self, params: Sequence[Any], using: str | None = None,
             known: dict[str, models.Model] | None = None) -> list[models.Model]:
        connection = connections[using or (router.db_for_write if self.lock
                                           else router.db_for_read)(apps.get_model(self.model))]
        if self.lock and connection.get_autocommit():
            # As the ORM's select_for_update: a lock outside a transaction ends at once.
            raise TransactionManagementError("A locking read must be inside a transaction.")
        statement = self._statement(connection)
        with connection.cursor() as cursor:
            cursor.execute(statement.sql, params)
            rows = cursor.fetchall()
        instances = [self._instance(statement, row, connection) for row in rows]
        for name, value in (known or {}).items():
            foreign_key = statement.model._meta.get_field(name)
            for instance in instances:
                foreign_key.set_cached_value(instance, value)
        return instances

    def first(self, params: Sequence[Any], using: str | None = None) -> models.Model | None:
        rows = self.rows(params, using)
        return rows[0] if rows else None

    def _instance(self, statement: _Statement, row, connection) -> models.Model:
        values = _convert(row, statement.converters, connection)
        own_end = len(statement.names)
        instance = statement.model.from_db(connection.alias, statement.names, values[:own_end])
        joined_end = own_end + len(statement.joined_names)
        foreign_key = statement.join
        if foreign_key is not None:
            joined = None
            if getattr(instance, foreign_key.attname) is not None:
                joined = foreign_key.related_model.from_db(
                    connection.alias, statement.joined_names, values[own_end:joined_end])
            foreign_key.set_cached_value(instance, joined)
        for name, value in zip(self.extra, values[joined_end:], strict=True):
            setattr(instance, name, value)
        return instance

    def _statement(self, connection) -> _Statement:
        statement = self._statements.get(connection.alias)
        if statement is not None:
            return statement
        model = apps.get_model(self.model)
        tables = {"m": self.model, **self.tables}
        own = [("m", each) for each in model._meta.concrete_fields]
        joined, join_sql, foreign_key = [], "", None
        if self.join is not None:
            foreign_key = model._meta.get_field(self.join)
            other = foreign_key.related_model
            tables["j"] = other._meta.label
            joined = [("j", each) for each in other._meta.concrete_fields]
            join_sql = (f" LEFT OUTER JOIN {{j}} ON {{j.{foreign_key.target_field.name}}} = "
                        f"{{m.{foreign_key.name}}}")
        names = _Names(tables, connection)
        columns, converters = [], []
        for alias, each in own + joined:
            column = each.get_col(alias)
            columns.append(f"{alias}.{names.quote(each.column)}")
            converters.append((column, _converters(column, connection)))
        for sql, typed in self.extra.values():
            output = typed if isinstance(typed, models.Field) else names.field(*typed.split("."))
            expression = RawSQL(names.render(sql), [], output_field=output)
            columns.append(f"({expression.sql})")
            converters.append((expression, _converters(expression, connection)))
        lock = " FOR UPDATE" if self.lock and connection.features.has_select_for_update else ""
        sql = names.render(f"SELECT {', '.join(columns)} FROM {{m}}{join_sql} {self.where}")
        statement = self._statements[connection.alias] = _Statement(
            sql=sql + lock, model=model, names=tuple(each.attname for _, each in own),
            join=foreign_key, joined_names=tuple(each.attname for _, each in joined),
            converters=tuple(converters))
        return statement


# The statements. Each names the request it serves and its ORM equivalent's test.

#: An API token with its player, on every API request.
TOKEN = PreparedRead("accounts.PersonalAccessToken", join="user", where="WHERE {m.digest} = %s")

#: A change's first read: the game, locked until the change commits (every move).
LOCKED_GAME = PreparedRead("games.Game", where="WHERE {m.id} = %s", lock=True)

#: A change's seats with their players, and two flags (games.services.access.seats_of): whether
#: the player has a vacation that can touch the seat's clock (one ending after the turn started
#: or, with no turn running, after now), whether a suspension or ban holds them.
CHANGE_SEATS = PreparedRead(
    "games.Seat", join="user", where="WHERE {m.game} = %s ORDER BY {m.number}, {m.join_order}",
    tables={"v": "accounts.Vacation", "x": "accounts.Sanction"},
    extra={
        "vacation_matters": (
            "EXISTS (SELECT 1 FROM {v} WHERE {v.user} = {m.user} "
            "AND {v.ends_at} > COALESCE({m.turn_started_at}, %s))", models.BooleanField()),
        "restricted": (
            "EXISTS (SELECT 1 FROM {x} WHERE {x.user} = {m.user} AND {x.kind} IN (%s, %s) "
            "AND {x.lifted_at} IS NULL AND ({x.ends_at} IS NULL OR {x.ends_at} > %s))",
            models.BooleanField()),
    })


def _away_until(player: str) -> str:
    """The end of the vacation the player `player` (a column) is on at the moment given as the
    two parameters (the latest to start), as `games.selectors.lists.away_until` reads it."""
    return ("(SELECT {v.ends_at} FROM {v} WHERE {v.user} = " + player + " AND "
            "{v.starts_at} <= %s AND {v.ends_at} > %s ORDER BY {v.starts_at} DESC LIMIT 1)")


#: A shown game (detail, legal actions, page): the game row, then its seats with their players
#: and the end of the vacation each player is on now (the latest to start).
SHOWN_GAME = PreparedRead("games.Game", where="WHERE {m.id} = %s")
SHOWN_SEATS = PreparedRead(
    "games.Seat", join="user", where="WHERE {m.game} = %s ORDER BY {m.number}, {m.join_order}",
    tables={"v": "accounts.Vacation"},
    extra={"away_until": (_away_until("{m.user}"), "v.ends_at")})

#: A game's stamp (games.selectors.stamps, every conditional GET): the game's fields, its
#: creator's name, its rating application, and per seat (one row each, in join order) the
#: seat's and its player's fields, the player's vacation now, the seat's turn notice.
STAMP_GAME_FIELDS = ("g.version", "g.status", "g.allow_spectators", "g.updated_at", "g.engine",
                     "g.rules_version", "c.username", "r.id")
STAMP_SEAT_FIELDS = ("s.id", "s.number", "s.user", "u.username", "u.display_name", "s.is_bot",
                     "s.bot_level", "s.deadline_at", "s.reserve_left", "s.timeout_count",
                     "s.resigned_at")
STAMP = PreparedValues(
    tables={"g": "games.Game", "c": "accounts.User", "r": "games.RatingApplication",
            "s": "games.Seat", "u": "accounts.User", "v": "accounts.Vacation"},
    select=[*STAMP_GAME_FIELDS, *STAMP_SEAT_FIELDS,
            (_away_until("{s.user}"), "v.ends_at"),
            "s.turn_notified_at"],
    sql="FROM {g} INNER JOIN {c} ON {c.id} = {g.created_by} "
        "LEFT JOIN {r} ON {r.game} = {g.id} LEFT JOIN {s} ON {s.game} = {g.id} "
        "LEFT JOIN {u} ON {u.id} = {s.user} WHERE {g.id} = %s ORDER BY {s.join_order}")

#: What the page's poll reads: the game's version, status and openness, and its seats' players
#: (one row per seat, so the seats are those of that version).
POLL = PreparedValues(
    tables={"g": "games.Game", "s": "games.Seat"},
    select=["g.version", "g.status", "g.allow_spectators", "s.id", "s.user"],
    sql="FROM {g} LEFT JOIN {s} ON {s.game} = {g.id} WHERE {g.id} = %s")
