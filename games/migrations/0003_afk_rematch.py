# AFK streaks, the handover link of a seat, and the rematch a finished game opened.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_action"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="rematch",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="rematch_of",
                to="games.game",
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="claim_token",
            field=models.CharField(blank=True, max_length=64, null=True, unique=True),
        ),
        migrations.AddField(
            model_name="player",
            name="missed_windows",
            field=models.PositiveSmallIntegerField(default=0),
        ),
    ]
