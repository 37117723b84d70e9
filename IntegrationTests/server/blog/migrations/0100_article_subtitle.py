# An optional attribute that an update can clear with `null` (issue 29: update(from:to:)).
# Numbered 0100 to stay clear of the migrations other changes add after 0001.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("blog", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="article",
            name="subtitle",
            field=models.CharField(blank=True, max_length=200, null=True),
        ),
    ]
