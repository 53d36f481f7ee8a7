"""The Flask application factory of the web companion (issue 5).

``create_app(test_config=None)`` builds the app: the SQLite game store, the change hub for live
streams and the settings go into ``app.extensions["tabletally"]`` (a :class:`WebState`); the
blueprints are ``pages`` (server-rendered HTML + streams), ``api`` (JSON under ``/api``) and
``exports`` (CSV/PDF sheets, board SVG). The calibration wizard's blueprint
(``webui.calibrate``, issue 6) is registered when that module exists.

Configuration keys (``test_config`` or the defaults below):

- ``TABLETALLY_DB``: SQLite file of the game store (default
  ``$XDG_DATA_HOME/tabletally/games.sqlite3``, i.e. ``~/.local/share/tabletally/...``).
- ``TABLETALLY_PIN``: organiser PIN; when set, every mutation needs it (form at ``/pin`` or the
  ``X-Tabletally-PIN`` header). Default: env ``TABLETALLY_PIN`` or none.
- ``SECRET_KEY``: signs the session cookie holding the CSRF token (default: random per run, env
  ``TABLETALLY_SECRET`` to keep sessions across restarts).
- ``TABLETALLY_SETTINGS``: a :class:`webui.games.WebSettings`.

Safety (issue 5 "Safety on a LAN"): mutations are POST/PATCH only and CSRF-protected
(Flask-WTF ``CSRFProtect``: a per-session token in forms, or the ``X-CSRFToken`` header for the
JSON API, fetched from ``GET /api/csrf``); templates autoescape; a Content-Security-Policy allows
only same-origin scripts (no inline script can run even if markup were injected); request bodies
over ``max_upload_bytes`` get 413 JSON; errors under ``/api`` are JSON ``{"error", "message"}``.
"""

from __future__ import annotations

import hmac
import importlib
import os
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, jsonify, redirect, render_template, request, session, url_for
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import HTTPException

from scorer.store import GameStore
from webui.games import ApiError, WebSettings, WebState
from webui.hub import Hub

__all__ = ["create_app", "default_db_path"]

_CSP = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
_MUTATING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/tabletally/games.sqlite3`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tabletally" / "games.sqlite3"


def _is_api() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def _error(status: int, code: str, message: str) -> Response:
    resp = jsonify({"error": code, "message": message})
    resp.status_code = status
    return resp


def too_large() -> Response:
    """413 JSON naming the body limit of this request: ``MAX_CONTENT_LENGTH``
    (``WebSettings.max_upload_bytes``), or a view's own ``max_upload_bytes``."""
    limit = request.max_content_length
    return _error(413, "too_large", f"request body larger than {limit} bytes")


def pin_ok(st: WebState) -> bool:
    """True when no PIN is configured or this request/session has given it."""
    if not st.pin:
        return True
    if session.get("pin_ok") is True:
        return True
    given = request.headers.get("X-Tabletally-PIN", "")
    return bool(given) and hmac.compare_digest(given.encode(), st.pin.encode())


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the web companion.

    Args:
        test_config: configuration overriding the defaults (keys in the module docstring plus
            any Flask key), e.g. ``{"TABLETALLY_DB": tmp_path / "g.sqlite3", "TESTING": True}``.

    Raises:
        OSError / sqlite3.Error: the store file cannot be opened or created.
    """
    app = Flask(__name__, instance_relative_config=False)
    settings = (test_config or {}).get("TABLETALLY_SETTINGS") or WebSettings()
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("TABLETALLY_SECRET") or secrets.token_hex(32),
        TABLETALLY_DB=None,
        TABLETALLY_PIN=os.environ.get("TABLETALLY_PIN") or None,
        TABLETALLY_SETTINGS=settings,
        MAX_CONTENT_LENGTH=settings.max_upload_bytes,
        WTF_CSRF_TIME_LIMIT=None,  # a game night outlasts the default hour; token is per session
        WTF_CSRF_SSL_STRICT=False,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        JSON_SORT_KEYS=False,
    )
    if test_config:
        app.config.update(test_config)
    app.json.sort_keys = False  # type: ignore[attr-defined]

    db = Path(app.config["TABLETALLY_DB"] or default_db_path())
    db.parent.mkdir(parents=True, exist_ok=True)
    st = WebState(
        store=GameStore(db), hub=Hub(), settings=settings, pin=app.config["TABLETALLY_PIN"] or None
    )
    app.extensions["tabletally"] = st

    @app.before_request
    def _upload_limit() -> None:
        # a view may accept more than ``max_upload_bytes`` (the calibration page's original
        # phone photo, :func:`webui.calibrate.api_photo`); set before CSRFProtect, whose
        # check reads the form and so parses the body against the limit
        view = app.view_functions.get(request.endpoint or "")
        limit = getattr(view, "max_upload_bytes", None)
        if limit is not None:
            request.max_content_length = int(limit)

    CSRFProtect(app)

    from webui.api import bp as api_bp
    from webui.exports import bp as exports_bp
    from webui.pages import bp as pages_bp

    app.register_blueprint(pages_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(exports_bp)
    _register_optional(app, "webui.calibrate")

    @app.context_processor
    def _nav() -> dict[str, Any]:
        return {"has_calibrate": "calibrate" in app.blueprints}

    @app.before_request
    def _guard_pin() -> Response | None:
        if request.method not in _MUTATING or pin_ok(st):
            return None
        if request.endpoint in ("pages.pin",):
            return None
        if _is_api():
            return _error(
                403,
                "pin_required",
                "this server needs the organiser PIN for changes (X-Tabletally-PIN)",
            )
        back = urlsplit(request.referrer or "/")  # back to the page the change came from
        nxt = back.path + (f"?{back.query}" if back.query else "")
        return redirect(url_for("pages.pin", next=nxt))  # type: ignore[return-value]

    @app.after_request
    def _headers(resp: Response) -> Response:
        resp.headers.setdefault("Content-Security-Policy", _CSP)
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        return resp

    @app.errorhandler(ApiError)
    def _api_error(e: ApiError) -> Response | tuple[str, int]:
        if _is_api():
            return _error(e.status, e.code, e.message)
        return render_template(
            "error.html", status=e.status, code=e.code, message=e.message
        ), e.status

    @app.errorhandler(CSRFError)
    def _csrf_error(e: CSRFError) -> Response | tuple[str, int]:
        msg = (
            f"CSRF check failed: {e.description} "
            "(reload the page, or send X-CSRFToken from GET /api/csrf)"
        )
        if _is_api():
            return _error(400, "csrf", msg)
        return render_template("error.html", status=400, code="csrf", message=msg), 400

    @app.errorhandler(HTTPException)
    def _http_error(e: HTTPException) -> Response | tuple[str, int]:
        status = e.code or 500
        code = (e.name or "error").lower().replace(" ", "_")
        if status == 413:
            return too_large()
        if _is_api():
            return _error(status, code, e.description or e.name)
        return render_template(
            "error.html", status=status, code=code, message=e.description
        ), status

    return app


def _register_optional(app: Flask, module_name: str) -> None:
    """Register a blueprint module if it exists (``bp``/``blueprint`` or ``register(app)``)."""
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name == module_name:
            return
        raise
    if hasattr(module, "register") and callable(module.register):
        module.register(app)
        return
    blueprint = getattr(module, "bp", None) or getattr(module, "blueprint", None)
    if blueprint is not None:
        app.register_blueprint(blueprint)
