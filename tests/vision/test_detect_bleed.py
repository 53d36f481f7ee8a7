"""A grown cell's margin with its own symbol's bleed taken out (``grow_max_bleed``).

On a small or blurred tile a large symbol (a square, a diamond) lights the thin margin band
around it: the band's median is black paint plus a share of the symbol, lighter than the
board's black and of the symbol's hue, and growth took the tile for no tile.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.detect import DetectorSettings, _debled_body_v

BLACK = np.array([40.0, 34.0, 30.0])  # the board's black margins, RGB


def _debled(body: list[float], symbol: list[float]) -> float:
    s = DetectorSettings()
    out = _debled_body_v(
        np.array([body], np.float64),
        np.array([symbol], np.float64),
        BLACK,
        s.grow_max_bleed,
        s.grow_bleed_max_residual,
    )
    return float(out[0])


def test_a_margin_of_black_paint_and_its_symbol_s_bleed_is_black_again() -> None:
    orange = np.array([230.0, 120.0, 30.0])
    body = 1.1 * BLACK + 0.22 * orange  # (black a little lifted, a fifth of the symbol)
    assert body.max() > 1.8 * BLACK.max()
    got = _debled(body.tolist(), orange.tolist())
    assert abs(got - 1.1 * BLACK.max()) < 0.15 * BLACK.max()


def test_what_no_bleed_explains_stays_as_read() -> None:
    # a grey symbol (a cloth's light check, glare) identifies no share of it
    grey = [150.0, 150.0, 150.0]
    assert _debled([90.0, 88.0, 85.0], grey) == 90.0
    # a margin more of the symbol's colour than blur makes one (a blot around a lighter one)
    assert _debled([120.0, 70.0, 40.0], [200.0, 90.0, 20.0]) == 120.0
    # a third colour: a navy cloth around a yellow symbol
    assert _debled([40.0, 60.0, 110.0], [220.0, 200.0, 40.0]) == 110.0


def test_a_line_s_end_tile_with_a_bled_margin_is_grown() -> None:
    """Seed 53 random scene 28 (gamma; printed grid, dim, warm, oblique, tiny tiles, blur): a
    yellow square at a line's end, its margin 1.9x the board's black against the light, of
    which a fifth is its own symbol's yellow. Without the bleed taken out it was missed."""
    from benchmarks.bench_vision import hard_scene
    from vision.detect import detect
    from vision.evaluate import random_board, score_detection

    scene = hard_scene(53, 28, random_board).final  # (2026-11-22)
    s = DetectorSettings()
    off = score_detection(
        # (and without the lighter margin growth allows around a crisp outline, which
        # reads it too: ``grow_body_relative_max``)
        detect(
            scene.image_bgr,
            settings=replace(
                s,
                grow_max_bleed=0.0,
                grow_body_relative_max=s.body_relative_max,
                grow_local_black_cells=0,  # (branch light17's local black reads it too)
            ),
        ),
        scene.truth,
        scene.pitch_px,
    )
    on = score_detection(detect(scene.image_bgr), scene.truth, scene.pitch_px)
    assert on.matched_visible == off.matched_visible + 1
    assert on.detected - on.correct_detections <= off.detected - off.correct_detections
