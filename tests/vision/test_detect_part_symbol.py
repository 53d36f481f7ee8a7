"""A symbol far smaller than every printed kind is no whole symbol
(``DetectorSettings.part_max_kind_share``, ``part_max_smallest_share``, ``part_min_reads``).

One set prints every symbol of a kind at one size: a "symbol" well under its kind's size and
under the smallest kind's is a cloth's speck or what a hand leaves of a covered tile's
symbol (a tile more than a quarter covered is reported unseen, never guessed).
"""

from __future__ import annotations

import dataclasses

from hard_scenes import score_hard_scene

from vision.detect import DetectorSettings
from vision.evaluate import DetectionScore, legal_board

DEFAULT = DetectorSettings()
# the solid-symbol shares (``part_max_solid_share``, ``part_max_light_share``) drop this part
# too: all off
OFF = dataclasses.replace(
    DEFAULT,
    part_max_kind_share=0.0,
    part_max_solid_share=0.0,
    part_max_light_share=0.0,
    lone_max_cell_offset=0.0,
)


def _score(settings: DetectorSettings) -> DetectionScore:
    # seed 29 legal scene 14, gamma render (dark laminate, dim, big tiles, a hand; found
    # 2026-11-22): a red tile two thirds under the hand was guessed from the part left
    return score_hard_scene(29, 14, legal_board, settings)


def test_what_a_hand_leaves_of_a_symbol_is_not_guessed() -> None:
    """The covered tile's guess (a false tile) goes; every visible tile stays and reads the
    same."""
    on, off = _score(DEFAULT), _score(OFF)
    assert off.detected - off.correct_detections >= 1
    assert on.detected - on.correct_detections < off.detected - off.correct_detections
    assert on.matched_visible == off.matched_visible == on.visible
