"""Look-alikes on cloths: small groups apart from the board without its black paint
(``DetectorSettings.apart_*``) and reads whose margin is coloured beyond black paint
(``DetectorSettings.doubt_foreign_*``).

A glared margin (not black against the light envelope) is the weakest evidence a read has: a
checked cloth's light cells around its dark checks pass as black paint lifted to the light's
grey, and a navy cloth's flower centres sit in dark margins of its own colour. Glare lies over
a board laid touching and black paint is spectrally flat, so a few such reads standing apart
from the board are dropped; glared tiles beside black ones, and a whole glared board, stay.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from hard_scenes import false_tiles, with_turned_corners, without_lookalike_checks

from benchmarks.bench_vision import hard_scene
from vision.detect import DetectorSettings, _apart_groups, _Reads, detect
from vision.evaluate import DetectionScore, legal_board, random_board, score_detection

DEFAULT = DetectorSettings()
# (the motif bound, ``glut_copies``, and the later look-alike checks - ``max_margin_bleed``,
# ``lone_doubt_*``, ``window_*``, ``part_*`` - also drop checks of seed 29 legal scene 53: off
# here, so that the test sees the group test alone)
LATER_OFF = without_lookalike_checks(DEFAULT)
OFF = dataclasses.replace(LATER_OFF, apart_group_max=0, glut_copies=0)


def _score(seed: int, k: int, legal: bool, settings: DetectorSettings) -> DetectionScore:
    make = legal_board if legal else random_board
    scene = hard_scene(seed, k, make, isp_space="linear").final  # as found (2026-11-22)
    return score_detection(detect(scene.image_bgr, settings=settings), scene.truth, scene.pitch_px)


def test_a_checked_cloths_cells_apart_from_the_board_make_no_tiles() -> None:
    """Seed 29 legal scene 53 (purple gingham, glare, two hands): the dark checks in rings of
    lavender and white read as glared purple squares all over the cloth (36 false tiles);
    those in groups of up to three apart from every other read go (10), every tile stays.
    Measured on the turned corners (``with_turned_corners``); with the default corners the
    checks read as no tile in the first place (one false tile stays when measured), and the
    default finds as many tiles."""
    # (the glared symbol's second segmentation, ``glare_ramp``, off in both arms: on this
    # scene it costs the default reading one tile of 45, which this test does not isolate)
    no_reseg = dict(glare_ramp=0.0, glare_cut_min_distance=0.0)
    turned_on = with_turned_corners(dataclasses.replace(DEFAULT, **no_reseg))
    turned_off = with_turned_corners(dataclasses.replace(OFF, **no_reseg))
    on, off = _score(29, 53, True, turned_on), _score(29, 53, True, turned_off)
    assert off.detected - off.correct_detections >= 30
    assert (off.detected - off.correct_detections) - (on.detected - on.correct_detections) >= 8
    assert on.matched_visible == off.matched_visible
    default = _score(29, 53, True, dataclasses.replace(DEFAULT, **no_reseg))
    assert false_tiles(default) <= 1
    assert default.matched_visible >= on.matched_visible


def test_a_glared_corner_of_a_board_stays() -> None:
    """Seed 19 random scene 2: four glared tiles lie apart from the board's black ones (a
    group larger than ``glared_group_max``): they stay."""
    on, off = _score(19, 2, False, DEFAULT), _score(19, 2, False, OFF)
    assert on.matched_visible == off.matched_visible
    assert on.detected - on.correct_detections <= off.detected - off.correct_detections


def test_a_floral_cloths_flowers_in_coloured_margins_make_no_tiles() -> None:
    """Seed 13 random scene 1, gamma render (floral cloth): flower centres read as tiles in
    margins lighter than the board's black, coloured beyond it and its symbol's bleed
    (``doubt_foreign_*``), their symbols 16-32 from the paints: three of them go, every tile
    stays. (Some of them also overlap a tile beside them in margins lighter than the board's
    black, so ``overlap_light_separation`` drops them too: it is left out here, to test this
    check; so is ``doubt_board_black``, with which the plain doubt test drops one of them:
    9 false tiles without either doubt test's foreign chroma, 8 with the board's black; and
    the later look-alike checks, ``LATER_OFF``, drop some of them too.)"""
    scene = hard_scene(13, 1).final
    alone = dataclasses.replace(LATER_OFF, overlap_light_separation=0.0, doubt_board_black=False)
    off_s = dataclasses.replace(alone, doubt_foreign_chroma=0.0)
    on, off = (
        score_detection(detect(scene.image_bgr, settings=st), scene.truth, scene.pitch_px)
        for st in (alone, off_s)
    )
    assert (off.detected - off.correct_detections) - (on.detected - on.correct_detections) >= 3
    assert on.matched_visible == off.matched_visible


def _reads(body_v: list[float], body_rgb: list[list[float]]) -> _Reads:
    """Readings with the given margins (brightness, RGB) and a green symbol each."""
    n = len(body_v)
    z = np.zeros(n)
    return _Reads(
        ok=np.ones(n, bool),
        profile=np.zeros((n, 8)),
        solidity=z,
        symbol_rgb=np.tile([40.0, 180.0, 60.0], (n, 1)),
        body_rgb=np.array(body_rgb, np.float64),
        area=z,
        body_v=np.array(body_v, np.float64),
        body_sat=z,
        sharpness=z,
        blur=z,
        score=np.zeros((n, 4), np.float32),
        centroid=np.zeros((n, 2)),
    )


def test_small_groups_apart_without_black_paint_go() -> None:
    """A board of eight black-margined reads on a row; two reads five cells off it go when
    their margins are glared (as bright as the light) or navy (coloured beyond black paint),
    and stay when they are black; a group larger than ``apart_group_max`` stays."""
    env = np.full((40, 40), 200.0, np.float32)
    board = [(0, c) for c in range(8)]
    black, glared, navy = [30.0, 30.0, 32.0], [150.0, 150.0, 152.0], [20.0, 45.0, 70.0]

    def drop(far: list[tuple[int, int]], margin: list[float]) -> list[bool]:
        cells = np.array(board + far, np.int64)
        rgb = [black] * len(board) + [margin] * len(far)
        reads = _reads([max(m) for m in rgb], rgb)
        centres = [np.array([10.0, 10.0])] * len(cells)
        return _apart_groups(cells, reads, centres, env, DEFAULT).tolist()

    two = [(5, 3), (5, 4)]
    assert drop(two, glared) == [False] * 8 + [True, True]
    assert drop(two, navy) == [False] * 8 + [True, True]
    assert not any(drop(two, black))
    assert not any(drop([(5, c) for c in range(4)], glared))
    cells = np.array(board + two, np.int64)
    reads = _reads([30.0] * 8 + [150.0] * 2, [black] * 8 + [glared] * 2)
    off = dataclasses.replace(DEFAULT, apart_group_max=0)
    assert not _apart_groups(cells, reads, [np.zeros(2)] * 10, env, off).any()
