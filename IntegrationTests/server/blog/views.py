import time

from django.http import HttpResponse, HttpResponseRedirect
from rest_framework.response import Response
from rest_framework_json_api.views import ModelViewSet, RelationshipView
from atomic_operations.views import AtomicOperationView

from blog.models import Article, Blog, Comment, Entry, Person, Tag
from blog.serializers import (
    ArticleSerializer,
    BlogSerializer,
    CommentSerializer,
    EntrySerializer,
    PersonSerializer,
    TagSerializer,
)


class ArticleViewSet(ModelViewSet):
    queryset = Article.objects.all()
    serializer_class = ArticleSerializer
    ordering_fields = ["id", "title", "word_count"]
    filterset_fields = {
        "title": ("exact", "icontains"),
        "word_count": ("exact", "gte", "lte"),
        "author": ("exact",),
        "tags__name": ("exact",),
    }
    select_for_includes = {"author": ["author"]}
    prefetch_for_includes = {"tags": ["tags"], "comments": ["comments"]}


class PersonViewSet(ModelViewSet):
    queryset = Person.objects.order_by("id")
    serializer_class = PersonSerializer
    ordering_fields = ["id", "name"]
    filterset_fields = {"name": ("exact", "icontains")}


class TagViewSet(ModelViewSet):
    queryset = Tag.objects.order_by("id")
    serializer_class = TagSerializer
    ordering_fields = ["id", "name"]
    filterset_fields = {"name": ("exact",)}


class CommentViewSet(ModelViewSet):
    queryset = Comment.objects.all()
    serializer_class = CommentSerializer
    ordering_fields = ["id"]
    filterset_fields = {"article": ("exact",)}


class BlogViewSet(ModelViewSet):
    queryset = Blog.objects.all()
    serializer_class = BlogSerializer
    filterset_fields = {"name": ("exact",)}


class EntryViewSet(ModelViewSet):
    queryset = Entry.objects.all()
    serializer_class = EntrySerializer
    filterset_fields = {"headline": ("exact",), "blog": ("exact",)}
    select_for_includes = {"blog": ["blog"]}
    prefetch_for_includes = {"authors": ["authors"]}


class ArticleRelationshipView(RelationshipView):
    queryset = Article.objects.all()

    def patch(self, request, *args, **kwargs):
        # Departures of djangorestframework-jsonapi 8.1.0 from the spec (R83) on to-one
        # relationship endpoints: it answers `{"data": null}` with 400 "This field may not be
        # null", and an identifier with 400 "Incorrect model type" while the relationship is
        # empty. Handle to-one replacement here: null clears, an identifier sets; 204 (R85).
        parent = self.get_object()
        name = self.get_related_field_name()
        field = parent._meta.get_field(name)
        if field.many_to_one or field.one_to_one:
            data = request.data
            if data is None:
                related = None
            elif isinstance(data, dict) and "type" in data and "id" in data:
                model = field.related_model
                if data["type"] != model.JSONAPIMeta.resource_name:
                    return Response(
                        {"detail": f"Expected type {model.JSONAPIMeta.resource_name}."},
                        status=409,
                    )
                related = model.objects.filter(pk=data["id"]).first()
                if related is None:
                    return Response({"detail": "No such resource."}, status=404)
            else:
                return super().patch(request, *args, **kwargs)
            setattr(parent, name, related)
            parent.save()
            return Response(status=204)
        return super().patch(request, *args, **kwargs)


class OperationsView(AtomicOperationView):
    """The Atomic Operations endpoint (https://jsonapi.org/ext/atomic)."""

    serializer_classes = {
        f"{operation}:{resource_type}": serializer
        for operation in ("add", "update", "remove")
        for resource_type, serializer in (
            ("articles", ArticleSerializer),
            ("people", PersonSerializer),
            ("tags", TagSerializer),
            ("comments", CommentSerializer),
            ("blogs", BlogSerializer),
            ("entries", EntrySerializer),
        )
    }


# Endpoints for what a JSON:API app does not do on purpose, but servers and proxies do.


def slow(request):
    """Answers after a few seconds: for cancelling a request in flight."""
    time.sleep(float(request.GET.get("seconds", "5")))
    return HttpResponse('{"meta":{"slow":true}}', content_type="application/vnd.api+json")


def big(request):
    """A valid document of about `kib` KiB: for the response size limit."""
    kib = int(request.GET.get("kib", "1024"))
    padding = "x" * (kib * 1024)
    return HttpResponse(
        '{"meta":{"padding":"%s"}}' % padding, content_type="application/vnd.api+json"
    )


def crash(request):
    """An unhandled exception: Django answers with its plain HTML 500 page."""
    raise RuntimeError("integration test crash")


def redirect_within(request):
    """A redirect to a resource of the same origin."""
    return HttpResponseRedirect("/articles/1")


def redirect_away(request):
    """A redirect to another origin (localhost instead of 127.0.0.1)."""
    port = request.get_port()
    return HttpResponseRedirect(f"http://localhost:{port}/articles/1")


def busy(request):
    """429 with Retry-After, as a rate limiter answers."""
    response = HttpResponse(
        '{"errors":[{"status":"429","title":"Too Many Requests"}]}',
        status=429,
        content_type="application/vnd.api+json",
    )
    response["Retry-After"] = "7"
    return response


def echo_headers(request):
    """The request's Authorization and Accept headers, as meta: for the request hook."""
    import json

    meta = {
        "authorization": request.headers.get("Authorization"),
        "accept": request.headers.get("Accept"),
        "content-type": request.headers.get("Content-Type"),
    }
    return HttpResponse(json.dumps({"meta": meta}), content_type="application/vnd.api+json")
