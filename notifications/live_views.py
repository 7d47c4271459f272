"""The "Calendar, webhooks and phone" page and the addresses it hands out: the private
calendar feed, the player's webhooks and their delivery log, phone push subscriptions.

A webhook's signing secret is shown once, on the page that answers its registration or its
"new secret" button (never cached), and never again."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from notifications.channels import calendar, push, webhooks
from notifications.models import CalendarFeed, Webhook, WebhookFormat


@require_GET
def calendar_feed(request, token: str):
    feed = CalendarFeed.objects.select_related("user").filter(token=token).first()
    if feed is None or not feed.user.is_active:
        raise Http404(gettext("There is no such calendar."))
    body = calendar.calendar_for(feed.user).to_ical()
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="turnpost-deadlines.ics"'
    response["Cache-Control"] = "private, max-age=300"
    return response


@login_required
def live_settings(request):
    return _live_page(request)


def _live_page(request, shown_secret: tuple[Webhook, str] | None = None):
    """The page; `shown_secret` (a webhook and its new secret) is shown at the top, this once."""
    from games.models import Game, GameStatus

    feed = calendar.feed_for(request.user, create=False)
    hooks = [(hook, hook.deliveries.all()[:10])
             for hook in request.user.webhooks.select_related("game")]
    response = render(request, "notifications/live.html", {
        "vapid_public_key": push.public_key(),
        "push_devices": request.user.push_subscriptions.count(),
        "calendar_url": calendar.feed_url(feed) if feed else None,
        "calendar_subscribe_url": calendar.subscribe_url(feed) if feed else None,
        "webhooks": [(hook, log) for hook, log in hooks if hook.game_id is None],
        "game_webhooks": [(hook, log) for hook, log in hooks if hook.game_id is not None],
        "webhook_kinds": webhooks.WEBHOOK_KINDS,
        "game_webhook_kinds": webhooks.GAME_WEBHOOK_KINDS.items(),
        "webhook_formats": WebhookFormat.choices,
        # The games one hosts that still have events to tell; moderators type any number.
        "hosted_games": Game.objects.filter(
            created_by=request.user, status__in=[GameStatus.OPEN, GameStatus.ACTIVE])[:100],
        "moderator": request.user.has_perm(webhooks.MODERATE_GAMES),
        "shown_secret": shown_secret,
    })
    if shown_secret:
        add_never_cache_headers(response)
    return response


@login_required
@require_POST
def calendar_create_or_revoke(request):
    if calendar.feed_for(request.user, create=False) is None:
        calendar.feed_for(request.user)
        messages.success(request, gettext(
            "Your calendar address is ready: add it to your calendar app."))
    else:
        calendar.feed_revoke(user=request.user)
        messages.success(request, gettext(
            "A new calendar address replaced the old one, which no longer "
                                  "works."))
    return redirect("notifications:live")


def _hosted_game(request):
    """The game named in the form (a game's webhook), or None (the player's own)."""
    from games import selectors
    from games.models import Game

    raw = request.POST.get("game", "")
    if raw == "":
        return None
    game = Game.objects.filter(pk=int(raw)).first() if raw.isdigit() else None
    if game is None or not (selectors.can_view(game, request.user)
                            or webhooks.can_host(request.user, game)):
        raise webhooks.WebhookRefused(gettext("There is no such game."))
    if not webhooks.can_host(request.user, game):
        raise webhooks.WebhookRefused(gettext("Only the game's creator and moderators add "
                                              "webhooks to it."))
    return game


@login_required
@require_POST
def webhook_add(request):
    try:
        webhook = webhooks.webhook_create(user=request.user, url=request.POST.get("url", ""),
                                          kinds=request.POST.getlist("kinds"),
                                          format=request.POST.get("format", WebhookFormat.JSON),
                                          game=_hosted_game(request))
    except webhooks.WebhookRefused as refused:
        messages.error(request, str(refused))
        return redirect("notifications:live")
    messages.success(request, gettext("Webhook added."))
    # Rendered, not redirected: the secret is in this answer alone, never in a stored message.
    return _live_page(request, shown_secret=(webhook, webhook.secret))


@login_required
@require_POST
def webhook_change(request, webhook_id: int):
    webhook = Webhook.objects.filter(pk=webhook_id, user=request.user).first()
    if webhook is None:
        raise Http404(gettext("There is no such webhook."))
    if request.POST.get("do") == "delete":
        webhook.delete()
        messages.success(request, gettext("Webhook deleted."))
    elif request.POST.get("do") == "enable":
        webhooks.webhook_enable(webhook=webhook)
        messages.success(request, gettext("Webhook turned back on."))
    elif request.POST.get("do") == "rotate":
        secret = webhooks.webhook_rotate_secret(webhook=webhook)
        messages.success(request, gettext("The webhook has a new secret; the old one no longer "
                                          "signs anything."))
        return _live_page(request, shown_secret=(webhook, secret))
    return redirect("notifications:live")


# ---- phone push and installing the site ------------------------------------------------------


def _json_body(request) -> dict:
    import json

    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise push.SubscriptionRefused(gettext("Send the subscription as a JSON object."))
    return body


@login_required
@require_POST
def push_subscribe(request):
    try:
        push.subscription_save(user=request.user, data=_json_body(request),
                               user_agent=request.headers.get("User-Agent", ""))
    except push.SubscriptionRefused as refused:
        return JsonResponse({"code": "invalid", "message": str(refused), "details": {}},
                            status=400)
    return JsonResponse({"devices": request.user.push_subscriptions.count()}, status=201)


@login_required
@require_POST
def push_unsubscribe(request):
    try:
        endpoint = str(_json_body(request).get("endpoint", ""))
    except push.SubscriptionRefused as refused:
        return JsonResponse({"code": "invalid", "message": str(refused), "details": {}},
                            status=400)
    push.subscription_delete(user=request.user, endpoint=endpoint)
    return JsonResponse({"devices": request.user.push_subscriptions.count()})


@require_GET
def service_worker(request):
    """The service worker, from the site's root so that its scope is the whole site."""
    from django.contrib.staticfiles import finders

    found = finders.find("js/sw.js")
    if found:
        with open(found, "rb") as source:
            body = source.read()
    else:  # production: collected by collectstatic
        from django.contrib.staticfiles.storage import staticfiles_storage

        with staticfiles_storage.open("js/sw.js") as source:
            body = source.read()
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request):
    """The web app manifest: the site installs on a phone's home screen as "Turnpost"."""
    # In the language the page that links it reads in (its description, its direction).
    language = translation.get_language() or "en"
    return JsonResponse({
        "name": "Turnpost", "short_name": "Turnpost",
        "description": gettext("Heavy board games played slowly: a turn a day."),
        "lang": language, "dir": "rtl" if translation.get_language_bidi() else "ltr",
        "start_url": "/", "scope": "/", "display": "standalone",
        "background_color": "#faf8f4", "theme_color": "#8a4b14",
        "icons": [{"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png",
                   "purpose": "any maskable"},
                  {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png",
                   "purpose": "any maskable"}],
    }, content_type="application/manifest+json")
