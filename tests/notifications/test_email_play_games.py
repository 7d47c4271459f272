"""Whole games played by email alone, to the finished state: every registered engine (Stone Age,
7 Wonders, Caverna) and the test toy game, three players who only ever answer the latest email
they got, through `manage.py receive_email`. Mostly they answer with a number picked at random
from the choices the email lists; when an email says there are more choices than it lists, they
sometimes ask for "more" or "find WORD" first. At the end the log replays to the stored state,
every move came from email, and an answer to an old email is refused without changing the game.
"""

from __future__ import annotations

import hashlib
import random
import re
import time

import pytest

from games.engines import registry
from games.models import Action, Game
from games.services import game_replay_verify
from notifications.inbound import context as play
from notifications.inbound.commands import words_of
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

#: A safety net against a loop that never ends, far above any engine's game length (Stone Age
#: with three players takes about 700 email moves); reaching it fails the test.
MAX_ANSWERS = 5000
ENGINES = sorted({engine.slug for engine in registry.all_engines()} | {"toy"})
#: Share of answers sent to one of the player's older emails instead of the latest.
OLDER_ANSWERS = 0.05
#: Answers (not moves) the players send: "more" or "find WORD" when a list is cut.
NARROWING = {"more", "find"}


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


def hidden_count(message) -> int:
    found = re.search(r"^\.\.\. and (\d+) more", message.body, flags=re.MULTILINE)
    return int(found.group(1)) if found else 0


def first_line_for(message, rng: random.Random, stats: dict) -> str:
    choices = numbered_choices(message)
    assert choices, "an email with a reply address but no choices"
    stats["largest_list"] = max(stats["largest_list"], len(choices) + hidden_count(message))
    if hidden_count(message) and rng.random() < 0.3:
        if rng.random() < 0.5:
            return "more"
        words = [w for w in words_of(rng.choice(list(choices.values()))) if len(w) > 3]
        if words:
            return f"find {rng.choice(words)}"
    return str(rng.choice(sorted(choices)))


def play_by_email(slug: str, seed: str, players: int | None = None) -> tuple[Game, dict]:
    rng = random.Random(seed)
    game, users = started(slug, players or players_for(slug),
                          seed=hashlib.sha256(seed.encode()).hexdigest())
    answered: set[str] = set()
    stats = {"moves": 0, "refused": 0, "narrowing": 0, "largest_list": 0, "answers": 0,
             "continued": 0, "older_played": 0}
    while stats["answers"] < MAX_ANSWERS:
        game.refresh_from_db()
        if game.status != "active":
            break
        waiting = [(user, message) for user in users
                   if (message := actionable(user, answered)) is not None]
        assert waiting, f"{slug}: nobody has an email to answer at version {game.version}"
        older = rng.random() < OLDER_ANSWERS
        if older:
            # A player answers one of their older emails (already answered or overtaken).
            user = rng.choice(users)
            candidates = [m for m in mails_to(user) if reply_to_of(m) and numbered_choices(m)]
            if not candidates:
                continue
            message = rng.choice(candidates)
            line = str(rng.choice(sorted(numbered_choices(message))))
        else:
            user, message = waiting[rng.randrange(len(waiting))]
            answered.add(message.extra_headers["Message-ID"])
            line = first_line_for(message, rng, stats)
        version_before = game.version
        pipe(answer(message, line))
        stats["answers"] += 1
        outcome = InboundMessage.objects.order_by("-id").first()
        if outcome.status == "applied":
            stats["moves"] += 1
            stats["older_played"] += outcome.token_version != version_before
            game.refresh_from_db()
            reply = next(m for m in reversed(mails_to(user))
                         if m.extra_headers.get("In-Reply-To") == outcome.message_id)
            assert reply.extra_headers["X-Turnpost-Outcome"] == "applied; move"
            # Exactly the move the answered email listed under that number, however old.
            assert f"Played: {numbered_choices(message)[int(line)]}" in reply.body, slug
            if play.is_their_turn(game, user):
                # Still (or again, after the engine resolved something) their turn: the answer
                # or a later "your turn" email lists the next choices under a new address.
                latest = mails_to(user)[-1]
                assert reply_to_of(latest) and numbered_choices(latest), slug
                stats["continued"] += latest is reply
            else:
                # Not their turn, or the game ended (perhaps only when the engine resolved the
                # last step after this answer was written).
                assert not reply_to_of(reply)
                assert "It is not your move now" in reply.body or "Result:" in reply.body, slug
        elif outcome.status == "answered":
            assert outcome.reason in NARROWING and line.split()[0] in NARROWING, (
                slug, line, outcome.reason)
            stats["narrowing"] += 1
        else:
            # Only an older email may be refused: the game moved on and the player's choices
            # changed (answered with the current ones, which the loop then answers), or they
            # have nothing to decide now; past EMAIL_PLAY_REFUSALS_PER_HOUR refusals, silently.
            # Nothing moved.
            assert older and outcome.reason in ("stale_version", "not_your_turn", "throttled"), (
                slug, outcome.reason, outcome.detail)
            assert Game.objects.get(pk=game.pk).version == version_before
            stats["refused"] += 1
    game.refresh_from_db()
    return game, {**stats, "users": users}


# The toy engine's whole game in `make test`; the shipped engines' in `make test-slow`.
@pytest.mark.parametrize("slug", [
    pytest.param(slug, marks=() if slug == "toy" else pytest.mark.slow)
    for slug in ENGINES])
def test_a_whole_game_by_email_alone(slug, settings):
    started_at = time.perf_counter()
    game, stats = play_by_email(slug, seed=f"email-{slug}")
    elapsed = time.perf_counter() - started_at
    users = stats.pop("users")
    assert game.status == "finished", (slug, game.status, stats)
    assert len(game.result["scores"]) == players_for(slug)
    email_moves = Action.objects.filter(game=game, kind="move", source="email").count()
    assert email_moves == stats["moves"] > 0
    # Nobody but the email players moved: no web, API, timeout or bot moves; the only others
    # are the decisions that needed nobody (forced moves and standing orders, source auto).
    assert not Action.objects.filter(game=game, kind="move").exclude(
        source__in=["email", "auto"]).exists()
    # Every move of every player was an email answer.
    assert set(Action.objects.filter(game=game, kind="move").values_list(
        "seat_number", flat=True)) == set(range(players_for(slug)))
    # The log replays to exactly the stored final state.
    assert game.state is not None and game_replay_verify(game=game)
    # Everyone was told the result; an answer to an old email now changes nothing.
    for user in users:
        assert any(m.subject.endswith(" is over") and "(winner)" in m.body
                   for m in mails_to(user)[-3:]), slug
    version = game.version
    settings.EMAIL_PLAY_REFUSALS_PER_HOUR = 10_000  # the game's refusals do not silence this one
    old = next(m for m in mails_to(users[0]) if reply_to_of(m))
    pipe(answer(old, "1"))
    last = InboundMessage.objects.order_by("-id").first()
    assert (last.status, last.reason) == ("refused", "game_over")
    game.refresh_from_db()
    assert game.version == version and game.status == "finished"
    print(f"\n{slug}: finished by email alone with {players_for(slug)} players in "
          f"{stats['moves']} moves ({stats['answers']} answers: {stats['narrowing']} more/find, "
          f"{stats['refused']} answers to older emails refused, {stats['older_played']} moves "
          f"from emails the game had moved past, choices unchanged; {stats['continued']} "
          f"answers carried the next step's choices; longest list {stats['largest_list']}), "
          f"scores {game.result['scores']}; {elapsed:.1f}s")


@pytest.mark.slow
def test_seven_wonders_for_two_by_email_alone():
    """The two-player variant by email: the seat holding the Free City card answers twice a
    turn (its own card, then the Free City's, whose choices say "For the Free City")."""
    game, stats = play_by_email("seven_wonders", seed="email-seven-wonders-two", players=2)
    users = stats.pop("users")
    assert game.status == "finished" and len(game.result["scores"]) == 2
    assert "free_city" in game.result
    moves = Action.objects.filter(game=game, kind="move")
    assert not moves.exclude(source="email").exists()
    assert moves.count() == stats["moves"] >= 18 * 3
    assert sum(1 for move in moves if move.payload.get("free_city")) >= 18
    assert game_replay_verify(game=game)
    for user in users:
        assert any(m.subject.endswith(" is over") for m in mails_to(user)[-3:])
    # The Free City's choices were offered by email in words, to the seat controlling it.
    assert any("For the Free City: " in m.body for user in users for m in mails_to(user))
