"""The API's pages: `?page=N&page_size=M`, each list answer `{count, next, previous, results}`
with RFC 8288 `Link` headers (first, prev, next, last), and a page past the end is an empty
page (as GitHub answers it), not a 404. A page or a page size that is not a whole number from 1
is refused with 400, as the schema says (DRF would quietly serve its default size instead)."""

from __future__ import annotations

from django.utils.translation import gettext
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.utils.urls import remove_query_param, replace_query_param

#: The highest page number asked for that is still read as one (a page past the end is empty).
MAX_PAGE_NUMBER = 10**9


def _whole_number(raw: str, *, at_most: int) -> int | None:
    """`raw` as a number from 1 to `at_most`, or None."""
    if raw.isascii() and raw.isdigit() and len(raw) <= len(str(at_most)):
        number = int(raw)
        if 1 <= number <= at_most:
            return number
    return None


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        # Any number of digits is a size; above the largest, the largest is served.
        size = _whole_number(raw, at_most=10**12)
        if size is None:
            raise ValidationError({self.page_size_query_param: gettext(
                "Must be a page size (1 or more; at most %(max_page_size)s are served).")
                % {"max_page_size": self.max_page_size}})
        return min(size, self.max_page_size)

    def get_schema_operation_parameters(self, view):
        return [
            {"name": self.page_query_param, "in": "query", "required": False,
             "description": "A page number (1 is the first; a page past the end is empty).",
             "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_NUMBER}},
            {"name": self.page_size_query_param, "in": "query", "required": False,
             "description": f"Items per page: {self.page_size} unless asked, at most "
                            f"{self.max_page_size} (a larger size is served as "
                            f"{self.max_page_size}).",
             "schema": {"type": "integer", "minimum": 1, "maximum": 10**12}},
        ]

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        number = _whole_number(request.query_params.get(self.page_query_param, "1"),
                               at_most=MAX_PAGE_NUMBER)
        if number is None:
            raise ValidationError({self.page_query_param: gettext(
                "Must be a page number (1 or more).")})
        page_size = self.get_page_size(request)
        paginator = self.django_paginator_class(queryset, page_size)
        self.past_the_end = number > paginator.num_pages  # num_pages is 1 for no items
        self.page = paginator.page(min(number, paginator.num_pages))
        return [] if self.past_the_end else list(self.page)

    def get_next_link(self):
        if self.past_the_end or not self.page.has_next():
            return None
        return self._page_link(self.page.next_page_number())

    def get_previous_link(self):
        if self.past_the_end:
            return self._page_link(self.page.paginator.num_pages)
        if not self.page.has_previous():
            return None
        return self._page_link(self.page.previous_page_number())

    def _page_link(self, number: int) -> str:
        url = self.request.build_absolute_uri()
        if number == 1:
            return remove_query_param(url, self.page_query_param)
        return replace_query_param(url, self.page_query_param, number)

    def get_paginated_response(self, data):
        response = super().get_paginated_response(data)
        links = {"first": self._page_link(1),
                 "prev": self.get_previous_link(),
                 "next": self.get_next_link(),
                 "last": self._page_link(self.page.paginator.num_pages)}
        response["Link"] = ", ".join(f'<{url}>; rel="{rel}"' for rel, url in links.items() if url)
        return response
