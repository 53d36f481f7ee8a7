"""The renderer's lens distortion (``Conditions.lens_k1``): the truth moves by the lens model,
the image moves with it (the detector finds the tiles where the truth says), and bad lenses
are rejected."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision.detect import detect
from vision.evaluate import legal_board, score_detection
from vision.render import Conditions, Rendered, _Lens, render

SIZE = (1280, 720)


def _scene(k1: float) -> Rendered:
    # a straight-down view of a large board filling the frame: lens bending shows most there
    board = legal_board(np.random.default_rng(5), 90)
    cond = dataclasses.replace(
        Conditions(), lens_k1=k1, tilt_deg=0.0, tile_px=40.0, fov_deg=78.0, tile_offset=0.0
    )
    return render(board, cond, seed=3, size=SIZE)


def test_bad_lens_is_rejected() -> None:
    with pytest.raises(ValueError, match="lens_k1"):
        Conditions(lens_k1=0.1)  # pincushion: would need what lies beyond the frame
    with pytest.raises(ValueError, match="lens_k1"):
        Conditions(lens_k1=-0.6)
    with pytest.raises(ValueError, match="folds"):
        _Lens.for_frame(-0.4, 200.0, SIZE)  # a very wide view: the radial map turns back


def test_lens_maps_invert_the_distortion_and_fill_the_frame() -> None:
    lens = _Lens.for_frame(-0.3, 800.0, SIZE)
    mx, my = lens.maps(SIZE)
    rng = np.random.default_rng(0)
    ys, xs = rng.integers(0, SIZE[1], 50), rng.integers(0, SIZE[0], 50)
    ideal = np.column_stack([mx[ys, xs], my[ys, xs]]).astype(np.float64)
    back = lens.distort(ideal)
    assert np.allclose(back, np.column_stack([xs, ys]), atol=1e-2)
    # the corners show the ideal frame's corners; everything else lies inside the ideal frame
    assert np.allclose((mx[0, 0], my[0, 0]), (0.0, 0.0), atol=0.05)
    assert mx.min() >= -0.05 and mx.max() <= SIZE[0] and my.min() >= -0.05 and my.max() <= SIZE[1]


def test_barrel_lens_moves_the_truth_by_the_model_and_the_image_with_it() -> None:
    flat, bent = _scene(0.0), _scene(-0.3)
    # the same camera and tiles: each truth point is the ideal one through the lens model
    f = (SIZE[0] / 2) / np.tan(np.radians(78.0) / 2)
    lens = _Lens.for_frame(-0.3, f, SIZE)
    flat_c = np.array([t.center_xy for t in flat.truth])
    bent_c = np.array([t.center_xy for t in bent.truth])
    assert np.allclose(lens.distort(flat_c), bent_c, atol=1e-6)
    flat_k = np.array([t.corners_xy for t in flat.truth]).reshape(-1, 2)
    bent_k = np.array([t.corners_xy for t in bent.truth]).reshape(-1, 2)
    assert np.allclose(lens.distort(flat_k), bent_k, atol=1e-6)
    # the zoom that keeps the frame filled makes the centre's tiles larger ...
    assert bent.pitch_px > 1.1 * flat.pitch_px
    # ... and the image moved with the truth: the lens render's symbols sit on its truth
    by_pos = {t.pos: t for t in bent.truth}
    moved = [
        np.hypot(*np.subtract(by_pos[t.pos].center_xy, t.center_xy))
        for t in flat.truth
        if t.visible
    ]
    assert max(moved) > 5.0
    obs = detect(bent.image_bgr)
    sc = score_detection(obs, bent.truth, bent.pitch_px)
    assert sc.recall >= 0.97 and sc.precision >= 0.97
    # the tiles are drawn where the truth says (the ideal truth is ~0.5 pitch off here)
    found = np.array([t.center_xy for t in obs.tiles])
    off = [
        float(np.min(np.hypot(*(found - np.array(t.center_xy)).T))) / bent.pitch_px
        for t in bent.truth
        if t.visible
    ]
    assert np.percentile(off, 95) < 0.1
    # the hand mask is drawn through the lens as well: same shape as the image
    assert bent.hand_mask.shape == bent.image_bgr.shape[:2]
