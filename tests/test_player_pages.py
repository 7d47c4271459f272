"""Profiles, leaderboards and finished games, as pages and through the API: what they show, and
that nothing private (email, timezone, vacations, private games) reaches others."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Vacation
from games import services
from games.models import DeadlineOutcome, Game, GameStatus, Rating, Seat
from games.services import ratings
from games.services.reliability import deadline_record
from tests.factories import UserFactory, open_game

pytestmark = pytest.mark.django_db


def finished(users, *, winner_index=0, scores=None, **options):
    """A toy game of `users`, finished with the given winner, rated through the real code."""
    game = services.game_create(creator=users[0], engine_slug="toy", num_players=len(users),
                                **options)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user, via_link=True)
    services.game_start(game_id=game.pk, user=users[0])
    seats = {seat.user_id: seat.number for seat in game.seats.all()}
    points = [0] * len(users)
    for user, score in zip(users, scores or [len(users) - i for i in range(len(users))],
                           strict=True):
        points[seats[user.pk]] = score
    Game.objects.filter(pk=game.pk).update(
        status=GameStatus.FINISHED, finished_at=timezone.now(),
        result={"scores": points, "winners": [seats[users[winner_index].pk]],
                "breakdown": [{"food": p, "tools": 1} for p in points]})
    ratings.ratings_apply(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def people():
    alice = UserFactory(display_name="Alice Stone", timezone="Asia/Tokyo")
    bob, carol = UserFactory(), UserFactory()
    return alice, bob, carol


def test_the_profile_shows_records_ratings_reliability_and_head_to_head(people, api_client):
    alice, bob, carol = people
    finished([alice, bob])
    finished([bob, alice])
    finished([alice, bob, carol], winner_index=2)
    now = timezone.now()
    seat = Seat(user=alice, game=Game.objects.first())
    for outcome in [DeadlineOutcome.MET] * 3 + [DeadlineOutcome.TIMED_OUT]:
        deadline_record(seat, deadline_at=now, outcome=outcome, now=now)
    Vacation.objects.create(user=alice, starts_at=now, ends_at=now + timedelta(days=2))
    current, _ = open_game(2)
    services.game_leave(game_id=current.pk, user=_[1])
    services.game_join(game_id=current.pk, user=alice)

    api_client.force_authenticate(bob)
    body = api_client.get(f"/api/v1/users/{alice.username}/").json()
    assert body["display_name"] == "Alice Stone" and body["username"] == alice.username
    toy = next(record for record in body["engines"] if record["engine"] == "toy")
    assert (toy["played"], toy["won"]) == (3, 1)
    assert toy["rating"]["rated_games"] == 3 and toy["rating"]["provisional"] is True
    assert body["reliability"] == {"percent": 75, "recent_deadlines": 4, "met": 3, "missed": 1,
                                   "timeouts_total": 1, "games_abandoned_to_bot": 0}
    # Bob's view: of the three games together, Alice placed ahead twice, Bob once.
    assert body["head_to_head"] == {"games": 3, "player_ahead": 2, "viewer_ahead": 1,
                                    "level": 0}
    assert [g["id"] for g in body["current_games"]] == [current.pk]
    text = str(body)
    for private in (alice.email, "Asia/Tokyo", "vacation"):
        assert private not in text

    web = Client()
    web.force_login(bob)
    page = web.get(f"/users/{alice.username}/").content.decode()
    assert "Alice Stone" in page and "75%" in page and "of the last 4 deadlines" in page
    assert "You and Alice Stone" in page
    assert "3 finished games together: you placed ahead 1, behind 2" in page
    for private in (alice.email, "Asia/Tokyo", "acation"):
        assert private not in page
    assert Client().get("/users/nobody-at-all/").status_code == 404


def test_head_to_head_counts_who_placed_higher(people):
    from games.selectors.profiles import head_to_head

    alice, bob, carol = people
    finished([alice, bob], scores=[5, 3])               # Alice ahead
    finished([alice, bob, carol], winner_index=2, scores=[4, 4, 9])  # level
    finished([bob, alice], scores=[7, 2])               # Bob ahead
    finished([bob, carol])                              # without Alice
    record = head_to_head(alice, bob)
    assert (record.games, record.ahead, record.behind, record.level) == (3, 1, 1, 1)
    assert head_to_head(alice, alice) is None


def test_a_private_game_stays_off_others_profiles_and_finished_lists(people, api_client):
    alice, bob, carol = people
    public = finished([alice, bob])
    private = finished([alice, carol], allow_spectators=False)
    web = Client()
    web.force_login(bob)
    for url in (f"/users/{alice.username}/", "/games/finished/"):
        page = web.get(url).content.decode()
        assert f"/games/{public.pk}/" in page and f"/games/{private.pk}/" not in page
    api_client.force_authenticate(bob)
    listed = api_client.get(f"/api/v1/games/?status=finished&player={alice.username}").json()
    assert [g["id"] for g in listed["results"]] == [public.pk]
    api_client.force_authenticate(carol)
    listed = api_client.get(f"/api/v1/games/?status=finished&player={alice.username}").json()
    assert [g["id"] for g in listed["results"]] == [private.pk, public.pk]


def test_finished_games_show_standings_breakdown_rating_change_and_replay_link(people,
                                                                            api_client):
    alice, bob, carol = people
    game = finished([alice, bob, carol], scores=[9, 9, 2], winner_index=1)
    page = Client().get("/games/finished/?engine=toy").content.decode()
    assert f'href="/games/{game.pk}/?version=0"' in page
    assert "food 9 · tools 1" in page and "rating 0.0 →" in page
    standings = api_client.get("/api/v1/games/?status=finished&engine=toy").json()[
        "results"][0]["standings"]
    assert [(row["rank"], row["username"], row["points"]) for row in standings] == [
        (1, bob.username, 9), (2, alice.username, 9), (3, carol.username, 2)]
    assert standings[0]["breakdown"] == {"food": 9, "tools": 1}
    assert standings[0]["rating"]["after"] > standings[2]["rating"]["after"]
    assert api_client.get("/api/v1/games/?engine=chess").status_code == 400
    assert api_client.get("/api/v1/games/?player=nobody").status_code == 404


def test_finished_games_are_paginated_and_filtered_by_engine(people):
    alice, bob, _ = people
    games = [finished([alice, bob]) for _ in range(23)]
    first = Client().get(f"/users/{alice.username}/").content.decode()
    assert "Page 1 of 2" in first and f"/games/{games[-1].pk}/" in first
    assert f'/games/{games[0].pk}/"' not in first
    second = Client().get(f"/users/{alice.username}/?page=2").content.decode()
    assert f'/games/{games[0].pk}/"' in second
    other = Client().get(f"/users/{alice.username}/?engine=stone_age").content.decode()
    assert "No finished games of this game yet." in other


def test_the_leaderboard_page_and_api(people, api_client):
    alice, bob, carol = people
    for _ in range(3):
        finished([alice, bob, carol])
    page = Client().get("/leaderboard/toy/").content.decode()
    assert page.index("Alice Stone") < page.index(bob.username) < page.index(carol.username)
    assert "?" in page
    rows = api_client.get("/api/v1/leaderboard/toy/").json()["results"]
    assert [row["username"] for row in rows] == [alice.username, bob.username, carol.username]
    assert rows[0]["rated_games"] == 3 and rows[0]["provisional"] is True
    assert rows[0]["rating"] > rows[1]["rating"] > rows[2]["rating"]
    assert Client().get("/leaderboard/chess/").status_code == 404
    assert api_client.get("/api/v1/leaderboard/chess/").status_code == 404


def test_the_leaderboards_page_lists_every_game_and_is_linked_from_the_lobby(people):
    from games.engines.registry import all_engines

    alice, bob, carol = people
    finished([alice, bob])
    lobby = Client().get("/").content.decode()
    assert 'href="/leaderboard/"' in lobby
    page = Client().get("/leaderboard/")
    assert page.status_code == 200
    text = page.content.decode()
    for engine in all_engines():
        assert f'href="/leaderboard/{engine.slug}/"' in text
    # The toy game's leaders, best first, and the others' empty boards say so.
    toy = text[text.index('href="/leaderboard/toy/"'):]
    assert toy.index(alice.public_name) < toy.index(bob.public_name)
    assert "Nobody has finished a rated" in text


def test_rated_shows_only_on_games_that_will_change_ratings(people):
    from games.templatetags.player_tags import will_be_rated

    alice, bob, carol = people
    against_bots = services.game_create(creator=alice, engine_slug="toy", num_players=2)
    services.game_add_bot(game_id=against_bots.pk, user=alice)
    assert not will_be_rated(against_bots)
    waiting = services.game_create(creator=alice, engine_slug="toy", num_players=3)
    services.game_add_bot(game_id=waiting.pk, user=alice)
    assert will_be_rated(waiting)  # the empty seat may still take a player
    unrated = services.game_create(creator=alice, engine_slug="toy", num_players=2, rated=False)
    assert not will_be_rated(unrated)
    client = Client()
    client.force_login(alice)
    assert "\">Unrated" in client.get(f"/games/{against_bots.pk}/").content.decode()
    assert "\">Rated" in client.get(f"/games/{waiting.pk}/").content.decode()
    services.game_start(game_id=against_bots.pk, user=alice)
    Game.objects.filter(pk=against_bots.pk).update(
        status=GameStatus.FINISHED, finished_at=timezone.now(),
        result={"scores": [3, 1], "winners": [0], "breakdown": [{}, {}]})
    ratings.ratings_apply(game_id=against_bots.pk)
    listed = client.get("/games/finished/").content.decode()
    assert "unrated" in listed and not Rating.objects.filter(user=alice).exists()
