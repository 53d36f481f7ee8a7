"""Fixtures for the wizard tests: a real app on a real SQLite file and profile path, a client
that sends the CSRF token, a real server for the browser test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    from webui.app import create_app
    from webui.games import state

    app = create_app(
        {
            "TABLETALLY_DB": tmp_path / "games.sqlite3",
            "TESTING": True,
            "TABLETALLY_PROFILE": tmp_path / "profile.json",
        }
    )
    yield app
    state(app).hub.close()
    state(app).store.close()


class Client:
    """A test client sending ``X-CSRFToken`` on POST, as the wizard's script does."""

    def __init__(self, app: Flask):
        self.c = app.test_client()
        self.token = self.c.get("/api/csrf").get_json()["csrf_token"]

    def get(self, url: str, **kw: Any) -> Any:
        return self.c.get(url, **kw)

    def post(self, url: str, **kw: Any) -> Any:
        kw.setdefault("headers", {})["X-CSRFToken"] = self.token
        return self.c.post(url, **kw)


@pytest.fixture
def client(app: Flask) -> Client:
    return Client(app)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch /usr/bin/chromium (Playwright's own browser download cannot work here)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (make browser installs it)")
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    }


@pytest.fixture
def live_server(app: Flask) -> Iterator[Any]:
    from webui.serve import ServerThread

    with ServerThread(app) as srv:
        yield srv
