"""Players in the admin: moderators warn, suspend and ban through audited actions. Staff sign in
through the site's login page, whose failed-login limits then hold for the admin too."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.decorators import login_required
from django.utils.translation import gettext_lazy as _

from accounts.models import Sanction, TokenEvent, User, Vacation
from games.admin_actions import KeptRecordsMixin, ReasonForm, SuspendForm, moderation_action
from games.services import moderation

# The admin's own login form would sidestep the failed-login limits of the site's login page:
# staff sign in there (allauth) and come back.
admin.site.login = login_required(admin.site.login)


class SanctionInline(admin.TabularInline):
    model = Sanction
    fk_name = "user"
    extra = 0
    fields = ("kind", "reason", "ends_at", "lifted_at", "created_by", "created_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class VacationInline(admin.TabularInline):
    model = Vacation
    extra = 0
    fields = ("starts_at", "ends_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(User)
class PlayerAdmin(UserAdmin):
    fieldsets = (
        *UserAdmin.fieldsets,
        (_("Player"), {"fields": ("display_name", "timezone", "reminder_percent", "reminder_hours",
                               "digest_hour", "quiet_hours_start", "quiet_hours_end",
                               "turn_email_grace_minutes")}),
    )
    list_display = ("username", "email", "display_name", "timezone", "is_staff", "date_joined")
    inlines = [SanctionInline, VacationInline]
    actions = [
        moderation_action(
            name="warn_players", description=_("Warn"), permission="sanction",
            form_class=ReasonForm,
            perform=lambda moderator, user, data: moderation.user_warn(
                moderator=moderator, user=user, reason=data["reason"]),
        ),
        moderation_action(
            name="suspend_players", description=_("Suspend for some days"), permission="sanction",
            form_class=SuspendForm,
            perform=lambda moderator, user, data: moderation.user_suspend(
                moderator=moderator, user=user, days=data["days"], reason=data["reason"]),
        ),
        moderation_action(
            name="ban_players", description=_("Ban"), permission="sanction",
            form_class=ReasonForm,
            perform=lambda moderator, user, data: moderation.user_ban(
                moderator=moderator, user=user, reason=data["reason"]),
        ),
    ]

    def has_sanction_permission(self, request):
        return request.user.has_perm(moderation.SANCTION_USERS)


@admin.register(Sanction)
class SanctionAdmin(KeptRecordsMixin, admin.ModelAdmin):
    list_display = ("created_at", "user", "kind", "ends_at", "lifted_at", "created_by")
    list_filter = ("kind",)
    readonly_fields = ("user", "kind", "reason", "ends_at", "lifted_at", "created_by",
                       "created_at")
    actions = [
        moderation_action(
            name="lift_sanctions", description=_("Lift"), permission="sanction",
            form_class=ReasonForm,
            perform=lambda moderator, sanction, data: moderation.sanction_lift(
                moderator=moderator, sanction=sanction, reason=data["reason"]),
        )
    ]

    def has_sanction_permission(self, request):
        return request.user.has_perm(moderation.SANCTION_USERS)


@admin.register(TokenEvent)
class TokenEventAdmin(admin.ModelAdmin):
    """The audit of API tokens: every creation and revocation, read-only."""

    list_display = ("at", "kind", "token", "via", "ip_address")
    list_filter = ("kind", "via")
    search_fields = ("token__user__username", "token__name", "token__prefix")
    readonly_fields = ("token", "kind", "via", "ip_address", "at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
