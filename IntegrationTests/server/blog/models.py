"""People write articles; articles have tags and comments."""
from django.db import models


class Person(models.Model):
    name = models.CharField(max_length=100)
    email = models.EmailField(blank=True)

    class JSONAPIMeta:
        resource_name = "people"


class Tag(models.Model):
    name = models.CharField(max_length=50, unique=True)

    class JSONAPIMeta:
        resource_name = "tags"


class Article(models.Model):
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    # Nullable, so that the integration suite can clear an optional attribute with `null`.
    subtitle = models.CharField(max_length=200, null=True, blank=True)
    word_count = models.IntegerField(default=0)
    author = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.SET_NULL, related_name="articles"
    )
    tags = models.ManyToManyField(Tag, blank=True, related_name="articles")

    class Meta:
        ordering = ["id"]

    class JSONAPIMeta:
        resource_name = "articles"


class Comment(models.Model):
    article = models.ForeignKey(Article, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(Person, null=True, on_delete=models.SET_NULL, related_name="+")
    body = models.TextField()

    class Meta:
        ordering = ["id"]

    class JSONAPIMeta:
        resource_name = "comments"


class Blog(models.Model):
    """Blogs and entries: created together in one atomic request (issue 29, graph creates)."""

    name = models.CharField(max_length=100)
    # Points back at an entry of the blog: a new blog featuring a new entry is a cycle.
    featured_entry = models.ForeignKey(
        "Entry", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["id"]

    class JSONAPIMeta:
        resource_name = "blogs"


class Entry(models.Model):
    headline = models.CharField(max_length=200)
    body_text = models.TextField(blank=True)
    blog = models.ForeignKey(Blog, on_delete=models.CASCADE, related_name="entries")
    authors = models.ManyToManyField(Person, blank=True, related_name="entries")

    class Meta:
        ordering = ["id"]

    class JSONAPIMeta:
        resource_name = "entries"
