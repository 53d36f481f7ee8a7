"""The live pipeline feed and the demo, on real frames (rendered) and a real store."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from conftest import photos

from scorer.game import Game, replay
from webui.demo import DemoSettings, LogReplayDemo, demo_record
from webui.games import WebState


def _wait(pred: Any, timeout: float = 30.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.05)
    return False


def _run_feed(st: WebState, game: Game, folder: Path, **kw: Any) -> tuple[Any, int]:
    from vision.sources import SourceSettings, open_source
    from vision.tracking import TrackerSettings
    from webui.live import CameraFeed

    gid = st.store.create_game(game.players)
    feed = CameraFeed(
        st,
        gid,
        open_source(folder, SourceSettings(folder_fps=1.0)),
        label="photos",
        tracker_settings=TrackerSettings(stills=True),
        **kw,
    ).start()
    try:
        assert feed.wait(30)
    finally:
        feed.stop()
    assert feed.error is None
    return feed, gid


def test_camera_feed_glue_scores_each_photo(
    st: WebState, tmp_path: Path, dutch_record: dict[str, Any]
) -> None:
    """Photos -> (the renderer's truth as detector) -> tracker -> store -> hub -> MJPEG: the
    feed's own plumbing, independent of how well the detector reads this scene."""
    game, folder, truths = photos(tmp_path, dutch_record, 3)
    seen: list[int] = []

    def truth_detector(image_bgr: Any, profile: Any = None) -> Any:
        seen.append(1)
        return truths[image_bgr.tobytes()]

    v0 = st.hub.version(1)
    feed, gid = _run_feed(st, game, folder, detector=truth_detector)
    assert len(seen) == 3 and feed.processed == 3
    stored = st.store.game(gid)
    assert [type(e).__name__ for e in stored.events] == ["Place", "Place", "Place"]
    assert replay(stored).totals[:3] == [3, 7, 4]  # RULES.md §1b: 3, 7, 4
    assert st.hub.version(gid) >= v0 + 3
    frame = st.hub.frame
    assert frame is not None and frame.jpeg[:2] == b"\xff\xd8"
    h = feed.health()
    assert h["frames"] == 3 and h["moves"] == 3 and h["state"] == "ended"
    assert h["message"].startswith("photos: ")
    # the raw last frame (no overlay) is there for the calibration wizard's camera button
    raw = feed.latest_frame_bgr
    assert raw is not None and raw.tobytes() in truths


def test_camera_feed_with_the_real_detector(
    st: WebState, tmp_path: Path, dutch_record: dict[str, Any]
) -> None:
    """The same photos read by vision.detect: every settled photo becomes a turn of the game
    (a scored Place, or a Review when the reading does not explain a legal move)."""
    game, folder, _ = photos(tmp_path, dutch_record, 3)
    feed, gid = _run_feed(st, game, folder)
    stored = st.store.game(gid)
    assert feed.processed == 3
    assert len(stored.events) == 3
    assert {type(e).__name__ for e in stored.events} <= {"Place", "Review"}
    assert feed.health()["moves"] + feed.health()["reviews"] == 3


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


def test_new_game_form_starts_and_retargets_the_camera(
    st: WebState, client: Any, tmp_path: Path, dutch_record: dict[str, Any]
) -> None:
    from webui.live import CameraFeed

    _, folder, _ = photos(tmp_path, dutch_record, 1)
    r = client.form("/games", {"player": ["Ann", "Ben"], "camera": str(folder)})
    assert r.status_code == 302
    gid = int(r.headers["Location"].rsplit("/", 1)[1])
    feed = st.live
    try:
        assert isinstance(feed, CameraFeed) and feed.game_id == gid
        r = client.form("/games", {"player": ["Cleo", "Dev"]})
        gid2 = int(r.headers["Location"].rsplit("/", 1)[1])
        assert st.live is feed and feed.game_id == gid2  # the camera follows the new game
    finally:
        feed.stop()
    r = client.form("/games", {"player": ["A", "B"], "camera": str(tmp_path / "nope.mp4")})
    assert r.status_code == 400 and b"nope.mp4" in r.data
    r = client.c.post(
        "/games",
        data={"csrf_token": client.token, "player": ["A", "B"], "camera": "0"},
        environ_base={"REMOTE_ADDR": "10.1.2.3"},
    )
    assert r.status_code == 403
    assert len(st.store.list_games()) == 2
