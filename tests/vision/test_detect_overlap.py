"""Two reads closer than two tiles can lie hold a look-alike (``DetectorSettings.overlap_*``).

Tiles are solid squares laid touching: a read on the free cell beside a tile, nearer to it
than a tile's side, is a cloth's blot or leaf. The one dropped strays from its neighbours'
offsets; when neither does, both stay.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from benchmarks.bench_vision import hard_scene
from vision.detect import DetectorSettings, _overlapping, detect
from vision.evaluate import DetectionScore, legal_board, score_detection

# (measured with the table-colour test off: since branch false18 it takes the same look-alikes)
DEFAULT = DetectorSettings(table_colour_share=0.0)
OFF = dataclasses.replace(DEFAULT, overlap_max_separation=0.0)


def _line(n: int) -> tuple[np.ndarray, np.ndarray]:
    """A row of ``n`` tiles on row 5, each nudged by the same small offset (row, col)."""
    cells = np.array([(5, c) for c in range(n)], np.int64)
    return cells, cells + np.array([0.04, 0.03])


def test_a_blot_beside_a_line_is_dropped() -> None:
    """A read on the cell below the middle of a line, 0.78 cells from its tile (a leaf off
    the cell's centre), overlaps it and strays from the line's offsets: it goes."""
    cells, at = _line(5)
    cells = np.vstack([cells, [(6, 2)]])
    at = np.vstack([at, [(5.78, 2.2)]])
    drop = _overlapping(cells, at, DEFAULT)
    assert drop.tolist() == [False] * 5 + [True]
    assert not _overlapping(cells, at, OFF).any()


def test_tiles_laid_touching_do_not_overlap() -> None:
    """A square of touching tiles, each a little off its cell (hand-laid, up to 0.1 cells),
    has no overlap to resolve."""
    rng = np.random.default_rng(5)
    cells = np.array([(r, c) for r in range(4) for c in range(4)], np.int64)
    at = cells + rng.uniform(-0.05, 0.05, (16, 2))
    assert not _overlapping(cells, at, DEFAULT).any()


def test_when_neither_strays_both_stay() -> None:
    """Two tiles squeezed to 0.8 cells apart that both follow their lines (a hand over a
    symbol or a steep view moving both centres) stay: neither is the look-alike."""
    cells = np.array([(0, 0), (0, 1), (1, 0), (1, 1)], np.int64)
    at = np.array([(0.0, 0.1), (0.0, 0.9), (1.0, 0.1), (1.0, 0.9)])
    assert not _overlapping(cells, at, DEFAULT).any()


def _score(seed: int, k: int, settings: DetectorSettings) -> DetectionScore:
    scene = hard_scene(seed, k, isp_space="linear").final  # as found (2026-11-22)
    return score_detection(detect(scene.image_bgr, settings=settings), scene.truth, scene.pitch_px)


def test_a_floral_cloth_beside_the_board_makes_no_tiles() -> None:
    """Seed 11 scene 43 (floral cloth, dim, oblique): two red flowers on free cells beside
    the board read as tiles 0.57 and 0.70 of a pitch from one; overlapping it, they go, and
    every tile stays. (The margins of those flowers are coloured beyond black paint, so the
    ``doubt_foreign_*`` check drops them too: it is left out here, to test this one, as are
    the small groups apart from the board, the cut symbols' check, the symbol-light share
    (``part_max_light_share``) and the off-lattice check (``offset_min_cells``). Without this
    check the later ones drop one of the two flowers: both with the thirteenth session's
    turned corners, one with the corners of the local lattice.)"""
    alone = dataclasses.replace(
        DEFAULT,
        doubt_foreign_chroma=0.0,
        apart_group_max=0,
        cut_chord_max=0.0,
        part_max_light_share=0.0,
        offset_min_cells=0.0,
    )
    on = _score(11, 43, alone)
    off = _score(11, 43, dataclasses.replace(alone, overlap_max_separation=0.0))
    without_overlap = _score(11, 43, OFF)  # ... which the later checks drop in part
    assert without_overlap.detected - without_overlap.correct_detections <= 1
    assert off.detected - off.correct_detections >= 2
    assert on.detected - on.correct_detections == 0
    assert on.matched_visible == off.matched_visible


def test_a_noise_cloths_blots_make_no_tiles() -> None:
    """Seed 23 scene 56 (noise cloth, big tiles, blur, noise): cyan blots in rings of navy
    read as 18 green tiles; those beside the board overlap a tile, the others lie 42-45
    from green and in margins lighter than black paint (``doubt_*``). Every tile stays.
    (Since the palette fit learned the camera's contrast curve, ``ColourSettings.tone_contrasts``,
    that fit alone names these blots no paint: it is left out here, to test these checks. Since
    the star4's blur is gated on its apparent blur, ``ShapeSettings.blur_gate_apparent``, most
    blots no longer pass as crosses blurred to a round blob - 2 false tiles without these
    checks instead of 18 -; the gate is left out too, to test the checks. Since the
    fourteenth session's corners of the local lattice the blots read as no tile even
    without these checks - 0 false tiles either way when measured -: the scene is kept as a
    guard that the checks cost no tile there, and the overlap check is measured on seed 11
    scene 43 above.)"""
    plain = dataclasses.replace(
        DEFAULT,
        colour=dataclasses.replace(DEFAULT.colour, tone_contrasts=(1.0,)),
        shape=dataclasses.replace(DEFAULT.shape, blur_gate_apparent=()),
    )
    neither = dataclasses.replace(plain, overlap_max_separation=0.0, doubt_colour_distance=0.0)
    on, off = _score(23, 56, plain), _score(23, 56, neither)
    assert on.detected - on.correct_detections <= off.detected - off.correct_detections
    assert on.detected - on.correct_detections <= 1
    assert on.matched_visible >= off.matched_visible
    full = _score(23, 56, DEFAULT)
    assert full.detected - full.correct_detections <= 1 and full.recall >= on.recall


def test_a_light_read_beside_a_tile_overlaps_a_little_further() -> None:
    """A read 0.83 cells from the tile below it, straying from the line: beyond
    ``overlap_max_separation`` (0.8), it stays while its margin is as dark as the board's
    black; lighter than it (``light``), it overlaps up to ``overlap_light_separation`` and
    goes. Only the light read may go for that closeness: a black one beside a light tile
    stays."""
    cells, at = _line(5)
    cells = np.vstack([cells, [(6, 2)]])
    at = np.vstack([at, [(5.87, 2.2)]])
    dark = np.zeros(6, bool)
    assert not _overlapping(cells, at, DEFAULT).any()
    assert not _overlapping(cells, at, DEFAULT, dark).any()
    light = dark.copy()
    light[5] = True
    assert _overlapping(cells, at, DEFAULT, light).tolist() == [False] * 5 + [True]
    light_tile = dark.copy()
    light_tile[2] = True  # the tile it overlaps is the light one: the stray black read stays
    assert not _overlapping(cells, at, DEFAULT, light_tile).any()
    off = dataclasses.replace(DEFAULT, overlap_light_separation=0.0)
    assert not _overlapping(cells, at, off, light).any()


def test_a_noise_cloths_blots_beside_the_board_in_lighter_margins_make_no_tiles() -> None:
    """Seed 31 legal scene 44 (noise cloth, oblique, big tiles, askew): blue blots of the
    cloth beside the board read as tiles 0.80-0.85 cells from one, in margins lighter than
    the board's black (its navy); with ``overlap_light_separation`` three of them go, and
    every tile stays. (The off-lattice check, ``offset_min_cells``, takes them too: it is
    off in both arms.)"""
    scene = hard_scene(31, 44, legal_board).final  # (2026-11-22)
    alone = dataclasses.replace(DEFAULT, offset_min_cells=0.0)
    off = dataclasses.replace(alone, overlap_light_separation=0.0)
    on_s = score_detection(detect(scene.image_bgr, settings=alone), scene.truth, scene.pitch_px)
    off_s = score_detection(detect(scene.image_bgr, settings=off), scene.truth, scene.pitch_px)
    false_on = on_s.detected - on_s.correct_detections
    false_off = off_s.detected - off_s.correct_detections
    assert false_off - false_on >= 2
    assert on_s.matched_visible == off_s.matched_visible
