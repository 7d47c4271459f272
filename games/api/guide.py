"""GET /api/writing-a-client/: the client authors' guide (docs/writing-a-client.md) as a page,
linked from the schema's description and so from /api/docs/ and /api/redoc/."""

from functools import lru_cache

import markdown
from django.conf import settings
from django.shortcuts import render
from django.utils.safestring import mark_safe

GUIDE = settings.BASE_DIR / "docs" / "writing-a-client.md"


@lru_cache(maxsize=1)
def _guide_html() -> str:
    # Our own file, not user input: its HTML is trusted.
    return markdown.markdown(GUIDE.read_text(encoding="utf-8"),
                             extensions=["fenced_code", "tables"])


def writing_a_client(request):
    return render(request, "api/writing_a_client.html",
                  {"guide": mark_safe(_guide_html())})
