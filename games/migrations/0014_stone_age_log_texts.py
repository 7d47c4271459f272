"""Stone Age's rules record their log lines as texts now (they were English sentences). A game
stored before holds English lines in its state's `log` and `last`, so its log no longer replays
to exactly its stored state (`check_games` would report it). Each such game takes the replayed
state when the two differ in those lines alone; any other difference is left for `check_games`
to report, as before. Nothing to undo: the lines read the same either way."""

from django.db import migrations

#: The state's keys that hold the rules' log lines.
LOG_KEYS = ("log", "last")


def _without_log(state: dict) -> dict:
    return {key: value for key, value in state.items() if key not in LOG_KEYS}


def adopt_replayed_logs(apps, schema_editor) -> int:
    """How many games took their replayed state."""
    stored = apps.get_model("games", "Game").objects.filter(engine="stone_age").exclude(state=None)
    if not stored.exists():
        return 0
    # Replaying needs the engine and today's models (the log's short texts and payloads); this
    # runs only where Stone Age games exist, so a fresh database never imports them here.
    from games.engines.registry import get_engine
    from games.models import Game
    from games.log.replay import state_at

    engine = get_engine("stone_age")
    adopted = 0
    for game in Game.objects.filter(pk__in=stored.values("pk")).iterator(chunk_size=100):
        try:
            replayed = state_at(engine, game)
        except Exception:  # a log the engine refuses: check_games reports it as before
            continue
        if replayed != game.state and _without_log(replayed) == _without_log(game.state):
            Game.objects.filter(pk=game.pk, version=game.version).update(state=replayed)
            adopted += 1
    return adopted


class Migration(migrations.Migration):
    dependencies = [("games", "0013_action_compact_log")]

    operations = [migrations.RunPython(adopt_replayed_logs, migrations.RunPython.noop)]
