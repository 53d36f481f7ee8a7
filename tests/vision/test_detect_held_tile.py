"""A read with no read on any of its four sides whose symbol lies far from its lattice cell's
centre is off the table's plane: a tile held in a hand above the board, lifted and turned, falls
between the cells (``DetectorSettings.lone_max_cell_offset``). It is not on the board and is
not reported.
"""

from __future__ import annotations

import dataclasses

from hard_scenes import false_tiles, score_hard_scene

from vision.detect import DetectorSettings
from vision.evaluate import DetectionScore, random_board

DEFAULT = DetectorSettings()
# (the off-lattice check of branch false21 off in both arms: it takes the held tile too)
ALONE = dataclasses.replace(DEFAULT, offset_min_cells=0.0)
OFF = dataclasses.replace(ALONE, lone_max_cell_offset=0.0)


def _score(settings: DetectorSettings) -> DetectionScore:
    # seed 71 random scene 1, gamma render (light wood, a hand holding a yellow square a
    # cell and a half above the board; found 2026-11-23): the held tile read as a tile
    return score_hard_scene(71, 1, random_board, settings)


def test_a_tile_held_off_the_lattice_is_not_reported() -> None:
    """The held tile (a false tile without the check) goes; every visible tile stays and
    reads the same."""
    on, off = _score(ALONE), _score(OFF)
    assert false_tiles(off) >= 1
    assert false_tiles(on) == false_tiles(off) - 1
    assert on.matched_visible == off.matched_visible
    assert on.matched - on.identity_ok == off.matched - off.identity_ok
    default = _score(DEFAULT)
    assert false_tiles(default) <= false_tiles(on)
    assert default.matched_visible == on.matched_visible
