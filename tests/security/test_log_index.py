"""The log's index (games/selectors/log_index.py) is kept in memory per game and `last_seq`: a
kept index must be the log as committed, for every viewer, change after change, and an index read
inside a transaction that is then rolled back must never be served."""

from __future__ import annotations

import random

import pytest
from django.db import transaction

from games import engine, services
from games.bots.moves import bot_move
from games.engine import state_from_json
from games.engine.view import waiting_for
from games.models import Event, Game
from games.selectors import game as selectors
from games.selectors import log_index
from games.selectors import news as news_reads
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)


def truth(game: Game, seat: int | None) -> list[int]:
    """The seqs `seat` may see, straight from the table."""
    return [
        e.seq
        for e in Event.objects.filter(game=game).order_by("seq")
        if e.audience is None or (seat is not None and seat in e.audience)
    ]


def test_the_kept_index_follows_every_change_and_numbers_each_viewer_its_own_way():
    log_index.forget()
    game = factories.running_game(7, mingling=3600)
    users = {p.seat: p.user for p in game.players.all()}
    rng = random.Random(5)
    for _ in range(25):
        game = Game.objects.get(pk=game.pk)
        for seat in (None, *users):
            assert selectors._visible_seqs(game, seat) == truth(game, seat), seat
            if seat is not None:
                cards, _ = news_reads.page_lines(game, seat, own=0)
                assert [c["seq"] for c in cards] == [
                    c["seq"] for c in news_reads.unread(game, seat)
                ]
        state = state_from_json(game.state)
        seat = next(iter(waiting_for(state)), None)
        if seat is None:
            break
        action = bot_move(rng, seat, engine.view(state, seat))
        services.action_apply(code=game.code, user=users[seat], name=action.name, args=action.args)
    assert log_index._kept.cache_info().hits > 0, "the other viewers read the kept index"


def test_an_index_read_inside_a_rolled_back_transaction_is_never_served():
    log_index.forget()
    game = factories.running_game(6, mingling=3600)
    before = Game.objects.get(pk=game.pk)
    with pytest.raises(RuntimeError), transaction.atomic():
        Event.objects.create(
            game=before, seq=before.last_seq + 1, round=1, kind="secret", text="never", data={}
        )
        Game.objects.filter(pk=game.pk).update(last_seq=before.last_seq + 1)
        inside = Game.objects.get(pk=game.pk)
        assert log_index.log_index(inside)[-1][2] == "secret"  # read, not kept
        raise RuntimeError("rolled back")
    assert log_index._kept.cache_info().currsize == 0  # nothing was read outside it since
    game = Game.objects.get(pk=game.pk)
    assert game.last_seq == before.last_seq
    assert all(kind != "secret" for _, _, kind in log_index.log_index(game))


def test_a_game_id_given_again_never_gets_the_index_kept_for_the_old_game():
    """SQLite gives a deleted game's id (the highest) to the next game: the kept index is keyed by
    the game's code and creation time too, so the new game at the same `last_seq` reads its own."""
    game = Game.objects.get(pk=factories.running_game(6, mingling=3600).pk)
    log_index.forget()
    log_index.log_index(game)
    log_index.log_index(game)
    assert log_index._kept.cache_info()[:2] == (1, 1)  # hits, misses
    same_id = Game.objects.get(pk=game.pk)
    same_id.code = "ZZZZZZ"  # another game that was given this id, at the same last_seq
    log_index.log_index(same_id)
    assert log_index._kept.cache_info()[:2] == (1, 2)


def test_rows_that_disagree_with_the_kept_index_drop_it_and_the_lines_are_read_again():
    """A database restored, or failed over to a copy that lost writes, while this process ran:
    the same game at the same `last_seq` with other events. The rows are checked against the
    kept index, so a seat is never shown a line the index said was its own but is another's."""
    game = factories.running_game(6, mingling=3600)
    game = Game.objects.get(pk=game.pk)
    mine = next(e for e in Event.objects.filter(game=game) if e.audience)
    seat, other = mine.audience[0], next(s for s in range(1, 7) if s not in mine.audience)

    def texts() -> list[str]:
        cards, lines = news_reads.page_lines(game, seat, own=50)
        shown = [e["text"] for e in selectors.events_tail(game, seat, 50)]
        return [c["text"] for c in cards] + [line["text"] for line in lines] + shown

    log_index.forget()
    assert mine.text in texts()  # and the index is kept
    Event.objects.filter(pk=mine.pk).update(audience=[other])  # another seat's line, same seq
    assert mine.text not in texts()
    assert selectors._visible_seqs(game, seat) == truth(game, seat)
