"""The value model and its text notation."""

from __future__ import annotations

import pytest

from scorer.model import Board, NotationError, Placement, Pos, Shape, Tile, classic_kinds


def test_tile_notation_round_trips_for_every_classic_kind() -> None:
    kinds = classic_kinds()
    assert len(kinds) == 36 and len(set(kinds)) == 36
    for t in kinds:
        assert Tile.parse(str(t)) == t
        assert eval(repr(t)) == t  # repr is a constructor call


def test_custom_palette_colour_uses_braces() -> None:
    t = Tile.parse("{teal}k")
    assert t == Tile("teal", Shape.CLOVER) and str(t) == "{teal}k"


@pytest.mark.parametrize("bad", ["", "R", "Rq", "Zs", "{teal", "{Teal}s", "Rss"])
def test_bad_tile_notation_quotes_the_input(bad: str) -> None:
    with pytest.raises(NotationError) as e:
        Tile.parse(bad)
    assert repr(bad) in str(e.value) or bad.strip()[:1] in str(e.value)


def test_star_digits_are_accepted() -> None:
    assert Tile.parse("Y4") == Tile("yellow", Shape.STAR4)
    assert Tile.parse("G8") == Tile("green", Shape.STAR8)


def test_board_ascii_round_trip_and_repr() -> None:
    text = "Rs Rc .\n.  Bc B*"
    b = Board.from_ascii(text)
    assert b.to_ascii() == text
    assert b[Pos(1, 2)] == Tile("blue", Shape.STAR8)
    assert eval(repr(b)) == b
    assert Board.from_ascii(b.translated(3, -2).to_ascii()) == b


def test_board_rotation_four_times_is_identity() -> None:
    b = Board.from_ascii("Rs Rc Rd\n.  .  Bd")
    assert b.rotated(4) == b
    assert b.rotated(1) != b
    assert b.rotated(1).rotated(3) == b


def test_board_from_ascii_error_names_the_cell() -> None:
    with pytest.raises(NotationError, match="line 2, cell 1"):
        Board.from_ascii("Rs\nZz")


def test_placement_notation() -> None:
    p = Placement.parse("Rs@0,1 Rc@0,2")
    assert len(p) == 2 and p.positions == (Pos(0, 1), Pos(0, 2))
    assert Placement.parse(str(p)) == p and eval(repr(p)) == p
    with pytest.raises(NotationError):
        Placement.parse("Rs@0")
