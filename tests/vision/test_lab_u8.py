"""8-bit CIELAB without OpenCV's table build (:func:`vision.colour.lab_u8`).

The detector's colour thresholds were set on ``cv2.cvtColor(..., COLOR_BGR2Lab)``; ``lab_u8``
must give the very same bytes, for every colour, so no reading changes.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

import vision.detect
from vision.colour import lab_u8
from vision.evaluate import random_board
from vision.render import PRESETS, render


def test_every_colour_matches_opencv() -> None:
    codes = np.arange(1 << 24, dtype=np.uint32)
    step = 1 << 20
    wrong = 0
    for k in range(0, len(codes), step):
        c = codes[k : k + step]
        bgr = np.stack([c >> 16, (c >> 8) & 255, c & 255], axis=1).astype(np.uint8)
        ours = lab_u8(bgr)
        theirs = cv2.cvtColor(bgr.reshape(-1, 1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3)
        wrong += int((ours != theirs).any(axis=1).sum())
    assert wrong == 0, (
        f"{wrong} of 2^24 colours differ from OpenCV {cv2.__version__}'s 8-bit L*a*b* "
        "(see vision.colour._lab_u8_tables)"
    )


def test_known_values_and_shapes() -> None:
    # black, white and the sRGB primaries (L* x 2.55, a* + 128, b* + 128, as OpenCV stores them)
    bgr = np.array([[0, 0, 0], [255, 255, 255], [0, 0, 255], [0, 255, 0], [255, 0, 0]], np.uint8)
    lab = lab_u8(bgr).astype(int)
    assert lab[0].tolist() == [0, 128, 128]
    assert lab[1].tolist() == [255, 128, 128]
    # red L* 53.2, a* 80.1, b* 67.2; green 87.7, -86.2, 83.2; blue 32.3, 79.2, -107.9 (CIE 15)
    want = np.array([[53.2, 80.1, 67.2], [87.7, -86.2, 83.2], [32.3, 79.2, -107.9]])
    got = lab[2:] - np.array([0, 128, 128])
    got = got * np.array([100 / 255, 1, 1])
    assert np.allclose(got, want, atol=1.0), got
    image = np.random.default_rng(7).integers(0, 256, (4, 5, 3), dtype=np.uint8)
    assert lab_u8(image).shape == (4, 5, 3)
    assert np.array_equal(lab_u8(image).reshape(-1, 3), lab_u8(image.reshape(-1, 3)))
    assert lab_u8(np.zeros((0, 3), np.uint8)).shape == (0, 3)
    for bad in (np.zeros((4, 3), np.float32), np.zeros((4, 4), np.uint8), np.uint8(3)):
        with pytest.raises(ValueError, match="uint8"):
            lab_u8(bad)


def test_detect_never_asks_opencv_for_lab(monkeypatch: pytest.MonkeyPatch) -> None:
    # the first 8-bit L*a*b* conversion in a process builds all of OpenCV's L*a*b* and L*u*v*
    # tables (about 0.1 s); a one-photo ``tabletally detect`` must not pay it
    seen: list[int] = []
    real = cv2.cvtColor

    def spy(src: Any, code: int, *args: Any, **kwargs: Any) -> Any:
        seen.append(code)
        return real(src, code, *args, **kwargs)

    monkeypatch.setattr(vision.detect.cv2, "cvtColor", spy)
    r = render(
        random_board(np.random.default_rng(11), 12), PRESETS["easy"], seed=11, size=(640, 480)
    )
    obs = vision.detect.detect(r.image_bgr)
    assert len(obs.tiles) >= 10
    assert seen, "the spy saw no conversion at all"
    lab_codes = {cv2.COLOR_BGR2Lab, cv2.COLOR_RGB2Lab, cv2.COLOR_Lab2BGR, cv2.COLOR_Lab2RGB}
    assert not lab_codes & set(seen)
