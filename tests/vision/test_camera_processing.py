"""The camera-processing steps of ``benchmarks.bench_camera`` do what their names say."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from benchmarks.bench_camera import PROCESSING
from vision.evaluate import random_board
from vision.render import PRESETS, render


@pytest.fixture(scope="module")
def image() -> np.ndarray:
    board = random_board(np.random.default_rng(5), 20)
    return render(board, PRESETS["easy"], seed=5, size=(640, 480)).image_bgr


@pytest.mark.parametrize("name", sorted(PROCESSING))
def test_each_step_keeps_the_frame_and_changes_it(image: np.ndarray, name: str) -> None:
    out = PROCESSING[name][0](image)
    assert out.shape == image.shape and out.dtype == np.uint8
    change = float(np.abs(out.astype(np.float32) - image.astype(np.float32)).mean())
    assert (change == 0.0) if name == "none" else (change > 0.3)


def test_steps_move_the_image_the_named_way(image: np.ndarray) -> None:
    def sat(img: np.ndarray) -> float:
        return float(cv2.cvtColor(img, cv2.COLOR_BGR2HSV)[..., 1].mean())

    assert sat(PROCESSING["saturation_1.35"][0](image)) > 1.2 * sat(image)
    assert PROCESSING["underexposed"][0](image).mean() < 0.8 * image.mean()
    b, g, r = PROCESSING["green_tint"][0](image).reshape(-1, 3).mean(axis=0)
    b0, g0, r0 = image.reshape(-1, 3).mean(axis=0)
    assert g / g0 > 1.05 and b / b0 < 0.9 and r / r0 < 0.95
    h, w = image.shape[:2]
    v = PROCESSING["vignetting"][0](image).astype(np.float32) / np.maximum(image, 1)
    assert (
        v[: h // 8, : w // 8].mean()
        < 0.8 * v[3 * h // 8 : 5 * h // 8, 3 * w // 8 : 5 * w // 8].mean()
    )


def test_local_tone_mapping_lifts_shadows_and_pulls_highlights_down(image: np.ndarray) -> None:
    """A phone's HDR look: the darkest tenth of the frame (tile bodies) brightens, the brightest
    tenth (table, glare) darkens, and the stronger step does more of both."""
    luma = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    dark = luma <= np.percentile(luma, 10)
    bright = luma >= np.percentile(luma, 90)
    lifted = []
    for name in ("local_tone_0.4", "local_tone_0.7"):
        out = cv2.cvtColor(PROCESSING[name][0](image), cv2.COLOR_BGR2GRAY).astype(np.float32)
        lifted.append(float(out[dark].mean() - luma[dark].mean()))
        assert out[bright].mean() < luma[bright].mean() - 2.0
    assert lifted[0] > 3.0 and lifted[1] > lifted[0] + 2.0


def test_overexposure_is_drawn_at_the_sensor() -> None:
    """``Conditions.exposure_ev`` (the camera benchmark's "overexposed"): one stop more light
    before the sensor's ceiling doubles the linear light of unclipped pixels and clips more of
    them; 0 draws the scene as before."""
    import dataclasses

    from vision.colour import linear_from_srgb

    board = random_board(np.random.default_rng(5), 20)
    cond = dataclasses.replace(PRESETS["easy"], noise=0.0, jpeg_quality=None)
    base = render(board, cond, seed=5, size=(640, 480)).image_bgr
    same = render(board, dataclasses.replace(cond, exposure_ev=0.0), seed=5, size=(640, 480))
    assert np.array_equal(same.image_bgr, base)
    over = render(board, dataclasses.replace(cond, exposure_ev=1.0), seed=5, size=(640, 480))
    img = over.image_bgr
    mid = (base > 20) & (base < 150)  # neither in the toe nor near the ceiling after doubling
    ratio = linear_from_srgb(img[mid] / 255.0) / linear_from_srgb(base[mid] / 255.0)
    assert abs(float(np.median(ratio)) - 2.0) < 0.1
    assert (img >= 250).mean() > 2 * max((base >= 250).mean(), 1e-4)
