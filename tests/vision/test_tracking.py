"""The tracker on observations built by hand (no pixels): gating, settling, voting, alignment,
diff -> inference -> turns, reviews, turn order with UI exchanges, stills, setup, resume."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

from scorer.game import Exchange, Game, Pass, Place, Review, replay
from scorer.model import Board, Placement, Pos, Tile
from scorer.moves import random_game
from scorer.store import GameStore
from vision.observation import Lattice, Observation, TileObservation
from vision.tracking import (
    MemorySink,
    StoreSink,
    Tracker,
    TrackerEvent,
    TrackerSettings,
    Transform,
    align_boards,
)

IDENTITY = Transform()

PITCH = 40.0
LATTICE = Lattice(PITCH, 0.0, ((PITCH, 0.0, 500.0), ((0.0, PITCH, 400.0)), (0.0, 0.0, 1.0)))


def obs(
    board: Board | dict[Pos, Tile],
    *,
    transform: Transform = IDENTITY,
    shift_px: tuple[float, float] = (0.0, 0.0),
    occluded: float = 0.0,
    unseen: Sequence[Pos] = (),
    alternatives: dict[Pos, Sequence[tuple[Tile, float]]] | None = None,
    misread: dict[Pos, Tile] | None = None,
    confidence: float = 0.95,
) -> Observation:
    """An observation of ``board`` as a detector would report it: cells renumbered by
    ``transform``, tiles at pixel centres on a 40 px lattice shifted by ``shift_px``."""
    tiles = []
    for p, t in Board(board).items():
        x = 500 + p.col * PITCH + shift_px[0]
        y = 400 + p.row * PITCH + shift_px[1]
        corners = ((x - 18, y - 18), (x + 18, y - 18), (x + 18, y + 18), (x - 18, y + 18))
        seen = (misread or {}).get(p, t)
        alts = tuple((alternatives or {}).get(p, ()))
        tiles.append(
            TileObservation(transform.apply(p), seen, confidence, confidence, (x, y), corners, alts)
        )
    return Observation(
        tiles=tuple(tiles),
        lattice=LATTICE,
        image_size=(1280, 720),
        unseen=tuple(unseen),
        occluded_fraction=occluded,
    )


class Feeder:
    """Feeds observations at 10 fps and collects the tracker's events."""

    def __init__(self, tracker: Tracker):
        self.tracker = tracker
        self.frame = 0
        self.events: list[TrackerEvent] = []

    def feed(self, observation: Observation, n: int = 1, **kw: object) -> list[TrackerEvent]:
        got = []
        for _ in range(n):
            got += self.tracker.feed(
                observation,
                frame_index=self.frame,
                t=self.frame / 10.0,
                **kw,  # type: ignore[arg-type]
            )
            self.frame += 1
        self.events += got
        return got

    def end(self) -> list[TrackerEvent]:
        """The still period (or the video) ends: unclear readings are decided now."""
        got = self.tracker.flush()
        self.events += got
        return got

    def turn(self, before: Board, after: Board, still: int = 6, **kw: object) -> list[TrackerEvent]:
        """Hands over the table (tiles appear under them), then the board stays still."""
        self.feed(obs(before, occluded=0.3, **kw))  # type: ignore[arg-type]
        self.feed(obs(after, unseen=[Pos(0, 0), Pos(5, 5)], **kw))  # type: ignore[arg-type]
        return self.feed(obs(after, **kw), still)  # type: ignore[arg-type]


def kinds(events: Iterable[TrackerEvent]) -> list[str]:
    return [e.kind for e in events if e.kind != "settled"]


def new_tracker(players: int = 2, **settings: object) -> tuple[MemorySink, Feeder]:
    sink = MemorySink(Game(players=tuple(f"P{i}" for i in range(players))))
    return sink, Feeder(Tracker(sink, TrackerSettings(**settings)))  # type: ignore[arg-type]


def boards_of(game: Game) -> list[tuple[Board, Board, Place]]:
    out = []
    board = game.setup
    for ev in game.events:
        if isinstance(ev, Place):
            after = board.with_tiles(ev.tiles.tiles)
            out.append((board, after, ev))
            board = after
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_game_is_tracked_exactly_with_ui_exchanges(seed: int) -> None:
    game = random_game(seed, players=2 + seed % 3, turns=40, exchange_rate=0.1)
    sink = MemorySink(Game(players=game.players))
    feeder = Feeder(Tracker(sink, first_player=game.events[0].player))
    board = game.setup
    feeder.feed(obs(board), 5)
    for ev in game.events:
        if isinstance(ev, Place):
            after = board.with_tiles(ev.tiles.tiles)
            got = feeder.turn(board, after)
            assert kinds(got) == ["move"], got
            board = after
        else:  # exchanges/passes come from the UI; the tracker must keep the order
            sink.append(ev, frame=feeder.frame)
            feeder.feed(obs(board), 3)
    assert sink.game().events == game.events
    assert replay(sink.game()).totals == replay(game).totals


def test_nothing_is_committed_while_hands_are_over_the_table() -> None:
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc")
    f.feed(obs(Board()), 5)
    # tiles appear and change under a hand for a long time: never committed
    for k in range(30):
        f.feed(obs(b1 if k % 2 else Board.from_ascii("Rs"), occluded=0.1))
    f.feed(obs(b1, unseen=[Pos(0, 1), Pos(0, 2)]), 10)  # covered cells gate too
    f.feed(obs(b1), 10, motion=12.0)  # pixel motion above the threshold
    assert sink.game().events == ()
    assert f.tracker.status == "moving"
    f.feed(obs(b1), 4)
    assert [e.event for e in f.events if e.kind == "move"] == [
        Place(0, Placement.parse("Rs@0,0 Rc@0,1"))
    ]


def test_settle_needs_n_frames_and_time() -> None:
    sink, f = new_tracker(settle_frames=4, settle_s=0.25)
    b1 = Board.from_ascii("Rs Rc")
    assert f.feed(obs(b1), 3) == []
    assert f.tracker.status == "settling"
    got = f.feed(obs(b1))
    assert kinds(got) == ["move"] and got[-1].settled_t == 0.0 and got[-1].t == pytest.approx(0.3)
    assert f.feed(obs(b1), 20) == []  # one decision per still period
    assert len(sink.game().events) == 1


def test_readings_are_voted_across_the_window() -> None:
    sink, f = new_tracker(settle_frames=5)
    b1 = Board.from_ascii("Rs Rc Rd")
    wrong = {Pos(0, 2): Tile.parse("Od")}
    alt = {Pos(0, 2): [(Tile.parse("Rd"), 0.4)]}
    for k in range(5):  # misread in 2 of 5 frames
        f.feed(
            obs(
                b1,
                misread=wrong if k in (1, 3) else None,
                alternatives=alt if k in (1, 3) else None,
            )
        )
    assert sink.game().events == (Place(0, Placement.parse("Rs@0,0 Rc@0,1 Rd@0,2")),)


def test_a_flickering_detection_neither_blocks_the_settle_nor_becomes_a_move() -> None:
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc Rd Rk")
    f.turn(Board(), b1)
    b2 = b1.with_tiles([(Pos(1, 0), Tile.parse("Bs"))])
    ghost = b2.with_tiles([(Pos(3, 3), Tile.parse("Yc"))])  # a shadow read as a tile now and then
    f.feed(obs(b1, occluded=0.3))
    for k in range(12):  # the new tile is missed and a ghost seen in alternating frames
        f.feed(obs(ghost if k % 3 == 0 else b2 if k % 3 == 1 else b2.without([Pos(0, 0)])))
    assert sink.game().events[1:] == (Place(1, Placement.parse("Bs@1,0")),)


def test_a_tile_the_detector_finds_only_now_and_then_is_committed_late_not_lost() -> None:
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc Rd Rk")
    f.turn(Board(), b1)
    b2 = b1.with_tiles([(Pos(1, 0), Tile.parse("Bs"))])
    f.feed(obs(b1, occluded=0.3))
    for k in range(10):  # the new tile is seen in 3 of 10 still frames only
        f.feed(obs(b2 if k in (2, 5, 8) else b1))
    assert len(sink.game().events) == 1  # the majority vote has not seen it yet
    f.feed(obs(b2, occluded=0.3))  # the next player's hand comes in: the still period ended
    assert sink.game().events[1:] == (Place(1, Placement.parse("Bs@1,0")),)
    # and the flaky tile missing from later settles is not reported as vanished
    b3 = b2.with_tiles([(Pos(0, 4), Tile.parse("Rx"))])
    for _ in range(3):
        f.turn(b2, b3.without([Pos(1, 0)]))
        f.feed(obs(b3), 2)
        f.feed(obs(b3, occluded=0.3), 30)
    assert [type(e).__name__ for e in sink.game().events] == ["Place"] * 3


def test_renumbered_and_rotated_views_are_aligned_not_moves() -> None:
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc Rd")
    b2 = b1.with_tiles([(Pos(1, 0), Tile.parse("Bs")), (Pos(2, 0), Tile.parse("Gs"))])
    f.turn(Board(), b1)
    # the detector renumbers the lattice and sees it a quarter turn round: same board
    tf = Transform(1, Pos(5, -3))
    got = f.feed(obs(b1, transform=tf, shift_px=(60, 20)), 6)
    assert kinds(got) == ["realigned"]
    got = f.turn(b1, b2, transform=tf, shift_px=(60, 20))
    assert kinds(got) == ["move"]
    assert sink.game().events[-1] == Place(1, Placement.parse("Bs@1,0 Gs@2,0"))


def test_a_bump_breaks_the_run_and_is_re_registered() -> None:
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc Rd Rk")
    f.turn(Board(), b1)
    f.feed(obs(b1), 2)
    # the table slides 9 px per frame (no hand) and the detector renumbers the lattice
    tf = Transform(0, Pos(2, -1))
    statuses = []
    for k in range(1, 6):
        f.feed(obs(b1, shift_px=(9.0 * k, 0.0), transform=tf))
        statuses.append(f.tracker.gate_reason or f.tracker.status)
    assert f.tracker.settles == 1  # no settle while the table moves
    f.feed(obs(b1, shift_px=(45.0, 0.0), transform=tf), 8)
    assert kinds(f.events) == ["move", "realigned"] and len(sink.game().events) == 1
    # the next move, seen in the new numbering, lands at the game's coordinates
    b2 = b1.with_tiles([(Pos(1, 1), Tile.parse("Bc"))])
    f.turn(b1, b2, shift_px=(45.0, 0.0), transform=tf)
    assert sink.game().events[-1] == Place(1, Placement.parse("Bc@1,1"))


def test_alignment_prefers_the_prior_and_reports_a_turn() -> None:
    ref = Board.from_ascii("Rs Rc Rd\nBs")
    seen = {Transform(2, Pos(1, 2)).apply(p): [t] for p, t in ref.items()}
    tf, score = align_boards(ref, seen)
    assert score == len(ref)
    assert {tf.apply(p): r[0] for p, r in seen.items()} == dict(ref)
    # a symmetric board is explained by more than one transform: the prior wins the tie
    sym = Board.from_ascii("Rs Rs")
    prior = Transform(0, Pos(0, 0))
    assert align_boards(sym, {p: [t] for p, t in sym.items()}, prior)[0] == prior


def test_vanished_tiles_give_one_review_and_keep_the_turn_order() -> None:
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc Rd Rk")
    f.turn(Board(), b1)
    gone = b1.without([Pos(0, 3)])
    assert kinds(f.turn(b1, gone)) == []  # once could be a hand resting on it: wait
    assert kinds(f.turn(gone, gone)) == []  # still within confirm_s
    f.feed(obs(gone, occluded=0.5), 30)  # 3 s later
    got = f.turn(gone, gone)
    assert kinds(got) == ["review"]
    review = sink.game().events[-1]
    assert isinstance(review, Review) and review.player == 1 and "vanished" in review.reason
    assert "(0,3)" in review.reason and review.frame == got[-1].frame_index
    assert kinds(f.feed(obs(gone), 10)) == []  # reported once, not again
    # the next move is player 0's: the review held player 1's slot
    b2 = b1.with_tiles([(Pos(1, 0), Tile.parse("Bs"))])
    f.turn(gone, b2.without([Pos(0, 3)]))
    assert sink.game().events[-1] == Place(0, Placement.parse("Bs@1,0"))


def test_a_hand_resting_until_the_board_settles_is_not_a_vanished_tile() -> None:
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc Rd Rk")
    f.turn(Board(), b1)
    b2 = b1.with_tiles([(Pos(1, 0), Tile.parse("Bs"))])
    # the detector does not flag the resting hand: two tiles under it are simply missing
    f.feed(obs(b2.without([Pos(0, 2), Pos(0, 3)])), 6)
    f.turn(b2, b2)
    assert sink.game().events[-1] == Place(1, Placement.parse("Bs@1,0"))
    assert len(sink.game().events) == 2


def test_two_moves_without_a_settle_become_a_review_with_what_was_seen() -> None:
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc Rd")
    f.turn(Board(), b1)
    b3 = b1.with_tiles([(Pos(1, 0), Tile.parse("Bs")), (Pos(1, 2), Tile.parse("Od"))])
    assert kinds(f.turn(b1, b3)) == []  # unclear: decided when the still period ends
    got = f.end()
    assert kinds(got) == ["review"]
    ev = sink.game().events[-1]
    assert isinstance(ev, Review) and ev.player == 1
    assert "more than one place" in ev.reason
    assert set(ev.seen.tiles) == {(Pos(1, 0), Tile.parse("Bs")), (Pos(1, 2), Tile.parse("Od"))}
    res = replay(sink.game())
    assert res.turns[-1].kind == "review" and res.turns[-1].points == 0
    assert res.next_player == 0


def test_an_illegal_diff_is_kept_as_a_review_with_the_reason() -> None:
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc Rd")
    f.turn(Board(), b1)
    bad = b1.with_tiles([(Pos(0, 3), Tile.parse("Rc"))])  # a second red circle in the line
    f.turn(b1, bad)
    f.feed(obs(bad, occluded=0.3))  # the next hand ends the still period
    ev = sink.game().events[-1]
    assert isinstance(ev, Review) and "legal" in ev.reason
    assert ev.seen == Placement.parse("Rc@0,3")


def test_a_move_illegal_only_through_one_extra_tile_is_a_review_offering_the_move() -> None:
    # an empty cell walled in on three sides read as a tile (seed-5 rendered game): the move
    # stays a Review with every tile seen, but its first candidate is the legal move without it
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc Rd")
    f.turn(Board(), b1)
    after = b1.with_tiles(
        [
            (Pos(1, 0), Tile.parse("Bs")),
            (Pos(2, 0), Tile.parse("Gs")),
            (Pos(1, 1), Tile.parse("Os")),
        ]
    )
    f.turn(b1, after)
    f.feed(obs(after, occluded=0.3))  # the next hand ends the still period
    ev = sink.game().events[-1]
    assert isinstance(ev, Review) and ev.player == 1
    assert "legal without the tile at (1,1)" in ev.reason
    assert ev.seen == Placement.parse("Bs@1,0 Os@1,1 Gs@2,0")  # nothing dropped silently
    assert ev.candidates[0] == Placement.parse("Bs@1,0 Gs@2,0")
    assert replay(sink.game()).turns[-1].points == 0  # not scored until someone accepts it


def test_no_move_is_offered_when_no_single_tile_explains_the_illegal_diff() -> None:
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc Rd")
    f.turn(Board(), b1)
    # each tile alone breaks its column (shares nothing with the tile above it)
    after = b1.with_tiles([(Pos(1, 0), Tile.parse("Gc")), (Pos(1, 2), Tile.parse("Yk"))])
    f.turn(b1, after)
    f.feed(obs(after, occluded=0.3))
    ev = sink.game().events[-1]
    assert isinstance(ev, Review) and "legal without" not in ev.reason
    assert ev.candidates and all(len(c) == 2 for c in ev.candidates)  # readings of both tiles


def test_an_ambiguous_reading_becomes_a_review_with_candidates() -> None:
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc")
    f.turn(Board(), b1)
    after = b1.with_tiles([(Pos(0, 2), Tile.parse("Rd"))])
    alts = {Pos(0, 2): [(Tile.parse("Rk"), 0.95)]}
    # every frame: "red diamond" or, equally, "red clover": both legal, same rank
    f.feed(obs(after, alternatives=alts), 6)
    f.end()
    ev = sink.game().events[-1]
    if isinstance(ev, Review):
        assert len(ev.candidates) >= 1
    else:  # a confident first reading is a legal move: the vote picks it
        assert ev == Place(1, Placement.parse("Rd@0,2"))


def test_a_misread_resolved_by_alternatives_gives_the_legal_move() -> None:
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc Rd")
    f.turn(Board(), b1)
    after = b1.with_tiles([(Pos(0, 3), Tile.parse("Rk"))])
    # the new tile is read as a (illegal) red circle, runner-up red clover
    f.turn(
        b1,
        after,
        misread={Pos(0, 3): Tile.parse("Rc")},
        alternatives={Pos(0, 3): [(Tile.parse("Rk"), 0.6)]},
    )
    assert sink.game().events[-1] == Place(1, Placement.parse("Rk@0,3"))


def test_stills_mode_settles_every_photo() -> None:
    game = random_game(11, players=3, turns=12, exchange_rate=0.0)
    sink = MemorySink(Game(players=game.players))
    f = Feeder(Tracker(sink, TrackerSettings(stills=True), first_player=game.events[0].player))
    for _, after, _ in boards_of(game):
        f.feed(obs(after))
    assert sink.game().events == game.events


def test_setup_first_frame_joins_a_game_in_progress() -> None:
    sink, f = new_tracker(setup_first_frame=True)
    setup = Board.from_ascii("Rs Rc Rd\n.  Bc")
    f.feed(obs(setup), 6)
    assert kinds(f.events) == ["setup"] and sink.game().setup == setup
    after = setup.with_tiles([(Pos(2, 1), Tile.parse("Gc"))])
    f.turn(setup, after)
    assert sink.game().events == (Place(0, Placement.parse("Gc@2,1")),)
    assert replay(sink.game()).totals == [3, 0]


def test_exchanges_entered_in_the_ui_keep_the_order_and_a_resumed_tracker_adds_nothing(
    tmp_path: Path,
) -> None:
    store = GameStore(tmp_path / "games.db")
    gid = store.create_game(["Ann", "Ben", "Cy"])
    sink = StoreSink(store, gid, key_prefix="game.mp4")
    f = Feeder(Tracker(sink))
    b1 = Board.from_ascii("Rs Rc")
    f.turn(Board(), b1)  # Ann
    store.append(gid, Exchange(1, 2), source="ui")  # Ben exchanges
    b2 = b1.with_tiles([(Pos(0, 2), Tile.parse("Rd"))])
    f.turn(b1, b2)  # Cy
    store.append(gid, Pass(0), source="ui")
    assert [type(e).__name__ for e in store.game(gid).events] == [
        "Place",
        "Exchange",
        "Place",
        "Pass",
    ]
    assert store.game(gid).events[2].player == 2
    # a restarted tracker (after a crash) resumes from the store: the same board is no move
    g2 = Feeder(Tracker(StoreSink(store, gid)))
    g2.feed(obs(b2), 20)
    assert kinds(g2.events) == [] and len(store.game(gid).events) == 4
    b3 = b2.with_tiles([(Pos(1, 2), Tile.parse("Bd"))])
    g2.turn(b2, b3)
    assert store.game(gid).events[-1] == Place(1, Placement.parse("Bd@1,2"))
    assert all(e.frame is not None for e in store.log(gid) if e.source == "camera")
    store.close()


def test_a_board_out_of_view_is_not_reported_vanished() -> None:
    sink, f = new_tracker()
    b1 = Board.from_ascii("Rs Rc Rd Rk\nBs Bc")
    f.turn(Board(), b1)
    f.feed(obs(Board()), 20)  # a detector failure / camera looking away
    f.feed(obs(b1.without([Pos(0, 0), Pos(0, 1), Pos(0, 2)])), 20)  # half the board
    assert len(sink.game().events) == 1


def test_random_renumbering_every_frame_still_tracks_a_game() -> None:
    rng = random.Random(5)
    game = random_game(21, players=2, turns=30, exchange_rate=0.0)
    sink = MemorySink(Game(players=game.players))
    f = Feeder(Tracker(sink, first_player=game.events[0].player))
    tf = Transform(0, Pos(0, 0))
    for before, after, _ in boards_of(game):
        # the detector numbers cells from wherever it likes, a new origin after each move
        tf = Transform(rng.choice([0, 0, 0, 1]), Pos(rng.randint(-3, 3), rng.randint(-3, 3)))
        f.turn(before, after, transform=tf)
    res_got, res_want = replay(sink.game()), replay(game)
    assert [t.points for t in res_got.turns] == [t.points for t in res_want.turns]
    assert [t.player for t in res_got.turns] == [t.player for t in res_want.turns]
    assert all(t.legal for t in res_got.turns)
