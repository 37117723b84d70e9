from rest_framework_json_api import serializers
from rest_framework_json_api.relations import ResourceRelatedField

from blog.models import Article, Comment, Person, Tag


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
