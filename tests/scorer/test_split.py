"""Two moves without a settle: the split search (scorer.infer.split_moves), and a Review's
``splits`` through the record, its JSON schema and the store (old records and rows still load)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from scorer.game import Game, Place, Review, replay
from scorer.infer import SplitSettings, split_moves
from scorer.model import Board, Placement
from scorer.record import dump_record, load_record, schema
from scorer.rules import validate_placement
from scorer.store import GameStore, decode_event, encode_event

ROW = Board.from_ascii("Rs Rc Rd")


def _legal_pair(before: Board, first: Placement, second: Placement) -> bool:
    return not validate_placement(before, first, first_turn=not before) and not (
        validate_placement(before.with_tiles(first.tiles), second, first_turn=False)
    )


def test_two_single_tiles_in_two_places_split_both_ways() -> None:
    splits = split_moves(ROW, Placement.parse("Bs@1,0 Od@1,2"))
    assert set(splits) == {
        (Placement.parse("Bs@1,0"), Placement.parse("Od@1,2")),
        (Placement.parse("Od@1,2"), Placement.parse("Bs@1,0")),
    }
    assert splits[0][0] == Placement.parse("Bs@1,0")  # cell order: deterministic


def test_two_lines_split_only_in_the_order_that_is_legal() -> None:
    # a column under the red square, then a row that only touches that column
    added = Placement.parse("Bs@1,0 Gs@2,0 Gc@2,1 Gd@2,2")
    splits = split_moves(ROW, added)
    assert set(splits) == {
        (Placement.parse("Bs@1,0 Gs@2,0"), Placement.parse("Gc@2,1 Gd@2,2")),
        (Placement.parse("Bs@1,0"), Placement.parse("Gs@2,0 Gc@2,1 Gd@2,2")),
    }
    # the row first touches nothing on the table: never offered
    assert all(a != Placement.parse("Gc@2,1 Gd@2,2") for a, _ in splits)
    assert all(_legal_pair(ROW, a, b) for a, b in splits)
    assert {p for a, b in splits for p in (*a.positions, *b.positions)} == set(added.positions)


def test_the_opening_turn_can_be_the_first_part() -> None:
    splits = split_moves(Board(), Placement.parse("Rs@0,0 Rc@0,1 Bc@1,1"))
    assert (Placement.parse("Rs@0,0 Rc@0,1"), Placement.parse("Bc@1,1")) in splits
    assert all(_legal_pair(Board(), a, b) for a, b in splits)


def test_no_split_when_the_final_table_has_an_invalid_line() -> None:
    # the green circle next to the blue square makes a mixed row whatever the order
    assert split_moves(ROW, Placement.parse("Bs@1,0 Gc@1,1 Yd@1,2")) == ()
    # one tile, or a diff that is one legal move anyway, is never split into two here
    assert split_moves(ROW, Placement.parse("Bs@1,0")) == ()


def test_limits_hand_size_and_count() -> None:
    # five tiles in one column under the row, parts of at most 2 tiles: 2 + 2 < 5, no split
    added = Placement.parse("Bs@1,0 Gs@2,0 Ys@3,0 Os@4,0 Ps@5,0")
    assert split_moves(ROW, added, settings=SplitSettings(max_part=2)) == ()
    many = split_moves(ROW, Placement.parse("Bs@1,0 Od@1,2"), settings=SplitSettings(max_splits=1))
    assert len(many) == 1
    assert (
        split_moves(ROW, Placement.parse("Bs@1,0 Od@1,2"), settings=SplitSettings(max_tiles=1))
        == ()
    )


def test_a_long_diff_is_searched_in_a_bounded_number_of_checks() -> None:
    # two perpendicular full lines: every subset of each line is a candidate part
    board = Board.from_ascii("Bk")
    added = Placement.parse(
        "Rk@-1,0 Rs@-1,1 Rc@-1,2 Rd@-1,3 R4@-1,4 R8@-1,5 Gk@1,0 Yk@2,0 Ok@3,0 Pk@4,0"
    )
    # a split needs two legality checks: one check is not enough to find any
    assert split_moves(board, added, settings=SplitSettings(max_checks=1)) == ()
    full = split_moves(board, added)
    assert full and all(_legal_pair(board, a, b) for a, b in full)


def _review() -> Review:
    return Review(
        1,
        "tiles added in more than one place",
        Placement.parse("Bs@1,0 Od@1,2"),
        (Placement.parse("Bs@1,0"),),
        42,
        ((Placement.parse("Bs@1,0"), Placement.parse("Od@1,2")),),
    )


def _game() -> Game:
    return Game(
        players=("Ann", "Ben"),
        events=(Place(0, Placement.parse("Rs@0,0 Rc@0,1 Rd@0,2")), _review()),
    )


def test_record_round_trip_and_schema() -> None:
    game = _game()
    record = dump_record(game)
    jsonschema.validate(record, schema())
    assert record["turns"][1]["review"]["splits"] == [
        [
            [{"row": 1, "col": 0, "color": "blue", "shape": "square"}],
            [{"row": 1, "col": 2, "color": "orange", "shape": "diamond"}],
        ]
    ]
    assert load_record(record) == game
    # a record written before splits existed: no key, loads with none
    old = json.loads(json.dumps(record))
    del old["turns"][1]["review"]["splits"]
    jsonschema.validate(old, schema())
    assert load_record(old).events[1].splits == ()  # type: ignore[union-attr]


def test_record_rejects_a_split_without_two_turns() -> None:
    import pytest

    from scorer.record import RecordError

    record = dump_record(_game())
    record["turns"][1]["review"]["splits"] = [[record["turns"][1]["review"]["seen"]]]
    with pytest.raises(RecordError, match=r"turns\[1\]\.review\.splits\[0\]"):
        load_record(record)


def test_store_round_trip_keeps_splits_and_reads_old_rows(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    gid = store.create_game(["Ann", "Ben"])
    for ev in _game().events:
        store.append(gid, ev)
    store.close()
    again = GameStore(tmp_path / "games.sqlite3")
    assert again.game(gid) == _game()
    assert replay(again.game(gid)).turns[1].kind == "review"
    plain = Review(0, "r", Placement.parse("Bs@1,0"))
    assert "splits" not in encode_event(plain)["review"]  # unchanged form without splits
    assert decode_event(encode_event(plain)) == plain
    assert decode_event(encode_event(_review())) == _review()


def test_store_correct_many_is_one_transaction(tmp_path: Path) -> None:
    import pytest

    store = GameStore(tmp_path / "games.sqlite3")
    gid = store.create_game(["Ann", "Ben"])
    for ev in _game().events:
        store.append(gid, ev)
    a, b = _review().splits[0]
    with pytest.raises(IndexError):  # the second edit is out of range: nothing is stored
        store.correct_many(gid, [("replace", 1, Place(1, a)), ("replace", 7, Place(0, b))])
    assert store.game(gid) == _game()
    store.correct_many(gid, [("replace", 1, Place(1, a)), ("insert", 2, Place(0, b))])
    assert store.game(gid).events[1:] == (Place(1, a), Place(0, b))
    assert [e.op for e in store.log(gid)][-2:] == ["replace", "insert"]
