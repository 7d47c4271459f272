"""Read-only facts about players for their public profile, the finished-games list and the
leaderboards. Only public facts: no email, timezone, vacations or hidden game information; games
are listed only when the viewer may see them."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet

from games.models import Game, GameStatus, RatingApplication, Seat
from games.presentation import titles
from games.presentation.rating_chart import RatingPoint
from games.presentation.texts import breakdown_in_order
from games.selectors.lists import game_list
from games.services import ratings, reliability


def engine_name(slug: str) -> str:
    """The engine's name in the reader's language."""
    return titles.engine_name(slug)


@dataclass
class EngineRecord:
    engine: str
    name: str
    played: int = 0
    won: int = 0
    rating: ratings.RatingShown | None = None

    def as_dict(self) -> dict:
        return {"engine": self.engine, "name": self.name, "played": self.played, "won": self.won,
                "rating": self.rating.as_dict() if self.rating else None}


def _won(game_result: dict | None, seat_number: int | None) -> bool:
    return bool(game_result) and seat_number in game_result.get("winners", [])


def engine_records(user) -> list[EngineRecord]:
    """Finished games played and won, and the rating, per engine the player has played."""
    records: dict[str, EngineRecord] = {}
    finished = (Seat.objects.filter(user=user, game__status=GameStatus.FINISHED)
                .values_list("game__engine", "number", "game__result"))
    for engine, number, result in finished.iterator():
        record = records.setdefault(engine, EngineRecord(engine, engine_name(engine)))
        record.played += 1
        record.won += _won(result, number)
    for shown in ratings.ratings_of(user):
        records.setdefault(shown.engine, EngineRecord(shown.engine, engine_name(shown.engine)))
        records[shown.engine].rating = shown
    return sorted(records.values(), key=lambda r: r.name)


def rating_history(user) -> dict[str, list[RatingPoint]]:
    """Per engine, the player's rating after each rated game, oldest first, starting from the
    rating they had before their first one (a newcomer's 0.0): what the profile's charts draw.
    Read from each game's one `RatingApplication`, so it always ends at the rating shown."""
    history: dict[str, list[RatingPoint]] = {}
    applications = (RatingApplication.objects
                    .filter(game__seats__user=user, skipped="")
                    .values_list("game__engine", "applied_at", "changes")
                    .order_by("applied_at", "id"))
    for engine, applied_at, changes in applications.iterator():
        change = next((c for c in changes if c.get("user_id") == user.pk), None)
        if change is None:
            continue
        points = history.setdefault(engine, [])
        if not points:
            points.append(RatingPoint(applied_at, change["before"]))
        points.append(RatingPoint(applied_at, change["after"]))
    return history


@dataclass
class HeadToHead:
    games: int = 0
    ahead: int = 0  # the profile's player finished ahead of the viewer
    behind: int = 0
    level: int = 0
    game_ids: list[int] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"games": self.games, "player_ahead": self.ahead, "viewer_ahead": self.behind,
                "level": self.level}


def head_to_head(user, viewer) -> HeadToHead | None:
    """Finished games both played, and who placed higher (winners first, then by score)."""
    if viewer is None or not viewer.is_authenticated or viewer.pk == user.pk:
        return None
    record = HeadToHead()
    games = (Game.objects.filter(status=GameStatus.FINISHED, seats__user=user)
             .filter(seats__user=viewer).distinct().prefetch_related("seats"))
    for game in games:
        numbers = {seat.user_id: seat.number for seat in game.seats.all()}
        mine, theirs = ratings.finishing_ranks(game.result or {},
                                               [numbers[user.pk], numbers[viewer.pk]])
        record.games += 1
        record.game_ids.append(game.pk)
        if mine < theirs:
            record.ahead += 1
        elif mine > theirs:
            record.behind += 1
        else:
            record.level += 1
    return record


def current_games(user, viewer) -> QuerySet[Game]:
    """The player's open and running games that the viewer may see."""
    return (game_list(user=viewer)
            .filter(seats__user=user, status__in=[GameStatus.OPEN, GameStatus.ACTIVE])
            .order_by("-updated_at", "-id"))


def finished_games(viewer, *, player=None, engine: str | None = None) -> QuerySet[Game]:
    """Finished games the viewer may see, newest first; of one player, of one engine."""
    games = game_list(user=viewer, status=GameStatus.FINISHED)
    if player is not None:
        games = games.filter(seats__user=player)
    if engine:
        games = games.filter(engine=engine)
    return games.order_by("-finished_at", "-id")


@dataclass
class ResultRow:
    seat: Seat
    score: int
    breakdown: dict
    winner: bool
    rank: int
    rating_change: dict | None


def result_rows(game: Game) -> list[ResultRow]:
    """The final standings: rank (shared on ties), score, breakdown, rating change if rated."""
    if not game.result:
        return []
    seats = {seat.number: seat for seat in game.seats.all()}
    numbers = sorted(seats)
    ranks = dict(zip(numbers, ratings.finishing_ranks(game.result, numbers), strict=True))
    application = getattr(game, "rating_application", None)
    changes = {change["seat"]: change for change in (application.changes if application else [])}
    rows = [ResultRow(seat=seats[number], score=game.result["scores"][number],
                      breakdown=breakdown_in_order(game.engine,
                                                   game.result["breakdown"][number]),
                      winner=number in game.result["winners"], rank=ranks[number],
                      rating_change=changes.get(number))
            for number in numbers]
    return sorted(rows, key=lambda row: (row.rank, row.seat.number))


def profile(user, viewer) -> dict:
    """Everything the profile shows, as plain data (the page and the API share it)."""
    return {
        "username": user.username,
        "display_name": user.public_name,
        "member_since": user.date_joined,
        "engines": engine_records(user),
        "reliability": reliability.reliability_of(user),
        "head_to_head": head_to_head(user, viewer),
    }


def breakdown_categories(rows: list[ResultRow]) -> list[str]:
    """The breakdown's categories in first-seen order (one table column each)."""
    categories: list[str] = []
    for row in rows:
        categories.extend(category for category in row.breakdown if category not in categories)
    return categories
