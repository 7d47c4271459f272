"""The engines' compiled catalogs read strictly: a msgid the catalog does not hold fails the
test instead of falling back to English."""

from __future__ import annotations

import gettext

from config.engine_catalogs import LOCALE_DIR


class StrictTranslations(gettext.GNUTranslations):
    """A compiled catalog that fails on any msgid it does not hold."""

    def pgettext(self, context, message):
        assert f"{context}\x04{message}" in self._catalog, (context, message)
        return super().pgettext(context, message)

    def npgettext(self, context, singular, plural, n):
        assert (f"{context}\x04{singular}", 0) in self._catalog, (context, singular)
        return super().npgettext(context, singular, plural, n)


def strict_translations(slug: str, language: str) -> StrictTranslations:
    return gettext.translation(slug, LOCALE_DIR, languages=[language],
                               class_=StrictTranslations)
