"""The API's pages: `?page=N&page_size=M`, each list answer `{count, next, previous, results}`
with RFC 8288 `Link` headers (first, prev, next, last), and a page past the end is an empty
page (as GitHub answers it), not a 404."""

from __future__ import annotations

from django.utils.translation import gettext
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.utils.urls import remove_query_param, replace_query_param


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        raw = request.query_params.get(self.page_query_param, "1")
        if not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= 10**9):
            raise ValidationError({self.page_query_param: gettext(
                "Must be a page number (1 or more).")})
        page_size = self.get_page_size(request)
        paginator = self.django_paginator_class(queryset, page_size)
        self.past_the_end = int(raw) > paginator.num_pages  # num_pages is 1 for no items
        self.page = paginator.page(min(int(raw), paginator.num_pages))
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
