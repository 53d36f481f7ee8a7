"""``tabletally serve``: argument errors are one line; the real server starts and stops."""

from __future__ import annotations

import json
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from conftest import photos

from scorer.store import GameStore
from webui.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_serve_is_registered(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["serve", "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for flag in ("--camera", "--demo", "--host", "--port", "--db", "--pin"):
        assert flag in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["serve", "--port", "70000"], "--port 70000: expected 0..65535"),
        (["serve", "--demo", "--camera", "0"], "cannot be combined"),
    ],
)
def test_bad_arguments_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_port_in_use_is_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "g.sqlite3")]) == 1
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and "Traceback" not in err


def test_unusable_store_is_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "not-a-db.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    assert main(["serve", "--port", "0", "--db", str(bad)]) == 1
    assert "cannot open the game store" in capsys.readouterr().err


def test_bad_camera_source_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "serve",
            "--port",
            "0",
            "--db",
            str(tmp_path / "g.sqlite3"),
            "--camera",
            str(tmp_path / "missing.mp4"),
        ]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "missing.mp4" in err and "Traceback" not in err


#: ``python -m webui.cli ARGS`` with Ctrl-C's default action (KeyboardInterrupt), as in a
#: terminal. A process started with SIGINT ignored passes that on to its children, and Python
#: then installs no KeyboardInterrupt handler: a test runner launched in the background by a
#: non-interactive shell (``cmd &``) made ``serve`` ignore the test's Ctrl-C and time out.
_CLI_WITH_CTRL_C = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('webui.cli', run_name='__main__', alter_sys=True)"
)


def _stop(
    proc: subprocess.Popen[str], sig: signal.Signals, what: str, timeout: float
) -> tuple[int, str, str]:
    """Send ``sig`` to a serving subprocess and wait for it: ``(exit code, stdout, stderr)``;
    an AssertionError with its output when it has not stopped within ``timeout`` s."""
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(
            f"serve did not stop within {timeout:g} s of {what}; stdout: {out[-2000:]!r}; "
            f"stderr: {err[-2000:]!r}"
        ) from None
    return proc.returncode, out, err


def test_real_server_subprocess_binds_loopback_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            _CLI_WITH_CTRL_C,
            "serve",
            "--port",
            "0",
            "--db",
            str(tmp_path / "g.sqlite3"),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = None
        assert proc.stdout is not None
        for _ in range(20):
            line = proc.stdout.readline()
            m = re.search(r"open (http://127\.0\.0\.1:\d+)", line)
            if m:
                url = m.group(1)
                break
        assert url, "the server did not print its URL"
        with urllib.request.urlopen(url + "/api/games", timeout=10) as r:
            assert json.load(r) == []
        code, _, _ = _stop(proc, signal.SIGINT, "Ctrl-C", 15)
        assert code == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_sigterm_stops_serve_with_its_camera_and_keeps_the_game(
    tmp_path: Path, dutch_record: dict[str, Any]
) -> None:
    """``kill`` (systemd, ``docker stop``) ends ``serve`` as Ctrl-C does: the camera's feed is
    stopped, exit 0, and the game it created is in the store, which passes SQLite's own
    integrity check."""
    _, folder, _ = photos(tmp_path, dutch_record, 2)
    db = tmp_path / "g.sqlite3"
    argv = ["serve", "--port", "0", "--db", str(db), "--camera", str(folder)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "webui.cli", *argv, "--players", "Ann,Ben"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        lines = []
        for _ in range(20):
            lines.append(proc.stdout.readline())
            if "Live: open" in lines[-1]:
                break
        assert "Live: open" in lines[-1], f"serve did not start its camera: {lines!r}"
        code, out, err = _stop(proc, signal.SIGTERM, "SIGTERM", 20)
        assert code == 0, err[-2000:]
        assert "stopping" in out and "Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with GameStore(db) as store:
        games = store.list_games()
        assert [g.players for g in games] == [("Ann", "Ben")]
