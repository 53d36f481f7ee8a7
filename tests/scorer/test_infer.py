"""Move inference between two observed boards with unknown offset and quarter turns."""

from __future__ import annotations

import random

import pytest

from scorer.game import replay
from scorer.infer import (
    AmbiguousMoveError,
    NoChangeError,
    NoLegalReadingError,
    TilesChangedError,
    TilesVanishedError,
    infer_move,
)
from scorer.model import Board, Placement, Pos, Tile
from scorer.moves import random_game

T = Tile.parse
BEFORE = Board.from_ascii("Rs Rc Rd\n.  Bc .")


@pytest.mark.parametrize("quarter_turns", [0, 1, 2, 3])
@pytest.mark.parametrize("shift", [(0, 0), (7, -3)])
def test_added_tiles_in_befores_coordinates_under_any_turn_and_shift(
    quarter_turns: int, shift: tuple[int, int]
) -> None:
    move = Placement.parse("Rk@0,3 Rx@0,4")
    after = BEFORE.with_tiles(move.tiles).rotated(quarter_turns).translated(*shift)
    inf = infer_move(BEFORE, after)
    assert sorted(inf.placement.tiles) == sorted(move.tiles)
    assert inf.legal and inf.score.points == 5
    assert inf.transform.quarter_turns == (4 - quarter_turns) % 4
    for p, t in after.items():  # the transform maps after onto before's frame
        assert BEFORE.with_tiles(move.tiles)[inf.transform.apply(p)] == t


def test_replayed_game_moves_are_recovered_from_rotated_snapshots() -> None:
    g = random_game(2, 2, turns=12)
    rng = random.Random(0)
    board = Board()
    for ev in g.events:
        if not hasattr(ev, "tiles"):
            continue
        after = board.with_tiles(ev.tiles.tiles)  # type: ignore[union-attr]
        cam = after.rotated(rng.randrange(4)).translated(rng.randrange(-9, 9), rng.randrange(9))
        inf = infer_move(board, cam)
        if board:
            assert set(inf.placement.tiles) == set(ev.tiles.tiles)  # type: ignore[union-attr]
        else:  # the first move has no reference frame: same shape up to the transform
            assert len(inf.placement) == len(ev.tiles)  # type: ignore[union-attr]
        board = after
    assert len(replay(g).board) == len(board)


def test_runner_up_reading_makes_the_move_legal() -> None:
    after = {p: (t,) for p, t in BEFORE.items()}
    after[Pos(0, 3)] = (T("Bk"), T("Rk"))  # detector: blue clover? maybe red clover
    inf = infer_move(BEFORE, after)
    assert inf.placement == Placement.parse("Rk@0,3") and inf.legal
    assert any(not c.legal for c in inf.candidates)


def test_tiles_vanished() -> None:
    after = BEFORE.without([(1, 1)]).with_tiles([((0, 3), T("Rk"))])
    with pytest.raises(TilesVanishedError) as e:
        infer_move(BEFORE, after)
    assert e.value.cells == (Pos(1, 1),) and "blue circle" in str(e.value)
    assert e.value.expected[Pos(1, 1)] == T("Bc")


def test_tiles_changed() -> None:
    after = BEFORE.with_tiles([((1, 1), T("Gc"))])
    with pytest.raises(TilesChangedError) as e:
        infer_move(BEFORE, after)
    assert e.value.cells == (Pos(1, 1),) and "green circle" in str(e.value)


def test_no_change() -> None:
    with pytest.raises(NoChangeError):
        infer_move(BEFORE, BEFORE.rotated(1))


def test_no_legal_reading_carries_the_reasons() -> None:
    after = BEFORE.with_tiles([((0, 3), T("Bk")), ((5, 5), T("Rk"))])
    with pytest.raises(NoLegalReadingError) as e:
        infer_move(BEFORE, after)
    assert e.value.readings and e.value.violations
    assert Pos(5, 5) in e.value.cells
    inf = infer_move(BEFORE, after, allow_illegal=True)
    assert not inf.legal and inf.violations


def test_equally_likely_legal_readings_are_ambiguous() -> None:
    board = Board.from_ascii("Rs")
    after = {Pos(0, 0): (T("Rs"),), Pos(0, 1): (T("Bs"), T("Rc")), Pos(0, 2): (T("Rd"), T("Gs"))}
    # primary reading Rs Bs Rd is illegal; Rs Rc Rd and Rs Bs Gs are both legal with one runner-up
    with pytest.raises(AmbiguousMoveError) as e:
        infer_move(board, after)
    assert len(e.value.readings) == 2


def test_first_move_on_an_empty_table() -> None:
    inf = infer_move(Board(), Board.from_ascii("Rs Rc", origin=(4, 4)))
    assert inf.placement == Placement.parse("Rs@4,4 Rc@4,5") and inf.score.points == 2
