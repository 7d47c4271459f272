"""Tokens made by the password login had every scope there was; `manage` is a new one, and the
password login's tokens have it (they are as strong as the password): the live ones made before
it get it too, so that their clients keep managing webhooks and tokens. Tokens a player made
with chosen scopes keep exactly those."""

from django.db import migrations


def grant_manage(apps, schema_editor):
    PersonalAccessToken = apps.get_model("accounts", "PersonalAccessToken")
    tokens = PersonalAccessToken.objects.filter(
        revoked_at__isnull=True, events__kind="created", events__via="password login")
    for token in tokens.distinct():
        if "manage" not in token.scopes:
            token.scopes = [*token.scopes, "manage"]
            token.save(update_fields=["scopes"])


def withdraw_manage(apps, schema_editor):
    PersonalAccessToken = apps.get_model("accounts", "PersonalAccessToken")
    for token in PersonalAccessToken.objects.filter(scopes__contains=["manage"]):
        token.scopes = [scope for scope in token.scopes if scope != "manage"]
        token.save(update_fields=["scopes"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0009_translated_labels")]

    operations = [migrations.RunPython(grant_manage, withdraw_manage)]
