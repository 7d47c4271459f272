"""A development server (`make run`, DJANGO_DEBUG=true) signs with secrets of its own, made at
random into DATA_DIR on first run: a reply token minted with the key the repository once
shipped moves nobody, and the inbound webhooks take no post without the generated secret."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

from games.models import Action
from notifications.inbound.tokens import make_token, reply_address
from notifications.models import InboundMessage
from tests.conftest import ROOT
from tests.notifications.email_play import (
    answer,
    committed,
    last_mail_to,
    reply_to_of,
    started,
    webhook_auth,
)

#: The development key this repository used to ship in config/settings.py, so anyone could mint
#: reply tokens (and sessions, password-reset links) for a server left on it.
OLD_REPOSITORY_KEY = "insecure-development-key-only-for-the-embedded-defaults-never-in-production"


#: `manage.py receive_email --recipient ADDRESS` with the toy engine registered (tests only).
_RECEIVE_EMAIL = """
import os, sys, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
from django.core.management import call_command
from games.engines import registry
from tests.engines.toy import toy_engine
registry.register(toy_engine)
call_command("receive_email", recipient=sys.argv[1])
"""


def _development_environment(data_dir: Path) -> dict[str, str]:
    """`make run`'s environment: DEBUG, no DJANGO_SECRET_KEY or webhook secret of its own."""
    env = {name: value for name, value in os.environ.items()
           if name not in {"DJANGO_SECRET_KEY", "ANYMAIL_WEBHOOK_SECRET", "DJANGO_SETTINGS_MODULE"}}
    return {**env, "DJANGO_DEBUG": "true", "DATA_DIR": str(data_dir)}


def _test_database_url() -> str:
    db = connection.settings_dict
    return (f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT'] or 5432}"
            f"/{db['NAME']}")


def _setting(env: dict[str, str], expression: str) -> str:
    code = f"from django.conf import settings; print({expression})"
    return subprocess.run([sys.executable, "manage.py", "shell", "-v", "0", "-c", code],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=True,
                          timeout=120).stdout.strip()


def _private_file(path: Path) -> str:
    assert stat.S_IMODE(path.stat().st_mode) == 0o600, oct(path.stat().st_mode)
    return path.read_text().strip()


@pytest.mark.slow  # two Django processes, one after another: 25 s
@pytest.mark.django_db(transaction=True)
def test_a_reply_token_minted_with_the_old_repository_key_moves_nobody(settings, tmp_path):
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    settings.SECRET_KEY = OLD_REPOSITORY_KEY
    forged_address = reply_address(make_token(user_id=bob.pk, game_id=game.pk,
                                              version=game.version))
    env = {**_development_environment(tmp_path), "DATABASE_URL": _test_database_url(),
           "CELERY_TASK_ALWAYS_EAGER": "true",
           "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}

    def receive(to: str) -> str:
        """`manage.py receive_email` as the MTA pipe runs it (with the test-only toy engine)."""
        return subprocess.run(
            [sys.executable, "-c", _RECEIVE_EMAIL, to], cwd=ROOT, env=env,
            input=answer(start, "2", to=to), capture_output=True, check=True,
            timeout=120).stdout.decode()

    assert receive(forged_address).strip().endswith("refused (unknown_token)")
    assert not Action.objects.filter(game=game).exists()
    # The server's own key, made on that first run, is what a genuine reply address carries.
    settings.SECRET_KEY = _private_file(tmp_path / "secret-key")
    assert settings.SECRET_KEY != OLD_REPOSITORY_KEY and len(settings.SECRET_KEY) >= 50
    genuine = reply_address(make_token(user_id=bob.pk, game_id=game.pk, version=game.version))
    assert receive(genuine).strip().endswith("applied (move)")


@pytest.mark.slow  # Django processes started one after another: 15 s
def test_development_makes_its_webhook_secret_once_and_keeps_it_private(tmp_path):
    env = _development_environment(tmp_path)
    secret = _setting(env, "settings.ANYMAIL['WEBHOOK_SECRET']")
    user, _, password = secret.partition(":")
    assert user == "turnpost" and len(password) >= 32
    assert _private_file(tmp_path / "anymail-webhook-secret") == secret
    assert _setting(env, "settings.ANYMAIL['WEBHOOK_SECRET']") == secret  # the next start
    # One of your own wins, and production makes none.
    assert _setting({**env, "ANYMAIL_WEBHOOK_SECRET": "hook:mine"},
                    "settings.ANYMAIL['WEBHOOK_SECRET']") == "hook:mine"
    production = {**env, "DJANGO_DEBUG": "false", "DATA_DIR": str(tmp_path / "production"),
                  "DJANGO_SECRET_KEY": "p-" + os.urandom(40).hex(),
                  "DJANGO_ALLOWED_HOSTS": "play.example.org"}
    assert _setting(production, "settings.ANYMAIL.get('WEBHOOK_SECRET')") == "None"


@pytest.mark.django_db
def test_a_development_servers_inbound_webhook_refuses_a_post_without_the_secret(settings):
    """The settings these tests run on are a development server's (DJANGO_DEBUG unset): an
    unsigned provider (SendGrid signs nothing) gets anymail's 400 without the basic auth."""
    assert settings.ANYMAIL.get("WEBHOOK_SECRET")
    game, (alice, bob) = started()
    start = last_mail_to(bob)
    fields = {"email": answer(start, "2").decode(), "SPF": "pass",
              "envelope": json.dumps({"from": bob.email, "to": [reply_to_of(start)]})}
    with committed():
        stranger = Client().post("/anymail/sendgrid/inbound/", fields)
    assert stranger.status_code == 400
    assert not InboundMessage.objects.exists() and not Action.objects.filter(game=game).exists()
    with committed():
        provider = Client().post("/anymail/sendgrid/inbound/", fields, **webhook_auth())
    assert provider.status_code == 200 and InboundMessage.objects.get().reason == "move"
