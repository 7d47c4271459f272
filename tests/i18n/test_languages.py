"""The players' languages: Accept-Language for visitors, the switcher on every page, the saved
choice (profile and API) that wins over both, right to left for Persian, and emails written in
the recipient's language."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from notifications.models import Notification
from notifications.rendering import build_email
from tests.factories import PASSWORD, UserFactory, confirm_email, started_game

pytestmark = pytest.mark.django_db

#: A phrase of the lobby and of the "your move" email in each language.
LOBBY_HERO = {"en": "Heavy board games, played slowly.", "fa": "بازی‌های رومیزی سنگین",
              "zh-hans": "重度桌游，慢慢来玩。", "it": "Giochi da tavolo impegnativi"}
STARTED_SUBJECT = {"en": "has started: your move", "fa": "شروع شد: نوبت شماست",
                   "zh-hans": "已开始：轮到你了", "it": "è iniziata: tocca a te"}
GREETING = {"en": "Hello", "fa": "سلام", "zh-hans": "player", "it": "Ciao"}


def html_tag(response) -> str:
    page = response.content.decode()
    return page[page.index("<html"):page.index(">", page.index("<html")) + 1]


@pytest.mark.parametrize(("header", "language"), [
    ("fa-IR,fa;q=0.9,en;q=0.5", "fa"), ("zh-CN,zh;q=0.9", "zh-hans"), ("it-IT,it;q=0.8", "it"),
    ("de-DE,de;q=0.9", "en"), ("", "en")])
def test_a_visitor_reads_the_lobby_in_their_browsers_language(client, header, language):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=header)
    assert response.status_code == 200
    assert LOBBY_HERO[language] in response.content.decode()
    assert f'lang="{language}"' in html_tag(response)


def test_persian_pages_are_right_to_left_and_the_others_left_to_right(client):
    assert html_tag(client.get("/", HTTP_ACCEPT_LANGUAGE="fa")) == '<html lang="fa" dir="rtl">'
    assert html_tag(client.get("/", HTTP_ACCEPT_LANGUAGE="it")) == '<html lang="it" dir="ltr">'


def test_the_switcher_is_on_every_page_and_remembers_a_visitors_choice(client):
    for path in ("/", "/accounts/login/", "/games/finished/"):
        page = client.get(path).content.decode()
        assert 'id="language-switcher"' in page and 'value="fa"' in page, path
    response = client.post("/language/", {"language": "it", "next": "/games/finished/"},
                           HTTP_ACCEPT_LANGUAGE="fa")
    assert response.status_code == 302 and response["Location"] == "/games/finished/"
    # The cookie now outranks the browser's Accept-Language.
    assert LOBBY_HERO["it"] in client.get("/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()


def test_the_switcher_refuses_an_unknown_language_and_changes_nothing(client):
    user = UserFactory(language="it")
    client.force_login(user)
    client.post("/language/", {"language": "xx", "next": "/"})
    user.refresh_from_db()
    assert user.language == "it"
    assert 'lang="it"' in html_tag(client.get("/", HTTP_ACCEPT_LANGUAGE="fa"))


def test_a_players_saved_choice_wins_over_the_browser_and_the_switcher_saves_it(client):
    user = UserFactory(language="zh-hans")
    client.force_login(user)
    assert 'lang="zh-hans"' in html_tag(client.get("/", HTTP_ACCEPT_LANGUAGE="it"))
    client.post("/language/", {"language": "fa", "next": "/"})
    user.refresh_from_db()
    assert user.language == "fa"
    # Saved on the account, so another browser (no cookie) gets it too.
    other_browser = Client()
    other_browser.force_login(user)
    assert html_tag(other_browser.get("/", HTTP_ACCEPT_LANGUAGE="en")) == (
        '<html lang="fa" dir="rtl">')


def test_the_settings_page_chooses_the_language(client):
    user = UserFactory()
    client.force_login(user)
    page = client.get("/settings/").content.decode()
    assert 'name="language"' in page
    response = client.post("/settings/", {"display_name": "", "timezone": "Asia/Tehran",
                                          "language": "fa"}, follow=True)
    user.refresh_from_db()
    assert user.language == "fa"
    assert "تنظیمات شما ذخیره شد." in response.content.decode()
    client.post("/settings/", {"display_name": "", "timezone": "Asia/Tehran", "language": "xx"})
    user.refresh_from_db()
    assert user.language == "fa"


def test_the_api_reads_and_changes_the_language(client):
    user = confirm_email(UserFactory())
    api = Client()
    token = api.post("/api/v1/auth/token/", {"username": user.username, "password": PASSWORD},
                     content_type="application/json").json()["token"]
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    assert api.get("/api/v1/me/", **headers).json()["language"] == ""
    response = api.patch("/api/v1/me/", {"language": "it"}, content_type="application/json",
                         **headers)
    assert response.status_code == 200 and response.json()["language"] == "it"
    refused = api.patch("/api/v1/me/", {"language": "klingon"},
                        content_type="application/json", **headers)
    assert refused.status_code == 400
    user.refresh_from_db()
    assert user.language == "it"


@pytest.mark.parametrize("language", ["en", "fa", "zh-hans", "it"])
def test_emails_are_written_in_the_recipients_language(language):
    counter = itertools.count()

    def make_user():
        return UserFactory(language=language if next(counter) == 0 else "")

    _, users = started_game(2, make_user=make_user)
    creator = users[0] if users[0].language == language else users[1]
    sent = [message for message in mail.outbox if creator.email in message.to
            and STARTED_SUBJECT[language] in message.subject]
    assert len(sent) == 1, [message.subject for message in mail.outbox]
    html = sent[0].alternatives[0][0]
    if language == "fa":
        assert '<html lang="fa" dir="rtl">' in html
    # The other player chose nothing: English.
    other = next(user for user in users if user != creator)
    assert any(STARTED_SUBJECT["en"] in message.subject for message in mail.outbox
               if other.email in message.to)
    # Rebuilding the same email renders the same language, with the game's choices listed.
    notification = Notification.objects.get(user=creator, kind="game_started")
    rebuilt = build_email(notification, timezone.now())
    assert STARTED_SUBJECT[language] in rebuilt.subject
    assert rebuilt.body.startswith(GREETING[language])


def test_an_email_in_persian_keeps_english_out_of_its_own_sentences():
    game, users = started_game(2, make_user=lambda: UserFactory(language="fa"))
    notification = Notification.objects.filter(user=users[0], kind="game_started").first()
    message = build_email(notification, timezone.now())
    for english in ("Hello", "Open the game", "Change your notification settings",
                    "Stop emails like this", "has started"):
        assert english not in message.body, english
    assert "سلام" in message.body and "باز کردن بازی" in message.body


def api_client_for(user) -> tuple[Client, dict]:
    confirm_email(user)
    api = Client()
    token = api.post("/api/v1/auth/token/", {"username": user.username, "password": PASSWORD},
                     content_type="application/json").json()["token"]
    return api, {"HTTP_AUTHORIZATION": f"Bearer {token}"}


@pytest.mark.parametrize(("language", "header", "expected"), [
    ("it", "", "Questa partita è già iniziata; non ci si può unire."),
    ("", "zh-CN,zh;q=0.9", "这局游戏已经开始，无法加入。"),
    ("fa", "it", "این بازی شروع شده است؛ نمی‌توان به آن پیوست."),
    ("", "", "This game has already started; it cannot be joined."),
])
def test_api_errors_speak_the_players_language_then_the_browsers(language, header, expected):
    game, _ = started_game(2)
    api, headers = api_client_for(UserFactory(language=language))
    response = api.post(f"/api/v1/games/{game.pk}/join/", HTTP_ACCEPT_LANGUAGE=header,
                        **headers)
    assert response.status_code == 409
    assert response.json()["message"] == expected


def test_persian_pages_write_numbers_in_persian_digits(client):
    game, users = started_game(2, make_user=lambda: UserFactory(language="fa"))
    client.force_login(users[0])
    page = client.get("/").content.decode()
    assert "۲/۲ بازیکن" in page
    # Links and form values keep their ASCII digits.
    assert f'href="/games/{game.pk}/"' in page
    # Durations are words of the reader's language too.
    assert "روز برای هر حرکت" in client.get(f"/games/{game.pk}/").content.decode()
    users[0].language = "it"
    users[0].save(update_fields=["language"])
    assert "2/2 giocatori" in client.get("/").content.decode()


def test_the_scripts_strings_come_in_the_pages_language(client):
    catalog = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    # The catalog is JavaScript with its strings JSON-escaped.
    assert json.dumps("رونوشت گرفته شد") in catalog and "Could not subscribe" in catalog
    chinese = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
    assert json.dumps("已复制") in chinese
    assert 'src="/jsi18n/"' in client.get("/").content.decode()


#: Headings of allauth's own pages, from allauth's catalogs (the project does not override them).
ACCOUNT_PAGES = {
    "/accounts/login/": {"en": "Sign In", "fa": "ورود", "zh-hans": "登录", "it": "Accedi"},
    "/accounts/signup/": {"en": "Sign Up", "fa": "ثبت نام", "zh-hans": "注册",
                          "it": "Registrazione"},
    "/accounts/password/reset/": {"en": "Reset My Password", "fa": "درخواست بازنشانی",
                                  "zh-hans": "重置我的密码", "it": "Reimposta la mia password"},
}


@pytest.mark.parametrize("language", ["fa", "zh-hans", "it"])
@pytest.mark.parametrize("path", sorted(ACCOUNT_PAGES))
def test_the_account_pages_read_in_the_visitors_language(client, path, language):
    """Login, signup and password reset are allauth's templates: its catalogs apply, in the
    language the visitor's browser asks for, right to left in Persian."""
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    page = response.content.decode()
    assert f'lang="{language}"' in html_tag(response)
    assert ACCOUNT_PAGES[path][language] in page
    # No heading or button stayed English.
    assert not re.search(rf">\s*{ACCOUNT_PAGES[path]['en']}\s*<", page)
