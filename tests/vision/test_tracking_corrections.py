"""The running tracker learns the corrections made in the web UI (issue 4, "Tracking"): after a
review is resolved or a move corrected in the store, the next settled board is diffed against
the corrected game, not against what the camera had committed. Real SQLite store files;
observations built from scorer boards as in test_tracking.py (no pixels)."""

from __future__ import annotations

from pathlib import Path

from test_tracking import Feeder, kinds, obs

from scorer.game import Game, Place, Review, replay
from scorer.model import Board, Placement, Pos, Tile
from scorer.store import GameStore
from vision.tracking import MemorySink, StoreSink, Tracker, TrackerEvent, TrackerSettings

PHANTOM = (Pos(0, 2), Tile.parse("Rd"))  # an empty cell the detector reads as a red diamond


def _store_tracker(tmp_path: Path) -> tuple[GameStore, int, Feeder]:
    store = GameStore(tmp_path / "games.sqlite3")
    gid = store.create_game(["Ann", "Ben"])
    return store, gid, Feeder(Tracker(StoreSink(store, gid)))


def _last(store: GameStore, gid: int) -> tuple[object, int]:
    game = store.game(gid)
    return game.events[-1], replay(game).turns[-1].points


def _with(board: Board, *cells: tuple[Pos, Tile]) -> Board:
    return board.with_tiles(list(cells))


def _turn(f: Feeder, before: Board, after: Board) -> list[TrackerEvent]:
    """Every event of one turn (the hands' frames too: the end of the previous still period
    may already re-read a corrected game)."""
    n = len(f.events)
    f.turn(before, after)
    return f.events[n:]


def test_a_phantom_tile_removed_in_the_ui_is_out_of_the_next_diffs(tmp_path: Path) -> None:
    store, gid, f = _store_tracker(tmp_path)
    real1 = Board.from_ascii("Rs Rc")
    got = _turn(f, Board(), _with(real1, PHANTOM))  # the detector keeps seeing the phantom
    assert kinds(got) == ["move"]
    assert _last(store, gid) == (Place(0, Placement.parse("Rs@0,0 Rc@0,1 Rd@0,2")), 3)
    # the user fixes the move on the Live page (what webui.games.correct does)
    store.correct(gid, "replace", 0, Place(0, Placement.parse("Rs@0,0 Rc@0,1")), source="ui")

    real2 = _with(real1, (Pos(1, 0), Tile.parse("Bs")))
    got = _turn(f, _with(real1, PHANTOM), _with(real2, PHANTOM))
    assert kinds(got) == ["rebased", "move"], got
    assert "removed at (0,2)" in got[0].message
    assert _last(store, gid) == (Place(1, Placement.parse("Bs@1,0")), 2)

    # a real tile later laid on the phantom's cell is read differently: a move, not a change
    real3 = _with(real2, (Pos(0, 2), Tile.parse("R8")))
    got = _turn(f, _with(real2, PHANTOM), real3)
    assert kinds(got) == ["move"], got
    assert _last(store, gid) == (Place(0, Placement.parse("R8@0,2")), 3)
    f.feed(obs(real3), 60)  # six seconds still: nothing is left to report
    f.end()
    game = store.game(gid)
    assert not any(isinstance(e, Review) for e in game.events)
    assert replay(game).totals == [5, 2]


def test_a_phantom_gone_after_the_correction_is_not_reported_vanished(tmp_path: Path) -> None:
    store, gid, f = _store_tracker(tmp_path)
    real1 = Board.from_ascii("Rs Rc")
    _turn(f, Board(), _with(real1, PHANTOM))
    store.correct(gid, "replace", 0, Place(0, Placement.parse("Rs@0,0 Rc@0,1")), source="ui")
    board = real1
    for player, cell, points in ((1, "Bs@1,0", 2), (0, "Gs@2,0", 3), (1, "R8@0,2", 3)):
        after = board.with_tiles(Placement.parse(cell).tiles)
        got = _turn(f, board, after)
        f.feed(obs(after), 30)  # three seconds still after each move: > confirm_s overall
        assert "review" not in kinds(got), got
        assert _last(store, gid) == (Place(player, Placement.parse(cell)), points)
        board = after
    assert not any(isinstance(e, Review) for e in store.game(gid).events)


def test_a_tile_identity_corrected_in_the_ui_wins_over_the_same_misreading(
    tmp_path: Path,
) -> None:
    store, gid, f = _store_tracker(tmp_path)
    seen1 = Board.from_ascii("Rs Rd")  # the red circle at (0,1) is read as a diamond
    _turn(f, Board(), seen1)
    store.correct(gid, "replace", 0, Place(0, Placement.parse("Rs@0,0 Rc@0,1")), source="ui")
    # a blue circle under the red circle: legal, 2 points; under a red diamond it would be
    # a mixed line (a review) — the tracker must diff against the corrected tile
    got = _turn(f, seen1, _with(seen1, (Pos(1, 1), Tile.parse("Bc"))))
    assert kinds(got) == ["rebased", "move"], got
    assert _last(store, gid) == (Place(1, Placement.parse("Bc@1,1")), 2)


def test_a_tile_the_camera_missed_and_the_user_added_extends_lines(tmp_path: Path) -> None:
    store, gid, f = _store_tracker(tmp_path)
    seen1 = Board.from_ascii("Rs Rc")  # the red diamond at (0,2) is never detected
    _turn(f, Board(), seen1)
    store.correct(gid, "replace", 0, Place(0, Placement.parse("Rs@0,0 Rc@0,1 Rd@0,2")), source="ui")
    seen2 = _with(seen1, (Pos(1, 0), Tile.parse("Bs")))
    got = _turn(f, seen1, seen2)
    f.feed(obs(seen2), 60)  # long still: the unseen diamond is not reported vanished
    assert kinds(got) == ["rebased", "move"], got
    seen3 = _with(seen2, (Pos(0, 3), Tile.parse("R8")))  # touches only the unseen diamond
    got = _turn(f, seen2, seen3)
    assert kinds(got) == ["move"], got
    assert _last(store, gid) == (Place(0, Placement.parse("R8@0,3")), 4)
    assert not any(isinstance(e, Review) for e in store.game(gid).events)


def test_a_deleted_move_and_an_inserted_exchange_keep_board_and_turn_order(
    tmp_path: Path,
) -> None:
    store, gid, f = _store_tracker(tmp_path)
    b1 = Board.from_ascii("Rs Rc Rd")
    _turn(f, Board(), b1)
    b2 = _with(b1, (Pos(1, 0), Tile.parse("Bs")))
    _turn(f, b1, b2)
    # the players took Ben's tile back and say Ben exchanged instead
    from scorer.game import Exchange

    store.correct(gid, "replace", 1, Exchange(1, 2), source="ui")
    b3 = _with(b1, (Pos(1, 1), Tile.parse("Bc")))  # Ann lays where Ben's tile was not
    got = _turn(f, b2, b3)
    assert kinds(got) == ["rebased", "move"], got
    assert _last(store, gid) == (Place(0, Placement.parse("Bc@1,1")), 2)


def test_memory_sink_corrections_are_learned_too() -> None:
    sink = MemorySink(Game(players=("A", "B")))
    f = Feeder(Tracker(sink, TrackerSettings()))
    real1 = Board.from_ascii("Rs Rc")
    _turn(f, Board(), _with(real1, PHANTOM))
    v = sink.version()
    sink.replace(sink.game().replace_event(0, Place(0, Placement.parse("Rs@0,0 Rc@0,1"))))
    assert sink.version() != v
    got = _turn(f, _with(real1, PHANTOM), _with(real1, PHANTOM, (Pos(1, 0), Tile.parse("Bs"))))
    assert kinds(got) == ["rebased", "move"]
    assert sink.game().events[-1] == Place(1, Placement.parse("Bs@1,0"))


def test_store_revision_moves_with_every_write(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    gid = store.create_game(["Ann", "Ben"])
    seen = {store.revision(gid)}
    store.append(gid, Place(0, Placement.parse("Rs@0,0")))
    seen.add(store.revision(gid))
    store.correct(gid, "replace", 0, Place(0, Placement.parse("Rc@0,0")))
    seen.add(store.revision(gid))
    assert len(seen) == 3
    assert store.revision(gid) == store.revision(gid)  # reading changes nothing


def test_a_move_next_to_a_cleared_phantom_asks_whether_a_tile_is_there_now(
    tmp_path: Path,
) -> None:
    """The user removed a phantom red diamond at (0,2); the camera keeps reading it. A move
    laid next to that cell may have put a real red diamond there (the same reading): the
    tracker must not drop it silently, nor count it - the turn is a review offering the move
    without the cell first and with it second."""
    store, gid, f = _store_tracker(tmp_path)
    real1 = Board.from_ascii("Rs Rc")
    _turn(f, Board(), _with(real1, PHANTOM))
    store.correct(gid, "replace", 0, Place(0, Placement.parse("Rs@0,0 Rc@0,1")), source="ui")
    real2 = _with(real1, (Pos(1, 1), Tile.parse("Bc")))
    got = _turn(f, _with(real1, PHANTOM), _with(real2, PHANTOM))  # not next to (0,2)
    assert kinds(got) == ["rebased", "move"], got
    assert _last(store, gid) == (Place(1, Placement.parse("Bc@1,1")), 2)
    # Ann lays a red diamond on (0,2) and a blue diamond under it: the camera reads (0,2) as
    # before, so only the blue diamond is new to it - a legal move on its own (row Bc Bd)
    after = _with(real2, PHANTOM, (Pos(1, 2), Tile.parse("Bd")))
    got = _turn(f, _with(real2, PHANTOM), after)
    f.feed(obs(after), 60)  # a review waits for the end of the still period (late sightings)
    f.end()
    assert "move" not in kinds(got), got  # nothing committed silently, with or without it
    game = store.game(gid)
    assert len(game.events) == 3  # Ann's move, Ben's move, and this turn
    ev = game.events[-1]
    assert isinstance(ev, Review) and ev.player == 0
    assert "next to 0,2" in ev.reason and "red diamond" in ev.reason
    assert ev.candidates == (
        Placement.parse("Bd@1,2"),
        Placement.parse("Rd@0,2 Bd@1,2"),
    )
