# An optional attribute that an update can clear with `null` (issue 29: update(from:to:)).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("blog", "0002_blog_entry"),
    ]

    operations = [
        migrations.AddField(
            model_name="article",
            name="subtitle",
            field=models.CharField(blank=True, max_length=200, null=True),
        ),
    ]
