"""The held-out renderer (:mod:`benchmarks.independent_render`) is deterministic and its
truth is self-consistent: what ``bench_heldout`` scores the detector against."""

from __future__ import annotations

import numpy as np

from benchmarks.independent_render import conditions, render_scene

SHAPES = {"circle", "square", "diamond", "clover", "star4", "star8"}
COLOURS = {"red", "orange", "yellow", "green", "blue", "purple"}


def test_same_seed_same_scene_and_conditions_agree() -> None:
    a, ta, pa = render_scene(3, size=(640, 480))
    b, tb, pb = render_scene(3, size=(640, 480))
    assert a.shape == (480, 640, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b) and ta == tb and pa == pb
    c = conditions(3)
    assert {"table", "hand", "size"} <= set(c)
    assert conditions(3) == c
    other, _, _ = render_scene(4, size=(640, 480))
    assert not np.array_equal(a, other)


def test_truth_is_consistent() -> None:
    checked = 0
    for seed in (0, 7, 21):
        img, truth, pitch = render_scene(seed, size=(640, 480))
        h, w = img.shape[:2]
        assert 10.0 < pitch < 300.0
        cells = [(t["row"], t["col"]) for t in truth]
        assert len(cells) == len(set(cells)), "one tile per cell"
        for t in truth:
            assert t["shape"] in SHAPES and t["color"] in COLOURS
            assert 0.0 <= t["covered"] <= 1.0
            if t["visible"]:
                x, y = t["center_xy"]
                assert 0 <= x < w and 0 <= y < h
                assert t["covered"] < 0.15
        # grid neighbours lie about one pitch apart in the image (perspective: within 40 %)
        at = {(t["row"], t["col"]): np.array(t["center_xy"]) for t in truth}
        gaps = [float(np.hypot(*(at[(r, c + 1)] - at[(r, c)]))) for r, c in at if (r, c + 1) in at]
        if gaps:
            assert 0.6 * pitch < float(np.median(gaps)) < 1.4 * pitch
            checked += 1
    assert checked >= 2
