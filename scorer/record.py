"""The open game record ``tabletally-game/1`` (``shared/INTERFACES.md``): load, dump, score JSON.

A record is a JSON object::

    {"format": "tabletally-game/1", "game": "qwirkle", "variant": "standard",
     "players": ["Ann", "Ben"], "board": [{"row": 0, "col": 0, "color": "red", "shape": "star4"}],
     "turns": [{"player": 0, "place": [tile, ...]}, {"player": 1, "exchange": 3},
               {"player": 0, "pass": true}, {"player": 1, "place": [tile], "out": true},
               {"player": 0, "review": {"reason": "...", "seen": [tile...],
                                        "candidates": [[tile...], ...], "frame": 12,
                                        "splits": [[[tile...], [tile...]], ...]}}]}

Optional keys added by tabletally (readers may ignore them): ``tie_break`` (``"youngest"`` or
``"oldest"``), ``colors`` (the palette's colour names; tile colours must be among them) and a
review's ``splits`` (two-move readings, each ``[first turn's tiles, next turn's tiles]``).
Unknown keys are ignored. The JSON Schema is ``scorer/schema/tabletally-game-1.schema.json``.

Every problem raises :class:`RecordError` whose message names the source and the field, e.g.
``game.json: turns[3].place[0].color: unknown colour 'rd' (expected one of red, ...)``.
Rule breaking (an illegal move) is *not* a format error: such turns load and are flagged when
replayed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from scorer.game import (
    TIE_BREAKS,
    VARIANTS,
    Event,
    Exchange,
    Game,
    GameResult,
    Pass,
    Place,
    Review,
    TieBreak,
    Variant,
)
from scorer.model import CLASSIC_COLORS, COLOR_LETTERS, Board, Placement, Pos, Shape, Tile

__all__ = [
    "FORMAT",
    "MAX_PLAYERS",
    "RecordError",
    "dump_record",
    "load_record",
    "result_json",
    "schema",
    "schema_path",
    "tile_json",
]

#: The format tag of a record.
FORMAT = "tabletally-game/1"
#: The Dutch rulebook allows 2-8 players ("Aantal spelers: 2-8"); one is accepted for solo play.
MAX_PLAYERS = 8
#: Colour names accepted when a record names no palette: the built-in named colours.
KNOWN_COLORS: tuple[str, ...] = tuple(dict.fromkeys((*CLASSIC_COLORS, *COLOR_LETTERS)))
_SHAPES = ", ".join(s.value for s in Shape)
_MAX_INT = 10**6  # coordinates beyond this are not a table


class RecordError(ValueError):
    """A record that is not a valid ``tabletally-game/1``; the message names source and field."""

    def __init__(self, source: str, field: str, problem: str):
        self.source = source
        self.field = field
        self.problem = problem
        where = f"{source}: {field}: " if field else f"{source}: "
        super().__init__(where + problem)


def schema_path() -> Path:
    """Path of the JSON Schema file shipped in the package."""
    return Path(__file__).with_name("schema") / "tabletally-game-1.schema.json"


def schema() -> dict[str, Any]:
    """The record's JSON Schema (draft 2020-12) as a dict."""
    return cast("dict[str, Any]", json.loads(schema_path().read_text(encoding="utf-8")))


# --------------------------------------------------------------------------- loading


class _Reader:
    def __init__(self, source: str, colors: Sequence[str]):
        self.source = source
        self.colors = tuple(colors)

    def fail(self, field: str, problem: str) -> RecordError:
        return RecordError(self.source, field, problem)

    def obj(self, v: object, field: str) -> Mapping[str, Any]:
        if not isinstance(v, Mapping):
            raise self.fail(field, f"expected an object, got {_kind(v)}")
        return v

    def arr(self, v: object, field: str) -> list[Any]:
        if not isinstance(v, list):
            raise self.fail(field, f"expected a list, got {_kind(v)}")
        return v

    def integer(self, v: object, field: str, lo: int = -_MAX_INT, hi: int = _MAX_INT) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(field, f"expected an integer, got {_kind(v)}")
        if not lo <= v <= hi:
            raise self.fail(field, f"{v} is out of range ({lo}..{hi})")
        return v

    def string(self, v: object, field: str) -> str:
        if not isinstance(v, str):
            raise self.fail(field, f"expected a string, got {_kind(v)}")
        return v

    def tile(self, v: object, field: str) -> tuple[Pos, Tile]:
        d = self.obj(v, field)
        for key in ("row", "col", "color", "shape"):
            if key not in d:
                raise self.fail(f"{field}.{key}", "missing")
        row = self.integer(d["row"], f"{field}.row")
        col = self.integer(d["col"], f"{field}.col")
        color = self.string(d["color"], f"{field}.color")
        if color not in self.colors:
            raise self.fail(
                f"{field}.color",
                f"unknown colour {color!r} (expected one of {', '.join(self.colors)})",
            )
        shape_txt = self.string(d["shape"], f"{field}.shape")
        try:
            shape = Shape(shape_txt)
        except ValueError:
            raise self.fail(
                f"{field}.shape", f"unknown shape {shape_txt!r} (expected one of {_SHAPES})"
            ) from None
        return Pos(row, col), Tile(color, shape)

    def tiles(self, v: object, field: str, *, allow_empty: bool) -> Placement:
        items = self.arr(v, field)
        if not items and not allow_empty:
            raise self.fail(field, "no tiles (a placement lays at least one)")
        seen: dict[Pos, int] = {}
        out: list[tuple[Pos, Tile]] = []
        for i, item in enumerate(items):
            p, t = self.tile(item, f"{field}[{i}]")
            if p in seen:
                raise self.fail(
                    f"{field}[{i}]", f"cell ({p.row},{p.col}) already given at {field}[{seen[p]}]"
                )
            seen[p] = i
            out.append((p, t))
        return Placement(tuple(out))

    def turn(self, v: object, field: str, n_players: int) -> Event:
        d = self.obj(v, field)
        if "player" not in d:
            raise self.fail(f"{field}.player", "missing")
        player = self.integer(d["player"], f"{field}.player", 0, n_players - 1)
        kinds = [k for k in ("place", "exchange", "pass", "review") if k in d]
        if len(kinds) != 1:
            got = ", ".join(kinds) if kinds else "none"
            raise self.fail(
                field, f"a turn has exactly one of place, exchange, pass, review (got {got})"
            )
        kind = kinds[0]
        if kind == "place":
            tiles = self.tiles(d["place"], f"{field}.place", allow_empty=False)
            out = d.get("out")
            if out is not None and not isinstance(out, bool):
                raise self.fail(f"{field}.out", f"expected true or false, got {_kind(out)}")
            return Place(player, tiles, out)
        if kind == "exchange":
            count = self.integer(d["exchange"], f"{field}.exchange", 0, 108)
            return Exchange(player, count)
        if kind == "pass":
            if d["pass"] is not True:
                raise self.fail(f"{field}.pass", f"expected true, got {_kind(d['pass'])}")
            return Pass(player)
        r = self.obj(d["review"], f"{field}.review")
        reason = self.string(r.get("reason", ""), f"{field}.review.reason")
        seen = self.tiles(r.get("seen", []), f"{field}.review.seen", allow_empty=True)
        cands = tuple(
            self.tiles(c, f"{field}.review.candidates[{i}]", allow_empty=True)
            for i, c in enumerate(self.arr(r.get("candidates", []), f"{field}.review.candidates"))
        )
        frame = r.get("frame")
        if frame is not None:
            frame = self.integer(frame, f"{field}.review.frame", 0, 10**12)
        splits = []
        for i, pair in enumerate(self.arr(r.get("splits", []), f"{field}.review.splits")):
            where = f"{field}.review.splits[{i}]"
            pair = self.arr(pair, where)
            if len(pair) != 2:
                raise self.fail(where, f"expected two turns' tiles, got {len(pair)}")
            splits.append(
                (
                    self.tiles(pair[0], f"{where}[0]", allow_empty=False),
                    self.tiles(pair[1], f"{where}[1]", allow_empty=False),
                )
            )
        return Review(player, reason, seen, cands, frame, tuple(splits))


def _kind(v: object) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return f"number {v!r}"
    if isinstance(v, str):
        return f"string {v[:40]!r}"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def load_record(
    record: str | os.PathLike[str] | Mapping[str, Any] | object, source: str | None = None
) -> Game:
    """A :class:`~scorer.game.Game` from a record file path, JSON text, or parsed dict.

    Args:
        record: a path (``str`` or ``PathLike``), JSON text (a ``str`` starting with ``{``),
            or the parsed object.
        source: the name used in error messages (default: the file name, else ``"record"``).

    Raises:
        RecordError: unreadable file, malformed JSON, or any field that is missing, of the wrong
            type, or holds an unknown value; the message names the source and the field.
    """
    if not isinstance(record, str | os.PathLike):
        data: object = record  # parsed JSON (anything but an object is reported below)
        src = source or "record"
    else:
        text_in = isinstance(record, str) and record.lstrip().startswith(("{", "["))
        if text_in:
            src = source or "record"
            text = str(record)
        else:
            path = Path(record)
            src = source or str(path)
            try:
                raw = path.read_bytes()
            except OSError as e:
                raise RecordError(src, "", f"cannot read file: {e.strerror or e}") from None
            except ValueError as e:  # a name no file can have (an embedded NUL byte)
                raise RecordError(src, "", f"cannot read file: {e}") from None
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError as e:
                raise RecordError(src, "", f"not UTF-8 text (byte {e.start})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(
                src, "", f"malformed JSON at line {e.lineno} column {e.colno}: {e.msg}"
            ) from None
        except RecursionError:
            raise RecordError(src, "", "malformed JSON: nested too deeply") from None
    return _from_data(data, src)


def _from_data(data: object, src: str) -> Game:
    rd = _Reader(src, KNOWN_COLORS)
    d = rd.obj(data, "")
    if "format" not in d:
        raise rd.fail("format", f"missing (expected {FORMAT!r})")
    if d["format"] != FORMAT:
        raise rd.fail("format", f"unsupported format {d['format']!r} (expected {FORMAT!r})")
    game_kind = d.get("game", "qwirkle")
    if game_kind != "qwirkle":
        raise rd.fail("game", f"unsupported game {game_kind!r} (expected 'qwirkle')")
    variant = d.get("variant", "standard")
    if variant not in VARIANTS:
        raise rd.fail("variant", f"unknown variant {variant!r} (expected standard or extra)")
    tie_break = d.get("tie_break", "oldest")
    if tie_break not in TIE_BREAKS:
        raise rd.fail("tie_break", f"unknown tie-break {tie_break!r} (expected youngest or oldest)")
    colors: tuple[str, ...] = CLASSIC_COLORS
    if "colors" in d:
        cl = rd.arr(d["colors"], "colors")
        names = []
        for i, c in enumerate(cl):
            name = rd.string(c, f"colors[{i}]")
            if not name or name != name.lower() or not name[0].isalpha():
                raise rd.fail(f"colors[{i}]", f"invalid colour name {name!r}")
            names.append(name)
        if len(set(names)) != 6:
            raise rd.fail("colors", f"expected 6 different colour names, got {len(set(names))}")
        colors = tuple(names)
        rd.colors = colors
    if "players" not in d:
        raise rd.fail("players", "missing")
    players_raw = rd.arr(d["players"], "players")
    if not 1 <= len(players_raw) <= MAX_PLAYERS:
        raise rd.fail("players", f"expected 1 to {MAX_PLAYERS} players, got {len(players_raw)}")
    players = tuple(rd.string(p, f"players[{i}]") for i, p in enumerate(players_raw))
    board = Board(rd.tiles(d.get("board", []), "board", allow_empty=True).tiles)
    turns_raw = rd.arr(d.get("turns", []), "turns")
    events = tuple(rd.turn(t, f"turns[{i}]", len(players)) for i, t in enumerate(turns_raw))
    if "colors" not in d:
        colors = _palette_of(board, events)
    return Game(
        players=players,
        variant=cast(Variant, variant),
        setup=board,
        events=events,
        tie_break=cast(TieBreak, tie_break),
        colors=colors,
    )


def _palette_of(board: Board, events: Sequence[Event]) -> tuple[str, ...]:
    """The six colours of a record that names no palette: the classic set, with any other
    built-in colour the tiles use (e.g. Qwirkle Connect's white) taking the place of a classic
    colour the tiles never use. More than six colours in use (a misread) keep the classic set."""
    used: set[str] = {t.color for t in board.values()}
    for e in events:
        if isinstance(e, Place):
            used.update(t.color for _, t in e.tiles)
    others = sorted(used - set(CLASSIC_COLORS))
    if not others or len(used) > len(CLASSIC_COLORS):
        return CLASSIC_COLORS
    unused = [c for c in reversed(CLASSIC_COLORS) if c not in used]
    swap = dict(zip(unused[: len(others)], others, strict=True))
    return tuple(swap.get(c, c) for c in CLASSIC_COLORS)


# --------------------------------------------------------------------------- writing


def tile_json(pos: tuple[int, int], tile: Tile) -> dict[str, Any]:
    """``{"row", "col", "color", "shape"}`` for one tile (INTERFACES.md "Vocabulary")."""
    return {"row": int(pos[0]), "col": int(pos[1]), "color": tile.color, "shape": tile.shape.value}


def _tiles_json(p: Placement) -> list[dict[str, Any]]:
    return [tile_json(pos, t) for pos, t in p.tiles]


def event_json(e: Event) -> dict[str, Any]:
    """One event as a record turn."""
    if isinstance(e, Place):
        d: dict[str, Any] = {"player": e.player, "place": _tiles_json(e.tiles)}
        if e.out is not None:
            d["out"] = e.out
        return d
    if isinstance(e, Exchange):
        return {"player": e.player, "exchange": e.count}
    if isinstance(e, Pass):
        return {"player": e.player, "pass": True}
    review: dict[str, Any] = {
        "reason": e.reason,
        "seen": _tiles_json(e.seen),
        "candidates": [_tiles_json(c) for c in e.candidates],
    }
    if e.frame is not None:
        review["frame"] = e.frame
    if e.splits:
        review["splits"] = [[_tiles_json(a), _tiles_json(b)] for a, b in e.splits]
    return {"player": e.player, "review": review}


def dump_record(game: Game) -> dict[str, Any]:
    """The game as a ``tabletally-game/1`` dict (``json.dumps`` it to write a file).

    ``load_record(dump_record(g)) == g`` for every game.
    """
    d: dict[str, Any] = {
        "format": FORMAT,
        "game": "qwirkle",
        "variant": game.variant,
        "players": list(game.players),
        "tie_break": game.tie_break,
    }
    if tuple(game.colors) != CLASSIC_COLORS:
        d["colors"] = list(game.colors)
    d["board"] = [tile_json(p, t) for p, t in sorted(game.setup.items())]
    d["turns"] = [event_json(e) for e in game.events]
    return d


def result_json(game: Game, result: GameResult) -> dict[str, Any]:
    """The ``tabletally score --json`` object for one game (INTERFACES.md "CLI").

    Keys promised there: ``players``, ``turns`` (each ``player``, ``points``, ``legal``,
    ``reason`` (``null`` or the reasons joined by ``"; "``), ``lines``, ``qwirkle``), ``totals``,
    ``winners``. Added: per turn ``index``, ``kind``, ``tiles``, ``out``, ``bonus``,
    ``reasons``, ``codes``; and ``finished``, ``end_reason``, ``bag``, ``hands``,
    ``next_player``, ``variant``. Each line is ``{"direction": "row"|"col", "length",
    "points", "qwirkle", "cells": [[row, col], ...], "tiles": ["Rs", ...]}``.
    """
    turns = []
    for t in result.turns:
        e = t.event
        lines = []
        if t.score is not None and t.legal:
            for ln in t.score.lines:
                lines.append(
                    {
                        "direction": ln.direction,
                        "length": ln.length,
                        "points": ln.points,
                        "qwirkle": ln.qwirkle,
                        "cells": [[p.row, p.col] for p in ln.cells],
                        "tiles": [str(x) for x in ln.tiles],
                    }
                )
        if isinstance(e, Place):
            tiles = _tiles_json(e.tiles)
        elif isinstance(e, Review):
            tiles = _tiles_json(e.seen)
        else:
            tiles = []
        turn: dict[str, Any] = {
            "index": t.index,
            "player": t.player,
            "kind": t.kind,
            "points": t.points,
            "legal": t.legal,
            "reason": "; ".join(t.reasons) if t.reasons else None,
            "reasons": list(t.reasons),
            "codes": [v.code for v in t.violations],
            "lines": lines,
            "qwirkle": bool(t.legal and t.score is not None and t.score.qwirkle),
            "tiles": tiles,
            "out": t.out,
            "bonus": t.bonus,
        }
        if isinstance(e, Exchange):
            turn["count"] = e.count
        turns.append(turn)
    return {
        "players": list(game.players),
        "variant": game.variant,
        "turns": turns,
        "totals": list(result.totals),
        "winners": list(result.winners),
        "finished": result.finished,
        "end_reason": result.end_reason,
        "bag": result.bag,
        "hands": list(result.hands),
        "next_player": result.next_player,
    }
