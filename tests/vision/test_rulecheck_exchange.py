"""vision.rulecheck: two tiles read as each other's shape are exchanged back."""

from __future__ import annotations

import dataclasses

from scorer.model import Pos, Shape, Tile
from vision.observation import TileObservation
from vision.rulecheck import RuleCheckSettings, rule_check


def _seen(row: int, col: int, tile: Tile, runner_up: Tile | None = None) -> TileObservation:
    """A tile read as ``tile`` (0.52 when a runner-up is given, else 0.99)."""
    conf = 0.52 if runner_up else 0.99
    return TileObservation(
        pos=Pos(row, col),
        tile=tile,
        color_confidence=1.0,
        shape_confidence=conf,
        center_xy=(30.0 * col, 30.0 * row),
        corners_xy=((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)),
        alternatives=((runner_up, 0.48),) if runner_up else (),
    )


def _board() -> list[TileObservation]:
    """A line of diamonds holding a tile read red clover (truly a red diamond), a line of
    clovers holding one read red diamond (truly a red clover), and two more red diamonds and
    red clovers on their own: either change alone adds a fourth copy."""
    rd, rk = Tile("red", Shape.DIAMOND), Tile("red", Shape.CLOVER)
    diamonds = [_seen(0, c, Tile(col, Shape.DIAMOND)) for c, col in ((0, "yellow"), (2, "blue"))]
    clovers = [_seen(2, c, Tile(col, Shape.CLOVER)) for c, col in ((0, "purple"), (2, "green"))]
    alone = [_seen(10 + 2 * i, 10, t) for i, t in enumerate((rd, rd, rk, rk))]
    return [*diamonds, _seen(0, 1, rk, rd), *clovers, _seen(2, 1, rd, rk), *alone]


def test_two_tiles_read_as_each_other_are_exchanged() -> None:
    r = rule_check(_board())
    assert r.tiles[2].tile == Tile("red", Shape.DIAMOND)
    assert r.tiles[5].tile == Tile("red", Shape.CLOVER)
    assert (r.illegal_lines_before, r.illegal_lines_after) == (2, 0)
    off = dataclasses.replace(RuleCheckSettings(), exchanges=False)
    kept = rule_check(_board(), off)
    assert kept.tiles[2].tile == Tile("red", Shape.CLOVER)
    assert kept.tiles[5].tile == Tile("red", Shape.DIAMOND)
