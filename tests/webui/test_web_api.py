"""The JSON API (INTERFACES.md "HTTP") through Flask's test client on a real SQLite store."""

from __future__ import annotations

import io
import json
from typing import Any

from conftest import XSS_NAME, Client, tile

from scorer.record import load_record


def test_no_game_yet_is_a_json_404(client: Client) -> None:
    r = client.get("/api/game")
    assert r.status_code == 404
    assert r.get_json()["error"] == "no_game"
    assert "create one" in r.get_json()["message"]


def test_current_game_is_the_score_json_plus_status_and_id(client: Client, game_id: int) -> None:
    body = client.get("/api/game").get_json()
    assert body["id"] == game_id and body["status"] == "active"
    assert body["players"] == ["Ann", "Ben"]
    assert body["totals"] == [2, 2]
    assert body["winners"] == [0, 1]
    first = body["turns"][0]
    assert {"player", "points", "legal", "reason", "lines", "qwirkle"} <= set(first)
    assert first["lines"][0]["direction"] == "row" and first["lines"][0]["length"] == 2
    assert client.get(f"/api/games/{game_id}").get_json() == body


def test_current_game_prefers_an_active_game(client: Client, game_id: int) -> None:
    other = client.post("/api/games", json={"players": ["Cleo", "Dev"]}).get_json()["id"]
    assert client.get("/api/game").get_json()["id"] == other
    r = client.post(f"/api/games/{other}/status", json={"status": "finished"})
    assert r.status_code == 200 and r.get_json()["game"]["status"] == "finished"
    assert client.get("/api/game").get_json()["id"] == game_id


def test_unknown_game_is_404_json_on_every_route(client: Client) -> None:
    for url in (
        "/api/games/999",
        "/api/games/999/record",
        "/api/games/999/live",
        "/api/games/999/log",
        "/api/games/999/summary",
        "/api/games/999/sheet.csv",
        "/api/games/999/sheet.pdf",
    ):
        r = client.get(url)
        assert r.status_code == 404, url
        assert r.get_json() == {"error": "unknown_game", "message": "no game with id 999"}
    r = client.post("/api/games/999/turns", json={"player": 0, "pass": True})
    assert r.status_code == 404 and r.get_json()["error"] == "unknown_game"


def test_record_round_trips_through_the_scorer(client: Client, game_id: int) -> None:
    rec = client.get("/api/game/record").get_json()
    assert rec["format"] == "tabletally-game/1"
    game = load_record(rec)
    assert game.players == ("Ann", "Ben") and len(game.events) == 2
    r = client.get(f"/api/games/{game_id}/record?download=1")
    assert "attachment" in r.headers["Content-Disposition"]


def test_patch_turn_recomputes_later_scores(client: Client, game_id: int) -> None:
    # Ben's blue circle becomes a red circle under Ann's red circle: column of 2 still = 2,
    # then moving it to (0, 2) makes a row of 3 = 3.
    r = client.patch(
        f"/api/games/{game_id}/turns/1", json={"player": 1, "place": [tile(0, 2, "red", "diamond")]}
    )
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["game"]["totals"] == [2, 3]
    assert client.get("/api/game").get_json()["totals"] == [2, 3]


def test_corrections_delete_insert_replace(client: Client, game_id: int) -> None:
    url = f"/api/games/{game_id}/corrections"
    r = client.post(url, json={"op": "delete", "index": 1})
    assert r.status_code == 200 and r.get_json()["game"]["totals"] == [2, 0]
    r = client.post(url, json={"op": "insert", "index": 1, "turn": {"player": 1, "exchange": 3}})
    assert r.status_code == 200
    kinds = [t["kind"] for t in r.get_json()["game"]["turns"]]
    assert kinds == ["place", "exchange"]
    r = client.post(
        url,
        json={
            "op": "replace",
            "index": 1,
            "turn": {
                "player": 1,
                "place": [tile(1, 0, "blue", "circle"), tile(1, 1, "blue", "square")],
            },
        },
    )
    assert r.status_code == 200
    assert r.get_json()["game"]["totals"] == [2, 6]  # row of 2 + two columns of 2


def test_malformed_corrections_are_400_and_change_nothing(client: Client, game_id: int) -> None:
    before = client.get("/api/game").get_json()
    url = f"/api/games/{game_id}/corrections"
    bad: list[tuple[Any, str]] = [
        ({"op": "explode", "index": 0, "turn": {"player": 0, "pass": True}}, "bad_op"),
        ({"op": "replace", "index": "x", "turn": {"player": 0, "pass": True}}, "bad_index"),
        ({"op": "replace", "index": 0}, "bad_turn"),
        (
            {
                "op": "replace",
                "index": 0,
                "turn": {
                    "player": 0,
                    "place": [{"row": 0, "col": 0, "color": "red", "shape": "hexagon"}],
                },
            },
            "bad_turn",
        ),
        ({"op": "replace", "index": 0, "turn": {"player": 7, "pass": True}}, "bad_turn"),
        ({"op": "replace", "index": 0, "turn": "pass"}, "bad_turn"),
        ([1, 2], "bad_json"),
    ]
    for body, code in bad:
        r = client.post(url, json=body)
        assert r.status_code == 400, (body, r.get_json())
        assert r.get_json()["error"] == code, (body, r.get_json())
        assert r.get_json()["message"]
    r = client.post(url, json={"op": "delete", "index": 5})
    assert r.status_code == 404 and r.get_json()["error"] == "unknown_turn"
    r = client.post(url, data="not json", content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"] == "bad_json"
    assert client.get("/api/game").get_json() == before


def test_bad_shape_message_names_the_field(client: Client, game_id: int) -> None:
    r = client.patch(
        f"/api/games/{game_id}/turns/0",
        json={"player": 0, "place": [{"row": 0, "col": 0, "color": "red", "shape": "hexagon"}]},
    )
    assert r.status_code == 400
    assert "turns[0].place[0].shape" in r.get_json()["message"]


def test_illegal_move_is_kept_flagged_and_explained(client: Client, game_id: int) -> None:
    r = client.post(
        f"/api/games/{game_id}/turns", json={"player": 0, "place": [tile(5, 5, "green", "star8")]}
    )  # touches nothing
    assert r.status_code == 201
    last = r.get_json()["game"]["turns"][-1]
    assert last["legal"] is False and last["points"] == 0 and last["reason"]
    live = client.get(f"/api/games/{game_id}/live").get_json()
    assert live["last_turn"]["label"].startswith("illegal, 0 points")
    assert any(t["flagged"] for t in live["board"])


def test_went_out_adds_the_end_bonus(client: Client, game_id: int) -> None:
    r = client.post(f"/api/games/{game_id}/out")
    assert r.status_code == 200
    body = r.get_json()["game"]
    assert body["turns"][1]["out"] is True and body["totals"] == [2, 8]
    assert body["finished"] is True


def test_went_out_before_any_placement_is_409(client: Client) -> None:
    gid = client.post("/api/games", json={"players": ["A", "B"]}).get_json()["id"]
    r = client.post(f"/api/games/{gid}/out")
    assert r.status_code == 409 and r.get_json()["error"] == "no_placement"


def test_create_game_validation(client: Client) -> None:
    cases = [
        ({"players": []}, "bad_players"),
        ({"players": "Ann"}, "bad_players"),
        ({"players": ["Ann", "Ann"]}, "bad_players"),
        ({"players": ["x" * 41]}, "bad_players"),
        ({"players": [f"p{i}" for i in range(9)]}, "bad_players"),
        ({"players": ["A", "B"], "variant": "turbo"}, "bad_variant"),
        ({"players": ["A", "B"], "tie_break": "tallest"}, "bad_tie_break"),
    ]
    for body, code in cases:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and r.get_json()["error"] == code, body
    assert client.get("/api/games").get_json() == []


def test_page_twins(client: Client, game_id: int) -> None:
    live = client.get(f"/api/games/{game_id}/live").get_json()
    assert live["last_turn"]["label"] == "column of 2 = 2"
    assert live["bag"] == 108 - 12 - 3
    assert live["unseen_total"] == 105
    assert sum(t["count"] for t in live["unseen"]) == 105
    assert {t["text"] for t in live["board"]} == {"Rc", "Rs", "Bc"}
    assert live["camera"]["state"] == "none"
    log = client.get(f"/api/games/{game_id}/log").get_json()
    assert [t["totals"] for t in log["turns"]] == [[2, 0], [2, 2]]
    summary = client.get("/api/game/summary").get_json()
    assert summary["best_turn"]["points"] == 2 and summary["winner_names"] == ["Ann", "Ben"]


def test_import_json_body_and_file(client: Client, dutch_record: dict[str, Any]) -> None:
    r = client.post("/api/import", json=dutch_record)
    assert r.status_code == 201
    body = r.get_json()["game"]
    assert [t["points"] for t in body["turns"]] == [3, 7, 4, 6, 7, 6, 3, 3, 10, 9, 18, 9]
    data = {"record": (io.BytesIO(json.dumps(dutch_record).encode()), "dutch.json")}
    r = client.post("/api/import", data=data, content_type="multipart/form-data")
    assert r.status_code == 201 and r.get_json()["id"] != body["id"]


def test_import_bad_record_names_the_field(client: Client, dutch_record: dict[str, Any]) -> None:
    dutch_record["turns"][3]["place"][0]["color"] = 42
    r = client.post("/api/import", json=dutch_record)
    assert r.status_code == 400 and r.get_json()["error"] == "bad_record"
    assert "turns[3].place[0].color" in r.get_json()["message"]
    data = {"record": (io.BytesIO(b"{nope"), "broken.json")}
    r = client.post("/api/import", data=data, content_type="multipart/form-data")
    assert r.status_code == 400 and "broken.json" in r.get_json()["message"]
    assert client.get("/api/games").get_json() == []


def test_oversized_upload_is_413_json(client: Client, dutch_record: dict[str, Any]) -> None:
    big = dict(dutch_record, padding="x" * (1024 * 1024 + 10))
    r = client.post("/api/import", json=big)
    assert r.status_code == 413
    assert r.get_json()["error"] == "too_large"
    assert client.get("/api/games").get_json() == []


def test_writes_need_the_csrf_token(client: Client, game_id: int) -> None:
    raw = client.c
    r = raw.post(f"/api/games/{game_id}/turns", json={"player": 0, "pass": True})
    assert r.status_code == 400 and r.get_json()["error"] == "csrf"
    r = raw.post(
        f"/api/games/{game_id}/turns",
        json={"player": 0, "pass": True},
        headers={"X-CSRFToken": "forged"},
    )
    assert r.status_code == 400 and r.get_json()["error"] == "csrf"
    assert len(client.get("/api/game").get_json()["turns"]) == 2


def test_reads_are_get_only(client: Client, game_id: int) -> None:
    r = client.post("/api/game")
    assert r.status_code == 405 and r.get_json()["error"] == "method_not_allowed"


def test_xss_name_is_plain_data_in_json(client: Client) -> None:
    r = client.post("/api/games", json={"players": [XSS_NAME, "Ben"]})
    gid = r.get_json()["id"]
    assert client.get(f"/api/games/{gid}").get_json()["players"][0] == XSS_NAME
    assert client.get(f"/api/games/{gid}").headers["Content-Type"].startswith("application/json")
