"""The JSON API under ``/api`` (INTERFACES.md "HTTP" plus the twins of every page).

Reading:
- ``GET /api/game`` — the current game (see :mod:`webui.games`) as the ``score --json`` object
  plus ``"status"`` and ``"id"``; ``GET /api/games/<id>`` — the same for any game.
- ``GET /api/game/record``, ``/api/games/<id>/record`` — the ``tabletally-game/1`` record.
- ``GET /api/games`` — every game (``id, players, variant, status, created, updated``).
- ``GET /api/games/<id>/live | /log | /summary`` — the JSON twins of the Live, Move log and End
  of game pages (``/api/game/live`` etc. for the current game).
- ``GET /api/csrf`` — ``{"csrf_token": ...}`` for scripts (send it back as ``X-CSRFToken``).

Writing (POST/PATCH only, CSRF token required, PIN when configured):
- ``POST /api/games`` ``{"players": ["Ann", "Ben"], "variant": "standard", "tie_break": "oldest"}``
  -> 201 ``{"id": ...}``.
- ``POST /api/games/<id>/turns`` a record turn (``{"player": 0, "place": [...]}``,
  ``{"player": 1, "exchange": 3}``, ``{"player": 0, "pass": true}``) -> 201 ``{"index": k}``.
- ``PATCH /api/games/<id>/turns/<k>`` a record turn -> replaces turn k (a stored correction).
- ``POST /api/games/<id>/corrections`` ``{"op": "replace"|"delete"|"insert", "index": k,
  "turn": {...}}``, or ``{"op": "split", "index": k, "split": s}``: accept split ``s`` of the
  review at ``k`` as two turns (stored in one transaction).
- ``POST /api/games/<id>/out`` — the latest placement emptied its player's hand (+6).
- ``POST /api/games/<id>/status`` ``{"status": "finished"|"active"}``.
- ``POST /api/import`` a record (JSON body, or a multipart file field ``record``) -> 201 a new
  game, to continue it live or just re-score it.
Every write answers with the game's fresh ``score --json`` object (``"game"``) so the client
sees the recomputed totals at once.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, jsonify, request
from flask_wtf.csrf import generate_csrf

from scorer.record import RecordError, dump_record, load_record, result_json
from webui import games as g
from webui.views import live_view, log_view, summary_view

bp = Blueprint("api", __name__, url_prefix="/api")

__all__ = ["bp", "game_json", "parse_players"]


def game_json(game_id: int) -> dict[str, Any]:
    """The ``score --json`` object of a game plus ``status`` and ``id`` (INTERFACES.md)."""
    st = g.state()
    gi, game, result = g.load(st, game_id)
    out = dict(result_json(game, result))
    out["status"] = gi.status
    out["id"] = game_id
    return out


def _resolve(game_id: int | None) -> int:
    return g.current_game_id(g.state()) if game_id is None else game_id


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if data is None:
        raise g.ApiError(
            400, "bad_json", "expected a JSON object body (Content-Type: application/json)"
        )
    if not isinstance(data, dict):
        raise g.ApiError(400, "bad_json", "expected a JSON object body")
    return data


def parse_players(raw: Any, max_players: int, max_len: int) -> list[str]:
    """Player names from a list of strings: stripped, non-empty, unique, 1..max_players."""
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise g.ApiError(400, "bad_players", "players: expected a list of names")
    names = [p.strip() for p in raw if p.strip()]
    if not 1 <= len(names) <= max_players:
        raise g.ApiError(
            400, "bad_players", f"players: expected 1 to {max_players} names, got {len(names)}"
        )
    if len(set(names)) != len(names):
        raise g.ApiError(400, "bad_players", "players: names must be different")
    too_long = [n for n in names if len(n) > max_len]
    if too_long:
        raise g.ApiError(400, "bad_players", f"players: name longer than {max_len} characters")
    return names


def create_game(
    players: Any,
    variant: Any = "standard",
    tie_break: Any = "oldest",
    meta: dict[str, Any] | None = None,
) -> int:
    st = g.state()
    names = parse_players(players, st.settings.max_players, st.settings.max_name_length)
    if variant not in ("standard", "extra"):
        raise g.ApiError(
            400, "bad_variant", f"variant: expected 'standard' or 'extra', got {variant!r}"
        )
    if tie_break not in ("oldest", "youngest"):
        raise g.ApiError(
            400, "bad_tie_break", f"tie_break: expected 'oldest' or 'youngest', got {tie_break!r}"
        )
    gid = int(
        st.store.create_game(tuple(names), variant=variant, tie_break=tie_break, meta=meta or {})
    )
    st.hub.bump(gid)
    return gid


def import_record(data: Any, source: str = "upload") -> int:
    """Validate a record (raising ApiError 400 naming the field) and store it as a new game."""
    if isinstance(data, (bytes, str)):
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError) as e:
            raise g.ApiError(400, "bad_record", f"{source}: malformed JSON ({e})") from None
    try:
        load_record(data, source=source)
    except RecordError as e:
        raise g.ApiError(400, "bad_record", str(e)) from None
    st = g.state()
    gid = int(st.store.import_record(data))
    st.hub.bump(gid)
    return gid


# -- reading -----------------------------------------------------------------------------------
@bp.get("/csrf")
def csrf() -> Response:
    return jsonify({"csrf_token": generate_csrf()})


@bp.get("/games")
def list_games() -> Response:
    st = g.state()
    return jsonify(
        [
            {
                "id": i.id,
                "players": list(i.players),
                "variant": i.variant,
                "status": i.status,
                "created": str(i.created),
                "updated": str(i.updated),
            }
            for i in st.store.list_games()
        ]
    )


@bp.get("/game")
@bp.get("/games/<int:game_id>")
def game(game_id: int | None = None) -> Response:
    return jsonify(game_json(_resolve(game_id)))


@bp.get("/game/record")
@bp.get("/games/<int:game_id>/record")
def record(game_id: int | None = None) -> Response:
    gid = _resolve(game_id)
    _, game_, _ = g.load(g.state(), gid)
    resp = jsonify(dump_record(game_))
    if request.args.get("download"):
        resp.headers["Content-Disposition"] = f'attachment; filename="tabletally-game-{gid}.json"'
    return resp


@bp.get("/game/live")
@bp.get("/games/<int:game_id>/live")
def live(game_id: int | None = None) -> Response:
    st = g.state()
    gid = _resolve(game_id)
    gi, game_, result = g.load(st, gid)
    out = live_view(gid, gi.status, game_, result, g.camera_health(st, gid))
    out["version"] = st.hub.version(gid)
    out["note"] = st.notes.get(gid)
    return jsonify(out)


@bp.get("/game/log")
@bp.get("/games/<int:game_id>/log")
def log(game_id: int | None = None) -> Response:
    st = g.state()
    gid = _resolve(game_id)
    gi, game_, result = g.load(st, gid)
    return jsonify(log_view(gid, gi.status, game_, result))


@bp.get("/game/summary")
@bp.get("/games/<int:game_id>/summary")
def summary(game_id: int | None = None) -> Response:
    st = g.state()
    gid = _resolve(game_id)
    gi, game_, result = g.load(st, gid)
    return jsonify(summary_view(gid, gi.status, game_, result))


# -- writing -----------------------------------------------------------------------------------
def _written(game_id: int, status: int = 200, **extra: Any) -> tuple[Response, int]:
    body = dict(extra)
    body["game"] = game_json(game_id)
    return jsonify(body), status


@bp.post("/games")
def new_game() -> tuple[Response, int]:
    data = _body()
    gid = create_game(
        data.get("players"),
        data.get("variant", "standard"),
        data.get("tie_break", "oldest"),
        {k: data[k] for k in ("profile", "camera") if k in data},
    )
    return _written(gid, 201, id=gid)


@bp.post("/games/<int:game_id>/turns")
def add_turn(game_id: int) -> tuple[Response, int]:
    st = g.state()
    _, game_, _ = g.load(st, game_id)
    event = g.turn_from_json(game_, _body())
    k = g.append(st, game_id, event, source="ui")
    return _written(game_id, 201, index=k)


@bp.patch("/games/<int:game_id>/turns/<int:index>")
def patch_turn(game_id: int, index: int) -> tuple[Response, int]:
    st = g.state()
    _, game_, _ = g.load(st, game_id)
    event = g.turn_from_json(game_, _body(), where=f"turns[{index}]")
    g.correct(st, game_id, "replace", index, event)
    return _written(game_id, index=index)


@bp.post("/games/<int:game_id>/corrections")
def correction(game_id: int) -> tuple[Response, int]:
    st = g.state()
    _, game_, _ = g.load(st, game_id)
    data = _body()
    op = data.get("op")
    index = data.get("index")
    event = None
    if op == "split":
        g.accept_split(st, game_id, index, data.get("split", 0))
        return _written(game_id, op=op, index=index)
    if op in ("replace", "insert"):
        if "turn" not in data:
            raise g.ApiError(400, "bad_turn", f"turn: required for op {op!r}")
        event = g.turn_from_json(game_, data["turn"])
    g.correct(st, game_id, str(op) if isinstance(op, str) else repr(op), index, event)
    return _written(game_id, op=op, index=index)


@bp.post("/games/<int:game_id>/out")
def out(game_id: int) -> tuple[Response, int]:
    st = g.state()
    g.load(st, game_id)
    k = g.went_out(st, game_id)
    return _written(game_id, index=k)


@bp.post("/games/<int:game_id>/status")
def status(game_id: int) -> tuple[Response, int]:
    st = g.state()
    g.set_status(st, game_id, _body().get("status"))
    return _written(game_id)


@bp.post("/import")
def import_() -> tuple[Response, int]:
    upload = request.files.get("record")
    if upload is not None:
        gid = import_record(upload.read(), source=upload.filename or "upload")
    else:
        gid = import_record(_body(), source="request body")
    return _written(gid, 201, id=gid)
