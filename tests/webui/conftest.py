"""Fixtures for the web companion: a real app on a real SQLite file, a test client with a CSRF
token, a few games, and a real server on 127.0.0.1 for the browser tests."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from webui.app import create_app
from webui.games import WebState, state

XSS_NAME = "<img src=x onerror=alert(1)>"
DUTCH = Path(__file__).resolve().parents[2] / "scorer" / "data" / "dutch-example.json"
CHROMIUM = Path("/usr/bin/chromium")


def tile(row: int, col: int, color: str, shape: str) -> dict[str, Any]:
    return {"row": row, "col": col, "color": color, "shape": shape}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TABLETALLY_DB": tmp_path / "games.sqlite3", "TESTING": True})
    yield app
    state(app).hub.close()
    state(app).store.close()


@pytest.fixture
def st(app: Flask) -> WebState:
    return state(app)


class Client:
    """A Flask test client that sends the CSRF header on writes (as the page's forms do)."""

    def __init__(self, client: FlaskClient):
        self.c = client
        self.token = client.get("/api/csrf").get_json()["csrf_token"]

    def get(self, url: str, **kw: Any) -> Any:
        return self.c.get(url, **kw)

    def post(self, url: str, **kw: Any) -> Any:
        kw.setdefault("headers", {})["X-CSRFToken"] = self.token
        return self.c.post(url, **kw)

    def patch(self, url: str, **kw: Any) -> Any:
        kw.setdefault("headers", {})["X-CSRFToken"] = self.token
        return self.c.patch(url, **kw)

    def form(self, url: str, data: dict[str, Any], **kw: Any) -> Any:
        """POST a form with the hidden csrf_token field, like the browser does."""
        return self.c.post(url, data={"csrf_token": self.token, **data}, **kw)


@pytest.fixture
def client(app: Flask) -> Client:
    return Client(app.test_client())


@pytest.fixture
def game_id(client: Client) -> int:
    """A two-player game with two legal turns: Ann 'row of 2 = 2', Ben 'column of 2 = 2'."""
    r = client.post("/api/games", json={"players": ["Ann", "Ben"]})
    assert r.status_code == 201, r.get_json()
    gid = int(r.get_json()["id"])
    for turn in (
        {"player": 0, "place": [tile(0, 0, "red", "circle"), tile(0, 1, "red", "square")]},
        {"player": 1, "place": [tile(1, 0, "blue", "circle")]},
    ):
        assert client.post(f"/api/games/{gid}/turns", json=turn).status_code == 201
    return gid


@pytest.fixture
def dutch_record() -> dict[str, Any]:
    return json.loads(DUTCH.read_text(encoding="utf-8"))


# -- browser tests (pytest-playwright on Debian's chromium) -------------------------------------
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch /usr/bin/chromium (Playwright's own browser download cannot work here)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (make browser installs it)")
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": BROWSER_ARGS}


@pytest.fixture
def live_server(app: Flask) -> Iterator[Any]:
    """The app on a real threaded server on 127.0.0.1 (a free port)."""
    from webui.serve import ServerThread

    with ServerThread(app) as srv:
        yield srv


def photos(
    tmp_path: Path, record: dict[str, Any], turns: int
) -> tuple[Any, Path, dict[bytes, Any]]:
    """One rendered photo per turn of the Dutch example, and each photo's true observation
    (keyed by the decoded image's bytes): ``(game, folder, truths)``."""
    import cv2

    from scorer.game import Game, replay
    from scorer.record import load_record
    from vision.render import PRESETS, Scene, truth_observation

    full = load_record(record)
    scene = Scene(PRESETS["easy"], 5, size=(960, 540))
    folder = tmp_path / "photos"
    folder.mkdir()
    truths = {}
    for k in range(1, turns + 1):
        board = replay(Game(full.players, events=full.events[:k])).board
        rendered = scene.frame(board, t=float(k))
        path = folder / f"{k:02d}.png"
        cv2.imwrite(str(path), rendered.image_bgr)
        truths[cv2.imread(str(path)).tobytes()] = truth_observation(rendered)
    return full, folder, truths
