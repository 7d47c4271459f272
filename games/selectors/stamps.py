"""A game's stamp: what its API answers depend on besides the viewer, in one statement."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import connections, router
from django.utils import timezone

from config.prepared_sql import STAMP, STAMP_GAME_FIELDS, STAMP_SEAT_FIELDS
from games.models import Game


@dataclass(frozen=True)
class GameStamp:
    """A game's validator: everything its API answers depend on besides the viewer, read in one
    statement without the state. `values` changes whenever an answer may (a move through
    `version`, a join, a clock, a player's name, a vacation starting, the ratings applied)."""

    game_id: int
    engine: str
    status: str
    allow_spectators: bool
    values: tuple
    #: user id -> seat number (None before the game starts), for every seated player.
    seated: dict[int, int | None]
    #: users whose seat was told "your turn" since they last opened the game.
    notified: frozenset[int]
    #: user id -> end of the vacation they are on now (as `vacations_now`).
    vacations: dict[int, Any]

    @property
    def version(self) -> int:
        return self.values[0][STAMP_GAME_FIELDS.index("g.version")]

    def viewer_seat(self, user) -> int | None:
        return self.seated.get(user.pk) if user is not None and user.is_authenticated else None

    def shown_without_invitation(self, user) -> bool:
        """`GameAccess.may_view` as far as this row tells: spectators allowed or the viewer
        seated. False also for an invited player of a private game (the full path asks the
        invitations)."""
        return self.allow_spectators or (
            user is not None and user.is_authenticated and user.pk in self.seated)


def game_stamp(*, game_id: int, now=None) -> GameStamp | None:
    """The game's stamp (None when there is no such game), in one statement over the game row,
    its seats and their players (one row per seat): one statement is one snapshot, so a stamp
    never mixes two versions, and it is cheap enough to answer a conditional GET without the
    state. A statement made once (config.prepared_sql.STAMP): the ORM's build of its joins and
    subquery cost more than the rest of a conditional GET."""
    connection = connections[router.db_for_read(Game)]
    moment = connection.ops.adapt_datetimefield_value(now or timezone.now())
    rows = STAMP.rows([moment, moment, game_id], using=connection.alias)
    if not rows:
        return None
    width, seat_width = len(STAMP_GAME_FIELDS), len(STAMP_SEAT_FIELDS)
    game = dict(zip(STAMP_GAME_FIELDS, rows[0][:width], strict=True))
    seats = [row[width:] for row in rows if row[width] is not None]
    user_at = STAMP_SEAT_FIELDS.index("s.user")
    number_at = STAMP_SEAT_FIELDS.index("s.number")
    return GameStamp(
        game_id=game_id, engine=game["g.engine"], status=game["g.status"],
        allow_spectators=game["g.allow_spectators"],
        values=(tuple(rows[0][:width]), tuple(tuple(seat[:-1]) for seat in seats)),
        seated={seat[user_at]: seat[number_at] for seat in seats if seat[user_at] is not None},
        notified=frozenset(seat[user_at] for seat in seats
                           if seat[user_at] is not None and seat[-1] is not None),
        vacations={seat[user_at]: seat[seat_width] for seat in seats
                   if seat[user_at] is not None and seat[seat_width] is not None},
    )
