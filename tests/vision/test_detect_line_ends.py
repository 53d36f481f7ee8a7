"""Growth's line ends, found once while no tile joins (``_line_ends``).

Growth's rounds looked for the lines a gap may follow (``grow_bridge_cells``) over every tile
and direction in every round, also in the rounds that take nothing (``grow_bridge_empty``);
the ends are now kept until a tile joins. These tests pin that the kept list is exactly the
(tile, direction) pairs the per-round test let through, in the same order (the first end to
reach a far cell gives it its offset).
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.detect import _line_ends


def _walked(taken: set[tuple[int, int]], min_line: int) -> list[tuple[int, int, int, int]]:
    """The per-round test as growth ran it before: a line of ``min_line`` leads into the
    direction, and the next cell is no tile (a gap's first cell)."""
    out = []
    for r, c in taken:
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            if any((r - q * dr, c - q * dc) not in taken for q in range(1, min_line)):
                continue
            if (r + dr, c + dc) in taken:
                continue
            out.append((r, c, dr, dc))
    return out


@pytest.mark.parametrize("min_line", [1, 2, 3])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_line_ends_are_the_pairs_the_round_walk_tested_in_its_order(
    seed: int, min_line: int
) -> None:
    rng = np.random.default_rng(seed)
    # a random board-like set: lines of tiles on a 12 x 12 grid, some cells left out
    grid = rng.random((12, 12)) < 0.55
    taken = {(int(r), int(c)) for r, c in np.argwhere(grid)}
    ends = _line_ends(taken, min_line)
    assert ends == _walked(taken, min_line)
    assert len(ends) > 0
    # every end leads out of the board: its next cell is free, the cells behind are tiles
    for r, c, dr, dc in ends:
        assert (r + dr, c + dc) not in taken
        assert all((r - q * dr, c - q * dc) in taken for q in range(min_line))


def test_a_complete_line_has_two_ends() -> None:
    taken = {(0, c) for c in range(5)}
    assert sorted(_line_ends(taken, 2)) == [(0, 0, 0, -1), (0, 4, 0, 1)]
    assert _line_ends({(3, 3)}, 2) == []
