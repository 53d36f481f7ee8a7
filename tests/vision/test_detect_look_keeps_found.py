"""Growth's later looks at a free cell (smaller squares, the lit side's) replace an earlier
look's symbol only with one they find themselves: a look that finds none leaves the earlier
finding (found, centroid, outline) as it was, and a cell no look found a symbol in stays
without one."""

from __future__ import annotations

import numpy as np

from vision.detect import DetectorSettings, _first_look, _TileSource
from vision.evaluate import random_board
from vision.render import PRESETS, render


def test_a_later_look_that_finds_nothing_keeps_the_earlier_symbol() -> None:
    rng = np.random.default_rng(11)
    r = render(random_board(rng, 30), PRESETS["easy"], seed=11, size=(1280, 720))
    tiles = np.array([t.corners_xy for t in r.truth if t.visible], np.float64)
    step = tiles[:, 1] - tiles[:, 0]
    # each tile's own square, then squares half a tile beside it (table or a split pair)
    squares = np.concatenate([tiles, tiles + 0.5 * step[:, None, :]])
    s = DetectorSettings()
    source = _TileSource(r.image_bgr, grow_tiles=3.0)
    n = len(squares)
    at = np.arange(n)
    found, centroid, outline = np.zeros(n, bool), np.zeros((n, 2)), np.full(n, np.inf)
    first = _first_look(source, squares, s, at, found, centroid, outline)
    assert first.ok.sum() >= len(tiles) // 2
    before = found.copy(), centroid.copy(), outline.copy()
    # a later look at squares a tenth the size, between the tiles' symbols and their
    # margins: mostly no symbol found
    centre = squares.mean(axis=1, keepdims=True)
    tiny = centre + 0.1 * (squares - centre) + 0.4 * step[np.arange(n) % len(tiles), None, :]
    later = _first_look(source, tiny, s, at, found, centroid, outline)
    lost = before[0] & ~later.ok
    assert lost.sum() >= len(tiles) // 4  # (the case this test is about happens)
    assert found[lost].all()
    np.testing.assert_array_equal(centroid[lost], before[1][lost])
    np.testing.assert_array_equal(outline[lost], before[2][lost])
    # a symbol the later look finds replaces the earlier one; no look's symbol: none
    np.testing.assert_array_equal(found, before[0] | later.ok)
    np.testing.assert_array_equal(centroid[later.ok], later.centroid[later.ok])
    none = ~before[0] & ~later.ok
    np.testing.assert_array_equal(centroid[none], later.centroid[none])
