"""When the board is read several ways, a reading's tiles are weighed against the black
paint that readings of at least its own pitch show (``reading_black_min_pitch``): a reading
at a smaller pitch samples its margin band inside the tiles' black tops, darker than the
true pitch's band at the bevelled edge, and made the whole board's reading count as light
look-alikes (benchmark seed 97, legal boards, linear ISP, scene 51: a checked cloth's grid
at 56 px read 8 of the 21 tiles and won)."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

import numpy as np

from tests.vision.hard_scenes import false_tiles, score_hard_scene
from vision.detect import DetectorSettings, Lattice, _board_black, _comparable, _reading_weight
from vision.evaluate import legal_board


def _reading(
    pitch: float, margins: list[float], x0: float = 0.0
) -> tuple[list[Any], Lattice, dict[str, Any]]:
    """A reading of ``len(margins)`` tiles in a row from ``(x0, 0)`` one ``pitch`` apart,
    their margins ``margins`` against the light."""
    tiles = [SimpleNamespace(center_xy=(x0 + pitch * i, 0.0)) for i in range(len(margins))]
    eye = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    lattice = Lattice(pitch_px=pitch, angle_deg=0.0, image_from_grid=eye)
    return tiles, lattice, {"margin_rel": np.array(margins)}


def _weights(done: list[Any], s: DetectorSettings) -> list[float]:
    return [
        _reading_weight(len(r[0]), r[2], _board_black(_comparable(r, done, s), s), s) for r in done
    ]


def test_a_reading_is_not_weighed_against_a_smaller_pitch_reading_of_its_own_tiles() -> None:
    s = DetectorSettings()
    board = _reading(56.0 * 1.4, [0.20, 0.205] + [0.22] * 19)  # 21 tiles, edge bands
    # 8 of its tiles read at a checked cloth's pitch, their bands inside the black tops
    grid = _reading(56.0, [0.12, 0.13, 0.14, 0.14, 0.15, 0.15, 0.16, 0.16])
    for i, t in enumerate(grid[0]):
        t.center_xy = board[0][2 * i].center_xy
    assert _weights([board, grid], s) == [21.0, 8.0]
    assert _comparable(board, [board, grid], s) == [board[2]]
    assert _comparable(grid, [board, grid], s) == [board[2], grid[2]]
    # every reading's black (off): the inner bands set it for the board too, which lost
    off = dataclasses.replace(s, reading_black_min_pitch=0.0)
    assert _weights([board, grid], off)[0] < 8.0


def test_a_smaller_pitch_reading_of_other_holes_still_sets_the_black() -> None:
    s = DetectorSettings()
    # a cloth's blots at a large pitch, lighter than the board's black; the board's tiles at
    # a small pitch elsewhere in the image
    cloth = _reading(80.0, [0.37, 0.40, 0.41, 0.42, 0.43, 0.45, 0.50, 0.53, 0.63])
    board = _reading(34.0, [0.23, 0.24, 0.25, 0.25, 0.26, 0.26, 0.27, 0.32], x0=2000.0)
    w = _weights([cloth, board], s)
    assert w[1] == 8.0 and w[0] < 4.0


def test_the_checked_cloth_board_is_read_on_its_own_pitch() -> None:
    s = DetectorSettings()
    on = score_hard_scene(97, 51, legal_board, s, isp_space="linear")
    # (the refit on known cells off too: it keeps the board's cells by itself since the
    # twenty-eighth session, and so does the edge test of competing readings since the
    # forty-second - the finer reading's boxes lie inside the tiles' black tops, flat -
    # while this test is about the reading's black)
    off = score_hard_scene(
        97,
        51,
        legal_board,
        dataclasses.replace(
            s,
            reading_black_min_pitch=0.0,
            refit_known_cells_residual=0.0,
            reading_edge_ratio=0.0,
        ),
        "linear",
    )
    assert off.matched_visible <= 10  # (the case this test is about happens)
    assert on.matched_visible >= on.visible - 1
    assert false_tiles(on) == 0
    assert on.identity_ok >= on.matched - 1
