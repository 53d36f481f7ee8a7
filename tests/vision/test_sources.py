"""Frame sources (issue 4): folders, video files, a real HTTP MJPEG stream that stalls."""

from __future__ import annotations

import http.server
import socketserver
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.sources import (
    FrameSource,
    SourceEnded,
    SourceError,
    SourceSettings,
    frame_problem,
    open_source,
    source_kind,
)

RNG_SEED = 1234


def _scene(i: int, size: tuple[int, int] = (160, 120)) -> np.ndarray:
    """A textured 'table' image that passes the quality checks; ``i`` varies a square."""
    rng = np.random.default_rng(RNG_SEED + i)
    w, h = size
    img = np.full((h, w, 3), (60, 110, 150), np.uint8)
    img = cv2.add(img, rng.integers(0, 40, (h, w, 3), dtype=np.uint8))
    x = 10 + (i * 7) % (w - 40)
    cv2.rectangle(img, (x, 40), (x + 25, 65), (40, 40, 220), -1)
    return img


def _jpeg(img: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return buf.tobytes()


def test_frame_problem_flags_bad_frames_and_passes_real_ones() -> None:
    assert frame_problem(_scene(0)) is None
    assert frame_problem(None) == "unreadable"
    assert frame_problem(np.zeros((120, 160, 3), np.uint8)) == "black"
    noisy_black = np.random.default_rng(RNG_SEED).integers(0, 12, (120, 160, 3), dtype=np.uint8)
    assert frame_problem(noisy_black) == "black"
    assert frame_problem(np.full((120, 160, 3), 255, np.uint8)) == "overexposed"
    assert frame_problem(np.full((120, 160, 3), 128, np.uint8)) == "blank"
    # a dark table with a few bright tiles is a real scene, not a black frame
    dark = np.full((120, 160, 3), 12, np.uint8)
    dark[40:70, 40:70] = (30, 200, 220)
    assert frame_problem(dark) is None


def test_source_kind_classifies_specs(tmp_path: Path) -> None:
    assert source_kind(0) == "camera" and source_kind("1") == "camera"
    assert source_kind("http://10.0.0.2:8080/video") == "stream"
    assert source_kind("rtsp://cam/stream") == "stream"
    assert source_kind(tmp_path) == "folder"
    assert source_kind(tmp_path / "game.mp4") == "file"


def test_folder_in_name_order_skips_and_counts_bad_frames(tmp_path: Path) -> None:
    good = {name: _scene(k) for k, name in enumerate(["b_02.jpg", "a_01.png", "d_05.jpg"])}
    cv2.imwrite(str(tmp_path / "a_01.png"), good["a_01.png"])
    (tmp_path / "b_02.jpg").write_bytes(_jpeg(good["b_02.jpg"]))
    data = _jpeg(_scene(9))
    (tmp_path / "c_03.jpg").write_bytes(data[: len(data) // 2])  # truncated
    (tmp_path / "c_04.jpg").write_bytes(_jpeg(np.zeros((120, 160, 3), np.uint8)))  # black
    (tmp_path / "d_05.jpg").write_bytes(_jpeg(good["d_05.jpg"]))
    (tmp_path / "e_06.jpg").write_bytes(_jpeg(np.full((120, 160, 3), 255, np.uint8)))
    (tmp_path / "f_07.png").write_bytes(b"not an image at all")
    (tmp_path / "notes.txt").write_text("ignored")
    with open_source(tmp_path) as src:
        frames = list(src)
        health = src.health()
    assert [f.name for f in frames] == ["a_01.png", "b_02.jpg", "d_05.jpg"]
    assert [f.index for f in frames] == [0, 1, 4]
    for f in frames:
        got, want = (cv2.blur(x, (7, 7)).astype(int) for x in (f.image_bgr, good[f.name]))
        assert np.abs(got - want).mean() < 4  # same picture, up to JPEG noise
    assert health.skipped == {"truncated": 1, "black": 1, "overexposed": 1, "unreadable": 1}
    assert health.state == "ended" and health.frames == 3


def test_video_file_frames_in_order_with_media_time(tmp_path: Path) -> None:
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (160, 120))
    for i in range(20):
        writer.write(np.zeros((120, 160, 3), np.uint8) if i in (5, 6) else _scene(i))
    writer.release()
    src = FrameSource(path)
    assert src.fps == pytest.approx(10.0) and src.frame_count == 20
    with src:
        frames = list(src)
        with pytest.raises(SourceEnded):
            src.read(timeout=0.1)
        assert src.health().skipped == {"black": 2}
    assert [f.index for f in frames] == [i for i in range(20) if i not in (5, 6)]
    ts = [f.t for f in frames]
    assert ts == sorted(ts) and ts[-1] == pytest.approx(1.9, abs=0.15)


def test_unusable_sources_give_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such file"):
        FrameSource(tmp_path / "missing.mp4")
    with pytest.raises(SourceError, match="no images"):
        FrameSource(tmp_path)
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"\x00" * 1000)
    with pytest.raises(SourceError, match=r"bad\.mp4"):
        FrameSource(bad)


class _MJPEGServer:
    """A real multipart/x-mixed-replace JPEG server on 127.0.0.1 that can stall and resume."""

    def __init__(self) -> None:
        self.stalled = threading.Event()
        self.sent = 0
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                try:
                    while not outer.closing.is_set():
                        if outer.stalled.is_set():  # keep the socket open, send nothing
                            time.sleep(0.02)
                            continue
                        body = _jpeg(_scene(outer.sent))
                        head = f"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: {len(body)}"
                        self.wfile.write(head.encode() + b"\r\n\r\n" + body + b"\r\n")
                        self.wfile.flush()
                        outer.sent += 1
                        time.sleep(0.04)
                except OSError:
                    pass

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        self.closing = threading.Event()
        self.server = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/video"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.closing.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def mjpeg() -> Iterator[_MJPEGServer]:
    server = _MJPEGServer()
    yield server
    server.close()


def _read_for(src: FrameSource, seconds: float, timeout: float) -> tuple[int, float]:
    """Read for ``seconds``; return (frames got, longest single read() call)."""
    got, longest = 0, 0.0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.monotonic()
        frame = src.read(timeout=timeout)
        longest = max(longest, time.monotonic() - t0)
        got += frame is not None
    return got, longest


def test_stalled_stream_never_hangs_and_reconnects(mjpeg: _MJPEGServer) -> None:
    settings = SourceSettings(open_timeout_s=1.0, read_timeout_s=0.8, stall_s=0.4,
                              backoff_s=(0.1, 0.2))  # fmt: skip
    with open_source(mjpeg.url, settings) as src:
        got, _ = _read_for(src, 1.0, timeout=0.2)
        assert got >= 5 and src.health().state == "live"
        mjpeg.stalled.set()
        got_during, longest = _read_for(src, 2.0, timeout=0.2)
        health = src.health()
        assert longest < 0.5  # the consumer never blocks on the stalled socket
        assert got_during <= 3  # (frames already in flight)
        assert health.state in ("stalled", "lost") and health.lost_since is not None
        assert "lost since" in health.message
        assert health.last_frame_age_s is not None and health.last_frame_age_s > 1.0
        mjpeg.stalled.clear()
        got_after, longest = _read_for(src, 3.0, timeout=0.2)
        health = src.health()
        assert got_after >= 5 and longest < 0.5
        assert health.state == "live" and health.lost_since is None
        assert health.reconnects >= 1 and health.fps > 5


def test_watchdog_replaces_a_reader_stuck_in_a_backend_call(mjpeg: _MJPEGServer) -> None:
    """A backend that ignores its read timeout (some V4L2 drivers) cannot hang the consumer."""
    release = threading.Event()

    class Stuck:
        def isOpened(self) -> bool:
            return True

        def read(self) -> tuple[bool, None]:
            release.wait(30)
            return False, None

        def release(self) -> None:
            pass

    settings = SourceSettings(read_timeout_s=0.3, stall_s=0.3, backoff_s=(0.1,))
    src = FrameSource(mjpeg.url, settings)
    real_open = src._open_capture
    calls = []

    def open_capture() -> Any:
        calls.append(1)
        return Stuck() if len(calls) == 1 else real_open()

    src._open_capture = open_capture  # type: ignore[method-assign]
    try:
        with src:
            got, longest = _read_for(src, 2.5, timeout=0.2)
            assert longest < 0.5 and got >= 5 and len(calls) >= 2
            assert src.health().reconnects >= 1
    finally:
        release.set()


def test_unreachable_stream_reports_lost_without_blocking() -> None:
    with socketserver.TCPServer(("127.0.0.1", 0), socketserver.BaseRequestHandler) as s:
        port = s.server_address[1]
    settings = SourceSettings(open_timeout_s=0.5, read_timeout_s=0.5, stall_s=0.3,
                              backoff_s=(0.1,))  # fmt: skip
    with open_source(f"http://127.0.0.1:{port}/video", settings) as src:
        got, longest = _read_for(src, 1.0, timeout=0.2)
        health = src.health()
    assert got == 0 and longest < 0.5
    assert health.state == "lost" and health.lost_since is not None and health.frames == 0
