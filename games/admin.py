"""Moderation in the Django admin. Game state and the action log are read-only; every change is
an admin action that goes through games.moderation (which audits it).

Staff see a game as a spectator does (the engine's public view, described moves): never the
seed, hands, deck order or pending picks. A superuser may reveal those on a separate page, one
audited request at a time."""

from __future__ import annotations

import json
from datetime import timedelta

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import services
from games.admin_actions import (
    ExtendForm,
    KeptRecordsMixin,
    ReasonForm,
    SeatReasonForm,
    moderation_action,
)
from games.engines.registry import UnknownEngine, get_engine
from games.models import Action, AuditEntry, ChatMessage, Game, Report, ReportStatus, Seat
from games.presentation.names import seat_names
from games.presentation.texts import entry_text, view_texts
from games.services import moderation

STALLED_AFTER = timedelta(days=7)


def _json(value, indent: int | None = None) -> str:
    return json.dumps(value, indent=indent, sort_keys=True, ensure_ascii=False)


class ReadOnlyAdminMixin(KeptRecordsMixin):
    """Visible, never editable by hand."""

    def has_change_permission(self, request, obj=None):
        return False


class ModerateMixin:
    def has_moderate_permission(self, request):
        return request.user.has_perm(moderation.MODERATE_GAMES)


class SeatInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "player_name", "user", "is_bot", "deadline_at", "reserve_left",
              "timeout_count")
    readonly_fields = fields


class ActionInline(ReadOnlyAdminMixin, admin.TabularInline):
    """The log as everyone reads it: a move's payload may name a secret (a pick not yet
    revealed, a card buried face down), so only its public description is shown."""

    model = Action
    extra = 0
    fields = ("sequence", "kind", "seat_number", "player", "source", "actor", "description",
              "undone_by", "created_at")
    readonly_fields = fields
    ordering = ("sequence",)

    @admin.display(description=_("player"))
    def player(self, entry):
        return seat_names(entry.game).get(entry.seat_number, "")

    @admin.display(description=_("public description"))
    def description(self, entry):
        # In English, players by name, as on the game page.
        return entry_text(entry, None, language="en", names=seat_names(entry.game))


class ChatInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = ChatMessage
    extra = 0
    fields = ("created_at", "author", "body", "hidden_at", "hidden_reason")
    readonly_fields = fields


class StalledFilter(admin.SimpleListFilter):
    title = _("stalled")
    parameter_name = "stalled"

    def lookups(self, request, model_admin):
        return [("yes", "Stalled")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            now = timezone.now()
            return queryset.filter(status="active").filter(
                Q(seats__deadline_at__lt=now) | Q(updated_at__lt=now - STALLED_AFTER)
            ).distinct()
        return queryset


class ReportedFilter(admin.SimpleListFilter):
    title = _("reported")
    parameter_name = "reported"

    def lookups(self, request, model_admin):
        return [("yes", _("With open reports"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(reports__status=ReportStatus.OPEN).distinct()
        return queryset


def _seat_action(name, description, perform):
    return moderation_action(name=name, description=description, permission="moderate",
                             form_class=SeatReasonForm, perform=perform)


@admin.register(Game)
class GameAdmin(ModerateMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("id", "engine", "status", "num_players", "version", "created_by",
                    "open_reports", "updated_at")
    list_filter = ("engine", "status", StalledFilter, ReportedFilter)
    search_fields = ("=id", "created_by__username", "seats__user__username")
    fields = ("engine", "rules_version", "status", "options", "num_players", "version",
              "time_per_move", "reserve", "max_consecutive_timeouts", "created_by",
              "created_at", "started_at", "finished_at", "result", "replay_verified",
              "public_view")
    readonly_fields = fields
    inlines = [SeatInline, ActionInline, ChatInline]
    actions = [
        moderation_action(
            name="extend_deadline", description=_("Extend a seat's deadline"),
            permission="moderate", form_class=ExtendForm,
            perform=lambda moderator, game, data: moderation.deadline_extend(
                moderator=moderator, game=game, seat_number=data["seat"], hours=data["hours"],
                reason=data["reason"]),
        ),
        _seat_action("force_timeout", _("Force a timeout now"),
                     lambda moderator, game, data: moderation.timeout_force(
                         moderator=moderator, game=game, seat_number=data["seat"],
                         reason=data["reason"])),
        _seat_action("hand_seat_to_bot", _("Hand a seat to the bot"),
                     lambda moderator, game, data: moderation.seat_to_bot(
                         moderator=moderator, game=game, seat_number=data["seat"],
                         reason=data["reason"])),
        _seat_action("return_seat_to_player", _("Give a seat back to its player"),
                     lambda moderator, game, data: moderation.seat_to_player(
                         moderator=moderator, game=game, seat_number=data["seat"],
                         reason=data["reason"])),
        moderation_action(
            name="abort_games", description=_("Abort the game"), permission="moderate",
            form_class=ReasonForm,
            perform=lambda moderator, game, data: moderation.game_abort(
                moderator=moderator, game=game, reason=data["reason"]),
        ),
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            open_report_count=Count("reports", filter=Q(reports__status=ReportStatus.OPEN))
        )

    @admin.display(description=_("open reports"), ordering="open_report_count")
    def open_reports(self, game):
        return game.open_report_count

    @admin.display(description=_("replay verified"), boolean=True)
    def replay_verified(self, game):
        return services.game_replay_verify(game=game)

    @admin.display(description=_("state (as a spectator sees it)"))
    def public_view(self, game):
        if game.state is None:
            return "-"
        try:
            view = get_engine(game.engine).view(game.state, None)
        except UnknownEngine:
            return gettext("(no engine %(engine)s installed)") % {"engine": repr(game.engine)}
        # Its texts read as the page shows them, in the moderator's language, players named.
        shown = view_texts(game.engine, view, names=seat_names(game))
        return format_html('<pre class="public-view">{}</pre>', _json(shown, indent=1))

    def get_urls(self):
        reveal = path("<path:object_id>/reveal/", self.admin_site.admin_view(self.reveal_view),
                      name="games_game_reveal")
        return [reveal, *super().get_urls()]

    def reveal_view(self, request, object_id):
        """Superusers only: asks for a reason, audits, then shows the hidden state once. The
        page is never cached (admin_view sees to that); seeing it again is another audited
        request."""
        if not request.user.is_superuser:
            raise PermissionDenied
        game = get_object_or_404(Game, pk=object_id)
        form = ReasonForm(request.POST if request.method == "POST" else None)
        hidden = None
        if request.method == "POST" and form.is_valid():
            hidden = moderation.game_hidden_state_reveal(
                moderator=request.user, game=game, reason=form.cleaned_data["reason"])
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Hidden state of %(game)s") % {"game": game.title},
            "opts": self.model._meta,
            "original": game,
            "form": form,
            "hidden": hidden,
            "state_json": _json(hidden["state"], indent=1) if hidden else "",
            "actions": [{**entry, "payload": _json(entry["payload"])}
                        for entry in hidden["actions"]] if hidden else [],
        }
        return TemplateResponse(request, "admin/games/game/reveal.html", context)


@admin.register(ChatMessage)
class ChatMessageAdmin(ModerateMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("created_at", "game", "author", "kind", "body", "hidden_at")
    list_filter = ("kind", ("hidden_at", admin.EmptyFieldListFilter))
    search_fields = ("body", "author__username")
    readonly_fields = ("game", "author", "body", "created_at", "hidden_at", "hidden_reason")
    actions = [
        moderation_action(
            name="hide_messages", description=_("Hide the message"), permission="moderate",
            form_class=ReasonForm,
            perform=lambda moderator, message, data: moderation.chat_message_hide(
                moderator=moderator, message=message, reason=data["reason"]),
        )
    ]


class OpenFirstStatusFilter(admin.SimpleListFilter):
    """The queue: open reports unless another status is chosen."""

    title = _("status")
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [*ReportStatus.choices, ("all", "All")]

    def choices(self, changelist):
        value = self.value() or ReportStatus.OPEN
        for lookup, title in self.lookup_choices:
            yield {"selected": value == lookup, "display": title,
                   "query_string": changelist.get_query_string({self.parameter_name: lookup})}

    def queryset(self, request, queryset):
        value = self.value() or ReportStatus.OPEN
        return queryset if value == "all" else queryset.filter(status=value)


@admin.register(Report)
class ReportAdmin(KeptRecordsMixin, admin.ModelAdmin):
    list_display = ("id", "created_at", "target", "reason", "reporter", "player", "game",
                    "message", "status")
    list_filter = (OpenFirstStatusFilter, "target", "reason")
    readonly_fields = ("reporter", "target", "game", "message", "player", "reason", "details",
                       "status", "handled_by", "handled_at", "created_at")
    actions = [
        moderation_action(
            name="resolve_reports", description=_("Close as resolved"), permission="handle",
            form_class=ReasonForm,
            perform=lambda moderator, report, data: moderation.report_close(
                moderator=moderator, report=report, status=ReportStatus.RESOLVED,
                reason=data["reason"]),
        ),
        moderation_action(
            name="dismiss_reports", description=_("Dismiss"), permission="handle",
            form_class=ReasonForm,
            perform=lambda moderator, report, data: moderation.report_close(
                moderator=moderator, report=report, status=ReportStatus.DISMISSED,
                reason=data["reason"]),
        ),
    ]

    def has_handle_permission(self, request):
        return request.user.has_perm(moderation.HANDLE_REPORTS)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("created_at", "actor", "action", "target_type", "target_id", "reason")
    list_filter = ("action", "target_type")
    search_fields = ("actor__username", "reason", "=target_id")
    readonly_fields = ("created_at", "actor", "action", "target_type", "target_id", "reason",
                       "before", "after")
