"""A long line seen obliquely with a tile beside it (``LatticeSettings.branch_line_min_error``).

Six or more tiles in one line fix a perspective along it (:func:`vision.lattice._line_fit`),
but one tile beside the line made the tiles span two rows and two columns: no homography is
fixed by a line and one point, and the fit fell back to one pitch all along, which an
oblique line's far and near ends do not share.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.lattice import LatticeSettings, _apply, fit_lattice


def _oblique_line_with_a_branch() -> tuple[np.ndarray, np.ndarray]:
    """Seven cells (a column of six and one beside its last), seen through a homography
    whose pitch falls from about 50 px to 33 px along the column."""
    h = np.array([[56.0, 0.0, 300.0], [0.0, 56.0, 100.0], [0.0, 0.06, 1.0]])
    cells = np.array([(r, 0) for r in range(6)] + [(5, 1)], np.int64)
    xy = _apply(h, cells[:, ::-1].astype(np.float64))
    return cells, xy


def test_an_oblique_line_with_a_branch_keeps_its_perspective() -> None:
    cells, xy = _oblique_line_with_a_branch()
    step = np.hypot(*np.diff(xy[:6], axis=0).T)
    assert step[0] > 1.4 * step[-1]  # (a strongly foreshortened line)
    sides = np.r_[step[0], step, step[-1]]
    angles = np.zeros(len(xy))
    fit = fit_lattice(xy, angles, sides)
    off = fit_lattice(xy, angles, sides, replace(LatticeSettings(), branch_line_min_error=0.0))
    # every tile in its own cell, as many grid steps apart as on the board
    d_cells = np.abs(fit.cells[:, None, :] - fit.cells[None, :, :]).sum(axis=2)
    np.testing.assert_array_equal(d_cells, np.abs(cells[:, None] - cells[None, :]).sum(axis=2))
    assert float(fit.residual.max()) < 0.1
    # one pitch all along leaves the line's ends a good part of a cell off
    assert float(off.residual.max()) > 0.2


def test_a_scene_s_oblique_line_with_a_branch_is_read_whole() -> None:
    """Seed 31 legal scene 15 (gamma; white table, oblique, big tiles, noise): a column of six
    orange tiles and one beside its near end. With one pitch all along, its far end (the
    clover) and its near end (the star8 and the square beside it) were read off their cells:
    4 of 7 tiles. With the line's perspective, all 7."""
    from benchmarks.bench_vision import hard_scene
    from vision.detect import DetectorSettings, detect
    from vision.evaluate import legal_board, score_detection

    scene = hard_scene(31, 15, legal_board).final  # (2026-11-22)
    s = DetectorSettings()
    off = replace(s, lattice=replace(s.lattice, branch_line_min_error=0.0))
    on_score = score_detection(detect(scene.image_bgr), scene.truth, scene.pitch_px)
    off_score = score_detection(detect(scene.image_bgr, settings=off), scene.truth, scene.pitch_px)
    assert off_score.matched_visible <= 5
    assert on_score.matched_visible >= 6
    assert on_score.detected - on_score.correct_detections == 0
