"""A cloth's motif read as many copies of one tile is no board (``DetectorSettings.
motif_kind_share``; forty-fifth session).

A set holds three of each tile (RULES.md section 1). On an empty checked cloth whose edge
meets a dark floor, a sleeve or a hand, the light checks along that edge sit in a dark
"margin" and read as a line of tiles of one colour and one or two shapes; the rule drops the
reads of a tile kind read more than three times that makes up a large share of the reading.
Fixed seeds of this repository's renderer, read with the rule and without it; never pixels.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from scorer.model import COPIES_PER_KIND, Board, Pos, Shape, Tile
from vision.detect import DetectorSettings, _motif_reads, detect
from vision.observation import TileObservation
from vision.render import Conditions, Rendered, render

DEFAULT = DetectorSettings()
OFF = dataclasses.replace(DEFAULT, motif_kind_share=0.0)


def _tiles(kinds: list[str]) -> list[TileObservation]:
    """Reads in one row, of kinds like ``"Ps"`` (colour letter, shape code)."""
    colours = {"R": "red", "O": "orange", "Y": "yellow", "G": "green", "B": "blue", "P": "purple"}
    shapes = {"c": Shape.CIRCLE, "s": Shape.SQUARE, "d": Shape.DIAMOND, "x": Shape.CLOVER}
    shapes |= {"*": Shape.STAR8, "k": Shape.STAR4}
    corners = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    return [
        TileObservation(
            Pos(0, i), Tile(colours[k[0]], shapes[k[1]]), 1.0, 1.0, (0.5 + i, 0.5), corners
        )
        for i, k in enumerate(kinds)
    ]


def test_a_board_of_one_kind_is_a_motif() -> None:
    assert _motif_reads(_tiles(["Ps"] * 9), DEFAULT).all()
    # a set's three copies are no surplus, however large their share
    assert not _motif_reads(_tiles(["Ps"] * COPIES_PER_KIND), DEFAULT).any()
    assert not _motif_reads(_tiles(["Ps"] * 3 + ["Gc"]), DEFAULT).any()


def test_kinds_are_taken_off_one_at_a_time() -> None:
    # 5 of 11 (0.45) go first; then 4 of the 6 left (0.67); the two single reads stay, and
    # so does the last "B*", beside the "Bc" (a tile of the motif's kind in a board's line)
    got = _motif_reads(_tiles(["Bs"] * 5 + ["B*"] * 4 + ["Bc", "Bd"]), DEFAULT)
    assert got.tolist() == [True] * 8 + [False] * 3


def test_a_tile_of_the_motifs_kind_in_a_line_of_the_board_stays() -> None:
    # a row of five other tiles and, apart from it (rows 2-3), six reads of one kind
    reads = _tiles(["Rc", "Os", "Gc", "Yd", "Bx"] + ["Gc"] * 6)
    reads = [
        dataclasses.replace(t, pos=Pos(2 + (i - 5) // 3, (i - 5) % 3 * 2)) if i >= 5 else t
        for i, t in enumerate(reads)
    ]
    got = _motif_reads(reads, DEFAULT)
    # 7 of 11 read "Gc": the six apart go, the one between "Os" and "Yd" stays
    assert got.tolist() == [False] * 5 + [True] * 6


def test_a_varied_board_keeps_every_read() -> None:
    # four copies of one kind among 30 (a random layout's surplus) is no motif
    kinds = ["Rc", "Os", "Yd", "Gx", "B*", "Pk"] * 4 + ["Rc"] + ["Gd", "Bs", "Yk", "O*", "Pc"]
    assert len(kinds) == 30
    assert not _motif_reads(_tiles(kinds), DEFAULT).any()
    assert not _motif_reads(_tiles(["Ps"] * 9), OFF).any()


def _empty_table(seed: int) -> Rendered:
    """An empty table under the hard conditions drawn from ``seed`` (a 1280x720 frame)."""
    cond = Conditions.sample(np.random.default_rng([seed, 77]), "hard")
    return render(Board({}), cond, seed=seed, size=(1280, 720))


@pytest.mark.parametrize("seed", [221, 223])
def test_checks_along_a_dark_edge_are_no_board(seed: int) -> None:
    image = _empty_table(seed).image_bgr
    on = detect(image, settings=DEFAULT)
    off = detect(image, settings=OFF)
    assert len(on.tiles) == 0, [str(t.tile) for t in on.tiles]
    # the case is real: without the rule the checks read as a line of tiles
    assert len(off.tiles) >= 5
