"""Growth takes a glared margin under a warm light (``grow_glare_black_grey``).

Glare adds the light's own colour to black paint. Under a warm light the board's black
margins already read about as saturated as ``body_max_saturation`` allows, so a glared
margin next to the board failed the glared test on its saturation as read; with the board's
black made grey it is grey, as glare is.
"""

from __future__ import annotations

from dataclasses import replace

from tests.vision.hard_scenes import false_tiles, score_hard_scene
from vision.detect import DetectorSettings
from vision.evaluate import random_board


def test_glared_tiles_beside_a_board_under_a_warm_light_are_grown() -> None:
    """Seed 61 random scene 7 (linear ISP; dark laminate, warm light, big tiles): a blue
    star8 beside the board, its margin lifted to ~2 x the board's black, reads 0.49
    saturated as read (the board's black 0.53) and 0.07 with the black made grey; the blue
    cross beyond it can join only after it. Without the balanced test both are missed;
    with it none is, nothing false, nothing more read wrong."""
    s = DetectorSettings()
    off = score_hard_scene(
        61, 7, random_board, replace(s, grow_glare_black_grey=False), isp_space="linear"
    )
    on = score_hard_scene(61, 7, random_board, s, isp_space="linear")
    assert off.visible - off.matched_visible >= 2
    assert on.visible - on.matched_visible == 0
    assert false_tiles(on) == 0
    assert on.matched - on.identity_ok <= off.matched - off.identity_ok
