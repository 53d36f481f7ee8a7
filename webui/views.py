"""View models: a game and its replay turned into the plain dicts the pages and the JSON API show.

Every page has a JSON twin (STYLE.md "Web"), so each page is rendered from exactly the dict its
twin returns: :func:`live_view` (Live page, ``/api/games/<id>/live``), :func:`log_view` (Move
log, ``/api/games/<id>/log``), :func:`summary_view` (End of game, ``/api/games/<id>/summary``).
The scores themselves always come from :func:`scorer.game.replay` of the event log (STYLE.md
"Model and rules": the move log is the source of truth).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorer.game import Event, Exchange, Game, GameResult, Pass, Place, Review, TurnResult
from scorer.model import Placement, Pos, Shape, Tile
from scorer.rules import board_violations
from webui.drawing import (
    SHAPE_GLYPHS,
    BoardPicture,
    ScoredLineMark,
    color_hex,
    color_letter,
    line_phrase,
)

__all__ = [
    "board_picture",
    "live_view",
    "log_view",
    "summary_view",
    "tile_json",
    "turn_label",
]

JSON = dict[str, Any]

#: Camera health when no camera follows the game.
NO_CAMERA: JSON = {
    "state": "none",
    "message": "no camera on this game (start tabletally serve --camera SRC, or give a camera "
    "source when creating a game); moves can be entered in the Move log",
}


def tile_json(tile: Tile, pos: Pos | None = None) -> JSON:
    """A tile as INTERFACES.md writes it (``row, col, color, shape``) plus display hints:
    ``letter`` (colour letter), ``glyph`` (shape glyph), ``hex`` (display colour), ``text``
    (notation, e.g. ``"Rx"``)."""
    out: JSON = {}
    if pos is not None:
        out["row"], out["col"] = pos.row, pos.col
    out.update(
        color=tile.color,
        shape=tile.shape.value,
        letter=color_letter(tile.color),
        glyph=SHAPE_GLYPHS[tile.shape],
        hex=color_hex(tile.color),
        text=str(tile),
    )
    return out


def placement_json(placement: Placement) -> list[JSON]:
    return [tile_json(t, p) for p, t in placement]


def event_kind(event: Event) -> str:
    if isinstance(event, Place):
        return "place"
    if isinstance(event, Exchange):
        return "exchange"
    if isinstance(event, Pass):
        return "pass"
    if isinstance(event, Review):
        return "review"
    return type(event).__name__.lower()


def turn_label(turn: TurnResult, event: Event) -> str:
    """What a turn scored, in words: ``"row of 4 = 4, column of 6 = 12, Qwirkle!"``.

    Illegal placements say why; exchanges, passes and reviews say what happened.
    """
    if isinstance(event, Review):
        return f"needs review: {event.reason}"
    if isinstance(event, Exchange | Pass):
        did = (
            f"exchanged {event.count} tile{'s' if event.count != 1 else ''}"
            if isinstance(event, Exchange)
            else "passed"
        )
        return did if turn.legal else f"{did} (not allowed: {'; '.join(turn.reasons)})"
    if not turn.legal:
        return "illegal, 0 points: " + "; ".join(turn.reasons or ["not a legal placement"])
    phrases: list[str] = []
    if turn.score is not None:
        phrases = [
            line_phrase(ln.direction, ln.length, ln.points, ln.qwirkle) for ln in turn.score.lines
        ]
    if not phrases and turn.points:
        phrases = ["single tile = 1"]
    if turn.bonus:
        phrases.append(f"went out +{turn.bonus}")
    return ", ".join(phrases) or "0 points"


def _turn_json(
    game: Game, result: GameResult, k: int, running: Sequence[int] | None = None
) -> JSON:
    turn = result.turns[k]
    event = game.events[k]
    out: JSON = {
        "index": k,
        "number": k + 1,
        "player": turn.player,
        "name": game.players[turn.player] if 0 <= turn.player < len(game.players) else "?",
        "kind": event_kind(event),
        "points": turn.points,
        "legal": turn.legal,
        "reasons": list(turn.reasons),
        "label": turn_label(turn, event),
        "qwirkle": bool(turn.score is not None and turn.score.qwirkle),
        "out": bool(turn.out),
        "bonus": turn.bonus,
        "tiles": [],
    }
    if isinstance(event, Place):
        out["tiles"] = placement_json(event.tiles)
    elif isinstance(event, Exchange):
        out["count"] = event.count
    elif isinstance(event, Review):
        out["tiles"] = placement_json(event.seen)
        out["reason"] = event.reason
        out["candidates"] = [placement_json(c) for c in event.candidates]
        out["frame"] = event.frame
        # two-turn readings: this turn's player lays the first part, the next seat the second
        n = len(game.players)
        out["splits"] = [
            {
                "first": placement_json(a),
                "second": placement_json(b),
                "names": [game.players[event.player % n], game.players[(event.player + 1) % n]],
            }
            for a, b in event.splits
        ]
    if running is not None:
        out["totals"] = list(running)
    return out


def board_picture(game: Game, result: GameResult, upto: int | None = None) -> BoardPicture:
    """The board after the log, with the last placement (at or before ``upto``) highlighted
    and its scored lines labelled with their points; impossible cells are flagged."""
    last_k = None
    events = game.events if upto is None else game.events[: upto + 1]
    for k in range(len(events) - 1, -1, -1):
        if isinstance(events[k], Place):
            last_k = k
            break
    last: frozenset[Pos] = frozenset()
    lines: tuple[ScoredLineMark, ...] = ()
    flagged: set[Pos] = set()
    if last_k is not None:
        ev = game.events[last_k]
        assert isinstance(ev, Place)
        last = frozenset(ev.tiles.positions)
        tr = result.turns[last_k]
        if tr.score is not None and tr.legal:
            lines = tuple(
                ScoredLineMark(tuple(ln.cells), str(ln.points) + ("!" if ln.qwirkle else ""))
                for ln in tr.score.lines
            )
        if not tr.legal:
            flagged |= set(last)
    for v in board_violations(result.board):
        flagged |= set(v.cells)
    return BoardPicture(result.board, last, lines, frozenset(flagged))


def _unseen_json(unseen: Mapping[Tile, int], palette: Sequence[str]) -> list[JSON]:
    order = {c: i for i, c in enumerate(palette)}
    shapes = list(Shape)
    tiles = sorted(
        (t for t, n in unseen.items() if n > 0),
        key=lambda t: (order.get(t.color, len(order)), t.color, shapes.index(t.shape)),
    )
    return [dict(tile_json(t), count=int(unseen[t])) for t in tiles]


def _players_json(game: Game, result: GameResult) -> list[JSON]:
    qwirkles = [0] * len(game.players)
    turns = [0] * len(game.players)
    for tr in result.turns:
        if 0 <= tr.player < len(game.players):
            turns[tr.player] += 1
            if tr.score is not None and tr.legal:
                qwirkles[tr.player] += sum(1 for ln in tr.score.lines if ln.qwirkle)
    return [
        {
            "index": i,
            "name": name,
            "total": result.totals[i],
            "next": (i == result.next_player and not result.finished),
            "winner": (result.finished and i in result.winners),
            "leader": i in result.winners,
            "qwirkles": qwirkles[i],
            "turns": turns[i],
            "hand": result.hands[i] if i < len(result.hands) else None,
        }
        for i, name in enumerate(game.players)
    ]


def _header(game_id: int, status: str, game: Game, result: GameResult) -> JSON:
    return {
        "id": game_id,
        "status": status,
        "variant": game.variant,
        "players": _players_json(game, result),
        "finished": result.finished,
        "end_reason": result.end_reason,
        "winners": list(result.winners),
        "next_player": result.next_player,
        "bag": result.bag,
        "turn_count": len(result.turns),
    }


def live_view(
    game_id: int,
    status: str,
    game: Game,
    result: GameResult,
    camera: Mapping[str, Any] | None = None,
) -> JSON:
    """Everything the Live page shows: scoreboard, last move with its line labels, the board's
    tiles, review queue, unseen tiles (108 minus the table) and bag, camera health."""
    out = _header(game_id, status, game, result)
    last = _turn_json(game, result, len(result.turns) - 1) if result.turns else None
    pic = board_picture(game, result)
    out.update(
        last_turn=last,
        board=[
            dict(tile_json(t, p), last=(p in pic.last), flagged=(p in pic.flagged))
            for p, t in sorted(result.board.items())
        ],
        review=[
            _turn_json(game, result, k)
            for k, ev in enumerate(game.events)
            if isinstance(ev, Review)
        ],
        unseen=_unseen_json(result.unseen, list(game.colors)),
        unseen_total=int(sum(result.unseen.values())),
        camera=dict(camera) if camera is not None else dict(NO_CAMERA),
    )
    return out


def log_view(game_id: int, status: str, game: Game, result: GameResult) -> JSON:
    """The Move log: every turn with its tiles, points, label and running totals."""
    out = _header(game_id, status, game, result)
    running = [0] * len(game.players)
    turns = []
    for k, tr in enumerate(result.turns):
        if 0 <= tr.player < len(running):
            running[tr.player] += tr.points
        turns.append(_turn_json(game, result, k, running))
    out["turns"] = turns
    out["setup"] = [tile_json(t, p) for p, t in sorted(game.setup.items())]
    return out


def summary_view(game_id: int, status: str, game: Game, result: GameResult) -> JSON:
    """End of game: winners, totals, best turn, Qwirkles per player."""
    out = _header(game_id, status, game, result)
    best = None
    for k, tr in enumerate(result.turns):
        if best is None or tr.points > result.turns[best].points:
            best = k
    out["best_turn"] = _turn_json(game, result, best) if best is not None else None
    out["winner_names"] = [game.players[i] for i in result.winners]
    out["qwirkles"] = sum(p["qwirkles"] for p in out["players"])
    return out
