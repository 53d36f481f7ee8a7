"""A tile alone beyond a hand whose dark region it shares (``lone_shared_vouched``).

Tiles are played touching the board, so a read with no other within ``isolated_cells`` cells
must show its own square body. A hand across a line hides the tiles that link the last one to
the board, and that tile's body runs into the hand's shadow or a sleeve: its region is shared,
no square. When its margin is the board's own black (the ``lone_blob_*`` bounds) it is kept,
and growth reads on from it.
"""

from __future__ import annotations

import dataclasses

from hard_scenes import false_tiles, score_hard_scene

from vision.detect import DetectorSettings
from vision.evaluate import legal_board, random_board

DEFAULT = DetectorSettings()
OFF = dataclasses.replace(DEFAULT, lone_shared_vouched=False)
NO_EMPTY = dataclasses.replace(DEFAULT, grow_bridge_empty=False)


def test_a_tile_beyond_a_hand_on_a_cloth_is_read() -> None:
    """Seed 29 random scene 42, linear render (plain cloth, glare, big tiles): the tile past
    the fingers, two cells from any other read, is found; nothing false comes."""
    # (growth looking past a round that found nothing, ``grow_bridge_empty``, reaches that
    # tile too: it is off in both, so the check is measured alone)
    on = score_hard_scene(29, 42, random_board, NO_EMPTY, isp_space="linear")
    off = score_hard_scene(
        29, 42, random_board, dataclasses.replace(OFF, grow_bridge_empty=False), "linear"
    )
    assert on.matched_visible == off.matched_visible + 1
    assert false_tiles(on) <= false_tiles(off)
    assert on.identity_ok >= off.identity_ok + 1


def test_a_tile_beyond_a_sleeve_on_a_printed_grid_is_read() -> None:
    """Seed 59 legal scene 58, gamma render (printed grid, glare, a sleeve across the board):
    the tile above the sleeve is read, and none of the grid's printed cells."""
    on = score_hard_scene(59, 58, legal_board, DEFAULT)
    off = score_hard_scene(59, 58, legal_board, OFF)
    assert on.matched_visible == off.matched_visible + 1
    assert false_tiles(on) == false_tiles(off)
