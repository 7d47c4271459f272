"""Shows times in the signed-in player's own timezone, and pages in their own language."""

import zoneinfo

from django.utils import timezone, translation


class PlayerTimezoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.timezone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        else:
            timezone.deactivate()
        return self.get_response(request)


class PlayerLanguageMiddleware:
    """A signed-in player's chosen language wins over the cookie and Accept-Language that
    LocaleMiddleware read; with no choice made, what LocaleMiddleware picked stands."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        language = getattr(user, "language", "") if user is not None else ""
        if language and user.is_authenticated:
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)
