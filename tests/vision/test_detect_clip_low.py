"""Growth's foreign-chroma test reads a margin channel crushed at the sensor's black as
anything up to the board's black in that channel (``clip_low_level``): a warm light leaves
the board's black a few levels of blue, an orange or yellow symbol's bleed crushes its thin
margin's blue to 1-6, and made grey with the board's black that read as a strong yellow no
paint explains (benchmark seed 113, random boards, linear ISP, scene 26: two orange squares
beside the board were refused)."""

from __future__ import annotations

import dataclasses

import numpy as np

from tests.vision.hard_scenes import false_tiles, score_hard_scene
from vision.detect import DetectorSettings, _foreign_chroma
from vision.evaluate import random_board

# (the board's black, a margin, its symbol) as growth read them: RGB 0..255 (R113 26, R59g
# 23, L59 44, R89 34)
_WARM = [
    ([77, 43, 11], [130, 42, 3], [250, 130, 73]),
    ([60, 35, 9], [82, 35, 1], [230, 162, 47]),
    ([57, 31, 10], [87, 12, 3], [250, 143, 93]),
    ([48, 31, 14], [62, 20, 6], [183, 87, 51]),
]


def _fc(ref: list[int], body: list[int], sym: list[int], s: DetectorSettings) -> float:
    b, y = np.array([body], np.float64), np.array([sym], np.float64)
    return float(_foreign_chroma(b, y, np.array(ref, np.float64), s)[0])


def test_a_crushed_margin_channel_is_read_up_to_the_boards_black() -> None:
    s = DetectorSettings()
    off = dataclasses.replace(s, clip_low_level=0.0)
    for ref, body, sym in _WARM:
        assert _fc(ref, body, sym, off) > s.grow_max_foreign_chroma
        assert _fc(ref, body, sym, s) <= 0.35
    # a navy cloth's margin around a green leaf keeps its blue: no channel is crushed
    navy = ([30, 30, 32], [18, 28, 80], [60, 150, 70])
    assert _fc(*navy, s) == _fc(*navy, off) > s.grow_max_foreign_chroma
    # a channel at the floor but no darker than the board's black there is not raised
    dark = ([40, 30, 4], [60, 20, 6], [60, 150, 70])
    assert _fc(*dark, s) == _fc(*dark, off)


def test_the_warm_boards_orange_squares_are_grown() -> None:
    s = DetectorSettings()
    on = score_hard_scene(113, 26, random_board, s, isp_space="linear")
    off = score_hard_scene(
        113, 26, random_board, dataclasses.replace(s, clip_low_level=0.0), "linear"
    )
    assert off.visible - off.matched_visible >= 2  # (the case this test is about happens)
    assert on.matched_visible == on.visible
    assert false_tiles(on) == false_tiles(off) == 0
    assert on.identity_ok >= off.identity_ok
