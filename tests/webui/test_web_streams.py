"""Live streams on a real threaded server on 127.0.0.1: Server-Sent Events and MJPEG."""

from __future__ import annotations

import http.client
import threading
import time
from collections.abc import Iterator

import pytest
from conftest import Client, tile
from flask import Flask

from webui.hub import Hub
from webui.serve import ServerThread


@pytest.fixture
def server(app: Flask) -> Iterator[ServerThread]:
    with ServerThread(app) as srv:
        yield srv


def _open(srv: ServerThread, path: str) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    conn.request("GET", path)
    return conn.getresponse()


def _sse_events(resp: http.client.HTTPResponse) -> Iterator[tuple[str, str]]:
    event, data = "message", ""
    while True:
        line = resp.readline().decode()
        if not line:
            return
        line = line.rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            data = line[6:]
        elif line == "":
            if data:
                yield event, data
            event, data = "message", ""


def test_sse_announces_each_change(server: ServerThread, client: Client, game_id: int) -> None:
    resp = _open(server, f"/games/{game_id}/events")
    assert resp.status == 200 and resp.getheader("Content-Type").startswith("text/event-stream")
    events = _sse_events(resp)
    _, data = next(e for e in events if e[0] == "game")
    first = int(data.split(":")[1].rstrip("}"))
    _, health = next(e for e in events if e[0] == "health")
    assert '"state":"none"' in health
    client.post(
        f"/api/games/{game_id}/turns", json={"player": 0, "place": [tile(0, 2, "red", "diamond")]}
    )
    _, data = next(e for e in events if e[0] == "game")
    assert int(data.split(":")[1].rstrip("}")) > first
    resp.close()


def test_sse_for_unknown_game_is_404(server: ServerThread) -> None:
    resp = _open(server, "/games/77/events")
    assert resp.status == 404


def test_mjpeg_streams_published_frames(server: ServerThread, app: Flask) -> None:
    import cv2
    import numpy as np

    st = app.extensions["tabletally"]

    class Dummy:  # a feed is attached: the stream is served (frames come from the hub)
        game_id = -1

        def health(self) -> dict[str, object]:
            return {"state": "ok"}

        def stop(self) -> None:
            pass

    st.live = Dummy()
    img = np.full((48, 64, 3), 128, np.uint8)
    jpeg = cv2.imencode(".jpg", img)[1].tobytes()
    stop = threading.Event()

    def publish() -> None:
        while not stop.is_set():
            st.hub.publish_frame(jpeg)
            time.sleep(0.05)

    t = threading.Thread(target=publish, daemon=True)
    t.start()
    try:
        resp = _open(server, "/camera.mjpg")
        assert resp.getheader("Content-Type").startswith("multipart/x-mixed-replace")
        buf = b""
        while buf.count(b"--frame") < 3:
            buf += resp.read1(65536)
        part = buf.split(b"--frame")[1]
        body = part.split(b"\r\n\r\n", 1)[1]
        assert body.startswith(b"\xff\xd8")  # JPEG SOI
        decoded = cv2.imdecode(np.frombuffer(body[: len(jpeg)], np.uint8), cv2.IMREAD_COLOR)
        assert decoded.shape == (48, 64, 3)
        resp.close()
    finally:
        stop.set()
        t.join()
    still = _open(server, "/camera.jpg")
    assert still.status == 200 and still.read() == jpeg


def test_camera_without_feed_is_404_json(server: ServerThread) -> None:
    resp = _open(server, "/camera.mjpg")
    assert resp.status == 404 and b"no_camera" in resp.read()


def test_hub_wait_and_close() -> None:
    hub = Hub()
    assert hub.wait_change(1, 0, 0.01) == 0
    threading.Timer(0.05, hub.bump, args=(1,)).start()
    assert hub.wait_change(1, 0, 5.0) == 1
    assert hub.wait_frame(0, 0.01) is None
    hub.publish_frame(b"x")
    assert hub.wait_frame(0, 0.01).seq == 1  # type: ignore[union-attr]
    threading.Timer(0.05, hub.close).start()
    t0 = time.monotonic()
    hub.wait_change(1, 1, 5.0)
    assert time.monotonic() - t0 < 2.0 and hub.closed


def test_hub_observe_bumps_only_unannounced_changes() -> None:
    hub = Hub()
    assert not hub.observe(1, ("t0", 5))  # the first stamp is the baseline
    assert hub.version(1) == 0
    # a change written elsewhere (no bump): the new stamp announces it, once
    assert hub.observe(1, ("t1", 6)) and hub.version(1) == 1
    assert not hub.observe(1, ("t1", 6)) and hub.version(1) == 1
    # a change this process announced: its stamp is not announced a second time
    hub.bump(1)
    assert not hub.observe(1, ("t2", 7)) and hub.version(1) == 2
    # ... and the next unannounced one still is
    assert hub.observe(1, ("t3", 8)) and hub.version(1) == 3


def test_sse_shows_changes_written_by_another_process(
    server: ServerThread, app: Flask, game_id: int, tmp_path: object
) -> None:
    from scorer.game import Pass
    from scorer.store import GameStore

    resp = _open(server, f"/games/{game_id}/events")
    events = _sse_events(resp)
    _, data = next(e for e in events if e[0] == "game")
    first = int(data.split(":")[1].rstrip("}"))
    next(e for e in events if e[0] == "health")  # the stream has seen the store once
    other = GameStore(app.extensions["tabletally"].store.path)  # a second connection
    try:
        other.append(game_id, Pass(0), source="ui")
    finally:
        other.close()
    _, data = next(e for e in events if e[0] == "game")
    assert int(data.split(":")[1].rstrip("}")) > first
    resp.close()
