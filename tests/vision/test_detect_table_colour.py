"""A read whose symbol and margin are both colours of the table around the board is the table's
own motif (``DetectorSettings.table_colour_distance``, ``table_colour_share``).

Noise and floral cloths' blots and a gingham's checks, read in cells beside the board, keep
symbols 10-30 from a paint and margins 1.0-1.6 x the board's black, which glared or dim tiles
reach too; but both their "symbol" and their "margin" are colours the cloth shows all around
the board, which a tile's black paint and printed symbol together hardly are.
"""

from __future__ import annotations

import dataclasses

from hard_scenes import false_tiles as _false
from hard_scenes import score_hard_scene

from vision.detect import DetectorSettings
from vision.evaluate import legal_board, random_board

# (the off-lattice check of branch false21 off in both arms: it takes some of the blots too)
DEFAULT = DetectorSettings(offset_min_cells=0.0)
OFF = dataclasses.replace(DEFAULT, table_colour_share=0.0)


def test_a_noise_cloths_blots_beside_the_board_make_no_tiles() -> None:
    """Seed 37 legal scene 2, linear render (noise cloth; found 2026-11-23): five lilac and
    purple blots beside the board read as tiles (5 -> 0 when measured); every tile found
    stays, and the board reads exactly."""
    on = score_hard_scene(37, 2, legal_board, DEFAULT, "linear")
    off = score_hard_scene(37, 2, legal_board, OFF, "linear")
    assert _false(off) >= 4
    assert _false(on) <= _false(off) - 4
    assert on.matched_visible == off.matched_visible
    assert on.matched - on.identity_ok <= off.matched - off.identity_ok


def test_a_ginghams_checks_among_a_glared_board_make_no_tiles() -> None:
    """Seed 89 random scene 53, linear render (checked cloth, glare, tiny tiles): the
    gingham's light checks on the board's lattice read as 32 tiles (32 -> 2 when measured);
    all eight tiles stay found."""
    on = score_hard_scene(89, 53, random_board, DEFAULT, "linear")
    off = score_hard_scene(89, 53, random_board, OFF, "linear")
    assert _false(off) >= 20
    assert _false(on) <= _false(off) - 20
    assert on.matched_visible == off.matched_visible
