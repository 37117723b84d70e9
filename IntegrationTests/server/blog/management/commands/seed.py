"""Fills an empty database with the fixed data the Swift integration suite expects."""
from django.core.management.base import BaseCommand
from django.db import transaction

from blog.models import Article, Comment, Person, Tag


class Command(BaseCommand):
    help = "Seeds 3 people, 5 tags, 25 articles and their comments."

    @transaction.atomic
    def handle(self, *args, **options):
        people = [
            Person.objects.create(id=i + 1, name=name, email=f"{name.lower()}@example.com")
            for i, name in enumerate(["Ada", "Grace", "Linus"])
        ]
        tags = [
            Tag.objects.create(id=i + 1, name=name)
            for i, name in enumerate(["swift", "python", "json", "http", "linux"])
        ]
        for number in range(1, 26):
            article = Article.objects.create(
                id=number,
                title=f"Article {number:02d}",
                body=f"Body of article {number}.",
                word_count=number * 100,
                author=people[number % 3],
            )
            article.tags.set([tags[number % 5], tags[(number + 1) % 5]])
            for index in range(number % 3):
                Comment.objects.create(
                    article=article, author=people[(number + index) % 3], body=f"Comment {index + 1}"
                )
        self.stdout.write(
            f"seeded {Person.objects.count()} people, {Tag.objects.count()} tags, "
            f"{Article.objects.count()} articles, {Comment.objects.count()} comments"
        )
