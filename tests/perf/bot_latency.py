"""How long a person waits for a bot's reply, and where that time goes: a real game worker (the
one of `make run`: prefork, two processes) plays default-level bots against a person who moves
through the API the moment it is their turn, in Stone Age 2p, 7 Wonders 3p and Caverna 2p,
under two settings, each in a process of its own:

- services: PostgreSQL + Redis (a scratch database next to DATABASE_URL's, a private queue);
- embedded: `make run` without DATABASE_URL/REDIS_URL: SQLite and the filesystem broker in a
  temporary DATA_DIR.

For each bot decision (and each 7 Wonders resolution) it records, in seconds:
  ready      the moment the decision became due (the commit before it);
  pickup     ready -> its task started (queue and broker), 0 when the task that made the commit
             before went on with it;
  prep       task start -> search start (reading the game);
  search     the search's CPU and wall time (the service's games.bots log line);
  commit     applying and committing the move (with its follow-ups queued);
  api        ready -> the API (GET /api/v1/games/{id}/) shows the move: the reply as a poller
             sees it (the game's version is watched every 20 ms, the API then asked);
  page       ready -> the game page's live event for it (services: the Redis pub/sub message the
             page's stream relays; embedded: the database relay of games/live/hub.py, read every
             STREAM_POLL_SECONDS as the web process does).
It also notes, per person move, how long until it was their turn again ("turn back").

    .venv/bin/python -m tests.perf.bot_latency                       # both settings
    .venv/bin/python -m tests.perf.bot_latency --settings embedded --moves 6
    .venv/bin/python -m tests.perf.bot_latency --settings services --engine seven_wonders:3 \
        --level hard     # two hard bots: their picks of a turn are thought out side by side

`make bench` prints the same table (tests/perf/test_bot_latency.py).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ("services", "embedded")
#: (engine, players, person moves per game): about 15 bot decisions each or more.
GAMES = (("stone_age", 2, 15), ("seven_wonders", 3, 8), ("caverna", 2, 10))
DB_POLL_SECONDS = 0.02
PARTS = ("pickup", "prep", "search_cpu", "search_wall", "commit", "api", "page")
#: Tables measured in this process, printed at the end of a `make bench` run.
REPORTS: list[str] = []


# ---------------------------------------------------------------------------------------------
# the parent: one child process per setting, then the table


def _migrations_key() -> str:
    digest = hashlib.sha256()
    for path in sorted(ROOT.glob("*/migrations/*.py")):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:12]


def _migrate(env: dict[str, str]) -> None:
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                   env=env, check=True)


def _admin(url: str):
    import psycopg

    return psycopg.connect(urlunsplit(urlsplit(url)._replace(path="/postgres")), autocommit=True)


def _scratch_database(url: str, env: dict[str, str]) -> str:
    """A fresh migrated database next to `url`'s (dropped by `_drop`), copied from a template
    migrated once per set of migrations (migrating takes minutes on a busy machine)."""
    parts = urlsplit(url)
    base = parts.path.lstrip("/")
    template, name = f"{base}_latency_{_migrations_key()}", f"{base}_latency"
    with _admin(url) as connection:
        if not connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                  [template]).fetchone():
            connection.execute(f'CREATE DATABASE "{template}"')
            try:
                _migrate({**env, "DATABASE_URL": urlunsplit(parts._replace(path=f"/{template}"))})
            except BaseException:
                connection.execute(f'DROP DATABASE "{template}" WITH (FORCE)')
                raise
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


def _drop(url: str) -> None:
    with _admin(url) as connection:
        connection.execute(
            f'DROP DATABASE IF EXISTS "{urlsplit(url).path.lstrip("/")}" WITH (FORCE)')


def _scratch_sqlite(folder: str, env: dict[str, str]) -> None:
    """The embedded database in `folder`, copied from a template migrated once per set of
    migrations (kept beside the caller's DATA_DIR)."""
    store = Path(os.environ.get("DATA_DIR") or tempfile.gettempdir())
    template = store / f"bot-latency-{_migrations_key()}"
    if not (template / "turnpost.sqlite3").exists():
        template.mkdir(parents=True, exist_ok=True)
        _migrate({**env, "DATA_DIR": str(template)})
    source = sqlite3.connect(template / "turnpost.sqlite3")
    target = sqlite3.connect(Path(folder) / "turnpost.sqlite3")
    with source, target:
        source.backup(target)
    source.close()
    target.close()


def measure(setting: str, games=GAMES, extra_env: dict[str, str] | None = None) -> dict:
    """Plays `games` under `setting` in a child process; returns its rows and turn-back times."""
    with tempfile.TemporaryDirectory(prefix=f"bot-latency-{setting}-") as folder:
        env = {key: value for key, value in os.environ.items()
               if key not in ("CELERY_QUEUE", "DJANGO_SETTINGS_MODULE")}
        # The API is asked in-process (Django's test client names its host "testserver").
        env.update(DATA_DIR=folder, PYTHONPATH=str(ROOT),
                   DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost,testserver", **(extra_env or {}))
        database = None
        if setting == "embedded":
            for key in ("DATABASE_URL", "REDIS_URL", "REDIS_CACHE_URL"):
                env.pop(key, None)
            _scratch_sqlite(folder, env)
        else:
            database = env["DATABASE_URL"] = _scratch_database(os.environ["DATABASE_URL"], env)
            env["CELERY_QUEUE"] = f"latency-{uuid.uuid4().hex[:8]}"
        out = Path(folder) / "result.json"
        try:
            subprocess.run([sys.executable, "-m", "tests.perf.bot_latency", "--child", setting,
                            "--out", str(out), "--games", json.dumps(games)],
                           cwd=ROOT, env=env, check=True)
            return json.loads(out.read_text())
        finally:
            if database:
                _drop(database)


def _quantiles(values: list[float]) -> str:
    if not values:
        return "       -"
    ordered = sorted(values)
    p95 = ordered[max(0, -(-len(ordered) * 95 // 100) - 1)]
    return f"{statistics.median(ordered):5.2f} {p95:5.2f} {ordered[-1]:5.2f}"


def table(results: dict[str, dict]) -> str:
    """p50 / p95 / max in seconds, per setting, per kind of decision and per part."""
    lines = ["bot latency, seconds: p50 p95 max (api/page: from the commit before to visible)",
             f"{'setting':9} {'kind':14} {'n':>3}  " + "  ".join(f"{p:^17}" for p in PARTS)]
    for setting, result in results.items():
        rows = result["rows"]
        kinds = sorted({row["kind"] for row in rows})
        for kind in ["all bots", *kinds] if len(kinds) > 1 else kinds:
            chosen = [r for r in rows if (kind == "all bots" and r["kind"] != "resolve")
                      or r["kind"] == kind]
            if not chosen:
                continue
            cells = [_quantiles([r[p] for r in chosen if r.get(p) is not None]) for p in PARTS]
            lines.append(f"{setting:9} {kind:14} {len(chosen):>3}  " + "  ".join(cells))
        lost = result.get("wasted_searches", 0)
        turns = result.get("turn_back", [])
        lines.append(f"{setting:9} {'turn back':14} {len(turns):>3}  {_quantiles(turns)}"
                     f"   (person's move -> their turn again); searches thrown away: {lost}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# the child: Django with the setting's environment, a worker, the games


class _Watch:
    """Notes when each version of a game is first seen: in the database (every 20 ms), in the
    API (asked when the database shows a new one) and on the page's live events."""

    def __init__(self, game_id: int, client) -> None:
        self.game_id, self.client = game_id, client
        self.db_seen: dict[int, float] = {}
        self.api_seen: dict[int, float] = {}
        self.page_seen: dict[int, float] = {}
        self.latest: dict = {}
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._events, daemon=True)]

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(5)

    def poll(self) -> dict:
        """The game as the API shows it, once the database has a version not seen yet."""
        from games.models import Game

        version = Game.objects.filter(pk=self.game_id).values_list("version", flat=True)[0]
        now = time.time()
        for seen in range(max(self.db_seen, default=-1) + 1, version + 1):
            self.db_seen[seen] = now
        if not self.latest or version > self.latest["version"]:
            body = self.client.get(f"/api/v1/games/{self.game_id}/").json()
            now = time.time()
            for seen in range(max(self.api_seen, default=-1) + 1, body["version"] + 1):
                self.api_seen[seen] = now
            self.latest = body
        return self.latest

    def _events(self) -> None:
        from django.conf import settings
        from django.db import connection

        try:
            if settings.REDIS_URL:
                self._redis_events()
            else:
                self._database_relay()
        finally:
            connection.close()

    def _note_page(self, version: int | None) -> None:
        if version is not None and version not in self.page_seen:
            self.page_seen[version] = time.time()

    def _redis_events(self) -> None:
        import redis
        from django.conf import settings

        from games.live import bus

        pubsub = redis.Redis.from_url(settings.REDIS_URL).pubsub()
        pubsub.subscribe(bus.game_channel(self.game_id))
        while not self._stop.is_set():
            message = pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
            if message:
                self._note_page(json.loads(message["data"]).get("version"))
        pubsub.close()

    def _database_relay(self) -> None:
        from django.conf import settings

        from games.live.hub import _new_log_entries

        _, cursor = _new_log_entries(None)
        while not self._stop.wait(settings.STREAM_POLL_SECONDS):
            messages, cursor = _new_log_entries(cursor)
            for key, body in messages:
                if key == f"game:{self.game_id}":
                    self._note_page(body["version"])


def _play(slug: str, players: int, person_moves: int, level: str = "search"
          ) -> tuple[int, list[float], dict]:
    """A game of the person (the creator's seat) against bots of `level`; the person moves
    (the easy bot's choice, through the API) the moment the API shows it their turn."""
    from games import services
    from games.engines.registry import get_engine
    from games.models import Game
    from tests.api.clients import token_client
    from tests.factories import UserFactory

    engine = get_engine(slug)
    user = UserFactory(username=f"latency-{uuid.uuid4().hex[:8]}")
    client = token_client(user)
    game = services.game_create(creator=user, engine_slug=slug, num_players=players)
    for _ in range(players - 1):
        services.game_add_bot(game_id=game.pk, user=user, level=level)
    watch = _Watch(game.pk, client)
    watch.start()
    ready: dict[int, float] = {}  # versions the person's moves committed, and when
    turn_back: list[float] = []
    game = services.game_start(game_id=game.pk, user=user)
    ready[game.version] = time.time()
    person = game.seats.get(user=user).number
    moved_at = None
    moves = 0
    stop_at = time.monotonic() + 600
    try:
        while moves < person_moves and time.monotonic() < stop_at:
            body = watch.poll()
            if body["status"] != "active":
                break
            if person not in body["awaiting_seats"]:
                time.sleep(DB_POLL_SECONDS)
                continue
            if moved_at is not None:
                turn_back.append(time.time() - moved_at)
            current = Game.objects.get(pk=game.pk)
            if person not in engine.active_seats(current.state):  # the API's answer was older
                watch.latest = {}
                continue
            response = client.post(f"/api/v1/games/{game.pk}/actions/",
                                   {"action": engine.bot_action(current.state, person),
                                    "version": current.version}, format="json")
            if response.status_code == 409:  # a bot moved in between: look again
                continue
            assert response.status_code == 200, response.content
            moved_at = time.time()
            outcome = response.json()
            for version in range(outcome["sequence"], outcome["version"] + 1):
                ready[version] = moved_at
            moves += 1
        # the bots' replies to the last move
        settle = time.monotonic() + 30
        while time.monotonic() < settle:
            body = watch.poll()
            if body["status"] != "active" or person in body["awaiting_seats"]:
                break
            time.sleep(DB_POLL_SECONDS)
        # In 7 Wonders the person's turn is back with the bots' next picks still to come: keep
        # watching (the API too, not only the page's relay) while they are made.
        quiet_until = time.monotonic() + 1.5
        while time.monotonic() < quiet_until:
            watch.poll()
            time.sleep(DB_POLL_SECONDS)
    finally:
        watch.stop()
    return game.pk, turn_back, {"ready": ready, "db": watch.db_seen, "api": watch.api_seen,
                                "page": watch.page_seen}


def _rows(game_id: int, seen: dict, records: list[dict]) -> list[dict]:
    """One row per bot decision and per resolution run by its task, from the worker's records
    and the versions seen."""
    from games.models import Action, ActionKind

    starts = {}
    for record in records:
        if record["kind"] == "start" and record["args"][:1] == [game_id] and \
                record["task"].endswith(("play_bot_moves", "resolve_game")):
            # (game, version) of a resolution, (game, version, seat) of a bot seat's task
            starts.setdefault(tuple(record["args"][:3]), record)
    moves = [r for r in records if r["kind"] == "bot_move" and r["game"] == game_id]
    ready = {int(k): v for k, v in seen["ready"].items()}
    for move in moves:
        if move["applied"]:
            for version in range(move["version"] + 1, move["version_after"] + 1):
                ready.setdefault(version, move["committed_at"])

    def first_at(kind: str, version: int) -> float | None:
        times = [t for v, t in seen[kind].items() if int(v) >= version]
        return min(times) if times else None

    def ready_at(version: int) -> float | None:
        return ready.get(version, first_at("db", version))

    rows = []
    for move in moves:
        if not move["applied"]:
            continue
        due = ready_at(move["version"])
        search_start = move["committed_at"] - move["commit"] - move["search_wall"]
        start = starts.get((game_id, move["version"], move["seat"]))
        took_over = start is not None and start["task"].endswith("play_bot_moves") and \
            start["pid"] == move["pid"] and start["at"] <= search_start
        task_start = start["at"] if took_over else due
        api, page = first_at("api", move["version_after"]), first_at("page", move["version_after"])
        rows.append({
            "kind": "bot", "pickup": max(0.0, task_start - due), "prep": search_start - task_start,
            "search_cpu": move["search_cpu"], "search_wall": move["search_wall"],
            "commit": move["commit"], "api": api - due if api else None,
            "page": page - due if page else None})
    resolutions = set(Action.objects.filter(game_id=game_id, kind=ActionKind.RESOLVE)
                      .values_list("sequence", flat=True))
    ends = {tuple(r["args"][:2]): r for r in records
            if r["kind"] == "end" and r["task"].endswith("resolve_game")}
    for key, start in starts.items():
        game, version = key[:2]
        if not start["task"].endswith("resolve_game") or version + 1 not in resolutions:
            continue
        due = ready_at(version)
        if due is None or (game, version) not in ends:
            continue
        api, page = first_at("api", version + 1), first_at("page", version + 1)
        rows.append({"kind": "resolve", "pickup": max(0.0, start["at"] - due),
                     "prep": None, "search_cpu": None, "search_wall": None,
                     "commit": ends[(game, version)]["at"] - start["at"],
                     "api": api - due if api else None, "page": page - due if page else None})
    return rows


def child(setting: str, out: Path, games) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)  # nothing left to do on the template's copy
    data = Path(os.environ["DATA_DIR"])
    records_path, log_path = data / "records.jsonl", data / "worker.log"
    with open(log_path, "w") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "tests.perf.bot_latency_worker",
             settings.CELERY_TASK_DEFAULT_QUEUE, str(records_path)],
            cwd=ROOT, env=os.environ, stdout=log, stderr=subprocess.STDOUT)
    played = []
    try:
        deadline = time.monotonic() + 300  # a busy machine starts a worker slowly
        while " ready." not in log_path.read_text():
            assert worker.poll() is None and time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.2)
        for slug, players, person_moves, *level in games:
            game_id, turn_back, seen = _play(slug, players, person_moves, *level)
            played.append((slug, game_id, turn_back, seen))
            print(f"[{setting}] {slug} {players}p: game {game_id} played", flush=True)
    finally:
        worker.terminate()
        worker.wait(30)
    records = [json.loads(line) for line in records_path.read_text().splitlines()]
    rows, turn_backs = [], []
    for slug, game_id, turn_back, seen in played:
        for row in _rows(game_id, seen, records):
            rows.append({**row, "engine": slug,
                         "kind": f"{row['kind']} {slug}" if row["kind"] == "bot"
                         else row["kind"]})
        turn_backs += turn_back
    wasted = sum(1 for r in records if r["kind"] == "bot_move" and not r["applied"])
    out.write_text(json.dumps({"rows": rows, "turn_back": turn_backs,
                               "wasted_searches": wasted}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--settings", default=",".join(SETTINGS))
    parser.add_argument("--moves", type=int, help="person moves per game (default: per engine)")
    parser.add_argument("--child")
    parser.add_argument("--out")
    parser.add_argument("--games")
    parser.add_argument("--engine", help="only this game: SLUG or SLUG:PLAYERS")
    parser.add_argument("--level", default="search", help="the bots' level (default: search)")
    parser.add_argument("--json", help="also write the rows here")
    options = parser.parse_args()
    if options.child:
        child(options.child, Path(options.out), json.loads(options.games))
        return
    chosen = GAMES
    if options.engine:
        slug, _, players = options.engine.partition(":")
        chosen = [(slug, int(players) if players else count, moves)
                  for each, count, moves in GAMES if each == slug]
    games = [(slug, players, options.moves or moves, options.level)
             for slug, players, moves in chosen]
    results = {setting: measure(setting, games) for setting in options.settings.split(",")}
    print(table(results))
    if options.json:
        Path(options.json).write_text(json.dumps(results))


if __name__ == "__main__":
    main()
