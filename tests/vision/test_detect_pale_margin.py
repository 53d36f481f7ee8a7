"""A read whose margin is several times lighter than the board's black and whose symbol is off
every paint is no tile (``DetectorSettings.pale_margin_colour_distance``,
``pale_margin_body_ratio``).

A checked cloth's pale checks, read in cells beside the board where the neighbours' black
sides frame them, kept a symbol within 32 of a paint (the doubt tests' bound) and a margin
whose grey hid the cloth's chroma; their margins are no black paint at all.
"""

from __future__ import annotations

import dataclasses

from hard_scenes import false_tiles as _false
from hard_scenes import score_hard_scene

from vision.detect import DetectorSettings
from vision.evaluate import legal_board

DEFAULT = DetectorSettings()
OFF = dataclasses.replace(DEFAULT, pale_margin_colour_distance=0.0)


def test_a_checked_cloths_pale_checks_beside_the_board_make_no_tiles() -> None:
    """Seed 97 legal scene 59, gamma render (checked cloth, big tiles; found 2026-11-23):
    eight checks beside the board read as tiles (8 -> 0 when measured); every tile found
    stays, and no tile reads worse."""
    on = score_hard_scene(97, 59, legal_board, DEFAULT, "gamma")
    off = score_hard_scene(97, 59, legal_board, OFF, "gamma")
    assert _false(off) >= 6
    assert _false(on) <= _false(off) - 6
    assert on.matched_visible == off.matched_visible
    assert on.matched - on.identity_ok <= off.matched - off.identity_ok
