"""Your games and how you play, in the REST API v1: `GET /api/v1/me/games/` (the finished games
that count, newest first, a page at a time) and `GET /api/v1/me/stats/` (the figures), the same
reads as the page `/me/games`; and a finished game's story, `GET /api/v1/games/{code}/story/`
(the replay page's, as data), with the host's `PATCH` of its `public` flag. Errors are the
project's `{"code", "detail"}`."""

from __future__ import annotations

from django.db import transaction
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import paging
from games.api.events import EventOut
from games.api.respond import valid
from games.api.serializers import ROLE_CHOICES, TIE_KINDS, TOKEN_CHOICES
from games.domain.errors import GameError
from games.engine.vocabulary import LastWillId, RelicId
from games.history import selectors, sharing
from games.history.story import KINDS
from games.presenters import story as story_words
from staked.rest import BadRequestOut, ErrorOut

PAGE_DEFAULT, PAGE_MAX = 20, 100


class LeftOutOut(serializers.Serializer):
    abandoned = serializers.IntegerField(
        help_text="games you sat at that an organiser stopped before the end: not counted"
    )
    practice = serializers.IntegerField(help_text="finished practice games: not counted")


class PlayerOut(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    is_bot = serializers.BooleanField()


class MyGameOut(serializers.Serializer):
    code = serializers.CharField()
    finished_at = serializers.DateTimeField(help_text="when the game's last move was made")
    rounds = serializers.IntegerField(help_text="how many rounds it lasted")
    seat = serializers.IntegerField(help_text="your seat")
    name = serializers.CharField(help_text="your name at that table")
    role = serializers.ChoiceField(choices=ROLE_CHOICES, help_text="your role, as dealt")
    team = serializers.ChoiceField(
        choices=["hunters", "vampires"],
        help_text="your team at the end (a Mesmerized Hunter plays for the Vampires, R8.3)",
    )
    mesmerized = serializers.BooleanField()
    won = serializers.BooleanField()
    winner = serializers.ChoiceField(choices=["hunters", "vampires"])
    players = PlayerOut(many=True, help_text="everyone at the table, you included, by seat")
    replay_url = serializers.URLField(help_text="the game's public replay page")


class MyGamesOut(serializers.Serializer):
    games = MyGameOut(many=True)
    count = serializers.IntegerField(help_text="how many games count, on every page")
    next = serializers.URLField(allow_null=True, help_text="the next page, or null on the last")
    left_out = LeftOutOut()


class PageIn(serializers.Serializer):
    limit = serializers.IntegerField(
        min_value=1, max_value=PAGE_MAX, default=PAGE_DEFAULT, help_text="games per page"
    )
    offset = serializers.IntegerField(
        min_value=0,
        max_value=1_000_000,
        default=0,
        help_text="games to skip: what `next` holds (follow `next` rather than build it)",
    )


class RoleFiguresOut(serializers.Serializer):
    role = serializers.ChoiceField(choices=ROLE_CHOICES)
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True, help_text="0..1; null with no game")


class MyStatsOut(serializers.Serializer):
    games = serializers.IntegerField(help_text="finished games that count")
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True, help_text="0..1; null with no game")
    by_role = RoleFiguresOut(many=True, help_text="by role as dealt: Hunter, Vampire, Lord")
    mesmerized = serializers.IntegerField(help_text="games in which you were Mesmerized")
    lord_examinations = serializers.IntegerField(
        help_text="times one of your examinations (Investigation, round-1 examination, Last "
        "Will, relic) showed you the Vampire Lord"
    )
    left_out = LeftOutOut()


NOT_AUTHENTICATED = {401: OpenApiResponse(ErrorOut, description="not_authenticated")}


class MyGamesView(APIView):
    """Your finished games that count (abandoned and practice games do not), newest first."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_games",
        parameters=[PageIn],
        responses={
            200: MyGamesOut,
            400: OpenApiResponse(ErrorOut, description="bad_request (limit, offset)"),
            **NOT_AUTHENTICATED,
        },
    )
    def get(self, request):
        page = PageIn(data=request.query_params)
        page.is_valid(raise_exception=True)
        limit, offset = page.validated_data["limit"], page.validated_data["offset"]
        rows = selectors.counted(request.user).prefetch_related("game__players")
        games = [selectors.game_row(request, r) for r in rows[offset : offset + limit]]
        count = rows.count()
        following = offset + limit < count and paging.page_url(request, offset=offset + limit)
        body = {
            "games": games,
            "count": count,
            "next": following or None,
            "left_out": selectors.left_out(request.user),
        }
        return Response(MyGamesOut(body).data)


class MyStatsView(APIView):
    """How you play: games, win rate (overall and by role), times Mesmerized, times an
    examination showed you the Vampire Lord. Abandoned and practice games do not count."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="me_stats", responses={200: MyStatsOut, **NOT_AUTHENTICATED})
    def get(self, request):
        return Response(MyStatsOut(selectors.figures(request.user)).data)


# --- a finished game's story --------------------------------------------------------------------

TEAMS = ["hunters", "vampires"]


def seat_field(**kwargs):
    return serializers.IntegerField(min_value=1, max_value=12, **kwargs)


def seats_field(help_text: str = ""):
    return serializers.ListField(child=seat_field(), help_text=help_text)


class StoryPlayerOut(PlayerOut):
    role = serializers.ChoiceField(choices=ROLE_CHOICES, help_text="as dealt (R1.4: public now)")
    team = serializers.ChoiceField(choices=TEAMS, help_text="at the end (R8.3)")
    mesmerized = serializers.BooleanField()
    won = serializers.BooleanField()


class StoryTokenOut(serializers.Serializer):
    owner = seat_field()
    target = seat_field()
    token = serializers.ChoiceField(choices=TOKEN_CHOICES)


class StoryUnplacedOut(serializers.Serializer):
    owner = seat_field()
    token = serializers.ChoiceField(choices=TOKEN_CHOICES)


class StoryVoteOut(serializers.Serializer):
    voter = seat_field()
    target = seat_field()


class StoryInvestigationOut(serializers.Serializer):
    investigator = seat_field(help_text="the Alpha Hunter")
    target = seat_field()
    outcome = serializers.ChoiceField(choices=["examined", "target_dead", "protected", "blocked"])


class StoryDiningOut(serializers.Serializer):
    tokens = StoryTokenOut(many=True, help_text="every token Dining revealed, with its owner")
    unplaced = StoryUnplacedOut(many=True, help_text="1 Stake each against their owner (R3.4)")
    ghost_votes = StoryVoteOut(many=True, help_text="the Ghost votes, revealed at Dining (R7.2)")
    protected = seat_field(allow_null=True)
    investigation = StoryInvestigationOut(allow_null=True)


class StoryExaminationOut(serializers.Serializer):
    examiner = seat_field()
    target = seat_field(help_text="the player with the most Stakes in round 1 (R6.1)")


class StoryTieOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=TIE_KINDS)
    candidates = seats_field("the tied players (empty when the log did not say)")
    voters = seats_field()
    winner = seat_field(allow_null=True)
    votes = StoryVoteOut(many=True)
    decided_by = serializers.CharField(help_text="as the `tie_settled` event's `decided_by`")


class StoryDeathOut(serializers.Serializer):
    seat = seat_field()
    cause = serializers.CharField(help_text='"dining" (the Stake votes) or the card that killed')


class StoryLastWillOut(serializers.Serializer):
    seat = seat_field(help_text="the dead player who drew it")
    card = serializers.ChoiceField(choices=[c.value for c in LastWillId])


class StoryRelicOut(serializers.Serializer):
    seat = seat_field(help_text="who used it")
    relic = serializers.ChoiceField(choices=[r.value for r in RelicId])
    target = seat_field(allow_null=True)


class StoryRoundOut(serializers.Serializer):
    round = serializers.IntegerField(min_value=1)
    alpha = seat_field(allow_null=True, help_text="this round's Alpha Hunter")
    three_living = serializers.BooleanField(help_text="a round of R9")
    living = seats_field("who was alive when the round began")
    dining = StoryDiningOut(allow_null=True, help_text="null: no Dining revealed the tokens")
    examination = StoryExaminationOut(allow_null=True, help_text="round 1's examination (R6.1)")
    ties = StoryTieOut(many=True)
    deaths = StoryDeathOut(many=True, help_text="in the order they died")
    last_wills = StoryLastWillOut(many=True)
    relics = StoryRelicOut(many=True, help_text="the Sacred Relics used")
    alpha_elected = seat_field(allow_null=True, help_text="the Alpha Hunter of the next round")
    log = EventOut(many=True, help_text="the round's public lines, numbered as a spectator's")


class TurningPointOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=list(KINDS))
    round = serializers.IntegerField(min_value=1)
    text = serializers.CharField(help_text='in words, seats as "seat 5" like the log\'s `text`')
    seats = seats_field("every seat it names")


class StoryOut(serializers.Serializer):
    code = serializers.CharField()
    finished_at = serializers.DateTimeField(help_text="when the game's last move was made")
    public = serializers.BooleanField(
        help_text="the host shared the replay with anyone who has the link"
    )
    winner = serializers.ChoiceField(choices=TEAMS)
    outcome = serializers.CharField(help_text="why the game ended")
    players = StoryPlayerOut(many=True, help_text="by seat, with the roles the end revealed")
    turning_points = TurningPointOut(many=True, help_text="the game's turning points, by round")
    rounds = StoryRoundOut(many=True)


class StoryPublicIn(serializers.Serializer):
    public = serializers.BooleanField(
        help_text="true: anyone with the link reads the replay and its story; false: the "
        "table's options decide again (spectators, else its players)"
    )


STORY_ERRORS = {
    **NOT_AUTHENTICATED,
    403: OpenApiResponse(ErrorOut, description="forbidden"),
    404: OpenApiResponse(ErrorOut, description="not_found | not_finished"),
}


def story_body(told: dict) -> dict:
    """The story as `StoryOut`: the same reads as the replay page, from the public log and
    the end's public view only."""
    view = told["view"]
    roles = {r["seat"]: r for r in view["roles"]}
    log: dict[int, list[dict]] = {}
    for line in told["lines"]:
        log.setdefault(line["round"], []).append({k: v for k, v in line.items() if k != "template"})
    return {
        "code": told["code"],
        "finished_at": told["finished_at"],
        "public": told["public"],
        "winner": view["winner"],
        "outcome": view["outcome"],
        "players": [
            {"seat": s["seat"], "name": s["name"], "is_bot": s["is_bot"], **_role(roles[s["seat"]])}
            for s in view["seats"]
        ],
        "turning_points": [
            {
                "kind": p["kind"],
                "round": p["round"],
                "text": story_words.point_text(p, view["outcome"]),
                "seats": story_words.point_seats(p),
            }
            for p in told["turning_points"]
        ],
        "rounds": [{**r, "log": log.get(r["round"], [])} for r in told["rounds"]],
    }


def _role(r: dict) -> dict:
    return {k: r[k] for k in ("role", "team", "mesmerized", "won")}


class StoryView(APIView):
    """A finished game's story: the replay page's turning points and rounds, as data. Who may
    read it is who may read the replay: anyone where the table let spectators watch or the host
    shared it publicly, otherwise its seated players (no sign-in needed where anyone may)."""

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(operation_id="game_story", responses={200: StoryOut, **STORY_ERRORS})
    def get(self, request, code: str):
        """A caller without a token at a table they may not read is asked to sign in (401, as
        on every route of the API): a seated player's client may have forgotten its token."""
        try:
            game = selectors.story_game(code, request.user)
        except GameError as refusal:
            if refusal.code == "forbidden" and not request.user.is_authenticated:
                raise exceptions.NotAuthenticated() from None
            raise
        return Response(StoryOut(story_body(selectors.story(game))).data)

    @extend_schema(
        operation_id="game_story_public",
        request=StoryPublicIn,
        responses={
            200: StoryOut,
            400: OpenApiResponse(BadRequestOut, description="bad_request"),
            **NOT_AUTHENTICATED,
            403: OpenApiResponse(ErrorOut, description="forbidden (not the host)"),
            404: OpenApiResponse(ErrorOut, description="not_found | not_finished"),
        },
    )
    def patch(self, request, code: str):
        """The host shares the replay publicly (`{"public": true}`) or stops (`false`)."""
        public = valid(StoryPublicIn, request.data)["public"]
        with transaction.atomic():  # a refusal of the read that follows undoes the switch
            sharing.replay_share(code=code, user=request.user, public=public)
            game = selectors.story_game(code, request.user)
        return Response(StoryOut(story_body(selectors.story(game))).data)
