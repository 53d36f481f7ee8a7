"""A refit that loses the only link across a gap is made on the cells the last lattice gave
(``DetectorSettings.refit_known_cells_residual``).

Each refit of the lattice onto the candidates that read as tiles finds their cells anew by
linking neighbours. When the tile it leaves out was the one link across a gap in a line, the
line's far part was placed through a similarity and landed a step off its cells; those
tiles then failed their residual check and growth read the cells beside them.
"""

from __future__ import annotations

import dataclasses

from hard_scenes import false_tiles, score_hard_scene

from vision.detect import DetectorSettings
from vision.evaluate import random_board

ON = DetectorSettings()
OFF = dataclasses.replace(ON, refit_known_cells_residual=0.0)


def test_a_line_beyond_a_dropped_tile_keeps_its_cells() -> None:
    """Seed 79 random scene 11, linear render (white table, glare, 55 px askew tiles, a
    column line of five beyond a glare-washed red diamond): off, the refit puts the line a
    step off and 7 tiles are missed; on, one."""
    assert ON.refit_known_cells_residual > 0  # on by default
    on = score_hard_scene(79, 11, random_board, ON, "linear")
    off = score_hard_scene(79, 11, random_board, OFF, "linear")
    assert off.visible - off.matched_visible >= 5
    assert on.visible - on.matched_visible <= 2
    assert false_tiles(on) == false_tiles(off) == 0
    assert on.identity_ok == on.matched
