"""Turns, bag and hand accounting, the end of the game, the extra variant and corrections."""

from __future__ import annotations

import functools

import pytest

from scorer.game import Exchange, Game, Pass, Place, Review, can_place_any, replay
from scorer.model import Board, Placement, Pos, Tile

P = Placement.parse


def two(*events: Place | Exchange | Pass | Review, **kw: object) -> Game:
    return Game(("Ann", "Ben"), events=tuple(events), **kw)  # type: ignore[arg-type]


def test_points_totals_and_winner() -> None:
    g = two(Place(0, P("Rs@0,0 Rc@0,1 Rd@0,2")), Place(1, P("Rk@0,3")))
    r = replay(g)
    assert [t.points for t in r.turns] == [3, 4]
    assert r.totals == [3, 4] and r.winners == [1]
    assert r.board == Board.from_ascii("Rs Rc Rd Rk")
    assert r.next_player == 0 and not r.finished and r.end_reason is None


def test_tied_totals_share_the_win() -> None:
    r = replay(two(Place(0, P("Rs@0,0 Rc@0,1")), Place(1, P("Bs@1,0"))))
    assert r.totals == [2, 2] and r.winners == [0, 1]
    r = replay(two(Place(0, P("Rs@0,0")), Pass(1)))
    assert r.winners == [0]
    r = replay(two())
    assert r.winners == [0, 1] and r.totals == [0, 0]


def test_bag_and_hands_from_the_tile_count() -> None:
    r = replay(two())
    assert r.bag == 108 - 12 and r.hands == [6, 6] and sum(r.unseen.values()) == 108
    r = replay(two(Place(0, P("Rs@0,0 Rc@0,1 Rd@0,2"))))
    assert r.bag == 93 and r.hands == [6, 6]
    assert sum(r.unseen.values()) == 105 and r.unseen[Tile.parse("Rs")] == 2


def test_setup_tiles_score_nothing_and_shrink_the_bag() -> None:
    g = two(Place(0, P("Rk@0,3")), setup=Board.from_ascii("Rs Rc Rd"))
    r = replay(g)
    assert r.totals == [4, 0] and r.bag == 108 - 3 - 12 - 1


def test_out_of_turn_is_flagged_and_scores_zero() -> None:
    r = replay(two(Place(0, P("Rs@0,0")), Place(0, P("Rc@0,1"))))
    t = r.turns[1]
    assert not t.legal and t.points == 0 and [v.code for v in t.violations] == ["out_of_turn"]
    assert "Ben's turn" in t.reasons[0]
    # the tiles stay on the table (the camera sees them)
    assert len(r.board) == 2


def test_illegal_placement_is_kept_with_reasons() -> None:
    r = replay(two(Place(0, P("Rs@0,0 Rc@0,1")), Place(1, P("Bx@0,2"))))
    t = r.turns[1]
    assert t.kind == "place" and not t.legal and t.points == 0 and t.score is not None
    assert t.reasons and "neither colour nor shape" in t.reasons[0]
    assert r.totals == [2, 0]


@functools.cache
def _dry_bag_game() -> Game:
    """An engine-played two-player game to its end (the bag runs dry, a player goes out)."""
    from scorer.moves import random_game

    g = random_game(7, 2)
    r = replay(g)
    assert r.finished and r.end_reason == "out"
    return g


def test_going_out_is_inferred_and_scores_six_and_ends_the_game() -> None:
    g = _dry_bag_game()
    r = replay(g)
    last = r.turns[-1]
    assert last.out and last.bonus == 6 and last.points == last.score.points + 6  # type: ignore[union-attr]
    assert r.hands[last.player] == 0 and r.bag == 0
    # a turn after the end is flagged
    r2 = replay(g.append(Pass((last.player + 1) % 2)))
    assert r2.turns[-1].violations[0].code == "game_over" and r2.totals == r.totals


def test_declared_out_wins_over_the_count() -> None:
    g = two(Place(0, P("Rs@0,0 Rc@0,1"), out=True), Place(1, P("Rd@0,2")))
    r = replay(g)
    assert r.turns[0].out and r.turns[0].points == 2 + 6 and r.finished
    assert not r.turns[1].legal
    g = _dry_bag_game()
    last = g.events[-1]
    assert isinstance(last, Place)
    r = replay(g.replace_event(len(g.events) - 1, Place(last.player, last.tiles, out=False)))
    assert not r.turns[-1].out and r.turns[-1].bonus == 0 and not r.finished


def test_placing_more_tiles_than_the_hand_holds() -> None:
    g = _dry_bag_game()
    r = replay(g)
    # replace the final move by one with too many tiles for the hand left (hand <= 6)
    k = len(g.events) - 1
    before = replay(g.delete_event(k))
    hand = before.hands[g.events[k].player]
    assert hand >= 1
    fake = Placement(tuple(((100, c), Tile.parse("Rs")) for c in range(hand + 1)))
    r = replay(g.replace_event(k, Place(g.events[k].player, fake)))
    assert "too_many_tiles" in [v.code for v in r.turns[k].violations]


def test_exchange_rules() -> None:
    opened = Place(0, P("Rs@0,0"))
    assert replay(two(opened, Exchange(1, 3))).turns[1].legal
    assert [v.code for v in replay(two(opened, Exchange(1, 7))).turns[1].violations] == [
        "bad_exchange"
    ]
    assert not replay(two(opened, Exchange(1, 0))).turns[1].legal
    # no exchange on the very first turn (nl: "Bij de eerst zet ... mag er niet geruild worden")
    first = replay(two(Exchange(0, 2))).turns[0]
    assert [v.code for v in first.violations] == ["first_turn_exchange"]


def test_pass_only_when_the_bag_is_empty() -> None:
    t = replay(two(Place(0, P("Rs@0,0")), Pass(1))).turns[1]
    assert not t.legal and t.violations[0].code == "pass_with_bag"


def test_review_holds_the_turn_and_scores_zero_until_replaced() -> None:
    rev = Review(1, "two moves at once", P("Rc@0,1"), (P("Rc@0,1"),), frame=42)
    g = two(Place(0, P("Rs@0,0")), rev, Place(0, P("Rd@0,2")))
    r = replay(g)
    assert r.turns[1].kind == "review" and r.turns[1].points == 0 and not r.turns[1].legal
    # the review took Ben's slot: Ann's next move is in turn, and is judged against the real
    # table: the Rc the camera saw lies there, so Rd@0,2 touches it and scores the row of 3
    assert r.turns[2].legal and r.turns[2].points == 3
    assert r.board[Pos(0, 1)] == Tile.parse("Rc") and r.hands[1] == 6
    fixed = replay(g.replace_event(1, Place(1, P("Rc@0,1"))))
    assert [t.points for t in fixed.turns] == [1, 2, 3] and all(t.legal for t in fixed.turns)


def test_corrections_return_new_games() -> None:
    g = two(Place(0, P("Rs@0,0")), Place(1, P("Rc@0,1")))
    g2 = g.insert_event(1, Exchange(1, 2))
    assert len(g.events) == 2 and len(g2.events) == 3
    assert g2.delete_event(1) == g
    with pytest.raises(IndexError):
        g.replace_event(5, Pass(0))
    with pytest.raises(ValueError, match="seat"):
        g.append(Pass(3))


def test_game_validates_its_settings() -> None:
    with pytest.raises(ValueError):
        Game(())
    with pytest.raises(ValueError):
        Game(("a",), variant="turbo")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Game(("a",), tie_break="tallest")  # type: ignore[arg-type]


def test_tie_break_changes_no_score() -> None:
    ev = (Place(0, P("Rs@0,0 Rc@0,1")), Place(1, P("Bs@1,0 Bc@1,1")))
    a = replay(Game(("a", "b"), events=ev, tie_break="youngest"))
    b = replay(Game(("a", "b"), events=ev, tie_break="oldest"))
    assert a.totals == b.totals


# -- extra variant (RULES.md 1a) ----------------------------------------------------------------


def test_extra_rule_1_no_exchange_beyond_the_bag() -> None:
    big = Board(((r, c), Tile.parse("Rs")) for r in range(0, 200, 2) for c in range(1))
    # 100 tiles on the table: bag = 108 - 100 - 12 = 0 -> nothing to exchange in any variant
    g = Game(("a", "b"), setup=big, events=(Exchange(0, 1),))
    assert replay(g).bag == 0 and not replay(g).turns[0].legal
    small = Board(((r, 0), Tile.parse("Rs")) for r in range(0, 188, 2))  # 94 tiles: bag 2
    std = replay(Game(("a", "b"), setup=small, events=(Exchange(0, 3),)))
    ext = replay(Game(("a", "b"), variant="extra", setup=small, events=(Exchange(0, 3),)))
    assert std.bag == 2 and std.turns[0].legal
    assert not ext.turns[0].legal and "extra rule 1" in ext.turns[0].reasons[0]


def _perfect_square(top: int) -> list[tuple[tuple[int, int], Tile]]:
    """36 tiles: rows of one colour, columns of one shape; no tile fits anywhere around it
    (the seed's "perfect vierkant", extra rule 3)."""
    from scorer.model import CLASSIC_COLORS, Shape

    return [
        ((top + i, j), Tile(c, s))
        for i, c in enumerate(CLASSIC_COLORS)
        for j, s in enumerate(Shape)
    ]


def test_can_place_any() -> None:
    from scorer.model import classic_kinds

    assert can_place_any(Board(), classic_kinds()[:1])
    assert not can_place_any(Board(), [])
    board = Board.from_ascii("Rs Rc")
    assert can_place_any(board, [Tile.parse("Rd")])
    assert not can_place_any(board, [Tile.parse("Bd"), Tile.parse("Gk")])
    assert can_place_any(board, [Tile.parse("Bd"), Tile.parse("Rs")])  # Rs fits under Rc
    assert not can_place_any(Board(_perfect_square(0)), classic_kinds())


def test_extra_rule_3_blocked_game_ends_without_bonus() -> None:
    tiles = _perfect_square(0) + _perfect_square(10) + _perfect_square(20)
    last_row = [(p, t) for p, t in tiles if p[0] == 25]
    setup = Board([x for x in tiles if x not in last_row])
    assert len(setup) == 102
    move = Place(0, Placement.of(last_row), out=False)  # the player says: not out
    ext = replay(Game(("a", "b"), variant="extra", setup=setup, events=(move, Pass(1))))
    assert ext.turns[0].legal and ext.turns[0].bonus == 0
    assert ext.finished and ext.end_reason == "blocked"
    assert ext.turns[1].violations[0].code == "game_over"
    std = replay(Game(("a", "b"), setup=setup, events=(move,)))
    assert not std.finished  # the standard rules know no blocked end
    g = Game(("a", "b"), variant="extra", events=(Place(0, P("Rs@0,0 Rc@0,1")),))
    assert not replay(g).finished  # plenty of tiles fit
