"""Tiles a hand touches the symbol of, read from the part it leaves (``partial_*``).

Growth never reads a symbol that touches an occluder: its hidden directions make the
classifier read a covered diamond as a circle with full confidence. The part left is compared
with each prototype over the seen pixels only; a tile is read when one prototype fits it and
no other comes close, and a part that fits a diamond and a clover alike stays unread.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from hard_scenes import false_tiles as _false
from hard_scenes import score_hard_scene

from scorer.model import Shape
from vision.detect import DetectorSettings
from vision.evaluate import legal_board, random_board
from vision.shapes import (
    SHAPE_ORDER,
    ShapeSettings,
    prototype_mask,
    visible_mismatch,
    visible_separation,
)

DEFAULT = DetectorSettings()
OFF = dataclasses.replace(DEFAULT, partial_max_mismatch=0.0)


def test_tiles_beside_fingers_are_read_right() -> None:
    """Seed 23 random scene 50 (gamma; fingers over a line's end): tiles whose symbols touch
    a fingertip are read, each right, and nothing false comes (found 2026-11-22)."""
    on = score_hard_scene(23, 50, random_board, DEFAULT)
    off = score_hard_scene(23, 50, random_board, OFF)
    assert on.matched_visible >= off.matched_visible + 2
    assert on.identity_ok - off.identity_ok == on.matched - off.matched
    assert _false(on) <= _false(off)


def test_a_part_bounded_by_the_hands_straight_edge_is_read() -> None:
    """Seed 2026 legal scene 9 (gamma; a checked cloth, a hand below a yellow star4): the
    hand's edge runs straight along the part read, which the cut test (``cut_chord_max``)
    alone would take for a symbol cut by a hand; the part decides the star4 and it is read."""
    on = score_hard_scene(2026, 9, legal_board, DEFAULT)
    off = score_hard_scene(2026, 9, legal_board, OFF)
    assert on.matched_visible >= off.matched_visible + 1
    assert on.identity_ok >= off.identity_ok + 1
    assert _false(on) <= _false(off)


def _half_hidden(shape: Shape, p: int = 48) -> tuple[np.ndarray, np.ndarray]:
    score = (prototype_mask(shape, p, 0.04) > 0).astype(np.float32)[None]
    seen = np.ones((1, p, p), bool)
    seen[0, :, : p // 2] = False  # a hand over the left half
    score[~seen] = 0.0
    return score, seen


def test_the_seen_part_of_a_star4_decides_it() -> None:
    """A star4 with its left half hidden fits the star4 prototype far better than any other."""
    score, seen = _half_hidden(Shape.STAR4)
    mm = visible_mismatch(score, seen, np.array([0.04]), 1.0, ShapeSettings())
    order = np.argsort(mm[0])
    assert SHAPE_ORDER[order[0]] is Shape.STAR4
    assert mm[0, order[1]] - mm[0, order[0]] >= DEFAULT.partial_min_lead


def test_a_diamond_and_a_clover_are_never_told_apart_from_a_part() -> None:
    """The two prototypes, blurred as the cached renders' symbols (0.04 of the side), differ
    less than ``partial_min_separation`` over a half seen tile."""
    _, seen = _half_hidden(Shape.DIAMOND)
    d, c = SHAPE_ORDER.index(Shape.DIAMOND), SHAPE_ORDER.index(Shape.CLOVER)
    sep = visible_separation(np.array([d]), np.array([c]), seen, np.array([0.04]), 1.0)
    assert sep[0] < DEFAULT.partial_min_separation
