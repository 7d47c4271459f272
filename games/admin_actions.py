"""A Django admin action that first asks for a reason (and any other input) on an intermediate
page, then calls a moderation service for each selected object and reports the outcome."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.exceptions import GameError


class KeptRecordsMixin:
    """Records moderation keeps: nobody adds or deletes them by hand (without the delete
    permission Django also drops the bulk "delete selected" action); they change only through
    audited actions."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}),
                             help_text=_("Recorded in the audit trail and, for sanctions, told to "
                                       "the player."))


class SeatReasonForm(ReasonForm):
    seat = forms.IntegerField(min_value=0, max_value=6, help_text=_("Seat number in the game."))


class ExtendForm(SeatReasonForm):
    hours = forms.IntegerField(min_value=1, max_value=720, initial=24)


class SuspendForm(ReasonForm):
    days = forms.IntegerField(min_value=1, max_value=365, initial=7)


def moderation_action(
    *, name: str, description: str, permission: str, form_class: type[forms.Form],
    perform: Callable,
):
    """Builds the admin action. `perform(moderator, obj, cleaned_data)` does the work."""

    def action(modeladmin, request, queryset):
        form = form_class(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            done = 0
            for obj in queryset:
                try:
                    perform(request.user, obj, form.cleaned_data)
                except GameError as error:
                    modeladmin.message_user(request, f"{obj}: {error.message}", messages.ERROR)
                else:
                    done += 1
            if done:
                modeladmin.message_user(request, gettext("%(action)s: done for %(count)s.") % {
                    "action": description, "count": done},
                                        messages.SUCCESS)
            return None
        return TemplateResponse(request, "admin/moderation_action.html", {
            **modeladmin.admin_site.each_context(request),
            "title": description,
            "objects": queryset,
            "form": form,
            "action_name": name,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "opts": modeladmin.model._meta,
        })

    action.__name__ = name
    return admin.action(description=description, permissions=[permission])(action)
