"""A control character in the query string, sent to uvicorn as `make run` serves the site: a
400 JSON error (`GET /api/v1/games/?player=a%00b` was a 500, anonymous or not)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

pytestmark = [pytest.mark.postgres]


def test_a_real_server_answers_400_json_to_a_nul(asgi_server):
    """The request as the audit sent it (the test client decodes a query string its own
    way)."""
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(asgi_server + "/api/v1/games/?player=a%00b", timeout=30)
    assert refused.value.code == 400
    assert json.loads(refused.value.read())["code"] == "invalid_query"
