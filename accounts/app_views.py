"""The settings pages' OAuth apps (accounts.oauth): register one, delete one, and take back the
access of an app the player allowed."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts import oauth
from accounts.forms import OAuthAppForm
from accounts.tokens import TokenError


@login_required
def apps(request):
    form = OAuthAppForm(request.POST or None)
    new_secret = None
    if request.method == "POST" and form.is_valid():
        try:
            _, new_secret = oauth.application_register(
                user=request.user, name=form.cleaned_data["name"],
                redirect_uris=form.cleaned_data["redirect_uris"],
                confidential=form.cleaned_data["confidential"])
        except TokenError as error:
            form.add_error(None, str(error))
        else:
            form = OAuthAppForm()
    return render(request, "accounts/apps.html", {
        "form": form, "new_secret": new_secret, "apps": oauth.applications_of(request.user),
        "authorized": oauth.authorized_applications_of(request.user)})


@login_required
@require_POST
def app_delete(request, app_id: int):
    try:
        oauth.application_delete(user=request.user, application_id=app_id)
    except TokenError as error:
        messages.error(request, str(error))
    return redirect("accounts:apps")


@login_required
@require_POST
def app_disallow(request, app_id: int):
    oauth.authorization_revoke(user=request.user, application_id=app_id)
    return redirect("accounts:apps")
