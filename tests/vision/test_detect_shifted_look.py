"""Growth looks again off the lattice's cell where no centred look finds a symbol
(``grow_shift_look``).

A lattice bent away from a far arm, or a line of tiles pushed along itself, puts a free
cell beside the board a fifth to a third of a tile off its tile: every look centred on the
cell has part of its margin band on the table, and none finds the symbol. Looks shifted a
quarter of a tile along the lattice's axes find it, and the cell is read and judged there.
"""

from __future__ import annotations

from dataclasses import replace

from tests.vision.hard_scenes import false_tiles, score_hard_scene
from vision.detect import DetectorSettings
from vision.evaluate import legal_board


def test_a_line_pushed_off_the_lattice_is_grown_with_shifted_looks() -> None:
    """Seed 61 legal scene 53 (gamma; white table, glare, oblique, tiny tiles, askew): the
    arm leading right from the board's corner sits about a quarter of a tile along itself
    off the lattice; three of its tiles (an orange, a red and a yellow star8) were missed,
    the looks centred on their cells a quarter of a tile short of them. With the shifted
    looks at most one is missed, and nothing false is added."""
    s = DetectorSettings()
    off = score_hard_scene(61, 53, legal_board, replace(s, grow_shift_look=0.0))
    on = score_hard_scene(61, 53, legal_board, s)
    assert off.visible - off.matched_visible >= 3
    assert on.visible - on.matched_visible <= 1
    assert false_tiles(on) <= false_tiles(off)
