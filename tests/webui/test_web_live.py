"""The live pipeline feed and the demo, on real frames (rendered) and a real store."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import cv2
import pytest

from scorer.game import Game, replay
from scorer.record import load_record
from webui.demo import DemoSettings, LogReplayDemo, demo_record
from webui.games import WebState


def _wait(pred: Any, timeout: float = 30.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.05)
    return False


def test_camera_feed_scores_photos_of_each_turn(
    st: WebState, tmp_path: Path, dutch_record: dict[str, Any]
) -> None:
    """Three photos (one per turn, ``--stills``) -> detect -> tracker -> store -> hub."""
    from vision.render import PRESETS, Scene
    from vision.sources import SourceSettings, open_source
    from vision.tracking import TrackerSettings
    from webui.live import CameraFeed

    full = load_record(dutch_record)
    scene = Scene(PRESETS["easy"], 5, size=(960, 540))
    folder = tmp_path / "photos"
    folder.mkdir()
    for k in range(1, 4):
        board = replay(Game(full.players, events=full.events[:k])).board
        cv2.imwrite(str(folder / f"{k:02d}.png"), scene.frame(board, t=float(k)).image_bgr)
    gid = st.store.create_game(full.players)
    v0 = st.hub.version(gid)
    feed = CameraFeed(
        st,
        gid,
        open_source(folder, SourceSettings(folder_fps=1.0)),
        label="photos",
        tracker_settings=TrackerSettings(stills=True),
    ).start()
    try:
        assert _wait(lambda: feed.health()["state"] == "ended")
    finally:
        feed.stop()
    assert feed.error is None
    assert feed.processed == 3
    game = st.store.game(gid)
    assert [type(e).__name__ for e in game.events] == ["Place", "Place", "Place"]
    assert replay(game).totals[:3] == [3, 7, 4]  # RULES.md §1b: 3, 7, 4
    assert st.hub.version(gid) >= v0 + 3
    frame = st.hub.frame
    assert frame is not None and frame.jpeg[:2] == b"\xff\xd8"
    h = feed.health()
    assert h["frames"] == 3 and h["moves"] == 3 and "ended" in h["message"]


def test_log_replay_demo_plays_the_whole_record(st: WebState) -> None:
    demo = LogReplayDemo(
        st, demo_record(), DemoSettings(step_s=0.01, first_move_s=0.0), frames=False
    ).start()
    try:
        assert _wait(lambda: len(st.store.game(demo.game_id).events) == 12, 10)
    finally:
        demo.stop()
    result = replay(st.store.game(demo.game_id))
    assert [t.points for t in result.turns] == [3, 7, 4, 6, 7, 6, 3, 3, 10, 9, 18, 9]
    assert "recorded log" in st.notes[demo.game_id]
    assert demo.health()["message"].endswith("(finished)")


@pytest.mark.slow
def test_log_replay_demo_renders_and_reads_frames(st: WebState) -> None:
    demo = LogReplayDemo(st, demo_record(), DemoSettings(step_s=0.01, first_move_s=0.0))
    assert len(demo._frames) == 13
    demo.start()
    try:
        assert _wait(lambda: st.hub.frame is not None, 10)
    finally:
        demo.stop()
