"""Request fields that take JSON's types as the schema states them.

DRF's CharField turns a number into a string (`{"body": 0}` posts the message "0") and its
BooleanField takes "yes", "on", 1 and "false" alike; the API's bodies are JSON (the one parser,
games.api.parsers), so a client that sends a number where the schema says string, or a string
where it says boolean, has a bug worth a 400 rather than a guess. `StrictFieldsMixin` gives a
ModelSerializer the same fields for its model's text and boolean columns."""

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


class StrictFieldsMixin:
    """For a ModelSerializer: its model's text and boolean columns as the strict fields."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: StrictCharField,
        models.TextField: StrictCharField,
        models.BooleanField: StrictBooleanField,
    }
