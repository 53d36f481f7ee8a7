"""One test per placement rule, per violation and per scoring rule (RULES.md section 1)."""

from __future__ import annotations

import pytest

from scorer.model import Board, Placement, Pos, Tile
from scorer.rules import (
    IllegalPlacementError,
    board_violations,
    is_legal,
    lines_of,
    score_placement,
    validate_placement,
)

P = Placement.parse
RED3 = Board.from_ascii("Rs Rc Rd")  # (0,0) (0,1) (0,2)


def codes(board: Board, text: str, **kw: bool | None) -> list[str]:
    return [v.code for v in validate_placement(board, P(text), **kw)]


# -- legal shapes of a placement -------------------------------------------------------------


def test_extending_a_line_at_one_end_is_legal_and_scores_the_whole_line() -> None:
    assert codes(RED3, "Rk@0,3") == []
    s = score_placement(RED3, P("Rk@0,3"))
    assert s.points == 4 and len(s.lines) == 1
    (line,) = s.lines
    assert line.direction == "row" and line.length == 4 and not line.qwirkle
    assert line.cells == (Pos(0, 0), Pos(0, 1), Pos(0, 2), Pos(0, 3))


def test_tiles_at_both_ends_of_a_line_need_not_touch_each_other() -> None:
    # de "Anlegen": "ein Stein vorne in einer Reihe und gleichzeitig ein Stein hinten"
    assert codes(RED3, "Rk@0,-1 Rx@0,3") == []
    assert score_placement(RED3, P("Rk@0,-1 Rx@0,3")).points == 5


def test_a_tile_in_two_lines_scores_for_both() -> None:
    # de "Wertung": Antje's yellow circle scores 2 + 2
    board = Board.from_ascii("Ys .\n.  Rc")
    s = score_placement(board, P("Yc@0,1"))
    assert s.points == 4
    assert sorted(ln.direction for ln in s.lines) == ["col", "row"]


def test_completing_a_line_of_six_is_a_qwirkle_worth_twelve() -> None:
    board = Board.from_ascii("Rs Rc Rd Rk Rx")
    s = score_placement(board, P("R*@0,5"))
    assert s.points == 12 and s.qwirkle and s.lines[0].qwirkle and s.lines[0].points == 12
    assert "Qwirkle" in s.explain()


def test_two_qwirkles_in_one_move_each_get_the_bonus() -> None:
    board = Board.from_ascii(
        "Rs Rc Rd Rk Rx .\n.  .  .  .  .  B*\n.  .  .  .  .  G*\n"
        ".  .  .  .  .  Y*\n.  .  .  .  .  O*"
    )
    s = score_placement(board, P("R*@0,5 P*@5,5"))
    assert is_legal(board, P("R*@0,5 P*@5,5"))
    assert s.points == 24 and sum(ln.qwirkle for ln in s.lines) == 2


def test_lone_first_tile_scores_one() -> None:
    s = score_placement(Board(), P("Rs@0,0"))
    assert s.points == 1 and s.lone and s.lines == ()
    assert codes(Board(), "Rs@0,0") == []


def test_first_turn_line_scores_its_length() -> None:
    assert codes(Board(), "Rs@0,0 Rc@0,1 Rd@0,2") == []
    assert score_placement(Board(), P("Rs@0,0 Rc@0,1 Rd@0,2")).points == 3


def test_same_shape_line_with_different_colours_is_legal() -> None:
    board = Board.from_ascii("Rs Bs")
    assert codes(board, "Gs@0,2") == []


# -- each violation --------------------------------------------------------------------------


def test_empty_placement() -> None:
    assert codes(RED3, "") == ["empty"]


def test_occupied_cell_names_both_tiles() -> None:
    (v,) = validate_placement(RED3, P("Rk@0,1"))
    assert v.code == "occupied" and v.cells == (Pos(0, 1),)
    assert "red circle" in v.message and "red clover" in v.message


def test_two_tiles_on_the_same_cell() -> None:
    assert "same_cell" in codes(RED3, "Rk@0,3 Rx@0,3")


def test_tiles_not_in_one_row_or_column() -> None:
    got = codes(RED3, "Rk@0,3 Rx@1,2")
    assert "not_in_line" in got


def test_gap_in_the_line_names_the_empty_cell() -> None:
    vs = validate_placement(RED3, P("Rk@0,3 Rx@0,5"))
    gap = [v for v in vs if v.code == "gap"]
    assert len(gap) == 1 and gap[0].cells == (Pos(0, 4),) and "(0,4)" in gap[0].message


def test_gap_filled_by_tiles_already_on_the_table_is_fine() -> None:
    assert codes(RED3, "Rk@0,-1 Rx@0,3") == []


def test_not_touching_the_table() -> None:
    # de "Die Steine passen nicht", 4: "Der Stein hat keinen Kontakt zu anderen Steinen"
    assert codes(RED3, "Bs@5,5") == ["not_touching"]


def test_first_turn_flag_overrides_touching() -> None:
    assert codes(RED3, "Bs@5,5", first_turn=True) == []
    assert codes(Board(), "Bs@5,5", first_turn=False) == ["not_touching"]


def test_placed_tiles_must_share_colour_or_shape() -> None:
    got = codes(RED3, "Rk@0,3 Bx@1,3")
    assert "mixed_line" in got  # the column Rk/Bx shares nothing
    got = codes(RED3, "Rk@0,3 Bx@5,5")
    assert "mixed_tiles" in got and "not_in_line" in got


def test_mixed_line_explains_which_line() -> None:
    # de example 5: a purple circle fits the purple square but not the yellow row
    board = Board.from_ascii("Yc Ys .\n.  .  Ps")
    vs = validate_placement(board, P("Pc@0,2"))
    assert [v.code for v in vs] == ["mixed_line"]
    assert "row" in vs[0].message and "purple circle" in vs[0].message
    assert vs[0].cells == (Pos(0, 0), Pos(0, 1), Pos(0, 2))


def test_duplicate_tile_in_a_line() -> None:
    # de examples 2+3: "Dieses Symbol gibt es in der Reihe bereits"
    vs = validate_placement(RED3, P("Rc@0,3"))
    assert [v.code for v in vs] == ["duplicate_tile"]
    assert "red circle" in vs[0].message


def test_line_longer_than_six() -> None:
    # de example 1: the 7th stone in the yellow row
    board = Board.from_ascii("Ys Yc Yd Yk Yx Y*")
    vs = validate_placement(board, P("Yc@0,6"))
    assert {v.code for v in vs} == {"line_too_long", "duplicate_tile"}


def test_more_than_three_copies_of_a_kind() -> None:
    board = Board.from_ascii("Rs Bs\n.  .\nRs Gs\n.  .\nRs Ys")
    vs = validate_placement(board, P("Rs@6,0 Rc@6,1"), first_turn=True)
    assert [v.code for v in vs] == ["too_many_copies"]
    assert len(vs[0].cells) == 4 and "4 copies" in vs[0].message


def test_every_violation_is_reported_at_once() -> None:
    got = set(codes(RED3, "Rc@0,1 Bx@4,4 Gd@6,6"))
    assert {"occupied", "not_in_line", "not_touching", "mixed_tiles"} <= got


def test_score_with_check_raises_for_an_illegal_placement() -> None:
    with pytest.raises(IllegalPlacementError, match="touches a tile"):
        score_placement(RED3, P("Bs@5,5"), check=True)
    assert score_placement(RED3, P("Rk@0,3"), check=True).points == 4


def test_plain_dict_board_and_tuple_positions_work() -> None:
    board = {Pos(0, 0): Tile.parse("Rs")}
    assert validate_placement(board, Placement.of([((0, 1), Tile.parse("Rc"))])) == []


# -- whole-board checks ------------------------------------------------------------------------


def test_lines_of_lists_maximal_runs_only() -> None:
    board = Board.from_ascii("Rs Rc .  Bs\nGs .  .  .")
    lines = lines_of(board)
    assert [(ln.direction, ln.length) for ln in lines] == [("row", 2), ("col", 2)]


def test_board_violations_find_impossible_states() -> None:
    board = Board.from_ascii("Rs Bc\nRs\nRs\nRs")
    got = sorted(v.code for v in board_violations(board))
    assert got == ["duplicate_tile", "mixed_line", "too_many_copies"]
    assert board_violations(Board.from_ascii("Rs Rc Rd")) == []
