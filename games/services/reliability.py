"""Reliability: how a player keeps deadlines. Every deadline a player had ends in one record:
met (they moved before it), late (they moved after it, before the sweep came) or timed out (the
sweep played their timeout move). The share shown is the met
deadlines among the last RECENT_DEADLINES; the profile adds the timeouts and the games a bot
finished for them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.models import DeadlineOutcome, DeadlineRecord, GameStatus, Seat

#: Reliability is measured over this many most recent deadlines.
RECENT_DEADLINES = 100


def deadline_record(seat: Seat, *, deadline_at: datetime, outcome: str, now: datetime) -> None:
    """Written by the game services in the transaction of the move."""
    deadline_records_write([seat], deadline_at=[deadline_at], outcome=outcome, now=now)


def deadline_records_write(seats: list[Seat], *, deadline_at: list[datetime], outcome: str,
                           now: datetime) -> None:
    """One record per seat (with its own deadline), in one statement: the deadline sweep writes
    a whole batch of timeouts at once. Bot seats without a player have no record."""
    DeadlineRecord.objects.bulk_create([
        DeadlineRecord(user_id=seat.user_id, game_id=seat.game_id, deadline_at=deadline,
                       outcome=outcome, recorded_at=now)
        for seat, deadline in zip(seats, deadline_at, strict=True) if seat.user_id is not None])


@dataclass(frozen=True)
class Reliability:
    deadlines: int  # among the last RECENT_DEADLINES
    met: int
    timeouts_total: int
    abandoned_games: int

    @property
    def missed(self) -> int:
        return self.deadlines - self.met

    @property
    def percent(self) -> int | None:
        """Whole percent of recent deadlines met (rounded down); None before any deadline."""
        if not self.deadlines:
            return None
        return self.met * 100 // self.deadlines

    def as_dict(self) -> dict:
        return {"percent": self.percent, "recent_deadlines": self.deadlines,
                "met": self.met, "missed": self.missed, "timeouts_total": self.timeouts_total,
                "games_abandoned_to_bot": self.abandoned_games}


def reliability_of(user) -> Reliability:
    recent = list(DeadlineRecord.objects.filter(user=user)
                  .order_by("-recorded_at", "-id").values_list("outcome", flat=True)
                  [:RECENT_DEADLINES])
    return Reliability(
        deadlines=len(recent),
        met=recent.count(DeadlineOutcome.MET),
        timeouts_total=DeadlineRecord.objects.filter(
            user=user, outcome=DeadlineOutcome.TIMED_OUT).count(),
        # Finished with a bot in the player's seat: the player never took it back.
        abandoned_games=Seat.objects.filter(user=user, is_bot=True,
                                            game__status=GameStatus.FINISHED).count(),
    )
