"""``benchmarks.bench_vision``'s ``hard_phone`` section: the hard conditions on 12 MP phone
photos with the tiles at 80-200 px, the upper range of the brief."""

from __future__ import annotations

from benchmarks.bench_vision import PHONE_SIZES, PHONE_TILE_PX, _accuracy_phone, phone_scene
from vision.detect import detect
from vision.evaluate import score_detection


def test_a_phone_scene_is_a_large_photo_of_large_tiles_and_is_scored_as_read() -> None:
    r, cond, size = phone_scene(2026, 1)
    assert size in PHONE_SIZES and r.image_bgr.shape == (size[1], size[0], 3)
    lo, hi = PHONE_TILE_PX
    assert lo <= cond.tile_px <= hi
    # the pitch drawn is the board centre's, within the oblique view's spread of that size
    assert 0.6 * lo <= r.pitch_px <= 1.4 * hi
    assert 6 <= len(r.truth) <= 60
    sc = score_detection(detect(r.image_bgr), r.truth, r.pitch_px)
    out = _accuracy_phone(1, 2026, first=1)  # drawn again: the same scene, read the same
    assert out["overall"]["images"] == 1
    assert out["overall"]["tiles"] == sc.visible
    fail = {f["scene"]: f for f in out["failures"]}
    assert (1 in fail) == (not sc.exact)
    if 1 in fail:
        assert fail[1]["missed"] == sc.visible - sc.matched_visible
        assert fail[1]["misread"] == sc.matched - sc.identity_ok
    times = (out["median_detect_ms"], out["p90_detect_ms"], out["max_detect_ms"])
    assert all(t is not None and t > 0 for t in times)
    assert times[0] == times[1] == times[2]
    assert out["scenes_over_300_ms"] == int(times[0] > 300.0)
