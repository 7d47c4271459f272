"""The action log keeps its texts as message keys only, stored short (games.logtexts), and its
payloads as short JSON text: the English description columns go. An entry written before texts
were stored keeps its English sentence as a `literal` text. Reversible: going back renders the
English descriptions again from the texts."""

import json

from django.db import migrations, models

import games.models.fields

BATCH = 1000


def _in_batches(schema_editor, Action, rows, fields):
    # The rows were rewritten by this transaction's ALTER TABLE: updating them queues the
    # deferred foreign-key checks, which would keep the columns from being dropped after.
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            Action.objects.bulk_update(batch, fields)
            batch = []
    if batch:
        Action.objects.bulk_update(batch, fields)


def pack_texts(apps, schema_editor):
    from games.log import codec

    Action = apps.get_model("games", "Action")

    def packed(rows):
        for row in rows:
            # Text columns now: a stored text reads as jsonb's text, None where there was none.
            public = json.loads(row.public_text) if row.public_text else codec.literal(
                row.public_description)
            if row.public_text:
                actor = json.loads(row.actor_text) if row.actor_text else None
            else:
                actor = (None if row.actor_description == row.public_description
                         else codec.literal(row.actor_description))
            row.public_text = codec.pack(public, seat=row.seat_number, payload=row.payload)
            row.actor_text = codec.pack(actor, seat=row.seat_number, payload=row.payload)
            yield row  # the payload is written back too: as short JSON now

    rows = Action.objects.order_by("pk").iterator(chunk_size=BATCH)
    _in_batches(schema_editor, Action, packed(rows), ["payload", "public_text", "actor_text"])


def unpack_texts(apps, schema_editor):
    from games.log import codec
    from games.presentation.texts import message_text

    Action = apps.get_model("games", "Action")

    def unpacked(rows):
        for row in rows:
            public = codec.unpack(row.public_text, seat=row.seat_number, payload=row.payload)
            actor = codec.unpack(row.actor_text, seat=row.seat_number, payload=row.payload)
            row.public_description = message_text(row.game.engine, public, language="en")
            row.actor_description = (message_text(row.game.engine, actor, language="en")
                                     if actor is not None else row.public_description)
            row.public_text = json.dumps(public)
            row.actor_text = json.dumps(actor) if actor is not None else None
            yield row

    rows = Action.objects.select_related("game").order_by("pk").iterator(chunk_size=BATCH)
    _in_batches(schema_editor, Action, unpacked(rows),
                ["public_text", "actor_text", "public_description", "actor_description"])
    # The payloads as the actions themselves, for jsonb again: written past the field, which
    # would store them short.
    table = schema_editor.quote_name(Action._meta.db_table)
    update = f"UPDATE {table} SET payload = %s WHERE id = %s"
    rows = Action.objects.exclude(payload=None).order_by("pk").values_list("pk", "payload")
    batch = []
    with schema_editor.connection.cursor() as cursor:
        for pk, payload in rows.iterator(chunk_size=BATCH):
            batch.append((json.dumps(payload), pk))
            if len(batch) == BATCH:
                cursor.executemany(update, batch)
                batch = []
        if batch:
            cursor.executemany(update, batch)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0012_action_texts_as_keys'),
    ]

    operations = [
        migrations.AlterField(
            model_name='action',
            name='payload',
            field=games.models.fields.ActionPayloadField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='action',
            name='public_text',
            field=models.TextField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='action',
            name='actor_text',
            field=models.TextField(blank=True, null=True),
        ),
        # A default only so that going back can add the columns to a log with rows in it.
        migrations.AlterField(
            model_name='action',
            name='public_description',
            field=models.TextField(default=''),
        ),
        migrations.AlterField(
            model_name='action',
            name='actor_description',
            field=models.TextField(default=''),
        ),
        migrations.RunPython(pack_texts, unpack_texts),
        migrations.RemoveField(
            model_name='action',
            name='public_description',
        ),
        migrations.RemoveField(
            model_name='action',
            name='actor_description',
        ),
        migrations.AlterField(
            model_name='action',
            name='public_text',
            field=models.TextField(),
        ),
    ]
