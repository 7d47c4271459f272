"""Which of a player's choices an answer names, and playing it; or their choices again, or a
question when the answer could mean several."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.utils.translation import gettext

from accounts.templatetags.language_tags import localized_digits
from games.presentation.summaries import seat_names
from notifications.inbound.answers import answer_player
from notifications.inbound.commands import (
    Choice,
    Command,
    matching,
    pass_choices,
    read_numbered,
    verb_on_choice,
)
from notifications.models import InboundStatus


def switch_forced_moves(inbound, game, user, now, *, on: bool) -> None:
    """`auto on` / `auto off`: forced moves play themselves in this game, or wait for me."""
    from games.services import autoplay

    autoplay.auto_switch(game_id=game.pk, user=user, on=on)
    headline = (gettext("Forced moves now play themselves in this game") if on
                else gettext("Forced moves now wait for you in this game"))
    explanation = ([gettext("A decision with only one possible choice is made for you at once and "
                    "listed in your next email. Reply \"auto off\" to be asked again.")] if on
                   else [gettext("You will be asked even when there is only one choice. Reply "
                         "\"auto on\" to let such moves play themselves again.")])
    answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason="auto",
                  headline=headline, explanation=explanation)


def quote(line: str, advice: str) -> str:
    if line:
        return gettext('Your answer began with "%(line)s". %(advice)s') % {
            "line": line[:80], "advice": advice}
    return gettext("Your answer had no text of its own (only quoted text or a signature). "
                   "%(advice)s") % {"advice": advice}


def same_choices_then(game, user, version: int, choices_now: list[Choice]) -> bool:
    """An answer to an older email still means the same move when the player's choices then and
    now are exactly the same (typical of simultaneous picks: others' secret moves change the
    version but not your options)."""
    from games import selectors
    from notifications.inbound.commands import choices_from

    legal_then = selectors.legal_actions_at_version(game, user, version)
    if legal_then is None:
        return False
    then = [(c.action, c.description) for c in choices_from(legal_then, seat_names(game))]
    return then == [(c.action, c.description) for c in choices_now]


def answer_choices(inbound, game, user, now, command: Command, claims, choices, stale,
                   stale_note) -> None:
    if not choices:
        answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                      reason="not_your_turn", headline=gettext("It is not your turn"),
                      explanation=[*stale_note, gettext("You have no choices to make now.")],
                      changed_since=claims.version)
    if command.kind == "find":
        selected = matching(choices, command.words, exact=False)
        phrase = " ".join(command.words)
        if selected:
            answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED,
                          reason="find", headline=gettext('Choices matching "%(phrase)s"')
                                                      % {"phrase": phrase},
                          explanation=stale_note, selected=selected, filter_text=phrase)
        answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason="find",
                      headline=gettext('No choice matches "%(phrase)s"') % {"phrase": phrase},
                      explanation=[*stale_note, gettext("Here are all your choices.")])
    offset = 0
    if command.kind == "more" and not stale:
        offset = claims.offset + max(settings.EMAIL_PLAY_CHOICES_SHOWN, 1)
        if offset >= len(choices):
            offset = 0
    answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason=command.kind,
                  headline=gettext("More choices") if offset else gettext("Your choices"),
                  explanation=stale_note, offset=offset)


def chosen(inbound, game, user, now, command: Command, choices: list[Choice]) -> Choice:
    if command.kind in ("choose", "ambiguous"):
        reading = read_numbered(command, choices)
        if reading.choice is not None:
            return reading.choice
        if reading.illegal:
            answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                          reason="illegal_choice",
                          headline=gettext("There is no choice %(command_number)s")
                                       % {"command_number": command.number},
                          explanation=[gettext(
                              "Nothing was played. Your choices are numbered 1 to "
                                       "%(len)s.") % {"len": len(choices)}])
        if reading.unmatched:
            answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                          reason="unreadable", headline=gettext("We could not read your answer"),
                          explanation=[quote(command.text, gettext(
                             "No choice matches those words; "
                                             "answer with the number of your choice."))])
        _ask_which(inbound, game, user, now, command, list(reading.candidates), choices)
    if command.kind == "pass":
        found = pass_choices(choices)
        if len(found) == 1:
            return found[0]
        if not found:
            answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                          reason="illegal_choice", headline=gettext("You cannot pass now"),
                          explanation=[gettext(
                              "Nothing was played. Choose one of the choices below.")])
        answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason="find",
                      headline=gettext("Several ways to pass"), selected=found, filter_text="pass",
                      explanation=[gettext("Answer with the number of the one you mean.")])
    # "discard 3": the choice that does that to what choice 3 is about (its card, its space).
    same_object = verb_on_choice(choices, command.words)
    if len(same_object) == 1:
        return same_object[0]
    # A few words ("take wood"): one choice holding them all as whole words is played;
    # several, or only partial matches, are listed for the player to pick by number.
    exact = same_object or matching(choices, command.words, exact=True)
    if len(exact) == 1:
        return exact[0]
    phrase = " ".join(command.words)
    candidates = exact or matching(choices, command.words, exact=False)
    if candidates:
        answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason="find",
                      headline=gettext('Which one? Choices matching "%(phrase)s"')
                                   % {"phrase": phrase},
                      explanation=[gettext("Nothing was played yet: answer with the number of the "
                                   "choice you mean.")],
                      selected=candidates, filter_text=phrase)
    answer_player(inbound, game, user, now, status=InboundStatus.REFUSED, reason="unreadable",
                  headline=gettext("We could not read your answer"),
                  explanation=[quote(command.text, gettext(
                     "No choice matches those words; answer with "
                              "the number of your choice."))])
    raise AssertionError("unreachable")


def _ask_which(inbound, game, user, now, command: Command, candidates: list[Choice],
               choices: list[Choice]) -> None:
    """An answer that could mean more than one choice: a short question listing the
    candidates (all choices when none of its numbers is one), and nothing played."""
    named = " or ".join(str(choice.number) for choice in candidates) or " or ".join(
        str(number) for number in command.numbers)
    explanation = [quote(command.text, gettext("Nothing was played: that could mean more than one "
                         "choice. Answer with just the number of the one you mean."))]
    if candidates:
        answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED,
                      reason="ambiguous", headline=gettext("Which one did you mean: %(named)s?")
                                                       % {"named": named},
                      explanation=explanation, selected=candidates, filter_text=named)
    explanation.append(gettext("Your choices are numbered 1 to %(count)s.")
                       % {"count": localized_digits(len(choices))})
    answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason="ambiguous",
                  headline=gettext("Which one did you mean?"), explanation=explanation)


def play_choice(inbound, game, user, now, choice: Choice, stale: bool) -> None:
    from games import services as game_services
    from games.exceptions import GameNotRunning, IllegalMove, NotAllowed, StaleVersion
    from games.models import ActionSource
    from games.presentation.texts import message_text

    version = game.version
    try:
        result = game_services.game_action_submit(
            game_id=game.pk, user=user, action=choice.action, expected_version=version,
            idempotency_key=f"email:{hashlib.sha256(inbound.message_id.encode()).hexdigest()}",
            source=ActionSource.EMAIL, now=now,
        )
    except StaleVersion:
        answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                      reason="stale_version", headline=gettext(
                          "The game moved on; nothing was played"),
                      explanation=[gettext(
                          "Another move arrived just before yours. What changed and "
                                   "your choices now are below.")], changed_since=version)
    except IllegalMove as error:
        answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                      reason="illegal_choice", headline=gettext("That move is not allowed"),
                      explanation=[error.message, gettext("Nothing was played.")])
    except GameNotRunning as error:
        answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                      reason="game_over", headline=error.message,
                      explanation=[gettext("Nothing was played.")])
    except NotAllowed as error:
        answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                      reason="not_allowed", headline=gettext("You cannot move in this game now"),
                      explanation=[error.message, gettext("Nothing was played.")])
    inbound.action_sequence = result.outcome["sequence"]
    note = ([gettext("Other players moved meanwhile, but your choices were exactly the ones "
                     "that email listed, so your move stands.")] if stale else [])
    played = message_text(game.engine, result.text, names=seat_names(game)) \
        if result.text is not None else ""
    answer_player(inbound, game, user, now, status=InboundStatus.APPLIED, reason="move",
                  headline=gettext("Played: %(played)s") % {"played": played}, explanation=note,
                  changed_since=version)
