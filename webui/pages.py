"""Server-rendered pages, their form actions, and the live streams (SSE, MJPEG).

Pages (each has a JSON twin under ``/api``; see :mod:`webui.api`):

- ``/`` — New game (players in order, variant, tie-break, tile-set profile, camera source),
  the list of games, and import of a record;
- ``/games/<id>`` — Live: scoreboard, board SVG with the last move and its scored lines,
  camera view (MJPEG) and health, review queue, unseen tiles and bag, Exchange/Pass/Went out;
- ``/games/<id>/log`` — Move log: every turn editable (tile colour/shape/position, player,
  kind), delete or insert turns; scores recompute at once;
- ``/games/<id>/end`` — End of game: winner, totals, best turn, Qwirkles per player;
- ``/live`` — redirects to the current game's Live page.

Streams: ``/games/<id>/events`` (Server-Sent Events: ``game`` when the log changed, ``health``
every second) and ``/camera.mjpg`` (``multipart/x-mixed-replace`` JPEG frames). The page's
script (``static/live.js``) writes every value with ``textContent``/DOM nodes, never
``innerHTML``, so names like ``<img src=x onerror=...>`` stay text.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    redirect,
    render_template,
    request,
    session,
    stream_with_context,
    url_for,
)
from werkzeug.wrappers import Response as WResponse

from scorer.model import CLASSIC_COLORS, NotationError, Placement, Shape
from scorer.record import dump_record
from webui import games as g
from webui.api import create_game, import_record
from webui.views import NO_CAMERA, board_picture, live_view, log_view, summary_view

bp = Blueprint("pages", __name__)

__all__ = ["bp"]

SHAPES = [s.value for s in Shape]


def _form_int(name: str, default: int | None = None) -> int:
    raw = request.form.get(name, "")
    if raw.strip() == "" and default is not None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise g.ApiError(400, "bad_form", f"{name}: expected a whole number, got {raw!r}") from None


def _turn_from_form(prefix: str = "") -> dict[str, Any]:
    """A record turn (INTERFACES.md form) from the move-log / live forms.

    Fields: ``kind`` (place|exchange|pass), ``player``, ``count``, ``out``, tile rows
    ``t<i>_color``, ``t<i>_shape``, ``t<i>_row``, ``t<i>_col``, ``t<i>_remove``, and ``notation``
    (``"Rs@0,1 Rc@0,2"``, appended to the rows).
    """
    f = request.form
    kind = f.get(prefix + "kind", "place")
    turn: dict[str, Any] = {"player": _form_int(prefix + "player")}
    if kind == "exchange":
        turn["exchange"] = _form_int(prefix + "count")
    elif kind == "pass":
        turn["pass"] = True
    elif kind == "place":
        tiles: list[dict[str, Any]] = []
        i = 0
        while f"{prefix}t{i}_color" in f:
            color = f.get(f"{prefix}t{i}_color", "").strip()
            if color and not f.get(f"{prefix}t{i}_remove"):
                tiles.append(
                    {
                        "row": _form_int(f"{prefix}t{i}_row"),
                        "col": _form_int(f"{prefix}t{i}_col"),
                        "color": color,
                        "shape": f.get(f"{prefix}t{i}_shape", ""),
                    }
                )
            i += 1
        text = f.get(prefix + "notation", "").strip()
        if text:
            try:
                placement = Placement.parse(text)
            except NotationError as e:
                raise g.ApiError(400, "bad_notation", f"tiles: {e}") from None
            tiles += [
                {"row": p.row, "col": p.col, "color": t.color, "shape": t.shape.value}
                for p, t in placement
            ]
        if not tiles:
            raise g.ApiError(400, "bad_turn", "a placement needs at least one tile")
        turn["place"] = tiles
        if f.get(prefix + "out"):
            turn["out"] = True
    else:
        raise g.ApiError(400, "bad_turn", f"kind: expected place, exchange or pass, got {kind!r}")
    return turn


def _local(url: str | None) -> str | None:
    """``url`` if it is a path on this server (no scheme, no host), else None: redirects
    never leave the site (no open redirect through ``next``)."""
    if not url or not url.startswith("/") or url.startswith(("//", "/\\")):
        return None
    return url


def _common(gid: int) -> dict[str, Any]:
    st = g.state()
    return {
        "gid": gid,
        "note": st.notes.get(gid),
        "pin_needed": bool(st.pin) and session.get("pin_ok") is not True,
        "has_camera": st.live is not None and st.live.game_id == gid,
    }


# -- pages ---------------------------------------------------------------------------------
@bp.get("/")
def index() -> str:
    st = g.state()
    games = st.store.list_games()
    return render_template(
        "index.html",
        games=games,
        variants=("standard", "extra"),
        colors=CLASSIC_COLORS,
        max_players=st.settings.max_players,
        current="new",
    )


@bp.post("/games")
def new_game() -> WResponse:
    """Create a game from the New game form. A camera source starts the live pipeline on it
    (only from this computer, or with the organiser PIN: the server opens what is named); with
    no source, a running camera that follows new games switches to it."""
    st = g.state()
    f = request.form
    names = f.getlist("player") or f.get("players", "").splitlines()
    camera = f.get("camera", "").strip()
    profile = f.get("profile", "").strip()
    opened = None
    if camera:
        remote = request.remote_addr or ""
        if not (st.pin or remote in ("127.0.0.1", "::1")):
            raise g.ApiError(
                403,
                "camera_local_only",
                "a camera can be chosen here only on the server's own computer "
                "or with an organiser PIN (tabletally serve --pin)",
            )
        from webui.live import open_camera

        try:
            opened = open_camera(camera, profile or None)
        except ValueError as e:
            raise g.ApiError(400, "bad_camera", str(e)) from None
    meta = {"profile": profile or None, "camera": camera or None}
    try:
        gid = create_game(
            names,
            f.get("variant", "standard"),
            f.get("tie_break", "oldest"),
            {k: v for k, v in meta.items() if v},
        )
    except g.ApiError:
        if opened is not None:
            opened[0].close()
        raise
    from webui.live import CameraFeed, attach_camera

    if opened is not None:
        attach_camera(current_app, gid, opened[0], opened[1], f"camera {camera}")
    elif isinstance(st.live, CameraFeed) and st.live.follow_new_games:
        st.live.retarget(gid)
    return redirect(url_for("pages.live", game_id=gid))


@bp.post("/import")
def import_page() -> WResponse:
    upload = request.files.get("record")
    if upload is None or not upload.filename:
        raise g.ApiError(400, "no_file", "choose a tabletally-game/1 JSON file to import")
    gid = import_record(upload.read(), source=upload.filename)
    return redirect(url_for("pages.log", game_id=gid))


@bp.get("/live")
def current_live() -> WResponse:
    st = g.state()
    try:
        gid = g.current_game_id(st)
    except g.ApiError:
        return redirect(url_for("pages.index"))
    return redirect(url_for("pages.live", game_id=gid))


@bp.get("/games/<int:game_id>")
def live(game_id: int) -> str:
    st = g.state()
    gi, game, result = g.load(st, game_id)
    view = live_view(game_id, gi.status, game, result, g.camera_health(st, game_id))
    return render_template(
        "live.html", v=view, version=st.hub.version(game_id), current="live", **_common(game_id)
    )


@bp.get("/games/<int:game_id>/log")
def log(game_id: int) -> str:
    st = g.state()
    gi, game, result = g.load(st, game_id)
    view = log_view(game_id, gi.status, game, result)
    return render_template(
        "log.html",
        v=view,
        colors=list(game.colors),
        shapes=SHAPES,
        current="log",
        **_common(game_id),
    )


@bp.get("/games/<int:game_id>/end")
def end(game_id: int) -> str:
    st = g.state()
    gi, game, result = g.load(st, game_id)
    view = summary_view(game_id, gi.status, game, result)
    return render_template("end.html", v=view, current="end", **_common(game_id))


@bp.get("/games/<int:game_id>/board.svg")
def board_svg(game_id: int) -> Response:
    st = g.state()
    _, game, result = g.load(st, game_id)
    upto = request.args.get("upto", type=int)
    pic = board_picture(game, result, upto)
    resp = Response(pic.svg(title=f"Board of game {game_id}"), mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "no-store"
    return resp


# -- form actions ----------------------------------------------------------------------------
@bp.post("/games/<int:game_id>/action")
def action(game_id: int) -> WResponse:
    """Live page buttons: ``exchange`` (with ``count``), ``pass``, ``out``, ``finish``,
    ``resume``, and review resolution (``accept`` with ``index`` and ``candidate``, ``dismiss``,
    ``split`` with ``index`` and ``split``: the review accepted as two turns)."""
    st = g.state()
    _, game, result = g.load(st, game_id)
    what = request.form.get("action", "")
    player = _form_int("player", result.next_player)
    if what == "exchange":
        ev = g.turn_from_json(game, {"player": player, "exchange": _form_int("count", 1)})
        g.append(st, game_id, ev)
    elif what == "pass":
        g.append(st, game_id, g.turn_from_json(game, {"player": player, "pass": True}))
    elif what == "out":
        g.went_out(st, game_id)
    elif what in ("finish", "resume"):
        g.set_status(st, game_id, "finished" if what == "finish" else "active")
        if what == "finish":
            return redirect(url_for("pages.end", game_id=game_id))
    elif what == "split":
        g.accept_split(st, game_id, _form_int("index"), _form_int("split", 0))
    elif what in ("accept", "dismiss"):
        k = g.check_index(game, _form_int("index"))
        review = dump_record(game)["turns"][k]
        if "review" not in review:
            raise g.ApiError(409, "not_review", f"turn {k + 1} is not waiting for review")
        if what == "dismiss":
            g.correct(st, game_id, "delete", k)
        else:
            cands = review["review"].get("candidates") or []
            c = _form_int("candidate", 0)
            options = [review["review"].get("seen") or [], *cands]
            if not 0 <= c < len(options) or not options[c]:
                raise g.ApiError(400, "bad_candidate", f"candidate {c} does not exist")
            g.correct(
                st,
                game_id,
                "replace",
                k,
                g.turn_from_json(game, {"player": review["player"], "place": options[c]}),
            )
    else:
        raise g.ApiError(400, "bad_action", f"unknown action {what!r}")
    return redirect(_local(request.form.get("next")) or url_for("pages.live", game_id=game_id))


@bp.post("/games/<int:game_id>/log/<int:index>")
def edit_turn(game_id: int, index: int) -> WResponse:
    """Move-log row: ``op`` = save (replace turn), delete, or insert (a new turn before it)."""
    st = g.state()
    _, game, _ = g.load(st, game_id)
    op = request.form.get("op", "save")
    if op == "delete":
        g.correct(st, game_id, "delete", index)
    elif op == "save":
        g.correct(
            st,
            game_id,
            "replace",
            index,
            g.turn_from_json(game, _turn_from_form(), f"turn {index + 1}"),
        )
    else:
        raise g.ApiError(400, "bad_op", f"op: expected save or delete, got {op!r}")
    return redirect(url_for("pages.log", game_id=game_id) + f"#turn-{index + 1}")


@bp.post("/games/<int:game_id>/log/new")
def add_turn(game_id: int) -> WResponse:
    """Insert a turn at ``position`` (1-based; default: the end) — exchange, pass or tiles."""
    st = g.state()
    _, game, _ = g.load(st, game_id)
    pos = _form_int("position", len(game.events) + 1) - 1
    event = g.turn_from_json(game, _turn_from_form(), "new turn")
    if pos == len(game.events):
        g.append(st, game_id, event)
    else:
        g.correct(st, game_id, "insert", pos, event)
    return redirect(url_for("pages.log", game_id=game_id) + f"#turn-{pos + 1}")


@bp.route("/pin", methods=["GET", "POST"])
def pin() -> WResponse | str | tuple[str, int]:
    """The organiser PIN form (only meaningful when a PIN is configured)."""
    import hmac

    st = g.state()
    nxt = _local(request.values.get("next")) or "/"
    if request.method == "POST":
        given = request.form.get("pin", "")
        if st.pin and hmac.compare_digest(given.encode(), st.pin.encode()):
            session["pin_ok"] = True
            return redirect(nxt)
        return render_template("pin.html", next=nxt, wrong=True, current=""), 403
    return render_template("pin.html", next=nxt, wrong=False, current="")


# -- streams ---------------------------------------------------------------------------------
def _sse(event: str, data: Any) -> str:
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


@bp.get("/games/<int:game_id>/events")
def events(game_id: int) -> Response:
    """Server-Sent Events: ``game`` ``{"version"}`` on every change of the log, ``health``
    (camera health dict) every ``sse_health_interval_s``. Closes after ``sse_max_age_s``."""
    st = g.state()
    g.info(st, game_id)
    hub, settings = st.hub, st.settings
    since = request.headers.get("Last-Event-ID")

    def stream() -> Iterator[str]:
        hub.enter()
        try:
            t_end = time.monotonic() + settings.sse_max_age_s
            seen = -1 if since is None else int(since) if since.isdigit() else -1
            yield f"retry: {settings.sse_retry_ms}\n\n"
            next_health = 0.0
            while not hub.closed and time.monotonic() < t_end:
                v = hub.wait_change(game_id, seen, settings.sse_health_interval_s)
                if v != seen:
                    seen = v
                    yield f"id: {v}\n" + _sse("game", {"version": v})
                now = time.monotonic()
                if now >= next_health:
                    next_health = now + settings.sse_health_interval_s
                    # a change written elsewhere (another process on the same store) shows too
                    info = st.store.info(game_id)
                    hub.observe(game_id, (info.updated, info.events))
                    yield _sse("health", g.camera_health(st, game_id) or NO_CAMERA)
        finally:
            hub.leave()

    resp = Response(stream_with_context(stream()), mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp


@bp.get("/camera.mjpg")
def camera() -> Response:
    """The annotated camera view as MJPEG (``multipart/x-mixed-replace``); frames are sent at
    most ``mjpeg_max_fps`` per client until the client leaves; 404 when no camera is attached."""
    st = g.state()
    if st.live is None:
        raise g.ApiError(404, "no_camera", "no camera attached (start with --camera SRC or --demo)")
    hub, settings = st.hub, st.settings
    gap = 1.0 / settings.mjpeg_max_fps

    def stream() -> Iterator[bytes]:
        hub.enter()
        try:
            seq = 0
            last_sent = 0.0
            while not hub.closed:  # until the client leaves (a failed write ends us)
                wait = last_sent + gap - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                frame = hub.wait_frame(seq, settings.stream_poll_s)
                if frame is None or frame.seq <= seq:
                    continue
                seq = frame.seq
                last_sent = time.monotonic()
                yield (
                    b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                    + str(len(frame.jpeg)).encode()
                    + b"\r\n\r\n"
                    + frame.jpeg
                    + b"\r\n"
                )
        finally:
            hub.leave()

    resp = Response(stream(), mimetype="multipart/x-mixed-replace; boundary=frame")
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/camera.jpg")
def camera_still() -> Response:
    """The latest annotated frame as one JPEG (404 before the first frame)."""
    frame = g.state().hub.frame
    if frame is None:
        raise g.ApiError(404, "no_frame", "the camera has not produced a frame yet")
    resp = Response(frame.jpeg, mimetype="image/jpeg")
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/tiles.css")
def tiles_css() -> Response:
    """``.c-<colour> { --c: #rrggbb }`` for every named colour (calibration.profile)."""
    from calibration.profile import NAMED_COLORS

    body = "\n".join(f".c-{name} {{ --c: {hex_}; }}" for name, hex_ in NAMED_COLORS.items())
    resp = Response(body + "\n", mimetype="text/css")
    resp.headers["Cache-Control"] = "max-age=3600"
    return resp
