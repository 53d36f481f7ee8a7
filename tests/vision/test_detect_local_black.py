"""Growth judges a grown cell's margin against the board's black around it
(``grow_local_black_cells``).

Under blur a line of yellow squares lends its thin margins its light: the black tiles of
that line read up to twice the board's median black against the light envelope, and the
free cell at its end, as light as they are, failed as lighter than the board's black.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tests.vision.hard_scenes import false_tiles, score_hard_scene
from vision.detect import DetectorSettings, _local_black
from vision.evaluate import legal_board


def test_a_cell_beside_lighter_black_tiles_is_grown() -> None:
    """Seed 71 legal scene 13 (linear ISP; white table, blur): a yellow circle ending a
    line of yellow tiles reads 2.15 x the board's median black, its line's black tiles
    1.96 x. Judged against the board's median it is missed; against its neighbours' black
    it is read, nothing false, nothing more read wrong."""
    s = DetectorSettings()
    off = score_hard_scene(
        71, 13, legal_board, replace(s, grow_local_black_cells=0), isp_space="linear"
    )
    on = score_hard_scene(71, 13, legal_board, s, isp_space="linear")
    assert off.visible - off.matched_visible >= 2
    assert on.visible - on.matched_visible <= off.visible - off.matched_visible - 2
    assert false_tiles(on) <= false_tiles(off)
    assert on.matched - on.identity_ok <= off.matched - off.identity_ok


def test_local_black_is_the_median_of_enough_black_tiles_nearby() -> None:
    """The median of the black tiles within ``grow_local_black_cells`` (Chebyshev), NaN
    where fewer than ``grow_local_black_min`` lie there; None when off."""
    s = replace(DetectorSettings(), grow_local_black_cells=2, grow_local_black_min=2)
    black = np.array([[0, 0], [0, 1], [0, 2], [5, 5]], np.int64)
    ratio = np.array([0.2, 0.4, 0.3, 0.9])
    cells = np.array([[1, 1], [2, 0], [4, 4], [9, 9]], np.int64)
    got = _local_black(cells, black, ratio, s)
    assert got is not None
    assert got[0] == 0.3  # all three of the first row
    assert got[1] == 0.3  # (0, 0) and (0, 1), (0, 2): median 0.3
    assert np.isnan(got[2])  # only (5, 5) within 2
    assert np.isnan(got[3])
    assert _local_black(cells, black, ratio, replace(s, grow_local_black_cells=0)) is None
