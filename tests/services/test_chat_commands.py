"""Seed 003's table: commands typed in the chat run the lobby, invitation, undo and ending services
its buttons call (the same refusals), and each is answered by a system line in the reader's
language; before a game starts, those who may join it write in its chat."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import selectors, services
from games.engines.registry import get_engine
from games.exceptions import NotAllowed
from games.models import ChatLineKind, ChatMessage, Game, GameInvitation, GameStatus
from games.services.commands import command_parse
from tests.factories import UserFactory, committed, started_game


def say(game, user, body, **extra) -> ChatMessage:
    with committed():
        return services.chat_post(game_id=game.pk, user=user, body=body, **extra)


def read(line: ChatMessage, language: str = "en") -> str:
    with translation.override(language):
        return ChatMessage.objects.select_related("author").get(pk=line.pk).text()


@pytest.fixture
def table(db):
    creator = UserFactory(username="anna")
    game = services.game_create(creator=creator, engine_slug="toy", num_players=3)
    return game, creator


def test_join_and_start_typed_in_the_chat_seat_the_player_and_start_the_game(table):
    game, anna = table
    bruno = UserFactory(username="bruno")
    joined = say(game, bruno, "/join")
    assert game.seats.filter(user=bruno).exists()
    assert (joined.kind, joined.key, joined.audience) == (ChatLineKind.SYSTEM, "joined", None)
    assert read(joined) == "bruno joined the table."
    started = say(game, anna, "/start")
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE
    assert read(started) == "anna started the game."


def test_a_system_line_reads_in_each_readers_language(table):
    game, anna = table
    line = say(game, UserFactory(username="bruno"), "/join")
    assert read(line, "it") == "bruno si è unito al tavolo."
    assert read(line, "zh-hans") != read(line, "en")
    assert read(line, "fa") != read(line, "en")


@pytest.mark.parametrize("typed", ["/JOIN", "／ｊｏｉｎ", "/entra", "/加入", "、加入", "/پیوستن",
                                   "  /Join  ", "/پيوستن"])
def test_command_words_are_read_as_the_four_languages_keyboards_type_them(typed):
    assert command_parse(typed).name == "join"


@pytest.mark.parametrize(("typed", "name", "args"), [
    ("/تخهد", "join", ()),  # "/join" typed with the Persian layout on
    ("/سفشقف", "start", ()),
    ("/قثسهلد زخدبهقپ", "resign", ("زخدبهقپ",)),  # "/resign confirm"
    ("/invite Bob", "invite", ("Bob",)),  # a name keeps its case
    ("/شروع", "start", ()),
    ("/ربات", "bot", ()),
])
def test_the_persian_layouts_keys_and_words(typed, name, args):
    parsed = command_parse(typed)
    assert (parsed.name, parsed.args) == (name, args)


@pytest.mark.parametrize("typed", ["hello /join", "、你好", "join", "//join"])
def test_lines_that_are_no_command_stay_messages(typed):
    parsed = command_parse(typed)
    assert parsed is None or isinstance(parsed, str)


def test_double_slash_posts_a_message_starting_with_a_slash(table):
    game, anna = table
    line = say(game, anna, "//join is how you sit down")
    assert (line.kind, line.body) == (ChatLineKind.MESSAGE, "/join is how you sit down")


def test_an_unknown_command_gets_a_help_line_only_its_author_reads_never_a_post(table):
    game, anna = table
    line = say(game, anna, "/dance now")
    assert (line.kind, line.key, line.audience) == (ChatLineKind.SYSTEM, "unknown", anna)
    assert read(line).startswith("/dance is not a command. Commands before the game starts:")
    bruno = UserFactory()
    assert line not in selectors.chat_newest(game, 50, bruno)
    assert line in selectors.chat_newest(game, 50, anna)
    assert line not in selectors.chat_newest(game, 50, None)


def refusal(line: ChatMessage) -> tuple[str, str]:
    assert (line.kind, line.key, line.audience_id) == (ChatLineKind.SYSTEM, "refused",
                                                       line.author_id)
    return line.params["code"], read(line)


def test_refusals_are_the_buttons_own(table, settings):
    settings.GAME_INVITATION_MIN_SECONDS = 0
    game, anna = table
    bruno, carla, dario = UserFactory(), UserFactory(), UserFactory()
    assert refusal(say(game, anna, "/join")) == (
        "lobby_error", "/join refused: You already have a seat in this game.")
    assert refusal(say(game, bruno, "/start")) == (
        "not_allowed", "/start refused: Only the player who created the game can start it.")
    assert refusal(say(game, anna, "/start")) == (
        "lobby_error", "/start refused: Toy needs at least 2 players; 1 have joined.")
    assert refusal(say(game, bruno, "/leave"))[0] == "lobby_error"
    assert refusal(say(game, bruno, "/bot"))[0] == "not_allowed"
    assert refusal(say(game, anna, "/bot clever"))[0] == "invalid_game_setup"
    assert refusal(say(game, bruno, "/invite carla")) == (
        "not_allowed", "/invite refused: Only players in the game can invite others.")
    assert refusal(say(game, dario, "/invite"))[0] == "invalid_invitation"
    say(game, bruno, "/join")
    say(game, carla, "/join")
    assert refusal(say(game, dario, "/join")) == ("lobby_error",
                                                  "/join refused: This game is full.")
    assert game.seats.count() == 3
    assert refusal(say(game, anna, "/undo"))[0] == "game_not_running"
    assert refusal(say(game, anna, "/resign"))[0] == "game_not_running"


def test_bot_leave_and_invite(table, settings):
    settings.GAME_INVITATION_MIN_SECONDS = 0
    game, anna = table
    bot = say(game, anna, "/bot easy")
    assert game.seats.filter(is_bot=True, bot_level="easy").exists()
    assert read(bot) == "anna added a bot (easy)."
    bruno = UserFactory(username="Bruno")
    invited = say(game, anna, "/invite Bruno")
    assert GameInvitation.objects.filter(game=game, invitee=bruno).exists()
    assert invited.audience == anna
    # The answer is the same whether the name is a player or not.
    nobody = say(game, anna, "/invite nobody-here")
    assert read(nobody) == "Your invitation to nobody-here is sent, if that player exists here."
    assert read(invited) == "Your invitation to Bruno is sent, if that player exists here."
    say(game, bruno, "/join")
    left = say(game, bruno, "/leave")
    assert read(left) == "Bruno left the table." and not game.seats.filter(user=bruno).exists()


def test_a_hard_bot_is_added_in_any_of_the_languages(table):
    game, anna = table
    bot = say(game, anna, "/bot difficile")
    assert game.seats.filter(is_bot=True, bot_level="hard").exists()
    assert read(bot) == "anna added a bot (hard)."
    assert read(bot, "it") == "anna ha aggiunto un bot (difficile)."
    say(game, anna, "/bot 困难")
    assert game.seats.filter(is_bot=True, bot_level="hard").count() == 2


def test_a_banned_player_is_refused_and_nothing_is_written(table):
    from games.services import moderation

    game, anna = table
    moderator = UserFactory(is_staff=True, is_superuser=True)
    banned = UserFactory()
    moderation.user_ban(moderator=moderator, user=banned, reason="spam")
    with pytest.raises(NotAllowed, match="banned"):
        say(game, banned, "/join")
    assert not game.seats.filter(user=banned).exists()
    assert not ChatMessage.objects.filter(author=banned).exists()


def test_before_the_start_those_who_may_join_write_and_private_games_keep_outsiders_out(db):
    anna = UserFactory()
    game = services.game_create(creator=anna, engine_slug="toy", num_players=2,
                                allow_spectators=False)
    outsider = UserFactory()
    with pytest.raises(NotAllowed, match="private"):
        say(game, outsider, "hello")
    with pytest.raises(NotAllowed):
        say(game, outsider, "/join")
    invited = UserFactory()
    GameInvitation.objects.create(game=game, invitee=invited, inviter=anna)
    assert say(game, invited, "hello, may I sit?").kind == ChatLineKind.MESSAGE
    assert say(game, invited, "/join").key == "joined"

    public = services.game_create(creator=anna, engine_slug="toy", num_players=2)
    assert say(public, outsider, "anyone here?").body == "anyone here?"


def test_in_a_running_game_only_players_write_and_undo_and_resign_are_commands(db):
    game, (anna, bruno) = started_game(2)
    with pytest.raises(NotAllowed):
        say(game, UserFactory(), "hello")
    assert refusal(say(game, anna, "/join"))[0] == "lobby_error"
    mover = next(user for user in (anna, bruno)
                 if selectors.legal_actions_for(Game.objects.get(pk=game.pk), user))
    assert refusal(say(game, mover, "/undo"))[0] == "undo_refused"
    ask = say(game, mover, "/resign")
    assert (ask.key, ask.audience) == ("resign_confirm", mover)
    assert read(ask) == ("Resigning gives up your seat for good. To resign, type "
                         "/resign confirm.")
    assert Game.objects.get(pk=game.pk).seats.get(user=mover).resigned_at is None
    with translation.override("it"):
        done = say(game, mover, "/abbandona conferma")
    assert done.key == "resigned"
    assert Game.objects.get(pk=game.pk).seats.get(user=mover).resigned_at is not None
    help_line = say(game, mover, "/help")
    assert read(help_line).startswith("This game is over") or "running game" in read(help_line)


def test_undo_typed_in_the_chat_takes_back_the_last_move(db):
    from tests.services.test_undo import caverna_turn_start, own_steps_only, play_until, submit

    game, users = started_game(2, engine="caverna", seed="undo-caverna-1")
    engine = get_engine("caverna")
    own_steps_only(game, engine)
    seat = play_until(game, users, caverna_turn_start)
    game.refresh_from_db()
    place = next(a for a in engine.legal_actions(game.state, seat) if a["type"] == "place"
                 and a["space"] in ("drift_mining", "excavation", "wood_gathering", "logging",
                                    "ore_mining", "sustenance", "housework", "clearing"))
    submit(game, users[seat], place)
    game.refresh_from_db()
    version, before = game.version, game.state
    line = say(game, users[seat], "/undo")
    game.refresh_from_db()
    assert line.key == "undone"
    assert read(line) == f"{users[seat].public_name} took back their last move."
    assert game.version == version + 1 and game.state != before
    assert game.actions.filter(kind="undo", source="web").exists()


def test_commands_count_against_the_chat_pace(table):
    game, anna = table
    for _ in range(services.CHAT_RATE[0]):
        say(game, anna, "/help")
    from games.exceptions import ChatThrottled

    with pytest.raises(ChatThrottled):
        say(game, anna, "/help")
