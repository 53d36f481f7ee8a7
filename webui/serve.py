"""``tabletally serve``: run the web companion (INTERFACES.md "CLI").

``tabletally serve [--camera SRC] [--demo] [--host 127.0.0.1] [--port 5000] [--db PATH]
[--pin PIN]``

- binds 127.0.0.1 by default; ``--host 0.0.0.0`` serves phones on the LAN (then set ``--pin``
  so only the organiser can correct scores; a warning is printed otherwise);
- ``--camera SRC`` (camera index, video file, image folder or stream URL) attaches the live
  pipeline to the current game (a new one is created if there is none);
- ``--demo`` plays the embedded recorded game through the pipeline (:mod:`webui.demo`) so a
  new user sees a game score itself within a minute, no camera needed;
- Ctrl-C or SIGTERM stops the camera's feed between frames, ends the streams and exits 0;
- ``--db PATH``: the SQLite game store (default ``~/.local/share/tabletally/games.sqlite3``;
  the demo uses a fresh temporary file unless ``--db`` is given).

The server is Werkzeug's threaded WSGI server: one thread per request, which the long-lived
SSE and MJPEG streams need (a small fixed pool would starve with several phones watching).
:class:`ServerThread` runs it in the background for tests and benchmarks.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import signal
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webui.cli import CLIError

if TYPE_CHECKING:  # Flask is imported when a server starts: `tabletally detect` never needs it
    from flask import Flask
    from werkzeug.serving import BaseWSGIServer

__all__ = ["ServerThread", "register", "run"]


class ServerThread:
    """A threaded WSGI server for ``app`` on ``host:port`` (port 0 = any free port), running
    in a daemon thread until :meth:`stop`.

    Raises:
        OSError: the address is in use or cannot be bound.
    """

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0, *, quiet: bool = True):
        if quiet:  # no line per request (the SSE/MJPEG clients make many); errors still show
            logging.getLogger("werkzeug").setLevel(logging.WARNING)
        self.app = app
        from werkzeug.serving import make_server

        self.server: BaseWSGIServer = make_server(host, port, app, threaded=True)
        self.server.daemon_threads = True  # type: ignore[attr-defined]
        # ... and :meth:`stop` does not wait for them: a client's stream blocked on a slow
        # socket must not hold up Ctrl-C (socketserver joins every handler thread on close)
        self.server.block_on_close = False  # type: ignore[attr-defined]
        self.host, self.port = host, int(self.server.server_port)
        self._thread = threading.Thread(
            target=self.server.serve_forever, name="tabletally-http", daemon=True
        )

    @property
    def url(self) -> str:
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        if ":" in shown:
            shown = f"[{shown}]"
        return f"http://{shown}:{self.port}"

    def start(self) -> ServerThread:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the live feed, end every stream and shut the server down."""
        st = self.app.extensions.get("tabletally")
        if st is not None:
            if st.live is not None:
                st.live.stop()
            st.hub.close()
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check_bind(host: str, port: int) -> None:
    """Raise OSError if ``host:port`` cannot be bound (Werkzeug would ``sys.exit`` instead)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((host, port))


def register(subparsers: Any) -> None:
    """Add ``tabletally serve`` to the CLI (``webui.cli`` calls this)."""
    p = subparsers.add_parser(
        "serve",
        help="run the web companion (live scoreboard, move log, score sheets)",
        description="Serve the live scoreboard, move log and score sheets. "
        "`tabletally serve --demo` shows a recorded game scoring itself.",
    )
    p.add_argument(
        "--camera",
        metavar="SRC",
        help="camera index, video file, image folder, photo or stream URL",
    )
    p.add_argument(
        "--demo",
        action="store_true",
        help="play the embedded recorded game through the pipeline (no camera)",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to bind (default 127.0.0.1; 0.0.0.0 serves the LAN)",
    )
    p.add_argument("--port", type=int, default=5000, help="TCP port (default 5000)")
    p.add_argument("--db", metavar="PATH", help="SQLite game store file")
    p.add_argument("--pin", help="organiser PIN required for corrections (env TABLETALLY_PIN)")
    p.add_argument(
        "--players",
        metavar="A,B,..",
        help="with --camera and no game yet: the players' names in seat order",
    )
    p.add_argument("--profile", metavar="FILE", help="tile-set profile for --camera")
    p.set_defaults(func=run)


def _interrupt_on_sigterm() -> Any:
    """Make SIGTERM (``kill``, systemd, ``docker stop``) stop the server as Ctrl-C does: the
    live feed stops between frames and the streams end, instead of the process dying
    wherever it is. Returns the previous handler (None off the main thread, where Python
    allows no handler)."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, interrupt)


def run(args: argparse.Namespace) -> int:
    """Run the server until Ctrl-C or SIGTERM. Raises :class:`CLIError` for bad arguments."""
    from webui.app import create_app

    if not 0 <= args.port <= 65535:
        raise CLIError(f"--port {args.port}: expected 0..65535")
    if args.demo and args.camera:
        raise CLIError("--demo and --camera cannot be combined (the demo is its own camera)")
    db = args.db
    if db is None and args.demo:
        db = str(Path(tempfile.mkdtemp(prefix="tabletally-demo-")) / "demo.sqlite3")
    config: dict[str, Any] = {}
    if db is not None:
        config["TABLETALLY_DB"] = db
    if args.pin:
        config["TABLETALLY_PIN"] = args.pin
    try:
        app = create_app(config)
    except Exception as e:  # an unusable store file: one line, no traceback
        raise CLIError(f"cannot open the game store: {e}", 1) from None
    try:
        _check_bind(args.host, args.port)
        server = ServerThread(app, args.host, args.port)
    except OSError as e:
        raise CLIError(
            f"cannot listen on {args.host}:{args.port} ({e.strerror or e}); try another --port", 1
        ) from None
    st = app.extensions["tabletally"]
    print(f"tabletally: game store {st.store.path}", flush=True)
    if not _is_loopback(args.host) and not st.pin:
        print(
            "tabletally: WARNING: serving to the network without an organiser PIN; "
            "anyone on the LAN can correct scores (use --pin)",
            flush=True,
        )
    server.start()
    previous = _interrupt_on_sigterm()
    try:
        if args.demo:
            from webui.demo import start_demo

            print(f"\n  tabletally demo: open {server.url}/live\n", flush=True)
            feed = start_demo(app, progress=True)
            print(f"\n  Demo running: open {server.url}/games/{feed.game_id}\n", flush=True)
        elif args.camera:
            from webui.live import start_camera

            players = [p for p in (args.players or "").split(",") if p.strip()]
            feed = start_camera(app, args.camera, players=players or None, profile=args.profile)
            print(f"\n  Live: open {server.url}/games/{feed.game_id}\n", flush=True)
        else:
            print(f"\n  tabletally is running: open {server.url}\n", flush=True)
        print("  (Ctrl-C to stop)", flush=True)
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        print("tabletally serve: stopping", flush=True)
        return 0
    finally:
        server.stop()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
