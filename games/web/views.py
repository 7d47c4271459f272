"""HTML views of the phone-first web UI. Thin: read with selectors, change with services."""

from __future__ import annotations

import json
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import select_template
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from accounts.templatetags.language_tags import localized_digits
from games import selectors, services
from games.engines import bots
from games.engines.base import canonical_action
from games.engines.registry import get_engine
from games.exceptions import GameError
from games.live import presence
from games.log.replay import state_at
from games.models import ActionSource, GameStatus, ReportReason
from games.presentation import board
from games.presentation.names import seat_names, with_names
from games.presentation.texts import (
    entry_text,
    message_text,
    reader_language,
    view_texts,
)
from games.selectors import profiles
from games.services import undo
from games.web import autoplay as autoplay_views
from games.web.forms import GameCreateForm

LOG_ENTRIES_SHOWN = 30
GENERIC_BOARD = "games/boards/generic.html"
INVITATION_SENT = gettext_lazy("Invitation sent, if that name or email belongs to a player who is "
                               "not in this game yet.")


def lobby(request):
    user = request.user
    context = {"open_games": selectors.game_list_open(user=user)[:30]}
    if user.is_authenticated:
        context["awaiting"] = selectors.game_list(user=user, awaiting_me=True)[:50]
        context["my_games"] = selectors.game_list(user=user, mine=True).exclude(
            status__in=[GameStatus.FINISHED, GameStatus.ABORTED]
        )[:50]
        context["finished"] = selectors.game_list(user=user, mine=True).filter(
            status=GameStatus.FINISHED
        )[:10]
    return render(request, "games/lobby.html", context)


@login_required
def game_create(request):
    form = GameCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_create(
                creator=request.user,
                engine_slug=form.cleaned_data["engine"],
                num_players=form.cleaned_data["num_players"],
                options=form.chosen_options(),
                time_per_move=form.chosen_time_per_move(),
                reserve=form.chosen_reserve(),
                max_consecutive_timeouts=form.cleaned_data["max_consecutive_timeouts"],
                allow_spectators=form.cleaned_data["allow_spectators"],
                **form.chosen_terms(),
            )
        except GameError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, gettext("Game created. Share its page so others can join."))
            return redirect("games:detail", game_id=game.pk)
    return render(request, "games/create.html", {"form": form})


def _log_rows(entries, texts: list[str], history_suffix: str) -> list[str]:
    """The log's rows as HTML, each entry linked to the board after it, with its time and text
    in the reader's language and digits. Made here, not in the template: the template engine
    took longer over these rows than over the rest of the page."""
    undone_note = format_html(' <em class="muted">{}</em>', gettext("(taken back)"))
    tags = {ActionSource.AUTO: format_html(' <span class="tag">{}</span>', gettext("automatic")),
            ActionSource.QUEUED: format_html(' <span class="tag">{}</span>', gettext("queued"))}
    rows = []
    for entry, text in zip(entries, texts, strict=True):
        moment = timezone.localtime(entry.created_at)
        rows.append(format_html(
            '<li{}><a href="?at={}{}#board" class="step" aria-label="{}">#{}</a> '
            '<time datetime="{}" class="muted">{}</time> <bdi>{}</bdi>{}{}</li>',
            mark_safe(' class="undone"') if entry.undone_by else "",
            entry.sequence, history_suffix,
            gettext("Board after move %(number)s") % {"number": entry.sequence},
            localized_digits(entry.sequence), moment.isoformat(),
            localized_digits(date_format(moment, "SHORT_DATETIME_FORMAT")), text,
            undone_note if entry.undone_by else "", tags.get(entry.source, "")))
    return rows


def _visible_game(request, game_id):
    game = selectors.game_with_seats(game_id)
    if game is None or not selectors.game_access(request.user, game).may_view:
        raise Http404(gettext("There is no such game."))
    return game


def _history_version(request, game) -> int | None:
    """The past version asked for with ?at=N (0 ≤ N < the current version), or None."""
    raw = request.GET.get("at", "")
    if not raw.isdigit() or len(raw) > 9:
        return None
    at = int(raw)
    return at if at < game.version else None


def game_detail(request, game_id):
    # The session is read (and a stale one dropped) before the read-only snapshot.
    request.user.is_authenticated  # noqa: B018
    # Everything the page shows (the game, its seats, its log and chat) from one version;
    # marking the turn seen writes, after it.
    with selectors.snapshot():
        game, seat, response = _game_page(request, game_id)
    if seat is not None and seat.turn_notified_at is not None:
        services.seat_mark_seen(game_id=game.pk, user=request.user)
    presence.look_note(user_id=seat and seat.user_id, game_id=game.pk, now=timezone.now())
    return response


def game_live(request, game_id):
    """The part of the game page that moves with the game (turn, choices, board, log), which
    the page's script fetches and morphs in place when the game's stream says it changed."""
    request.user.is_authenticated  # noqa: B018 (as in game_detail)
    with selectors.snapshot():
        _game, _seat, context = _page_context(request, game_id)
    return render(request, "games/_live.html", context)


def _game_page(request, game_id):
    game, seat, context = _page_context(request, game_id)
    return game, seat, render(request, "games/detail.html", context)


def _page_context(request, game_id):
    game = _visible_game(request, game_id)
    engine = get_engine(game.engine)
    seat = selectors.game_access(request.user, game).seat
    viewer_seat = seat.number if seat else None
    names = seat_names(game)
    seats = list(game.seats.all())
    at = _history_version(request, game)
    finished = game.status == GameStatus.FINISHED
    # After the end everything is revealed: anyone who may see the game may take any seat's
    # view of any past version. Before it, a player sees their own view, others a spectator's.
    perspective = viewer_seat
    if finished and request.GET.get("as", "").isdigit() and int(request.GET["as"]) in names:
        perspective = int(request.GET["as"])
    # The board reads the view's texts in the reader's language, players named.
    if at is not None:
        shown = view_texts(game.engine, engine.view(state_at(engine, game, at), perspective),
                           names=names)
        legal_actions = []
    else:
        shown = (selectors.rendered_view(game, perspective, language=None, names=names)
                 if game.state is not None else None)
        legal_actions = selectors.legal_actions_for(game, request.user)
    log_page = _log_page(request)
    log = selectors.log_newest(game, LOG_ENTRIES_SHOWN * log_page + 1, up_to=at)
    log_more = len(log) > LOG_ENTRIES_SHOWN * log_page
    log = log[:LOG_ENTRIES_SHOWN * log_page]
    log_texts = [entry_text(entry, entry.seat_number if finished else viewer_seat, names=names,
                            engine_slug=game.engine) for entry in log]
    choices = (board.present_choices(engine, legal_actions, viewer_seat, names)
               if legal_actions else [])
    awaited = set(selectors.awaiting_seats(game))
    legend = board.seat_legend(seats, awaited, engine.simultaneous, viewer_seat)
    confirms = _confirm_context(request, game, engine, viewer_seat, legal_actions, names)
    board_template = select_template([f"games/boards/{game.engine}.html", GENERIC_BOARD]
                                     ).template.name
    history = _history_context(game, at, perspective if finished else None)
    context = {
        "game": game,
        "engine": engine,
        "seat": seat,
        "seats": seats,
        "legend": legend,
        "turn": board.turn_summary(legend, viewer_seat),
        "vacations": selectors.vacations_now(game),
        "chat": selectors.chat_newest(game, 50, request.user),
        # Before the game starts anyone who may see it types commands (/join) or, if they may
        # join it, messages; the service says who may do what.
        "can_chat": seat is not None or (request.user.is_authenticated
                                         and game.status == GameStatus.OPEN),
        "report_reasons": ReportReason.choices,
        "view": shown,
        "view_json": (json.dumps(shown, indent=1, sort_keys=True)
                      if shown is not None and board_template == GENERIC_BOARD else ""),
        "legal_actions": legal_actions,
        "choices": choices,
        "tap_keys": sorted({key for choice in choices for key in choice["targets"]}),
        "untargeted": [choice for choice in choices if not choice["targets"]],
        # A seat that already made its secret pick may change it; the page folds the choices.
        "picked": bool(choices) and viewer_seat not in awaited and engine.simultaneous,
        "pick_text": _pick_text(shown, names),
        "confirms": confirms,
        "log": _log_rows(log, log_texts, history["suffix"] if history else ""),
        # The newest entry stays readable on the folded log: what just happened.
        "latest": log_texts[0] if log_texts else "",
        "log_more": log_more,
        "log_page": log_page,
        "history": history,
        "perspective": perspective,
        "seat_names": names,
        "result_rows": profiles.result_rows(game),
        "can_undo": at is None and game.status == GameStatus.ACTIVE and seat is not None
        and not seat.is_bot and undo.can_undo(engine, game, viewer_seat),
        "is_creator": request.user.is_authenticated and game.created_by_id == request.user.pk,
        "can_join": request.user.is_authenticated and game.status == GameStatus.OPEN
        and seat is None and game.seats.count() < game.num_players,
        "board_template": board_template,
        # Tapping a player's name or score on the board shows their cards (web.player_cards).
        "cards_url": reverse("games:player_cards", args=[game.pk]),
    }
    context.update(autoplay_views.page_context(game, seat))
    return game, seat, context


def _log_page(request) -> int:
    """How many pages of the log the reader opened (?log=N, 1 when not asked; at most 100)."""
    raw = request.GET.get("log", "")
    return min(int(raw), 100) if raw.isdigit() and int(raw) > 0 else 1


def _pick_text(shown, names) -> str:
    """The viewer's pending secret pick in words (7 Wonders' view says it), from the view as
    the board shows it (its texts already in the reader's language)."""
    you = shown.get("you") if isinstance(shown, dict) else None
    if isinstance(you, dict) and you.get("pick_text"):
        return with_names(str(you["pick_text"]), names)
    return ""


def _history_context(game, at, perspective) -> dict | None:
    """Links to step through the game's versions (the board as the viewer saw it then)."""
    if game.version == 0:
        return None
    current = game.version if at is None else at
    suffix = f"&as={perspective}" if perspective is not None else ""
    return {
        "at": at,
        "current": current,
        "last": game.version,
        "previous": current - 1 if current > 0 else None,
        "next": current + 1 if at is not None else None,
        "suffix": suffix,
    }


def _confirm_context(request, game, engine, viewer_seat, legal_actions, names) -> list[dict]:
    """The choice waiting for Confirm (no-JavaScript flow: ?confirm=<index>&version=<v>)."""
    raw, version = request.GET.get("confirm", ""), request.GET.get("version", "")
    if not legal_actions or not raw.isdigit() or version != str(game.version):
        return []
    found = _preview_of(game, engine, viewer_seat, legal_actions, int(raw), names,
                        reader_language(request))
    return [found] if found else []


def _preview_of(game, engine, viewer_seat, legal_actions, index, names,
                language: str, label: str = "") -> dict | None:
    if not 0 <= index < len(legal_actions):
        return None
    item = legal_actions[index]
    if not label:
        label, detail = board.choice_label(game.engine, item, viewer_seat, names)
        label, detail = with_names(label, names), with_names(detail, names)
    else:
        detail = ""
    return {
        "index": index,
        # Asked as a question ("…?"): a translated sentence's full stop goes.
        "label": label.rstrip(".。"),
        "detail": detail,
        "changes": board.preview(engine, game.state, viewer_seat, item["action"],
                                 language=language),
        "targets": board.targets_of(game.engine, item["action"]),
        "version": game.version,
    }


def game_preview(request, game_id):
    """The sheet the page's script shows for a tap: every choice made at one place of the board
    (?target=<key>) or one listed choice (?index=<i>), each with what it changes and its own
    Confirm, so that a decision takes two taps. Asked at an older version (another player
    moved meanwhile), the same place is shown as it is now; an empty answer says the choice is
    gone."""
    request.user.is_authenticated  # noqa: B018 (as in game_detail)
    with selectors.snapshot():
        game = _visible_game(request, game_id)
        legal = selectors.legal_actions_for(game, request.user)
    seat = selectors.game_access(request.user, game).seat
    index, target = request.GET.get("index", ""), request.GET.get("target", "")
    confirms = []
    if seat is not None and legal:
        engine, names = get_engine(game.engine), seat_names(game)
        language = reader_language(request)
        if target:
            choices = [choice for choice in board.present_choices(engine, legal, seat.number,
                                                                  names)
                       if target in choice["targets"]]
            confirms = [_preview_of(game, engine, seat.number, legal, choice["index"], names,
                                    language, label=choice["label"] if len(choices) > 1 else "")
                        for choice in choices]
        elif index.isdigit() and request.GET.get("version") == str(game.version):
            confirms = [_preview_of(game, engine, seat.number, legal, int(index), names,
                                    language)]
    return render(request, "games/_confirm.html", {
        "game": game, "confirms": [found for found in confirms if found]})


def game_version(request, game_id):
    """What the game page polls to know when to refresh itself: cheap and free of secrets. One
    small read (never the state); the full visibility check only for a private game the
    caller has no seat in."""
    found = selectors.game_version_and_seats(game_id)
    if found is None:
        raise Http404("There is no such game.")
    (version, status, allow_spectators), seated = found
    if not allow_spectators and request.user.pk not in seated:
        _visible_game(request, game_id)
    if request.user.pk in seated:
        presence.look_note(user_id=request.user.pk, game_id=game_id, now=timezone.now())
    return JsonResponse({"version": version, "status": status, "seats": len(seated)})


def _lobby_action(request, game_id, change, success):
    try:
        change(game_id=game_id, user=request.user)
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, success)
    return redirect("games:detail", game_id=game_id)


@login_required
@require_POST
def game_join(request, game_id):
    _visible_game(request, game_id)
    return _lobby_action(request, game_id, services.game_join,
                         gettext("You joined the game."))


@login_required
@require_POST
def game_leave(request, game_id):
    _visible_game(request, game_id)
    return _lobby_action(request, game_id, services.game_leave,
                         gettext("You left the game."))


@login_required
@require_POST
def game_start(request, game_id):
    _visible_game(request, game_id)
    return _lobby_action(request, game_id, services.game_start,
                         gettext("The game has started."))


@login_required
@require_POST
def game_add_bot(request, game_id):
    _visible_game(request, game_id)
    # The service refuses an unknown level with a message that lists the levels.
    add_bot = partial(services.game_add_bot,
                      level=request.POST.get("level") or bots.DEFAULT_LEVEL)
    return _lobby_action(request, game_id, add_bot, gettext("A bot took a seat."))


@login_required
@require_POST
def game_invite(request, game_id):
    _visible_game(request, game_id)
    try:
        services.game_invite(game_id=game_id, inviter=request.user,
                             login=request.POST.get("username", ""))
    except GameError as error:
        messages.error(request, error.message)
    else:
        # The same words whoever was named: the page must not tell who has an account.
        messages.success(request, INVITATION_SENT)
    return redirect("games:detail", game_id=game_id)


@login_required
@require_POST
def game_take_back(request, game_id):
    _visible_game(request, game_id)
    try:
        services.seat_take_back(game_id=game_id, user=request.user)
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, gettext("You have your seat back."))
    return redirect("games:detail", game_id=game_id)


@login_required
@require_POST
def game_act(request, game_id):
    """Submits one of the listed legal actions, chosen by its index at the version shown, once
    confirmed (`confirm=1`); without it, the page shows the choice's preview and a Confirm."""
    game = _visible_game(request, game_id)
    try:
        version = int(request.POST["version"])
        index = int(request.POST["index"])
    except (KeyError, ValueError):
        messages.error(request, gettext("That form was incomplete; please choose again."))
        return redirect("games:detail", game_id=game.pk)
    legal = selectors.legal_actions_for(game, request.user)
    if version != game.version:
        # Another player moved since the page was drawn. The choice (by its index then) still
        # stands if it is still legal and this seat's own decision did not change meanwhile:
        # the service checks the latter (seat-scoped staleness).
        index = _same_choice_now(game, request.user, version, index, legal)
        if index is None:
            messages.error(request, gettext(
                "The game moved on while you were looking; here is the new state."))
            return redirect(_board_url(game))
    if not 0 <= index < len(legal):
        messages.error(request, gettext("That choice is no longer available."))
        return redirect(_board_url(game))
    if request.POST.get("confirm") != "1":
        # A choice is committed only on Confirm: show what it will do first.
        url = reverse("games:detail", args=[game.pk])
        return redirect(f"{url}?confirm={index}&version={game.version}#confirm")
    try:
        result = services.game_action_submit(
            game_id=game.pk,
            user=request.user,
            action=legal[index]["action"],
            expected_version=version,
            idempotency_key=request.POST.get("idempotency_key") or None,
            source=ActionSource.WEB,
        )
    except GameError as error:
        messages.error(request, error.message)
    else:
        if result.text is not None:
            messages.success(request, message_text(game.engine, result.text,
                                                   names=seat_names(game)))
    return redirect(_board_url(game))


def _board_url(game) -> str:
    """The game page at the board: after a move the player is back where the next one is made."""
    return reverse("games:detail", args=[game.pk]) + "#play"


def _same_choice_now(game, user, version: int, index: int, legal: list[dict]) -> int | None:
    """The index now of the choice that had `index` at `version`, or None when it is gone."""
    then = selectors.legal_actions_at_version(game, user, version)
    if then is None or not 0 <= index < len(then):
        return None
    wanted = canonical_action(then[index]["action"])
    return next((item["index"] for item in legal
                 if canonical_action(item["action"]) == wanted), None)


@login_required
@require_POST
def game_undo(request, game_id):
    """Takes back the player's last move (the version shown must still be current)."""
    game = _visible_game(request, game_id)
    try:
        version = int(request.POST["version"])
    except (KeyError, ValueError):
        messages.error(request, gettext("That form was incomplete; please try again."))
        return redirect("games:detail", game_id=game.pk)
    try:
        services.game_move_undo(game_id=game.pk, user=request.user, expected_version=version,
                                source=ActionSource.WEB)
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, gettext("Your last move was taken back."))
    return redirect("games:detail", game_id=game.pk)


@login_required
@require_POST
def game_chat_post(request, game_id):
    _visible_game(request, game_id)
    try:
        services.chat_post(game_id=game_id, user=request.user, body=request.POST.get("body", ""))
    except GameError as error:
        messages.error(request, error.message)
    return redirect(f"{reverse('games:detail', args=[game_id])}#chat")


@login_required
@require_POST
def report_create(request):
    back = request.POST.get("next") or reverse("games:lobby")
    if not back.startswith("/") or back.startswith("//"):
        back = reverse("games:lobby")
    try:
        object_id = int(request.POST.get("id", ""))
    except ValueError:
        messages.error(request, gettext("That report was incomplete."))
        return redirect(back)
    try:
        services.report_create(reporter=request.user, target=request.POST.get("target", ""),
                               object_id=object_id, reason=request.POST.get("reason", ""),
                               details=request.POST.get("details", ""))
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, gettext("Thank you: the moderators will look at it."))
    return redirect(back)
