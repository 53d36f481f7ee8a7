"""A reading of a cloth's motif loses to a reading of tiles with edges
(``DetectorSettings.reading_edge_*``, ``reading_flat_weight``; forty-second session).

When a board is read several ways (other pitch modes, other masks), the readings compete by
their tiles' weight. A tile is a raised body with an edge all round it; a flower printed on a
dark cloth has the cloth running on across the sides of the box the lattice puts round it. A
reading whose tiles step across their free sides under ``reading_edge_ratio`` x those of
another reading, at no finer a pitch (``reading_edge_min_pitch``), counts
``reading_flat_weight`` of its weight. Rates with tolerances on fixed seeds, never pixels.
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import cv2
import numpy as np

from benchmarks.independent_render import render_scene
from scorer.model import Pos, Shape, Tile
from vision.detect import DetectorSettings, _flat_readings, _reading_edge, detect
from vision.evaluate import score_detection
from vision.observation import Lattice, TileObservation

DEFAULT = DetectorSettings()
OFF = dataclasses.replace(DEFAULT, reading_edge_ratio=0.0, motif_kind_share=0.0)
PITCH = 60.0


def _reading(
    x0: float, y0: float, cells: list[tuple[int, int]]
) -> tuple[list[TileObservation], Lattice]:
    """A reading of ``cells`` on a ``PITCH`` lattice whose cell (0, 0) is centred at
    ``(x0, y0)`` (px), each tile's outline 0.92 of the pitch across."""
    h = ((PITCH, 0.0, x0), (0.0, PITCH, y0), (0.0, 0.0, 1.0))
    half = 0.46 * PITCH
    tiles = []
    for r, c in cells:
        cx, cy = x0 + c * PITCH, y0 + r * PITCH
        corners = (
            (cx - half, cy - half),
            (cx + half, cy - half),
            (cx + half, cy + half),
            (cx - half, cy + half),
        )
        tiles.append(
            TileObservation(
                pos=Pos(r, c), tile=Tile("red", Shape.CIRCLE), color_confidence=0.9,
                shape_confidence=0.9, center_xy=(cx, cy), corners_xy=corners,  # type: ignore[arg-type]
            )
        )  # fmt: skip
    return tiles, Lattice(pitch_px=PITCH, angle_deg=0.0, image_from_grid=h)


def _scene() -> tuple[np.ndarray, np.ndarray]:
    """A near-black cloth with a 2 x 3 board of brown tiles (left) and 2 x 3 printed flowers
    on a ``PITCH`` lattice of their own (right), symbols and flowers alike; blur and noise."""
    rng = np.random.default_rng(4)
    img = np.full((240, 520, 3), (26, 28, 30), np.uint8)
    for r in range(2):
        for c in range(3):
            cx, cy = 70 + c * int(PITCH), 80 + r * int(PITCH)
            cv2.rectangle(img, (cx - 27, cy - 27), (cx + 27, cy + 27), (60, 75, 95), -1)
            cv2.circle(img, (cx, cy), 15, (40, 40, 220), -1)
            fx = 330 + c * int(PITCH)
            cv2.circle(img, (fx, cy), 15, (40, 40, 220), -1)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    img = np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)
    env = np.full(img.shape[:2], 200.0, np.float32)
    return img, env


def test_tiles_step_at_their_free_sides_and_a_motif_does_not() -> None:
    img, env = _scene()
    cells = [(r, c) for r in range(2) for c in range(3)]
    board = _reading(70.0, 80.0, cells)
    motif = _reading(330.0, 80.0, cells)
    e_board = _reading_edge(img, env, 1.0, *board)
    e_motif = _reading_edge(img, env, 1.0, *motif)
    assert e_board is not None and e_motif is not None
    assert e_board > 0.15, e_board  # brown on near-black: about a third of the light
    assert e_motif < 0.2 * e_board, (e_motif, e_board)
    flat = _flat_readings([e_motif, e_board, None], [PITCH, PITCH, None], DEFAULT)
    assert flat == [True, False, False]
    assert _flat_readings([e_board, 0.9 * e_board], [PITCH, PITCH], DEFAULT) == [False, False]
    # a reading at under ``reading_edge_min_pitch`` x the motif's boxes symbols inside tiles,
    # whose edges step too: it makes no other reading flat
    assert _flat_readings([e_motif, e_board], [PITCH, 0.5 * PITCH], DEFAULT) == [False, False]
    assert _flat_readings([e_motif, e_board], [PITCH, 2.5 * PITCH], DEFAULT) == [True, False]
    assert _reading_edge(img, env, 1.0, [], None) is None


def test_a_floral_cloth_loses_to_the_board_of_brown_tiles() -> None:
    """Held-out renderer seed 28 (1080p, a near-black flowered cloth, brown tiles 170 px
    apart, a hand): the flowers read at 74 px (21 false tiles, their margins the cloth's
    black) outweighed the board read at its own pitch (21 tiles whose brown margins counted
    as light); with the edge test the board wins."""
    img, truth, pitch = render_scene(28)
    tr = [
        SimpleNamespace(
            pos=Pos(t["row"], t["col"]), tile=Tile(t["color"], Shape(t["shape"])),
            center_xy=tuple(t["center_xy"]), visible=t["visible"], covered=t["covered"],
        )
        for t in truth
    ]  # fmt: skip
    on = score_detection(detect(img, settings=DEFAULT), tr, pitch)
    off = score_detection(detect(img, settings=OFF), tr, pitch)
    assert on.visible >= 15
    assert on.visible - on.matched_visible <= 1, on
    assert on.detected - on.correct_detections <= 2, on
    assert off.detected - off.correct_detections >= 10, off  # the flowers, as before
