"""Checked (gingham) table cloths are not tiles (issue 3, third session).

A gingham is a white cloth with dyed checks: its dark checks are ringed by lighter ones, and
its white checks by darker ones, so the cloth offers a hole on every check to the masks that
find symbols, on a grid of its own near the tiles' pitch. Three ways it used to go wrong:
its checks chained in as weak holes, bent the first lattice onto the cloth's grid, passed as
glared tiles and pulled the colour step's light until it dropped every tile (a held-out
scene lost its whole board); its white checks next to the board read as glared tiles of
some colour. Rates with tolerances on fixed seeds, never pixels.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scorer.model import Board
from vision.detect import detect
from vision.evaluate import DetectionScore, random_board, score_detection
from vision.render import PRESETS, Conditions, render

#: The held-out benchmark scene (seed 99, scene 18) that lost its 49 tiles: a small-check
#: green gingham under mild blur. Conditions as `Conditions.sample` drew them (rounded).
SMALL_CHECK = Conditions(
    tilt_deg=12.16,
    yaw_deg=41.88,
    roll_deg=0.41,
    fov_deg=62.43,
    tile_px=68.19,
    center_offset=(-0.108, 0.004),
    surface="checked_cloth",
    kelvin=4681.0,
    wb_correction=0.878,
    exposure=0.846,
    gradient=0.155,
    gradient_deg=162.8,
    vignette=0.441,
    shadow=0.524,
    light_azimuth_deg=41.8,
    light_elevation_deg=45.9,
    glare=0.0,
    glare_size=0.113,
    glare_spots=2,
    blur_px=1.736,
    noise=1.027,
    jpeg_quality=94,
    tile_rot_deg=3.97,
    tile_offset=0.018,
    gap=0.089,
    tile_thickness=0.302,
    tile_gloss=0.527,
    wear=0.216,
    sharpen=0.636,
    saturation=1.293,
    chroma_px=1.439,
    dof_px=0.96,
    auto_exposure=0.052,
    table_mm=(1072.0, 732.4),
    denoise=0.101,
)

SMALL_CHECK_BOARD = """
.  .  .  .  .  .  .  .  Pc .  .  .  .  .  .
.  .  .  .  .  .  .  .  Rk R* Yc Rc O* Ps .
.  .  .  .  .  .  .  G* Od Yx Gk Y* Gd Px R*
.  .  .  .  .  .  .  .  Gd Gs .  .  Rx .  .
.  .  .  .  .  .  .  G* Yd Rk .  .  Yc .  .
.  .  .  .  .  .  .  .  Gx Bs .  .  Bd .  .
.  .  .  .  .  .  .  .  Pc Yc Rc Yx Bd .  .
.  .  .  .  .  .  .  Gd .  Bd .  .  .  .  .
.  .  .  .  .  .  .  G* .  Gk Yc .  .  .  .
Bd Yx Gs Pc Yc Pc G* G* R* P* .  .  .  .  .
.  .  .  .  .  .  .  P* .  .  .  .  .  .  .
.  .  .  .  .  .  .  P* .  .  .  .  .  .  .
.  .  .  .  .  .  .  Gs .  .  .  .  .  .  .
.  .  .  .  .  .  .  G* .  .  .  .  .  .  .
"""


def test_small_check_gingham_keeps_its_board() -> None:
    # measured 2026-11-21: 49 of 49 read, no false tile (before: none of the 49)
    board = Board.from_ascii(SMALL_CHECK_BOARD)
    r = render(board, SMALL_CHECK, seed=99018, size=(880, 660))
    sc = score_detection(detect(r.image_bgr), r.truth, r.pitch_px)
    detail = str(sc.summary())
    assert sc.recall >= 0.97, detail
    assert sc.precision >= 0.97, detail
    assert sc.identity >= 0.95, detail


#: check colours (sRGB) of the cloths: dark dyes, whose checks are darker than the white in
#: every channel, and red/purple ones, whose own channel keeps most of the white's
CLOTHS = {
    "green": (30, 120, 50),
    "navy": (20, 30, 90),
    "purple": (110, 40, 130),
    "red": (190, 40, 40),
}


@pytest.mark.parametrize("colour", sorted(CLOTHS))
def test_gingham_checks_are_not_tiles(colour: str) -> None:
    # measured 2026-11-21: 100 % recall and precision on every cloth (before: false tiles on
    # green, navy and purple, 26 on one navy scene, precision 95.1 % over these scenes)
    total = DetectionScore()
    for seed in (1, 2):
        for tile_px, blur in ((34.0, 1.7), (60.0, 0.8)):
            cond = replace(
                PRESETS["easy"],
                surface="checked_cloth",
                surface_rgb=CLOTHS[colour],
                tile_px=tile_px,
                blur_px=blur,
                tilt_deg=12.0,
                yaw_deg=40.0,
            )
            board = random_board(np.random.default_rng(200 + seed), 40)
            r = render(board, cond, seed=seed, size=(960, 720))
            total = total + score_detection(detect(r.image_bgr), r.truth, r.pitch_px)
    detail = f"{colour}: {total.summary()}"
    assert total.recall >= 0.98, detail
    assert total.precision >= 0.99, detail


def test_a_board_glared_all_over_is_read() -> None:
    """Held-out scene 7 of the hard benchmark's ``--seed 17``: a lamp's reflection greys all
    32 tiles of a board on a printed-grid table but 2, below the 3 black tiles glared ones
    needed. Thirty glared tiles of several shapes are a board (``glare_board_min_tiles``,
    ``glare_board_min_shapes``), not a cloth's motif."""
    from benchmarks.bench_vision import hard_scene
    from vision.detect import DetectorSettings

    scene = hard_scene(17, 7, isp_space="linear").final
    score = score_detection(detect(scene.image_bgr), scene.truth, scene.pitch_px)
    assert score.recall >= 0.95 and score.precision >= 0.97
    strict = replace(DetectorSettings(), glare_board_min_tiles=10**6)
    before = score_detection(detect(scene.image_bgr, settings=strict), scene.truth, scene.pitch_px)
    assert before.recall <= score.recall
    assert before.detected - before.correct_detections >= score.detected - score.correct_detections


def test_a_glared_board_of_one_shape_in_many_paints_is_read() -> None:
    """Legal scene 48 of ``--seed 2026`` (gamma render): a lamp greys a whole board on a red
    floral cloth; 16 of its 18 glared tiles read as circles (lines of circles in several
    paints). Three or more paints make it a board though it shows fewer than three shapes
    (``glare_board_one_shape_colours``); the cloth's flowers still make no tile. (Since the
    fourteenth session's corners of the local lattice more of the glared tiles read their
    own shapes and the board passes without that rule too - 25 of 26 tiles when measured -,
    as did every glare scene of 20 cached tuning sets with those corners: the rule must
    cost nothing here.)"""
    from benchmarks.bench_vision import hard_scene
    from vision.detect import DetectorSettings
    from vision.evaluate import legal_board

    scene = hard_scene(2026, 48, legal_board).final
    score = score_detection(detect(scene.image_bgr), scene.truth, scene.pitch_px)
    assert score.recall >= 0.9 and score.precision >= 0.97, score.summary()
    shapes_only = replace(DetectorSettings(), glare_board_one_shape_colours=10**6)
    before = score_detection(
        detect(scene.image_bgr, settings=shapes_only), scene.truth, scene.pitch_px
    )
    assert before.recall <= score.recall
    assert before.detected - before.correct_detections >= score.detected - score.correct_detections


def test_a_checked_cloth_does_not_set_the_light() -> None:
    """Legal scene 53 of ``--seed 29`` (gamma render): 60 light checks of a purple gingham
    read as glared tiles on the board's lattice beside its 45 tiles. Their white "symbols"
    and purple "margins" set the colour step's light, under which 27 real tiles lay farther
    than ``max_colour_distance`` from their paints and were dropped with the checks. The
    light is learnt again from the black-margined reads (``relearn_light_below``): every
    tile is read, no check is."""
    from benchmarks.bench_vision import hard_scene
    from vision.detect import DetectorSettings
    from vision.evaluate import legal_board

    scene = hard_scene(29, 53, legal_board).final
    score = score_detection(detect(scene.image_bgr), scene.truth, scene.pitch_px)
    assert score.recall >= 0.95 and score.precision >= 0.98, score.summary()
    assert score.identity >= 0.97, score.summary()
    once = replace(DetectorSettings(), relearn_light_below=0.0)
    before = score_detection(detect(scene.image_bgr, settings=once), scene.truth, scene.pitch_px)
    assert before.recall < 0.6
