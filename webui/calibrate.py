"""The calibration wizard (issue 6): a page and its JSON twin under ``/calibrate``.

Blueprint ``bp`` (name ``"calibrate"``), registered by :func:`webui.app.create_app` when this
module exists. The page shows the live camera (``/camera.mjpg``, when a camera is attached) or
takes a photo upload, explains the steps, and talks to the JSON endpoints below with the CSRF
token of the page (``<meta name="csrf-token">``, sent as ``X-CSRFToken``).

Endpoints (errors are JSON ``{"error", "message"}`` with a 4xx status):

- ``GET  /calibrate`` — the wizard page.
- ``GET  /calibrate/api/state`` — the page's JSON twin: palette, the saved profile (summary), the
  pending (unsaved) colour calibration with its coverage, the profile path, camera presence.
- ``POST /calibrate/api/colours`` — multipart ``image`` (a photo of one tile per colour in a
  line), optional ``palette`` (comma-separated names) and ``order`` (``auto``/``palette``):
  learns the colours; the result is kept as *pending* and returned with its coverage. 422
  ``line_not_found`` when the line is not found.
- ``POST /calibrate/api/classify`` — multipart ``image``: every tile found (by
  :func:`vision.detect.detect` when available) named with the pending (else saved) profile,
  ``{"tiles": [{"x", "y", "corners", "color", "delta_e", "margin"}]}``: the live check that
  the learned palette reads the table right.
- ``POST /calibrate/api/confirm`` — multipart ``image`` + ``tiles`` (JSON list of
  ``{"corners", "color"}``): "confirm the first move" — tiles whose reading the players
  confirmed are learned; photos accumulate (coverage grows move by move) until saved or
  ``POST /calibrate/api/reset``.
- ``POST /calibrate/api/save`` — saves the pending calibration into the profile file, only when
  its coverage is complete (409 ``coverage_incomplete`` naming the missing colours otherwise).
- ``POST /calibrate/api/geometry`` — JSON ``{"corners": [[x, y] x4], "image_size": [w, h],
  "table_mm": [w, h]?, "tile_mm": p?}`` (four corners clicked clockwise from top-left), or
  multipart ``image`` (+ ``table_w_mm``, ``table_h_mm``, ``tile_mm``) with the four ArUco
  markers: writes the table homography into the profile.
- ``GET  /calibrate/camera.jpg`` — the live camera's latest raw frame (when the live feed
  exposes ``latest_frame_bgr``), to calibrate from the camera instead of an uploaded photo.
- ``GET  /calibrate/markers.pdf`` — the printable marker sheet.

The profile file is ``app.config["TABLETALLY_PROFILE"]`` when set, else ``profile.json`` next to
the game database. Saves are atomic (:func:`calibration.profile.save_profile`).
"""

from __future__ import annotations

import io
import json
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    render_template,
    request,
    send_file,
)
from werkzeug.exceptions import HTTPException

from calibration.colour import (
    CalibrationError,
    ColourCalibration,
    calibrate_colours,
    calibrate_from_tiles,
    measure_tiles,
)
from calibration.markers import geometry_from_corners, geometry_from_markers, marker_sheet_pdf
from calibration.profile import (
    Palette,
    Profile,
    ProfileError,
    load_profile,
    rgb_to_hex,
    save_profile,
)
from vision.imagefile import ImageError, decode_image

__all__ = ["CalibrationState", "bp", "profile_path"]

bp = Blueprint("calibrate", __name__, url_prefix="/calibrate")


@dataclass
class CalibrationState:
    """The wizard's pending (unsaved) colour calibration and the photos of confirmed moves;
    one per app, guarded by ``lock``."""

    pending: ColourCalibration | None = None
    #: photos with confirmed tiles ``(image_bgr, [(corners_xy, colour), ...])``, oldest first
    confirmed: list[tuple[Any, list[tuple[Any, str]]]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    #: photos kept for "confirm the moves" calibration (memory bound; the oldest are dropped)
    MAX_CONFIRMED = 12


class _Error(Exception):
    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@bp.errorhandler(_Error)
def _handle(e: _Error) -> tuple[Response, int]:
    return jsonify({"error": e.code, "message": e.message}), e.status


@bp.errorhandler(HTTPException)
def _handle_http(e: HTTPException) -> tuple[Response, int]:
    code = e.code or 500
    if code == 413:  # as the app's own handler says it, with this view's limit
        from webui.app import too_large

        return too_large(), 413
    return jsonify(
        {"error": (e.name or "error").lower().replace(" ", "_"), "message": e.description or ""}
    ), code


def _state() -> CalibrationState:
    ext = current_app.extensions
    if "tabletally_calibration" not in ext:
        ext["tabletally_calibration"] = CalibrationState()
    return ext["tabletally_calibration"]  # type: ignore[no-any-return]


def profile_path(app: Flask | None = None) -> Path:
    """Where the wizard reads and writes the profile (see the module docstring)."""
    a = app or current_app
    configured = a.config.get("TABLETALLY_PROFILE")
    if configured:
        return Path(configured)
    db = a.config.get("TABLETALLY_DB")
    if db:
        return Path(db).parent / "profile.json"
    from webui.app import default_db_path

    return default_db_path().parent / "profile.json"


def _saved_profile() -> Profile:
    path = profile_path()
    if not path.exists():
        return Profile()
    try:
        return load_profile(path)
    except ProfileError as e:
        raise _Error(500, "bad_profile", str(e)) from None


def _upload_image() -> npt.NDArray[np.uint8]:
    f = request.files.get("image")
    if f is None:
        raise _Error(400, "no_image", "send the photo as the multipart field 'image'")
    try:
        return decode_image(f.read())
    except ImageError as e:
        raise _Error(400, "bad_image", f"{f.filename or 'upload'}: {e}") from None


def _palette(default: Palette) -> Palette:
    text = (request.form.get("palette") or "").strip()
    if not text:
        return default
    try:
        return Palette.from_names([n.strip() for n in text.split(",") if n.strip()])
    except ProfileError as e:
        raise _Error(400, "bad_palette", str(e)) from None


def _summary(prof: Profile) -> dict[str, Any]:
    pal = prof.palette
    return {
        "palette": [
            {
                "name": n,
                "rgb": rgb_to_hex(pal.rgb[n]),
                "lab": [round(v, 2) for v in pal.lab[n]],
                "spread": [round(v, 2) for v in pal.spread[n]] if n in pal.spread else None,
            }
            for n in pal.names
        ],
        "calibrated": pal.calibrated,
        "white_balance": list(prof.white_balance.gains) if prof.white_balance else None,
        "geometry": prof.geometry.to_json() if prof.geometry else None,
        "lens": prof.lens is not None,
    }


def _pending_json(result: ColourCalibration | None) -> dict[str, Any] | None:
    if result is None:
        return None
    pal = result.profile.palette
    return {
        "complete": result.complete,
        "coverage": result.coverage,
        "missing": list(result.missing),
        "problems": result.problems(),
        "fit_residual": round(result.fit_residual, 2),
        "tiles": [
            {
                "index": s.index,
                "color": s.color,
                "clean": s.clean,
                "problem": s.problem or None,
                "pixels": s.pixels,
                "corners": [[round(x, 1), round(y, 1)] for x, y in s.corners_xy],
                "rgb": rgb_to_hex(pal.rgb[s.color]) if s.color else None,
            }
            for s in result.samples
        ],
        "profile": _summary(result.profile),
    }


# ----------------------------------------------------------------------------------- routes
@bp.get("")
@bp.get("/")
def page() -> str:
    """The wizard page (its JSON twin is ``GET /calibrate/api/state``)."""
    st = current_app.extensions.get("tabletally")
    has_camera = getattr(st, "live", None) is not None
    prof = _saved_profile()
    return render_template(
        "calibrate.html",
        gid=None,
        current="calibrate",
        note=None,
        pin_needed=False,
        has_camera=has_camera,
        palette=",".join(prof.palette.names),
        profile_file=str(profile_path()),
    )


@bp.get("/api/state")
def api_state() -> Response:
    st = current_app.extensions.get("tabletally")
    cal = _state()
    with cal.lock:
        pending = _pending_json(cal.pending)
    return jsonify(
        {
            "profile_path": str(profile_path()),
            "saved": _summary(_saved_profile()) if profile_path().exists() else None,
            "pending": pending,
            "camera": getattr(st, "live", None) is not None,
        }
    )


@bp.post("/api/colours")
def api_colours() -> Response:
    base = _saved_profile()
    palette = _palette(base.palette)
    order = request.form.get("order", "auto")
    if order not in ("auto", "palette"):
        raise _Error(400, "bad_order", "order must be 'auto' or 'palette'")
    image = _upload_image()
    try:
        result = calibrate_colours(image, palette, order=order, base=base)
    except CalibrationError as e:
        raise _Error(422, "line_not_found", str(e)) from None
    cal = _state()
    with cal.lock:
        cal.pending = result
    return jsonify(_pending_json(result))


@bp.post("/api/classify")
def api_classify() -> Response:
    image = _upload_image()
    cal = _state()
    with cal.lock:
        prof = cal.pending.profile if cal.pending is not None else _saved_profile()
    try:
        from vision.detect import detect
    except ImportError:
        raise _Error(
            503, "no_detector", "the tile detector (vision.detect) is not available"
        ) from None
    obs = detect(image, profile=prof)
    quads = [np.asarray(t.corners_xy, dtype=np.float64) for t in obs.tiles]
    ours = measure_tiles(image, quads, prof)
    tiles = []
    for t, (name, de, margin, _n) in zip(obs.tiles, ours, strict=True):
        tiles.append(
            {
                "x": round(t.center_xy[0], 1),
                "y": round(t.center_xy[1], 1),
                "corners": [[round(x, 1), round(y, 1)] for x, y in t.corners_xy],
                "color": name or t.tile.color,
                "detector_color": t.tile.color,
                "shape": t.tile.shape.value,
                "delta_e": None if name is None else round(de, 1),
                "margin": round(margin, 1),
            }
        )
    h, w = image.shape[:2]
    return jsonify(
        {
            "image_size": [w, h],
            "tiles": tiles,
            "profile": "pending" if cal.pending is not None else "saved",
        }
    )


@bp.post("/api/confirm")
def api_confirm() -> Response:
    """Learn from tiles the players confirmed (multipart ``image`` + ``tiles``, a JSON list of
    ``{"corners": [[x, y] x4], "color": name}``); photos accumulate until saved or reset."""
    image = _upload_image()
    try:
        raw = json.loads(request.form.get("tiles") or "null")
    except ValueError:
        raise _Error(400, "bad_tiles", "tiles: malformed JSON") from None
    if not isinstance(raw, list) or not raw:
        raise _Error(400, "bad_tiles", "tiles: expected a non-empty list")
    tiles: list[tuple[Any, str]] = []
    for i, t in enumerate(raw):
        try:
            corners = np.asarray(t["corners"], dtype=np.float64).reshape(4, 2)
            color = str(t["color"])
        except (KeyError, TypeError, ValueError):
            raise _Error(
                400, "bad_tiles", f"tiles[{i}]: expected corners (4 x [x, y]) and color"
            ) from None
        tiles.append((corners, color))
    base = _saved_profile()
    palette = _palette(base.palette)
    cal = _state()
    with cal.lock:
        views = [*cal.confirmed, (image, tiles)][-CalibrationState.MAX_CONFIRMED :]
        try:
            result = calibrate_from_tiles(views, palette, base=base)
        except CalibrationError as e:
            raise _Error(422, "bad_tiles", str(e)) from None
        cal.confirmed = views
        cal.pending = result
    return jsonify({**(_pending_json(result) or {}), "photos": len(views)})


@bp.post("/api/reset")
def api_reset() -> Response:
    """Forget the pending calibration and the confirmed photos."""
    cal = _state()
    with cal.lock:
        cal.pending = None
        cal.confirmed = []
    return jsonify({"reset": True})


@bp.post("/api/save")
def api_save() -> Response:
    cal = _state()
    with cal.lock:
        result = cal.pending
        if result is None:
            raise _Error(409, "nothing_to_save", "calibrate the colours first")
        if not result.complete:
            raise _Error(
                409, "coverage_incomplete", "; ".join(result.problems()) + "; profile not saved"
            )
        # keep geometry/lens saved meanwhile (e.g. corners clicked after the colours)
        saved = _saved_profile()
        prof = result.profile.with_(
            geometry=saved.geometry or result.profile.geometry,
            lens=saved.lens or result.profile.lens,
        )
        try:
            path = save_profile(prof, profile_path())
        except ProfileError as e:
            raise _Error(500, "cannot_save", str(e)) from None
        cal.pending = None
        cal.confirmed = []
    return jsonify({"saved": str(path), "profile": _summary(prof)})


def _num(v: Any, what: str) -> float | None:
    if v in (None, ""):
        return None
    try:
        x = float(v)
    except (TypeError, ValueError):
        raise _Error(400, "bad_number", f"{what}: expected a number, got {v!r}") from None
    if not x > 0:
        raise _Error(400, "bad_number", f"{what}: must be positive")
    return x


@bp.post("/api/geometry")
def api_geometry() -> Response:
    try:
        if request.is_json:
            body = request.get_json(silent=True) or {}
            corners = body.get("corners")
            size = body.get("table_mm")
            table = None
            if size is not None:
                if not isinstance(size, list) or len(size) != 2:
                    raise _Error(400, "bad_table_mm", "table_mm: expected [width, height]")
                table = (_num(size[0], "table_mm[0]"), _num(size[1], "table_mm[1]"))
            img_size = body.get("image_size")
            if not (
                isinstance(img_size, list)
                and len(img_size) == 2
                and all(isinstance(v, int) and v > 0 for v in img_size)
            ):
                raise _Error(400, "bad_image_size", "image_size: expected [width, height] pixels")
            if not (isinstance(corners, list) and len(corners) == 4):
                raise _Error(400, "bad_corners", "corners: expected four [x, y] points")
            try:
                pts = np.array(corners, dtype=np.float64)
            except (TypeError, ValueError):
                raise _Error(400, "bad_corners", "corners: expected four [x, y] points") from None
            geo = geometry_from_corners(
                pts,
                table_size=table,  # type: ignore[arg-type]
                tile_pitch=_num(body.get("tile_mm"), "tile_mm"),
                image_size=(img_size[0], img_size[1]),
            )
        else:
            image = _upload_image()
            w_mm = _num(request.form.get("table_w_mm"), "table_w_mm")
            h_mm = _num(request.form.get("table_h_mm"), "table_h_mm")
            table = (w_mm, h_mm) if w_mm and h_mm else None
            geo = geometry_from_markers(
                image, table_size=table, tile_pitch=_num(request.form.get("tile_mm"), "tile_mm")
            )
    except CalibrationError as e:
        raise _Error(422, "geometry_not_found", str(e)) from None
    prof = _saved_profile().with_(geometry=geo)
    try:
        save_profile(prof, profile_path())
    except ProfileError as e:
        raise _Error(500, "cannot_save", str(e)) from None
    return jsonify({"saved": str(profile_path()), "geometry": geo.to_json()})


@bp.get("/camera.jpg")
def camera_frame() -> Response:
    """The live camera's latest *raw* frame as JPEG (no overlay: colours untouched), for
    calibrating from the camera itself. Needs the live feed to expose ``latest_frame_bgr``
    (an ``(H, W, 3) uint8`` array, or a callable returning one); 404 JSON otherwise."""
    st = current_app.extensions.get("tabletally")
    live = getattr(st, "live", None)
    frame = getattr(live, "latest_frame_bgr", None) if live is not None else None
    if callable(frame):
        frame = frame()
    if frame is None:
        raise _Error(
            404, "no_camera_frame", "no raw camera frame available: choose a photo instead"
        )
    ok, buf = cv2.imencode(
        ".jpg", np.asarray(frame, dtype=np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 95]
    )
    if not ok:
        raise _Error(500, "encode_failed", "could not encode the camera frame")
    resp = Response(buf.tobytes(), mimetype="image/jpeg")
    resp.headers["Cache-Control"] = "no-store"
    return resp


#: Largest original photo :func:`api_photo` takes, bytes: a phone's HEIC is 2-6 MB at 12-24 MP,
#: a 48 MP JPEG up to about 20 MB (every other upload stays under ``max_upload_bytes``).
PHOTO_MAX_BYTES = 32 * 1024 * 1024
#: Longest side of the JPEG :func:`api_photo` returns, px: the page's own limit for uploads
#: (``MAX_SIDE`` in ``calibrate.js``).
PHOTO_MAX_SIDE = 1600


@bp.post("/api/photo")
def api_photo() -> Response:
    """A photo the browser cannot show itself (an iPhone's HEIC outside Safari), as an upright
    JPEG at most :data:`PHOTO_MAX_SIDE` px on its longer side (multipart ``image``, up to
    :data:`PHOTO_MAX_BYTES`); 400 JSON ``bad_image`` when no decoder reads it, 413 JSON when
    larger."""
    image = _upload_image()
    h, w = image.shape[:2]
    k = min(1.0, PHOTO_MAX_SIDE / max(h, w))
    if k < 1.0:
        size = (max(1, round(w * k)), max(1, round(h * k)))
        image = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise _Error(500, "encode_failed", "could not encode the photo")
    resp = Response(buf.tobytes(), mimetype="image/jpeg")
    resp.headers["Cache-Control"] = "no-store"
    return resp


api_photo.max_upload_bytes = PHOTO_MAX_BYTES  # type: ignore[attr-defined]


@bp.get("/markers.pdf")
def markers_pdf() -> Response:
    with tempfile.TemporaryDirectory() as tmp:
        path = marker_sheet_pdf(Path(tmp) / "markers.pdf")
        data = path.read_bytes()
    return send_file(
        io.BytesIO(data),
        mimetype="application/pdf",
        as_attachment=True,
        download_name="tabletally-markers.pdf",
    )
