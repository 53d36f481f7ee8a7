"""Grey-level shape evidence of :mod:`vision.shapes` (template correlation, integrated
radial profile) on analytic symbols drawn, blurred and noised with fixed seeds."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.shapes import (
    SHAPE_ORDER,
    ShapeSettings,
    integrated_profiles,
    shape_polygon,
    template_scores,
)

P = 48


def _grey_symbol(
    shape_idx: int, blur: float, scale: float, turn_deg: float, seed: int
) -> np.ndarray:
    """A ``(P, P)`` 0..1 symbol score: the prototype scaled, turned, blurred (sigma as a
    fraction of the side), shifted by a pixel and noised."""
    ss = 8
    a = math.radians(turn_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    pts = (shape_polygon(SHAPE_ORDER[shape_idx]) @ rot.T * scale + 0.5 + 1.0 / P) * P * ss
    big = np.zeros((P * ss, P * ss), np.uint8)
    cv2.fillPoly(big, [np.round(pts).astype(np.int32)], 255, lineType=cv2.LINE_AA)
    img = cv2.resize(big, (P, P), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    img = cv2.GaussianBlur(img, (0, 0), blur * P)
    rng = np.random.default_rng(seed)
    return np.clip(img + rng.normal(0, 0.04, img.shape).astype(np.float32), 0, 1)


@pytest.mark.parametrize("blur", [0.02, 0.05])
def test_template_scores_pick_the_drawn_shape(blur: float) -> None:
    s = ShapeSettings()
    right = 0
    total = 0
    for k in range(len(SHAPE_ORDER)):
        for seed, (scale, turn) in enumerate([(1.0, 0.0), (1.1, 4.0), (0.92, -3.0)]):
            sym = _grey_symbol(k, blur, scale, turn, seed)[None]
            ncc = template_scores(sym, np.array([blur]), s)
            assert ncc.shape == (1, 6)
            assert np.all(ncc <= 1.0 + 1e-5) and np.all(ncc >= -1.0 - 1e-5)
            right += int(np.argmax(ncc[0]) == k)
            total += 1
    assert right >= total - 1, (right, total)


def test_integrated_profile_is_flat_for_a_circle_and_peaked_for_a_diamond() -> None:
    circ = integrated_profiles(_grey_symbol(0, 0.04, 1.0, 0.0, 1)[None], 72)[0]
    diam = integrated_profiles(_grey_symbol(2, 0.04, 1.0, 0.0, 2)[None], 72)[0]
    assert abs(circ.mean() - 1.0) < 1e-6 and abs(diam.mean() - 1.0) < 1e-6
    assert circ.std() < 0.03, circ.std()
    # diamond points at 0, 90, 180, 270 degrees (bins 0, 18, 36, 54): longer than at 45
    tips = diam[[0, 18, 36, 54]].mean()
    flats = diam[[9, 27, 45, 63]].mean()
    assert tips > flats * 1.15, (tips, flats)


def test_empty_input_gives_empty_output() -> None:
    empty = np.zeros((0, P, P), np.float32)
    assert template_scores(empty, np.zeros(0)).shape == (0, 6)
    assert integrated_profiles(empty, 72).shape == (0, 72)
