"""A review resolved on the Live page reaches the running tracker: the app's own store, a
tracker appending to it as the camera thread does, and the page's form action in between."""

from __future__ import annotations

from typing import Any

from conftest import Client

from scorer.game import Place, Review, replay
from scorer.model import Board, Placement, Pos, Tile
from vision.observation import Lattice, Observation, TileObservation
from vision.tracking import StoreSink, Tracker, TrackerEvent
from webui.games import WebState

PITCH = 40.0
LATTICE = Lattice(PITCH, 0.0, ((PITCH, 0.0, 500.0), (0.0, PITCH, 400.0), (0.0, 0.0, 1.0)))


def _obs(board: Board, occluded: float = 0.0) -> Observation:
    """What a detector reports for ``board`` on a 40 px lattice (no pixels needed)."""
    tiles = []
    for p, t in board.items():
        x, y = 500 + p.col * PITCH, 400 + p.row * PITCH
        corners = ((x - 18, y - 18), (x + 18, y - 18), (x + 18, y + 18), (x - 18, y + 18))
        tiles.append(TileObservation(p, t, 0.95, 0.95, (x, y), corners, ()))
    return Observation(tuple(tiles), LATTICE, (1280, 720), (), occluded)


class _Camera:
    """Feeds a tracker at 10 fps: hands over the table, then the board still for a second."""

    def __init__(self, tracker: Tracker):
        self.tracker = tracker
        self.frame = 0
        self.events: list[TrackerEvent] = []

    def _feed(self, o: Observation, n: int) -> None:
        for _ in range(n):
            self.events += self.tracker.feed(o, frame_index=self.frame, t=self.frame / 10)
            self.frame += 1

    def turn(self, before: Board, after: Board) -> list[str]:
        n = len(self.events)
        self._feed(_obs(before, occluded=0.3), 1)
        self._feed(_obs(after), 10)
        return [e.kind for e in self.events[n:] if e.kind != "settled"]


def test_accepting_a_review_candidate_on_the_live_page_rebases_the_tracker(
    st: WebState, client: Client
) -> None:
    r = client.post("/api/games", json={"players": ["Ann", "Ben"]})
    gid = int(r.get_json()["id"])
    cam = _Camera(Tracker(StoreSink(st.store, gid)))
    b1 = Board.from_ascii("Rs Rc Rd")
    assert cam.turn(Board(), b1) == ["move"]
    # Ben lays a blue and a green square under Ann's red square; the empty pocket at (1,1),
    # walled in on three sides, is read as an orange square: an illegal diff, a Review
    phantom = (Pos(1, 1), Tile.parse("Os"))
    real2 = b1.with_tiles([(Pos(1, 0), Tile.parse("Bs")), (Pos(2, 0), Tile.parse("Gs"))])
    seen2 = real2.with_tiles([phantom])
    cam.turn(b1, seen2)
    cam.turn(seen2, seen2)  # the next hand ends the still period: the review is written
    game = st.store.game(gid)
    review: Any = game.events[1]
    assert isinstance(review, Review) and review.candidates[0] == Placement.parse("Bs@1,0 Gs@2,0")
    # the user accepts the first candidate (option 0 is "as seen") on the Live page
    r = client.form(f"/games/{gid}/action", {"action": "accept", "index": "1", "candidate": "1"})
    assert r.status_code == 302
    assert st.store.game(gid).events[1] == Place(1, Placement.parse("Bs@1,0 Gs@2,0"))
    # Ann lays a blue circle into the pocket: row Bs Bc, column Rc Bc = 4 points. The
    # tracker diffs against the corrected game: a move, not "a tile changed at (1,1)"
    real3 = real2.with_tiles([(Pos(1, 1), Tile.parse("Bc"))])
    assert cam.turn(seen2, real3) == ["rebased", "move"]
    game = st.store.game(gid)
    assert game.events[-1] == Place(0, Placement.parse("Bc@1,1"))
    result = replay(game)
    assert [t.points for t in result.turns] == [3, 3, 4]
    assert all(t.legal for t in result.turns)
    r = client.get(f"/api/games/{gid}")
    assert r.get_json()["totals"] == [7, 3]
