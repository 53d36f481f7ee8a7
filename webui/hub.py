"""Change notification between the writers of a game and the streaming clients watching it.

The web app serves two kinds of long-lived streams (Server-Sent Events for game changes and
camera health, MJPEG for the annotated camera view). Each client's stream runs in its own
server thread and blocks in :meth:`Hub.wait_change` or :meth:`Hub.wait_frame`; writers (a
correction posted from the move log, the live tracker appending a move) call :meth:`Hub.bump`
or :meth:`Hub.publish_frame`. Nothing here touches the game store: a version number per game
is all a client needs to know that it should fetch the new state.

One :class:`Hub` lives in ``app.extensions["tabletally"].hub`` (STYLE.md "Web": long-lived
objects in ``app.extensions``, not module globals).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

__all__ = ["Frame", "Hub"]


@dataclass(frozen=True, slots=True)
class Frame:
    """One annotated camera frame as served on the MJPEG stream.

    Attributes:
        seq: frame counter, strictly increasing per hub.
        jpeg: JPEG bytes of the annotated image.
        t: ``time.monotonic()`` when it was published, seconds.
    """

    seq: int
    jpeg: bytes
    t: float


class Hub:
    """Versions per game and the latest camera frame, with blocking waits for streamers.

    Thread-safe. ``close()`` wakes every waiter so streams end when the server stops.
    """

    def __init__(self) -> None:
        # Two conditions: a published frame (15 per second) must not wake the SSE streams,
        # and a game change must not wake the MJPEG streams (fewer wake-ups, less GIL churn).
        self._cond = threading.Condition()
        self._frame_cond = threading.Condition()
        self._versions: dict[int, int] = {}
        self._stamps: dict[int, tuple[object, int]] = {}  # stamp, version when observed
        self._frame: Frame | None = None
        self._closed = False
        self._clients = 0

    # -- game changes -------------------------------------------------------------------------
    def version(self, game_id: int) -> int:
        """The change counter of ``game_id`` (0 before any change was announced)."""
        with self._cond:
            return self._versions.get(game_id, 0)

    def bump(self, game_id: int) -> int:
        """Announce that ``game_id`` changed; returns its new version and wakes its watchers."""
        with self._cond:
            v = self._versions.get(game_id, 0) + 1
            self._versions[game_id] = v
            self._cond.notify_all()
            return v

    def wait_change(self, game_id: int, seen: int, timeout: float) -> int:
        """Block until ``game_id``'s version differs from ``seen``, the hub closes, or
        ``timeout`` seconds pass; returns the current version."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._versions.get(game_id, 0) == seen and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
            return self._versions.get(game_id, 0)

    def observe(self, game_id: int, stamp: object) -> bool:
        """Report the store's change stamp of ``game_id`` (e.g. its ``updated`` time and event
        count); the first report of a new stamp bumps the version (a change written by another
        process or thread that did not announce it) and returns True.

        A new stamp after a change was announced (:meth:`bump`) since the last report is that
        change: it is recorded without a second bump, which would make every open page reload
        once more a few seconds after each edit (under a user who just opened the next one).
        """
        with self._cond:
            version = self._versions.get(game_id, 0)
            old = self._stamps.get(game_id)
            unannounced = old is not None and old[0] != stamp and old[1] == version
            if unannounced:
                version += 1
                self._versions[game_id] = version
                self._cond.notify_all()
            self._stamps[game_id] = (stamp, version)
            return unannounced

    # -- camera frames ------------------------------------------------------------------------
    def publish_frame(self, jpeg: bytes) -> Frame:
        """Make ``jpeg`` the latest annotated frame and wake the MJPEG streams."""
        with self._frame_cond:
            seq = self._frame.seq + 1 if self._frame else 1
            self._frame = Frame(seq, jpeg, time.monotonic())
            self._frame_cond.notify_all()
            return self._frame

    @property
    def frame(self) -> Frame | None:
        """The latest frame, or None before the camera produced one."""
        with self._frame_cond:
            return self._frame

    def wait_frame(self, after_seq: int, timeout: float) -> Frame | None:
        """Block until a frame newer than ``after_seq`` exists (or timeout / close); returns
        the latest frame (possibly not newer, on timeout) or None if there is none."""
        deadline = time.monotonic() + timeout
        with self._frame_cond:
            while (self._frame is None or self._frame.seq <= after_seq) and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._frame_cond.wait(left)
            return self._frame

    # -- clients ------------------------------------------------------------------------------
    @property
    def clients(self) -> int:
        """Streams currently open (SSE + MJPEG), for camera health and benchmarks."""
        with self._cond:
            return self._clients

    def enter(self) -> None:
        """A stream opened (pair with :meth:`leave` in a ``finally``)."""
        with self._cond:
            self._clients += 1

    def leave(self) -> None:
        with self._cond:
            self._clients -= 1

    # -- lifecycle ----------------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """End every stream: waiters return at once and generators see ``closed``."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        with self._frame_cond:
            self._frame_cond.notify_all()
