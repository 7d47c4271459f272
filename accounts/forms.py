"""Player settings form."""

import zoneinfo

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User

TIMEZONE_CHOICES = [(name, name) for name in sorted(zoneinfo.available_timezones())]


class ProfileForm(forms.ModelForm):
    timezone = forms.ChoiceField(label=_("Time zone"), choices=TIMEZONE_CHOICES)

    class Meta:
        model = User
        fields = ("display_name", "timezone", "language")
        labels = {"display_name": _("Display name"), "timezone": _("Time zone"),
                  "language": _("Language")}
        help_texts = {"language": _("Pages and emails in this language; empty: your browser's.")}


class VacationForm(forms.Form):
    starts_on = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("Until (the day you are back)"),
                              widget=forms.DateInput(attrs={"type": "date"}))


class AccessTokenForm(forms.Form):
    name = forms.CharField(max_length=60, label=_("Name"),
                           help_text=_("What the token is for, e.g. “my bot”."))
    scopes = forms.MultipleChoiceField(
        label=_("Scopes"),
        choices=[("read", _("read: your games, their logs and your account")),
                 ("play", _("play: moves, joining, starting, resigning, invitations")),
                 ("chat", _("chat: writing in game chats and reporting")),
                 ("manage", _("manage: your tokens, webhooks and account settings (give it "
                              "only to programs that need it: a token with it can make new "
                              "tokens)"))],
        widget=forms.CheckboxSelectMultiple, initial=["read", "play"])
    expires_in_days = forms.IntegerField(
        required=False, min_value=1, max_value=366, label=_("Expires after (days)"),
        help_text=_("Leave empty for a token that lasts until you revoke it."))


class OAuthAppForm(forms.Form):
    name = forms.CharField(max_length=255, label=_("Name"),
                           help_text=_("What players see when they are asked to allow it."))
    redirect_uris = forms.CharField(
        label=_("Redirect URIs"), widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Where players are sent back with the code, one a line; http://127.0.0.1 "
                    "(any port) for an app on their own machine."))
    confidential = forms.BooleanField(
        required=False, label=_("Confidential (a server that can keep a client secret)"))
