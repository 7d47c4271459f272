"""The worked examples of the seed rulebook (seeds/001, a Persian translation of the first-edition
rulebook) that the reference's section 22 does not already cover, and the wonder effects that
had no test of their own. Each test names the seed line it follows; docs/rules/seven_wonders.md
maps every example to its test."""

from games.engines.seven_wonders.engine import engine
from games.engines.seven_wonders.scoring import final_result
from tests.engines.english import english_view
from tests.engines.seven_wonders.helpers import card, city, game, hand, options_for, pick_all


def build(cid, **extra):
    return {"type": "build", "card": cid, **extra}


def discard(cid):
    return {"type": "discard", "card": cid}


def fill_hands(state, names_by_seat):
    for seat, cards in names_by_seat.items():
        hand(state, seat, cards)
    return state


def test_seed_line_120_east_trading_post_is_free():
    state = game(3)
    city(state, 0, coins=0)
    hand(state, 0, [card("East Trading Post"), card("Altar")])
    assert options_for(state, 0, card("East Trading Post")) == [build(card("East Trading Post"))]
    assert engine.describe(state, 0, build(card("East Trading Post")), viewer=0) == (
        "Build East Trading Post: free")


def test_seed_line_175_scriptorium_makes_library_free_the_seed_names_them_backwards():
    """The seed says Library (Age I) makes Scriptorium (Age II) free: the two names are swapped
    (Scriptorium is an Age I card, Library an Age II card). The printed chain is used."""
    state = game(3)
    state["age"] = 2
    city(state, 0, built=[card("Scriptorium")], coins=0)
    hand(state, 0, [card("Library"), card("Courthouse")])
    assert options_for(state, 0, card("Library")) == [build(card("Library"), free="chain")]
    assert options_for(state, 0, card("Courthouse")) == [build(card("Courthouse"), free="chain")]
    assert engine.describe(state, 0, build(card("Library"), free="chain"), viewer=0) == (
        "Build Library: free by chain from Scriptorium")
    # Without Scriptorium and without coins, Library (2 stone + loom) cannot be built.
    city(state, 0, built=[])
    assert options_for(state, 0, card("Library")) == []


def test_seed_line_177_theater_then_statue_then_gardens_all_free():
    state = game(3)
    state["age"] = 2
    city(state, 0, built=[card("Theater")], coins=0)
    fill_hands(state, {0: [card("Statue"), card("Temple")],
                       1: [card("Altar"), card("Baths")], 2: [card("Altar"), card("Baths")]})
    [statue] = options_for(state, 0, card("Statue"))
    assert statue == build(card("Statue"), free="chain")
    after = pick_all(state, {0: statue})
    assert card("Statue") in after["players"][0]["built"]
    assert after["players"][0]["coins"] == 0
    after["age"] = 3
    hand(after, 0, [card("Gardens"), card("Senate")])
    assert options_for(after, 0, card("Gardens")) == [build(card("Gardens"), free="chain")]


def test_seed_line_225_alexandria_builds_stage_two_with_its_own_two_ore_card_hidden():
    state = game(3, ["alexandria", "giza", "rhodes"])
    city(state, 0, built=[card("Ore Vein"), card("Mine")], stages=1)
    fill_hands(state, {0: [card("Altar"), card("Baths")],
                       1: [card("Theater"), card("Stone Pit")],
                       2: [card("Clay Pool"), card("Lumber Yard")]})
    [stage] = options_for(state, 0, card("Altar"), "wonder")
    assert stage == {"type": "wonder", "card": card("Altar")}  # no purchase: own 2 ore
    assert engine.describe(state, 0, stage, viewer=0) == (
        "Build wonder stage 2 with Altar: own resources")
    after = pick_all(state, {0: stage})
    assert after["players"][0]["stage_cards"][-1] == card("Altar")
    # The card under the board is hidden: not in any view, not in the public log line.
    for viewer in (None, 0, 1, 2):
        view = english_view(engine, after, viewer)
        assert "Altar" not in str(view["players"][0])
        assert "Seat 0 built wonder stage 2." in view["events"]
    assert engine.describe(state, 0, stage, viewer=1) == "Seat 0 chose a card."


def test_seed_line_253_seven_cards_pass_left_six_times_the_last_pair_leaves_one_card():
    state = engine.new_game(3, "ali-passes")
    seen = [list(state["hands"][seat]) for seat in range(3)]
    for turn in range(1, 6):
        assert [len(h) for h in state["hands"]] == [8 - turn] * 3
        state = pick_all(state, {})
        # Age I: seat i's remaining cards are now held by its left neighbour (i + 1).
        for seat in range(3):
            assert set(state["hands"][(seat + 1) % 3]) <= set(seen[seat])
        seen = [list(state["hands"][seat]) for seat in range(3)]
    assert [len(h) for h in state["hands"]] == [2, 2, 2]
    coins = [p["coins"] for p in state["players"]]
    state = pick_all(state, {})
    assert (state["age"], state["turn"]) == (2, 1)
    assert [p["coins"] for p in state["players"]] == [c + 3 for c in coins]  # not 6


def test_seed_trading_post_discount_starts_the_turn_after_it_is_built():
    state = game(3, ["olympia", "giza", "rhodes"])  # left Giza sells stone
    fill_hands(state, {0: [card("West Trading Post"), card("Baths")],
                       1: [card("Altar"), card("Theater")],
                       2: [card("Clay Pool"), card("Lumber Yard")]})
    assert options_for(state, 0, card("Baths"))[0]["pay"] == {"left": 2}
    after = pick_all(state, {0: build(card("West Trading Post"))})
    hand(after, 0, [card("Baths"), card("Stockade")])
    assert options_for(after, 0, card("Baths"))[0]["pay"] == {"left": 1}


def test_halicarnassus_b_every_stage_builds_from_the_discard_pile_with_its_coins():
    state = game(3, ["halicarnassus", "giza", "rhodes"], sides="B")
    # B stage 1 costs 2 ore, stage 2 3 clay, stage 3 glass + loom + papyrus.
    city(state, 0, built=[card("Ore Vein"), card("Mine"), card("Brickyard", 2),
                          card("Clay Pool"), card("Glassworks", 1), card("Press", 1)], coins=3)
    state["discard"] = [card("Tavern")]
    discards = {1: ("Lumber Yard", "Clay Pit"), 2: ("Stone Pit", "Timber Yard"),
                3: ("Altar", "Baths")}
    for stage_number in (1, 2, 3):
        coins = state["players"][0]["coins"]
        first, second = discards[stage_number]
        fill_hands(state, {0: [card("Theater"), card("Stockade")],
                           1: [card(first), card("Pawnshop")],
                           2: [card(second), card("Pawnshop")]})
        [stage] = options_for(state, 0, card("Theater"), "wonder")
        mid = pick_all(state, {0: stage})  # seats 1 and 2 discard their first card
        assert mid["phase"] == "discard_build" and engine.active_seats(mid) == [0]
        assert not engine.ready_to_resolve(mid)
        assert engine.legal_actions(mid, 1) == [] and engine.legal_actions(mid, 2) == []
        choices = [a["card"] for a in engine.legal_actions(mid, 0)]
        # The cards discarded this very turn are in the pile.
        assert card(first) in choices and card(second) in choices
        pick = card("Tavern") if stage_number == 1 else choices[0]
        state = engine.apply(mid, 0, {"type": "discard_build", "card": pick})
        assert pick in state["players"][0]["built"] and pick not in state["discard"]
        expected = coins + (5 if pick == card("Tavern") else 0)
        assert state["players"][0]["coins"] == expected  # the built card's own coins
        assert state["phase"] == "pick" and state["turn"] == stage_number + 1
        assert [len(h) for h in state["hands"]] == [1, 1, 1]  # passed after the build
    assert len(state["players"][0]["stage_cards"]) == 3
    assert final_result(state["players"])["breakdown"][0]["wonder"] == 2 + 1  # B: 2, 1, 0


def test_alexandria_b_stage_two_gives_one_manufactured_good_of_choice_for_its_owner_only():
    state = game(3, ["alexandria", "giza", "babylon"], sides="B")  # right sells clay
    city(state, 0, stages=2, coins=0)
    # Alexandria makes glass (board) and, from stage 2, one of glass/loom/papyrus.
    hand(state, 0, [card("Apothecary"), card("Scriptorium")])
    assert options_for(state, 0, card("Apothecary")) == [build(card("Apothecary"))]
    assert options_for(state, 0, card("Scriptorium")) == [build(card("Scriptorium"))]
    state["age"] = 2
    # Courthouse needs 2 clay + loom: stage 2 gives the loom, stage 1 one raw unit (a clay);
    # the second clay would have to be bought, and seat 0 holds no coin.
    hand(state, 0, [card("Courthouse"), card("Laboratory")])
    assert options_for(state, 0, card("Courthouse")) == []
    city(state, 0, coins=2)
    assert [a.get("pay") for a in options_for(state, 0, card("Courthouse"))] == [{"right": 2}]
    # A neighbour never buys the stage production: Giza (seat 1) cannot get loom from it.
    hand(state, 1, [card("Apothecary"), card("Baths")])
    assert options_for(state, 1, card("Apothecary")) == []


def test_babylon_a_stage_two_wildcard_is_scored_as_the_best_symbol():
    state = game(3, ["babylon", "giza", "rhodes"])
    city(state, 0, stages=2, built=[card("Apothecary"), card("Workshop")])
    # compass + gear + wildcard -> tablet: 1 + 1 + 1 + 7.
    assert final_result(state["players"])["breakdown"][0]["science"] == 10
    city(state, 0, stages=1)
    assert final_result(state["players"])["breakdown"][0]["science"] == 2
