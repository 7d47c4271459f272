"""Developer pages, routed only when DEBUG is on: the local email outbox."""

from __future__ import annotations

import email
from email import policy

from django.conf import settings
from django.http import Http404
from django.shortcuts import render


def _messages():
    folder = settings.EMAIL_OUTBOX_DIR
    if not folder.exists():
        return []
    return sorted(folder.glob("*.eml"), reverse=True)


def _debug_only():
    if not settings.DEBUG:
        raise Http404("Developer pages are off.")


def outbox(request):
    _debug_only()
    entries = []
    for path in _messages()[:200]:
        with path.open("rb") as handle:
            message = email.message_from_binary_file(handle, policy=policy.default)
        entries.append({"name": path.name, "to": message["To"], "subject": message["Subject"]})
    return render(request, "notifications/dev_outbox.html", {"entries": entries})


def outbox_message(request, name: str):
    _debug_only()
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
