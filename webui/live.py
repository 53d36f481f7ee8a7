"""The live pipeline behind the Live page: frames -> vision -> tracking -> store -> page.

:class:`CameraFeed` runs one background thread per server: it reads a frame source
(:func:`vision.sources.open_source`: camera index, video file, image folder or stream URL),
reads every frame with :func:`vision.detect.detect`, feeds the observation to a
:class:`vision.tracking.Tracker` writing into the game store (:class:`vision.tracking.StoreSink`),
and publishes the annotated frame (:func:`vision.detect.draw_overlay`) on the MJPEG stream. When
the tracker appends a move or a review, the game's version is bumped so every open page updates
within one Server-Sent Event. The feed is the app's ``app.extensions["tabletally"].live``.

Streaming clients never slow the pipeline down directly: they only wait on the hub's condition
and copy the latest JPEG; the benchmark ``benchmarks/bench_web.py`` measures what is left
(processed fps with 0 vs 10 streaming clients).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Flask

from scorer.game import Event
from webui.games import WebState, current_game_id, state

__all__ = [
    "CameraFeed",
    "LiveSettings",
    "attach_camera",
    "open_camera",
    "start_camera",
    "start_pipeline_demo",
]


@dataclass(frozen=True)
class LiveSettings:
    """Pacing and encoding of the live pipeline.

    Attributes:
        max_fps: frames processed per second at most. 15 fps is the issue-5 benchmark's
            tracking rate; more only heats the laptop (a move settles over ~0.5 s).
        jpeg_quality: quality of the annotated frames on the MJPEG stream (OpenCV 0..100);
            75 keeps a 960x540 frame near 60 KB, fine for ten phones on Wi-Fi.
        read_timeout_s: how long one read waits for a frame before the loop checks for stop
            and refreshes health, seconds.
        fps_window_s: processed fps is averaged over this sliding window, seconds.
    """

    max_fps: float = 15.0
    jpeg_quality: int = 75
    read_timeout_s: float = 0.5
    fps_window_s: float = 3.0


class CameraFeed:
    """The live pipeline for one game (see the module docstring); a :class:`LiveFeed`.

    Args:
        st: the app's state (store, hub).
        game_id: the game the tracker appends to.
        source: a started :class:`vision.sources.FrameSource` (the feed closes it on stop).
        profile: the tile-set profile for the detector (None: classic palette).
        ui_events: ``frame index -> (event index, event)``: turns a player would enter with
            the Exchange/Pass buttons (the demo video's invisible turns).
        label: what the health line calls the source (e.g. ``"camera 0"``, ``"demo video"``).
        settings: pacing and encoding.
        tracker_settings: the tracker's thresholds (None: its defaults).
        key_prefix: idempotency prefix for appends from a replayable source (a file), so a
            restarted server does not duplicate moves (:class:`vision.tracking.StoreSink`).
        follow_new_games: a new game created on the page is tracked by this feed from then on.
        detector: ``detector(image_bgr, profile=...) -> Observation``; default
            :func:`vision.detect.detect` (tests pass the renderer's truth to check the glue).

    Raises:
        ImportError: the vision/tracking modules are not installed.
    """

    def __init__(
        self,
        st: WebState,
        game_id: int,
        source: Any,
        *,
        profile: Any = None,
        ui_events: Mapping[int, tuple[int, Event]] | None = None,
        label: str = "camera",
        settings: LiveSettings = LiveSettings(),
        tracker_settings: Any = None,
        key_prefix: str | None = None,
        follow_new_games: bool = False,
        detector: Callable[..., Any] | None = None,
    ):
        from vision.tracking import TrackerSettings

        self.st = st
        self.game_id = game_id
        self.source = source
        self.profile = profile
        self.label = label
        self.settings = settings
        self._ui = dict(sorted((ui_events or {}).items()))
        self.follow_new_games = follow_new_games
        self._detector = detector
        self._key_prefix = key_prefix
        self._tracker_settings = tracker_settings or TrackerSettings()
        self.tracker = self._new_tracker(game_id)
        self._stop = threading.Event()
        self._times: deque[float] = deque()
        self.processed = 0
        self.moves = 0
        self.reviews = 0
        self.last_message = ""
        self.error: str | None = None
        self._ended = False
        self._thread = threading.Thread(target=self._run, name="tabletally-live", daemon=True)

    def _new_tracker(self, game_id: int) -> Any:
        from vision.tracking import StoreSink, Tracker

        sink = StoreSink(self.st.store, game_id, key_prefix=self._key_prefix)
        return Tracker(sink, self._tracker_settings)

    def retarget(self, game_id: int) -> None:
        """Track ``game_id`` from the next frame on (a new game started on the same table)."""
        tracker = self._new_tracker(game_id)
        self.tracker, self.game_id = tracker, game_id  # the loop reads both once per frame
        self.moves = self.reviews = 0

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> CameraFeed:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        with contextlib.suppress(Exception):  # a broken source must not block the shutdown
            self.source.close()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    # -- the loop ------------------------------------------------------------------------------
    def _apply_ui(self, frame_index: int) -> None:
        while self._ui:
            f = next(iter(self._ui))
            if f > frame_index:
                return
            _, event = self._ui.pop(f)
            self.st.store.append(
                self.game_id, event, source="ui", frame=f, key=f"ui:{self.label}:{f}"
            )
            self.st.hub.bump(self.game_id)

    def _run(self) -> None:
        import cv2

        from vision.detect import detect, draw_overlay
        from vision.sources import SourceEnded

        detect_ = self._detector or detect

        gap = 1.0 / self.settings.max_fps
        quality = [cv2.IMWRITE_JPEG_QUALITY, int(self.settings.jpeg_quality)]
        next_t = time.monotonic()
        live = bool(getattr(self.source, "live", True))
        try:
            while not self._stop.is_set():
                try:
                    frame = self.source.read(timeout=self.settings.read_timeout_s)
                except SourceEnded:  # a file or folder finished
                    self._ended = True
                    break
                if frame is None:
                    continue
                now = time.monotonic()
                if now < next_t:  # over max_fps
                    if live:  # a live camera: drop this frame (the next one is newer)
                        continue
                    time.sleep(next_t - now)  # a file or folder: every frame counts
                    now = next_t
                next_t = max(next_t + gap, now)
                self._apply_ui(frame.index)
                obs = detect_(frame.image_bgr, profile=self.profile)
                tracker, game_id = self.tracker, self.game_id
                events = tracker.feed(obs, frame_index=frame.index, t=frame.t)
                changed = False
                for ev in events:
                    if ev.kind in ("move", "review", "setup"):
                        changed = True
                        self.moves += ev.kind == "move"
                        self.reviews += ev.kind == "review"
                    self.last_message = ev.message
                if changed:
                    self.st.hub.bump(game_id)
                ok, buf = cv2.imencode(".jpg", draw_overlay(frame.image_bgr, obs), quality)
                if ok:
                    self.st.hub.publish_frame(buf.tobytes())
                self.processed += 1
                t = time.monotonic()
                self._times.append(t)
                while self._times and self._times[0] < t - self.settings.fps_window_s:
                    self._times.popleft()
        except Exception as e:  # keep the server up and say what broke on the page
            self.error = f"{type(e).__name__}: {e}"
        if self._ended:  # turns entered after the last frame (e.g. a final pass)
            self._apply_ui(1 << 62)

    # -- health --------------------------------------------------------------------------------
    def fps(self) -> float:
        """Processed frames per second over the last ``fps_window_s``."""
        times = list(self._times)
        if len(times) < 2:
            return 0.0
        span = max(times[-1] - times[0], 1e-6)
        if time.monotonic() - times[-1] > self.settings.fps_window_s:
            return 0.0
        return (len(times) - 1) / span

    def health(self) -> dict[str, Any]:
        """Camera health for the page: ``state`` (ok | starting | lost | ended | error),
        ``fps`` (processed), ``frame_age_s``, ``frames``, ``tracker``, ``message``."""
        src = self.source.health()
        frame = self.st.hub.frame
        age = None if frame is None else round(time.monotonic() - frame.t, 2)
        tracker = getattr(self.tracker, "status", "")
        if self.error:
            state_, msg = "error", f"{self.label}: pipeline stopped ({self.error})"
        elif self._ended or (src.state == "ended" and not self.running):
            state_, msg = "ended", f"{self.label} ended after {self.processed} frames"
        elif src.state in ("lost", "stalled"):
            state_, msg = "lost", src.message or f"{self.label} lost"
        elif src.state == "connecting" or frame is None:
            state_, msg = "starting", f"{self.label}: connecting"
        else:
            state_, msg = "ok", f"{self.label} · tracker {tracker}"
        return {
            "state": state_,
            "fps": round(self.fps(), 2),
            "frame_age_s": age,
            "frames": self.processed,
            "tracker": tracker,
            "moves": self.moves,
            "reviews": self.reviews,
            "source": src.as_dict(),
            "message": msg,
        }


def _game_for_camera(st: WebState, players: Sequence[str] | None) -> int:
    try:
        return current_game_id(st)
    except Exception:
        pass
    names = tuple(players or ("Player 1", "Player 2"))
    gid = int(st.store.create_game(names, meta={"camera": True}))
    st.hub.bump(gid)
    return gid


def open_camera(spec: str, profile: str | None = None) -> tuple[Any, Any]:
    """Open a frame source and load a profile: ``(source, profile)``.

    Raises:
        ValueError: a bad source or profile, with a one-line message naming it
            (``vision.sources.SourceError`` / ``calibration.profile.ProfileError``).
    """
    from calibration.profile import load_profile
    from vision.sources import open_source

    prof = load_profile(profile) if profile else None  # ProfileError is a ValueError
    src = open_source(int(spec) if spec.strip().isdigit() else spec)  # SourceError too
    return src, prof


def attach_camera(app: Flask, game_id: int, source: Any, profile: Any, label: str) -> CameraFeed:
    """Run the pipeline on ``source`` for ``game_id``, replacing the current feed."""
    st = state(app)
    old = st.live
    if old is not None:
        old.stop()
    feed = CameraFeed(
        st, game_id, source, profile=profile, label=label, follow_new_games=True
    ).start()
    st.live = feed
    st.hub.bump(game_id)
    return feed


def start_camera(
    app: Flask, spec: str, *, players: Sequence[str] | None = None, profile: str | None = None
) -> CameraFeed:
    """Attach a camera (``--camera SRC``) to the current game (a new one if there is none).
    New games created on the page later are tracked by the same camera.

    Raises:
        webui.cli.CLIError: a bad source or profile (one line, exit 2).
    """
    from webui.cli import CLIError

    try:
        src, prof = open_camera(spec, profile)
    except ValueError as e:
        raise CLIError(str(e)) from None
    gid = _game_for_camera(state(app), players)
    return attach_camera(app, gid, src, prof, f"camera {spec}")


def start_pipeline_demo(app: Flask, *, progress: bool = False) -> CameraFeed:
    """The demo through the whole pipeline: the tracking issue's rendered demo video
    (:func:`vision.demo.ensure_demo_video`, rendered once with a progress bar, then cached),
    played in real time into a new game.

    The game is created first, so its Live page can be opened (and says so) while the video
    renders on the first run.

    Raises:
        ImportError: vision.demo / vision.tracking are not available.
    """
    from vision.demo import DemoSettings, demo_game, ensure_demo_video
    from vision.sources import SourceSettings, open_source

    st = state(app)
    settings = DemoSettings()
    game = demo_game(settings)
    gid = int(
        st.store.create_game(
            game.players,
            variant=game.variant,
            setup=game.setup,
            tie_break=game.tie_break,
            meta={"demo": True},
        )
    )
    st.notes[gid] = (
        "Demo: preparing the recorded game (rendered once on the first run, about a minute; "
        "the moves appear here as soon as it plays)."
    )
    st.hub.bump(gid)
    demo = ensure_demo_video(settings=settings, progress=progress)
    st.notes[gid] = (
        f"Demo: a recorded game ({len(game.events)} turns, {len(game.players)} players) filmed "
        "by a simulated camera, played through the whole pipeline: each frame is read by the "
        "vision module, the tracker notices each settled move, the scorer scores it. Exchanges "
        "and passes (invisible to a camera) are entered as if a player pressed the buttons."
    )
    src = open_source(demo.video, SourceSettings(realtime=True))
    feed = CameraFeed(st, gid, src, ui_events=demo.ui_events, label="demo video").start()
    st.live = feed
    st.hub.bump(gid)
    return feed
