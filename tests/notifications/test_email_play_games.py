"""Whole games played by email alone: every registered engine (and the test toy game), two or more
players who only ever answer the latest email they got, with a number picked at random from the
choices it lists, through `manage.py receive_email`. A game longer than MOVE_CAP email moves is
stopped there (noted in the output); the toy game and any game shorter than that finish."""

from __future__ import annotations

import random
import time

import pytest

from games.engines import registry
from games.models import Action, Game
from games.services import game_replay_verify
from notifications.models import InboundMessage
from tests.notifications.email_play import (
    answer,
    mails_to,
    numbered_choices,
    pipe,
    reply_to_of,
    started,
)

pytestmark = pytest.mark.django_db

#: Email moves per game before a long game is stopped (each is a parsed email, a move and an
#: answer; heavy games take thousands of moves and are played to the end by tests/api).
MOVE_CAP = 1000
ENGINES = sorted({engine.slug for engine in registry.all_engines()} | {"toy"})


def players_for(slug: str) -> int:
    engine = registry.get_engine(slug)
    return max(2, engine.min_players, min(3, engine.max_players))


def actionable(user, answered: set[str]):
    """The latest email this player got, if it lets them play and was not answered yet."""
    received = mails_to(user)
    if not received:
        return None
    latest = received[-1]
    if reply_to_of(latest) and latest.extra_headers["Message-ID"] not in answered:
        return latest
    return None


def play_by_email(slug: str, seed: str) -> tuple[Game, int, int]:
    rng = random.Random(seed)
    game, users = started(slug, players_for(slug))
    answered: set[str] = set()
    moves = refusals = 0
    while moves < MOVE_CAP:
        game.refresh_from_db()
        if game.status == "finished":
            break
        waiting = [(user, message) for user in users
                   if (message := actionable(user, answered)) is not None]
        assert waiting, f"{slug}: nobody has an email to answer at version {game.version}"
        user, message = waiting[rng.randrange(len(waiting))]
        choices = numbered_choices(message)
        assert choices, f"{slug}: an email with a reply address but no choices"
        answered.add(message.extra_headers["Message-ID"])
        pipe(answer(message, str(rng.choice(sorted(choices)))))
        outcome = InboundMessage.objects.order_by("-id").first()
        if outcome.status == "applied":
            moves += 1
        else:
            # Only an older email answered after others moved may be refused; it is answered
            # with the current choices, which the loop then answers in turn.
            assert outcome.reason == "stale_version", (slug, outcome.reason, outcome.detail)
            refusals += 1
    game.refresh_from_db()
    return game, moves, refusals


@pytest.mark.parametrize("slug", ENGINES)
def test_a_whole_game_by_email_alone(slug):
    started_at = time.perf_counter()
    game, moves, refusals = play_by_email(slug, seed=f"email-{slug}")
    elapsed = time.perf_counter() - started_at
    email_moves = Action.objects.filter(game=game, kind="move", source="email").count()
    assert email_moves == moves and moves > 0
    # Nobody but the email players moved: no web, API, timeout or bot moves.
    assert not Action.objects.filter(game=game, kind="move").exclude(source="email").exists()
    assert game_replay_verify(game=game)
    if game.status != "finished":
        assert moves == MOVE_CAP
        print(f"\n{slug}: stopped after {MOVE_CAP} email moves (version {game.version}); "
              f"{refusals} stale answers re-answered; {elapsed:.1f}s")
    else:
        print(f"\n{slug}: finished by email in {moves} moves ({refusals} stale answers "
              f"re-answered), scores {game.result['scores']}; {elapsed:.1f}s")
    if slug == "toy":
        assert game.status == "finished"
        assert len(game.result["scores"]) == players_for("toy")
