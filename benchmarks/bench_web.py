"""Web companion benchmark (issue 5): does watching slow the tracking down?

Target: with 10 browsers on the live stream (each one Server-Sent Events stream and one MJPEG
stream) while the pipeline tracks at 15 fps, the processed frame rate drops by less than 10 %.

Setup, all real parts: the app on a real SQLite file and Werkzeug's threaded server on
127.0.0.1; the live pipeline (:class:`webui.live.CameraFeed` around
:class:`vision.live.LiveSession`: detect -> tracker -> store -> hub -> streams) fed by a paced
15 fps source that loops frames of the demo video (``vision.demo``); the clients run in a
*separate process* (as browsers would), each reading its SSE and MJPEG streams as fast as the
server sends. Phases without (A) and with (B) clients alternate in counterbalanced order
(A B, B A, A B, ...) so a drift in the machine's load hits both alike; the result is the
median processed fps of each kind of phase and their ratio, plus the server's CPU time per
processed frame, which other processes on a shared machine do not change.

Run: ``python -m benchmarks web`` (or ``python -m benchmarks.bench_web --seconds 20``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_CLIENT = r"""
import http.client, sys, threading, time, json
port, n, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
path_sse, path_mjpeg = sys.argv[4], sys.argv[5]
stats = {"sse_bytes": 0, "mjpeg_bytes": 0, "mjpeg_frames": 0, "sse_events": 0, "errors": 0}
lock = threading.Lock()
def reader(path, kind):
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("GET", path)
        r = c.getresponse()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            b = r.read1(65536)
            if not b:
                break
            with lock:
                stats[kind + "_bytes"] += len(b)
                if kind == "mjpeg":
                    stats["mjpeg_frames"] += b.count(b"--frame")
                else:
                    stats["sse_events"] += b.count(b"\n\n")
        c.close()
    except Exception:
        with lock:
            stats["errors"] += 1
ts = [threading.Thread(target=reader, args=(p, k), daemon=True)
      for _ in range(n) for p, k in ((path_sse, "sse"), (path_mjpeg, "mjpeg"))]
for t in ts: t.start()
for t in ts: t.join(seconds + 15)
print(json.dumps(stats))
"""


def _loop_source(frames: list[Any], fps: float) -> Any:
    """A live :class:`vision.sources.FrameSource` that loops ``frames`` at ``fps``:
    ``read()`` returns the next frame on time (media time advancing) like a live camera, and
    skips to the newest frame when the consumer is behind."""
    from vision.sources import Frame, FrameSource, SourceHealth

    class LoopSource(FrameSource):
        def __init__(self) -> None:  # no device to open: FrameSource.__init__ is not needed
            self.spec, self.kind, self.live = "bench-loop", "camera", True
            self.i = 0
            self.t0 = time.monotonic()

        def start(self) -> LoopSource:
            return self

        def read(self, timeout: float = 0.5) -> Frame | None:
            wait = self.t0 + self.i / fps - time.monotonic()
            if wait > timeout:
                time.sleep(timeout)
                return None
            if wait > 0:
                time.sleep(wait)
            else:
                self.i = max(self.i, int((time.monotonic() - self.t0) * fps))
            frame = Frame(self.i, self.i / fps, frames[self.i % len(frames)])
            self.i += 1
            return frame

        def health(self) -> SourceHealth:
            return SourceHealth("live", fps, 0.0, None, self.i)

        def close(self) -> None:
            pass

    return LoopSource()


def _cpu() -> float:
    """CPU seconds (user + system) used by this process so far."""
    t = os.times()
    return t.user + t.system


def _frames(n: int) -> list[Any]:
    import cv2

    from vision.demo import ensure_demo_video

    demo = ensure_demo_video(progress=False)
    cap = cv2.VideoCapture(str(demo.video))
    out: list[Any] = []
    # frames from the middle of the game: a board with tiles, some hands
    cap.set(cv2.CAP_PROP_POS_FRAMES, 300)
    while len(out) < n:
        ok, img = cap.read()
        if not ok:
            break
        out.append(img)
    cap.release()
    if not out:
        raise RuntimeError(f"{demo.video}: no frames decoded")
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(prog="bench_web")
    ap.add_argument("--seconds", type=float, default=15.0, help="length of each phase")
    ap.add_argument("--rounds", type=int, default=4, help="A/B phase pairs")
    ap.add_argument("--clients", type=int, default=10, help="browsers (SSE + MJPEG each)")
    ap.add_argument("--fps", type=float, default=15.0, help="source frame rate")
    args = ap.parse_args(argv or [])

    from webui.app import create_app
    from webui.games import state
    from webui.live import CameraFeed
    from webui.serve import ServerThread

    tmp = Path(tempfile.mkdtemp(prefix="bench-web-"))
    app = create_app({"TABLETALLY_DB": tmp / "bench.sqlite3"})
    st = state(app)
    gid = st.store.create_game(("Ann", "Ben", "Cleo"))
    frames = _frames(60)
    feed = CameraFeed(st, gid, _loop_source(frames, args.fps), label="bench")
    st.live = feed
    result: dict[str, Any] = {}
    with ServerThread(app) as srv:
        feed.start()
        time.sleep(3.0)  # warm up (imports, first detections)
        base_fps: list[float] = []
        load_fps: list[float] = []
        clients: list[dict[str, Any]] = []
        cpu_base: list[float] = []
        cpu_load: list[float] = []
        cpu_clients: list[float] = []

        def without() -> None:
            time.sleep(2.0)  # streams of the previous phase have closed
            n0, t0, c0 = feed.processed, time.monotonic(), _cpu()
            time.sleep(args.seconds)
            dt = time.monotonic() - t0
            base_fps.append((feed.processed - n0) / dt)
            cpu_base.append((_cpu() - c0) / dt)

        def with_clients() -> None:
            argv = [
                sys.executable,
                "-c",
                _CLIENT,
                str(srv.port),
                str(args.clients),
                str(args.seconds + 2.0),
                f"/games/{gid}/events",
                "/camera.mjpg",
            ]
            k0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
            time.sleep(1.5)  # let every client connect
            n0, t0, c0 = feed.processed, time.monotonic(), _cpu()
            streams = st.hub.clients
            time.sleep(args.seconds)
            dt = time.monotonic() - t0
            load_fps.append((feed.processed - n0) / dt)
            cpu_load.append((_cpu() - c0) / dt)
            out, _ = proc.communicate(timeout=args.seconds + 30)
            k1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu_clients.append(
                (k1.ru_utime + k1.ru_stime - k0.ru_utime - k0.ru_stime) / (args.seconds + 3.5)
            )
            c = json.loads(out.strip().splitlines()[-1])
            c["streams_open"] = streams
            clients.append(c)

        for r in range(args.rounds):  # counterbalanced: A B, B A, A B, ...
            for phase in (without, with_clients) if r % 2 == 0 else (with_clients, without):
                phase()
        feed.stop()
    st.store.close()
    base, load = statistics.median(base_fps), statistics.median(load_fps)
    drop = 1.0 - load / base if base else float("nan")
    mjpeg_fps = statistics.median(
        c["mjpeg_frames"] / args.clients / (args.seconds + 2.0) for c in clients
    )
    result = {
        "target": "processed fps drop < 10% with 10 browsers on SSE + MJPEG",
        "source_fps": args.fps,
        "frame_size": list(frames[0].shape[1::-1]),
        "clients": args.clients,
        "phase_s": args.seconds,
        "rounds": args.rounds,
        "fps_without_clients": [round(x, 2) for x in base_fps],
        "fps_with_clients": [round(x, 2) for x in load_fps],
        "median_fps_without": round(base, 2),
        "median_fps_with": round(load, 2),
        "drop": round(drop, 4),
        "pass": bool(drop < 0.10),
        "streams_open": [c["streams_open"] for c in clients],
        "mjpeg_fps_per_client": round(mjpeg_fps, 2),
        "detect_ms_median": feed.health().get("detect_ms"),
        "client_errors": sum(c["errors"] for c in clients),
        "server_cpu_cores_without": round(statistics.median(cpu_base), 2),
        "server_cpu_cores_with": round(statistics.median(cpu_load), 2),
        "clients_cpu_cores": round(statistics.median(cpu_clients), 2),
        # CPU per processed frame: independent of how busy the shared machine is
        "server_cpu_ms_per_frame_without": round(
            1000 * statistics.median(c / f for c, f in zip(cpu_base, base_fps, strict=True) if f), 1
        ),
        "server_cpu_ms_per_frame_with": round(
            1000 * statistics.median(c / f for c, f in zip(cpu_load, load_fps, strict=True) if f), 1
        ),
        "load_avg": os.getloadavg(),
    }
    return result


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:]), indent=2))
