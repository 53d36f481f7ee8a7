"""The game store: SQLite (stdlib ``sqlite3``) holding games, players and an append-only event log.

Contract: docs/ARCHITECTURE.md, "Additions" (``scorer.store.GameStore``). Requirements: issue 4,
"Storage" — WAL journal, ``synchronous=FULL``, corrections are events of the log (never an
update in place), an annotated JPEG snapshot of each settled board on disk next to the DB, and a
game that survives ``kill -9`` at any moment with no confirmed move lost and none duplicated.

Why this is crash-safe:

- every write is one SQLite transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``) in WAL mode with
  ``synchronous=FULL``: when :meth:`GameStore.append` returns, the event is on disk (SQLite docs,
  "PRAGMA synchronous": FULL syncs the WAL at every commit); a process killed before the commit
  leaves no trace of it, so a move is either stored once or not at all;
- the log is append-only: a correction is a new row (``op`` = replace/delete/insert), and
  :meth:`GameStore.game` rebuilds the event list by applying the rows in order, so no row is
  ever rewritten and a crash cannot leave half an edit;
- an optional idempotency ``key`` (unique per game) lets a restarted tracker append "the move
  seen at frame 1234" again without creating a duplicate (:meth:`GameStore.append` returns the
  index stored the first time);
- snapshots are written to a temporary file, fsync'ed and renamed (atomic on POSIX), so a
  snapshot file is either complete or absent.

Layout on disk: ``games.db`` (plus SQLite's ``-wal``/``-shm``) and, next to it,
``games.db.snapshots/<game_id>/<event_index>.jpg``.

Events are stored as JSON in the turn form of the ``tabletally-game/1`` record (INTERFACES.md):
``{"player": 0, "place": [{"row", "col", "color", "shape"}...], "out": true}``,
``{"player": 1, "exchange": 3}``, ``{"player": 0, "pass": true}`` and
``{"player": 0, "review": {"reason", "seen", "candidates", "frame"}}`` (plus ``"splits"``:
``[[tiles, tiles], ...]`` when the review offers two-move readings).
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from scorer.model import CLASSIC_COLORS, Board, Placement, Pos, Shape, Tile

if TYPE_CHECKING:  # scorer.game imports nothing from here; imported lazily at run time
    from scorer.game import Game

__all__ = [
    "CORRECTION_OPS",
    "EVENT_SOURCES",
    "GAME_STATUSES",
    "GameInfo",
    "GameStore",
    "LogEntry",
    "StaleEditError",
    "StoreError",
    "UnknownGameError",
    "decode_event",
    "encode_event",
]

#: Where an event came from (ARCHITECTURE.md, ``GameStore.append``).
EVENT_SOURCES: tuple[str, ...] = ("camera", "ui", "import")
#: Corrections of the log (ARCHITECTURE.md, ``GameStore.correct``).
CORRECTION_OPS: tuple[str, ...] = ("replace", "delete", "insert")
#: Statuses a game can have. ``active``: being played/tracked; ``paused``: tracking stopped,
#: game open; ``finished``: ended (by the rules or by the players); ``abandoned``: given up.
GAME_STATUSES: tuple[str, ...] = ("active", "paused", "finished", "abandoned")

#: Database schema version (``PRAGMA user_version``).
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    variant    TEXT NOT NULL,
    tie_break  TEXT NOT NULL,
    status     TEXT NOT NULL,
    setup      TEXT NOT NULL,          -- JSON list of tiles (record form)
    meta       TEXT NOT NULL,          -- JSON object
    colors     TEXT NOT NULL DEFAULT '["red","orange","yellow","green","blue","purple"]',
    created    TEXT NOT NULL,          -- ISO 8601 UTC
    updated    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    seat       INTEGER NOT NULL,
    name       TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS log (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    seq        INTEGER NOT NULL,       -- 0, 1, 2, ... per game: the order of the log
    op         TEXT NOT NULL,          -- append | replace | delete | insert
    idx        INTEGER NOT NULL,       -- event index the row appends/edits
    event      TEXT,                   -- JSON (record turn form); NULL for delete
    source     TEXT NOT NULL,
    frame      INTEGER,
    key        TEXT,                   -- idempotency key (unique per game) or NULL
    created    TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS log_key ON log(game_id, key) WHERE key IS NOT NULL;
"""


class StoreError(RuntimeError):
    """The database file cannot be used (not a tabletally store, newer schema, unreadable)."""


class StaleEditError(RuntimeError):
    """A correction computed from a game that someone has written to since it was read (a
    second click, another tab, the camera): nothing was stored; reload and decide again."""

    def __init__(self, game_id: int):
        super().__init__(f"game {game_id} changed since it was read; nothing was stored")
        self.game_id = game_id


class UnknownGameError(KeyError):
    """No game with this id in the store."""

    def __init__(self, game_id: int):
        super().__init__(game_id)
        self.game_id = game_id

    def __str__(self) -> str:
        return f"no game with id {self.game_id}"


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A row of :meth:`GameStore.list_games`.

    Attributes:
        id: the game id.
        players: player names in seat order.
        variant: ``"standard"`` or ``"extra"``.
        status: one of :data:`GAME_STATUSES`.
        created, updated: ISO 8601 UTC timestamps (``2026-11-21T13:40:00.123456+00:00``).
        events: number of events in the game (corrections applied).
        meta: the free-form ``meta`` object given to :meth:`GameStore.create_game`.
    """

    id: int
    players: tuple[str, ...]
    variant: str
    status: str
    created: str
    updated: str
    events: int = 0
    meta: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One row of the raw, append-only log (:meth:`GameStore.log`).

    Attributes:
        seq: position in the log, 0-based.
        op: ``"append"`` (a new event at the end) or a correction ``"replace"``, ``"delete"``,
            ``"insert"``.
        index: the event index appended or edited (in the game as it was before this row).
        event: the event (``None`` for ``delete``).
        source: ``"camera"``, ``"ui"`` or ``"import"``.
        frame: the video frame the event was seen at, if any.
        key: the idempotency key given to :meth:`GameStore.append`, if any.
        created: ISO 8601 UTC timestamp.
    """

    seq: int
    op: str
    index: int
    event: Any
    source: str
    frame: int | None
    key: str | None
    created: str


# --------------------------------------------------------------------------- event codec


def _tile_json(pos: tuple[int, int] | None, tile: Tile) -> dict[str, Any]:
    d: dict[str, Any] = {}
    if pos is not None:
        d["row"], d["col"] = int(pos[0]), int(pos[1])
    d["color"], d["shape"] = tile.color, tile.shape.value
    return d


def _tile_from(d: Mapping[str, Any]) -> tuple[Pos, Tile]:
    return Pos(int(d["row"]), int(d["col"])), Tile(str(d["color"]), Shape(d["shape"]))


def _placement_json(p: Placement) -> list[dict[str, Any]]:
    return [_tile_json(pos, t) for pos, t in p.tiles]


def _placement_from(items: Sequence[Mapping[str, Any]]) -> Placement:
    return Placement(tuple(_tile_from(d) for d in items))


def _split_from(items: Sequence[Any]) -> tuple[Placement, Placement]:
    if len(items) != 2:
        raise ValueError(f"a split has two turns, got {len(items)}")
    return _placement_from(items[0]), _placement_from(items[1])


def encode_event(event: Any) -> dict[str, Any]:
    """An event of :mod:`scorer.game` as a JSON-able dict in the record's turn form.

    Raises:
        TypeError: not a ``Place``/``Exchange``/``Pass``/``Review``.
    """
    from scorer import game as g

    if isinstance(event, g.Place):
        d: dict[str, Any] = {"player": event.player, "place": _placement_json(event.tiles)}
        if event.out is not None:
            d["out"] = bool(event.out)
        return d
    if isinstance(event, g.Exchange):
        return {"player": event.player, "exchange": int(event.count)}
    if isinstance(event, g.Pass):
        return {"player": event.player, "pass": True}
    if isinstance(event, g.Review):
        return {
            "player": event.player,
            "review": {
                "reason": event.reason,
                "seen": _placement_json(event.seen),
                "candidates": [_placement_json(c) for c in event.candidates],
                "frame": event.frame,
                # only when there are some: stores written before splits existed look the same
                **(
                    {"splits": [[_placement_json(a), _placement_json(b)] for a, b in event.splits]}
                    if event.splits
                    else {}
                ),
            },
        }
    raise TypeError(f"not a game event: {event!r}")


def decode_event(d: Mapping[str, Any]) -> Any:
    """The inverse of :func:`encode_event`.

    Raises:
        ValueError: a dict that is no event (the message quotes it).
    """
    from scorer import game as g

    try:
        player = int(d["player"])
        if "place" in d:
            out = d.get("out")
            return g.Place(player, _placement_from(d["place"]), None if out is None else bool(out))
        if "exchange" in d:
            return g.Exchange(player, int(d["exchange"]))
        if d.get("pass"):
            return g.Pass(player)
        if "review" in d:
            r = d["review"]
            return g.Review(
                player,
                str(r["reason"]),
                _placement_from(r.get("seen", [])),
                tuple(_placement_from(c) for c in r.get("candidates", [])),
                r.get("frame"),
                tuple(_split_from(s) for s in r.get("splits", [])),
            )
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"stored event {dict(d)!r} is malformed: {e}") from None
    raise ValueError(f"stored event {dict(d)!r} is not a place/exchange/pass/review turn")


# --------------------------------------------------------------------------- the store


def _now() -> str:
    return datetime.now(UTC).isoformat()


class GameStore:
    """Games in one SQLite file; safe to share between threads of one process and between
    processes (SQLite locking; writers wait up to ``busy_timeout_s``).

    Args:
        path: the database file (created with its parent folder if missing).
        busy_timeout_s: how long a writer waits for another writer's lock, seconds.

    Raises:
        StoreError: the file is not an SQLite database or has a newer schema.
    """

    def __init__(self, path: str | os.PathLike[str], *, busy_timeout_s: float = 10.0):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.snapshot_dir = self.path.with_name(self.path.name + ".snapshots")
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(
                self.path,
                timeout=busy_timeout_s,
                isolation_level=None,  # explicit BEGIN/COMMIT below
                check_same_thread=False,  # guarded by self._lock
            )
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: store schema {version} is newer than this tabletally "
                    f"({SCHEMA_VERSION})"
                )
            self._db.executescript(_SCHEMA)
            columns = {r[1] for r in self._db.execute("PRAGMA table_info(games)")}
            if "colors" not in columns:  # stores created by the first version of this module
                self._db.execute(
                    "ALTER TABLE games ADD COLUMN colors TEXT NOT NULL "
                    "DEFAULT '" + json.dumps(list(CLASSIC_COLORS), separators=(",", ":")) + "'"
                )
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: not a usable game store ({e})") from None

    # -- plumbing ---------------------------------------------------------------------------
    def close(self) -> None:
        """Close the connection (the store cannot be used afterwards)."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _game_row(self, game_id: int) -> sqlite3.Row:
        row = self._db.execute("SELECT * FROM games WHERE id = ?", (int(game_id),)).fetchone()
        if row is None:
            raise UnknownGameError(int(game_id))
        return row  # type: ignore[no-any-return]

    def _count(self, game_id: int) -> int:
        """Number of events after applying the whole log (appends + inserts - deletes)."""
        row = self._db.execute(
            "SELECT COALESCE(SUM(CASE op WHEN 'append' THEN 1 WHEN 'insert' THEN 1 "
            "WHEN 'delete' THEN -1 ELSE 0 END), 0) FROM log WHERE game_id = ?",
            (int(game_id),),
        ).fetchone()
        return int(row[0])

    def _next_seq(self, game_id: int) -> int:
        row = self._db.execute(
            "SELECT COALESCE(MAX(seq) + 1, 0) FROM log WHERE game_id = ?", (int(game_id),)
        ).fetchone()
        return int(row[0])

    def _touch(self, db: sqlite3.Connection, game_id: int) -> None:
        db.execute("UPDATE games SET updated = ? WHERE id = ?", (_now(), int(game_id)))

    # -- games ------------------------------------------------------------------------------
    def create_game(
        self,
        players: Sequence[str],
        *,
        variant: str = "standard",
        setup: Board | None = None,
        tie_break: str = "oldest",
        meta: Mapping[str, Any] | None = None,
        colors: Sequence[str] = CLASSIC_COLORS,
    ) -> int:
        """Create a game and return its id.

        Args:
            players: names in seat order (1-8; RULES.md §1 allows up to 8 with the Dutch book).
            variant: ``"standard"`` or ``"extra"`` (RULES.md §1a).
            setup: tiles on the table before tracking began (score nothing).
            tie_break: ``"youngest"`` or ``"oldest"`` (RULES.md §1, first turn).
            meta: free-form JSON-able data kept with the game (e.g. the camera source).
            colors: the palette's six colour names (:attr:`scorer.game.Game.colors`).

        Raises:
            ValueError: bad players/variant/tie_break/colors, or meta that is not JSON-able.
        """
        names = tuple(str(p).strip() for p in players)
        if not 1 <= len(names) <= 8:
            raise ValueError(f"a game needs 1-8 players, got {len(names)}: {list(names)!r}")
        if any(not n for n in names):
            raise ValueError(f"player names must not be empty: {list(names)!r}")
        if variant not in ("standard", "extra"):
            raise ValueError(f"variant must be 'standard' or 'extra', not {variant!r}")
        if tie_break not in ("youngest", "oldest"):
            raise ValueError(f"tie_break must be 'youngest' or 'oldest', not {tie_break!r}")
        try:
            meta_json = json.dumps(dict(meta or {}))
        except TypeError as e:
            raise ValueError(f"meta is not JSON-able: {e}") from None
        colors = tuple(str(c) for c in colors)
        if len(set(colors)) != 6:
            raise ValueError(f"colors must be 6 different colour names, got {list(colors)!r}")
        setup_json = json.dumps([_tile_json(p, t) for p, t in sorted((setup or Board()).items())])
        with self._write() as db:
            game_id = self._insert_game(
                db, names, variant, tie_break, setup_json, meta_json, json.dumps(list(colors))
            )
        return game_id

    @staticmethod
    def _insert_game(
        db: sqlite3.Connection,
        names: Sequence[str],
        variant: str,
        tie_break: str,
        setup_json: str,
        meta_json: str,
        colors_json: str,
    ) -> int:
        now = _now()
        cur = db.execute(
            "INSERT INTO games (variant, tie_break, status, setup, meta, colors, created, updated)"
            " VALUES (?, ?, 'active', ?, ?, ?, ?, ?)",
            (variant, tie_break, setup_json, meta_json, colors_json, now, now),
        )
        game_id = int(cur.lastrowid or 0)
        db.executemany(
            "INSERT INTO players (game_id, seat, name) VALUES (?, ?, ?)",
            [(game_id, i, n) for i, n in enumerate(names)],
        )
        return game_id

    def _info(self, row: sqlite3.Row) -> GameInfo:
        gid = int(row["id"])
        names = tuple(
            r[0]
            for r in self._db.execute(
                "SELECT name FROM players WHERE game_id = ? ORDER BY seat", (gid,)
            )
        )
        return GameInfo(
            id=gid,
            players=names,
            variant=str(row["variant"]),
            status=str(row["status"]),
            created=str(row["created"]),
            updated=str(row["updated"]),
            events=self._count(gid),
            meta=json.loads(row["meta"]),
        )

    def list_games(self) -> list[GameInfo]:
        """Every game, most recently updated first."""
        with self._lock:
            rows = self._db.execute("SELECT * FROM games ORDER BY updated DESC, id DESC").fetchall()
            return [self._info(r) for r in rows]

    def info(self, game_id: int) -> GameInfo:
        """One game's :class:`GameInfo`. Raises :class:`UnknownGameError`."""
        with self._lock:
            return self._info(self._game_row(game_id))

    def set_status(self, game_id: int, status: str) -> None:
        """Set a game's status (one of :data:`GAME_STATUSES`).

        Raises:
            UnknownGameError: no such game.
            ValueError: unknown status.
        """
        if status not in GAME_STATUSES:
            raise ValueError(f"status must be one of {', '.join(GAME_STATUSES)}, not {status!r}")
        with self._write() as db:
            self._game_row(game_id)
            db.execute(
                "UPDATE games SET status = ?, updated = ? WHERE id = ?",
                (status, _now(), int(game_id)),
            )

    def set_setup(self, game_id: int, setup: Board) -> None:
        """Set the tiles that were on the table before the first turn (``--setup first-frame``:
        the tracker learns them from the first settled board, after the game was created).

        Raises:
            UnknownGameError: no such game.
            ValueError: the game already has events (the setup would change their scores).
        """
        setup_json = json.dumps([_tile_json(p, t) for p, t in sorted(setup.items())])
        with self._write() as db:
            self._game_row(game_id)
            if self._next_seq(game_id) > 0:
                raise ValueError(f"game {game_id} already has events; its setup is fixed")
            db.execute(
                "UPDATE games SET setup = ?, updated = ? WHERE id = ?",
                (setup_json, _now(), int(game_id)),
            )

    def game(self, game_id: int) -> Game:
        """The game: players, setup and the event log with every correction applied.

        Raises:
            UnknownGameError: no such game.
            ValueError: a stored event is malformed (database edited by hand).
        """
        from scorer.game import Game

        with self._lock:
            row = self._game_row(game_id)
            names = tuple(
                r[0]
                for r in self._db.execute(
                    "SELECT name FROM players WHERE game_id = ? ORDER BY seat", (int(game_id),)
                )
            )
            log = self._db.execute(
                "SELECT op, idx, event FROM log WHERE game_id = ? ORDER BY seq", (int(game_id),)
            ).fetchall()
        events: list[Any] = []
        for r in log:
            op, idx = r["op"], int(r["idx"])
            ev = decode_event(json.loads(r["event"])) if r["event"] is not None else None
            if op == "append":
                events.append(ev)
            elif op == "replace":
                events[idx] = ev
            elif op == "insert":
                events.insert(idx, ev)
            elif op == "delete":
                del events[idx]
        setup = Board(_tile_from(d) for d in json.loads(row["setup"]))
        return Game(
            players=names,
            variant=row["variant"],
            setup=setup,
            events=tuple(events),
            tie_break=row["tie_break"],
            colors=tuple(json.loads(row["colors"])),
        )

    # -- the log ----------------------------------------------------------------------------
    def append(
        self,
        game_id: int,
        event: Any,
        *,
        source: Literal["camera", "ui", "import"] = "camera",
        frame: int | None = None,
        key: str | None = None,
    ) -> int:
        """Append ``event`` at the end of the game; return its event index (0-based).

        Durable when it returns (WAL, ``synchronous=FULL``). With ``key`` (unique per game, e.g.
        ``"frame:1234"``), appending the same key again stores nothing and returns the index
        the first append returned — a restarted tracker cannot duplicate a move.

        Raises:
            UnknownGameError: no such game.
            ValueError: unknown source.
            TypeError: not a game event.
        """
        if source not in EVENT_SOURCES:
            raise ValueError(f"source must be one of {', '.join(EVENT_SOURCES)}, not {source!r}")
        payload = json.dumps(encode_event(event))
        with self._write() as db:
            self._game_row(game_id)
            if key is not None:
                old = db.execute(
                    "SELECT idx FROM log WHERE game_id = ? AND key = ?", (int(game_id), key)
                ).fetchone()
                if old is not None:
                    return int(old[0])
            index = self._count(game_id)
            db.execute(
                "INSERT INTO log (game_id, seq, op, idx, event, source, frame, key, created) "
                "VALUES (?, ?, 'append', ?, ?, ?, ?, ?, ?)",
                (int(game_id), self._next_seq(game_id), index, payload, source, frame, key, _now()),
            )
            self._touch(db, game_id)
        return index

    def correct(
        self,
        game_id: int,
        op: Literal["replace", "delete", "insert"],
        index: int,
        event: Any = None,
        *,
        source: Literal["camera", "ui", "import"] = "ui",
        expect_revision: tuple[int, str] | None = None,
    ) -> None:
        """Correct the game: replace, delete or insert the event at ``index``.

        Stored as a new row of the log (never an update in place), so every correction can be
        audited and the game rebuilt as it was at any point.

        Raises:
            UnknownGameError: no such game.
            ValueError: unknown op, missing event for replace/insert, event given to delete.
            IndexError: ``index`` out of range (``0..n-1`` for replace/delete, ``0..n`` for
                insert, n = number of events).
            StaleEditError: ``expect_revision`` (a :meth:`revision` read before the game the
                correction was computed from) no longer matches: someone wrote in between.
        """
        self.correct_many(
            game_id, [(op, index, event)], source=source, expect_revision=expect_revision
        )

    def correct_many(
        self,
        game_id: int,
        edits: Sequence[tuple[Literal["replace", "delete", "insert"], int, Any]],
        *,
        source: Literal["camera", "ui", "import"] = "ui",
        expect_revision: tuple[int, str] | None = None,
    ) -> None:
        """Apply several corrections ``(op, index, event)`` in order, in one transaction: all
        of them are stored or none (e.g. a review accepted as two turns: a replace and an
        insert that must not be half done after a crash). Each index refers to the game as
        the previous edits left it. Raises as :meth:`correct` (nothing stored then). No edits:
        nothing is written.
        """
        if not edits:
            return
        rows = []
        for op, index, event in edits:
            if op not in CORRECTION_OPS:
                raise ValueError(f"op must be one of {', '.join(CORRECTION_OPS)}, not {op!r}")
            if (event is None) != (op == "delete"):
                raise ValueError(
                    f"{op!r} needs an event" if event is None else "'delete' takes no event"
                )
            rows.append((op, index, None if event is None else json.dumps(encode_event(event))))
        with self._write() as db:
            row = self._game_row(game_id)
            if expect_revision is not None and (
                self._next_seq(game_id),
                str(row["updated"]),
            ) != tuple(expect_revision):
                raise StaleEditError(int(game_id))
            n = self._count(game_id)
            seq = self._next_seq(game_id)
            for op, index, payload in rows:
                hi = n if op == "insert" else n - 1
                if not 0 <= index <= hi:
                    raise IndexError(
                        f"event index {index} out of range for {op!r} "
                        f"(game {game_id} has {n} events)"
                    )
                db.execute(
                    "INSERT INTO log (game_id, seq, op, idx, event, source, frame, key, created) "
                    "VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?)",
                    (int(game_id), seq, op, int(index), payload, source, _now()),
                )
                seq += 1
                n += {"insert": 1, "delete": -1}.get(op, 0)
            self._touch(db, game_id)

    def log(self, game_id: int) -> list[LogEntry]:
        """The raw log, oldest first (appends and corrections). Raises UnknownGameError."""
        with self._lock:
            self._game_row(game_id)
            rows = self._db.execute(
                "SELECT * FROM log WHERE game_id = ? ORDER BY seq", (int(game_id),)
            ).fetchall()
        return [
            LogEntry(
                seq=int(r["seq"]),
                op=str(r["op"]),
                index=int(r["idx"]),
                event=None if r["event"] is None else decode_event(json.loads(r["event"])),
                source=str(r["source"]),
                frame=None if r["frame"] is None else int(r["frame"]),
                key=r["key"],
                created=str(r["created"]),
            )
            for r in rows
        ]

    def revision(self, game_id: int) -> tuple[int, str]:
        """A cheap token that changes whenever anyone writes to the game: ``(log rows,
        updated timestamp)``. Every append and correction adds a log row; :meth:`set_setup`
        and :meth:`set_status` move ``updated``. A reader that keeps the token it read
        *before* loading :meth:`game` reloads only when the token moved (the live tracker
        learning UI corrections, see :mod:`vision.tracking`).

        Raises:
            UnknownGameError: no such game.
        """
        with self._lock:
            row = self._game_row(game_id)
            return self._next_seq(game_id), str(row["updated"])

    def has_key(self, game_id: int, key: str) -> bool:
        """Whether an append with this idempotency key is stored."""
        with self._lock:
            row = self._db.execute(
                "SELECT 1 FROM log WHERE game_id = ? AND key = ?", (int(game_id), key)
            ).fetchone()
        return row is not None

    # -- snapshots --------------------------------------------------------------------------
    def snapshot_path(self, game_id: int, index: int) -> Path:
        """Where the snapshot of event ``index`` lives (it may not exist)."""
        return self.snapshot_dir / str(int(game_id)) / f"{int(index):05d}.jpg"

    def save_snapshot(self, game_id: int, index: int, jpeg_bytes: bytes) -> Path:
        """Write the annotated JPEG of the board settled at event ``index``; return its path.

        Atomic (temporary file, fsync, rename): the file is complete or absent after a crash.

        Raises:
            UnknownGameError: no such game.
            ValueError: ``jpeg_bytes`` does not start with the JPEG SOI marker.
        """
        if not jpeg_bytes.startswith(b"\xff\xd8"):
            raise ValueError("snapshot is not a JPEG (missing the FF D8 start-of-image marker)")
        with self._lock:
            self._game_row(game_id)
        path = self.snapshot_path(game_id, index)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".jpg")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(jpeg_bytes)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    # -- records ----------------------------------------------------------------------------
    def import_record(self, record: Mapping[str, Any]) -> int:
        """Store a ``tabletally-game/1`` record as a new game; return its id.

        Raises:
            scorer.record.RecordError: the record is invalid (message names the field).
        """
        from scorer.record import load_record

        game = load_record(dict(record))
        setup_json = json.dumps([_tile_json(p, t) for p, t in sorted(game.setup.items())])
        payloads = [json.dumps(encode_event(ev)) for ev in game.events]
        now = _now()
        with self._write() as db:  # one transaction: the whole game or nothing
            gid = self._insert_game(
                db,
                tuple(game.players),
                game.variant,
                game.tie_break,
                setup_json,
                json.dumps({"imported": True}),
                json.dumps(list(game.colors)),
            )
            db.executemany(
                "INSERT INTO log (game_id, seq, op, idx, event, source, frame, key, created) "
                "VALUES (?, ?, 'append', ?, ?, 'import', NULL, NULL, ?)",
                [(gid, i, i, pl, now) for i, pl in enumerate(payloads)],
            )
        return gid
