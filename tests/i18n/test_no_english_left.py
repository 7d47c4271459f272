"""No English reaches a player who chose Persian, Chinese or Italian where it used to slip
through: a game's title (pages, emails, push, calendar, API, webhooks), the end of a
suspension, an engine's refusal of game options or standing orders (its text, rendered from the
compiled catalogs, through the API and the lobby), and the service's, the API's and the
moderators' remaining messages. Players' names are Greek letters, which no language here uses,
so that Latin letters left in a Persian or Chinese line can only be English."""

from __future__ import annotations

import ast
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.utils import timezone, translation

from accounts.models import Sanction, SanctionKind, restriction_message
from config.engine_catalogs import LANGUAGES
from games import services
from games.engines.base import InvalidOptions
from games.engines.registry import get_engine
from games.engines.texts import SHARED_MESSAGES, render, text
from games.exceptions import InvalidGameSetup, NotAllowed
from games.models import Game
from games.presentation.titles import ENGINE_NAMES
from games.services import moderation
from notifications.channels import calendar, push
from notifications.models import Notification, NotificationKind
from notifications.rendering import build_email
from tests.api.test_games_api import client_for
from tests.engines.strict_catalogs import strict_translations
from tests.factories import UserFactory, started_game

LATIN = re.compile(r"[A-Za-z]")
PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
GAMES = Path(__file__).resolve().parents[2] / "games"
#: Django's language codes, and what each calls the three games (the published editions).
NAMES = {"fa": {"stone_age": "عصر حجر", "seven_wonders": "عجایب هفتگانه", "caverna": "کاورنا"},
         "zh-hans": {"stone_age": "石器时代", "seven_wonders": "七大奇迹", "caverna": "洞穴农夫"},
         "it": {"stone_age": "Stone Age", "seven_wonders": "7 Wonders", "caverna": "Caverna"}}


def _digits(language: str, value) -> str:
    return str(value).translate(PERSIAN_DIGITS) if language == "fa" else str(value)


def _player(language: str, name: str = "Δέλτα"):
    return UserFactory(language=language, display_name=name, timezone="Asia/Tehran")


# ---- 1. a game's title --------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fa", "zh-hans", "it"])
@pytest.mark.parametrize("slug", sorted(ENGINE_NAMES))
def test_a_games_title_reads_in_the_readers_language_and_digits(slug, language):
    game = Game.objects.create(engine=slug, num_players=2, seed="titles",
                               created_by=_player(language))
    with translation.override(language):
        title = game.title
        assert title == f"{NAMES[language][slug]} #{_digits(language, game.pk)}"
        if language != "it":
            assert not LATIN.search(title), title
        # A name the creator gave the game stays as they typed it.
        game.name = "Friday night"
        assert game.title.startswith("Friday night") and NAMES[language][slug] in game.title


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fa", "zh-hans"])
def test_an_emails_push_and_calendar_name_the_game_in_the_recipients_language(language):
    game, users = started_game(2, engine="stone_age", seed="title-surfaces")
    player = users[0]
    player.language, player.display_name = language, "Δέλτα"
    player.save(update_fields=["language", "display_name"])
    seat = game.seats.get(user=player)
    seat.deadline_at = timezone.now() + timedelta(days=1)
    seat.save(update_fields=["deadline_at"])
    name = f"{NAMES[language]['stone_age']} #{_digits(language, game.pk)}"
    notice = Notification.objects.create(user=player, kind=NotificationKind.GAME_STARTED,
                                         game=game, context={}, send_after=timezone.now())
    subject = build_email(notice, timezone.now()).subject
    assert name in subject and not LATIN.search(subject.replace(player.public_name, "")), subject
    body = push.payload_for(notice)["body"]
    assert name in body and not LATIN.search(body), body
    feed = calendar.calendar_for(player)
    event = next(component for component in feed.walk("VEVENT"))
    for field in ("summary", "description"):
        words = re.sub(r"https?://\S+", "", str(event.get(field)))
        assert name in words and not LATIN.search(words), words
    assert not LATIN.search(str(feed.get("x-wr-calname")).replace("Turnpost", ""))


@pytest.mark.django_db
def test_the_game_page_and_the_api_name_the_game_in_persian(client):
    game, users = started_game(2, engine="seven_wonders", seed="title-page")
    users[0].language = "fa"
    users[0].save(update_fields=["language"])
    client.force_login(users[0])
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f"<title>عجایب هفتگانه #{_digits('fa', game.pk)}" in page
    assert "<bdi>عجایب هفتگانه</bdi>" in page and "7 Wonders" not in page
    answer = client_for(users[0]).get(f"/api/v1/games/{game.pk}/").json()
    assert answer["engine_name"] == "عجایب هفتگانه"


# ---- 2. the end of a suspension -----------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "month", "words"), [
    ("fa", "دسامبر", "تعلیق"), ("zh-hans", "2026年12月3日", "暂停"), ("it", "Dicembre", "sospeso")])
def test_a_suspension_reads_in_the_players_language_with_its_date(language, month, words):
    player = _player(language)
    ends = datetime(2026, 12, 3, 15, 0, tzinfo=UTC)
    sanction = Sanction(user=player, kind=SanctionKind.SUSPENSION, ends_at=ends, reason="x")
    with translation.override(language):
        shown = restriction_message(sanction)
        banned = restriction_message(Sanction(user=player, kind=SanctionKind.BAN, reason="x"))
    # In Tehran's time (15:00 UTC is 18:30 there), the language's digits and month.
    assert month in shown and words in shown and _digits(language, "18:30") in shown, shown
    assert "suspended" not in shown and "December" not in shown and "banned" not in banned
    if language == "fa":
        assert not LATIN.search(shown.replace("+0330", "")) and "۲۰۲۶" in shown, shown


@pytest.mark.django_db
def test_a_sanctions_notice_is_worded_in_the_sanctioned_players_language():
    moderator = UserFactory(is_superuser=True, is_staff=True)
    player = _player("zh-hans")
    with translation.override("en"):  # the moderator's own page
        moderation.user_suspend(moderator=moderator, user=player, days=3, reason="Ωμέγα")
    notice = Notification.objects.filter(user=player).order_by("-pk").first()
    told = notice.context.get("text", "") if notice is not None else ""
    assert "暂停 3 天" in told and not LATIN.search(told.replace("Ωμέγα", "")), told


# ---- 3. options and standing orders refused --------------------------------------------------


def options_without_text(source: str) -> list[int]:
    """Lines of `source` raising or building an InvalidOptions with its English words only."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name == "InvalidOptions" and len(node.args) < 2 and not any(
                keyword.arg == "text" for keyword in node.keywords):
            lines.append(node.lineno)
    return lines


def test_the_scan_sees_an_option_refusal_without_text():
    assert options_without_text('raise InvalidOptions(f"Bad {x}.")\n') == [1]
    assert options_without_text('raise InvalidOptions("Bad.", text("bad"))\n') == []


def test_every_option_refusal_in_the_code_carries_a_text():
    found = [f"{path.relative_to(GAMES.parent)}:{line}"
             for path in sorted(GAMES.rglob("*.py"))
             for line in options_without_text(path.read_text())]
    assert not found, "InvalidOptions without a text:\n" + "\n".join(found)


def _refused(call) -> InvalidOptions:
    with pytest.raises(InvalidOptions) as refused:
        call()
    return refused.value


def option_refusals(slug: str) -> list[InvalidOptions]:
    engine = get_engine(slug)
    refusals = [_refused(lambda: engine.validate_options("2", None)),
                _refused(lambda: engine.validate_options(engine.max_players + 1, None)),
                _refused(lambda: engine.validate_options(engine.min_players, [])),
                _refused(lambda: engine.validate_options(engine.min_players, {"speed": 1})),
                _refused(lambda: engine.validate_orders([])),
                _refused(lambda: engine.validate_orders({"haste": "x"}))]
    if engine.options:
        option = engine.options[0]["name"]
        refusals.append(_refused(lambda: engine.validate_options(engine.min_players,
                                                                 {option: "nonsense"})))
    if engine.standing_orders:
        order = engine.standing_orders[0]["name"]
        refusals.append(_refused(lambda: engine.validate_orders({order: "nonsense"})))
    if slug == "caverna":
        refusals.append(_refused(lambda: engine.new_game_at_version(2, "s", None, 99)))
    return refusals


ENGINES = ["stone_age", "seven_wonders", "caverna"]


@pytest.mark.parametrize("slug", ENGINES)
def test_an_option_refusals_text_says_what_its_english_words_say(slug):
    catalog = get_engine(slug).text_catalog
    for refusal in option_refusals(slug):
        assert refusal.text is not None, str(refusal)
        assert render(catalog, refusal.text) == str(refusal)


#: Every option and order text, also those no engine's options reach today (true/false, whole
#: numbers, ranges): each must be translated in each engine's catalog.
EVERY_OPTION_TEXT = [text(key, option="speed", order="haste", names="speed", choices="a, b",
                          low=1, high=5, players=4, count=9)
                     for key in SHARED_MESSAGES if key.startswith(("options_", "orders_"))]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", ENGINES)
def test_option_refusals_read_in_each_language(slug, language):
    catalog = get_engine(slug).text_catalog
    translations = strict_translations(slug, language)
    refused = [refusal.text for refusal in option_refusals(slug)]
    assert len(EVERY_OPTION_TEXT) == 12
    for message in refused + EVERY_OPTION_TEXT:
        english, shown = render(catalog, message), render(catalog, message, translations)
        assert shown != english
        if language != "it":
            # What the request sent (names and values) stays as sent; "true" and "false" are
            # JSON's words; everything else is the language's.
            words = shown
            for value in [*message.get("p", {}).values(), "nonsense", "true", "false",
                          "speed", "haste", "JSON"]:
                words = words.replace(str(value), "")
            assert not LATIN.search(words), (english, shown)


@pytest.mark.django_db
def test_bad_options_and_orders_are_refused_in_the_callers_language():
    player = _player("fa")
    client = client_for(player)
    answer = client.post("/api/v1/games/", {"engine": "stone_age", "num_players": 5},
                         format="json")
    assert answer.status_code == 422, answer.content
    assert answer.json()["message"] == "این بازی با ۲ تا ۴ بازیکن بازی می‌شود، نه ۵."
    orders = client.put("/api/v1/me/autoplay/",
                          {"standing_orders": {"stone_age": {"feeding": "gold"}}}, format="json")
    message = orders.json()["message"]
    assert orders.status_code == 422 and message.startswith("دستور ثابت feeding"), message
    with translation.override("zh-hans"), pytest.raises(InvalidGameSetup) as refused:
        services.game_create(creator=player, engine_slug="seven_wonders", num_players=3,
                             options={"wonders": "all"})
    assert refused.value.message == "选项 wonders 必须是以下之一：random, chosen。"


# ---- 4. the service's, the API's and the moderators' remaining words ----------------------------


@pytest.mark.django_db
def test_a_join_refusal_and_api_errors_read_in_the_players_language():
    game = services.game_create(creator=_player("en"), engine_slug="stone_age", num_players=2,
                                allow_spectators=False)
    player = _player("it")
    with translation.override("it"), pytest.raises(NotAllowed) as refused:
        services.game_join(game_id=game.pk, user=player)
    assert refused.value.message == ("Questa partita è privata: possono unirsi solo i giocatori "
                                     "invitati.")
    # An address no view answers: the language the request asks for (no view reads a token).
    missing = client_for(player).get("/api/v1/nothing-here/", HTTP_ACCEPT_LANGUAGE="it")
    assert missing.status_code == 404
    assert missing.json()["message"] == "A questo indirizzo non c'è nulla."
    bad = client_for(_player("fa", "Ζήτα")).get("/api/v1/games/?status=nonsense")
    assert bad.status_code == 400
    assert bad.json()["message"] == ("status: باید یکی از این‌ها باشد: open, active, finished, "
                                     "aborted.")


@pytest.mark.django_db
def test_the_moderators_admin_actions_and_display_name_problems_are_translated():
    from accounts.names import NameProblem, check_characters
    from games.admin import GameAdmin, ReportedFilter

    with translation.override("fa"):
        descriptions = [str(getattr(action, "short_description", "")) for action in
                        GameAdmin.actions]
        assert descriptions and all(not LATIN.search(label) for label in descriptions), \
            descriptions
        lookups = ReportedFilter(None, {}, Game, GameAdmin).lookups(None, None)
        assert not LATIN.search(str(lookups[0][1]))
        with pytest.raises(NameProblem) as problem:
            check_characters("\u202eΔ")
        assert not LATIN.search(str(problem.value)), str(problem.value)


@pytest.mark.django_db
def test_what_moderators_and_email_players_read_of_records_and_answers_is_translated():
    from games.models.records import DeadlineOutcome
    from notifications.inbound.choosing import quote

    game = Game.objects.create(engine="caverna", num_players=2, seed="admin-names",
                               created_by=_player("fa"))
    with translation.override("zh-hans"):
        assert str(game) == f"游戏 {game.pk}（洞穴农夫 #{game.pk}，{game.get_status_display()}）"
        assert not LATIN.search(str(game.get_status_display()))
        assert not LATIN.search(str(DeadlineOutcome.TIMED_OUT.label))
    with translation.override("fa"):
        answer = quote("Ωμέγα", "؟")
        assert answer.startswith("پاسخ شما با «Ωμέγα»") and not LATIN.search(answer), answer


def _admin_labels() -> dict[str, str]:
    """Every column, field and filter label a moderator reads in the admin of our apps (and
    the models' names), by where it comes from; Django's own "ID" aside."""
    from django.contrib import admin
    from django.core.exceptions import FieldDoesNotExist

    labels: dict[str, str] = {}

    def read(model, model_admin, names) -> None:
        for entry in names:
            name = entry[0] if isinstance(entry, tuple) else entry
            if not isinstance(name, str) or name == "id":
                continue
            try:
                labels[f"{model.__name__}.{name}"] = str(model._meta.get_field(name).verbose_name)
            except FieldDoesNotExist:
                described = getattr(getattr(model_admin, name, None), "short_description", None)
                if described is not None:
                    labels[f"{model.__name__}.{name}()"] = str(described)

    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in ("games", "accounts", "notifications"):
            continue
        labels[f"{model.__name__} (name)"] = str(model._meta.verbose_name_plural)
        names = [*model_admin.list_display, *(model_admin.fields or ()),
                 *model_admin.readonly_fields, *model_admin.list_filter]
        for _title, options in model_admin.fieldsets or ():
            names += list(options.get("fields", ()))
        read(model, model_admin, names)
        for inline in model_admin.inlines:
            read(inline.model, inline, [*(inline.fields or ()), *inline.readonly_fields])
    return labels


def test_the_admins_labels_read_in_the_moderators_language():
    with translation.override("fa"):
        labels = _admin_labels()
    english = {where: label for where, label in labels.items()
               if LATIN.search(label.replace("IP", "").replace("ID", "").replace("JSON", ""))}
    assert len(labels) > 100 and not english, english
