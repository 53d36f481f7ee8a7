"""A read far off its cell on a board whose other reads sit close to theirs is no tile
(``DetectorSettings.offset_min_cells``, ``offset_min_spread``, ``offset_min_reads``).

The tiles of one board lie on one lattice: pushes spread every tile's offset from its cell
about alike, so a read that lies many times that spread away (and over an eighth of a cell)
is a cloth's motif that the lattice took in, or a guess beside a hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hard_scenes import false_tiles, score_hard_scene

from vision.detect import DetectorSettings
from vision.evaluate import legal_board, random_board

DEFAULT = DetectorSettings()
OFF = dataclasses.replace(DEFAULT, offset_min_cells=0.0)


@pytest.mark.parametrize(
    ("seed", "k", "make_board"),
    [
        # seed 29 legal scene 15, gamma render (floral cloth, 55 tiles; found 2026-11-23): a
        # flower of the cloth beside the board read as a tile
        (29, 15, legal_board),
        # seed 37 random scene 40, gamma render (white table, a hand): a guess beside the
        # hand, off the board's lattice
        (37, 40, random_board),
    ],
)
def test_a_read_off_the_boards_lattice_is_not_reported(
    seed: int, k: int, make_board: Callable[[np.random.Generator, int], Any]
) -> None:
    """The off-lattice read goes and leaves the board exact; every visible tile is still
    found and read as before."""
    on, off = (
        score_hard_scene(seed, k, make_board, DEFAULT),
        score_hard_scene(seed, k, make_board, OFF),
    )
    assert false_tiles(off) == 1
    assert false_tiles(on) == 0
    assert on.matched_visible == off.matched_visible == on.visible
    assert on.exact and not off.exact
