"""``tabletally replay``: track a recorded game (a video file, a folder of photos or one photo)
and score it.

INTERFACES.md "CLI"::

    tabletally replay SOURCE [--players N | --names A,B,..] [--stills] [--setup first-frame]
                      [--profile FILE] [--json] [--record OUT.json]

- SOURCE: a video file, a folder of images (taken in name order) or one image;
- ``--stills``: every frame is a settled board (one photo per turn);
- ``--setup first-frame``: the tiles of the first settled board were on the table before
  tracking began (not a move); default: the game starts on an empty table;
- ``--json``: ``{"players", "turns": [{"player", "kind", "tiles", "points", "frame"}],
  "totals"}`` on stdout;
- ``--record OUT.json``: also write the game record (``tabletally-game/1``).

Extensions (optional flags): ``--db PATH`` tracks into a SQLite game store instead of memory —
re-running the same command after a crash resumes the game (frames already tracked are skipped,
no turn is stored twice); ``--first N`` names the seat who opened (default 1). A progress bar
goes to stderr (``--quiet`` hides it). Exit codes: 0 done, 2 bad arguments or unusable input.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from webui.cli import CLIError

__all__ = ["register", "run", "turns_json"]


def register(subparsers: Any) -> None:
    """Add ``tabletally replay`` to the CLI (``webui.cli`` calls this)."""
    p = subparsers.add_parser(
        "replay",
        help="track a recorded game (video file or photo folder) and score it",
        description="Track a recorded game from a video file or a folder of photos (name "
        "order): detect the tiles in every frame, notice each settled move, score it.",
    )
    p.add_argument("source", metavar="SOURCE", help="video file, folder of images or one image")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--players", type=int, metavar="N", help="number of players (default 2)")
    who.add_argument("--names", metavar="A,B,..", help="player names in seat order")
    p.add_argument("--stills", action="store_true", help="every frame is a settled board")
    p.add_argument(
        "--setup",
        choices=["empty", "first-frame"],
        default="empty",
        help="first-frame: tiles in the first settled frame were already on the table",
    )
    p.add_argument("--profile", metavar="FILE", help="tile-set profile (palette) JSON")
    p.add_argument("--json", action="store_true", help="print the tracked game as JSON")
    p.add_argument("--record", metavar="OUT.json", help="write the game record to this file")
    p.add_argument("--db", metavar="PATH", help="track into this SQLite game store (resumable)")
    p.add_argument("--first", type=int, default=1, metavar="N", help="seat who opened (1-based)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def _players(args: argparse.Namespace) -> tuple[str, ...]:
    if args.names is not None:
        names = tuple(n.strip() for n in args.names.split(","))
        if not names or any(not n for n in names):
            raise CLIError(f"--names {args.names!r}: expected comma-separated non-empty names")
        if len(names) > 8:
            raise CLIError(f"--names: at most 8 players, got {len(names)}")
        return names
    n = 2 if args.players is None else args.players
    if not 1 <= n <= 8:
        raise CLIError(f"--players {n}: expected 1..8")
    return tuple(f"Player {i + 1}" for i in range(n))


def turns_json(game: Any, frames: list[int | None]) -> dict[str, Any]:
    """The ``replay --json`` object for ``game`` (frames: per event, the frame or None)."""
    from scorer.game import Exchange, Place, Review, replay
    from scorer.store import encode_event

    result = replay(game)
    turns = []
    for k, (ev, tr) in enumerate(zip(game.events, result.turns, strict=True)):
        tiles: list[dict[str, Any]] = []
        if isinstance(ev, Place):
            tiles = encode_event(ev)["place"]
        elif isinstance(ev, Review):
            tiles = encode_event(ev)["review"]["seen"]
        turn: dict[str, Any] = {
            "player": ev.player,
            "kind": tr.kind,
            "tiles": tiles,
            "points": tr.points,
            "frame": frames[k] if k < len(frames) else None,
        }
        if isinstance(ev, Exchange):
            turn["count"] = ev.count
        if isinstance(ev, Review):
            turn["reason"] = ev.reason
            turn["candidates"] = encode_event(ev)["review"]["candidates"]
        elif not tr.legal:
            turn["reason"] = "; ".join(tr.reasons)
        turns.append(turn)
    return {"players": list(game.players), "turns": turns, "totals": list(result.totals)}


def run(args: argparse.Namespace) -> int:
    """Run ``tabletally replay`` (see the module docstring)."""
    from tqdm import tqdm

    from scorer.game import Game, replay
    from scorer.record import dump_record
    from scorer.store import GameStore, StoreError
    from vision.live import FramePipeline
    from vision.sources import FrameSource, SourceError, SourceSettings, source_kind
    from vision.tracking import GameSink, MemorySink, StoreSink, Tracker, TrackerSettings

    players = _players(args)
    if not 1 <= args.first <= len(players):
        raise CLIError(f"--first {args.first}: expected 1..{len(players)}")
    if source_kind(args.source) not in ("file", "folder", "image"):
        raise CLIError(f"{args.source}: replay reads a video file, an image folder or an image")
    try:
        source = FrameSource(args.source, SourceSettings())
    except SourceError as e:
        raise CLIError(str(e)) from None
    profile = None
    if args.profile:
        from calibration.profile import ProfileError, load_profile

        try:
            profile = load_profile(args.profile)
        except (ProfileError, OSError) as e:
            raise CLIError(f"--profile {args.profile}: {e}") from None
    settings = TrackerSettings(stills=args.stills, setup_first_frame=args.setup == "first-frame")

    store = None
    game_id = None
    skip_until = -1
    sink: GameSink
    key = os.path.abspath(args.source)
    if args.db:
        try:
            store = GameStore(args.db)
        except StoreError as e:
            raise CLIError(str(e)) from None
        # resume the game this command was tracking, if any
        for info in store.list_games():
            if info.meta.get("replay_source") == key and info.status == "active":
                if tuple(info.players) != players:
                    continue
                game_id = info.id
                frames = [e.frame for e in store.log(game_id) if e.source == "camera"]
                skip_until = max((f for f in frames if f is not None), default=-1) + 1
                break
        if game_id is None:
            game_id = store.create_game(players, meta={"replay_source": key})
        sink = StoreSink(store, game_id, key_prefix=key)
    else:
        sink = MemorySink(Game(players=players))
    tracker = Tracker(sink, settings, first_player=args.first - 1)
    pipeline = FramePipeline(tracker, profile=profile, store=store, game_id=game_id)
    bar = tqdm(
        total=source.frame_count, desc=f"replay {Path(args.source).name}", unit="frame",
        file=sys.stderr, disable=args.quiet or None, leave=False,
    )  # fmt: skip
    try:
        with source, bar:
            for frame in source:
                bar.update(1)
                if frame.index < skip_until:
                    continue
                for ev in pipeline.process(frame, use_motion=not args.stills):
                    if ev.kind in ("move", "review", "setup") and not args.json:
                        bar.write(f"frame {ev.frame_index}: {ev.message}", file=sys.stderr)
            tracker.flush()  # the last still period's open questions
            skipped = source.health().skipped
    except SourceError as e:
        raise CLIError(str(e), 1) from None
    game = sink.game()
    if store is not None and game_id is not None:
        frames_by_event = _frames_from_store(store, game_id)
        store.set_status(game_id, "finished")
    else:
        frames_by_event = list(getattr(sink, "frames", []))
    doc = turns_json(game, frames_by_event)
    if args.record:
        try:
            Path(args.record).write_text(json.dumps(dump_record(game), indent=1) + "\n")
        except OSError as e:
            raise CLIError(f"--record {args.record}: {e.strerror or e}", 1) from None
    if args.json:
        print(json.dumps(doc))
    else:
        result = replay(game)
        for t, tr in zip(doc["turns"], result.turns, strict=True):
            what = " ".join(f"{d['color']} {d['shape']}@{d['row']},{d['col']}" for d in t["tiles"])
            flag = "" if tr.legal else f"  [{'; '.join(tr.reasons)}]"
            print(f"{players[t['player']]:>10}  {t['kind']:<8} {t['points']:>3}  {what}{flag}")
        print(
            "totals: " + ", ".join(f"{p} {s}" for p, s in zip(players, result.totals, strict=True))
        )
        if skipped:
            print("skipped frames: " + ", ".join(f"{k} {v}" for k, v in sorted(skipped.items())))
    if store is not None:
        store.close()
    return 0


def _frames_from_store(store: Any, game_id: int) -> list[int | None]:
    """Per event of the corrected game, the frame it was seen at (corrections applied)."""
    frames: list[int | None] = []
    for e in store.log(game_id):
        if e.op == "append":
            frames.append(e.frame)
        elif e.op == "insert":
            frames.insert(e.index, e.frame)
        elif e.op == "delete":
            del frames[e.index]
    return frames
