from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from notifications.models import Delivery, NotificationKind

HOUR_CHOICES = [(hour, f"{hour:02d}:00") for hour in range(24)]


class PreferencesForm(forms.Form):
    digest_hour = forms.TypedChoiceField(choices=HOUR_CHOICES, coerce=int,
                                         label=_("Send my daily digest at"))
    quiet_hours_start = forms.TypedChoiceField(
        choices=[("", _("No quiet hours")), *HOUR_CHOICES], coerce=int, empty_value=None,
        required=False, label=_("Quiet hours from"))
    quiet_hours_end = forms.TypedChoiceField(
        choices=[("", _("—")), *HOUR_CHOICES], coerce=int, empty_value=None, required=False,
        label=_("until"))
    reminder_percent = forms.IntegerField(min_value=1, max_value=90,
                                          label=_("Remind me when this % of the time is left"))
    reminder_hours = forms.IntegerField(min_value=0, max_value=72,
                                        label=_("…or this many hours, whichever is later"))
    turn_email_grace_minutes = forms.IntegerField(
        min_value=0, max_value=120,
        label=_("While I am playing, wait this many minutes after my last move or look before "
                "emailing a turn"),
        help_text=_("0 sends every turn email at once. Several turns due meanwhile come in "
                    "one email."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for kind in NotificationKind:
            self.fields[f"kind__{kind.value}"] = forms.ChoiceField(
                choices=Delivery.choices, label=kind.label)

    def clean(self):
        data = super().clean()
        start, end = data.get("quiet_hours_start"), data.get("quiet_hours_end")
        if (start is None) != (end is None):
            raise forms.ValidationError(gettext("Quiet hours need both a start and an end hour."))
        if start is not None and start == end:
            raise forms.ValidationError(gettext(
                "Quiet hours must start and end at different hours."))
        return data

    def kind_fields(self):
        return [self[f"kind__{kind.value}"] for kind in NotificationKind]
