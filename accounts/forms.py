"""Player settings form."""

import zoneinfo

from django import forms

from accounts.models import User

TIMEZONE_CHOICES = [(name, name) for name in sorted(zoneinfo.available_timezones())]


class ProfileForm(forms.ModelForm):
    timezone = forms.ChoiceField(choices=TIMEZONE_CHOICES)

    class Meta:
        model = User
        fields = ("display_name", "timezone")


class VacationForm(forms.Form):
    starts_on = forms.DateField(label="From", widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label="Until (the day you are back)",
                              widget=forms.DateInput(attrs={"type": "date"}))
