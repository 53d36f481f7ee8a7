"""Frame sources: a camera index, a video file, a folder of images, a single image (one frame:
a phone photo) or an HTTP/RTSP stream URL.

Issue 4, "Frame sources". Every kind goes through OpenCV (a folder's images through
:func:`vision.imagefile.decode_image`: OpenCV, and libheif for iPhones' HEIC) and
is read by a background thread, so the consumer never blocks longer than the ``timeout`` it asks
for, whatever the camera or the network does:

- OpenCV's FFmpeg backend blocks ~30 s on a stalled network read by default; we pass
  ``CAP_PROP_OPEN_TIMEOUT_MSEC`` / ``CAP_PROP_READ_TIMEOUT_MSEC`` (OpenCV >= 4.6, "VideoCapture
  properties"), and on top of that a frame-age *watchdog*: a reader stuck in ``read()`` longer
  than :attr:`SourceSettings.stall_s` is abandoned (its thread finishes on its own) and a new
  connection is opened;
- a lost live source reconnects with exponential backoff (:attr:`SourceSettings.backoff_s`);
  nothing downstream changes meanwhile — the tracker simply gets no frames — and
  :meth:`FrameSource.health` says ``"lost since 12:03"`` for the UI;
- corrupt (truncated, undecodable), black, overexposed and blank frames are skipped, each
  counted under its reason in :attr:`SourceHealth.skipped`.

Usage::

    with open_source("0") as src:           # or "game.mp4", "photos/", "http://phone:8080/video"
        while (frame := src.read(timeout=0.5)) is not ...:
            if frame is None:               # nothing new within 0.5 s (stalled or just slow)
                continue
            process(frame.image_bgr)

or simply ``for frame in src: ...`` for finite sources.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, cast

import cv2
import numpy as np

from vision.imagefile import IMAGE_SUFFIXES, ImageError, read_image

__all__ = [
    "IMAGE_SUFFIXES",
    "Frame",
    "FrameSource",
    "SourceEnded",
    "SourceError",
    "SourceHealth",
    "SourceSettings",
    "frame_problem",
    "open_source",
    "source_kind",
]

Image = np.ndarray[Any, np.dtype[np.uint8]]
SourceKind = Literal["camera", "file", "folder", "image", "stream"]
SourceState = Literal["connecting", "live", "stalled", "lost", "ended", "closed"]


class SourceError(ValueError):
    """A source that cannot be used at all (missing file, empty folder, unopenable video)."""


class SourceEnded(Exception):
    """A finite source (video file, image folder) has delivered its last frame."""


@dataclass(frozen=True, slots=True)
class SourceSettings:
    """Timeouts, reconnection and frame-quality thresholds of a :class:`FrameSource`.

    Attributes:
        open_timeout_s: OpenCV ``CAP_PROP_OPEN_TIMEOUT_MSEC`` for streams. 5 s: a phone on the
            same Wi-Fi answers in well under a second; longer only delays the "lost" message.
        read_timeout_s: OpenCV ``CAP_PROP_READ_TIMEOUT_MSEC`` for streams. 3 s: phone apps
            (IP Webcam, DroidCam) send >= 5 fps, so 3 s without a frame is a stall, not jitter.
        stall_s: frame-age watchdog. When no frame arrived for this long the source reports
            ``"stalled"``; a reader stuck inside ``read()`` for ``stall_s + read_timeout_s`` is
            abandoned and a new connection opened (backends that ignore the read timeout,
            e.g. some V4L2 drivers, cannot hang us).
        backoff_s: reconnection delays, seconds, the last one repeated. Exponential from 0.5 s
            to 8 s: quick recovery from a Wi-Fi hiccup, no busy loop while a phone is off.
        live_queue: frames buffered for live sources; older ones are dropped so the tracker
            always sees the newest frame (latency over completeness for a live camera).
        file_queue: frames buffered for files/folders; the reader waits rather than drop one
            (a replay must see every frame).
        realtime: pace files/folders at their frame rate (for ``serve --demo``), instead of as
            fast as the consumer reads (``replay``). A paced file behaves like a camera: when
            the consumer falls behind, stale frames are dropped (newest wins).
        folder_fps: frame rate assumed for an image folder (media time ``t = index / fps``).
        dark_mean, dark_p99: a frame whose grey mean is below ``dark_mean`` *and* whose 99th
            percentile is below ``dark_p99`` (0..255) is "black" (lens cap, camera starting).
            A dark table with lit tiles has a bright 99th percentile, so it passes.
        bright_fraction, bright_level: a frame with more than ``bright_fraction`` of its
            pixels at or above ``bright_level`` is "overexposed" (auto-exposure swing, lamp
            straight into the lens); tile colours cannot be read from it.
        blank_std: a frame whose grey standard deviation is below this is "blank" (uniform
            grey/green frames some decoders emit after packet loss).
        sample_step: the quality checks look at every ``sample_step``-th pixel in each
            direction (cheap on 1080p: ~8k samples with step 16).
    """

    open_timeout_s: float = 5.0
    read_timeout_s: float = 3.0
    stall_s: float = 2.0
    backoff_s: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0)
    live_queue: int = 1
    file_queue: int = 4
    realtime: bool = False
    folder_fps: float = 1.0
    dark_mean: float = 20.0
    dark_p99: float = 40.0
    bright_fraction: float = 0.6
    bright_level: int = 250
    blank_std: float = 2.0
    sample_step: int = 16


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame.

    Attributes:
        index: position in the source (file frame number, folder file number, or the running
            count of frames received from a live source), 0-based.
        t: media time, seconds: position in the video for files, ``index / folder_fps`` for
            folders, time since the source was opened for live sources.
        image_bgr: ``(H, W, 3) uint8``.
        name: the file name for folders, else ``""``.
    """

    index: int
    t: float
    image_bgr: Image
    name: str = ""


@dataclass(frozen=True, slots=True)
class SourceHealth:
    """What the UI shows about the camera.

    Attributes:
        state: ``connecting``, ``live``, ``stalled`` (no frame for ``stall_s``), ``lost``
            (disconnected, reconnecting), ``ended`` (a file/folder finished), ``closed``.
        fps: frames received per second over the last few seconds.
        last_frame_age_s: seconds since the last good frame (``None`` before the first).
        lost_since: wall-clock time the source stopped delivering, or ``None`` while live.
        frames: good frames delivered so far.
        skipped: frames dropped, by reason (``truncated``, ``unreadable``, ``too_large``
            (an image file over :data:`vision.imagefile.MAX_PIXELS`), ``black``,
            ``overexposed``, ``blank``).
        reconnects: connections reopened after a loss.
        message: a one-line human summary, e.g. ``"camera lost since 12:03"``.
    """

    state: SourceState
    fps: float
    last_frame_age_s: float | None
    lost_since: datetime | None
    frames: int
    skipped: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0
    message: str = ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form (``lost_since`` as ISO 8601 local time)."""
        return {
            "state": self.state,
            "fps": round(self.fps, 2),
            "last_frame_age_s": None
            if self.last_frame_age_s is None
            else round(self.last_frame_age_s, 3),
            "lost_since": None if self.lost_since is None else self.lost_since.isoformat(),
            "frames": self.frames,
            "skipped": dict(self.skipped),
            "reconnects": self.reconnects,
            "message": self.message,
        }


def frame_problem(
    image_bgr: np.ndarray[Any, np.dtype[np.uint8]] | None,
    settings: SourceSettings = SourceSettings(),
) -> str | None:
    """Why a decoded frame is unusable, or ``None`` when it is fine.

    Args:
        image_bgr: ``(H, W, 3) uint8`` (or ``None`` when decoding failed).
        settings: the thresholds (:class:`SourceSettings` documents their origin).

    Returns:
        ``"unreadable"``, ``"black"``, ``"overexposed"``, ``"blank"`` or ``None``.
    """
    if image_bgr is None or image_bgr.ndim != 3 or image_bgr.shape[2] != 3 or image_bgr.size == 0:
        return "unreadable"
    s = max(1, settings.sample_step)
    grey = image_bgr[::s, ::s].mean(axis=2)
    mean = float(grey.mean())
    if mean < settings.dark_mean and float(np.percentile(grey, 99)) < settings.dark_p99:
        return "black"
    if float((grey >= settings.bright_level).mean()) > settings.bright_fraction:
        return "overexposed"
    if float(grey.std()) < settings.blank_std:
        return "blank"
    return None


def _read_still(path: Path) -> Image | str:
    """A folder's image file decoded, or the reason it is skipped (a
    :attr:`SourceHealth.skipped` key: ``unreadable``, ``truncated``, ``too_large``)."""
    try:
        return read_image(path)
    except ImageError as e:  # an empty file counts as unreadable
        return "unreadable" if e.problem == "empty" else e.problem


def source_kind(spec: str | int | os.PathLike[str]) -> SourceKind:
    """Classify a source spec: an int or digit string is a camera index, a URL a stream, an
    existing folder a folder, a file named like a still image (:data:`IMAGE_SUFFIXES`) an image,
    anything else a video file.

    A still image is read by :func:`vision.imagefile.decode_image`, like a folder's images, not
    by OpenCV's video backend: FFmpeg opens a single JPEG as a one-frame video but ignores its
    EXIF orientation (a portrait phone photo came out lying on its side) and cannot read HEIC.
    """
    if isinstance(spec, int):
        return "camera"
    text = os.fspath(spec)
    if text.isdigit():
        return "camera"
    if "://" in text:
        return "stream"
    if Path(text).is_dir():
        return "folder"
    if Path(text).suffix.lower() in IMAGE_SUFFIXES:
        return "image"
    return "file"


class FrameSource:
    """Frames from one source, read by a background thread (see the module docstring).

    Args:
        spec: camera index (``0`` or ``"0"``), video file, image folder, image file (one frame)
            or stream URL.
        settings: timeouts and thresholds.

    Raises:
        SourceError: a file/folder that does not exist, a folder with no images, a video file
            OpenCV cannot open, an image file that cannot be decoded (checked at construction
            so the CLI can say so at once).
    """

    def __init__(
        self, spec: str | int | os.PathLike[str], settings: SourceSettings = SourceSettings()
    ):
        self.spec = spec if isinstance(spec, int) else os.fspath(spec)
        self.kind: SourceKind = source_kind(spec)
        self.settings = settings
        self.live = self.kind in ("camera", "stream")
        self._files: list[Path] = []
        self._decoded: dict[Path, Image] = {}  # a single image, decoded at construction
        self.fps: float | None = None
        self.frame_count: int | None = None
        if self.kind == "folder":
            folder = Path(str(self.spec))
            self._files = sorted(
                p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES
            )
            if not self._files:
                raise SourceError(f"{folder}: no images ({', '.join(IMAGE_SUFFIXES)}) in folder")
            self.fps = settings.folder_fps
            self.frame_count = len(self._files)
        elif self.kind == "image":
            path = Path(str(self.spec))
            try:  # decoded now, so a broken photo is an error the CLI can show at once
                self._decoded[path] = read_image(path)
            except ImageError as e:
                raise SourceError(f"{path}: {e}") from None
            self._files = [path]  # read as a folder of one
            self.fps = settings.folder_fps
            self.frame_count = 1
        elif self.kind == "file":
            path = Path(str(self.spec))
            if not path.is_file():
                raise SourceError(f"{path}: no such file")
            cap = cv2.VideoCapture(str(path))
            try:
                if not cap.isOpened():
                    raise SourceError(f"{path}: not a video OpenCV can read")
                fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
                self.fps = fps if 0 < fps < 1000 else None
                n = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
                self.frame_count = n if n > 0 else None
            finally:
                cap.release()
        size = settings.live_queue if self.live else settings.file_queue
        self._queue: queue.Queue[Frame | BaseException | None] = queue.Queue(maxsize=max(1, size))
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._generation = 0
        self._thread: threading.Thread | None = None
        self._state: SourceState = "connecting"
        self._t0 = time.monotonic()
        self._last_frame: float | None = None
        self._lost_since: datetime | None = None
        self._read_started: float | None = None
        self._frames = 0
        self._skipped: Counter[str] = Counter()
        self._reconnects = 0
        self._recent: deque[float] = deque(maxlen=60)
        self._ended = False

    @property
    def origin(self) -> float:
        """``time.monotonic()`` at which media time 0 is played when ``realtime`` pacing is on
        (and from which live sources count their ``Frame.t``)."""
        return self._t0

    # -- lifecycle ----------------------------------------------------------------------------
    def start(self) -> FrameSource:
        """Start the reader thread (idempotent); returns ``self``."""
        with self._lock:
            if self._thread is None:
                self._spawn()
        return self

    def _spawn(self) -> None:
        self._generation += 1
        gen = self._generation
        self._read_started = None
        self._thread = threading.Thread(
            target=self._run, args=(gen,), name=f"frames-{self.kind}-{gen}", daemon=True
        )
        self._thread.start()

    def close(self) -> None:
        """Stop reading and release the device (a reader stuck in a backend call is left to
        finish on its own; it is a daemon thread and holds no state we need)."""
        self._stop.set()
        with self._lock:
            self._state = "closed"
            self._generation += 1
        t = self._thread
        if t is not None and t is not threading.current_thread():
            t.join(timeout=1.0)

    def __enter__(self) -> FrameSource:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- consumer side ------------------------------------------------------------------------
    def read(self, timeout: float = 0.5) -> Frame | None:
        """The next good frame, or ``None`` if none arrived within ``timeout`` seconds.

        Never blocks longer than ``timeout`` (plus a few ms). Also runs the watchdog.

        Raises:
            SourceEnded: a file/folder has no more frames.
            SourceError: the source failed for good (e.g. a video file became unreadable).
        """
        self.start()
        self._watchdog()
        if self._ended and self._queue.empty():
            raise SourceEnded(str(self.spec))
        try:
            item = self._queue.get(timeout=max(0.0, timeout))
        except queue.Empty:
            self._watchdog()
            return None
        if item is None:
            self._ended = True
            raise SourceEnded(str(self.spec))
        if isinstance(item, BaseException):
            self._ended = True
            raise item
        return item

    def __iter__(self) -> Iterator[Frame]:
        """Every frame until the source ends (live sources never end: use :meth:`read`)."""
        while True:
            try:
                frame = self.read(timeout=0.5)
            except SourceEnded:
                return
            if frame is not None:
                yield frame

    def health(self) -> SourceHealth:
        """A snapshot of the source's state for the UI (cheap; safe from any thread)."""
        self._watchdog()
        now = time.monotonic()
        with self._lock:
            age = None if self._last_frame is None else now - self._last_frame
            recent = [t for t in self._recent if now - t <= 5.0]
            fps = 0.0
            if len(recent) >= 2 and recent[-1] > recent[0]:
                fps = (len(recent) - 1) / (recent[-1] - recent[0])
            state = self._state
            lost = self._lost_since
            msg = {
                "connecting": "connecting to the camera",
                "live": f"live, {fps:.1f} fps",
                "stalled": f"no frame for {age or 0:.1f} s",
                "lost": "camera lost",
                "ended": "end of input",
                "closed": "closed",
            }[state]
            if lost is not None and state in ("stalled", "lost"):
                msg = f"camera lost since {lost:%H:%M}"
            return SourceHealth(
                state=state,
                fps=fps,
                last_frame_age_s=age,
                lost_since=lost if state in ("stalled", "lost") else None,
                frames=self._frames,
                skipped=dict(self._skipped),
                reconnects=self._reconnects,
                message=msg,
            )

    def _watchdog(self) -> None:
        """Mark a stall, and replace a reader stuck in a backend call (live sources only)."""
        if not self.live or self._stop.is_set():
            return
        now = time.monotonic()
        with self._lock:
            since = self._last_frame if self._last_frame is not None else self._t0
            if self._state == "live" and now - since > self.settings.stall_s:
                self._state = "stalled"
                if self._lost_since is None:
                    self._lost_since = datetime.now()
            started = self._read_started
            stuck = self.settings.stall_s + self.settings.read_timeout_s
            if started is not None and now - started > stuck:
                # the backend ignored its read timeout: abandon that reader, start a new one
                self._state = "lost"
                if self._lost_since is None:
                    self._lost_since = datetime.now()
                self._reconnects += 1
                self._spawn()

    # -- reader side --------------------------------------------------------------------------
    def _current(self, gen: int) -> bool:
        return gen == self._generation and not self._stop.is_set()

    def _deliver(self, gen: int, item: Frame | BaseException | None) -> None:
        """Hand an item to the consumer: newest-wins for live sources, blocking for files."""
        while self._current(gen):
            if (self.live or self.settings.realtime) and isinstance(item, Frame):
                try:
                    self._queue.put_nowait(item)
                    return
                except queue.Full:
                    with contextlib.suppress(queue.Empty):
                        self._queue.get_nowait()  # drop the stale frame
                    continue
            try:
                self._queue.put(item, timeout=0.2)
                return
            except queue.Full:
                continue

    def _good(self, gen: int, frame: Frame) -> None:
        now = time.monotonic()
        with self._lock:
            if gen != self._generation:
                return
            self._last_frame = now
            self._recent.append(now)
            self._frames += 1
            self._state = "live"
            self._lost_since = None
        self._deliver(gen, frame)

    def _skip(self, reason: str) -> None:
        with self._lock:
            self._skipped[reason] += 1

    def _lost(self, gen: int) -> None:
        with self._lock:
            if gen != self._generation:
                return
            self._state = "lost"
            if self._lost_since is None:
                self._lost_since = datetime.now()

    def _run(self, gen: int) -> None:
        try:
            if self.kind in ("folder", "image"):
                self._run_folder(gen)
            else:
                self._run_capture(gen)
        except Exception as e:  # a bug or a backend exception: surface it to the consumer
            self._deliver(gen, SourceError(f"{self.spec}: reading failed: {e}"))

    def _pace(self, t: float) -> None:
        if self.settings.realtime:
            delay = self._t0 + t - time.monotonic()
            if delay > 0:
                self._stop.wait(delay)

    def _run_folder(self, gen: int) -> None:
        fps = self.settings.folder_fps
        for i, path in enumerate(self._files):
            if not self._current(gen):
                return
            t = i / fps
            self._pace(t)
            decoded = self._decoded.pop(path, None)
            image = decoded if decoded is not None else _read_still(path)
            if isinstance(image, str):
                self._skip(image)
                continue
            problem = frame_problem(image, self.settings)
            if problem is not None:
                self._skip(problem)
                continue
            self._good(gen, Frame(i, t, image, path.name))
        with self._lock:
            if gen == self._generation:
                self._state = "ended"
        self._deliver(gen, None)

    def _open_capture(self) -> cv2.VideoCapture:
        s = self.settings
        if self.kind == "camera":
            return cv2.VideoCapture(int(self.spec))
        if self.kind == "stream":
            params = [
                cv2.CAP_PROP_OPEN_TIMEOUT_MSEC,
                int(s.open_timeout_s * 1000),
                cv2.CAP_PROP_READ_TIMEOUT_MSEC,
                int(s.read_timeout_s * 1000),
            ]
            return cv2.VideoCapture(str(self.spec), cv2.CAP_FFMPEG, params)
        return cv2.VideoCapture(str(self.spec))

    def _backoff(self, attempt: int) -> float:
        steps = self.settings.backoff_s or (1.0,)
        return steps[min(attempt, len(steps) - 1)]

    def _run_capture(self, gen: int) -> None:
        attempt = 0
        index = 0
        while self._current(gen):
            with self._lock:
                self._read_started = time.monotonic()  # opening can hang too
            cap = self._open_capture()
            with self._lock:
                self._read_started = None
            if not cap.isOpened():
                cap.release()
                if not self.live:
                    raise SourceError(f"{self.spec}: cannot open")
                self._lost(gen)
                self._stop.wait(
                    self.settings.backoff_s[min(attempt, len(self.settings.backoff_s) - 1)]
                )
                attempt += 1
                continue
            if attempt:
                with self._lock:
                    if gen == self._generation:
                        self._reconnects += 1
            try:
                while self._current(gen):
                    with self._lock:
                        self._read_started = time.monotonic()
                    ok, raw = cap.read()
                    image = cast(Image, raw)
                    with self._lock:
                        self._read_started = None
                    if not self._current(gen):
                        return
                    if not ok:
                        break
                    if self.kind == "file":
                        t = float(cap.get(cv2.CAP_PROP_POS_MSEC)) / 1000.0
                        if t <= 0 and self.fps:
                            t = index / self.fps
                    else:
                        t = time.monotonic() - self._t0
                    this = index
                    index += 1
                    problem = frame_problem(image, self.settings)
                    if problem is not None:
                        self._skip(problem)
                        continue
                    attempt = 0
                    self._pace(t)
                    self._good(gen, Frame(this, t, image))
            finally:
                cap.release()
            if not self.live:  # end of the video file
                with self._lock:
                    if gen == self._generation:
                        self._state = "ended"
                self._deliver(gen, None)
                return
            self._lost(gen)
            self._stop.wait(self._backoff(attempt))
            attempt += 1


def open_source(
    spec: str | int | os.PathLike[str], settings: SourceSettings = SourceSettings()
) -> FrameSource:
    """A started :class:`FrameSource` for ``spec`` (see there). Raises :class:`SourceError`."""
    return FrameSource(spec, settings).start()
