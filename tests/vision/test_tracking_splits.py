"""Two moves without a settle: the tracker's Review offers the legal two-turn readings
(``Review.splits``) and still decides nothing."""

from __future__ import annotations

from test_tracking import kinds, new_tracker

from scorer.game import Place, Review, replay
from scorer.model import Board, Placement, Pos, Tile


def test_two_turns_without_a_settle_are_offered_as_splits_not_taken() -> None:
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc Rd")
    f.turn(Board(), b1)
    # Ben lays a blue square under the red square, Ann at once a green one under it and a
    # green row to the right: one settled diff, no legal single move
    after = b1.with_tiles(
        [
            (Pos(1, 0), Tile.parse("Bs")),
            (Pos(2, 0), Tile.parse("Gs")),
            (Pos(2, 1), Tile.parse("Gc")),
            (Pos(2, 2), Tile.parse("Gd")),
        ]
    )
    f.turn(b1, after)
    assert kinds(f.end()) == ["review"]
    ev = sink.game().events[-1]
    assert isinstance(ev, Review) and ev.player == 1
    assert "legal as two turns (2 way(s)" in ev.reason
    assert (Placement.parse("Bs@1,0 Gs@2,0"), Placement.parse("Gc@2,1 Gd@2,2")) in ev.splits
    assert len(ev.seen) == 4  # everything seen is kept
    res = replay(sink.game())
    assert res.turns[-1].points == 0 and res.next_player == 0  # nothing guessed


def test_a_legal_move_or_an_unsplittable_diff_has_no_splits() -> None:
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc Rd")
    f.turn(Board(), b1)
    assert isinstance(sink.game().events[-1], Place)
    bad = b1.with_tiles([(Pos(1, 0), Tile.parse("Gc")), (Pos(1, 2), Tile.parse("Yk"))])
    f.turn(b1, bad)
    f.end()
    ev = sink.game().events[-1]
    assert isinstance(ev, Review) and ev.splits == ()


def test_max_splits_zero_turns_the_search_off() -> None:
    sink, f = new_tracker(max_splits=0)
    b1 = Board.from_ascii("Rs Rc Rd")
    f.turn(Board(), b1)
    b3 = b1.with_tiles([(Pos(1, 0), Tile.parse("Bs")), (Pos(1, 2), Tile.parse("Od"))])
    f.turn(b1, b3)
    f.end()
    ev = sink.game().events[-1]
    assert isinstance(ev, Review) and ev.splits == () and "two turns" not in ev.reason
