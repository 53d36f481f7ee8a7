"""Growth's reading of tiles a hand touches starts with a first look at the free cells.

:func:`vision.detect._read_partly_covered` reads in full only the cells whose first look
(``first_look=True, occlusion="all"``) shows a symbol touching the occluder on a dark margin;
that look's ``ok``, ``score`` and ``hidden`` must be a full reading's on the same corners, or
the shortcut would change which tiles are read.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vision.detect as det
from benchmarks.bench_vision import hard_scene
from vision.evaluate import random_board


def test_first_look_with_the_occluder_left_out_reads_as_a_full_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seed 67 random scene 28, gamma render (a hand with four fingers over a line; two
    tiles it partly covers are read): every first look growth takes at cells beside the
    board with the occluder left out agrees with a full reading of the same squares."""
    scene = hard_scene(67, 28, random_board, isp_space="gamma").final
    looks: list[tuple[Any, np.ndarray, det.DetectorSettings]] = []
    read = det._read_patches

    def spy(source: Any, corners: np.ndarray, s: det.DetectorSettings, keep: bool, **kw: Any):  # type: ignore[no-untyped-def]
        if kw.get("first_look") and kw.get("occlusion") == "all":
            looks.append((source, corners.copy(), s))
        return read(source, corners, s, keep, **kw)

    monkeypatch.setattr(det, "_read_patches", spy)
    obs = det.detect(scene.image_bgr)
    monkeypatch.undo()
    assert obs.tiles and looks
    p = det.DetectorSettings().patch_px
    touched = 0
    for source, corners, s in looks:
        look = read(source, corners, s, False, first_look=True, occlusion="all")
        full = read(source, corners, s, False, occlusion="all")
        n = len(corners)
        assert look.hidden is not None and full.hidden is not None
        np.testing.assert_array_equal(look.ok, full.ok)
        np.testing.assert_array_equal(look.hidden, full.hidden)
        np.testing.assert_array_equal(look.score[look.ok], full.score[full.ok])
        np.testing.assert_array_equal(look.body_v, full.body_v)
        both = det._touches_hidden(look, n, p) & look.ok
        np.testing.assert_array_equal(both, det._touches_hidden(full, n, p) & full.ok)
        touched += int(both.sum())
    assert touched >= 1  # the hand's fingers touch a symbol read in a first look
