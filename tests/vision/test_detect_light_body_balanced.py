"""A glared board found by the light-body search is judged under the light that search
balanced to (``DetectorSettings.light_body_balanced``).

The light-body search (``light_body_*``) finds the symbols of a board whose black bodies
glare washed to grey, in the neutral mask balanced to the image's brightest light. Its holes
are strong (the lattice is fitted to them), and the look-alike checks took no light balance
for strong holes: under a warm lamp the washed margins keep the lamp's cast (saturation
0.5-0.6 unbalanced, over ``body_max_saturation`` 0.45), so nearly every tile the search
found was turned down again. The search also runs when the first reading found fewer than
``light_body_few_tiles`` tiles, whatever their share of the holes.
"""

from __future__ import annotations

import dataclasses

from hard_scenes import false_tiles, score_hard_scene

from vision.detect import DetectorSettings
from vision.evaluate import random_board

ON = DetectorSettings()
OFF = dataclasses.replace(ON, light_body_balanced=False)


def test_a_warm_glared_board_on_a_checked_cloth_is_read() -> None:
    """Seed 157 random scene 29, linear render (30 tiles of 36 px, glared grey under a warm
    dim lamp, on a red gingham whose checks are half a tile): off, the search's board loses
    all but 2 tiles to the saturation check; on, every tile is read. One false tile since the
    clipped symbols bound the exposure (``ColourSettings.clip_exposure_quantile``): a cream
    check beside the board named a green square (0 with the bound off)."""
    assert ON.light_body_balanced  # on by default
    on = score_hard_scene(157, 29, random_board, ON, "linear")
    off = score_hard_scene(157, 29, random_board, OFF, "linear")
    assert off.matched_visible <= 4 < on.visible
    assert on.matched_visible >= on.visible - 1
    assert false_tiles(off) == 0
    assert false_tiles(on) <= 1


def test_the_search_runs_when_the_first_reading_found_a_few_tiles() -> None:
    """The same scene rendered in gamma: the dark mask finds 5 holes, 2 of which read as
    tiles, more than ``light_body_max_share`` of them, so the search ran only by
    ``light_body_few_tiles``."""
    assert ON.light_body_few_tiles >= 8
    on = score_hard_scene(157, 29, random_board, ON, "gamma")
    share_only = score_hard_scene(
        157, 29, random_board, dataclasses.replace(ON, light_body_few_tiles=0), "gamma"
    )
    assert share_only.matched_visible <= 4 < on.visible
    assert on.matched_visible >= on.visible - 1
    assert false_tiles(on) == false_tiles(share_only) == 0
