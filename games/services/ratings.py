"""Ratings per player and engine with OpenSkill's Plackett-Luce model (Weng-Lin): made for
free-for-all games of any number of players, ties included, with an uncertainty per player.

A finished rated game is applied once (the task games.services.endings queues on commit):
`ratings_apply` locks the game, refuses when its `RatingApplication` exists (a unique row per
game) and writes that row in the same transaction as the new ratings, so a duplicated or
retried task changes nothing. Seats played by bots from the
start have no player and are left out; a player's seat a bot took over after timeouts is rated
as the player's (abandoning is no way around a loss). Aborted games never finish, so they are
never rated.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from openskill.models import PlackettLuce

from games.models import Game, GameStatus, Rating, RatingApplication

logger = logging.getLogger(__name__)

#: A rating stays provisional (marked "?") until this many rated games.
PROVISIONAL_GAMES = 10
MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma


def conservative(mu: float, sigma: float) -> float:
    """What a rating shows: mu - 3 sigma (OpenSkill's ordinal), 0.0 for a newcomer."""
    return mu - 3 * sigma


@dataclass(frozen=True)
class RatingShown:
    engine: str
    value: float
    rated_games: int

    @property
    def provisional(self) -> bool:
        return self.rated_games < PROVISIONAL_GAMES

    def as_dict(self) -> dict:
        return {"engine": self.engine, "rating": round(self.value, 1),
                "rated_games": self.rated_games, "provisional": self.provisional}


def rating_of(user, engine: str) -> RatingShown:
    row = Rating.objects.filter(user=user, engine=engine).first()
    if row is None:
        return RatingShown(engine, conservative(DEFAULT_MU, DEFAULT_SIGMA), 0)
    return RatingShown(engine, row.ordinal, row.rated_games)


def ratings_of(user) -> list[RatingShown]:
    return [RatingShown(row.engine, row.ordinal, row.rated_games)
            for row in Rating.objects.filter(user=user).order_by("engine")]


def leaderboard(engine: str) -> QuerySet[Rating]:
    """Established ratings first, each group by rating, highest first."""
    from django.db.models import Case, IntegerField, Value, When

    return (Rating.objects.filter(engine=engine, rated_games__gt=0).select_related("user")
            .annotate(established=Case(When(rated_games__gte=PROVISIONAL_GAMES, then=Value(1)),
                                       default=Value(0), output_field=IntegerField()))
            .order_by("-established", "-ordinal", "user__username"))


def rated_seats(seats) -> list:
    """The seats a finished game rates: those with a player (a seat a bot took over after
    timeouts is still its player's); bots' own seats are left out."""
    return [seat for seat in seats if seat.user_id is not None and seat.number is not None]


def will_be_rated(game: Game, seats=None) -> bool:
    """Whether the game changes ratings when it finishes: a rated game with two players or
    more; an open game counts its empty seats, which players may still take. A game against
    bots alone is never rated, whatever its creator ticked."""
    if not game.rated or game.status == GameStatus.ABORTED:
        return False
    seats = list(game.seats.all() if seats is None else seats)
    if game.status == GameStatus.OPEN:  # (seats are numbered when the game starts)
        players = sum(1 for seat in seats if seat.user_id is not None)
        players += max(game.num_players - len(seats), 0)
    else:
        players = len(rated_seats(seats))
    return players >= 2


def finishing_ranks(result: dict, seat_numbers: list[int]) -> list[int]:
    """The rank (1 = best) of each listed seat: the engine's winners (one or several: a shared
    win) share rank 1; the others follow by score, equal scores sharing a rank."""
    winners = set(result.get("winners", []))
    scores = result.get("scores", [])
    keys = [(0 if seat in winners else 1, -scores[seat]) for seat in seat_numbers]
    distinct = sorted(set(keys))
    return [distinct.index(key) + 1 for key in keys]


def ratings_apply(*, game_id: int) -> bool:
    """Applies a finished rated game to its players' ratings, once; True when it did."""
    try:
        with transaction.atomic():
            return _ratings_apply(game_id)
    except IntegrityError:
        # Another worker wrote this game's application between our check and our insert.
        return False


def _ratings_apply(game_id: int) -> bool:
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.status != GameStatus.FINISHED or not game.result:
        return False
    if RatingApplication.objects.filter(game=game).exists():
        return False
    if not game.rated:
        RatingApplication.objects.create(game=game, skipped="unrated game")
        return False
    seats = rated_seats(game.seats.order_by("number"))
    if len(seats) < 2:
        RatingApplication.objects.create(game=game, skipped="fewer than two rated players")
        return False
    ranks = finishing_ranks(game.result, [seat.number for seat in seats])
    # Rows locked in user order, so two games finishing together never deadlock.
    for seat in sorted(seats, key=lambda s: s.user_id):
        Rating.objects.get_or_create(
            user_id=seat.user_id, engine=game.engine,
            defaults={"mu": DEFAULT_MU, "sigma": DEFAULT_SIGMA,
                      "ordinal": conservative(DEFAULT_MU, DEFAULT_SIGMA)})
    rows = {row.user_id: row for row in Rating.objects.select_for_update().filter(
        engine=game.engine, user_id__in=[seat.user_id for seat in seats]).order_by("user_id")}
    before = [rows[seat.user_id] for seat in seats]
    teams = [[MODEL.rating(mu=row.mu, sigma=row.sigma)] for row in before]
    after = MODEL.rate(teams, ranks=ranks)
    changes = []
    for seat, row, rank, (new,) in zip(seats, before, ranks, after, strict=True):
        change = {"user_id": seat.user_id, "seat": seat.number, "rank": rank,
                  "before": round(row.ordinal, 3)}
        row.mu, row.sigma = new.mu, new.sigma
        row.ordinal = conservative(new.mu, new.sigma)
        row.rated_games += 1
        row.save(update_fields=["mu", "sigma", "ordinal", "rated_games", "updated_at"])
        changes.append({**change, "after": round(row.ordinal, 3)})
    RatingApplication.objects.create(game=game, changes=changes)
    return True
