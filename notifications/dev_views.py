"""Developer pages, served only when DEBUG is on and only to staff: the local email outbox, which
holds every email the site sent (password-reset and sign-in links among them)."""

from __future__ import annotations

import email
from email import policy

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import render


def _messages():
    folder = settings.EMAIL_OUTBOX_DIR
    if not folder.exists():
        return []
    return sorted(folder.glob("*.eml"), reverse=True)


def _refusal(request):
    """Why this request may not see developer pages, as the answer to give, or None: off
    without DEBUG (404), the login page for a visitor, 404 for a signed-in player who is not
    staff (as if the page were not there)."""
    if not settings.DEBUG:
        raise Http404("Developer pages are off.")
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.is_staff:
        raise Http404("Developer pages are for staff.")
    return None


def outbox(request):
    if refusal := _refusal(request):
        return refusal
    entries = []
    for path in _messages()[:200]:
        with path.open("rb") as handle:
            message = email.message_from_binary_file(handle, policy=policy.default)
        entries.append({"name": path.name, "to": message["To"], "subject": message["Subject"]})
    return render(request, "notifications/dev_outbox.html", {"entries": entries})


def outbox_message(request, name: str):
    if refusal := _refusal(request):
        return refusal
    path = settings.EMAIL_OUTBOX_DIR / name
    if "/" in name or not name.endswith(".eml") or not path.is_file():
        raise Http404("No such message.")
    with path.open("rb") as handle:
        message = email.message_from_binary_file(handle, policy=policy.default)
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    return render(
        request,
        "notifications/dev_outbox_message.html",
        {
            "name": name,
            "headers": list(message.items()),
            "text": text.get_content() if text else "",
            "html": html.get_content() if html else "",
        },
    )
