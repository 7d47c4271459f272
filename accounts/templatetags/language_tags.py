"""Numbers as the reader writes them: Persian pages show Persian digits (۰-۹). Django localises
separators and dates, not the digits themselves, so numbers, dates and durations shown to
players pass through `digits` (links, ids in attributes and form values keep ASCII digits)."""

from django import template
from django.utils import translation
from django.utils.safestring import SafeData, mark_safe

register = template.Library()

#: Languages whose readers write numbers in their own digits.
_DIGITS = {"fa": str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")}


def localized_digits(value) -> str:
    """`value` as text, its ASCII digits in the active language's own (unchanged elsewhere)."""
    table = _DIGITS.get(translation.get_language() or "")
    text = str(value)
    if table is None:
        return text
    converted = text.translate(table)
    return mark_safe(converted) if isinstance(value, SafeData) else converted


@register.filter(is_safe=True)
def digits(value):
    return localized_digits(value)
