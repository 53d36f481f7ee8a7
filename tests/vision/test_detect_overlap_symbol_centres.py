"""Two reads closer than two tiles can lie are compared at their symbols' centres
(``DetectorSettings.overlap_symbol_centres``).

The overlap test drops one of two reads on neighbouring cells whose centres lie closer
than a tile's side. A glared or blurred tile's dark-mask hole is only the part of its symbol
the mask kept, off to one side, so the holes' centres set two true tiles 0.76-0.85 cells
apart and one of them went. The symbol read on the tile's patch sits where the print is.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from hard_scenes import false_tiles, score_hard_scene

from vision.detect import DetectorSettings, _patch_offsets, _symbol_centres
from vision.evaluate import legal_board, random_board

ON = DetectorSettings()
OFF = dataclasses.replace(ON, overlap_symbol_centres=False)


def test_symbol_centres_follow_the_patch_sides() -> None:
    """A patch turned 90 degrees: its columns run down the image, so a centroid a quarter
    side along the columns moves the centre a quarter side down; no symbol keeps the
    fallback."""
    side = 40.0
    # clockwise from the patch's top-left: (100, 100) -> (100, 140) -> (60, 140) -> (60, 100)
    corners = np.array([[[100.0, 100.0], [100.0, 140.0], [60.0, 140.0], [60.0, 100.0]]] * 2)
    centroid = np.array([[0.25, -0.1], [0.25, -0.1]])
    ok = np.array([True, False])
    fallback = np.array([[0.0, 0.0], [7.0, 9.0]])
    at = _symbol_centres(corners, centroid, ok, fallback)
    # centre (80, 120); along the columns +y, down the rows -x
    np.testing.assert_allclose(at[0], [80.0 + 0.1 * side, 120.0 + 0.25 * side], atol=1e-9)
    np.testing.assert_allclose(at[1], [7.0, 9.0])


def test_patch_offsets_are_the_resampling_map_at_the_centre() -> None:
    """On a parallelogram (every square the detector reads) the offset is the top and left
    sides' map, which growth's re-centring used; on a trapezoid it is the bilinear map's
    first-order step at the centre, within its curvature."""
    rng = np.random.default_rng(5)
    c0, u, w = rng.normal(0, 50, 2), rng.normal(0, 30, 2), rng.normal(0, 30, 2)
    para = np.array([[c0, c0 + u, c0 + u + w, c0 + w]])
    uw = np.array([[0.2, -0.15]])
    np.testing.assert_allclose(_patch_offsets(para, uw)[0], 0.2 * u - 0.15 * w, atol=1e-9)

    # a square seen at a slant: the far side (rows' top) shorter than the near one
    quad = np.array([[[30.0, 0.0], [70.0, 0.0], [100.0, 60.0], [0.0, 60.0]]])

    def bilinear(a: float, b: float) -> np.ndarray:  # a, b in 0..1 along columns, rows
        q = quad[0]
        top, bottom = q[0] + a * (q[1] - q[0]), q[3] + a * (q[2] - q[3])
        return top + b * (bottom - top)

    small = np.array([[0.01, -0.02]])
    step = bilinear(0.51, 0.48) - bilinear(0.5, 0.5)
    # (the map's twist term, 60 px x 0.01 x 0.02 = 0.012 px, is second order)
    np.testing.assert_allclose(_patch_offsets(quad, small)[0], step, atol=0.015)
    # ... which the top and left sides alone miss by 0.31 px
    top_left = 0.01 * (quad[0, 1] - quad[0, 0]) - 0.02 * (quad[0, 3] - quad[0, 0])
    assert np.hypot(*(top_left - step)) > 0.1


def test_a_glared_diamond_beside_its_neighbour_stays() -> None:
    """Seed 71 legal scene 41, linear render: with the holes' centres a glared green
    diamond 0.84 cells from its neighbour is dropped; at the symbols' centres every tile
    is found and nothing false is added."""
    assert ON.overlap_symbol_centres  # on by default
    on_sc = score_hard_scene(71, 41, legal_board, ON, "linear")
    off_sc = score_hard_scene(71, 41, legal_board, OFF, "linear")
    assert off_sc.matched_visible < on_sc.matched_visible == on_sc.visible
    assert false_tiles(on_sc) == false_tiles(off_sc)


def test_a_random_board_keeps_its_squeezed_tile() -> None:
    """Seed 73 random scene 16, linear render: one tile dropped as a look-alike beside its
    neighbour is kept."""
    on_sc = score_hard_scene(73, 16, random_board, ON, "linear")
    off_sc = score_hard_scene(73, 16, random_board, OFF, "linear")
    assert off_sc.matched_visible < on_sc.matched_visible == on_sc.visible
    assert false_tiles(on_sc) == false_tiles(off_sc)


def test_a_lone_tile_is_judged_at_its_symbol() -> None:
    """Seed 29 legal scene 53, linear render: a lone glared circle beside a hand is off its
    cell by its dark-mask hole's centre, not by its symbol's (``lone_symbol_centres``)."""
    assert ON.lone_symbol_centres
    lone_off = dataclasses.replace(ON, lone_symbol_centres=False)
    on_sc = score_hard_scene(29, 53, legal_board, ON, "linear")
    off_sc = score_hard_scene(29, 53, legal_board, lone_off, "linear")
    assert off_sc.matched_visible < on_sc.matched_visible
    assert false_tiles(on_sc) == false_tiles(off_sc)
