"""Surplus reads whose free sides show no tile's edge go (``DetectorSettings.edge_free_*``,
forty-first session).

A tile is a raised square with an edge all round it; a polka dot printed on a cloth has flat
cloth where the board's lattice puts a tile's sides. Of a tile read more often than a set
holds (RULES.md: three of each), the reads whose sides facing free cells step far less than
the board's other free sides go. A side counts as free only where the cell beyond shows the
table: a hand beside a tile is as flat against its black as the cloth round a dot. Rates with
tolerances on fixed seeds, never pixels.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
from hard_scenes import dark_dots_scene, false_tiles, missed_tiles, score_hard_scene

from vision.detect import DetectorSettings, _side_steps, detect
from vision.evaluate import legal_board, random_board, score_detection

DEFAULT = DetectorSettings()
# (the edge test of competing readings, ``reading_edge_ratio``, also cuts seed 103's false
# tiles without this rule, to 20: off here too)
OFF = dataclasses.replace(DEFAULT, edge_free_ratio=0.0, reading_edge_ratio=0.0)


def _box(cx: float, cy: float, side: float) -> np.ndarray:
    h = side / 2.0
    return np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]])


def test_a_raised_square_steps_at_its_sides_and_a_flat_dot_does_not() -> None:
    rng = np.random.default_rng(0)
    img = np.full((200, 300, 3), (150, 170, 190), np.uint8)
    cv2.rectangle(img, (40, 60), (99, 119), (25, 25, 28), -1)  # a tile 60 px across
    cv2.circle(img, (220, 90), 15, (40, 200, 230), -1)  # a dot half as wide, on the cloth
    img = cv2.GaussianBlur(img, (0, 0), 1.2)
    img = np.clip(img + rng.normal(0, 4, img.shape), 0, 255).astype(np.uint8)
    # the tile's own box turned 3 degrees and 2 px off (a box from the lattice, not the tile)
    box = _box(71.5, 88.0, 60.0)
    turn = np.deg2rad(3.0)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    tilted = (box - box.mean(axis=0)) @ rot.T + box.mean(axis=0)
    steps = _side_steps(img, np.stack([tilted, _box(220.0, 90.0, 60.0)]))
    assert steps.shape == (2, 4)
    tile, dot = steps
    # every side of the tile steps by most of the tile's contrast with the cloth; the box
    # round the dot sees cloth on both sides of each side
    assert tile.min() > 0.5 * np.linalg.norm(np.subtract((150, 170, 190), (25, 25, 28)))
    assert dot.max() < 0.1 * tile.min(), (dot, tile)
    assert _side_steps(img, np.zeros((0, 4, 2))).shape == (0, 4)


@pytest.mark.parametrize(("seed", "max_false", "min_false_off"), [(103, 22, 33), (112, 2, 5)])
def test_dots_on_free_cells_beside_the_board_go(
    seed: int, max_false: int, min_false_off: int
) -> None:
    """``benchmarks surface``, near-black ground: seed 103 41 false tiles -> 17, seed 112
    7 -> 0 (dots beside the board read as tiles of the board's kinds, more than three of one),
    and no tile lost."""
    scene = dark_dots_scene(legal_board(np.random.default_rng(seed), 30), seed)
    on = score_detection(detect(scene.image_bgr, settings=DEFAULT), scene.truth, scene.pitch_px)
    off = score_detection(detect(scene.image_bgr, settings=OFF), scene.truth, scene.pitch_px)
    assert missed_tiles(on) <= missed_tiles(off) <= 1, (missed_tiles(on), missed_tiles(off))
    assert false_tiles(on) <= max_false, false_tiles(on)
    assert false_tiles(off) >= min_false_off, false_tiles(off)


def test_a_tile_beside_a_hand_is_kept() -> None:
    """Hard benchmark seed 37 scene 40 (a random board with four green star8s, a white table,
    a hand in a dark sleeve over the board's edge): with every free side judged, a green
    star8 whose free side faces the sleeve steps like a dot and goes; the cell beyond shows
    no table, so that side is not judged."""
    assert missed_tiles(score_hard_scene(37, 40, random_board, DEFAULT)) == 0
    every_side = dataclasses.replace(DEFAULT, edge_free_table=0.0)
    assert missed_tiles(score_hard_scene(37, 40, random_board, every_side)) >= 1
