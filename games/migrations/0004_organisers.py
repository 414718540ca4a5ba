# A seat's "last seen", the source of an imported replay, and API tokens kept hashed.
#
# Tokens used to be DRF's `rest_framework.authtoken` rows, the token itself in plain text. Each
# one is moved here as its SHA-256 digest (so every client keeps working with the token it has),
# and the plain-text rows are deleted. The old table is left empty, not dropped.

import hashlib
from datetime import UTC, datetime

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

OLD_TABLE = "authtoken_token"


def hash_drf_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if OLD_TABLE not in connection.introspection.table_names():
        return  # a database that never had DRF's tokens
    ApiToken = apps.get_model("games", "ApiToken")
    table, key = schema_editor.quote_name(OLD_TABLE), schema_editor.quote_name("key")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {key}, user_id, created FROM {table}")
        rows = cursor.fetchall()
        ApiToken.objects.bulk_create(
            ApiToken(
                user_id=user_id,
                digest=hashlib.sha256(key.encode()).hexdigest(),
                prefix=key[:6],
                created_at=_aware(created),
            )
            for key, user_id, created in rows
        )
        cursor.execute(f"DELETE FROM {table}")


def _aware(created):
    """SQLite hands a raw query's times back naive (they are stored in UTC)."""
    if isinstance(created, str):
        created = datetime.fromisoformat(created)
    return created.replace(tzinfo=UTC) if created.tzinfo is None else created


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_afk_rematch"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="imported_from",
            field=models.CharField(blank=True, default="", max_length=120),
        ),
        migrations.AddField(
            model_name="player",
            name="last_seen_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("digest", models.CharField(max_length=64, unique=True)),
                ("prefix", models.CharField(max_length=8)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="api_tokens",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={"verbose_name": "API token", "ordering": ["-created_at"]},
        ),
        migrations.RunPython(hash_drf_tokens, migrations.RunPython.noop),
    ]
