"""The project's one hand-written statement: an API token with its player, read on every API
request as SQL made once per database (tests/test_prepared_sql.py: it equals the ORM's read).

Measured reason, side by side in one run (docs/architecture.md): the ORM builds the
`select_related` read anew on every request, and that cost 15–18 % of the cheapest API
request's CPU; every other read and write of the project went back to the ORM, whose saving
was under 15 %. A `PreparedRead` builds its SQL once from the models' own metadata and turns
each row into models the way the ORM does: every column through its field's conversions from
the database, `Model.from_db`, the joined model cached on its foreign key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connections, models


@dataclass(frozen=True)
class _Statement:
    sql: str
    names: tuple[str, ...]  # the model's attribute names, in column order
    join: models.ForeignKey
    joined_names: tuple[str, ...]  # the joined model's
    converters: tuple  # per column: (expression, the conversions the ORM applies)


@dataclass
class PreparedRead:
    """`SELECT` of `model`'s columns and its `join` foreign key's model's (LEFT OUTER JOIN)
    `WHERE` the `where` SQL on the model's table (`{table}` is its quoted name, `%s` the
    placeholders)."""

    model: type[models.Model]
    where: str
    join: str
    _statements: dict[str, _Statement] = field(default_factory=dict, repr=False)

    def first(self, params: Sequence[Any], using: str | None = None) -> models.Model | None:
        connection = connections[using or self.model.objects.db]
        statement = self._statement(connection)
        with connection.cursor() as cursor:
            cursor.execute(statement.sql, params)
            row = cursor.fetchone()
        return None if row is None else self._instance(statement, row, connection)

    def _instance(self, statement: _Statement, row, connection) -> models.Model:
        values = list(row)
        for index, (expression, steps) in enumerate(statement.converters):
            for convert in steps:
                values[index] = convert(values[index], expression, connection)
        own_end = len(statement.names)
        instance = self.model.from_db(connection.alias, statement.names, values[:own_end])
        foreign_key = statement.join
        joined = None
        if getattr(instance, foreign_key.attname) is not None:
            joined = foreign_key.related_model.from_db(
                connection.alias, statement.joined_names, values[own_end:])
        foreign_key.set_cached_value(instance, joined)
        return instance

    def _statement(self, connection) -> _Statement:
        statement = self._statements.get(connection.alias)
        if statement is not None:
            return statement
        quote = connection.ops.quote_name
        table = self.model._meta.db_table
        own = [(table, each) for each in self.model._meta.concrete_fields]
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
        sql = (f"SELECT {', '.join(columns)} FROM {quote(table)}{join_sql} "
               f"WHERE {self.where.format(table=quote(table))}")
        statement = self._statements[connection.alias] = _Statement(
            sql=sql, names=tuple(each.attname for _, each in own), join=foreign_key,
            joined_names=tuple(each.attname for _, each in joined),
            converters=tuple(converters))
        return statement
