"""End to end: rendered games (hands reaching in, a bump, light drift, a nudged tile) through
the real decoder, detector, tracker and store; ``tabletally replay``; reliability (bad frames,
``kill -9`` mid-game then restart)."""

from __future__ import annotations

import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.game import Game, Place, Review, replay
from scorer.model import Board, Placement, Pos, Tile
from scorer.record import load_record
from scorer.store import GameStore
from vision.demo import (
    DemoSettings,
    DemoVideo,
    demo_game,
    ensure_demo_video,
    script_game,
    truth_observations,
)
from vision.live import LiveSession
from vision.observation import Observation
from vision.sources import SourceSettings
from vision.tracking import MemorySink, Tracker
from webui.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[2]
TABLETALLY = [sys.executable, "-m", "webui.cli"]

#: A short game that exercises everything: 7 turns, 2 players, no exchange (a replay of a
#: video cannot know about exchanges; those are tested through the UI path below), a bump
#: after turn 2 and a nudged tile after turn 4, hands on every move, light drift.
SMALL = DemoSettings(
    seed=8, players=2, turns=7, size=(640, 360), bump_turn=2, nudge_turn=4, still_s=1.0,
    exchange_rate=0.0,
)  # fmt: skip
#: The same kind with an exchange entered in the UI mid-game (seed 13: at turn 5).
WITH_EXCHANGE = DemoSettings(
    seed=13, players=2, turns=7, size=(640, 360), bump_turn=3, nudge_turn=1, still_s=1.0
)


@pytest.fixture(scope="module")
def small_video(tmp_path_factory: pytest.TempPathFactory) -> DemoVideo:
    return ensure_demo_video(tmp_path_factory.mktemp("demo"), SMALL, progress=False)


def _env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return dict(os.environ, PYTHONPATH=path)


def test_demo_script_has_hands_a_bump_a_nudge_and_drift() -> None:
    game = demo_game(SMALL)
    script = script_game(game, SMALL)
    assert len(game.events) == 7 and all(isinstance(e, Place) for e in game.events)
    assert sum(1 for s in script.shots if s.hands) >= 2 * 7  # hands reach in on every move
    bumps = {s.bump for s in script.shots}
    assert len(bumps) == 3  # none, halfway, bumped
    assert any(s.nudges for s in script.shots) and not script.shots[0].nudges
    assert script.renders < len(script.shots) / 2  # repeats keep rendering cheap
    assert [s.settles for s in script.shots if s.settles is not None] == list(range(7))


@pytest.mark.parametrize(
    "settings", [SMALL, WITH_EXCHANGE, DemoSettings()], ids=["small", "with_exchange", "default"]
)
def test_the_nudge_pushes_a_tile_into_free_room(settings: DemoSettings) -> None:
    """A real tile can only be pushed where nothing lies: the cells toward the push (the side,
    and for a slanted push the corner too) are empty when it happens."""
    script = script_game(demo_game(settings), settings)
    first = next(s for s in script.shots if s.nudges)
    ((pos, (dr, dc)),) = first.nudges.items()
    assert pos in first.board and math.hypot(dr, dc) >= settings.nudge_cells - 1e-9
    sr, sc = int(np.sign(dr)), int(np.sign(dc))
    toward = {
        Pos(pos.row + sr, pos.col),
        Pos(pos.row, pos.col + sc),
        Pos(pos.row + sr, pos.col + sc),
    }
    toward.discard(pos)
    assert toward and not any(p in first.board for p in toward)


def test_truth_observations_of_a_rendered_game_track_exactly() -> None:
    settings = WITH_EXCHANGE
    game = demo_game(settings)
    sink = MemorySink(Game(players=game.players))
    tracker = Tracker(sink, first_player=game.events[0].player)
    moves = 0
    for shot, obs in truth_observations(script_game(game, settings), settings):
        if shot.ui_event is not None:
            sink.append(shot.ui_event, frame=shot.index)
        moves += sum(e.kind == "move" for e in tracker.feed(obs, frame_index=shot.index, t=shot.t))
    assert sink.game().events == game.events
    assert moves == sum(isinstance(e, Place) for e in game.events)


def test_replay_cli_on_a_rendered_video(small_video: DemoVideo, tmp_path: Path) -> None:
    """Real video decoding and the real detector: every move exact, with points."""
    out = tmp_path / "game.json"
    first = small_video.game.events[0].player + 1
    proc = subprocess.run(
        [*TABLETALLY, "replay", str(small_video.video), "--names", "Ann,Ben",
         "--first", str(first), "--json", "--record", str(out)],
        capture_output=True, text=True, env=_env(), timeout=240,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    want = replay(small_video.game)
    assert doc["players"] == ["Ann", "Ben"]
    assert [t["kind"] for t in doc["turns"]] == ["place"] * 7
    assert [t["points"] for t in doc["turns"]] == [t.points for t in want.turns]
    assert doc["totals"] == want.totals
    frames = [t["frame"] for t in doc["turns"]]
    assert frames == sorted(frames) and all(isinstance(f, int) for f in frames)
    # each move committed within 1 s of media time after its board settled
    for k, f in enumerate(frames):
        assert 0 <= (f - small_video.settle_frames[k]) / small_video.fps <= 1.0
    recorded = load_record(out)
    assert recorded.players == ("Ann", "Ben")
    assert replay(recorded).totals == want.totals


def test_replay_cli_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["replay", str(tmp_path / "missing.mp4")]) == 2
    err = capsys.readouterr().err
    assert "missing.mp4" in err and err.count("\n") == 1
    assert cli_main(["replay", str(tmp_path), "--players", "9"]) == 2
    assert "--players 9" in capsys.readouterr().err
    assert cli_main(["replay", "http://127.0.0.1:9/video"]) == 2
    assert "replay reads a video file, an image folder or an image" in capsys.readouterr().err
    cut = tmp_path / "turn.jpg"
    cut.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00")  # a photo's first bytes only
    assert cli_main(["replay", str(cut)]) == 2
    assert (
        capsys.readouterr().err
        == f"tabletally replay: {cut}: truncated JPEG (no end-of-image marker)\n"
    )


def test_stills_folder_with_corrupt_black_and_overexposed_frames(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One photo per turn (``--stills``), with broken files in between: skipped, counted,
    and the game is still right."""
    settings = DemoSettings(seed=3, players=2, turns=6, size=(640, 360), exchange_rate=0.0,
                            bump_turn=-1, nudge_turn=-1)  # fmt: skip
    game = demo_game(settings)
    from vision.demo import make_scene

    scene = make_scene(script_game(game, settings), settings)
    board = game.setup
    folder = tmp_path / "photos"
    folder.mkdir()
    for k, ev in enumerate(game.events):
        assert isinstance(ev, Place)
        board = board.with_tiles(ev.tiles.tiles)
        image = scene.frame(board, t=float(k)).image_bgr
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        (folder / f"turn_{k:02d}.jpg").write_bytes(buf.tobytes())
        if k == 1:
            (folder / f"turn_{k:02d}b.jpg").write_bytes(buf.tobytes()[: len(buf) // 3])
        if k == 2:
            cv2.imwrite(str(folder / f"turn_{k:02d}b.png"), np.zeros_like(image))
        if k == 3:
            cv2.imwrite(str(folder / f"turn_{k:02d}b.png"), np.full_like(image, 255))
    first = game.events[0].player + 1
    code = cli_main(["replay", str(folder), "--stills", "--players", "2", "--first", str(first),
                     "--quiet"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "truncated 1" in out and "black 1" in out and "overexposed 1" in out
    want = replay(game).totals
    assert f"totals: Player 1 {want[0]}, Player 2 {want[1]}" in out
    # join a game in progress: the first photo's tiles were already on the table
    second = game.events[1].player + 1
    code = cli_main(["replay", str(folder), "--stills", "--setup", "first-frame", "--players",
                     "2", "--first", str(second), "--quiet", "--json"])  # fmt: skip
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and len(doc["turns"]) == len(game.events) - 1
    assert [t["points"] for t in doc["turns"]] == [t.points for t in replay(game).turns][1:]


_REPLAY_DB = """
import sys
from webui.cli import main
sys.exit(main(["replay", sys.argv[1], "--db", sys.argv[2], "--players", "2",
               "--first", sys.argv[3], "--quiet", "--json"]))
"""


def test_kill_9_during_replay_then_restart_loses_and_duplicates_nothing(
    small_video: DemoVideo, tmp_path: Path
) -> None:
    db = tmp_path / "games.db"
    first = str(small_video.game.events[0].player + 1)
    args = [sys.executable, "-c", _REPLAY_DB, str(small_video.video), str(db), first]
    proc = subprocess.Popen(args, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # wait until a few moves are stored, then SIGKILL at once
    deadline = time.monotonic() + 180
    n = 0
    while time.monotonic() < deadline and proc.poll() is None:
        if db.exists():
            try:
                with sqlite3.connect(db, timeout=5) as con:
                    n = con.execute("SELECT COUNT(*) FROM log").fetchone()[0]
            except sqlite3.Error:
                n = 0
            if n >= 3:
                break
        time.sleep(0.05)
    assert proc.poll() is None, "replay finished before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    with GameStore(db) as store:
        (info,) = store.list_games()
        before = store.game(info.id).events
    assert len(before) >= 3
    # restart: the same command resumes the game where it was
    done = subprocess.run(args, env=_env(), capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    with GameStore(db) as store:
        (info,) = store.list_games()  # resumed, not a second game
        events = store.game(info.id).events
        keys = [e.key for e in store.log(info.id)]
    assert events[: len(before)] == before  # nothing lost
    assert len(keys) == len(set(keys))  # nothing stored twice
    assert events == small_video.game.events, (before, events)
    assert json.loads(done.stdout)["totals"] == replay(small_video.game).totals


@pytest.fixture
def exchange_video(tmp_path_factory: pytest.TempPathFactory) -> DemoVideo:
    return ensure_demo_video(tmp_path_factory.mktemp("demo-x"), WITH_EXCHANGE, progress=False)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    s = GameStore(tmp_path / "games.db")
    yield s
    s.close()


def test_live_session_tracks_into_the_store_with_ui_exchanges(
    exchange_video: DemoVideo, store: GameStore
) -> None:
    game = exchange_video.game
    gid = store.create_game(game.players)
    ui: dict[int, list] = {}
    for frame, (_, ev) in exchange_video.ui_events.items():
        ui.setdefault(frame, []).append(ev)
    seen = []
    frames: list[bytes] = []
    session = LiveSession(
        store, gid, exchange_video.video, first_player=game.events[0].player, ui_events=ui,
        source_settings=SourceSettings(realtime=False),
    )  # fmt: skip
    session.add_listener(seen.append)
    session.add_frame_listener(frames.append)
    assert session.health()["state"] == "starting"
    session.start()
    assert session.wait(timeout=240)
    health = session.health()
    session.stop()
    assert health["state"] == "ended" and health["frames"] > 100 and health["fps"] >= 0
    got = store.game(gid)
    assert got.events == game.events  # exact, including the exchange's turn order
    assert [e.source for e in store.log(gid)].count("ui") == len(exchange_video.ui_events)
    moves = [e for e in seen if e.kind == "move"]
    assert len(moves) == sum(isinstance(e, Place) for e in game.events)
    for ev in moves:  # an annotated snapshot of every settled move, next to the DB
        path = store.snapshot_path(gid, ev.index)
        assert path.read_bytes()[:2] == b"\xff\xd8"
    assert frames and frames[-1][:2] == b"\xff\xd8" and session.latest_jpeg is not None


def test_live_session_survives_a_stalled_stream_with_the_game_untouched(
    store: GameStore,
) -> None:
    """A phone stream that stalls: health says "lost since HH:MM", the game is untouched, and
    tracking goes on when the stream comes back."""
    import http.server
    import socketserver
    import threading

    settings = DemoSettings(seed=8, players=2, turns=1, size=(640, 360), exchange_rate=0.0)
    game = demo_game(settings)
    from vision.demo import make_scene

    scene = make_scene(script_game(game, settings), settings)
    board = replay(game).board  # the first move on the table
    jpegs = []
    for t in (0.0, 0.1, 0.2):
        ok, buf = cv2.imencode(".jpg", scene.frame(board, t=t).image_bgr)
        assert ok
        jpegs.append(buf.tobytes())
    stalled = threading.Event()
    closing = threading.Event()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=f")
            self.end_headers()
            k = 0
            try:
                while not closing.is_set():
                    if stalled.is_set():
                        time.sleep(0.02)
                        continue
                    body = jpegs[k % len(jpegs)]
                    head = f"--f\r\nContent-Type: image/jpeg\r\nContent-Length: {len(body)}"
                    self.wfile.write(head.encode() + b"\r\n\r\n" + body + b"\r\n")
                    k += 1
                    time.sleep(0.1)
            except OSError:
                pass

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/video"
    gid = store.create_game(game.players)
    src = SourceSettings(open_timeout_s=1.0, read_timeout_s=0.8, stall_s=0.5, backoff_s=(0.2,))
    session = LiveSession(store, gid, url, source_settings=src,
                          first_player=game.events[0].player).start()  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while not store.game(gid).events and time.monotonic() < deadline:
            time.sleep(0.1)
        assert store.game(gid).events == game.events[:1]
        stalled.set()
        time.sleep(2.5)
        health = session.health()
        assert health["state"] == "lost" and "lost since" in health["message"]
        assert health["source"]["lost_since"] is not None
        assert store.game(gid).events == game.events[:1]  # untouched while lost
        stalled.clear()
        deadline = time.monotonic() + 20
        while session.health()["state"] != "ok" and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)
        health = session.health()
        assert health["state"] == "ok" and health["source"]["reconnects"] >= 1
        assert store.game(gid).events == game.events[:1]  # same board: no phantom move
    finally:
        session.stop()
        closing.set()
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("still_frames", [12, 1], ids=["settled-unclear", "still-settling"])
def test_stopping_the_camera_decides_the_last_still_period(
    store: GameStore, tmp_path: Path, still_frames: int
) -> None:
    """An unclear settle (here an illegal move) waits for the end of its still period, which
    a live camera reaches only when the next hands come. When the camera is stopped first
    (the end of the evening), the move is kept as a review, as at the end of a recording,
    not lost. A move the camera saw still for only one frame (hands just lifted) is not
    committed by the stop. Real frames from a folder; the detector is replaced by scripted
    observations (the move's tiles are chosen, not read), and it holds the last frame until
    the session has been told to stop, so the folder cannot end first."""
    from tests.vision.test_tracking import obs

    folder = tmp_path / "frames"
    folder.mkdir()
    ramp = np.tile(np.linspace(30, 220, 1280, dtype=np.uint8), (720, 1))
    image = cv2.merge([ramp, ramp, np.full_like(ramp, 90)])  # not blank, not dark
    b1 = Board.from_ascii("Rs Rc")
    illegal = b1.with_tiles([(Pos(0, 2), Tile.parse("Bd"))])  # red, red, blue: no line
    script = (
        [obs(Board())] * 5
        + [obs(b1, occluded=0.3)] * 2
        + [obs(b1)] * 10
        + [obs(illegal, occluded=0.3)] * 2
        + [obs(illegal)] * (still_frames - 1)
    )
    for i in range(len(script) + 20):
        assert cv2.imwrite(str(folder / f"{i:04d}.png"), image)
    calls = 0
    held = threading.Event()

    def detector(_image: np.ndarray) -> Observation:
        nonlocal calls
        calls += 1
        if calls <= len(script):
            return script[calls - 1]
        held.set()  # the still period goes on until the camera is stopped
        deadline = time.monotonic() + 30
        while session.source.health().state != "closed" and time.monotonic() < deadline:
            time.sleep(0.01)
        return obs(illegal)

    gid = store.create_game(("Ann", "Ben"))
    session = LiveSession(
        store, gid, folder, detector=detector,
        source_settings=SourceSettings(folder_fps=10.0),
    )  # fmt: skip
    first = (Place(0, Placement.parse("Rs@0,0 Rc@0,1")),)
    session.start()
    try:
        assert held.wait(timeout=60), (session.health(), session.source.health())
        assert store.game(gid).events == first
        waiting = [e.message for e in session.events if e.kind == "settled"]
        unclear = any("deciding at the end of the still period" in m for m in waiting)
        assert unclear == (still_frames > 1), waiting
    finally:
        session.stop()
    assert session.finished and session.health()["state"] == "ended"
    events = store.game(gid).events
    if still_frames == 1:
        assert events == first
        return
    assert len(events) == 2 and isinstance(events[1], Review), events
    assert events[1].player == 1 and events[1].seen == Placement.parse("Bd@0,2")
    assert "no legal move" in events[1].reason
    assert [e.kind for e in session.events].count("review") == 1


@pytest.mark.slow
def test_four_player_game_with_walled_in_pockets_tracks_exactly(tmp_path: Path) -> None:
    """The tracking benchmark's 4-player game (seed 5, 40 turns, 960x540 video): its board
    leaves many empty cells walled in by tiles on three sides, which were once read as
    orange squares (three moves went to review). Every move must be committed with its points;
    nothing phantom, nothing lost. About two minutes (renders the video)."""
    from benchmarks.bench_tracking import _accuracy

    run = _accuracy(5, 4, 40, tmp_path)
    assert run["phantom"] == 0 and run["lost"] == 0, run
    assert run["exact"] >= run["moves"] - 1, run
    if run["exact"] == run["moves"]:
        assert run["totals_match"], run  # every score right: the final totals agree
