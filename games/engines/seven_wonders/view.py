"""What each seat may see of a 7 Wonders game, and the sentences for the log. Every word a
player reads in a view is a text (a message key with parameters, games.engines.texts) that the
presentation layer renders in the reader's language.

Hidden: other seats' hands and pending picks, the deck order and unused guilds, the cards under
wonder stages, and the discard pile (shown only to Halicarnassus while it chooses from it). With
two players also the Free City's pile and pick: the card the controller draws joins its hand,
which only it sees, and the Free City's pick is seen only by the seat that made it."""

from __future__ import annotations

from typing import Any

from games.engines.texts import text

from . import texts
from .data import CARDS, WONDERS
from .free_city import FREE_CITY, controller, is_free_city, is_two_player
from .rules import (
    CARD_COLOR,
    COLORS,
    RESOURCES,
    left_of,
    olympia_free_available,
    production,
    right_of,
    stage_list,
)
from .scoring import CATEGORIES, final_result, score_seat


def card_info(cid: str) -> dict[str, Any]:
    card = CARDS[cid]
    return {
        "id": cid,
        "name": texts.card_name(cid),
        "color": card["color"],
        "age": card["age"],
        "cost": texts.cost_text(card["coins"], card["cost"]),
        "chain_from": [texts.named_card(name) for name in card["chain_from"]],
        "effect": texts.effect_text(card["effect"]),
    }




def describe_action(
    state: dict[str, Any], seat: int, action: dict[str, Any], viewer: int | None
) -> str:
    return texts.english(texts.describe_text(state, seat, action, viewer))


def describe_resolution(state: dict[str, Any], viewer: int | None = None) -> str:
    return texts.english(texts.resolution_text(state, viewer))


def _player_public(state: dict[str, Any], seat: int) -> dict[str, Any]:
    player = state["players"][seat]
    count = len(state["players"])  # cities: with two players the Free City is a neighbour
    if player["wonder"] is None or player["side"] is None:
        # Still choosing at set-up: only what was dealt so far.
        dealt = WONDERS[player["wonder"]] if player["wonder"] else None
        return {
            "seat": seat,
            "left": left_of(seat, count),
            "right": right_of(seat, count),
            "wonder": {"id": player["wonder"],
                       "name": text("sw.wonder_name", wonder=player["wonder"]),
                       "city": text("sw.city_name", city=player["wonder"]),
                       "side": None, "resource": dealt["resource"], "stages": [],
                       "stages_built": 0} if dealt else None,
            "coins": player["coins"],
            "shields": 0,
            "tokens": [],
            "cards": {},
            "card_count": 0,
            "hand_size": 0,
            "has_picked": False,
            "points_so_far": 0,
        }
    wonder = WONDERS[player["wonder"]]
    stages = stage_list(player["wonder"], player["side"])
    built_stages = len(player["stage_cards"])
    made = production(player)
    cards: dict[str, list[dict[str, Any]]] = {color: [] for color in COLORS}
    for cid in player["built"]:
        cards[CARD_COLOR[cid]].append({"id": cid, "name": texts.card_name(cid),
                                       "effect": texts.effect_text(CARDS[cid]["effect"])})
    scores, _ = score_seat(state["players"], seat)
    if is_free_city(state, seat):
        picked = state["phase"] == "pick" and state["free_city"]["pick"] is not None
        hand_size = 0
    else:
        picked = state["phase"] == "pick" and state["picks"][seat] is not None
        hand_size = len(state["hands"][seat])
    return {
        "seat": seat,
        "left": left_of(seat, count),
        "right": right_of(seat, count),
        "wonder": {
            "id": player["wonder"],
            "name": text("sw.wonder_name", wonder=player["wonder"]),
            "city": text("sw.city_name", city=player["wonder"]),
            "side": player["side"],
            "resource": wonder["resource"],
            "stages": [
                {
                    "number": index + 1,
                    "cost": texts.cost_text(0, stage["cost"]),
                    "effect": texts.effect_text(stage["effect"]),
                    "built": index < built_stages,
                }
                for index, stage in enumerate(stages)
            ],
            "stages_built": built_stages,
        },
        "coins": player["coins"],
        "shields": made["shields"],
        "tokens": list(player["tokens"]),
        "cards": {color: items for color, items in cards.items() if items},
        "card_count": len(player["built"]),
        "produces": {
            "fixed": {RESOURCES[i]: n for i, n in enumerate(made["own_fixed"]) if n},
            "choices": [[RESOURCES[i] for i in group] for group in made["own_groups"]],
            "sellable": {RESOURCES[i]: n for i, n in enumerate(made["sell_fixed"]) if n},
            "sellable_choices": [[RESOURCES[i] for i in group] for group in made["sell_groups"]],
        },
        "free_build_available": olympia_free_available(player, state["age"]),
        "hand_size": hand_size,
        "has_picked": picked,
        "score_so_far": scores,
        "points_so_far": sum(scores.values()),
    }


def _role(viewer: int | None, seat: int, count: int) -> str:
    """Where a city sits relative to the viewer, for the board's layout."""
    if viewer is None:
        return ""
    if seat == viewer:
        return "you"
    if seat == left_of(viewer, count):
        return "left"
    if seat == right_of(viewer, count):
        return "right"
    return ""


def _result_view(state: dict[str, Any]) -> dict[str, Any]:
    count = state["num_players"]
    outcome = final_result(state["players"], ranked=count)

    def row(index: int) -> dict[str, Any]:
        copied = outcome["copied_guilds"][index]
        return {
            "seat": index,
            "breakdown": outcome["breakdown"][index],
            "total": outcome["scores"][index],
            "coins": state["players"][index]["coins"],
            "copied_guild": texts.card_name(copied) if copied else None,
            "winner": index in outcome["winners"],
        }

    result = {
        "scores": outcome["scores"][:count],
        "winners": outcome["winners"],
        "categories": list(CATEGORIES),
        "rows": [row(index) for index in range(count)],
    }
    if is_two_player(state):
        # Shown for the record, never ranked (reference 19.6).
        result["free_city"] = {**row(FREE_CITY), "seat": None, "winner": False}
    return result


def build_view(engine: Any, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    count = state["num_players"]
    cities = len(state["players"])
    two_player = is_two_player(state)
    if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < count):
        seat = None
    phase = state["phase"]
    active = engine.active_seats(state)
    result = _result_view(state) if phase == "over" else None
    # With two players the hands swap over the Border card every turn.
    direction = "across" if two_player else "right" if state["age"] == 2 else "left"
    data: dict[str, Any] = {
        "game": "seven_wonders",
        "phase": phase,
        "age": state["age"],
        "age_name": text("sw.age_name", age=state["age"]),
        "turn": state["turn"],
        "direction": direction,
        "num_players": count,
        "active_seats": active,
        "waiting_for": len(active) if phase == "pick" else (1 if active else 0),
        "players": [
            {**_player_public(state, index), "role": _role(seat, index, cities)}
            for index in range(count)
        ],
        "discard_count": len(state["discard"]),
        "events": [texts.event_text(state, event, seat) for event in state["events"]],
        "conflicts": state["conflicts"],
        "categories": list(CATEGORIES),
        "result": result,
        "you": None,
    }
    in_play = phase not in ("setup", "over")
    if two_player:
        data["free_city"] = {
            **_player_public(state, FREE_CITY),
            "seat": None,
            "name": text("sw.free_city"),
            "role": _role(seat, FREE_CITY, cities) or "free_city",
            "controller": controller(state) if in_play else None,
            "pile_size": len(state["free_city"]["pile"]),
        }
    if seat is not None:
        you: dict[str, Any] = {"seat": seat, "left": left_of(seat, cities),
                               "right": right_of(seat, cities), "hand": [], "pick": None,
                               "pick_text": None, "discard": None}
        if phase != "setup":
            legal = engine.legal_actions(state, seat)
            by_card: dict[str, list[str]] = {}
            for action in legal:
                if "card" in action and action["type"] != "discard_build":
                    by_card.setdefault(action["card"], []).append(
                        texts.own_action_text(state, seat, action))
            you["hand"] = [
                {**card_info(cid), "options": by_card.get(cid, [])}
                for cid in state["hands"][seat]
            ]
        pick = state["picks"][seat] if phase == "pick" else None
        if pick is not None:
            you["pick"] = pick
            you["pick_text"] = texts.own_action_text(state, seat, pick)
        if phase == "discard_build" and active == [seat]:
            you["discard"] = [card_info(cid) for cid in sorted(state["discard"])]
        if two_player:
            controls = in_play and controller(state) == seat
            you["controls_free_city"] = controls
            # The Free City's pick is a secret of the seat that made it, like its own pick.
            city_pick = state["free_city"]["pick"] if controls and phase == "pick" else None
            you["free_city_pick"] = city_pick
            you["free_city_pick_text"] = (
                texts.own_action_text(state, seat, city_pick) if city_pick else None)
        data["you"] = you
    return data
