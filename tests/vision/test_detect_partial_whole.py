"""A whole symbol beside a hand that covers part of its tile's margin is read
(``DetectorSettings.partial_whole_symbols``).

Growth reads a free cell on a square re-centred on its symbol; a hand over a corner of the
tile then may cover more (or less) of that square's margin band than its retry without the
occluder takes, and the cell failed. :func:`vision.detect._read_partly_covered` read only
symbols the hand touches; one it leaves whole is now judged by growth's own checks on that
reading (the occluder left out of the margin).
"""

from __future__ import annotations

import dataclasses

from hard_scenes import false_tiles, score_hard_scene

from vision.detect import DetectorSettings
from vision.evaluate import legal_board, random_board

ON = DetectorSettings()
OFF = dataclasses.replace(ON, partial_whole_symbols=False)


def test_a_glared_circle_whose_corner_an_arm_covers_is_read() -> None:
    """Seed 79 legal scene 38, linear render (green felt, glared grey bodies, 26 px tiles):
    an arm over 15 % of a green circle's tile, its symbol clear. Off, that tile is the
    scene's one miss; on, the board is exact."""
    assert ON.partial_whole_symbols  # on by default
    on = score_hard_scene(79, 38, legal_board, ON, "linear")
    off = score_hard_scene(79, 38, legal_board, OFF, "linear")
    assert off.matched_visible == off.visible - 1
    assert on.matched_visible == on.visible
    assert on.exact == 1
    assert false_tiles(on) == false_tiles(off) == 0


def test_a_random_board_beside_a_hand_gains_its_tile_and_nothing_false() -> None:
    """Seed 59 random scene 27, gamma render: the same miss on a random board (its one
    miss off; exact on)."""
    on = score_hard_scene(59, 27, random_board, ON, "gamma")
    off = score_hard_scene(59, 27, random_board, OFF, "gamma")
    assert on.matched_visible == off.matched_visible + 1 == on.visible
    assert false_tiles(on) == false_tiles(off)
    assert on.exact == 1
