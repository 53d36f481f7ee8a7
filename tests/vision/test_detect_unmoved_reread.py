"""Growth reads a cell that fails on the square moved onto its symbol once more on the square
the look found it in (``DetectorSettings.grow_unmoved_max_move``).

A glint, a finger's edge or blur makes a symbol lopsided; its centroid then pulls the square
growth re-centres on it a little off the tile, the moved square's margin band takes in table
on one side and the cell fails, though the look's own square sat on the tile.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
import pytest
from hard_scenes import false_tiles, score_hard_scene

from vision.detect import DetectorSettings
from vision.evaluate import legal_board, random_board

DEFAULT = DetectorSettings()
OFF = dataclasses.replace(DEFAULT, grow_unmoved_max_move=0.0)


@pytest.mark.parametrize(
    ("seed", "k", "make_board", "isp_space"),
    [
        # seed 37 random scene 14 (dark wood, oblique, a hand; found 2026-11-23)
        (37, 14, random_board, "gamma"),
        # seed 61 legal scene 35 (green felt, tiny tiles, a hand)
        (61, 35, legal_board, "linear"),
    ],
)
def test_a_cell_failing_on_the_moved_square_is_read_on_the_looks_own(
    seed: int,
    k: int,
    make_board: Callable[[np.random.Generator, int], Any],
    isp_space: Literal["gamma", "linear"],
) -> None:
    """The tile missed without the second reading is found and read right; nothing false."""
    on = score_hard_scene(seed, k, make_board, DEFAULT, isp_space)
    off = score_hard_scene(seed, k, make_board, OFF, isp_space)
    assert off.matched_visible == off.visible - 1
    assert on.matched_visible == on.visible
    assert on.identity_ok == on.matched and false_tiles(on) == 0
    assert on.exact and not off.exact
