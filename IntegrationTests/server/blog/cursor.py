"""The Cursor Pagination profile (https://jsonapi.org/profiles/ethanresnick/cursor-pagination/)
on /articles-by-cursor, for the Swift integration suite (issue 30).

djangorestframework-jsonapi has page-number and limit/offset pagination only, so this is a small
DRF pagination class of our own that follows the profile:

- `page[size]` is `^[0-9]+$` and at least 1 (else the Invalid Parameter Value error, 400 with
  `source.parameter`), at most MAX_SIZE (else the Max Page Size Exceeded error with
  `meta.page.maxSize` and its `type` link); DEFAULT_SIZE when omitted.
- `page[after]` / `page[before]` take opaque cursors (an invalid one is an Invalid Parameter Value
  error); both together are a range request, whose used size defaults to MAX_SIZE and which sets
  `meta.page.rangeTruncated` when more items fall in the range.
- The order is the primary key's, unique as the profile requires; any other `sort` is refused with
  the Unsupported Sort error.
- `prev` and `next` are always present. Without `page[before]` the server knows whether a next
  page exists (null if not), without `page[after]` whether a previous one does; otherwise the link
  is given without looking, and may lead to an empty page, as the profile allows.
- `first` and `last` links (`last` is `page[before]` with a cursor past the end), `meta.page.total`,
  and each item's cursor in its `meta.page.cursor` (a serializer meta field, so a sparse fieldset
  `fields[articles]` leaves it out, which the profile allows: item cursors are optional).
- Links keep every other parameter of the request as it was sent, in its order.
- The answers' media type names the profile (JSON:API 1.1: `profile` when a profile is applied).
"""
import base64
import binascii
import json
import re
from urllib.parse import quote, unquote_plus

from django.http import HttpResponse
from rest_framework import serializers as drf_serializers
from rest_framework.pagination import BasePagination
from rest_framework.response import Response
from rest_framework_json_api.django_filters import DjangoFilterBackend
from rest_framework_json_api.filters import QueryParameterValidationFilter
from rest_framework_json_api.views import ReadOnlyModelViewSet

from blog.models import Article
from blog.serializers import ArticleSerializer

PROFILE = "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/"
MEDIA_TYPE = f'application/vnd.api+json; profile="{PROFILE}"'
DEFAULT_SIZE = 5
MAX_SIZE = 20
END = "end"


def encode_cursor(position):
    """An opaque cursor: `id:<pk>` falls on that article, `end` after every article."""
    text = END if position == END else f"id:{position}"
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_cursor(cursor, parameter):
    """The primary key a cursor falls on, or END."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        text = ""
    if text == END:
        return END
    match = re.fullmatch(r"id:([0-9]{1,18})", text)
    if not match:
        raise ProfileError.invalid(parameter, f"{parameter} is not a cursor of this collection.")
    return int(match.group(1))


class ProfileError(Exception):
    """One of the profile's error objects, answered with 400."""

    def __init__(self, error):
        super().__init__(error.get("detail", ""))
        self.error = error

    @classmethod
    def invalid(cls, parameter, detail):
        return cls({"status": "400", "title": "Invalid Parameter.", "detail": detail,
                    "source": {"parameter": parameter}})

    @classmethod
    def max_size_exceeded(cls, size):
        return cls({"status": "400", "title": "Page size requested is too large.",
                    "detail": f"You requested a size of {size}, but {MAX_SIZE} is the maximum.",
                    "source": {"parameter": "page[size]"},
                    "meta": {"page": {"maxSize": MAX_SIZE}},
                    "links": {"type": PROFILE + "max-size-exceeded"}})

    @classmethod
    def unsupported_sort(cls, sort):
        return cls({"status": "400", "title": "Unsupported sort.",
                    "detail": f"This collection pages in id order only, not by {sort}.",
                    "source": {"parameter": "sort"},
                    "links": {"type": PROFILE + "unsupported-sort"}})

    def response(self):
        return HttpResponse(json.dumps({"errors": [self.error]}), status=400,
                            content_type=MEDIA_TYPE)


class ProfileCursorPagination(BasePagination):
    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        params = request.query_params
        sort = params.get("sort")
        if sort is not None and sort != "id":
            raise ProfileError.unsupported_sort(sort)
        self.size = self.parse_size(params.get("page[size]"))
        self.after = self.cursor(params, "page[after]")
        self.before = self.cursor(params, "page[before]")
        self.total = queryset.count()
        queryset = queryset.order_by("pk")
        window = queryset
        if self.after is not None:
            window = window.none() if self.after == END else window.filter(pk__gt=self.after)
        if self.before is not None and self.before != END:
            window = window.filter(pk__lt=self.before)
        self.truncated = False
        # What the server knows for certain: whether items lie past each end of the page.
        self.more_after = self.more_before = None
        if self.after is not None and self.before is not None:
            used = self.size or MAX_SIZE
            rows = list(window[: used + 1])
            self.truncated = len(rows) > used
            rows = rows[:used]
        elif self.before is not None:
            used = self.size or DEFAULT_SIZE
            rows = list(window.order_by("-pk")[: used + 1])
            self.more_before = len(rows) > used
            rows = list(reversed(rows[:used]))
        else:
            used = self.size or DEFAULT_SIZE
            rows = list(window[: used + 1])
            self.more_after = len(rows) > used
            rows = rows[:used]
            if self.after is None:
                self.more_before = False
        self.rows = rows
        return rows

    def parse_size(self, text):
        if text is None:
            return None
        if not re.fullmatch(r"[0-9]+", text):
            raise ProfileError.invalid("page[size]", "page[size] must be a positive integer.")
        size = int(text)
        if size < 1:
            raise ProfileError.invalid("page[size]", "page[size] must be a positive integer.")
        if size > MAX_SIZE:
            raise ProfileError.max_size_exceeded(size)
        return size

    def cursor(self, params, name):
        value = params.get(name)
        return None if value is None else decode_cursor(value, name)

    def link(self, **page):
        """The request's URL with its `page[...]` parameters replaced by `page`; every other
        parameter stays as it was sent, in its order."""
        raw = self.request.META.get("QUERY_STRING", "")
        kept = [part for part in raw.split("&")
                if part and not unquote_plus(part.split("=", 1)[0]).startswith("page[")]
        size = self.request.query_params.get("page[size]")
        members = dict(page)
        if size is not None:
            members["size"] = size
        for member in sorted(members):
            kept.append(f"page%5B{member}%5D={quote(members[member], safe='')}")
        url = self.request.build_absolute_uri(self.request.path)
        return url + ("?" + "&".join(kept) if kept else "")

    def get_paginated_response(self, data):
        rows = self.rows
        if self.before is None:
            following = rows and self.more_after
            next_link = self.link(after=encode_cursor(rows[-1].pk)) if following else None
        elif rows:
            next_link = self.link(after=encode_cursor(rows[-1].pk))
        elif self.after is not None:
            next_link = self.link(after=encode_cursor(self.after))
        else:
            # Nothing before the cursor: whatever follows starts at the first item.
            next_link = self.link()
        if self.after is None:
            preceding = rows and self.more_before
            prev_link = self.link(before=encode_cursor(rows[0].pk)) if preceding else None
        elif rows:
            prev_link = self.link(before=encode_cursor(rows[0].pk))
        elif self.before is not None:
            prev_link = self.link(before=encode_cursor(self.before))
        else:
            prev_link = self.link(before=encode_cursor(END))
        page = {"total": self.total}
        if self.truncated:
            page["rangeTruncated"] = True
        return Response(
            {
                "results": data,
                "meta": {"page": page},
                "links": {
                    "first": self.link(),
                    "last": self.link(before=encode_cursor(END)),
                    "prev": prev_link,
                    "next": next_link,
                },
            },
            content_type=MEDIA_TYPE,
        )


class CursorArticleSerializer(ArticleSerializer):
    """Articles with the profile's item cursor in each resource's `meta.page.cursor`."""

    page = drf_serializers.SerializerMethodField()

    class Meta(ArticleSerializer.Meta):
        meta_fields = ["page"]

    def get_page(self, article):
        return {"cursor": encode_cursor(article.pk)}


class ArticleByCursorViewSet(ReadOnlyModelViewSet):
    queryset = Article.objects.all()
    serializer_class = CursorArticleSerializer
    pagination_class = ProfileCursorPagination
    # No OrderingFilter: the pagination class reads `sort` itself (id order only).
    filter_backends = (QueryParameterValidationFilter, DjangoFilterBackend)
    filterset_fields = {"word_count": ("exact", "gte", "lte")}

    def list(self, request, *args, **kwargs):
        try:
            return super().list(request, *args, **kwargs)
        except ProfileError as error:
            return error.response()
