"""Growth seeded from blob reads a hand cuts off from the board (``DetectorSettings.blob_seed_*``).

An arm or a hand laid across the board hides the tiles under it, so growth from the board
stops there; the tiles beyond it, beside the hand, merge with its shadow and show no square
body of their own. Their holes are still on the board's lattice and their margins the board's
black paint: growth starts from them too. A floral cloth's dark flowers near the board keep a
chroma black paint has not, or lie off the lattice, and stay out.
"""

from __future__ import annotations

import dataclasses

from hard_scenes import false_tiles as _false
from hard_scenes import score_hard_scene

from vision.detect import DetectorSettings
from vision.evaluate import DetectionScore, legal_board, random_board

DEFAULT = DetectorSettings()
OFF = dataclasses.replace(DEFAULT, blob_seed_cells=0)


def _score(seed: int, k: int, legal: bool, settings: DetectorSettings) -> DetectionScore:
    return score_hard_scene(seed, k, legal_board if legal else random_board, settings)  # gamma


def test_a_tile_beyond_a_finger_is_read() -> None:
    """Seed 2026 random scene 16 (green felt, two hands): a blue clover two cells from the
    board, beyond a tile a finger hides, its body run into the hand's shadow, is read and
    named; nothing false comes (found 2026-11-22)."""
    on, off = _score(2026, 16, False, DEFAULT), _score(2026, 16, False, OFF)
    assert on.matched_visible == off.matched_visible + 1
    assert on.matched_visible == on.visible
    assert on.identity_ok >= off.identity_ok + 1
    assert _false(on) <= _false(off)


def test_a_part_of_the_board_beyond_an_arm_is_read() -> None:
    """Seed 23 legal scene 11 (an arm across the board): a tile three cells beyond the tiles
    read, cut off by the arm, is read; nothing false comes."""
    on, off = _score(23, 11, True, DEFAULT), _score(23, 11, True, OFF)
    assert on.matched_visible >= off.matched_visible + 1
    assert on.identity_ok >= off.identity_ok + 1
    assert _false(on) <= _false(off)


def test_a_floral_cloths_dark_flowers_stay_out() -> None:
    """Seeds 13 and 31 random scenes 3 and 31 (floral cloths): dark flowers with a bright
    centre near the board read as blobs passing the other checks, but their margins keep the
    cloth's chroma (0.24-0.27) or they lie off the lattice (0.32-0.34 cells): no false tile
    more, no tile less."""
    for seed, k in ((13, 3), (31, 31)):
        on, off = _score(seed, k, False, DEFAULT), _score(seed, k, False, OFF)
        assert _false(on) == _false(off)
        assert on.matched_visible >= off.matched_visible
