"""A line of tiles laid touching proves its tiles as a lone tile's square body does
(``DetectorSettings.line_body_*``, ``vision.detect._line_body``; forty-third session).

Tiles laid touching share one dark region in the body mask. On a board of many tiles the
others vouch for them; a game's first move (1-5 tiles) has no others, and a symbol that a
weaker mask saw as a lone blob was dropped with its line. A region that is a rectangle k
tiles long and one wide, with its k symbols one side apart along its axis, is a line of
tiles. Rates with tolerances on fixed seeds, never pixels.
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest

from benchmarks.bench_vision import small_board
from tests.vision.hard_scenes import score_hard_scene
from vision.detect import DetectorSettings, _line_body

DEFAULT = DetectorSettings()
OFF = dataclasses.replace(DEFAULT, line_body_max_tiles=1)
SIDE = 40.0


def _turned(xy: np.ndarray, turn_deg: float) -> np.ndarray:
    """Points ``(N, 2)`` (px) turned by ``turn_deg`` about the image centre (200, 200)."""
    c, s = math.cos(math.radians(turn_deg)), math.sin(math.radians(turn_deg))
    rel = np.asarray(xy, np.float64) - 200.0
    return np.c_[c * rel[:, 0] - s * rel[:, 1], s * rel[:, 0] + c * rel[:, 1]] + 200.0


def _region(cells: list[tuple[int, int]], turn_deg: float = 0.0) -> np.ndarray:
    """The outer contour of the union of ``SIDE`` squares at ``cells`` (col, row), turned by
    ``turn_deg`` about the image centre (int32, as ``cv2.findContours`` gives it)."""
    mask = np.zeros((400, 400), np.uint8)
    for col, row in cells:
        x0, y0 = 120 + col * SIDE, 120 + row * SIDE
        sq = np.array([(x0, y0), (x0 + SIDE, y0), (x0 + SIDE, y0 + SIDE), (x0, y0 + SIDE)])
        cv2.fillConvexPoly(mask, np.round(_turned(sq, turn_deg)).astype(np.int32), 255)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return max(contours, key=cv2.contourArea)


def _centres(cells: list[tuple[float, float]], turn_deg: float = 0.0) -> list[np.ndarray]:
    """The centres of the squares at ``cells`` (col, row), turned as :func:`_region` turns."""
    xy = np.array([(120 + (col + 0.5) * SIDE, 120 + (row + 0.5) * SIDE) for col, row in cells])
    return list(_turned(xy, turn_deg))


@pytest.mark.parametrize("turn", [0.0, 17.0, 90.0])
def test_a_line_of_two_or_three_tiles_is_a_line_at_any_turn(turn: float) -> None:
    for k in (2, 3):
        cells = [(i, 0) for i in range(k)]
        assert _line_body(_region(cells, turn), _centres(cells, turn), DEFAULT)


def test_regions_that_are_no_line_of_their_symbols_are_not() -> None:
    line = [(0, 0), (1, 0)]
    # an L of three squares: no rectangle
    ell = [(0, 0), (1, 0), (0, 1)]
    assert not _line_body(_region(ell), _centres(ell), DEFAULT)
    # a domino holding three symbols (three blots in one dark region)
    three = _centres([(0, 0), (0.5, 0), (1, 0)])
    assert not _line_body(_region(line), three, DEFAULT)
    # a domino whose two symbols sit in one half of it
    assert not _line_body(_region(line), _centres([(0, 0), (0.4, 0)]), DEFAULT)
    # ... or off its axis
    assert not _line_body(_region(line), _centres([(0, -0.3), (1, -0.3)]), DEFAULT)
    # a square region holding two symbols
    square = [(0, 0), (1, 0), (0, 1), (1, 1)]
    assert not _line_body(_region(square), _centres([(0, 0), (1, 1)]), DEFAULT)


def test_two_touching_squares_on_a_white_table_are_read() -> None:
    # hard_small seed 501 scene 18 (1080p, white table, warm light, blur, noise): a red and
    # a green square laid touching; a weaker mask saw the red one as a lone blob, and the
    # green one alone could not hold the lattice: both were lost
    on = score_hard_scene(501, 18, small_board, DEFAULT)
    off = score_hard_scene(501, 18, small_board, OFF)
    assert on.visible == 2
    assert on.matched_visible == 2 and on.exact == 1
    assert off.matched_visible == 0
