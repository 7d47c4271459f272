"""OAuth 2 for apps end to end, as a third-party app does it: authlib's OAuth2Session against
the real server (uvicorn), the player signed in on the consent page; authorization code with
PKCE, the token check, scopes, refresh and revocation."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session
from django.test import Client

from accounts.oauth import application_register
from tests.factories import UserFactory, committed, started_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

REDIRECT_URI = "http://127.0.0.1:43117/callback"  # a loopback port of the app's choosing


def signed_in_browser(user) -> requests.Session:
    client = Client()
    client.force_login(user)
    browser = requests.Session()
    browser.cookies.set("sessionid", client.cookies["sessionid"].value)
    return browser


def consent(browser: requests.Session, authorization_url: str, *, allow: bool) -> str:
    """Opens the consent page as the player's browser does and answers it; returns where the
    server sends the browser back to (the app's redirect URI, with the code or the error)."""
    page = browser.get(authorization_url)
    assert page.status_code == 200, page.text[-2000:]
    form = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.text))
    form = {name: unescape(value) for name, value in form.items()}
    if allow:
        form["allow"] = "Authorize"
    answer = browser.post(page.url, data=form, allow_redirects=False,
                          headers={"Referer": page.url})
    assert answer.status_code == 302, answer.text[-2000:]
    return answer.headers["Location"]


def test_an_app_gets_refreshes_uses_and_loses_a_token_with_pkce(asgi_server):
    with committed():
        game, (player, _) = started_game(2, engine="stone_age", seed="oauth-flow")
        app, _ = application_register(user=UserFactory(), name="Board bot",
                                      redirect_uris=REDIRECT_URI, confidential=False)
    browser = signed_in_browser(player)
    oauth = OAuth2Session(app.client_id, scope="read chat", redirect_uri=REDIRECT_URI,
                          code_challenge_method="S256", token_endpoint_auth_method="none")

    # Without PKCE the server refuses to authorize at all.
    bare = OAuth2Session(app.client_id, scope="read", redirect_uri=REDIRECT_URI)
    refused = browser.get(bare.create_authorization_url(f"{asgi_server}/oauth/authorize/")[0],
                          allow_redirects=False)
    assert refused.status_code in (302, 400)
    if refused.status_code == 302:
        assert parse_qs(urlsplit(refused.headers["Location"]).query)["error"] == [
            "invalid_request"]

    # The player says no: the app gets access_denied and nothing else.
    verifier = generate_token(48)
    url, _ = oauth.create_authorization_url(f"{asgi_server}/oauth/authorize/",
                                            code_verifier=verifier)
    denied = parse_qs(urlsplit(consent(browser, url, allow=False)).query)
    assert denied["error"] == ["access_denied"] and "code" not in denied

    url, state = oauth.create_authorization_url(f"{asgi_server}/oauth/authorize/",
                                                code_verifier=verifier)
    back = consent(browser, url, allow=True)
    assert back.startswith(REDIRECT_URI)
    # The code is worthless without the verifier.
    stolen = OAuth2Session(app.client_id, redirect_uri=REDIRECT_URI,
                           token_endpoint_auth_method="none", state=state)
    with pytest.raises(Exception, match=r"invalid_grant|invalid_request"):
        stolen.fetch_token(f"{asgi_server}/oauth/token/", authorization_response=back,
                           code_verifier=generate_token(48))
    url, state = oauth.create_authorization_url(f"{asgi_server}/oauth/authorize/",
                                                code_verifier=verifier)
    back = consent(browser, url, allow=True)
    token = oauth.fetch_token(f"{asgi_server}/oauth/token/", authorization_response=back,
                              code_verifier=verifier)
    assert token["access_token"].startswith("tpo_") and token["refresh_token"].startswith("tpr_")
    assert sorted(token["scope"].split()) == ["chat", "read"]

    info = oauth.get(f"{asgi_server}/api/v1/token/").json()
    assert (info["kind"], info["username"], info["scopes"], info["application"]) == (
        "oauth", player.username, ["read", "chat"], "Board bot")
    assert oauth.get(f"{asgi_server}/api/v1/games/{game.pk}/").status_code == 200
    move = oauth.post(f"{asgi_server}/api/v1/games/{game.pk}/actions/",
                      json={"action": {}, "version": game.version})
    assert move.status_code == 403 and move.json()["details"]["required_scope"] == "play"

    old_access = token["access_token"]
    renewed = oauth.refresh_token(f"{asgi_server}/oauth/token/",
                                  refresh_token=token["refresh_token"])
    assert renewed["access_token"] != old_access
    assert requests.get(f"{asgi_server}/api/v1/token/",
                        headers={"Authorization": f"Bearer {old_access}"}).status_code == 401
    assert oauth.get(f"{asgi_server}/api/v1/token/").status_code == 200
    # A refresh token used twice is a stolen one: its whole family is revoked.
    with pytest.raises(Exception, match="invalid_grant"):
        oauth.refresh_token(f"{asgi_server}/oauth/token/", refresh_token=token["refresh_token"])

    url, _ = oauth.create_authorization_url(f"{asgi_server}/oauth/authorize/",
                                            code_verifier=verifier)
    token = oauth.fetch_token(f"{asgi_server}/oauth/token/",
                              authorization_response=consent(browser, url, allow=True),
                              code_verifier=verifier)
    revoked = oauth.revoke_token(f"{asgi_server}/oauth/revoke_token/",
                                 token=token["access_token"], token_type_hint="access_token")
    assert revoked.status_code == 200
    gone = oauth.get(f"{asgi_server}/api/v1/token/")
    assert gone.status_code == 401 and gone.json()["code"] == "authentication_failed"
