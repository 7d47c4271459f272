"""The search and hard bot levels of every engine: legal, deterministic, and blind to what their
seat cannot see (the choice is the same when other hands, deck orders, face-down tiles and
markers and the secret seed are scrambled), with determinizers that keep everything the seat
sees."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from games.engines import bots, search
from games.engines.base import SeededRandom
from games.engines.registry import get_engine
from games.engines.seven_wonders.engine import build_deck
from games.engines.seven_wonders.free_city import (
    choosing_for_free_city,
    controller,
    free_city_hand,
)
from games.engines.seven_wonders.rules import GUILDS
from games.engines.seven_wonders.search_bot import MAX_CANDIDATES

ROLLOUTS = 8
#: Play-outs the tests give each level: the hard level's are spread over more candidates.
#: Searches are given a generous time so that their choices never depend on the machine's load.
TEST_BUDGET = {bots.SEARCH: ROLLOUTS, bots.HARD: 24}
UNBOUNDED = 600


def searched_position(slug: str, players: int, seed: str, skip: int, where=None):
    """A position reached by easy bots where the acting seat has a real choice to search (and
    that `where(state, seat)` accepts, if given)."""
    engine = get_engine(slug)
    adapter = bots.adapter_for(engine)
    state = engine.new_game(players, seed)
    seen = 0
    while not engine.is_over(state):
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        active = engine.active_seats(state)
        seat = active[0]
        if len(active) > 1:  # secret picks: the others choose first, the last seat is searched
            state = engine.apply(state, seat, engine.bot_action(state, seat))
            continue
        legal = engine.legal_actions(state, seat)
        if (len(legal) > 1 and len(adapter.candidates(state, seat, legal)) > 1
                and (where is None or where(state, seat))):
            seen += 1
            if seen > skip:
                return engine, state, seat
        state = engine.apply(state, seat, engine.bot_action(state, seat))
    raise AssertionError("the game ended before the searched decision")


# ----- scramblers: change only what `seat` cannot see ---------------------------------------


def scramble_caverna(state, seat, rng):
    from games.engines.caverna.search_bot import ROUND_STAGE

    out = copy.deepcopy(state)
    current = state["round"]
    for stage in (1, 2, 3, 4):
        rounds = [str(r) for r in state["rounds"] if r > current and ROUND_STAGE.get(r) == stage]
        cards = [out["deck"][r] for r in rounds]
        rng.shuffle(cards)
        out["deck"].update(zip(rounds, cards, strict=True))
    hidden = [r for r in out["markers"] if r not in out["revealed"]]
    markers = [out["markers"][r] for r in hidden]
    rng.shuffle(markers)
    out["markers"].update(zip(hidden, markers, strict=True))
    out["rng"] = {"seed": "scrambled", "counter": 7}
    return out


def scramble_stone_age(state, seat, rng):
    out = copy.deepcopy(state)
    hidden = list(out["deck"])
    slots = []
    for other, player in enumerate(out["players"]):
        if other == seat:
            continue
        face_up = set(player["one_use"]) | set(player["two_resources"])
        for i, card in enumerate(player["cards"]):
            if card not in face_up:
                slots.append((other, i))
                hidden.append(card)
    rng.shuffle(hidden)
    for other, i in slots:
        out["players"][other]["cards"][i] = hidden.pop()
    out["deck"] = hidden
    for stack in out["stacks"]:
        below = stack[1:]
        rng.shuffle(below)
        stack[1:] = below
    out["rng"] = {"seed": "scrambled", "counter": 3}
    return out


def scramble_seven_wonders(state, seat, rng):
    """Other hands, the discard pile, the decks and, with two players, the Free City's pile and
    (unless `seat` made it) its pick; the others' picks are chosen again from the new hands."""
    from games.engines.seven_wonders import bot as easy
    from games.engines.seven_wonders.free_city import controller, free_city_pick_actions

    out = copy.deepcopy(state)
    two_player = "free_city" in out
    others = [s for s in range(out["num_players"]) if s != seat]
    cards = [c for s in others for c in out["hands"][s]] + out["discard"]
    if two_player:
        cards += out["free_city"]["pile"]
    rng.shuffle(cards)
    for s in others:
        size = len(out["hands"][s])
        out["hands"][s], cards = cards[:size], cards[size:]
    if two_player:
        size = len(out["free_city"]["pile"])
        out["free_city"]["pile"], cards = cards[:size], cards[size:]
    out["discard"] = cards
    for key in out["decks"]:
        rng.shuffle(out["decks"][key])
    engine = get_engine("seven_wonders")
    if out["phase"] == "pick":
        for s in others:  # who has chosen is public; what they chose (from the new hand) is not
            if out["picks"][s] is not None:
                out["picks"][s] = easy.choose(out, s, engine.legal_actions(out, s))
        if two_player and controller(out) != seat and out["free_city"]["pick"] is not None:
            out["free_city"]["pick"] = easy.choose(out, controller(out),
                                                   free_city_pick_actions(out))
    out["rng"] = {"seed": "scrambled", "counter": 1}
    return out


CASES = [
    ("caverna", 2, scramble_caverna),
    ("caverna", 3, scramble_caverna),
    ("stone_age", 3, scramble_stone_age),
    ("seven_wonders", 3, scramble_seven_wonders),
]


@pytest.mark.parametrize(("slug", "players", "scramble"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
@pytest.mark.parametrize("skip", [3, 14])
@pytest.mark.parametrize("level", [bots.SEARCH, bots.HARD])
def test_search_choice_is_legal_deterministic_and_blind_to_hidden_parts(
    slug, players, scramble, skip, level
):
    engine, state, seat = searched_position(slug, players, f"blind-{slug}-{skip}", skip)
    budget = {"rollouts": TEST_BUDGET[level], "max_seconds": UNBOUNDED}
    before = copy.deepcopy(state)
    stats: dict = {}
    choice = bots.bot_move(engine, state, seat, level, stats=stats, **budget)
    assert state == before  # the search never changes the state it is given
    assert stats["searched"] and stats["playouts"] >= stats["candidates"]
    assert choice in engine.legal_actions(state, seat)
    assert bots.bot_move(engine, state, seat, level, **budget) == choice
    for k in range(2):
        scrambled = scramble(state, seat, random.Random(k))
        assert scrambled != state
        assert engine.view(scrambled, seat) == engine.view(state, seat)
        assert bots.bot_move(engine, scrambled, seat, level, **budget) == choice


@pytest.mark.parametrize(("slug", "players", "scramble"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_determinizations_keep_what_the_seat_sees_and_redraw_the_rest(slug, players, scramble):
    engine, state, seat = searched_position(slug, players, f"det-{slug}", 10)
    adapter = bots.adapter_for(engine)
    worlds = [adapter.determinize(state, seat, SeededRandom(f"d{k}")) for k in range(4)]
    for world in worlds:
        assert world["rng"]["seed"] != state["rng"]["seed"]
        assert engine.legal_actions(world, seat) == engine.legal_actions(state, seat)
        if slug != "seven_wonders":  # there others' pending picks are dropped, which shows
            assert engine.view(world, seat) == engine.view(state, seat)
        # A determinized world plays on to the end.
        final = search.playout(engine, adapter, adapter.step(
            engine, adapter.start(world), seat, engine.bot_action(world, seat)))
        assert engine.is_over(final)
    assert len({repr(sorted(w.items(), key=lambda kv: kv[0])) for w in worlds}) > 1


def test_easy_level_is_the_engines_heuristic_bot():
    engine, state, seat = searched_position("stone_age", 3, "easy", 2)
    assert bots.bot_move(engine, state, seat, bots.EASY) == engine.bot_action(state, seat)


@pytest.mark.parametrize(("slug", "players", "budget"),
                         [("seven_wonders", 3, 24), ("stone_age", 3, 64), ("caverna", 2, 12)])
def test_the_search_plays_its_engines_measured_budget_unless_given_one(slug, players, budget):
    engine, state, seat = searched_position(slug, players, f"budget-{slug}", 1)
    assert bots.adapter_for(engine).rollouts == budget
    stats: dict = {}
    bots.bot_move(engine, state, seat, bots.SEARCH, max_seconds=600, stats=stats)
    worlds = budget // stats["candidates"]
    # Every world of the budget is played, unless the race left one candidate before the end.
    assert stats["draws"] == worlds or stats["dropped"] == stats["candidates"] - 1
    assert stats["playouts"] <= worlds * stats["candidates"]
    bots.bot_move(engine, state, seat, bots.SEARCH, rollouts=2 * stats["candidates"],
                  max_seconds=600, stats=stats)
    assert stats["playouts"] == 2 * stats["candidates"]  # too few worlds to race


@pytest.mark.parametrize(("slug", "players"),
                         [("seven_wonders", 3), ("seven_wonders", 2), ("stone_age", 3),
                          ("caverna", 2)])
def test_the_hard_level_compares_as_many_moves_or_more_on_more_worlds(slug, players):
    """At a decision with many legal moves the hard level searches as many candidates as the
    search level or more, each on more worlds (its own budget, `hard_width` and
    `hard_rollouts`)."""
    adapter = bots.adapter_for(get_engine(slug))
    assert adapter.hard_width >= adapter.width and adapter.hard_rollouts > adapter.rollouts
    assert adapter.hard_rollouts // adapter.hard_width > adapter.rollouts // adapter.width

    def wide(state, seat):
        legal = get_engine(slug).legal_actions(state, seat)
        return len(adapter.candidates(state, seat, legal, adapter.hard_width)) == adapter.hard_width

    engine, state, seat = searched_position(slug, players, f"hard-{slug}-{players}", 1, wide)
    found: dict[str, dict] = {}
    for level in (bots.SEARCH, bots.HARD):
        found[level] = {}
        choice = bots.bot_move(engine, state, seat, level, max_seconds=UNBOUNDED,
                               stats=found[level])
        assert choice in engine.legal_actions(state, seat)
    assert found[bots.SEARCH]["candidates"] == adapter.width
    assert found[bots.HARD]["candidates"] == adapter.hard_width
    assert found[bots.HARD]["draws"] > found[bots.SEARCH]["draws"] or (
        found[bots.HARD]["dropped"] == adapter.hard_width - 1)


def test_the_hard_level_thinks_two_seconds_at_most_by_default():
    """The bound is read from the clock the search is given: one that moves 0.2 s at each
    look (a world seems to take 0.2 s, and 0.4 s pass from one world's start to the next) stops
    a hard search after four worlds (a fifth could end at 2.0 s, past the 95 % of 2 s it plans
    to fill), a search-level one after two (a third could end at 1.2 s)."""
    engine, state, seat = searched_position("caverna", 2, "hard-clock", 4)

    def ticking():
        ticking.now += 0.2
        return ticking.now

    for level, worlds in ((bots.HARD, 4), (bots.SEARCH, 2)):
        ticking.now = 0.0
        stats: dict = {}
        choice = bots.bot_move(engine, state, seat, level, rollouts=10_000, stats=stats,
                               clock=ticking)
        assert choice in engine.legal_actions(state, seat)
        assert stats["draws"] == worlds


@pytest.mark.parametrize(("slug", "players", "scramble"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_exploring_play_outs_keep_the_choice_deterministic_and_blind(slug, players, scramble):
    """Play-outs that stray from the easy bot's moves draw from the view's seed: the same
    choice again, and with the hidden parts scrambled."""
    engine, state, seat = searched_position(slug, players, f"explore-{slug}", 5)
    adapter = bots.adapter_for(engine)

    def choice(position, stats=None):
        return search.choose(engine, adapter, position, seat, rollouts=12, max_seconds=UNBOUNDED,
                             explore=0.5, stats=stats)

    stats: dict = {}
    chosen = choice(state, stats)
    assert stats["searched"] and chosen in engine.legal_actions(state, seat)
    assert choice(state) == chosen
    assert choice(scramble(state, seat, random.Random(1))) == chosen


def test_the_search_stops_at_its_time_budget():
    engine, state, seat = searched_position("caverna", 2, "budget", 4)
    stats: dict = {}
    choice = bots.bot_move(engine, state, seat, bots.SEARCH, rollouts=10_000, max_seconds=0.05,
                           stats=stats)
    assert choice in engine.legal_actions(state, seat)
    assert stats["draws"] < 10_000 // stats["candidates"]


def test_the_race_drops_only_candidates_clearly_worse_than_the_leader():
    leader = [10.0, 12.0, 9.0, 11.0, 10.0]
    outcomes = [
        leader,
        [9.0, 13.0, 8.0, 11.0, 10.5],  # as good on some worlds, worse on others: kept
        [1.0, 2.0, 0.0, 3.0, 1.0],  # far behind on every world: dropped
        [9.0, 11.0, 8.0, 10.0, 9.0],  # one point behind on every world: clearly worse
        [20.0, -5.0, 30.0, 0.0, 2.0],  # behind on average, but too noisy to tell: kept
    ]
    assert search._still_racing(outcomes, [0, 1, 2, 3, 4]) == [0, 1, 4]
    # Only the candidates still racing are compared, and the leader is always kept.
    assert search._still_racing(outcomes, [2, 3]) == [3]


def test_a_decision_with_a_clear_answer_ends_before_its_budget_deterministically():
    """Among the first Stone Age decisions searched is one the race settles early: fewer
    play-outs than the budget, a legal choice, and the same choice and play-outs again (the
    race depends on the play-outs only, never on timing)."""
    engine = get_engine("stone_age")
    budget = bots.adapter_for(engine).rollouts
    for skip in range(12):
        _, state, seat = searched_position("stone_age", 2, "race", skip)
        stats: dict = {}
        choice = bots.bot_move(engine, state, seat, bots.SEARCH, max_seconds=600, stats=stats)
        if stats["dropped"] == stats["candidates"] - 1:
            break
    else:
        raise AssertionError("no decision among the first dozen was settled early")
    assert stats["playouts"] < budget // stats["candidates"] * stats["candidates"]
    assert choice in engine.legal_actions(state, seat)
    again: dict = {}
    assert bots.bot_move(engine, state, seat, bots.SEARCH, max_seconds=600, stats=again) == choice
    assert again == stats


def _reversed_keys(value):
    if isinstance(value, dict):
        return {key: _reversed_keys(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed_keys(item) for item in value]
    return value


@pytest.mark.parametrize(("slug", "players"), [("stone_age", 3), ("caverna", 2)])
def test_the_choice_does_not_depend_on_key_order(slug, players):
    """A state read back from PostgreSQL (jsonb orders keys its own way) and the same state
    replayed from the log get the same move."""
    engine, state, seat = searched_position(slug, players, f"keys-{slug}", 6)
    choice = bots.bot_move(engine, state, seat, bots.SEARCH, rollouts=ROLLOUTS)
    assert bots.bot_move(engine, _reversed_keys(state), seat, bots.SEARCH,
                         rollouts=ROLLOUTS) == choice


@pytest.mark.parametrize("players", [3, 2])
def test_seven_wonders_worlds_keep_the_seats_own_choices_in_every_phase(players):
    """Halicarnassus sees the discard pile while it builds from it, Babylon B its seventh card
    (with two players also as the Free City, played by its controller): in every determinization
    the deciding seat has exactly its real options."""
    engine = get_engine("seven_wonders")
    adapter = bots.adapter_for(engine)
    phases = set()  # (phase, whether the Free City is the city deciding)
    for index in range(60):
        state = engine.new_game(players, f"phases-{index}", {"sides": "B"})
        while not engine.is_over(state):
            if engine.ready_to_resolve(state):
                state = engine.resolve(state)
                continue
            seat = engine.active_seats(state)[-1]
            if state["phase"] != "pick" or len(engine.active_seats(state)) == 1:
                world = adapter.determinize(state, seat, SeededRandom(f"p{index}"))
                assert engine.legal_actions(world, seat) == engine.legal_actions(state, seat)
                city = {"seventh": state["seventh"][:1],
                        "discard_build": state["pending_builds"][:1]}.get(state["phase"], [seat])
                phases.add((state["phase"], city[0] >= players))
            state = engine.apply(state, seat, engine.bot_action(state, seat))
        if {("discard_build", False), ("seventh", False)} <= phases and (
                players == 3 or {("discard_build", True), ("seventh", True)} <= phases):
            break
    assert {("pick", False), ("discard_build", False), ("seventh", False)} <= phases
    if players == 2:
        assert {("discard_build", True), ("seventh", True)} <= phases


# ----- 7 Wonders for two: the Free City ---------------------------------------------------


def _controls_own_pick(state, seat):
    return controller(state) == seat and not choosing_for_free_city(state, seat)


def _not_controlling(state, seat):
    return state["phase"] == "pick" and controller(state) != seat


TWO_PLAYER_DECISIONS = {
    "controls-own-card": _controls_own_pick,
    "controls-free-city-card": choosing_for_free_city,
    "does-not-control": _not_controlling,
}


@pytest.mark.parametrize("decision", list(TWO_PLAYER_DECISIONS))
@pytest.mark.parametrize("skip", [2, 7])
@pytest.mark.parametrize("level", [bots.SEARCH, bots.HARD])
def test_two_player_search_is_blind_to_the_opponents_hand_and_the_free_citys_hidden_cards(
    decision, skip, level
):
    """The opponent's hand and picks, the Free City's pile and, when the opponent controls it,
    the Free City's pick are scrambled; the seat's view is the same and so is the choice."""
    engine, state, seat = searched_position("seven_wonders", 2, f"two-{decision}-{skip}", skip,
                                            TWO_PLAYER_DECISIONS[decision])
    budget = {"rollouts": TEST_BUDGET[level], "max_seconds": UNBOUNDED}
    stats: dict = {}
    choice = bots.bot_move(engine, state, seat, level, stats=stats, **budget)
    assert stats["searched"] and stats["skipped"] == 0
    assert choice in engine.legal_actions(state, seat)
    assert bool(choice.get("free_city")) == (decision == "controls-free-city-card")
    if decision == "does-not-control":
        assert state["free_city"]["pick"] is not None  # the opponent chose it: hidden
    for k in range(3):
        scrambled = scramble_seven_wonders(state, seat, random.Random(k))
        assert scrambled["free_city"]["pile"] != state["free_city"]["pile"]
        assert engine.view(scrambled, seat) == engine.view(state, seat)
        assert bots.bot_move(engine, scrambled, seat, level, **budget) == choice


@pytest.mark.parametrize("decision", list(TWO_PLAYER_DECISIONS))
def test_two_player_worlds_keep_the_seats_cards_and_picks_and_redraw_the_rest(decision):
    engine, state, seat = searched_position("seven_wonders", 2, f"two-det-{decision}", 6,
                                            TWO_PLAYER_DECISIONS[decision])
    adapter = bots.adapter_for(engine)
    opponent = 1 - seat
    controls = controller(state) == seat
    seen = Counter(state["hands"][seat]) + Counter(
        cid for player in state["players"] for cid in player["built"])
    worlds = [adapter.determinize(state, seat, SeededRandom(f"w{k}")) for k in range(6)]
    for world in worlds:
        assert world["hands"][seat] == state["hands"][seat]
        assert world["players"] == [
            {**p, "stage_cards": w["stage_cards"]} for p, w in zip(state["players"],
                                                                  world["players"], strict=True)]
        assert world["picks"][seat] == state["picks"][seat]
        assert world["picks"][opponent] is None  # the opponent chooses again
        assert world["free_city"]["pick"] == (state["free_city"]["pick"] if controls else None)
        assert len(world["hands"][opponent]) == len(state["hands"][opponent])
        assert len(world["free_city"]["pile"]) == len(state["free_city"]["pile"])
        # Every card the seat cannot see comes from the three-city Age deck less what it sees.
        hidden = Counter(world["hands"][opponent]) + Counter(world["free_city"]["pile"])
        assert not hidden - (Counter(build_deck(state["age"], 3) + list(GUILDS)) - seen)
        assert engine.legal_actions(world, seat) == engine.legal_actions(state, seat)
        final = search.playout(engine, adapter, adapter.step(
            engine, adapter.start(world), seat, engine.bot_action(world, seat)))
        assert engine.is_over(final)
    assert len({(tuple(w["hands"][opponent]), tuple(w["free_city"]["pile"]))
                for w in worlds}) > 1


def test_the_free_citys_card_is_searched_over_every_card_left_in_the_hand():
    engine, state, seat = searched_position("seven_wonders", 2, "two-cards", 3,
                                            TWO_PLAYER_DECISIONS["controls-free-city-card"])
    legal = engine.legal_actions(state, seat)
    candidates = bots.adapter_for(engine).candidates(state, seat, legal)
    assert candidates[0] == engine.bot_action(state, seat)
    assert all(action["free_city"] is True and action in legal for action in candidates)
    cards = [action["card"] for action in candidates]
    assert len(cards) == len(set(cards))
    assert set(cards) == set(free_city_hand(state)) or len(cards) == MAX_CANDIDATES


def test_search_bots_play_whole_two_player_games_on_both_seats():
    """Every decision of both players (their cards, the Free City's, Babylon's seventh card and
    Halicarnassus' build when the Free City has them) is searched and legal to the end."""
    engine = get_engine("seven_wonders")
    for index in range(2):
        state = engine.new_game(2, f"two-whole-{index}", {"sides": "B"})
        free_city_picks = 0
        while not engine.is_over(state):
            if engine.ready_to_resolve(state):
                state = engine.resolve(state)
                continue
            seat = engine.active_seats(state)[0]
            action = bots.bot_move(engine, state, seat, bots.SEARCH, rollouts=4)
            # The Free City's card of each turn; its seventh card or build from the discard
            # pile, when its wonder gives one, comes in a phase of its own.
            free_city_picks += bool(action.get("free_city")) and state["phase"] == "pick"
            state = engine.apply(state, seat, action)  # raises IllegalAction on an illegal move
        assert free_city_picks == 18  # one a turn, 6 turns in each of 3 Ages
        assert len(engine.result(state)["scores"]) == 2
