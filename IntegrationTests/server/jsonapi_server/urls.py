from django.urls import include, path
from rest_framework import routers

from blog import cursor, views

router = routers.DefaultRouter(trailing_slash=False)
router.register(r"articles", views.ArticleViewSet, basename="article")
router.register(r"people", views.PersonViewSet, basename="person")
router.register(r"tags", views.TagViewSet, basename="tag")
router.register(r"comments", views.CommentViewSet, basename="comment")
router.register(r"blogs", views.BlogViewSet, basename="blog")
router.register(r"entries", views.EntryViewSet, basename="entry")

urlpatterns = [
    path(
        "articles/<pk>/relationships/<related_field>",
        views.ArticleRelationshipView.as_view(),
        name="article-relationships",
    ),
    path(
        "articles/<pk>/<related_field>",
        views.ArticleViewSet.as_view({"get": "retrieve_related"}),
        name="article-related",
    ),
    path("operations", views.OperationsView.as_view()),
    path("articles-by-cursor", cursor.ArticleByCursorViewSet.as_view({"get": "list"})),
    path("test/slow", views.slow),
    path("test/big", views.big),
    path("test/crash", views.crash),
    path("test/redirect-within", views.redirect_within),
    path("test/redirect-away", views.redirect_away),
    path("test/busy", views.busy),
    path("test/echo-headers", views.echo_headers),
    path("", include(router.urls)),
]
