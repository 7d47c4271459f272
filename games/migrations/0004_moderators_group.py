"""The Moderators group with just the permissions moderation needs."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

MODERATOR_PERMISSIONS = [
    ("games", "view_game"),
    ("games", "view_seat"),
    ("games", "view_action"),
    ("games", "view_chatmessage"),
    ("games", "moderate_game"),
    ("games", "view_report"),
    ("games", "change_report"),
    ("games", "view_auditentry"),
    ("accounts", "view_user"),
    ("accounts", "view_sanction"),
    ("accounts", "sanction_user"),
]


def create_group(apps, schema_editor):
    # Permissions are normally created after migrations; the group needs them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Moderators")
    permissions = [
        Permission.objects.get(content_type__app_label=app, codename=codename)
        for app, codename in MODERATOR_PERMISSIONS
    ]
    group.permissions.set(permissions)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="Moderators").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_moderation"),
        ("accounts", "0004_moderation"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(create_group, remove_group)]
