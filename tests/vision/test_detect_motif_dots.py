"""A dark polka-dot cloth: the motif's dark-mask holes go unless they lie beside the board
(``DetectorSettings.glut_strong_alone``, thirty-ninth session).

A dot printed on a dark cloth is a coloured disc on a ground as black as a tile's margin: to
the dark mask it is a "circle" like a tile's, and the cloth holds hundreds of them. A set
holds three of each tile (RULES.md), so far more reads of one tile than that are a motif
(``glut_copies``); until now only its weak reads went. Its dark-mask holes now go too, unless
a read of another tile lies on a side: a real tile of the motif's kind lies in a line of the
board. Rates with tolerances on fixed seeds, never pixels.
"""

from __future__ import annotations

import collections
import dataclasses

import numpy as np
import pytest
from hard_scenes import dark_dots_scene, false_tiles, missed_tiles

from scorer.model import Board, Pos, Shape, Tile
from vision.detect import DetectorSettings, detect
from vision.evaluate import DetectionScore, score_detection
from vision.observation import Observation
from vision.render import Rendered

DEFAULT = DetectorSettings()
OFF = dataclasses.replace(DEFAULT, glut_strong_alone=False, motif_kind_share=0.0)
_COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")


def _board_with_a_green_circle() -> Board:
    """14 tiles in legal lines; the green circle at (0, 3) crosses a line of circles and a
    line of greens (the dots of seeds 0 and 5 read as green circles)."""
    cells = {Pos(0, c): Tile(_COLOURS[c], Shape.CIRCLE) for c in range(6)}
    for r, shape in ((1, Shape.SQUARE), (2, Shape.DIAMOND), (-1, Shape.STAR4), (-2, Shape.CLOVER)):
        cells[Pos(r, 3)] = Tile("green", shape)
    cells[Pos(2, 4)] = Tile("blue", Shape.DIAMOND)
    cells[Pos(2, 5)] = Tile("purple", Shape.DIAMOND)
    cells[Pos(-2, 2)] = Tile("yellow", Shape.CLOVER)
    cells[Pos(-2, 1)] = Tile("red", Shape.CLOVER)
    return Board(cells.items())


def _read(scene: Rendered, settings: DetectorSettings) -> tuple[Observation, DetectionScore]:
    obs = detect(scene.image_bgr, settings=settings)
    return obs, score_detection(obs, scene.truth, scene.pitch_px)


@pytest.mark.parametrize(("seed", "max_false"), [(5, 5), (0, 15)])
def test_dots_on_a_dark_cloth_are_not_read_as_tiles(seed: int, max_false: int) -> None:
    """Seed 5: 108 dots read as green squares, and the board lost (all 14 tiles missed);
    without the motif's dark-mask holes every tile is read, 2 dots beside it. Seed 0: 98
    "green circles", 10 left: dots on the free cells beside the board, which the rule
    cannot tell from a tile laid there."""
    board = _board_with_a_green_circle()
    scene = dark_dots_scene(board, seed)
    obs, sc = _read(scene, DEFAULT)
    assert missed_tiles(sc) <= 1, missed_tiles(sc)
    assert false_tiles(sc) <= max_false, false_tiles(sc)
    assert max(collections.Counter(t.tile for t in obs.tiles).values()) <= DEFAULT.glut_copies
    # the real green circle, of the motif's kind, stays: it lies in two lines of the board
    truth = {t.center_xy: t.tile for t in scene.truth if t.visible}
    centre = next(xy for xy, tile in truth.items() if tile == Tile("green", Shape.CIRCLE))
    near = min(obs.tiles, key=lambda t: float(np.hypot(*np.subtract(t.center_xy, centre))))
    assert float(np.hypot(*np.subtract(near.center_xy, centre))) < 0.3 * scene.pitch_px
    assert near.tile == Tile("green", Shape.CIRCLE)
    # (the scene still shows the failure: the motif's dark-mask holes read as tiles)
    _, sc_off = _read(scene, OFF)
    assert false_tiles(sc_off) >= 50, false_tiles(sc_off)
