"""`python manage.py organisers [USERNAME ...]`: the "Organisers" group, and who is in it.

    python manage.py organisers              # create the group, or set its permissions again
    python manage.py organisers ana ben      # ... and make these users staff organisers

The group holds exactly what running games from the admin needs (`PERMISSIONS`): see the games,
their seats and public log, and act on them (expire, extend, hand a seat to a bot, end as
abandoned); read and moderate the table talk; open a player's user page. Nothing else: no
deleting, no editing users, no tokens. Secrets (roles, private events, the den and the Ghosts'
chat, replays) stay with superusers whatever a group holds (games/admin/games.py), and so does
handing a seat to a person, whose holder would read that seat's secrets. Running it again is
harmless: the group's permissions are set to exactly this list.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

GROUP = "Organisers"
PERMISSIONS = (
    ("games", "view_game"),  # the game list, a game's page, seats, public log
    ("games", "change_game"),  # its actions (every one through games.services.organiser)
    ("chat", "view_message"),  # the table talk (the table channel only, for staff)
    ("chat", "change_message"),  # hide a message, show it again
    ("auth", "view_user"),  # a player's user page, with their games
)


def organisers_group() -> Group:
    """The group, created if need be, with exactly `PERMISSIONS`."""
    wanted = [
        Permission.objects.get(content_type__app_label=app, codename=codename)
        for app, codename in PERMISSIONS
    ]
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.set(wanted)
    return group


class Command(BaseCommand):
    help = "Create the Organisers group (exactly what running games needs) and add staff to it."

    def add_arguments(self, parser):
        parser.add_argument("usernames", nargs="*", help="users to make staff organisers")

    def handle(self, *args, usernames, **options):
        users = get_user_model().objects
        with transaction.atomic():
            group = organisers_group()
            for username in usernames:
                user = users.filter(username=username).first()
                if user is None:
                    raise CommandError(f"No user has the username {username!r}.")
                user.is_staff = True
                user.save(update_fields=["is_staff"])
                user.groups.add(group)
                self.stdout.write(f"{username} is a staff organiser.")
        listed = ", ".join(f"{app}.{codename}" for app, codename in PERMISSIONS)
        self.stdout.write(f"Group {GROUP!r}: {listed}.")
