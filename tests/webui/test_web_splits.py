"""A review offering two-turn readings: shown on the Live page and its JSON twin, accepted as
two turns by the page's form action or the API (one transaction), turn order kept."""

from __future__ import annotations

from conftest import Client

from scorer.game import Event, Exchange, Place, Review, replay
from scorer.model import Placement
from webui.games import WebState

FIRST = Placement.parse("Bs@1,0 Gs@2,0")
SECOND = Placement.parse("Gc@2,1 Gd@2,2")


def _game_with_review(st: WebState, client: Client, *later: Event) -> int:
    r = client.post("/api/games", json={"players": ["Ann", "Ben", "Cleo"]})
    gid = int(r.get_json()["id"])
    st.store.append(gid, Place(0, Placement.parse("Rs@0,0 Rc@0,1 Rd@0,2")))
    seen = Placement((*FIRST.tiles, *SECOND.tiles))
    other = (Placement.parse("Bs@1,0"), Placement.parse("Gs@2,0 Gc@2,1 Gd@2,2"))
    splits = ((FIRST, SECOND), other)
    st.store.append(gid, Review(1, "tiles added in more than one place", seen, (), 7, splits))
    for ev in later:
        st.store.append(gid, ev)
    return gid


def test_the_live_page_offers_and_accepts_a_split(st: WebState, client: Client) -> None:
    gid = _game_with_review(st, client)
    view = client.get(f"/api/games/{gid}/live").get_json()
    (item,) = view["review"]
    assert item["splits"][0]["names"] == ["Ben", "Cleo"]
    assert [t["text"] for t in item["splits"][0]["first"]] == ["Bs", "Gs"]
    page = client.get(f"/games/{gid}").data.decode()
    assert 'value="split"' in page and "Accept as two moves: Ben" in page
    r = client.form(f"/games/{gid}/action", {"action": "split", "index": "1", "split": "0"})
    assert r.status_code == 302
    game = st.store.game(gid)
    assert game.events[1:] == (Place(1, FIRST), Place(2, SECOND))
    result = replay(game)
    assert [t.points for t in result.turns] == [3, 3, 3] and all(t.legal for t in result.turns)
    assert result.next_player == 0
    assert [e.op for e in st.store.log(gid)][-2:] == ["replace", "insert"]


def test_later_turns_move_one_seat_on_when_that_keeps_the_order(
    st: WebState, client: Client
) -> None:
    # the camera gave the turn after the review to Cleo; with two turns there it was Ann's
    gid = _game_with_review(st, client, Place(2, Placement.parse("Pd@1,2")), Exchange(0, 2))
    r = client.post(f"/api/games/{gid}/corrections", json={"op": "split", "index": 1, "split": 0})
    assert r.status_code == 200, r.get_json()
    game = st.store.game(gid)
    assert [e.player for e in game.events] == [0, 1, 2, 0, 1]
    assert game.events[3] == Place(0, Placement.parse("Pd@1,2"))
    assert all(t.legal for t in replay(game).turns)


def test_bad_split_requests_change_nothing(st: WebState, client: Client) -> None:
    gid = _game_with_review(st, client)
    before = st.store.game(gid)
    r = client.post(f"/api/games/{gid}/corrections", json={"op": "split", "index": 1, "split": 5})
    assert r.status_code == 400 and r.get_json()["error"] == "bad_split"
    r = client.post(f"/api/games/{gid}/corrections", json={"op": "split", "index": 0, "split": 0})
    assert r.status_code == 409 and r.get_json()["error"] == "not_review"
    r = client.post(f"/api/games/{gid}/corrections", json={"op": "split", "index": 9})
    assert r.status_code == 404
    assert st.store.game(gid) == before


def test_a_stale_split_stores_nothing(st: WebState, client: Client) -> None:
    """Two clicks (or two tabs) computed from the same game: the second must not insert the
    second turn again - the game changed under it, so it is refused with 409 and nothing is
    stored."""
    import pytest

    from scorer.store import StaleEditError
    from webui.games import split_edits

    gid = _game_with_review(st, client)
    rev = st.store.revision(gid)
    edits = split_edits(st.store.game(gid), 1, 0)  # what the second click computed
    r = client.post(f"/api/games/{gid}/corrections", json={"op": "split", "index": 1, "split": 0})
    assert r.status_code == 200, r.get_json()
    before = st.store.game(gid)
    with pytest.raises(StaleEditError):
        st.store.correct_many(gid, edits, expect_revision=rev)  # type: ignore[arg-type]
    assert st.store.game(gid) == before
    assert before.events[1:] == (Place(1, FIRST), Place(2, SECOND))
    # the same request again: no review at that turn any more -> 409, nothing stored
    r = client.post(f"/api/games/{gid}/corrections", json={"op": "split", "index": 1, "split": 0})
    assert r.status_code == 409
    assert st.store.game(gid) == before
    unchanged = st.store.revision(gid)
    st.store.correct_many(gid, [])  # no edits: nothing written, the revision stays
    assert st.store.revision(gid) == unchanged
