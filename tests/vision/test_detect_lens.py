"""Boards seen through a webcam's barrel-distorting lens (``Conditions.lens_k1``).

Seed 13 scene 44 of the hard benchmark, drawn through a lens with k1 = -0.12
(``benchmarks.bench_camera``'s ``lens_barrel_0.12``), once crashed the detector: most of its
dark-mask holes had no neighbour of a similar size, and the pitch vote let the holes without
a vote agree with each other.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from benchmarks.bench_vision import hard_scene
from scorer.model import Board
from vision.detect import DetectorSettings, _pitch_mode, detect
from vision.evaluate import random_board, score_detection
from vision.render import render


def test_holes_without_similar_neighbours_do_not_win_the_pitch_vote() -> None:
    s = DetectorSettings()
    line = [(100.0 + 30.0 * i, 50.0) for i in range(4)]  # a line of tiles 30 px apart
    # ten holes of sizes unlike any other (each 1.6x the last): no similar neighbour
    lonely = [(400.0 + 60.0 * i, 300.0) for i in range(10)]
    centres = np.array(line + lonely)
    extents = np.array([20.0] * 4 + [2.0 * 1.6**i for i in range(10)])
    pitch = _pitch_mode(centres, extents, s)
    assert pitch is not None and abs(pitch - 30.0) < 1e-6
    # with fewer line holes than ``min_pitch_support`` there is no pitch at all
    few = _pitch_mode(centres[2:], extents[2:], s)
    assert few is None


def test_a_board_bent_by_a_webcam_lens_is_read() -> None:
    hard = hard_scene(13, 44, random_board)
    board = Board({t.pos: t.tile for t in hard.final.truth})
    cond = dataclasses.replace(hard.cond, lens_k1=-0.12)
    bent = render(board, cond, seed=13 * 1000 + 44, size=hard.size)
    obs = detect(bent.image_bgr)
    sc = score_detection(obs, bent.truth, bent.pitch_px)
    assert sc.precision >= 0.95
    assert sc.recall >= 0.9
