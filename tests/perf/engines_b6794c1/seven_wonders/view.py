"""What each seat may see of a 7 Wonders game, and the sentences for the log.

Hidden: other seats' hands and pending picks, the deck order and unused guilds, the cards under
wonder stages, and the discard pile (shown only to Halicarnassus while it chooses from it)."""

from __future__ import annotations

from typing import Any

from .data import CARDS, WONDERS
from .rules import (
    AGE_NAMES,
    CARD_COLOR,
    CARD_NAME,
    COLORS,
    RESOURCES,
    city_names,
    left_of,
    olympia_free_available,
    production,
    resources_text,
    right_of,
    stage_list,
)
from .scoring import CATEGORIES, final_result, score_seat


def effect_text(effect: dict[str, Any]) -> str:
    parts = []
    if "produce" in effect:
        parts.append("produces " + resources_text(effect["produce"]))
    for group in effect.get("produce_choice", []):
        parts.append("produces 1 of " + "/".join(group))
    if ("produce" in effect or "produce_choice" in effect) and not effect.get("tradable"):
        parts.append("(neighbours cannot buy it)")
    if "shields" in effect:
        n = effect["shields"]
        parts.append(f"{n} shield{'s' if n != 1 else ''}")
    if "points" in effect:
        parts.append(f"{effect['points']} VP")
    if "coins" in effect:
        parts.append(f"+{effect['coins']} coins")
    if "science" in effect:
        symbol = effect["science"]
        parts.append("science: any symbol" if symbol == "any" else f"science: {symbol}")
    if "trade_discount" in effect:
        discount = effect["trade_discount"]
        parts.append(
            "buy " + "/".join(discount["resources"]) + " from "
            + " and ".join(discount["directions"]) + f" for {discount['price']} coin"
        )
    for key, verb in (("coins_per", "coins"), ("points_per", "VP")):
        if key in effect:
            spec = effect[key]
            what = {"card": " or ".join(spec["colors"]) + " card",
                    "wonder_stage": "wonder stage", "defeat_token": "defeat token"}[spec["what"]]
            parts.append(
                f"{spec['amount']} {verb} per {what} ({'/'.join(spec['whom'])})"
            )
    special = effect.get("special")
    if special:
        parts.append({
            "free_build_once_per_age": "once per Age, build a card for free",
            "build_from_discard": "build a card from the discard pile for free",
            "play_seventh_card": "play the last card of each Age too",
            "copy_neighbor_guild": "copy a neighbour's guild at the end",
        }[special])
    return ", ".join(parts) or "no effect"


def cost_text(coins: int, resources: dict[str, int]) -> str:
    parts = []
    if coins:
        parts.append(f"{coins} coin{'s' if coins != 1 else ''}")
    if resources:
        parts.append(resources_text(resources))
    return ", ".join(parts) or "free"


def card_info(cid: str) -> dict[str, Any]:
    card = CARDS[cid]
    return {
        "id": cid,
        "name": card["name"],
        "color": card["color"],
        "age": card["age"],
        "cost": cost_text(card["coins"], card["cost"]),
        "chain_from": card["chain_from"],
        "effect": effect_text(card["effect"]),
    }


def _coins(n: int) -> str:
    return f"{n} coin{'s' if n != 1 else ''}"


def payment_text(action: dict[str, Any], bank: int = 0) -> str:
    parts = []
    for side in ("left", "right"):
        paid = action.get("pay", {}).get(side)
        if paid:
            bought = resources_text(action["buy"][side])
            parts.append(f"{_coins(paid)} to the {side} for {bought}")
    if bank:
        parts.append(f"{_coins(bank)} to the bank")
    if not parts:
        return ""
    return "pay " + " and ".join(parts)


def own_action_text(state: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
    kind = action.get("type")
    cid = action.get("card")
    if kind == "choose_wonder":
        if action.get("wonder") not in WONDERS:
            return "An unknown action"
        wonder = WONDERS[action["wonder"]]
        return f"Take {wonder['name']} ({wonder['city']}), side {action.get('side')}"
    if not isinstance(cid, str) or cid not in CARDS:
        return "An unknown action"
    name = CARD_NAME[cid]
    if kind == "discard":
        return f"Discard {name} for 3 coins"
    if kind == "discard_build":
        return f"Build {name} from the discard pile for free"
    if kind == "build":
        if action.get("free") == "chain":
            owned = sorted(set(CARDS[cid]["chain_from"]) & city_names(state["players"][seat]))
            return f"Build {name}: free by chain from {owned[0] if owned else 'an earlier card'}"
        if action.get("free") == "olympia":
            return f"Build {name}: free with Olympia's once-per-Age power"
        paying = payment_text(action, CARDS[cid]["coins"])
        if paying:
            return f"Build {name}: {paying}"
        return f"Build {name}" + (": own resources" if CARDS[cid]["cost"] else ": free")
    if kind == "wonder":
        player = state["players"][seat]
        stage = len(player["stage_cards"]) + 1
        paying = payment_text(action)
        return f"Build wonder stage {stage} with {name}: {paying or 'own resources'}"
    return "An unknown action"


def describe_action(
    state: dict[str, Any], seat: int, action: dict[str, Any], viewer: int | None
) -> str:
    if not isinstance(action, dict):
        return "An unknown action"
    phase = state["phase"]
    if phase == "pick" and viewer != seat:
        return f"Seat {seat} chose a card."
    text = own_action_text(state, seat, action)
    if phase == "seventh":
        if viewer != seat and action.get("type") == "wonder":
            return f"Seat {seat} used the last card of the Age for a wonder stage."
        if viewer != seat and action.get("type") == "discard":
            return f"Seat {seat} discarded the last card of the Age for 3 coins."
        return "Last card of the Age (Babylon): " + text
    if viewer != seat:
        return f"Seat {seat}: {text}"
    return text


def describe_resolution(state: dict[str, Any], viewer: int | None = None) -> str:
    parts = []
    for seat, action in enumerate(state["picks"]):
        if not action:
            continue
        kind = action["type"]
        if kind == "build":
            parts.append(f"seat {seat} built {CARD_NAME[action['card']]}")
        elif kind == "wonder":
            stage = len(state["players"][seat]["stage_cards"]) + 1
            parts.append(f"seat {seat} built wonder stage {stage}")
        else:
            parts.append(f"seat {seat} discarded a card")
    head = f"Age {AGE_NAMES[state['age']]}, turn {state['turn']}"
    return f"{head}: " + "; ".join(parts) + "."


def _player_public(state: dict[str, Any], seat: int) -> dict[str, Any]:
    player = state["players"][seat]
    count = state["num_players"]
    if player["wonder"] is None or player["side"] is None:
        # Still choosing at set-up: only what was dealt so far.
        dealt = WONDERS[player["wonder"]] if player["wonder"] else None
        return {
            "seat": seat,
            "left": left_of(seat, count),
            "right": right_of(seat, count),
            "wonder": {"id": player["wonder"], "name": dealt["name"], "city": dealt["city"],
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
        cards[CARD_COLOR[cid]].append({"id": cid, "name": CARD_NAME[cid],
                                       "effect": effect_text(CARDS[cid]["effect"])})
    scores, _ = score_seat(state["players"], seat)
    picked = state["phase"] == "pick" and state["picks"][seat] is not None
    return {
        "seat": seat,
        "left": left_of(seat, count),
        "right": right_of(seat, count),
        "wonder": {
            "id": player["wonder"],
            "name": wonder["name"],
            "city": wonder["city"],
            "side": player["side"],
            "resource": wonder["resource"],
            "stages": [
                {
                    "number": index + 1,
                    "cost": cost_text(0, stage["cost"]),
                    "effect": effect_text(stage["effect"]),
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
        "hand_size": len(state["hands"][seat]),
        "has_picked": picked,
        "score_so_far": scores,
        "points_so_far": sum(scores.values()),
    }


def _event_text(state: dict[str, Any], event: dict[str, Any], viewer: int | None) -> str:
    seat = event["seat"]
    kind = event["kind"]
    mine = viewer == seat
    pay = event.get("pay", {})
    paid = " and ".join(f"{_coins(n)} to the {side}" for side, n in pay.items() if n)
    paid = f" (paid {paid})" if paid else ""
    if kind == "build":
        how = {"chain": " free by chain", "olympia": " free (Olympia)"}.get(event.get("free"), "")
        last = " with the last card of the Age" if event.get("seventh") else ""
        return f"Seat {seat} built {CARD_NAME[event['card']]}{how}{last}{paid}."
    if kind == "wonder":
        return f"Seat {seat} built wonder stage {event['stage']}{paid}."
    if kind == "discard":
        return f"Seat {seat} discarded a card for 3 coins."
    if kind == "last_card_discarded":
        return f"Seat {seat} discarded the last card of the Age."
    if kind == "discard_build":
        return f"Seat {seat} built {CARD_NAME[event['card']]} from the discard pile."
    if kind == "discard_build_wasted":
        return f"Seat {seat} found nothing to build in the discard pile."
    if kind == "wonder_chosen":
        wonder = WONDERS[event["wonder"]]
        return f"Seat {seat} took {wonder['city']}, side {event['side']}."
    return "You did something." if mine else "Something happened."


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


def build_view(engine: Any, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    count = state["num_players"]
    if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < count):
        seat = None
    phase = state["phase"]
    active = engine.active_seats(state)
    result = None
    if phase == "over":
        outcome = final_result(state["players"])
        result = {
            "scores": outcome["scores"],
            "winners": outcome["winners"],
            "categories": list(CATEGORIES),
            "rows": [
                {
                    "seat": index,
                    "breakdown": outcome["breakdown"][index],
                    "total": outcome["scores"][index],
                    "coins": state["players"][index]["coins"],
                    "copied_guild": CARD_NAME[outcome["copied_guilds"][index]]
                    if outcome["copied_guilds"][index] else None,
                    "winner": index in outcome["winners"],
                }
                for index in range(count)
            ],
        }
    data: dict[str, Any] = {
        "game": "seven_wonders",
        "phase": phase,
        "age": state["age"],
        "age_name": AGE_NAMES[state["age"]],
        "turn": state["turn"],
        "direction": "right" if state["age"] == 2 else "left",
        "num_players": count,
        "active_seats": active,
        "waiting_for": len(active) if phase == "pick" else (1 if active else 0),
        "players": [
            {**_player_public(state, index), "role": _role(seat, index, count)}
            for index in range(count)
        ],
        "discard_count": len(state["discard"]),
        "events": [_event_text(state, event, seat) for event in state["events"]],
        "conflicts": state["conflicts"],
        "categories": list(CATEGORIES),
        "result": result,
        "you": None,
    }
    if seat is not None:
        you: dict[str, Any] = {"seat": seat, "left": left_of(seat, count),
                               "right": right_of(seat, count), "hand": [], "pick": None,
                               "pick_text": None, "discard": None}
        if phase != "setup":
            legal = engine.legal_actions(state, seat)
            by_card: dict[str, list[str]] = {}
            for action in legal:
                if "card" in action and action["type"] != "discard_build":
                    by_card.setdefault(action["card"], []).append(
                        own_action_text(state, seat, action))
            you["hand"] = [
                {**card_info(cid), "options": by_card.get(cid, [])}
                for cid in state["hands"][seat]
            ]
        pick = state["picks"][seat] if phase == "pick" else None
        if pick is not None:
            you["pick"] = pick
            you["pick_text"] = own_action_text(state, seat, pick)
        if phase == "discard_build" and active == [seat]:
            you["discard"] = [card_info(cid) for cid in sorted(state["discard"])]
        data["you"] = you
    return data
