"""Request fields that take JSON's types as the schema states them.

DRF's CharField turns a number into a string (`{"body": 0}` posts the message "0") and its
BooleanField takes "yes", "on", 1 and "false" alike; the API's bodies are JSON (the one parser,
games.api.parsers), so a client that sends a number where the schema says string, or a string
where it says boolean, has a bug worth a 400 rather than a guess (numbers alike: `"5"` is not
5). `StrictFieldsMixin` gives a ModelSerializer the same fields for its model's columns."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy
from rest_framework import serializers


class StrictCharField(serializers.CharField):
    """A string, and only a string."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """JSON's true or false (or null where the field allows it), never a word or a number."""

    default_error_messages = {"invalid": gettext_lazy("Must be true or false.")}

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


def _is_number(data) -> bool:
    return isinstance(data, (int, float)) and not isinstance(data, bool)


class StrictIntegerField(serializers.IntegerField):
    """A JSON number with no fraction (`5` or `5.0`, as JSON Schema counts integers), never a
    string of digits or a boolean."""

    def to_internal_value(self, data):
        if not _is_number(data) or (isinstance(data, float) and not data.is_integer()):
            self.fail("invalid")
        return super().to_internal_value(int(data))


class StrictFloatField(serializers.FloatField):
    """A JSON number, never a string of digits or a boolean."""

    def to_internal_value(self, data):
        if not _is_number(data):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictFieldsMixin:
    """For a ModelSerializer: its model's text, boolean and number columns as the strict
    fields."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: StrictCharField,
        models.TextField: StrictCharField,
        models.BooleanField: StrictBooleanField,
        models.IntegerField: StrictIntegerField,
        models.PositiveIntegerField: StrictIntegerField,
        models.PositiveSmallIntegerField: StrictIntegerField,
        models.SmallIntegerField: StrictIntegerField,
        models.BigIntegerField: StrictIntegerField,
        models.FloatField: StrictFloatField,
    }
