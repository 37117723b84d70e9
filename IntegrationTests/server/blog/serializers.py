from rest_framework_json_api import serializers
from rest_framework_json_api.relations import ResourceRelatedField

from blog.models import Article, Blog, Comment, Entry, Person, Tag


class PersonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Person
        fields = ["id", "name", "email", "url"]


class TagSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tag
        fields = ["id", "name", "url"]


class CommentSerializer(serializers.ModelSerializer):
    included_serializers = {"author": PersonSerializer}

    author = ResourceRelatedField(queryset=Person.objects, required=False, allow_null=True)
    article = ResourceRelatedField(queryset=Article.objects)

    class Meta:
        model = Comment
        fields = ["id", "body", "article", "author", "url"]


class ArticleSerializer(serializers.ModelSerializer):
    included_serializers = {
        "author": PersonSerializer,
        "tags": TagSerializer,
        "comments": CommentSerializer,
    }

    author = ResourceRelatedField(
        queryset=Person.objects,
        required=False,
        allow_null=True,
        related_link_view_name="article-related",
        self_link_view_name="article-relationships",
    )
    tags = ResourceRelatedField(
        queryset=Tag.objects,
        many=True,
        required=False,
        related_link_view_name="article-related",
        self_link_view_name="article-relationships",
    )
    comments = ResourceRelatedField(
        many=True,
        read_only=True,
        related_link_view_name="article-related",
        self_link_view_name="article-relationships",
    )

    class Meta:
        model = Article
        fields = [
            "id", "title", "subtitle", "body", "word_count", "author", "tags", "comments", "url"
        ]

    def validate_title(self, value):
        if value.strip() == "":
            raise serializers.ValidationError("A title cannot be blank.")
        if value.lower().startswith("spam"):
            raise serializers.ValidationError("Titles may not start with 'spam'.")
        return value

    def validate_word_count(self, value):
        if value < 0:
            raise serializers.ValidationError("The word count cannot be negative.")
        return value


class BlogSerializer(serializers.ModelSerializer):
    featured_entry = ResourceRelatedField(
        queryset=Entry.objects, required=False, allow_null=True
    )

    class Meta:
        model = Blog
        fields = ["id", "name", "featured_entry", "url"]


class EntrySerializer(serializers.ModelSerializer):
    included_serializers = {"blog": BlogSerializer, "authors": PersonSerializer}

    blog = ResourceRelatedField(queryset=Blog.objects)
    authors = ResourceRelatedField(queryset=Person.objects, many=True, required=False)

    class Meta:
        model = Entry
        fields = ["id", "headline", "body_text", "blog", "authors", "url"]
