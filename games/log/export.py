"""A game as a portable record (GET /api/v1/games/{id}/export/) and its verification.

A finished game's export holds everything needed to replay it: the engine and rules version,
options, players, the seed and every log entry's payload in order, and the result. Replaying it
(`python manage.py verify_export file.json`) checks each move was legal where it was made and
that the final state scores to the recorded result.

While a game runs its export hides what the viewer may not see: no seed (it orders every deck
and die), and a move's payload only when it is the viewer's own or when the engine describes it
to everyone in the same words as to its player (a secret pick reads "chose a card" to others).
"""

from __future__ import annotations

import json
from typing import Any

from games.engines.base import IllegalAction, match_legal
from games.engines.registry import UnknownEngine, get_engine
from games.models import ActionKind, Game, GameStatus
from games.presentation.texts import entry_text

EXPORT_FORMAT = "turnpost-game-export"
EXPORT_FORMAT_VERSION = 1


class ExportMismatch(Exception):
    """The export does not replay to what it records; the message says where."""


def game_export(game: Game, viewer_seat: int | None) -> dict[str, Any]:
    finished = game.status == GameStatus.FINISHED
    seats = sorted(game.seats.select_related("user"), key=lambda seat: (seat.number is None,
                                                                      seat.number or 0))
    entries = []
    for entry in game.actions.order_by("sequence"):
        visible = (finished or entry.kind == ActionKind.RESOLVE
                   or entry.seat_number == viewer_seat or not entry.hides_something)
        entries.append({
            "sequence": entry.sequence,
            "kind": entry.kind,
            "seat": entry.seat_number,
            "payload": entry.payload if visible else None,
            "hidden": not visible,
            # A move taken back: the sequence of the undo entry that took it back.
            "undone_by": entry.undone_by,
            # In English: the record reads the same wherever it is taken.
            "description": entry_text(entry, viewer_seat, language="en", engine_slug=game.engine),
            "at": entry.created_at.isoformat(),
        })
    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_FORMAT_VERSION,
        "game": game.pk,
        "engine": game.engine,
        "rules_version": game.rules_version,
        "status": game.status,
        "num_players": game.num_players,
        "options": game.options,
        "players": [{"seat": seat.number, "player": seat.player_name,
                     "username": seat.user.username if seat.user_id else None,
                     "is_bot": seat.is_bot, "resigned": seat.resigned_at is not None}
                    for seat in seats],
        "version": game.version,
        "seed": game.seed if finished else None,
        "actions": entries,
        "result": game.result if finished else None,
    }


def verify_export(data: dict[str, Any]) -> str:
    """Replays a finished game's export; returns a one-line summary or raises ExportMismatch."""
    if data.get("format") != EXPORT_FORMAT:
        raise ExportMismatch(f"Not a game export (format {data.get('format')!r}).")
    if data.get("status") != GameStatus.FINISHED or not data.get("seed"):
        raise ExportMismatch("Only a finished game's export can be verified: a running game's "
                             "export has no seed and may hide moves.")
    try:
        engine = get_engine(data["engine"])
    except UnknownEngine:
        raise ExportMismatch(f"Unknown engine {data['engine']!r}.") from None
    if data["rules_version"] > engine.rules_version:
        raise ExportMismatch(f"The export follows rules version {data['rules_version']}; this "
                             f"server's {engine.name} is at version {engine.rules_version}.")
    # Games keep the rules version they were created under; the engine replays each version.
    state = engine.new_game_at_version(data["num_players"], data["seed"], data["options"],
                                       data["rules_version"])
    for number, entry in enumerate(data["actions"], start=1):
        if entry["sequence"] != number:
            raise ExportMismatch(f"Entry {number} has sequence {entry['sequence']}: the log "
                                 "must be complete and in order.")
        if entry["kind"] == ActionKind.UNDO or entry.get("undone_by"):
            continue  # an undo, or a move it took back: neither is part of the game's course
        try:
            if entry["kind"] == ActionKind.RESOLVE:
                state = engine.resolve(state)
            else:
                legal = engine.legal_actions(state, entry["seat"])
                state = engine.apply(state, entry["seat"], match_legal(entry["payload"], legal))
        except IllegalAction as error:
            raise ExportMismatch(f"Entry {number} ({entry['kind']} by seat {entry['seat']}) is "
                                 f"not legal there: {error}") from None
    result = data.get("result") or {}
    resigned = bool(result.get("by_resignation"))
    if resigned and engine.is_over(state):
        raise ExportMismatch("The game is recorded as ended by resignation, but its log "
                             "plays to the end.")
    if not resigned and not engine.is_over(state):
        raise ExportMismatch("The log does not reach the end of the game.")
    scored = json.loads(json.dumps(engine.result(state)))
    if resigned:
        # The position where the game stopped, scored; the players still in it won.
        scored.update(winners=result.get("winners"), by_resignation=True,
                      resigned=result.get("resigned"))
    if scored != result:
        raise ExportMismatch(f"The replay scores {scored.get('scores')} (winners "
                             f"{scored.get('winners')}), not the recorded {result.get('scores')} "
                             f"(winners {result.get('winners')}).")
    how = "ended by resignation" if resigned else "played to the end"
    return (f"OK: {len(data['actions'])} log entries replay legally to the recorded result, "
            f"{how} (scores {scored['scores']}, winners: seats {scored['winners']}).")
