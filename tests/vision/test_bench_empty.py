"""``benchmarks.bench_vision``'s ``hard_empty`` section: empty tables under the hard
conditions, where every tile read is false."""

from __future__ import annotations

import numpy as np

from benchmarks.bench_vision import _accuracy_empty, empty_scene
from vision.detect import detect


def test_an_empty_scene_is_drawn_the_same_each_time() -> None:
    a, cond_a, size_a = empty_scene(2026, 3)
    b, cond_b, size_b = empty_scene(2026, 3)
    assert a.truth == [] and cond_a == cond_b and size_a == size_b
    assert a.image_bgr.shape == (size_a[1], size_a[0], 3)
    assert np.array_equal(a.image_bgr, b.image_bgr)


def test_false_tiles_are_counted_per_scene_and_table() -> None:
    # scene 74 of seed 2026: a floral cloth under glare, dim and oblique, whose flowers read
    # as tiles (forty-fifth session: 6 of them); scene 75 another table
    out = _accuracy_empty(2, 2026, first=74)
    read = [len(detect(empty_scene(2026, k)[0].image_bgr).tiles) for k in (74, 75)]
    every = out["overall"]["scenes"] + out["out_of_spec_pitch_below_25px"]["scenes"]
    assert every == 2
    assert out["overall"]["false_tiles"] + out["out_of_spec_pitch_below_25px"][
        "false_tiles"
    ] == sum(read)
    assert sum(row["scenes"] for row in out["by_table"].values()) == out["overall"]["scenes"]
    assert [f["scene"] for f in out["failures"]] == [
        k for k, n in zip((74, 75), read, strict=True) if n
    ]
    assert sum(f["false"] for f in out["failures"]) == sum(read)
    assert 0.0 <= out["overall"]["scenes_clean_pct"] <= 100.0
