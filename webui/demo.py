"""``tabletally serve --demo``: a recorded game scores itself on the Live page, no camera needed.

Preferred path: the tracking issue's live pipeline on its embedded recorded game
(:func:`_start_pipeline_demo`: frames -> ``vision.detect`` -> tracker -> store -> page). If that
part is not available in this installation, :class:`LogReplayDemo` runs instead and says so on
the page: it plays the worked example of the Dutch rulebook (``scorer/data/dutch-example.json``,
RULES.md §1b) move by move — each move is appended from the recorded log, while the camera view
shows the table rendered by ``vision.render`` and read by ``vision.detect`` (with its overlay),
so every number on the page is still computed by the scorer from the log.
"""

from __future__ import annotations

import importlib.resources
import json
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

from flask import Flask

from scorer.game import Game, replay
from scorer.record import load_record
from webui.games import WebState, state

__all__ = ["DemoSettings", "LogReplayDemo", "start_demo"]


@dataclass(frozen=True)
class DemoSettings:
    """Pacing of the demo.

    Attributes:
        step_s: seconds between two moves: long enough to read the last move's label, short
            enough that the 12-turn example finishes in about a minute (issue 5: "a new user
            sees a game score itself within a minute").
        first_move_s: pause before the first move (page load).
        frame_fps: frames per second republished on the camera stream between moves.
        size: rendered frame ``(width, height)``, pixels; 960x540 renders + detects in ~0.25 s
            on the project machine (measured 2026-11-21), so pre-rendering 13 frames takes ~3 s.
        seed: scene seed (table, light, camera) — the same seed gives the same frames.
        preset: ``vision.render.PRESETS`` name of the scene's conditions.
    """

    step_s: float = 4.0
    first_move_s: float = 3.0
    frame_fps: float = 5.0
    size: tuple[int, int] = (960, 540)
    seed: int = 20261121
    preset: str = "easy"


def demo_record() -> dict[str, Any]:
    """The embedded recorded game: the Dutch rulebook's worked example (12 turns, 4 players)."""
    text = (
        importlib.resources.files("scorer").joinpath("data/dutch-example.json").read_text("utf-8")
    )
    return json.loads(text)  # type: ignore[no-any-return]


def _render_frames(game: Game, settings: DemoSettings, progress: bool) -> list[bytes]:
    """One annotated JPEG per board state (before the first move, after each move)."""
    import cv2

    from vision.detect import detect, draw_overlay
    from vision.render import PRESETS, Scene

    scene = Scene(PRESETS[settings.preset], settings.seed, size=settings.size)
    states = [
        replay(
            Game(
                game.players, game.variant, game.setup, game.events[:k], game.tie_break, game.colors
            )
        ).board
        for k in range(len(game.events) + 1)
    ]
    it: Any = states
    if progress:
        from tqdm import tqdm

        it = tqdm(states, desc="rendering the demo game", unit="frame")
    out: list[bytes] = []
    for k, board in enumerate(it):
        rendered = scene.frame(board, t=float(k))
        obs = detect(rendered.image_bgr)
        ok, buf = cv2.imencode(
            ".jpg", draw_overlay(rendered.image_bgr, obs), [cv2.IMWRITE_JPEG_QUALITY, 80]
        )
        if ok:
            out.append(buf.tobytes())
    return out


class LogReplayDemo:
    """Plays a recorded game into the store move by move (see the module docstring).

    Implements :class:`webui.games.LiveFeed` (``game_id``, ``health()``, ``stop()``).
    """

    def __init__(
        self,
        st: WebState,
        record: dict[str, Any],
        settings: DemoSettings = DemoSettings(),
        *,
        progress: bool = False,
        frames: bool = True,
    ):
        self.st = st
        self.settings = settings
        self.game = load_record(record, source="demo game")
        self.game_id = int(
            st.store.create_game(
                self.game.players,
                variant=self.game.variant,
                setup=self.game.setup,
                tie_break=self.game.tie_break,
                meta={"demo": True},
            )
        )
        st.notes[self.game_id] = (
            "Demo: the worked example of the Dutch Qwirkle rulebook, replayed move by move from "
            "its recorded log (the live camera tracker is not available in this installation). "
            "The camera view is the table rendered and read by the vision module; every score "
            "is computed by the scorer."
        )
        self._frames = _render_frames(self.game, settings, progress) if frames else []
        self._stop = threading.Event()
        self._published = 0
        self._t0 = time.monotonic()
        self._moves = 0
        self._thread = threading.Thread(target=self._run, name="tabletally-demo", daemon=True)

    def start(self) -> LogReplayDemo:
        self._thread.start()
        return self

    def _publish(self, k: int) -> None:
        if self._frames:
            self.st.hub.publish_frame(self._frames[min(k, len(self._frames) - 1)])
            self._published += 1

    def _run(self) -> None:
        gap = 1.0 / self.settings.frame_fps
        next_move = time.monotonic() + self.settings.first_move_s
        k = 0
        while not self._stop.is_set():
            now = time.monotonic()
            if k < len(self.game.events) and now >= next_move:
                self.st.store.append(
                    self.game_id, self.game.events[k], source="import", key=f"demo:{k}"
                )
                self.st.hub.bump(self.game_id)
                k += 1
                self._moves = k
                next_move = now + self.settings.step_s
            self._publish(k)
            if k >= len(self.game.events) and not self._frames:
                break
            self._stop.wait(gap)

    def health(self) -> dict[str, Any]:
        frame = self.st.hub.frame
        age = time.monotonic() - frame.t if frame else None
        elapsed = max(1e-9, time.monotonic() - self._t0)
        done = self._moves >= len(self.game.events)
        return {
            "state": "ok" if frame else "starting",
            "fps": round(self._published / elapsed, 2),
            "frame_age_s": round(age, 2) if age is not None else None,
            "frames": self._published,
            "message": f"demo: recorded game, move {self._moves} of {len(self.game.events)}"
            + (" (finished)" if done else ""),
        }

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)


def _start_pipeline_demo(app: Flask, progress: bool) -> Any:
    """The tracking issue's demo pipeline, when installed; None otherwise."""
    from webui.live import start_pipeline_demo

    try:
        return start_pipeline_demo(app, progress=progress)
    except (ImportError, OSError) as e:  # no tracker installed, or the video cannot be made
        print(
            f"tabletally: the live pipeline demo is unavailable ({e}); replaying the "
            "recorded move log instead",
            file=sys.stderr,
        )
        return None


def start_demo(
    app: Flask, *, progress: bool = False, settings: DemoSettings = DemoSettings()
) -> Any:
    """Start the demo on ``app`` and attach it as the live feed; returns the feed."""
    st = state(app)
    feed = _start_pipeline_demo(app, progress)
    if feed is None:
        feed = LogReplayDemo(st, demo_record(), settings, progress=progress).start()
    st.live = feed
    return feed
