"""What one game costs in PostgreSQL: the summed sizes of its rows per table (the texts and the
payloads of its log counted apart), the growth of each table on disk, and the game row's HOT
updates."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from django.db import connection

from games import services
from games.engines.registry import get_engine
from games.models import Game
from tests.factories import committed, started_game

#: The tables a game writes to, with the column naming the game.
GAME_TABLES = {
    "games_action": "game_id",
    "notifications_notification": "game_id",
    "games_idempotencyrecord": "game_id",
    "games_deadlinerecord": "game_id",
    "games_seat": "game_id",
    "games_game": "id",
}


def table_stats() -> dict[str, dict[str, int]]:
    """On-disk size (heap, TOAST, indexes) and update counts of each table, as of now."""
    time.sleep(1.5)  # a backend hands in its counts when idle for a second
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT relname, pg_total_relation_size(relid), n_tup_upd, n_tup_hot_upd "
            "FROM pg_stat_user_tables WHERE relname = ANY(%s)", [list(GAME_TABLES)])
        return {name: {"bytes": size, "updates": updates, "hot_updates": hot}
                for name, size, updates, hot in cursor.fetchall()}


def row_bytes(game_id: int) -> dict[str, int]:
    """Summed row sizes (pg_column_size of each whole row) of the game's rows per table, and
    the Action text and payload columns apart (`games_action.texts`, `games_action.payload`)."""
    sizes = {}
    with connection.cursor() as cursor:
        for table, column in GAME_TABLES.items():
            cursor.execute(f"SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM {table} t "
                           f"WHERE {column} = %s", [game_id])
            sizes[table] = cursor.fetchone()[0]
        cursor.execute("SELECT coalesce(sum(pg_column_size(public_text) + "
                       "coalesce(pg_column_size(actor_text), 0)), 0), "
                       "coalesce(sum(pg_column_size(payload)), 0) "
                       "FROM games_action WHERE game_id = %s", [game_id])
        sizes["games_action.texts"], sizes["games_action.payload"] = cursor.fetchone()
    return sizes


def play_to_the_end(engine_slug: str, players: int, seed: str,
                    after_start: Callable[[Game], None] = lambda game: None) -> int:
    """A whole game through `game_action_submit`, each move with an Idempotency-Key as an API
    client sends it, random legal moves, follow-ups (resolutions, notifications) run as on
    commit. The same seed plays the same game. Returns the game's id."""
    engine = get_engine(engine_slug)
    game, users = started_game(players, engine=engine_slug, seed=seed)
    after_start(game)
    chooser = random.Random(seed)
    for move in range(100_000):
        game.refresh_from_db()
        if game.status != "active":
            return game.pk
        seat = engine.active_seats(game.state)[0]
        action = chooser.choice(engine.legal_actions(game.state, seat))
        with committed():
            services.game_action_submit(game_id=game.pk, user=users[seat], action=action,
                                        expected_version=game.version,
                                        idempotency_key=f"{game.pk}-{move}")
    raise AssertionError("the game did not end")


def fill_pages_after(game: Game, count: int = 300) -> None:
    """Finished games as big as `game`, written after it, so that its page is as full as the
    table's fillfactor lets inserts make it (as among many games), not a page of its own."""
    Game.objects.bulk_create(
        Game(engine=game.engine, options=game.options, num_players=game.num_players,
             seed=game.seed, state=game.state, status="finished", created_by=game.created_by)
        for _ in range(count))
