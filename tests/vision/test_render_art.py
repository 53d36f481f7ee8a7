"""Other sets' art (``Conditions.art``): the renderer draws the six symbols with moved
proportions, and the reader still names them - it must not lean on the renderer's own art.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from scorer.model import Board, Pos, Shape, Tile
from vision.detect import detect
from vision.evaluate import score_detection
from vision.render import _ART_BOUNDS, PRESETS, Conditions, art_symbols, render

COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")


def _area(polys: list[np.ndarray]) -> float:
    """Area of a union of polygons in tile units, by rasterising at 400 px per tile."""
    canvas = np.zeros((400, 400), np.uint8)
    for p in polys:
        cv2.fillPoly(canvas, [np.round((p + 0.5) * 400).astype(np.int32)], 255)
    return float(np.count_nonzero(canvas)) / 400**2


def test_art_zero_is_the_classic_art_and_draws_nothing_else() -> None:
    rng = np.random.default_rng(5)
    classic = art_symbols(0.0, rng)
    board = Board({Pos(0, c): Tile("red", s) for c, s in enumerate(Shape)})
    a = render(board, PRESETS["easy"], 3, size=(320, 240))
    b = render(board, dataclasses.replace(PRESETS["easy"], art=0.0), 3, size=(320, 240))
    assert np.array_equal(a.image_bgr, b.image_bgr)
    moved = art_symbols(1.0, np.random.default_rng(5))
    assert any(_area(moved[s]) != pytest.approx(_area(classic[s]), rel=1e-3) for s in Shape)


@pytest.mark.parametrize("seed", range(6))
def test_moved_art_stays_within_its_bounds(seed: int) -> None:
    classic = art_symbols(0.0, np.random.default_rng(seed))
    moved = art_symbols(1.0, np.random.default_rng(seed))
    # area scales with the square of the proportions: at most (1.1 x 1.25)^2 either way
    top = ((1 + _ART_BOUNDS["scale"]) * (1 + _ART_BOUNDS["clover_lobe"])) ** 2
    for shape in Shape:
        ratio = _area(moved[shape]) / _area(classic[shape])
        assert 1 / top <= ratio <= top, (shape, ratio)
        # every symbol stays inside its tile's top (0.97 of the side, rounded corners)
        pts = np.concatenate(moved[shape])
        assert np.abs(pts).max() < 0.47, shape


def test_art_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="art"):
        Conditions(art=1.5)


@pytest.mark.parametrize(("seed", "tile_px"), [(1, 64.0), (2, 64.0), (3, 30.0), (4, 30.0)])
def test_symbols_of_other_proportions_are_read(seed: int, tile_px: float) -> None:
    """Every colour x shape at art 1 on a clean, big-tile view is read (a check on the reader's
    prototypes, which are drawn apart from the renderer's, vision.shapes.shape_polygon)."""
    board = Board({Pos(r, c): Tile(COLOURS[r], s) for r in range(6) for c, s in enumerate(Shape)})
    cond = dataclasses.replace(PRESETS["easy"], art=1.0, tile_px=tile_px)
    r = render(board, cond, seed, size=(800, 600))
    sc = score_detection(detect(r.image_bgr), r.truth, r.pitch_px)
    assert sc.recall == 1.0 and sc.precision == 1.0
    assert sc.identity == 1.0, dict(sc.confusions)
