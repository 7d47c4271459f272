"""The account page's API tokens: make one (shown once), see them all, revoke one."""

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from accounts import tokens as access_tokens
from accounts.forms import AccessTokenForm


@login_required
def tokens(request):
    form = AccessTokenForm(request.POST or None)
    new_token = None
    if request.method == "POST" and form.is_valid():
        days = form.cleaned_data["expires_in_days"]
        try:
            _, new_token = access_tokens.token_create(
                user=request.user, name=form.cleaned_data["name"],
                scopes=form.cleaned_data["scopes"],
                expires_at=timezone.now() + timedelta(days=days) if days else None,
                via="account page", ip_address=request.META.get("REMOTE_ADDR"))
        except access_tokens.TokenError as error:
            form.add_error(None, str(error))
        else:
            form = AccessTokenForm()
    return render(request, "accounts/tokens.html", {
        "form": form, "new_token": new_token, "tokens": access_tokens.tokens_of(request.user),
        "now": timezone.now()})


@login_required
@require_POST
def token_revoke(request, token_id: int):
    try:
        token = access_tokens.token_revoke(user=request.user, token_id=token_id, via="account page",
                             ip_address=request.META.get("REMOTE_ADDR"))
    except access_tokens.TokenError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, gettext("The token “%(token_name)s” was revoked.")
                                      % {"token_name": token.name})
    return redirect("accounts:tokens")

