"""Read-only admin pages of the mail system: the outbox, and every email received for play by
email with its answers (superusers only: they hold players' addresses and raw mail)."""

# So a player's "my reply did nothing" can be looked up; moderators get no permission.

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.admin import ReadOnlyAdminMixin
from notifications.models import EmailReply, InboundMessage, Notification


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("created_at", "user", "kind", "game", "email_status", "sent_at", "attempts")
    list_filter = ("kind", "email_status")
    search_fields = ("user__username", "user__email")
    list_select_related = ("user", "game")
    readonly_fields = ("user", "kind", "game", "seat_number", "context", "email_status",
                       "send_after", "sent_at", "attempts", "last_error", "read_at", "created_at")


class EmailReplyInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = EmailReply
    fields = ("created_at", "to", "subject", "email_status", "sent_at", "text")
    readonly_fields = fields
    extra = 0


@admin.register(InboundMessage)
class InboundMessageAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("received_at", "sender", "channel", "game", "status", "reason", "duplicates")
    list_filter = ("status", "reason", "channel")
    search_fields = ("sender", "message_id", "subject")
    list_select_related = ("game",)
    readonly_fields = ("message_id", "channel", "received_at", "sender", "subject", "text",
                       "user", "game", "token_version", "status", "reason", "detail",
                       "action_sequence", "duplicates", "raw_message")
    exclude = ("raw",)
    inlines = [EmailReplyInline]

    @admin.display(description=_("raw message"))
    def raw_message(self, message: InboundMessage) -> str:
        return bytes(message.raw).decode("utf-8", "replace")
