"""Webhook errors recorded before config/outbound.py kept the first 200 characters of the
receiver's body ("HTTP 500: <body>") or a client library's message naming addresses
("ConnectionError: HTTPConnectionPool(host=...)"): trimmed to what is recorded now, the status
line ("HTTP 500 Internal Server Error") or the error's class."""

import re
from http import HTTPStatus

from django.db import migrations

OLD_STATUS = re.compile(r"^HTTP (\d{3}):")
#: requests' exception classes (ConnectionError, ReadTimeout, SSLError, TooManyRedirects, ...).
OLD_ERROR_CLASS = re.compile(r"^([A-Za-z]+(?:Error|Exception|Timeout|Redirects|Schema|URL|Header"
                             r"|Required)): ")


def trimmed(text: str) -> str:
    status = OLD_STATUS.match(text)
    if status:
        code = int(status.group(1))
        try:
            return f"HTTP {code} {HTTPStatus(code).phrase}"
        except ValueError:
            return f"HTTP {code}"
    error = OLD_ERROR_CLASS.match(text)
    return error.group(1) if error else text


def trim(apps, schema_editor):
    for model, field in (("WebhookDelivery", "last_error"), ("Webhook", "disabled_reason")):
        rows = apps.get_model("notifications", model).objects
        changed = []
        for row in rows.filter(**{f"{field}__regex": r"^(HTTP \d{3}:|[A-Za-z]+: )"}).iterator():
            new = trimmed(getattr(row, field))
            if new != getattr(row, field):
                setattr(row, field, new)
                changed.append(row)
        rows.bulk_update(changed, [field], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('notifications', '0011_translated_labels'),
    ]

    operations = [
        migrations.RunPython(trim, migrations.RunPython.noop),
    ]
