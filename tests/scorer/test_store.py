"""The SQLite game store (issue 4, "Storage"): real files, real SQLite, a real SIGKILL."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorer.game import Exchange, Pass, Place, Review
from scorer.model import Board, Placement
from scorer.store import GameStore, StoreError, UnknownGameError

ROOT = Path(__file__).resolve().parents[2]

P1 = Placement.parse("Rs@0,0 Rc@0,1")
P2 = Placement.parse("Bc@1,1")
P3 = Placement.parse("Gc@-1,1")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    s = GameStore(tmp_path / "games.db")
    yield s
    s.close()


def test_create_list_and_read_back_a_game(store: GameStore) -> None:
    setup = Board.from_ascii("Yd Yk")
    gid = store.create_game(["Ann", "Ben", "Cy"], variant="extra", setup=setup, meta={"cam": 0})
    info = store.info(gid)
    assert info.players == ("Ann", "Ben", "Cy") and info.variant == "extra"
    assert info.status == "active" and info.meta == {"cam": 0} and info.events == 0
    game = store.game(gid)
    assert game.players == ("Ann", "Ben", "Cy") and game.setup == setup
    assert game.events == () and game.tie_break == "oldest"
    other = store.create_game(["X", "Y"])
    assert [g.id for g in store.list_games()] == [other, gid]  # most recently updated first


def test_every_event_kind_round_trips(store: GameStore) -> None:
    gid = store.create_game(["Ann", "Ben"])
    events = [
        Place(0, P1),
        Exchange(1, 3),
        Pass(0),
        Review(1, "tiles vanished at (0, 1)", P2, (P2, P3), 1234),
        Place(0, P3, out=True),
    ]
    indices = [store.append(gid, e, frame=i * 10) for i, e in enumerate(events)]
    assert indices == [0, 1, 2, 3, 4]
    assert list(store.game(gid).events) == events
    assert [e.frame for e in store.log(gid)] == [0, 10, 20, 30, 40]
    assert store.info(gid).events == 5


def test_corrections_are_events_of_the_log_not_updates(store: GameStore) -> None:
    gid = store.create_game(["Ann", "Ben"])
    store.append(gid, Place(0, P1))
    store.append(gid, Review(1, "ambiguous", P2, (P2,)))
    store.append(gid, Place(0, P3))
    store.correct(gid, "replace", 1, Place(1, P2))
    store.correct(gid, "insert", 2, Exchange(0, 2))
    store.correct(gid, "delete", 3)
    assert list(store.game(gid).events) == [Place(0, P1), Place(1, P2), Exchange(0, 2)]
    log = store.log(gid)
    assert [(e.op, e.index) for e in log] == [
        ("append", 0), ("append", 1), ("append", 2),
        ("replace", 1), ("insert", 2), ("delete", 3),
    ]  # fmt: skip
    assert log[1].event == Review(1, "ambiguous", P2, (P2,)) and log[5].event is None
    assert log[3].source == "ui"
    # an append after corrections gets the index at the end of the corrected list
    assert store.append(gid, Pass(1)) == 3


@pytest.mark.parametrize(
    ("op", "index", "event", "error"),
    [
        ("replace", 1, Pass(0), IndexError),
        ("delete", -1, None, IndexError),
        ("insert", 2, Pass(0), IndexError),
        ("delete", 0, Pass(0), ValueError),
        ("replace", 0, None, ValueError),
        ("rename", 0, Pass(0), ValueError),
    ],
)
def test_bad_corrections_are_refused_and_store_nothing(
    store: GameStore, op: str, index: int, event: object, error: type[Exception]
) -> None:
    gid = store.create_game(["Ann", "Ben"])
    store.append(gid, Place(0, P1))
    with pytest.raises(error):
        store.correct(gid, op, index, event)  # type: ignore[arg-type]
    assert len(store.log(gid)) == 1 and list(store.game(gid).events) == [Place(0, P1)]


def test_unknown_game_is_a_key_error_everywhere(store: GameStore) -> None:
    calls = [
        lambda: store.game(99),
        lambda: store.info(99),
        lambda: store.log(99),
        lambda: store.append(99, Pass(0)),
        lambda: store.correct(99, "delete", 0),
        lambda: store.set_status(99, "finished"),
        lambda: store.save_snapshot(99, 0, b"\xff\xd8\xff\xd9"),
    ]
    for call in calls:
        with pytest.raises(UnknownGameError) as e:
            call()
        assert isinstance(e.value, KeyError) and "99" in str(e.value)


def test_bad_input_is_refused_with_a_clear_message(store: GameStore) -> None:
    with pytest.raises(ValueError, match="variant"):
        store.create_game(["Ann"], variant="speed")
    with pytest.raises(ValueError, match="empty"):
        store.create_game(["Ann", " "])
    gid = store.create_game(["Ann", "Ben"])
    with pytest.raises(ValueError, match="status"):
        store.set_status(gid, "won")
    with pytest.raises(ValueError, match="source"):
        store.append(gid, Pass(0), source="telepathy")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        store.append(gid, "Rs@0,0")
    assert store.log(gid) == []
    store.set_status(gid, "finished")
    assert store.info(gid).status == "finished"


def test_setup_can_be_set_until_the_first_event_and_colors_persist(store: GameStore) -> None:
    palette = ("red", "orange", "yellow", "green", "blue", "white")
    gid = store.create_game(["Ann", "Ben"], colors=palette)
    setup = Board.from_ascii("Ws Wc")
    store.set_setup(gid, setup)
    assert store.game(gid).setup == setup and store.game(gid).colors == palette
    store.append(gid, Place(0, Placement.parse("Wd@0,2")))
    with pytest.raises(ValueError, match="already has events"):
        store.set_setup(gid, Board())
    assert store.game(gid).setup == setup
    with pytest.raises(ValueError, match="colors"):
        store.create_game(["Ann"], colors=("red", "red"))


def test_idempotency_key_prevents_duplicates(store: GameStore) -> None:
    gid = store.create_game(["Ann", "Ben"])
    assert store.append(gid, Place(0, P1), key="frame:10") == 0
    assert store.append(gid, Place(1, P2), key="frame:20") == 1
    assert store.append(gid, Place(0, P1), key="frame:10") == 0  # replayed after a restart
    assert len(store.game(gid).events) == 2 and store.has_key(gid, "frame:20")


def test_store_is_wal_synchronous_full_and_persists(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "games.db"
    with GameStore(path) as s:
        gid = s.create_game(["Ann", "Ben"])
        s.append(gid, Place(0, P1))
        assert s._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert s._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    with GameStore(path) as s:
        assert list(s.game(gid).events) == [Place(0, P1)]


def test_a_file_that_is_not_a_store_gives_a_store_error(tmp_path: Path) -> None:
    bad = tmp_path / "notes.db"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match=r"notes\.db"):
        GameStore(bad)
    newer = tmp_path / "newer.db"
    con = sqlite3.connect(newer)
    con.execute("PRAGMA user_version=99")
    con.close()
    with pytest.raises(StoreError, match="newer"):
        GameStore(newer)


def test_snapshots_live_next_to_the_db_and_must_be_jpeg(store: GameStore) -> None:
    gid = store.create_game(["Ann", "Ben"])
    jpeg = b"\xff\xd8\xff\xe0" + b"x" * 100 + b"\xff\xd9"
    path = store.save_snapshot(gid, 3, jpeg)
    assert path == store.snapshot_path(gid, 3) and path.read_bytes() == jpeg
    assert path.parent.parent.parent == store.path.parent
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".tmp")]
    with pytest.raises(ValueError, match="JPEG"):
        store.save_snapshot(gid, 4, b"\x89PNG....")
    assert not store.snapshot_path(gid, 4).exists()


def test_threads_appending_at_once_get_distinct_indices(store: GameStore) -> None:
    gid = store.create_game(["Ann", "Ben"])
    got: list[int] = []
    lock = threading.Lock()

    def work(player: int) -> None:
        for _ in range(25):
            i = store.append(gid, Pass(player))
            with lock:
                got.append(i)

    threads = [threading.Thread(target=work, args=(p,)) for p in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == list(range(50))
    assert len(store.game(gid).events) == 50


def test_import_record_stores_the_whole_game(store: GameStore) -> None:
    pytest.importorskip("scorer.record")
    record = {
        "format": "tabletally-game/1",
        "game": "qwirkle",
        "variant": "standard",
        "players": ["Ann", "Ben"],
        "board": [],
        "turns": [
            {"player": 0, "place": [{"row": 0, "col": 0, "color": "red", "shape": "square"}]},
            {"player": 1, "exchange": 2},
        ],
    }
    gid = store.import_record(record)
    game = store.game(gid)
    assert game.players == ("Ann", "Ben")
    assert list(game.events) == [Place(0, Placement.parse("Rs@0,0")), Exchange(1, 2)]
    assert {e.source for e in store.log(gid)} == {"import"}


_WRITER = textwrap.dedent(
    """
    import sys
    from scorer.game import Place
    from scorer.model import Placement
    from scorer.store import GameStore

    store = GameStore(sys.argv[1])
    gid = int(sys.argv[2])
    for k in range(int(sys.argv[3])):
        ev = Place(k % 2, Placement.parse(f"Rs@0,{k}"))
        i = store.append(gid, ev, frame=k, key=f"frame:{k}")
        print(i, flush=True)  # acknowledged: durable from here on
    print("done", flush=True)
    """
)


def _run_writer(db: Path, gid: int, n: int) -> subprocess.Popen[str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = dict(os.environ, PYTHONPATH=path)
    return subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(db), str(gid), str(n)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_kill_9_mid_game_loses_no_confirmed_move_and_restart_adds_no_duplicate(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.db"
    with GameStore(db) as s:
        gid = s.create_game(["Ann", "Ben"])
    n = 400
    proc = _run_writer(db, gid, n)
    acked: list[int] = []
    assert proc.stdout is not None
    for line in proc.stdout:  # kill at a moment chosen by the writer's own progress
        acked.append(int(line))
        if len(acked) == 40:
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    with GameStore(db) as s:
        events = s.game(gid).events
        # every acknowledged append survived; the log is a gap-free prefix, no duplicate
        assert len(events) >= len(acked) == 40
        assert [e.tiles for e in events] == [
            Placement.parse(f"Rs@0,{k}") for k in range(len(events))
        ]
    # restart: the writer starts again from the beginning (like a tracker replaying its source)
    proc = _run_writer(db, gid, n)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0 and out.strip().endswith("done")
    with GameStore(db) as s:
        events = s.game(gid).events
        assert len(events) == n
        assert [e.tiles for e in events] == [Placement.parse(f"Rs@0,{k}") for k in range(n)]
        assert sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_reader_sees_writes_of_another_process_connection(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with GameStore(db) as a, GameStore(db) as b:
        gid = a.create_game(["Ann", "Ben"])
        a.append(gid, Place(0, P1))
        deadline = time.monotonic() + 5
        while not b.game(gid).events and time.monotonic() < deadline:
            time.sleep(0.01)
        assert list(b.game(gid).events) == [Place(0, P1)]
