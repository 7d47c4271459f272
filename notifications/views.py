"""In-app notification list, email preferences, and one-click unsubscribe."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt

from notifications import policy, services
from notifications.forms import PreferencesForm
from notifications.models import NotificationKind


@login_required
def notification_list(request):
    if request.method == "POST":
        services.mark_read(user=request.user)
        return redirect("notifications:list")
    rows = request.user.notifications.select_related("game")[:100]
    return render(request, "notifications/list.html", {"notifications": rows})


@login_required
def preferences(request):
    user = request.user
    initial = {
        "digest_hour": user.digest_hour,
        "quiet_hours_start": user.quiet_hours_start,
        "quiet_hours_end": user.quiet_hours_end,
        "reminder_percent": user.reminder_percent,
        "reminder_hours": user.reminder_hours,
        "turn_email_grace_minutes": user.turn_email_grace_minutes,
        **{f"kind__{kind.value}": policy.delivery_for(user, kind.value)
           for kind in NotificationKind},
    }
    form = PreferencesForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        for field in ("digest_hour", "quiet_hours_start", "quiet_hours_end",
                      "reminder_percent", "reminder_hours", "turn_email_grace_minutes"):
            setattr(user, field, data[field])
        user.save()
        for kind in NotificationKind:
            policy.preference_set(user=user, kind=kind.value,
                                    delivery=data[f"kind__{kind.value}"])
        messages.success(request, gettext("Your notification settings were saved."))
        return redirect("notifications:preferences")
    return render(request, "notifications/preferences.html", {"form": form})


@csrf_exempt
def unsubscribe(request, token: str):
    """GET shows a confirmation button (mail scanners follow links; they must not unsubscribe);
    POST, from that button or a mail client's one-click (RFC 8058), turns the kind off. No login:
    the signed token names the player and the kind."""
    try:
        signing.loads(token, salt=policy.UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return render(request, "notifications/unsubscribe.html", {"invalid": True}, status=400)
    if request.method == "POST":
        _user, kind = policy.unsubscribe(token)
        if request.POST.get("List-Unsubscribe") == "One-Click":
            return HttpResponse("Unsubscribed.", content_type="text/plain")
        return render(request, "notifications/unsubscribe.html",
                      {"done": True, "kind_label": NotificationKind(kind).label})
    _, kind = signing.loads(token, salt=policy.UNSUBSCRIBE_SALT)
    return render(request, "notifications/unsubscribe.html",
                  {"kind_label": NotificationKind(kind).label})
