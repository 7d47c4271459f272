"""GET /api/v1/users/{name}/games/export/: a player's finished games as NDJSON, newest first,
each line an export that `manage.py verify_export` replays (the whole file at once)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from tests.api.test_resign_export import play_to_the_end
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


def _lines(response) -> list[dict]:
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/x-ndjson"
    text = b"".join(response.streaming_content).decode()
    assert text == "" or text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def _verify(tmp_path, text: str) -> str:
    path = tmp_path / "games.ndjson"
    path.write_text(text)
    out = StringIO()
    call_command("verify_export", str(path), stdout=out)
    return out.getvalue()


@pytest.mark.slow  # plays two games to their end
def test_a_players_finished_games_stream_as_verifiable_ndjson(tmp_path):
    player = UserFactory()
    finished = []
    for seed in ("bulk-1", "bulk-2"):
        game, users = started_game(2, make_user=iter([player, UserFactory()]).__next__)
        finished.append(play_to_the_end(game, users, seed=seed))
    started_game(2, make_user=iter([player, UserFactory()]).__next__)  # still running
    started_game(2)  # not theirs

    url = f"/api/v1/users/{player.username}/games/export/"
    exports = _lines(APIClient().get(url))
    assert [export["game"] for export in exports] == [game.pk for game in reversed(finished)]
    assert all(export["seed"] and export["result"] for export in exports)
    text = "".join(json.dumps(export) + "\n" for export in exports)
    report = _verify(tmp_path, text)
    assert report.count("OK:") == 2 and "line 2: OK:" in report

    cheated = [json.loads(json.dumps(export)) for export in exports]
    cheated[1]["result"]["scores"][0] += 1
    with pytest.raises(CommandError, match="line 2"):
        _verify(tmp_path, "".join(json.dumps(export) + "\n" for export in cheated))

    assert len(_lines(APIClient().get(url + "?max=1"))) == 1
    assert _lines(APIClient().get(url + "?since=2999-01-01T00:00:00Z")) == []
    assert _lines(APIClient().get(url + "?engine=stone_age")) == []
    bad = APIClient().get(url + "?since=yesterday")
    assert bad.status_code == 400 and list(bad.json()["details"]["fields"]) == ["since"]
    assert APIClient().get("/api/v1/users/nobody-at-all/games/export/").status_code == 404
