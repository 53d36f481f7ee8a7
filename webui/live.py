"""The live pipeline behind the Live page: frames -> vision -> tracking -> store -> page.

The per-frame work (detector, motion gate, tracker, snapshots) is the tracking issue's
:class:`vision.live.LiveSession`; :class:`CameraFeed` is the web side of it: it forwards every
tracker event that changed the game (a move, a review, the setup) to the hub as a new game
version, so every open page updates within one Server-Sent Event, and every annotated preview
frame to the MJPEG stream. The feed is ``app.extensions["tabletally"].live``.

Streaming clients never slow the pipeline down directly: they only wait on the hub's condition
and copy the latest JPEG; ``benchmarks/bench_web.py`` measures what is left (processed fps with
0 vs 10 streaming clients).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask import Flask

from scorer.game import Event
from webui.games import WebState, current_game_id, state

__all__ = [
    "CameraFeed",
    "attach_camera",
    "open_camera",
    "start_camera",
    "start_pipeline_demo",
]

#: Tracker events that change the game's log (and so the pages).
_CHANGES = frozenset({"move", "review", "setup"})


class CameraFeed:
    """The live pipeline for one game, wired to the web app; a :class:`webui.games.LiveFeed`.

    Args:
        st: the app's state (store, hub).
        game_id: the game the tracker appends to.
        source: a :class:`vision.sources.FrameSource` (or a spec for one); the feed closes it.
        profile: the tile-set profile for the detector (None: classic palette).
        ui_events: ``frame index -> events`` (or ``-> (event index, event)`` as
            :attr:`vision.demo.DemoVideo.ui_events` gives them): turns a player would enter
            with the Exchange/Pass buttons, appended just before that frame.
        label: what the health line calls the source (e.g. ``"camera 0"``, ``"demo video"``).
        tracker_settings: the tracker's thresholds (None: its defaults).
        pipeline_settings: :class:`vision.live.PipelineSettings` (None: its defaults).
        follow_new_games: a new game created on the page is tracked by this camera from then on.
        detector: ``detector(image_bgr) -> Observation``; default :func:`vision.detect.detect`
            (tests pass the renderer's truth to check the glue).

    Raises:
        ImportError: the vision/tracking modules are not installed.
        scorer.store.UnknownGameError: no such game.
    """

    def __init__(
        self,
        st: WebState,
        game_id: int,
        source: Any,
        *,
        profile: Any = None,
        ui_events: Mapping[int, Any] | None = None,
        label: str = "camera",
        tracker_settings: Any = None,
        pipeline_settings: Any = None,
        follow_new_games: bool = False,
        detector: Callable[..., Any] | None = None,
    ):
        self.st = st
        self.label = label
        self.profile = profile
        self.follow_new_games = follow_new_games
        self._tracker_settings = tracker_settings
        self._pipeline_settings = pipeline_settings
        self._detector = detector
        self._spec = getattr(source, "spec", source)
        ui: dict[int, list[Event]] = {}
        for frame, item in (ui_events or {}).items():
            events = [item[1]] if isinstance(item, tuple) else list(item)
            ui.setdefault(int(frame), []).extend(events)
        self.session = self._session(game_id, source, ui)

    def _session(self, game_id: int, source: Any, ui: Mapping[int, list[Event]]) -> Any:
        from vision.live import LiveSession

        kw: dict[str, Any] = {"profile": self.profile, "ui_events": ui, "detector": self._detector}
        if self._tracker_settings is not None:
            kw["tracker_settings"] = self._tracker_settings
        if self._pipeline_settings is not None:
            kw["pipeline_settings"] = self._pipeline_settings
        session = LiveSession(self.st.store, game_id, source, **kw)
        hub = self.st.hub

        def on_event(ev: Any) -> None:
            if ev.kind in _CHANGES:
                hub.bump(session.game_id)

        def on_frame(jpeg: bytes) -> None:
            hub.publish_frame(jpeg)

        session.add_listener(on_event)
        session.add_frame_listener(on_frame)
        return session

    # -- the LiveFeed protocol ----------------------------------------------------------------
    @property
    def game_id(self) -> int:
        return int(self.session.game_id)

    def start(self) -> CameraFeed:
        self.session.start()
        return self

    def stop(self) -> None:
        self.session.stop()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until a finite source (file, folder) is fully processed; True if it is."""
        return bool(self.session.wait(timeout))

    def retarget(self, game_id: int) -> None:
        """Track ``game_id`` from now on: the camera is reopened on a fresh tracker."""
        self.session.stop()
        self.session = self._session(game_id, self._spec, {})
        self.session.start()

    @property
    def latest_frame_bgr(self) -> Any:
        """The camera's latest raw frame, ``(H, W, 3) uint8`` or None (the calibration wizard's
        "Use camera frame")."""
        return self.session.latest_frame_bgr

    @property
    def running(self) -> bool:
        return not self.session.finished

    @property
    def processed(self) -> int:
        """Frames processed so far."""
        return int(self.session.health()["frames"])

    @property
    def error(self) -> str | None:
        return self.session.health().get("error")  # type: ignore[no-any-return]

    def health(self) -> dict[str, Any]:
        """The session's health (``state`` ok | starting | lost | ended, ``fps``,
        ``frame_age_s``, ``frames``, ``tracker``, ``message``, ...) plus ``moves`` and
        ``reviews`` appended so far, with the source's label in the message."""
        h = dict(self.session.health())
        kinds = [ev.kind for ev in list(self.session.events)]
        h["moves"] = kinds.count("move")
        h["reviews"] = kinds.count("review")
        h["message"] = f"{self.label}: {h.get('message', '')}"
        return h


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
