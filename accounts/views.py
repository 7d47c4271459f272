"""Player settings pages."""

from datetime import datetime, time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from accounts.forms import ProfileForm, VacationForm
from accounts.models import vacation_days_used
from accounts.services import VacationError, vacation_create, vacation_end


@login_required
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        # The page that confirms the change already speaks the newly chosen language.
        translation.activate(request.user.language
                             or translation.get_language_from_request(request))
        messages.success(request, _("Your settings were saved."))
        return redirect("accounts:profile")
    return render(request, "accounts/profile.html", {"form": form})


@login_required
def vacations(request):
    """Book and cancel vacations; dates are whole local days in the player's timezone."""
    user = request.user
    form = VacationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        zone = user.zone
        starts_at = datetime.combine(form.cleaned_data["starts_on"], time.min, zone)
        ends_at = datetime.combine(form.cleaned_data["ends_on"], time.min, zone)
        starts_at = max(starts_at, timezone.now())
        try:
            vacation_create(user=user, starts_at=starts_at, ends_at=ends_at)
        except VacationError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Enjoy your time off: your clocks pause meanwhile."))
            return redirect("accounts:vacations")
    year = timezone.localtime(timezone.now(), user.zone).year
    return render(request, "accounts/vacations.html", {
        "form": form,
        "vacations": user.vacations.filter(ends_at__gt=timezone.now()),
        "days_left": round(settings.VACATION_DAYS_PER_YEAR - vacation_days_used(user, year), 1),
        "year": year,
        "now": timezone.now(),
    })


@login_required
@require_POST
def vacation_cancel(request, vacation_id: int):
    try:
        vacation_end(user=request.user, vacation_id=vacation_id)
    except VacationError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Your vacation was ended; your clocks run again."))
    return redirect("accounts:vacations")


@require_POST
def language_choose(request):
    """The switcher on every page: Django's set_language (a cookie, for visitors), and for a
    signed-in player their saved choice too, which outranks the cookie on every later page."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        request.user.language = language
        request.user.save(update_fields=["language"])
    return response
