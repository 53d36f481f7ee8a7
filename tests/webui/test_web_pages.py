"""Server-rendered pages and their form actions (Flask test client, real SQLite store)."""

from __future__ import annotations

import re
from typing import Any

from conftest import XSS_NAME, Client, tile
from flask import Flask

from webui.app import create_app
from webui.games import state


def _form_turn(**fields: Any) -> dict[str, Any]:
    return {k: str(v) for k, v in fields.items()}


def test_every_page_renders(client: Client, game_id: int) -> None:
    for url in ("/", f"/games/{game_id}", f"/games/{game_id}/log", f"/games/{game_id}/end"):
        r = client.get(url)
        assert r.status_code == 200, url
        assert r.headers["Content-Type"].startswith("text/html")
        assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    live = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "column of 2 = 2" in live and 'id="scoreboard"' in live
    assert "Unseen tiles" in live and 'id="bag">93<' in live


def test_live_redirects_to_the_current_game(client: Client, game_id: int) -> None:
    r = client.get("/live")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/games/{game_id}")


def test_live_without_games_goes_to_new_game(client: Client) -> None:
    r = client.get("/live")
    assert r.status_code == 302 and r.headers["Location"].endswith("/")


def test_unknown_game_page_is_404_html(client: Client) -> None:
    r = client.get("/games/42/log")
    assert r.status_code == 404 and b"no game with id 42" in r.data


def test_new_game_form(client: Client) -> None:
    r = client.form(
        "/games",
        {
            "player": ["Ann", "Ben", "", ""],
            "variant": "extra",
            "tie_break": "youngest",
            "camera": "0",
        },
    )
    assert r.status_code == 302
    gid = int(r.headers["Location"].rsplit("/", 1)[1])
    body = client.get(f"/api/games/{gid}").get_json()
    assert body["players"] == ["Ann", "Ben"] and body["variant"] == "extra"
    r = client.form("/games", {"player": ["Ann", "Ann"]})
    assert r.status_code == 400 and b"names must be different" in r.data


def test_form_without_csrf_token_is_refused(client: Client, game_id: int) -> None:
    r = client.c.post(f"/games/{game_id}/action", data={"action": "pass"})
    assert r.status_code == 400 and b"CSRF" in r.data
    assert len(client.get("/api/game").get_json()["turns"]) == 2


def test_edit_a_tile_colour_shape_position_and_player(client: Client, game_id: int) -> None:
    # Turn 2 (Ben: blue circle at 1,0) becomes Ann's... no: keep Ben, but make it a red
    # diamond at (0, 2): row of 3 = 3.
    r = client.form(
        f"/games/{game_id}/log/1",
        _form_turn(
            op="save",
            kind="place",
            player=1,
            t0_color="red",
            t0_shape="diamond",
            t0_row=0,
            t0_col=2,
            t1_color="",
            t1_shape="circle",
            t1_row=0,
            t1_col=0,
        ),
    )
    assert r.status_code == 302 and r.headers["Location"].endswith("#turn-2")
    assert client.get("/api/game").get_json()["totals"] == [2, 3]
    log = client.get(f"/games/{game_id}/log").get_data(as_text=True)
    assert "row of 3 = 3" in log


def test_edit_adds_and_removes_tiles(client: Client, game_id: int) -> None:
    r = client.form(
        f"/games/{game_id}/log/0",
        _form_turn(
            op="save",
            kind="place",
            player=0,
            t0_color="red",
            t0_shape="circle",
            t0_row=0,
            t0_col=0,
            t1_color="red",
            t1_shape="square",
            t1_row=0,
            t1_col=1,
            t1_remove=1,
            t2_color="red",
            t2_shape="star4",
            t2_row=0,
            t2_col=1,
            notation="Rd@0,2",
        ),
    )
    assert r.status_code == 302
    body = client.get("/api/game").get_json()
    assert [t["color"] + t["shape"] for t in body["turns"][0]["tiles"]] == [
        "redcircle",
        "redstar4",
        "reddiamond",
    ]
    assert body["totals"][0] == 3


def test_delete_and_insert_turns_from_the_log(client: Client, game_id: int) -> None:
    r = client.form(f"/games/{game_id}/log/1", {"op": "delete"})
    assert r.status_code == 302
    assert client.get("/api/game").get_json()["totals"] == [2, 0]
    r = client.form(
        f"/games/{game_id}/log/new",
        _form_turn(position=2, kind="exchange", player=1, count=2, t0_color=""),
    )
    assert r.status_code == 302
    r = client.form(f"/games/{game_id}/log/new", _form_turn(position=1, kind="pass", player=1))
    turns = client.get("/api/game").get_json()["turns"]
    assert [t["kind"] for t in turns] == ["pass", "place", "exchange"]
    assert turns[0]["legal"] is False  # a pass with tiles in the bag is flagged, not dropped


def test_malformed_form_edits_are_400_and_change_nothing(client: Client, game_id: int) -> None:
    before = client.get("/api/game").get_json()
    bad = [
        _form_turn(
            op="save",
            kind="place",
            player=1,
            t0_color="red",
            t0_shape="circle",
            t0_row="x",
            t0_col=0,
        ),
        _form_turn(
            op="save", kind="place", player=1, t0_color="red", t0_shape="blob", t0_row=0, t0_col=0
        ),
        _form_turn(op="save", kind="place", player=1, t0_color=""),
        _form_turn(op="save", kind="place", player=1, notation="Zq@1"),
        _form_turn(op="save", kind="teleport", player=1),
        _form_turn(op="save", kind="pass", player=9),
        _form_turn(op="frobnicate", kind="pass", player=1),
    ]
    for data in bad:
        r = client.form(f"/games/{game_id}/log/1", data)
        assert r.status_code == 400, data
    r = client.form(f"/games/{game_id}/log/7", {"op": "delete"})
    assert r.status_code == 404
    assert client.get("/api/game").get_json() == before


def test_live_buttons_exchange_pass_out_finish(client: Client, game_id: int) -> None:
    assert (
        client.form(f"/games/{game_id}/action", {"action": "exchange", "count": "3"}).status_code
        == 302
    )
    turns = client.get("/api/game").get_json()["turns"]
    assert turns[-1]["kind"] == "exchange" and turns[-1]["player"] == 0  # Ann was next
    client.form(f"/games/{game_id}/action", {"action": "out"})
    body = client.get("/api/game").get_json()
    assert body["turns"][1]["out"] is True and body["totals"] == [2, 8]
    r = client.form(f"/games/{game_id}/action", {"action": "finish"})
    assert r.headers["Location"].endswith(f"/games/{game_id}/end")
    assert client.get(f"/api/games/{game_id}").get_json()["status"] == "finished"
    end = client.get(f"/games/{game_id}/end").get_data(as_text=True)
    assert "Ben wins" in end
    r = client.form(f"/games/{game_id}/action", {"action": "dance"})
    assert r.status_code == 400


def test_review_queue_accept_and_dismiss(client: Client, st: Any, game_id: int) -> None:
    from scorer.game import Review
    from scorer.model import Placement

    seen = Placement.parse("Gc@2,0")
    cand = Placement.parse("Bd@2,0")
    st.store.append(game_id, Review(0, "tiles changed", seen, (cand,)), source="camera")
    live = client.get(f"/api/games/{game_id}/live").get_json()
    assert [r["reason"] for r in live["review"]] == ["tiles changed"]
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Accept reading 1: Bd@2,0" in page
    r = client.form(
        f"/games/{game_id}/action", {"action": "accept", "index": "2", "candidate": "0"}
    )
    assert r.status_code == 302
    body = client.get("/api/game").get_json()
    assert body["turns"][2]["kind"] == "place" and body["totals"] == [5, 2]  # Rc-Bc-Gc column
    r = client.form(f"/games/{game_id}/action", {"action": "dismiss", "index": "2"})
    assert r.status_code == 409  # no longer a review
    st.store.append(game_id, Review(1, "two moves at once"), source="camera")
    client.form(f"/games/{game_id}/action", {"action": "dismiss", "index": "3"})
    assert len(client.get("/api/game").get_json()["turns"]) == 3


def test_xss_name_is_escaped_everywhere(client: Client) -> None:
    gid = client.post("/api/games", json={"players": [XSS_NAME, "Ben"]}).get_json()["id"]
    client.post(
        f"/api/games/{gid}/turns", json={"player": 0, "place": [tile(0, 0, "red", "circle")]}
    )
    for url in ("/", f"/games/{gid}", f"/games/{gid}/log", f"/games/{gid}/end"):
        html = client.get(url).get_data(as_text=True)
        assert "<img src=x" not in html, url
        assert "&lt;img src=x onerror=alert(1)&gt;" in html, url
    svg = client.get(f"/games/{gid}/board.svg").get_data(as_text=True)
    assert "<img" not in svg and "<script" not in svg


def test_board_svg_labels_scored_lines(client: Client, game_id: int) -> None:
    r = client.get(f"/games/{game_id}/board.svg")
    assert r.headers["Content-Type"].startswith("image/svg+xml")
    svg = r.get_data(as_text=True)
    assert svg.count('class="tile') == 3
    assert svg.count('class="tile last"') == 1  # Ben's last tile
    assert re.search(r'class="line-label".*>2</text>', svg)


def test_pin_guards_changes(tmp_path: Any) -> None:
    app: Flask = create_app(
        {"TABLETALLY_DB": tmp_path / "pin.sqlite3", "TESTING": True, "TABLETALLY_PIN": "4321"}
    )
    try:
        c = Client(app.test_client())
        r = c.post("/api/games", json={"players": ["A", "B"]})
        assert r.status_code == 403 and r.get_json()["error"] == "pin_required"
        r = c.post("/api/games", json={"players": ["A", "B"]}, headers={"X-Tabletally-PIN": "1"})
        assert r.status_code == 403
        r = c.post("/api/games", json={"players": ["A", "B"]}, headers={"X-Tabletally-PIN": "4321"})
        assert r.status_code == 201
        gid = r.get_json()["id"]
        r = c.form(
            f"/games/{gid}/action",
            {"action": "pass"},
            headers={"Referer": f"http://localhost/games/{gid}"},
        )
        assert r.status_code == 302
        assert r.headers["Location"].endswith(f"/pin?next=/games/{gid}")
        assert c.form("/pin", {"pin": "0000", "next": "/"}).status_code == 403
        r = c.form("/pin", {"pin": "4321", "next": f"/games/{gid}"})
        assert r.status_code == 302 and r.headers["Location"].endswith(f"/games/{gid}")
        r = c.form(f"/games/{gid}/action", {"action": "exchange", "count": "1"})
        assert r.status_code == 302 and "/pin" not in r.headers["Location"]
        assert len(c.get("/api/game").get_json()["turns"]) == 1
        assert c.get("/api/game").status_code == 200  # reading needs no PIN
    finally:
        state(app).store.close()


def test_pin_next_cannot_redirect_offsite(tmp_path: Any) -> None:
    app = create_app({"TABLETALLY_DB": tmp_path / "p.sqlite3", "TABLETALLY_PIN": "1"})
    try:
        c = Client(app.test_client())
        r = c.form("/pin", {"pin": "1", "next": "//evil.example/"})
        assert r.status_code == 302 and r.headers["Location"] == "/"
    finally:
        state(app).store.close()


def test_import_form(client: Client, dutch_record: dict[str, Any]) -> None:
    import io
    import json

    data = {"record": (io.BytesIO(json.dumps(dutch_record).encode()), "dutch.json")}
    r = client.form("/import", data, content_type="multipart/form-data")
    assert r.status_code == 302 and "/log" in r.headers["Location"]
    r = client.form("/import", {}, content_type="multipart/form-data")
    assert r.status_code == 400


def test_calibration_blueprint_is_optional(app: Flask) -> None:
    # With or without webui.calibrate, the app builds and serves its own routes.
    assert {"pages", "api", "exports"} <= set(app.blueprints)


def test_action_next_cannot_redirect_offsite(client: Client, game_id: int) -> None:
    for evil in ("https://evil.example/", "//evil.example/x", "/\\evil.example"):
        r = client.form(f"/games/{game_id}/action", {"action": "pass", "next": evil})
        assert r.status_code == 302
        assert r.headers["Location"].endswith(f"/games/{game_id}"), evil
    r = client.form(f"/games/{game_id}/action", {"action": "pass", "next": f"/games/{game_id}/log"})
    assert r.headers["Location"].endswith(f"/games/{game_id}/log")


def test_every_route_answers_and_every_write_needs_csrf(
    app: Flask, client: Client, game_id: int
) -> None:
    """A safety net over the whole URL map: no GET route fails with a 5xx, and no write route
    accepts a request without the CSRF token."""
    own = ("pages.", "api.", "exports.")
    rules = [r for r in app.url_map.iter_rules() if r.endpoint.startswith(own)]
    assert len(rules) > 30
    args = {"game_id": game_id, "index": 0}
    for rule in rules:
        url = rule.build(args)[1] if rule.arguments else rule.rule  # type: ignore[index]
        if "GET" in (rule.methods or ()):
            r = client.get(url)
            assert r.status_code < 500, (url, r.status_code)
            r.close()  # streams (SSE, MJPEG) are not read
        for method in {"POST", "PATCH", "PUT", "DELETE"} & set(rule.methods or ()):
            r = client.c.open(url, method=method, json={})
            assert r.status_code == 400, (method, url, r.status_code)
            assert b"CSRF" in r.data or b"csrf" in r.data, (method, url)
