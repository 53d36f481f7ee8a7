"""Growth looks past a gap even when the round that looked at the gap found nothing.

A hand over the end of an arm of the board hides the tiles next to the board; every cell
growth looks at in that round fails, and before ``DetectorSettings.grow_bridge_empty`` such a
round ended growth, so the bridge past the gap (``grow_bridge_cells``) was never looked at and
the visible tiles beyond the hand were missed. Tiles the brief counts hidden (more than a
quarter covered) stay unreported.
"""

from __future__ import annotations

import dataclasses

from hard_scenes import false_tiles, score_hard_scene

from vision.detect import DetectorSettings
from vision.evaluate import DetectionScore, legal_board

ON = dataclasses.replace(DetectorSettings(), grow_bridge_empty=True)
OFF = dataclasses.replace(DetectorSettings(), grow_bridge_empty=False)


def _score(settings: DetectorSettings) -> DetectionScore:
    # seed 127 legal scene 40, gamma render (found 2026-11-23): a hand over an arm of the
    # board hides the tiles next to it; six visible tiles lie beyond
    return score_hard_scene(127, 40, legal_board, settings)


def test_the_tiles_beyond_a_hand_that_ends_growth_are_read() -> None:
    """The tiles beyond the hand are found and read right; nothing false is added."""
    on, off = _score(ON), _score(OFF)
    assert off.visible - off.matched_visible >= 4
    assert on.matched_visible >= off.matched_visible + 4
    assert false_tiles(on) <= false_tiles(off)
    assert on.identity_ok - off.identity_ok >= on.matched_visible - off.matched_visible
