"""``tabletally score RECORD... [--json] [--board]``: score game records (INTERFACES.md "CLI").

By default a readable score sheet per record: every turn with the tiles in notation, its points
with the lines that made them (or why it was illegal), the totals and the winner(s). ``--json``
prints a JSON array with one :func:`scorer.record.result_json` object per record, in argument
order; a record that cannot be read gives ``{"record": path, "error": "..."}`` in its place.

Exit codes: 0 all scored; 1 some records failed, others were scored; 2 usage or format error
(every record failed). Errors are one line on stderr naming the file and the field.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from scorer.game import Exchange, Game, GameResult, Pass, Place, Review, replay
from scorer.record import RecordError, load_record, result_json

__all__ = ["format_sheet", "register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``score`` subcommand to the ``tabletally`` parser."""
    p = subparsers.add_parser(
        "score",
        help="score game records (tabletally-game/1) and print score sheets",
        description=(
            "Replay each game record by the Qwirkle rules and print a score sheet: turns, "
            "tiles in notation, points with their lines, totals and winner. Illegal turns are "
            "kept, flagged with the reason and score 0."
        ),
    )
    p.add_argument("records", nargs="+", metavar="RECORD", help="game record JSON file(s)")
    p.add_argument("--json", action="store_true", help="print a JSON array, one object per record")
    p.add_argument("--board", action="store_true", help="also print the final table")
    p.set_defaults(func=run)


def _who(game: Game, seat: int) -> str:
    return game.players[seat]


def format_sheet(game: Game, result: GameResult, title: str = "", board: bool = False) -> str:
    """The readable score sheet of one replayed game (plain text, one turn per line)."""
    names = game.players
    width = max(6, *(len(n) for n in names))
    head = f"{title} — " if title else ""
    out = [
        f"{head}Qwirkle ({game.variant}), {len(names)} player(s): {', '.join(names)}",
        f"{'#':>3}  {'player':<{width}}  {'move':<30} {'points':>6}  lines",
    ]
    for t in result.turns:
        e = t.event
        if isinstance(e, Place):
            move = str(e.tiles)
        elif isinstance(e, Exchange):
            move = f"exchange {e.count}"
        elif isinstance(e, Pass):
            move = "pass"
        else:
            assert isinstance(e, Review)
            move = f"review {e.seen}" if e.seen.tiles else "review"
        if t.legal and t.score is not None:
            why = t.score.explain()
            if t.bonus:
                why += f" + {t.bonus} (out)"
        elif t.legal:
            why = ""
        else:
            why = "ILLEGAL: " + "; ".join(t.reasons)
        out.append(
            f"{t.index + 1:>3}  {_who(game, t.player):<{width}}  {move:<30} {t.points:>6}  {why}"
        )
    out.append(
        "Totals: " + ", ".join(f"{n} {p}" for n, p in zip(names, result.totals, strict=True))
    )
    winners = " and ".join(names[i] for i in result.winners)
    if result.finished:
        how = "went out" if result.end_reason == "out" else "no tile can be placed"
        out.append(f"Winner: {winners} (game over: {how})")
    else:
        out.append(
            f"Leader: {winners} (game not finished; bag {result.bag}, "
            f"next: {names[result.next_player]})"
        )
    if board and len(result.board):
        out.append("Table:")
        out.extend("  " + line for line in result.board.to_ascii().splitlines())
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    """Score every record named in ``args.records``; see the module docstring for exit codes."""
    outputs: list[Any] = []
    errors: list[str] = []
    for path in args.records:
        try:
            game = load_record(path)
            result = replay(game)
        except RecordError as e:
            errors.append(str(e))
            outputs.append({"record": path, "error": str(e)})
            continue
        if args.json:
            obj = result_json(game, result)
            obj["record"] = path
            outputs.append(obj)
        else:
            outputs.append(format_sheet(game, result, title=path, board=args.board))
    for msg in errors:
        print(f"tabletally score: {msg}", file=sys.stderr)
    if len(errors) == len(args.records):
        return 2  # nothing scored: a format error (one line per record on stderr)
    if args.json:
        print(json.dumps(outputs, indent=2))
    else:
        print("\n\n".join(o for o in outputs if isinstance(o, str)))
    if not errors:
        return 0
    return 2 if len(errors) == len(args.records) else 1
