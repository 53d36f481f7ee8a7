"""The web app's access to games: the store, "the current game", turns from JSON and forms.

Every write goes through here so that it (1) is stored as an event of the log in the
:class:`scorer.store.GameStore` (corrections are events too, never updates in place — the
store's contract in docs/ARCHITECTURE.md), and (2) bumps the game's version in the
:class:`webui.hub.Hub` so every open Live page and move log refreshes at once.

"The current game" (what ``/api/game`` and ``/live`` mean): the most recently updated game whose
status is ``"active"`` or ``"paused"``; if there is none, the most recently updated game. Any game
is addressed by id under ``/api/games/<id>/...`` and ``/games/<id>/...``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from flask import Flask, current_app

from scorer.game import Event, Game, GameResult, Place, replay
from scorer.record import RecordError, load_record
from scorer.store import GAME_STATUSES, GameInfo, GameStore, StaleEditError, UnknownGameError
from webui.hub import Hub

__all__ = [
    "ApiError",
    "LiveFeed",
    "WebSettings",
    "WebState",
    "accept_split",
    "correct",
    "current_game_id",
    "load",
    "split_edits",
    "state",
    "turn_from_json",
]

FINISHED = "finished"
ACTIVE = "active"
PAUSED = "paused"


@dataclass(frozen=True)
class WebSettings:
    """Limits and timings of the web companion.

    Attributes:
        max_upload_bytes: request body limit (``MAX_CONTENT_LENGTH``; larger -> 413 JSON). A
            full 108-tile game record is about 15 KB of JSON; 1 MiB leaves ~70x headroom while
            keeping a malicious upload cheap.
        sse_health_interval_s: how often the event stream sends camera health (fps, last
            frame age), seconds. 1 s makes "camera lost" visible within a second or two.
        sse_max_age_s: an event stream closes itself after this long and the browser's
            EventSource reconnects (bounded thread lifetime on the threaded server).
        mjpeg_max_fps: frames per second sent to each MJPEG client at most; the tracker runs
            at 15 fps (issue 5 benchmark), so a cap of 15 never drops a processed frame.
        sse_retry_ms: the browser's EventSource reconnect delay after a stream ends or drops,
            milliseconds (sent as ``retry:``); 2 s keeps a phone on flaky Wi-Fi current.
        stream_poll_s: how long a stream thread waits for news before checking whether the
            server is stopping, seconds (bounds shutdown time; costs nothing when idle).
        max_players: players per game; RULES.md §1 ("2–4 players (the Dutch rulebook says up
            to 8)").
        max_name_length: characters per player name (keeps sheets and the scoreboard usable).
    """

    max_upload_bytes: int = 1024 * 1024
    sse_health_interval_s: float = 1.0
    sse_max_age_s: float = 300.0
    mjpeg_max_fps: float = 15.0
    sse_retry_ms: int = 2000
    stream_poll_s: float = 2.0
    max_players: int = 8
    max_name_length: int = 40


class LiveFeed(Protocol):
    """A running camera pipeline attached to one game (see :mod:`webui.live`)."""

    @property
    def game_id(self) -> int:
        """The game the feed appends to."""
        ...

    def health(self) -> dict[str, Any]:
        """Camera health for the Live page: ``state`` ("ok" | "starting" | "lost" | "ended"),
        ``fps`` (processed frames per second), ``frame_age_s``, ``frames``, ``message``."""
        ...

    def stop(self) -> None: ...


@dataclass
class WebState:
    """The long-lived objects of one app (``app.extensions["tabletally"]``)."""

    store: GameStore
    hub: Hub
    settings: WebSettings
    pin: str | None = None
    live: LiveFeed | None = None
    notes: dict[int, str] = field(default_factory=dict)  #: banner per game (e.g. demo mode)


class ApiError(Exception):
    """A client error answered as JSON ``{"error": code, "message": message}``."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def state(app: Flask | None = None) -> WebState:
    """The :class:`WebState` of ``app`` (default: the current app)."""
    a = app if app is not None else current_app
    return a.extensions["tabletally"]  # type: ignore[no-any-return]


def current_game_id(st: WebState) -> int:
    """The current game's id (module docstring); :class:`ApiError` 404 when there is none."""
    games = st.store.list_games()
    if not games:
        raise ApiError(
            404, "no_game", "no game yet: create one (POST /api/games) or import a record"
        )
    active = [g for g in games if g.status in (ACTIVE, PAUSED)]
    pool = active or games
    best = max(pool, key=lambda g: (str(g.updated), g.id))
    return int(best.id)


def info(st: WebState, game_id: int) -> GameInfo:
    """The store's :class:`GameInfo`; ApiError 404 for an unknown id."""
    try:
        return st.store.info(game_id)
    except UnknownGameError:
        raise ApiError(404, "unknown_game", f"no game with id {game_id}") from None


def load(st: WebState, game_id: int) -> tuple[GameInfo, Game, GameResult]:
    """``(GameInfo, Game, GameResult)`` of a game; ApiError 404 for an unknown id."""
    gi = info(st, game_id)
    try:
        game = st.store.game(game_id)
    except UnknownGameError:
        raise ApiError(404, "unknown_game", f"no game with id {game_id}") from None
    return gi, game, replay(game)


def turn_from_json(game: Game, obj: Any, where: str = "turn") -> Event:
    """An event from a record turn (INTERFACES.md ``turns[k]`` form), validated by
    :func:`scorer.record.load_record` so errors name the field; ApiError 400 otherwise."""
    if not isinstance(obj, Mapping):
        raise ApiError(
            400,
            "bad_turn",
            f"{where}: expected a JSON object like "
            '{"player": 0, "place": [{"row": 0, "col": 0, "color": "red", "shape": "circle"}]}',
        )
    record = {
        "format": "tabletally-game/1",
        "game": "qwirkle",
        "variant": game.variant,
        "players": list(game.players),
        "board": [],
        "turns": [dict(obj)],
    }
    try:
        parsed = load_record(record, source=where)
    except RecordError as e:
        raise ApiError(400, "bad_turn", str(e).replace("turns[0]", where)) from None
    if len(parsed.events) != 1:
        raise ApiError(400, "bad_turn", f"{where}: expected exactly one turn")
    return parsed.events[0]


def check_index(game: Game, index: Any, *, insert: bool = False) -> int:
    """A valid event index (``0..n-1``; ``0..n`` for an insert); ApiError 400/404 otherwise."""
    if isinstance(index, bool) or not isinstance(index, int):
        raise ApiError(400, "bad_index", f"index: expected an integer, got {index!r}")
    top = len(game.events) if insert else len(game.events) - 1
    if not 0 <= index <= top:
        raise ApiError(
            404, "unknown_turn", f"no turn {index} (the game has {len(game.events)} turns)"
        )
    return index


def check_player(game: Game, event: Event) -> None:
    if not 0 <= event.player < len(game.players):
        raise ApiError(
            400,
            "bad_player",
            f"player: {event.player} is not a player of this game (0..{len(game.players) - 1})",
        )


def append(
    st: WebState, game_id: int, event: Event, *, source: Literal["camera", "ui", "import"] = "ui"
) -> int:
    """Append ``event`` to the game; returns its index."""
    game = st.store.game(game_id)
    check_player(game, event)
    k = st.store.append(game_id, event, source=source)
    st.hub.bump(game_id)
    return int(k)


def correct(st: WebState, game_id: int, op: str, index: Any, event: Event | None = None) -> None:
    """Apply one correction (``replace``/``delete``/``insert``) and notify watchers.

    Raises:
        ApiError: 409 ``stale`` when the game changed between reading it and storing the
            correction (a second click, another tab, the camera): nothing is stored.
    """
    rev = st.store.revision(game_id)
    game = st.store.game(game_id)
    if op not in ("replace", "delete", "insert"):
        raise ApiError(400, "bad_op", f"op: expected replace, delete, insert or split, got {op!r}")
    k = check_index(game, index, insert=(op == "insert"))
    if op != "delete":
        if event is None:
            raise ApiError(400, "bad_turn", f"turn: required for op {op!r}")
        check_player(game, event)
    try:
        st.store.correct(game_id, op, k, event, expect_revision=rev)  # type: ignore[arg-type]
    except StaleEditError as e:
        raise ApiError(409, "stale", f"{e}: reload the page and try again") from e
    st.hub.bump(game_id)


def split_edits(game: Game, index: int, split: int) -> list[tuple[str, int, Event]]:
    """The corrections that accept split ``split`` of the review at ``index`` as two turns:
    the review becomes ``Place(player, first)`` and ``Place(next player, second)`` is
    inserted after it (issue 4: two moves without a settle).

    Turns logged after the review were given the seat that followed the review's one turn;
    with two turns there, they belong one seat on. They are moved one seat on only when that
    makes every later turn in turn and leaving them would not (they were tracked in order);
    otherwise they are left as they are and the replay flags what is out of turn.

    Raises:
        ApiError: 409 the turn is not a review, 400 no such split.
    """
    from scorer.game import Review

    ev = game.events[index]
    if not isinstance(ev, Review):
        raise ApiError(409, "not_review", f"turn {index + 1} is not waiting for review")
    if isinstance(split, bool) or not isinstance(split, int) or not 0 <= split < len(ev.splits):
        raise ApiError(
            400, "bad_split", f"split {split!r} does not exist (the review offers {len(ev.splits)})"
        )
    first, second = ev.splits[split]
    n = len(game.players)
    edits: list[tuple[str, int, Event]] = [
        ("replace", index, Place(ev.player, first)),
        ("insert", index + 1, Place((ev.player + 1) % n, second)),
    ]
    later = game.events[index + 1 :]
    if later:
        moved = [replace(e, player=(e.player + 1) % n) for e in later]
        head = (*game.events[:index], Place(ev.player, first), Place((ev.player + 1) % n, second))

        def out_of_turn(events: tuple[Event, ...]) -> bool:
            result = replay(replace(game, events=events))
            return any(
                v.code == "out_of_turn" for t in result.turns[index + 2 :] for v in t.violations
            )

        if out_of_turn(head + later) and not out_of_turn(head + tuple(moved)):
            edits += [("replace", index + 2 + j, e) for j, e in enumerate(moved)]
    return edits


def accept_split(st: WebState, game_id: int, index: Any, split: Any) -> None:
    """Accept a review's two-turn reading (:func:`split_edits`), stored in one transaction;
    409 ``stale`` (nothing stored) when the game changed since it was read - a double click
    must not store the second turn twice."""
    rev = st.store.revision(game_id)
    game = st.store.game(game_id)
    k = check_index(game, index)
    edits = split_edits(game, k, split)
    try:
        st.store.correct_many(game_id, edits, expect_revision=rev)  # type: ignore[arg-type]
    except StaleEditError as e:
        raise ApiError(409, "stale", f"{e}: reload the page and try again") from e
    st.hub.bump(game_id)


def went_out(st: WebState, game_id: int) -> int:
    """Mark the latest placement as the player's last tile (end bonus); returns its index."""
    game = st.store.game(game_id)
    for k in range(len(game.events) - 1, -1, -1):
        ev = game.events[k]
        if isinstance(ev, Place):
            st.store.correct(game_id, "replace", k, Place(ev.player, ev.tiles, out=True))
            st.hub.bump(game_id)
            return k
    raise ApiError(409, "no_placement", "nobody has placed a tile yet, so nobody can go out")


def set_status(st: WebState, game_id: int, status: Any) -> None:
    if status not in GAME_STATUSES:
        raise ApiError(
            400, "bad_status", f"status: expected one of {', '.join(GAME_STATUSES)}, got {status!r}"
        )
    info(st, game_id)
    st.store.set_status(game_id, status)
    st.hub.bump(game_id)


def camera_health(st: WebState, game_id: int) -> dict[str, Any] | None:
    """Health of the live feed if it is attached to ``game_id`` (else None)."""
    live = st.live
    if live is None or live.game_id != game_id:
        return None
    h = dict(live.health())
    h["clients"] = st.hub.clients
    return h
