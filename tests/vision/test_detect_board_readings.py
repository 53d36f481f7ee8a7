"""The choice between readings of one board (``reading_*``) and the doubt test's board black.

When the detector reads a board several ways (an ambiguous pitch or first fit, a poor first
reading, the small holes taken for the symbols), it keeps the reading whose tiles weigh most:
a tile whose margin is as dark as the board's black paint weighs 1, a lighter one (glared, or
a cloth's look-alike) ``reading_light_weight``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from hard_scenes import false_tiles, with_turned_corners

from benchmarks.bench_vision import hard_scene
from vision.detect import DetectorSettings, _board_black, _reading_weight, detect
from vision.evaluate import DetectionScore, legal_board, score_detection

# (measured with the table-colour test and the lone off-cell test off: since branches false18
# and false19 they take the same look-alikes)
DEFAULT = DetectorSettings(table_colour_share=0.0, lone_max_cell_offset=0.0)


def _q(rel: list[float]) -> dict[str, object]:
    return {"margin_rel": np.array(rel, np.float64)}


def test_the_board_black_is_the_darkest_reading_that_shows_enough_black() -> None:
    """Each reading's median of its margins under ``body_max_dark``; the darkest wins, and a
    reading with fewer than ``min_pitch_support`` such margins sets none."""
    board = _q([0.20, 0.22, 0.28, 0.30, 0.35, 0.60, 0.62])
    cloth = _q([0.45, 0.46, 0.47, 0.48, 0.30, 0.58, 0.57, 0.59])
    few = _q([0.05, 0.9])
    assert _board_black([cloth, board, few], DEFAULT) == 0.28
    assert _board_black([few], DEFAULT) is None


def test_tiles_with_the_board_black_outweigh_more_light_ones() -> None:
    """Seed 31 legal scene 1's two readings, as counts: 14 tiles of which 2 have black
    margins (12 cream checks of a gingham in its lighter blue) against 9 of which 6 do. The
    tile count alone keeps the first; weighed, the second."""
    black = 0.28
    first = _q([0.25, 0.30] + [0.57] * 12)
    second = _q([0.20, 0.22, 0.27, 0.28, 0.33, 0.33, 0.57, 0.58, 0.60])
    w1, w2 = (
        _reading_weight(14, first, black, DEFAULT),
        _reading_weight(9, second, black, DEFAULT),
    )
    assert w2 > w1
    count = dataclasses.replace(DEFAULT, reading_light_weight=1.0)
    assert _reading_weight(14, first, black, count) > _reading_weight(9, second, black, count)
    # a glared board (no reading shows black): the reading with more tiles
    assert _reading_weight(9, second, None, DEFAULT) == 9.0
    # equal black, more light tiles (a glared part of the board): more weighs more
    assert _reading_weight(14, first, black, DEFAULT) > _reading_weight(
        2, _q([0.25, 0.3]), black, DEFAULT
    )


def _score(settings: DetectorSettings) -> DetectionScore:
    scene = hard_scene(31, 1, legal_board, isp_space="linear").final  # (2026-11-22)
    obs = detect(scene.image_bgr, settings=settings)
    return score_detection(obs, scene.truth, scene.pitch_px)


def test_a_ginghams_checks_do_not_outweigh_the_board() -> None:
    """Seed 31 legal scene 1 (a blue gingham, warm light, blur; a line of 6 tiles): the
    cream checks read as red and orange diamonds in the cloth's lighter blue, on a lattice of
    the tiles' pitch. Counting tiles, a reading of 27 with 21 checks was kept; with the doubt
    test against the board's black and the readings weighed, at most 3 false tiles stay and
    every tile is found. Measured on the turned corners (``with_turned_corners``): with
    the default corners the checks read as no tile either way; the default then keeps at
    most as many false tiles and finds as many tiles as the weighed reading."""
    # (the motif bounds, ``glut_copies`` and ``motif_kind_share``, and the lone-read doubt,
    # ``lone_doubt_*``, are off in the old reading: they drop these checks too)
    turned = with_turned_corners(DEFAULT)
    old = dataclasses.replace(
        turned,
        reading_light_weight=1.0,
        doubt_board_black=False,
        glut_copies=0,
        motif_kind_share=0.0,
        lone_doubt_colour_distance=0.0,
    )
    off, on = _score(old), _score(turned)
    assert off.detected - off.correct_detections >= 15
    assert on.detected - on.correct_detections <= 3
    assert on.matched_visible >= off.matched_visible
    default = _score(DEFAULT)
    assert false_tiles(default) <= false_tiles(on)
    assert default.matched_visible >= on.matched_visible
