"""Growth's glared test sees a symbol's paint with the board's black made grey
(``grow_glare_paint_balanced``).

A warm glare over a blue symbol greys it as read (saturation 0.02-0.09 against
``glare_symbol_saturation_floor``'s 0.12): the cell beside the board was judged no glared
tile. With the light's cast taken off (von Kries gains from the board's black margins) the
blue shows again.
"""

from __future__ import annotations

from dataclasses import replace

from hard_scenes import false_tiles, score_hard_scene

from vision.detect import DetectorSettings
from vision.evaluate import legal_board, random_board


def test_blue_symbols_under_warm_glare_are_grown() -> None:
    """Seed 61 random scene 4 (linear ISP; dark laminate, warm glare): a blue diamond and
    a blue star8 on warm glared margins beside the board are missed as read and read with
    the light's cast taken off; nothing false, nothing more read wrong."""
    s = DetectorSettings(
        glare_ramp=0.0, glare_cut_min_distance=0.0
    )  # (the glare resegmentation also grows it)
    off = score_hard_scene(
        61, 4, random_board, replace(s, grow_glare_paint_balanced=False), isp_space="linear"
    )
    on = score_hard_scene(61, 4, random_board, s, isp_space="linear")
    assert off.visible - off.matched_visible >= 3
    assert on.visible - on.matched_visible <= off.visible - off.matched_visible - 2
    assert false_tiles(on) <= false_tiles(off)
    assert on.matched - on.identity_ok <= off.matched - off.identity_ok


def test_a_purple_symbol_under_warm_glare_is_grown() -> None:
    """Seed 83 legal scene 51 (gamma ISP; checked cloth, dim warm light): a purple clover
    whose paint shows over its margin by 29 levels as read (``glare_min_paint_chroma``
    30) is read with the board's black made grey; nothing false. (Measured with growth's
    own looser bound off, ``grow_glare_min_paint_chroma``, which takes it too, and without
    the second reading on the look's own square, ``grow_unmoved_max_move``, which since
    2026-11-23 takes it either way.)"""
    s = replace(
        DetectorSettings(),
        grow_glare_min_paint_chroma=0.0,
        grow_unmoved_max_move=0.0,
        glare_ramp=0.0,  # (the glare resegmentation takes it too)
        glare_cut_min_distance=0.0,
    )
    off = score_hard_scene(83, 51, legal_board, replace(s, grow_glare_paint_balanced=False))
    on = score_hard_scene(83, 51, legal_board, s)
    assert off.visible - off.matched_visible >= 1
    assert on.visible - on.matched_visible <= off.visible - off.matched_visible - 1
    assert false_tiles(on) <= false_tiles(off)


def test_a_washed_green_paint_beside_the_board_is_grown() -> None:
    """Seed 67 random scene 54 (linear ISP; floral cloth, dim, glare): a green circle on a
    glared margin beside the board shows under 30 levels of paint over it
    (``glare_min_paint_chroma``) and is read at growth's own bound
    (``grow_glare_min_paint_chroma``); nothing false, nothing more read wrong."""
    s = DetectorSettings()
    off = score_hard_scene(
        67, 54, random_board, replace(s, grow_glare_min_paint_chroma=0.0), isp_space="linear"
    )
    on = score_hard_scene(67, 54, random_board, s, isp_space="linear")
    assert off.visible - off.matched_visible >= 1
    assert on.visible - on.matched_visible <= off.visible - off.matched_visible - 1
    assert false_tiles(on) <= false_tiles(off)
    assert on.matched - on.identity_ok <= off.matched - off.identity_ok
