"""The live pipeline: frame source -> detector -> tracker -> game store, in a background thread.

Issue 4 ("Tracking", "Storage") and the web UI's live page (issue 5). :class:`FramePipeline`
does the per-frame work (detect, motion score, feed the tracker, snapshot each settled turn) and
is shared by ``tabletally replay`` (synchronous, every frame) and :class:`LiveSession` (a thread
the web app owns, newest frame first). A :class:`LiveSession` offers what the web UI needs:

- :meth:`LiveSession.health` — the ``LiveFeed`` dict of :mod:`webui.games` (``state``,
  ``fps``, ``frame_age_s``, ``frames``, ``message`` plus source/tracker details);
- :attr:`LiveSession.latest_jpeg` — the latest annotated frame (JPEG bytes, for MJPEG);
- listeners: ``add_listener(fn(TrackerEvent))`` for new turns (Server-Sent Events) and
  ``add_frame_listener(fn(jpeg_bytes))`` for each annotated frame.

Game state lives only in the store: a lost camera reconnects (see :mod:`vision.sources`) and
the tracker simply sees no frames meanwhile.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from calibration.profile import Profile
from scorer.game import Event
from scorer.store import GameStore
from vision.observation import Observation
from vision.sources import Frame, FrameSource, SourceEnded, SourceError, SourceSettings
from vision.tracking import GameSink, StoreSink, Tracker, TrackerEvent, TrackerSettings

__all__ = ["FramePipeline", "LiveSession", "PipelineSettings", "motion_score"]

log = logging.getLogger(__name__)

Image = np.ndarray[Any, np.dtype[np.uint8]]


@dataclass(frozen=True, slots=True)
class PipelineSettings:
    """Per-frame work outside the detector and the tracker.

    Attributes:
        motion_width: frames are shrunk to this width (grey) for the motion score: 160 px
            keeps the cost ~0.3 ms on 1080p and averages out sensor noise.
        jpeg_quality: quality of the annotated preview and snapshots (80: ~60 kB at 960x540).
        preview_fps: annotated preview frames encoded per second at most (drawing + JPEG costs
            ~10 ms on 1080p; 8 fps looks live on a phone without stealing the detector's CPU).
        snapshots: save the annotated JPEG of each settled turn next to the store.
    """

    motion_width: int = 160
    jpeg_quality: int = 80
    preview_fps: float = 8.0
    snapshots: bool = True


def motion_score(prev_small: Image | None, small: Image) -> float | None:
    """Mean absolute difference (0..255) between two equally sized grey thumbnails, or None
    for the first frame / a size change. Used by :class:`vision.tracking.Tracker` as
    ``motion`` (threshold :attr:`TrackerSettings.max_motion`)."""
    if prev_small is None or prev_small.shape != small.shape:
        return None
    return float(cv2.absdiff(prev_small, small).mean())


def _thumb(image_bgr: Image, width: int) -> Image:
    h, w = image_bgr.shape[:2]
    scale = width / max(w, 1)
    small = cv2.resize(image_bgr, (width, max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)  # type: ignore[return-value]


class FramePipeline:
    """Detect + track one frame at a time; writes turns to ``sink``.

    Args:
        tracker: the tracker (owns the sink).
        profile: the tile set's profile for the detector (None: classic palette).
        settings: see :class:`PipelineSettings`.
        store: with ``game_id``, where snapshots of settled turns go.
        detector: ``image_bgr -> Observation`` (default :func:`vision.detect.detect` with
            ``profile``); tests may pass the renderer's truth instead.

    A frame the detector fails on (an exception: a bug met by an image it was never shown)
    is skipped like a dropped frame, logged with its traceback and counted in
    ``failed_frames`` (the last error in ``last_error``): one such frame must not end the
    game's tracking.
    """

    def __init__(
        self,
        tracker: Tracker,
        *,
        profile: Profile | None = None,
        settings: PipelineSettings = PipelineSettings(),
        store: GameStore | None = None,
        game_id: int | None = None,
        detector: Callable[[Image], Observation] | None = None,
    ):
        self.tracker = tracker
        self.settings = settings
        self.profile = profile
        self.store, self.game_id = store, game_id
        if detector is None:
            from vision.detect import detect

            def detector(image: Image) -> Observation:
                return detect(image, profile=profile)

        self._detect = detector
        self._prev_small: Image | None = None
        self.last_observation: Observation | None = None
        self.detect_ms: deque[float] = deque(maxlen=50)
        self.failed_frames = 0
        self.last_error: str | None = None

    def process(self, frame: Frame, *, use_motion: bool = True) -> list[TrackerEvent]:
        """Detect the frame's tiles and feed the tracker; snapshot each appended turn.

        Returns the tracker's events; none for a frame the detector failed on (skipped)."""
        t0 = time.perf_counter()
        try:
            obs = self._detect(frame.image_bgr)
        except Exception as e:  # skip the frame, keep the game (see the class docstring)
            self.failed_frames += 1
            self.last_error = f"frame {frame.index}: {type(e).__name__}: {e}"
            log.exception("detector failed on frame %d; frame skipped", frame.index)
            return []
        self.detect_ms.append((time.perf_counter() - t0) * 1000.0)
        small = _thumb(frame.image_bgr, self.settings.motion_width)
        motion = motion_score(self._prev_small, small) if use_motion else None
        self._prev_small = small
        self.last_observation = obs
        events = self.tracker.feed(obs, frame_index=frame.index, t=frame.t, motion=motion)
        if self.store is not None and self.game_id is not None and self.settings.snapshots:
            for ev in events:
                if ev.index is not None:
                    jpeg = self.annotate(frame.image_bgr, obs, ev.message)
                    try:
                        self.store.save_snapshot(self.game_id, ev.index, jpeg)
                    except OSError as e:  # a full disk must not stop the game
                        log.warning("snapshot of turn %s not saved: %s", ev.index, e)
        return events

    def annotate(self, image_bgr: Image, obs: Observation, caption: str = "") -> bytes:
        """The detector's overlay plus the tracker's status line, as JPEG bytes."""
        try:
            from vision.detect import draw_overlay

            out = draw_overlay(image_bgr, obs)
        except Exception:  # the overlay is a nicety; never lose a frame over it
            out = image_bgr.copy()
        status = caption or self.tracker.gate_reason or self.tracker.status
        if not caption and not self.tracker.gate_reason and self.tracker.note:
            status += f" - {self.tracker.note}"
        h = out.shape[0]
        scale = max(0.5, h / 900)
        cv2.rectangle(out, (0, 0), (out.shape[1], int(34 * scale)), (0, 0, 0), -1)
        cv2.putText(out, status[:90], (8, int(24 * scale)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.7 * scale, (255, 255, 255), max(1, int(2 * scale)), cv2.LINE_AA)  # fmt: skip
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, self.settings.jpeg_quality])
        if not ok:  # pragma: no cover - OpenCV always encodes a valid BGR image
            raise RuntimeError("JPEG encoding failed")
        return buf.tobytes()


_TRACKER = TrackerSettings()
_SOURCE = SourceSettings()
_PIPELINE = PipelineSettings()


@dataclass(slots=True)
class _Stats:
    processed: deque[float] = field(default_factory=lambda: deque(maxlen=30))
    frames: int = 0
    last_processed: float | None = None
    error: str | None = None


class LiveSession:
    """A camera (or video) tracked into one game of the store, in a background thread.

    Implements the web UI's ``LiveFeed`` protocol (:mod:`webui.games`): ``game_id``,
    ``health()``, ``stop()``.

    Args:
        store: the game store (the session appends camera turns; the UI may append
            exchanges, passes and corrections at any time: the tracker re-reads the game
            when the store's revision moved, before diffing its next settled board). One
            connection guarded by the store's lock serves the session thread and the web
            request threads alike.
        game_id: the game to track into.
        source: a :class:`~vision.sources.FrameSource` or a spec for one (camera index, video
            file, image folder, stream URL).
        tracker_settings, source_settings, pipeline_settings: thresholds.
        profile: the tile set's profile for the detector.
        first_player: the seat who opens if the game has no turn yet.
        ui_events: ``frame index -> events`` appended with ``source="ui"`` just before that
            frame is processed (the demo's exchanges, as if pressed in the UI).
        detector: override of the detector (tests).
        idempotent: give each camera turn the key ``"<source>:<frame>"`` so restarting on the
            same video after a crash adds no duplicate (for files; not for live cameras, whose
            frame numbers restart).
        skip_until: frames with a smaller index are read but not processed (resume a video).
    """

    def __init__(
        self,
        store: GameStore,
        game_id: int,
        source: FrameSource | str | int,
        *,
        tracker_settings: TrackerSettings = _TRACKER,
        source_settings: SourceSettings = _SOURCE,
        pipeline_settings: PipelineSettings = _PIPELINE,
        profile: Profile | None = None,
        first_player: int = 0,
        ui_events: Mapping[int, list[Event]] | None = None,
        detector: Callable[[Image], Observation] | None = None,
        idempotent: bool | None = None,
        skip_until: int = -1,
    ):
        self.store = store
        self.game_id = int(game_id)
        store.info(self.game_id)  # UnknownGameError now, not in the thread
        self.source = (
            source if isinstance(source, FrameSource) else FrameSource(source, source_settings)
        )
        if idempotent is None:
            idempotent = not self.source.live
        sink: GameSink = StoreSink(
            store, self.game_id, key_prefix=str(self.source.spec) if idempotent else None
        )
        self.tracker = Tracker(sink, tracker_settings, first_player=first_player)
        self.pipeline = FramePipeline(
            self.tracker, profile=profile, settings=pipeline_settings, store=store,
            game_id=self.game_id, detector=detector,
        )  # fmt: skip
        self.ui_events = dict(ui_events or {})
        self.skip_until = skip_until
        self.latest_jpeg: bytes | None = None
        #: the latest raw frame (no overlay, colours untouched), for calibrating from the camera
        self.latest_frame_bgr: Image | None = None
        self.events: list[TrackerEvent] = []
        self._listeners: list[Callable[[TrackerEvent], None]] = []
        self._frame_listeners: list[Callable[[bytes], None]] = []
        self._stop = threading.Event()
        self._done = threading.Event()
        self._stats = _Stats()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._last_preview = 0.0

    # -- hooks ----------------------------------------------------------------------------------
    def add_listener(self, fn: Callable[[TrackerEvent], None]) -> None:
        """Call ``fn(event)`` (in the session thread) for every tracker event."""
        self._listeners.append(fn)

    def add_frame_listener(self, fn: Callable[[bytes], None]) -> None:
        """Call ``fn(jpeg_bytes)`` (in the session thread) for each annotated preview frame."""
        self._frame_listeners.append(fn)

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> LiveSession:
        """Start the thread (idempotent); returns ``self``."""
        if self._thread is None:
            self.source.start()
            self._thread = threading.Thread(target=self._run, name="tabletally-live", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop tracking and release the camera.

        The last still period is decided as at the end of a recording
        (:meth:`~vision.tracking.Tracker.flush`): a settled move whose reading was unclear
        (kept back until the hands come back, e.g. an illegal last move) is committed as a
        review instead of lost, and tiles seen only now and then join their move. A move
        still settling (hands just lifted) is not committed. Blocks until the session's
        thread has finished (at most about 10 s)."""
        self._stop.set()
        self.source.close()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=10)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until a finite source is done (or the session stopped); True if done."""
        return self._done.wait(timeout)

    @property
    def finished(self) -> bool:
        return self._done.is_set()

    # -- the loop -------------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    frame = self.source.read(timeout=0.5)
                except SourceEnded:
                    break
                if frame is None:
                    continue
                self._step(frame)
            self._flush()  # the recording ended or the session was stopped
        except SourceError as e:
            self._stats.error = str(e)
            log.error("live session stopped: %s", e)
        except Exception as e:  # keep the server up; say what happened on the page
            self._stats.error = f"tracking stopped: {e}"
            log.exception("live session crashed")
        finally:
            self._done.set()

    def _flush(self) -> None:
        """Decide the last still period's open questions (:meth:`Tracker.flush`) and hand
        the events on, as for frames."""
        last = self.tracker.flush()
        with self._lock:
            self.events.extend(last)
        self._publish(last)

    def _step(self, frame: Frame) -> None:
        for k in sorted(k for k in self.ui_events if k <= frame.index):
            for ui_event in self.ui_events.pop(k):
                self.store.append(self.game_id, ui_event, source="ui", frame=k)
        if frame.index < self.skip_until:
            return
        events = self.pipeline.process(frame, use_motion=not self.tracker.settings.stills)
        self.latest_frame_bgr = frame.image_bgr
        now = time.monotonic()
        with self._lock:
            self._stats.frames += 1
            self._stats.processed.append(now)
            self._stats.last_processed = now
            self.events.extend(events)
        self._publish(events)
        if now - self._last_preview >= 1.0 / max(self.pipeline.settings.preview_fps, 0.1):
            self._last_preview = now
            obs = self.pipeline.last_observation
            if obs is not None:
                jpeg = self.pipeline.annotate(frame.image_bgr, obs)
                self.latest_jpeg = jpeg
                for fn2 in self._frame_listeners:
                    with contextlib.suppress(Exception):
                        fn2(jpeg)

    def _publish(self, events: list[TrackerEvent]) -> None:
        """Hand new tracker events to the listeners (in this thread)."""
        for ev in events:
            for fn in self._listeners:
                try:
                    fn(ev)
                except Exception:
                    log.exception("live listener failed")

    # -- health ---------------------------------------------------------------------------------
    def health(self) -> dict[str, Any]:
        """The live page's camera health.

        Keys: ``state`` (``"starting"``, ``"ok"``, ``"lost"``, ``"ended"``), ``fps`` (frames
        processed per second), ``frame_age_s`` (since the last good frame), ``frames``
        (processed), ``message`` (one line, e.g. ``"camera lost since 12:03"``), ``tracker``
        (``waiting``/``hands``/``moving``/``settling``/``settled``), ``source`` (the source's
        own health: state, fps, skipped frames by reason, reconnects, lost_since), ``detect_ms``
        (median detector time), ``detect_failures`` (frames skipped because the detector failed
        on them) and ``detect_error`` (the last such failure, one line), ``error``.
        """
        src = self.source.health()
        now = time.monotonic()
        with self._lock:
            ts = list(self._stats.processed)
            frames = self._stats.frames
            error = self._stats.error
        fps = (len(ts) - 1) / (ts[-1] - ts[0]) if len(ts) >= 2 and ts[-1] > ts[0] else 0.0
        if ts and now - ts[-1] > 5.0:
            fps = 0.0
        if error:
            state, message = "lost", error
        elif self._done.is_set() or src.state in ("ended", "closed"):
            state, message = "ended", "end of the recording"
        elif src.state in ("stalled", "lost"):
            state, message = "lost", src.message
        elif src.state == "connecting" or frames == 0:
            state, message = "starting", "starting the camera"
        else:
            state = "ok"
            message = f"tracking: {self.tracker.gate_reason or self.tracker.status}"
            if not self.tracker.gate_reason and self.tracker.note:
                message += f" ({self.tracker.note})"
        dms = sorted(self.pipeline.detect_ms)
        return {
            "state": state,
            "fps": round(fps, 2),
            "frame_age_s": src.last_frame_age_s,
            "frames": frames,
            "message": message,
            "tracker": self.tracker.status,
            "source": src.as_dict(),
            "detect_ms": round(dms[len(dms) // 2], 1) if dms else None,
            "detect_failures": self.pipeline.failed_frames,
            "detect_error": self.pipeline.last_error,
            "error": error,
        }
