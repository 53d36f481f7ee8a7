"""A poor first reading that found a board is not read again at a pitch its symbols cannot
fit (``DetectorSettings.poor_reading_max_extent``, ``poor_reading_fit_min_tiles``,
forty-eighth session).

On a patterned cloth most candidate holes are the cloth's, so a board read right is a "poor"
reading by share, and it used to be read again at half its pitch, where no symbol fits a
tile: that retry never read a board, and cost up to a few hundred ms on a cloth's hundreds of
holes. Hard benchmark scenes, fixed seeds; the readings compared whole.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

import vision.detect as detect_module
from benchmarks.bench_vision import hard_scene
from vision.detect import DetectorSettings, detect
from vision.evaluate import random_board

DEFAULT = DetectorSettings()
OFF = dataclasses.replace(DEFAULT, poor_reading_max_extent=0.0)


def _retry_pitches(
    monkeypatch: pytest.MonkeyPatch, image: np.ndarray, settings: DetectorSettings
) -> tuple[list[float], Any]:
    """The pitches the first reading asks to be read again with, and the observation."""
    seen: list[list[float]] = []
    assemble = detect_module._assemble

    def spy(*args: Any, **kwargs: Any) -> Any:
        out = assemble(*args, **kwargs)
        if not kwargs:  # the first reading (the retries pass the way they read)
            seen.append(list(out[2].get("other_pitches", ())))
        return out

    monkeypatch.setattr(detect_module, "_assemble", spy)
    obs = detect(image, settings=settings)
    monkeypatch.setattr(detect_module, "_assemble", assemble)
    assert len(seen) == 1
    return seen[0], obs


@pytest.mark.parametrize("k", [9, 23])
def test_a_retry_at_a_pitch_the_symbols_cannot_fit_is_skipped_and_the_reading_is_the_same(
    monkeypatch: pytest.MonkeyPatch, k: int
) -> None:
    """Seed 2026 random scenes 9 (checked cloth, 32 px tiles) and 23 (floral cloth, 49 px):
    without the bound the first reading asks for a retry at a pitch smaller than its
    dark-mask holes' median enclosing circle, the smallest of its retries."""
    scene = hard_scene(2026, k, random_board).final
    pitch = scene.pitch_px
    before, obs_off = _retry_pitches(monkeypatch, scene.image_bgr, OFF)
    after, obs_on = _retry_pitches(monkeypatch, scene.image_bgr, DEFAULT)
    # (the retry pitches are in work-image px; the ratio to the chosen one is what counts)
    assert len(after) == len(before) - 1 and set(after) < set(before)
    (skipped,) = set(before) - set(after)
    assert all(skipped < p for p in after), (skipped, after)
    assert repr(obs_on.tiles) == repr(obs_off.tiles)
    # after a first reading of fewer tiles than ``poor_reading_fit_min_tiles`` every retry
    # stays: a retry's pitch only seeds its lattice, whose fit may land on the board's
    few = dataclasses.replace(DEFAULT, poor_reading_fit_min_tiles=10**6)
    kept, _ = _retry_pitches(monkeypatch, scene.image_bgr, few)
    assert kept == before
    assert obs_on.lattice is not None
    assert abs(obs_on.lattice.pitch_px / pitch - 1.0) < 0.15
