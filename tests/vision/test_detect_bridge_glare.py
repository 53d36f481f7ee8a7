"""Growth bridges a gap into a glared line (``grow_bridge_glare``).

A glare spot over a line washes out a tile and the tiles beyond it alike: the cell beyond a
gap that no look could read is taken with a glared margin when that margin is the light's
own grey (the board's black made grey) and its symbol's paint shows over it.
"""

from __future__ import annotations

from dataclasses import replace

from benchmarks.bench_vision import hard_scene
from vision.detect import DetectorSettings, detect
from vision.evaluate import random_board, score_detection


def test_a_glared_line_beyond_an_unread_tile_is_grown() -> None:
    """Seed 13 random scene 31 (gamma; printed grid, glare, askew): an L of 17 tiles of
    which only the three darkest, at one end, read as holes. The tile next to them (a faint
    purple star4 under the glare) shows no symbol to any look; the line beyond it was lost
    (14 missed). Bridged as glared, the line grows on: at most 10 missed, nothing false."""
    scene = hard_scene(13, 31, random_board).final  # (2026-11-22)
    s = DetectorSettings(
        glare_ramp=0.0, glare_cut_min_distance=0.0
    )  # (the glare resegmentation also finds the line)
    off = score_detection(
        detect(scene.image_bgr, settings=replace(s, grow_bridge_glare=False)),
        scene.truth,
        scene.pitch_px,
    )
    on = score_detection(detect(scene.image_bgr), scene.truth, scene.pitch_px)
    assert off.visible - off.matched_visible >= 13
    assert on.visible - on.matched_visible <= 10
    assert on.detected == on.correct_detections
