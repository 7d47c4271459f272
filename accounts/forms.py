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


class AccessTokenForm(forms.Form):
    name = forms.CharField(max_length=60, help_text="What the token is for, e.g. “my bot”.")
    scopes = forms.MultipleChoiceField(
        choices=[("read", "read: your games, their logs and your account"),
                 ("play", "play: moves, joining, starting, resigning, invitations"),
                 ("chat", "chat: writing in game chats and reporting")],
        widget=forms.CheckboxSelectMultiple, initial=["read", "play"])
    expires_in_days = forms.IntegerField(
        required=False, min_value=1, max_value=366, label="Expires after (days)",
        help_text="Leave empty for a token that lasts until you revoke it.")
