"""Reads and inserts on the hottest paths (a token's check on every API request, a move's locked
game, seats and log row, a shown game with its seats) as SQL statements made once per database.

Django's ORM builds a statement anew on every query, and for these short reads building it
cost more CPU than the database spent running it (`select_related` builds a reference for
each of its columns, `.first()` an ordering). A `PreparedRead` builds its SQL once from the
models' own metadata and turns each row into models the way the ORM does: every column through
its field's conversions from the database, `Model.from_db`, the joined model cached on its
foreign key. tests/test_prepared_sql.py compares each read with the ORM's, field by field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connections, models
from django.db.models.expressions import RawSQL
from django.db.transaction import TransactionManagementError


@dataclass(frozen=True)
class _Statement:
    sql: str
    names: tuple[str, ...]  # the model's attribute names, in column order
    join: models.ForeignKey | None
    joined_names: tuple[str, ...]  # the joined model's
    converters: tuple  # per column: (expression, the conversions the ORM applies)


@dataclass
class PreparedRead:
    """`SELECT` of `model`'s columns, its `join` foreign key's model's (LEFT OUTER JOIN) and
    `extra` columns (name: (SQL, output field)), `WHERE` the `where` SQL on the model's
    table (`{table}` is its quoted name); `lock`: `FOR UPDATE`, where the database has it.
    Placeholders are `%s`: the extras' first, in order, then the `where`'s. Extras are set as
    attributes on each instance. `known`: instances the rows' foreign keys point to (by field
    name), cached on each row as a related manager's rows have them."""

    model: type[models.Model]
    where: str
    join: str | None = None
    extra: dict[str, tuple[str, models.Field]] = field(default_factory=dict)
    lock: bool = False
    _statements: dict[str, _Statement] = field(default_factory=dict, repr=False)

    def rows(self, params: Sequence[Any], using: str | None = None,
             known: dict[str, models.Model] | None = None) -> list[models.Model]:
        connection = connections[using or self.model.objects.db]
        if self.lock and connection.get_autocommit():
            # As the ORM's select_for_update: a lock outside a transaction ends at once.
            raise TransactionManagementError("A locking read must be inside a transaction.")
        statement = self._statement(connection)
        with connection.cursor() as cursor:
            cursor.execute(statement.sql, params)
            rows = cursor.fetchall()
        instances = [self._instance(statement, row, connection) for row in rows]
        for name, value in (known or {}).items():
            foreign_key = self.model._meta.get_field(name)
            for instance in instances:
                foreign_key.set_cached_value(instance, value)
        return instances

    def first(self, params: Sequence[Any], using: str | None = None) -> models.Model | None:
        rows = self.rows(params, using)
        return rows[0] if rows else None

    def _instance(self, statement: _Statement, row, connection) -> models.Model:
        values = list(row)
        for index, (expression, steps) in enumerate(statement.converters):
            for convert in steps:
                values[index] = convert(values[index], expression, connection)
        own_end = len(statement.names)
        instance = self.model.from_db(connection.alias, statement.names, values[:own_end])
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
        quote = connection.ops.quote_name
        table = self.model._meta.db_table
        own = [(table, each) for each in self.model._meta.concrete_fields]
        joined, join_sql, foreign_key = [], "", None
        if self.join is not None:
            foreign_key = self.model._meta.get_field(self.join)
            other = foreign_key.related_model
            joined = [("j", each) for each in other._meta.concrete_fields]
            join_sql = (f" LEFT OUTER JOIN {quote(other._meta.db_table)} j ON j."
                        f"{quote(foreign_key.target_field.column)} = "
                        f"{quote(table)}.{quote(foreign_key.column)}")
        columns, converters = [], []
        for alias, each in own + joined:
            column = each.get_col(alias)
            columns.append(f"{quote(alias)}.{quote(each.column)}")
            converters.append((column, tuple(connection.ops.get_db_converters(column)
                                             + each.get_db_converters(connection))))
        for sql, output_field in self.extra.values():
            expression = RawSQL(sql, [], output_field=output_field)
            columns.append(f"({sql})")
            converters.append((expression, tuple(connection.ops.get_db_converters(expression)
                                                 + expression.get_db_converters(connection))))
        lock = " FOR UPDATE" if self.lock and connection.features.has_select_for_update else ""
        sql = (f"SELECT {', '.join(columns)} FROM {quote(table)}{join_sql} "
               f"WHERE {self.where.format(table=quote(table))}{lock}")
        statement = self._statements[connection.alias] = _Statement(
            sql=sql, names=tuple(each.attname for _, each in own), join=foreign_key,
            joined_names=tuple(each.attname for _, each in joined),
            converters=tuple(converters))
        return statement


_INSERTS: dict[tuple, str] = {}  # by model, database and number of rows
_FEW_ROWS = 8


def rows_insert(rows: Sequence[models.Model]) -> None:
    """`bulk_create` of rows of one model; a few as one `INSERT ... RETURNING` handed straight to
    the cursor (a move's log row and deadline record: the ORM spent more CPU building these
    statements than the database spent running them). Fields' own conversions apply
    (`pre_save` for auto_now_add, `get_db_prep_save`); each row gets its primary key. There are
    no save signals on the models written this way."""
    if not rows:
        return
    model = type(rows[0])
    if len(rows) > _FEW_ROWS:  # a sweep's batch: the ORM's batching, no statement kept a size
        model.objects.bulk_create(rows)
        return
    meta = model._meta
    connection = connections[model.objects.db]
    fields = [each for each in meta.concrete_fields if each is not meta.pk]
    key = (model, connection.alias, len(rows))
    sql = _INSERTS.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        returning, _ = connection.ops.return_insert_columns([meta.pk])
        placeholders = "(" + ", ".join(["%s"] * len(fields)) + ")"
        sql = _INSERTS[key] = (
            f"INSERT INTO {quote(meta.db_table)} "
            f"({', '.join(quote(each.column) for each in fields)}) "
            f"VALUES {', '.join([placeholders] * len(rows))} {returning}")
    values = [each.get_db_prep_save(each.pre_save(row, True), connection)
              for row in rows for each in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        keys = cursor.fetchall()
    for row, (pk,) in zip(rows, keys, strict=True):
        row.pk = pk
        row._state.adding, row._state.db = False, connection.alias
