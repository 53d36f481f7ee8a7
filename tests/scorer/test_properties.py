"""Property tests over random legal games played by the engine (hypothesis)."""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.game import Exchange, Game, Pass, Place, replay
from scorer.model import Placement
from scorer.record import dump_record, load_record
from scorer.rules import board_violations, line_problems, lines_of

seeds = st.integers(0, 10_000)


@lru_cache(maxsize=64)
def game(seed: int, players: int, turns: int | None) -> Game:
    from scorer.moves import random_game

    return random_game(seed, players, turns=turns)


@settings(max_examples=25)
@given(seed=seeds, players=st.integers(2, 4), turns=st.integers(1, 30))
def test_every_line_valid_and_every_turn_legal(seed: int, players: int, turns: int) -> None:
    g = game(seed, players, turns)
    r = replay(g)
    assert all(t.legal for t in r.turns), [t.reasons for t in r.turns if not t.legal]
    assert board_violations(r.board) == []
    assert all(not line_problems(ln.tiles) for ln in lines_of(r.board))
    assert sum(r.unseen.values()) == 108 - len(r.board)
    assert r.bag + sum(r.hands) <= 108 - len(r.board)


@settings(max_examples=25)
@given(seed=seeds, players=st.integers(2, 4), turns=st.integers(1, 30))
def test_score_at_least_tiles_placed_and_totals_add_up(seed: int, players: int, turns: int) -> None:
    g = game(seed, players, turns)
    r = replay(g)
    for t in r.turns:
        if isinstance(t.event, Place):
            assert t.points >= len(t.event.tiles)
            assert t.score is not None and t.points == t.score.points + t.bonus
        else:
            assert t.points == 0
    assert sum(r.totals) == sum(t.points for t in r.turns)
    assert r.winners == [i for i, x in enumerate(r.totals) if x == max(r.totals)]


@settings(max_examples=25)
@given(seed=seeds, turns=st.integers(1, 25))
def test_replay_is_deterministic_and_survives_a_record_round_trip(seed: int, turns: int) -> None:
    g = game(seed, 2, turns)
    a, b = replay(g), replay(load_record(dump_record(g)))
    assert a.totals == b.totals and a.board == b.board and a.turns == b.turns


@settings(max_examples=30)
@given(
    seed=seeds,
    turns=st.integers(2, 25),
    k=st.integers(0, 100),
    op=st.sampled_from(["replace", "delete", "insert"]),
    new=st.sampled_from(["pass", "exchange", "place"]),
)
def test_correction_then_replay_equals_a_fresh_game(
    seed: int, turns: int, k: int, op: str, new: str
) -> None:
    g = game(seed, 2, turns)
    k %= len(g.events)
    player = g.events[k].player
    ev = (
        Pass(player)
        if new == "pass"
        else Exchange(player, 2)
        if new == "exchange"
        else Place(player, Placement.parse("Rs@50,50"))
    )
    events = list(g.events)
    if op == "replace":
        corrected, events[k] = g.replace_event(k, ev), ev
    elif op == "delete":
        corrected = g.delete_event(k)
        del events[k]
    else:
        corrected = g.insert_event(k, ev)
        events.insert(k, ev)
    fresh = Game(g.players, g.variant, g.setup, tuple(events), g.tie_break)
    assert corrected == fresh
    a, b = replay(corrected), replay(fresh)
    assert a.totals == b.totals and a.turns == b.turns and a.board == b.board
    # turns before the corrected one are untouched
    before = replay(g)
    assert a.turns[:k] == before.turns[:k]


@pytest.mark.slow
@settings(max_examples=10)
@given(seed=seeds, players=st.integers(2, 4))
def test_complete_games_end_properly(seed: int, players: int) -> None:
    g = game(seed, players, None)
    r = replay(g)
    assert all(t.legal for t in r.turns)
    if r.finished:
        assert r.end_reason == "out" and r.turns[-1].bonus == 6 and r.bag == 0
        assert r.hands[r.turns[-1].player] == 0
    else:  # every player passed in a row: the bag is empty and nobody can place
        assert r.bag == 0 and all(isinstance(t.event, Pass) for t in r.turns[-players:])


@settings(max_examples=150)
@given(seed=st.integers(0, 50), turns=st.integers(1, 20), data=st.data())
def test_validator_and_move_search_agree(seed: int, turns: int, data: st.DataObject) -> None:
    """Two independent implementations: ``validate_placement`` (rules.py) and the window search
    of ``legal_placements`` (moves.py). A placement is legal exactly when the search over its
    own tiles yields it; placements are found ones, perturbed (a tile's colour or shape, a
    cell shifted, a tile dropped or added) to land on both sides of the boundary."""
    from scorer.model import CLASSIC_COLORS, Pos, Shape, Tile
    from scorer.moves import legal_placements
    from scorer.rules import is_legal

    board = replay(game(seed, 2, turns)).board
    colors = st.sampled_from(CLASSIC_COLORS)
    shapes = st.sampled_from(list(Shape))
    hand = [Tile(data.draw(colors), data.draw(shapes)) for _ in range(6)]
    found = list(legal_placements(board, hand))
    if not found:
        return
    items = list(data.draw(st.sampled_from(found)).tiles)
    how = data.draw(st.sampled_from(["keep", "color", "shape", "shift", "drop", "add"]))
    i = data.draw(st.integers(0, len(items) - 1))
    pos, tile = items[i]
    if how == "color":
        items[i] = (pos, Tile(data.draw(colors), tile.shape))
    elif how == "shape":
        items[i] = (pos, Tile(tile.color, data.draw(shapes)))
    elif how == "shift":
        dr, dc = data.draw(st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0)]))
        items[i] = (Pos(pos.row + dr, pos.col + dc), tile)
    elif how == "drop" and len(items) > 1:
        del items[i]
    elif how == "add":
        dr, dc = data.draw(st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0)]))
        items.append((Pos(pos.row + dr, pos.col + dc), Tile(data.draw(colors), data.draw(shapes))))
    p = Placement(tuple(items))
    tiles = [t for _, t in items]
    again = {frozenset(x.tiles) for x in legal_placements(board, tiles)}
    distinct_cells = len({q for q, _ in items}) == len(items)
    assert is_legal(board, p) == (distinct_cells and frozenset(items) in again)
    if how == "keep":
        assert is_legal(board, p)
