"""The schema matches every answer: schemathesis (every check, the stateful phase with the links
it infers included) against the real server (uvicorn), signed in with a token and anonymous,
with a fixed seed and example budget. The event streams are left out (they never end); their
events are checked against the schema in tests/live/test_stream_replay.py.

`run_schemathesis` is the reusable part: point it at any running server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from accounts.tokens import token_create
from tests.factories import committed, confirm_email, started_game
from tests.live.conftest import channel_prefix, start_server, stop_server  # noqa: F401

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis,
              pytest.mark.django_db(transaction=True)]

SEED = 33
MAX_EXAMPLES = 10
#: 422 (refused by the rules) is an answer to a request the schema allows: see the file.
CONFIG = Path(__file__).with_name("schemathesis.toml")
#: Streams never end; the HTML and OAuth pages are not in the API schema anyway.
EXCLUDED_PATHS = r"/stream"


def run_schemathesis(base_url: str, *, headers: dict[str, str], report_dir: Path,
                     seed: int = SEED, max_examples: int = MAX_EXAMPLES) -> tuple[int, str]:
    """Runs `st run` on the server's own schema; returns its exit status and report."""
    command = [str(Path(sys.executable).with_name("st")), "--config-file", str(CONFIG),
               "run", f"{base_url}/api/schema/",
               "--checks", "all", "--seed", str(seed), "--max-examples", str(max_examples),
               "--generation-deterministic", "--exclude-path-regex", EXCLUDED_PATHS,
               "--continue-on-failure", "--workers", "1", "--request-timeout", "30",
               "--report", "junit", "--report-dir", str(report_dir), "--no-color"]
    for name, value in headers.items():
        command += ["--header", f"{name}: {value}"]
    report_dir.mkdir(parents=True, exist_ok=True)
    # Run in the report's folder: schemathesis keeps its example cache where it runs.
    completed = subprocess.run(command, capture_output=True, text=True, timeout=3000,
                               cwd=report_dir)
    return completed.returncode, completed.stdout + completed.stderr


@pytest.fixture
def api_server(transactional_db, channel_prefix, tmp_path):  # noqa: F811 - the fixture
    """uvicorn with limits that let a few thousand requests a minute through."""
    process, url, _ = start_server(tmp_path, {
        # As in production: errors are JSON, never Django's debug pages.
        "DJANGO_DEBUG": "0", "DJANGO_SECURE_SSL_REDIRECT": "0",
        "EVENTS_CHANNEL_PREFIX": channel_prefix,
        **{f"API_THROTTLE_{kind}": "100000/min" for kind in ("ANON", "USER", "TOKEN", "CHAT")}})
    yield url
    stop_server(process)


def test_the_schema_matches_every_answer_signed_in_and_anonymous(api_server, tmp_path):
    with committed():
        _, users = started_game(2, engine="stone_age", seed="schemathesis")
        confirm_email(users[0])
        # Without `manage`: generated requests would revoke the token they are sent with.
        _, token = token_create(user=users[0], name="schemathesis",
                                scopes=["read", "play", "chat"], via="test")
    reports = []
    for who, headers in [("signed in", {"Authorization": f"Bearer {token}"}),
                         ("anonymous", {})]:
        status, report = run_schemathesis(api_server, headers=headers,
                                          report_dir=tmp_path / who.replace(" ", "-"))
        print(f"\n==== schemathesis, {who} ====\n{report[-20000:]}")
        reports.append((who, status))
    assert all(status == 0 for _, status in reports), reports
