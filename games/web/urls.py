"""The web pages. The API has its own routes in games/api/urls.py."""

from django.urls import include, path

from games.web import clock as clock_pages
from games.web import display, home, rules
from games.web import game as game_pages
from games.web import news as news_pages
from games.web import practice as practice_pages
from games.web import seats as seat_pages
from games.web import vacation as vacation_pages
from staked.limits import limited

# The path converters (<code:...>, <seat:...>, ...) are registered by GamesConfig.ready.

# The same budgets as the API (staked/limits.py): a page that makes a guest counts in `auth`
# as POST /api/v1/auth/guest/ does, a new table in `games`, a move in `actions`.
new_guest = limited("auth", only_anonymous=True)

urlpatterns = [
    path("", home.home, name="home"),
    path("inbox", home.inbox, name="inbox"),
    path("new", new_guest(limited("games")(home.create)), name="create"),
    path("join", new_guest(home.join), name="join"),
    path("practice", new_guest(limited("games")(practice_pages.practice_new)), name="practice"),
    path("rules/", rules.rules, name="rules"),
    path("rules/<slug:page>/", rules.rules, name="rules-page"),
    path("g/<code:code>/", game_pages.game, name="game"),
    path("g/<code:code>/changed", game_pages.changed, name="changed"),
    path("g/<code:code>/join", new_guest(game_pages.seat_join), name="seat-join"),
    path("g/<code:code>/start", game_pages.start, name="start"),
    path("g/<code:code>/leave", game_pages.leave, name="leave"),
    path("g/<code:code>/bots", game_pages.add_bots, name="add-bots"),
    path("g/<code:code>/options", game_pages.update_options, name="update-options"),
    path("g/<code:code>/act/<name:action>", limited("actions")(game_pages.act), name="act"),
    path("g/<code:code>/deadline/extend", clock_pages.extend, name="deadline-extend"),
    path("g/<code:code>/deadline/pause", clock_pages.pause, name="deadline-pause"),
    path("g/<code:code>/deadline/resume", clock_pages.resume, name="deadline-resume"),
    path("g/<code:code>/deadline/vote", clock_pages.vote, name="deadline-vote"),
    path("g/<code:code>/chat/", include("games.chat.urls")),
    path("g/<code:code>/here", seat_pages.seat_here, name="seat-here"),
    path("g/<code:code>/vacation", vacation_pages.vacation, name="vacation"),
    path("g/<code:code>/vacation/end", vacation_pages.vacation_end, name="vacation-end"),
    path("g/<code:code>/seats/<seat:seat>/bot", seat_pages.seat_bot, name="seat-bot"),
    path("g/<code:code>/seats/<seat:seat>/invite", seat_pages.seat_invite, name="seat-invite"),
    path("g/<code:code>/claim/<token:token>", new_guest(seat_pages.seat_claim), name="seat-claim"),
    path("g/<code:code>/coach", practice_pages.coach_switch, name="coach"),
    path("g/<code:code>/device", seat_pages.another_device, name="another-device"),
    path(
        "g/<code:code>/device/sign-out",
        seat_pages.sign_out_other_devices,
        name="sign-out-other-devices",
    ),
    path(
        "g/<code:code>/continue/<str:token>",
        limited("auth")(seat_pages.seat_link),
        name="seat-link",
    ),
    path("g/<code:code>/since", news_pages.since_read, name="since-read"),
    path("g/<code:code>/news/<int:number>", news_pages.news_read, name="news-read"),
    path("g/<code:code>/rematch", limited("games")(seat_pages.rematch), name="rematch"),
    path("g/<code:code>/room-key", display.room_key_renew, name="room-key-renew"),
    path("t/<code:code>/", display.display, name="display"),
    path("t/<code:code>/changed", display.display_changed, name="display-changed"),
]
