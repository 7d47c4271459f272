"""The game row is rewritten on every move: leave room on each page so that PostgreSQL can keep
the new version beside the old one (a HOT update: no new index entries, and the old version is
reclaimed by the next visit to the page instead of waiting for VACUUM). Autovacuum visits the
table and its TOAST table (the `state` JSON of big games lives there) sooner than by default,
because both see a dead row version per move.

Applies to pages written from now on; `VACUUM FULL games_game` (or pg_repack) rewrites the
existing ones, at a time of one's choosing. SQLite has no such settings: nothing to do there."""

from django.db import migrations

STORAGE = ("fillfactor = 70, autovacuum_vacuum_scale_factor = 0.02, "
           "toast.autovacuum_vacuum_scale_factor = 0.02")
RESET = "fillfactor, autovacuum_vacuum_scale_factor, toast.autovacuum_vacuum_scale_factor"


def _on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)
    return run


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0010_seat_bot_level"),
    ]

    operations = [
        migrations.RunPython(_on_postgresql(f"ALTER TABLE games_game SET ({STORAGE})"),
                             _on_postgresql(f"ALTER TABLE games_game RESET ({RESET})")),
    ]
