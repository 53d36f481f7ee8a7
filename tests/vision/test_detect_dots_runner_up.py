"""A board among a cloth's dots: the runner-up pitch mode
(``DetectorSettings.poor_reading_runner_up``, fortieth session).

A regular lattice of dots a little wider than the tiles outnumbers a board of 30 tiles and
wins the pitch vote; the board's own pitch is the runner-up, now read too when the first
reading is poor. Rates with tolerances on fixed seeds, never pixels.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hard_scenes import dark_dots_scene, false_tiles, missed_tiles

from vision.detect import DetectorSettings, _pitch_mode, detect
from vision.evaluate import DetectionScore, legal_board, score_detection
from vision.render import Rendered

DEFAULT = DetectorSettings()


def _scene(seed: int) -> Rendered:
    return dark_dots_scene(legal_board(np.random.default_rng(seed), 30), seed)


def _score(scene: Rendered, settings: DetectorSettings) -> DetectionScore:
    return score_detection(detect(scene.image_bgr, settings=settings), scene.truth, scene.pitch_px)


def test_the_runner_up_mode_is_the_lattice_the_more_numerous_holes_are_not_on() -> None:
    """A line of 8 holes 40 px apart and a staggered field of 30 holes 60 px apart, all of
    one size: the field wins the vote; without its voters, the line's pitch is left."""
    line = np.c_[np.arange(8) * 40.0, np.zeros(8)] + (700.0, 700.0)
    yy, xx = np.mgrid[0:5, 0:6]
    field = np.c_[(xx * 60.0 + (yy % 2) * 30.0).ravel(), (yy * 52.0).ravel()]
    centres = np.r_[line, field]
    extents = np.full(len(centres), 18.0)
    chosen = _pitch_mode(centres, extents, DEFAULT)
    assert chosen is not None and abs(chosen - 60.0) < 2.0, chosen
    runner_up = _pitch_mode(centres, extents, DEFAULT, exclude=chosen)
    assert runner_up is not None and abs(runner_up - 40.0) < 2.0, runner_up
    # (the line alone cannot be excluded into anything: nothing is left to vote)
    assert _pitch_mode(line, extents[:8], DEFAULT, exclude=40.0) is None


def test_a_board_among_regular_dots_a_little_wider_than_its_tiles() -> None:
    """Seed 2: 122 dots 1.4 pitches apart win the vote and 29 of 30 tiles were missed on
    the dots' lattice; the runner-up mode reads the board."""
    scene = _scene(2)
    sc = _score(scene, DEFAULT)
    assert missed_tiles(sc) <= 6 and false_tiles(sc) <= 15, (missed_tiles(sc), false_tiles(sc))
    off = _score(
        scene, dataclasses.replace(DEFAULT, poor_reading_runner_up=False, motif_kind_share=0.0)
    )
    assert missed_tiles(off) >= 20, missed_tiles(off)


@pytest.mark.xfail(
    strict=True,
    reason="known limit: dots 0.9 of the tiles' pitch apart outvote the board, and its "
    "symbols' nearest like holes are dots, so no runner-up mode is the tiles' (28 of 30 missed)",
)
def test_a_board_among_dots_closer_than_its_tiles() -> None:
    sc = _score(_scene(4), DEFAULT)
    assert missed_tiles(sc) <= 3, missed_tiles(sc)
