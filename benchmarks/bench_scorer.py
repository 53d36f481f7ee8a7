"""Scorer speed (issue 2): validate+score one placement, all legal placements of a 6-tile hand on
a late-game board, and replaying a complete game record.

Targets (issue 2, "Tests and numbers"): validate+score median <= 50 us; legal placements of a
6-tile hand on an 80+ tile board median <= 50 ms; replaying a full game record <= 20 ms.
Run: ``python -m benchmarks scorer`` (or ``python -m benchmarks.bench_scorer [--quick]``).
Games come from :func:`scorer.moves.random_game` with fixed seeds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from typing import Any

from scorer.game import Place, replay
from scorer.infer import infer_move
from scorer.model import Board, classic_kinds
from scorer.moves import legal_placements, random_game
from scorer.record import dump_record, load_record
from scorer.rules import score_placement, validate_placement

TARGET_VALIDATE_US = 50.0
TARGET_SEARCH_MS = 50.0
TARGET_REPLAY_MS = 20.0


def _median_us(fn: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(prog="bench_scorer")
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = ap.parse_args(argv or [])
    reps = 3 if args.quick else 10
    seeds = range(3) if args.quick else range(6)
    games = [random_game(s, 2) for s in seeds]

    # 1. validate + score each recorded placement on the board it was played on
    per_call: list[float] = []
    for g in games:
        board = Board()
        for ev in g.events:
            if isinstance(ev, Place):
                b, p = board, ev.tiles

                def one(b: Board = b, p: Any = p) -> None:
                    validate_placement(b, p)
                    score_placement(b, p)

                per_call.append(_median_us(one, reps))
                board = board.with_tiles(p.tiles)
    # 2. all legal placements of random 6-tile hands on late boards (80+ tiles)
    rng = random.Random(0)
    search_ms: list[float] = []
    counts: list[int] = []
    late_sizes: list[int] = []
    for g in games:
        board = Board()
        for ev in g.events:
            if isinstance(ev, Place):
                board = board.with_tiles(ev.tiles.tiles)
            if len(board) >= 80:
                break
        late_sizes.append(len(board))
        left = Counter({t: 3 for t in classic_kinds()})
        left.subtract(board.values())
        unseen = list(left.elements())  # the tiles still in hands or the bag
        for _ in range(reps):
            hand = rng.sample(unseen, 6)
            t0 = time.perf_counter()
            counts.append(sum(1 for _ in legal_placements(board, hand)))
            search_ms.append((time.perf_counter() - t0) * 1e3)
    # 2b. infer the last move on a late board seen rotated and shifted, 3 readings per cell
    infer_ms: list[float] = []
    kinds = classic_kinds()
    for g in games:
        board = Board()
        prev = board
        for ev in g.events:
            if isinstance(ev, Place):
                prev, board = board, board.with_tiles(ev.tiles.tiles)
            if len(board) >= 80:
                break
        cam = board.rotated(1).translated(3, -4)
        after = {p: (t, rng.choice(kinds), rng.choice(kinds)) for p, t in cam.items()}
        infer_ms.append(
            _median_us(lambda prev=prev, after=after: infer_move(prev, after), reps) / 1e3
        )
    # 3. replay complete games (and load their record first)
    replay_ms: list[float] = []
    load_replay_ms: list[float] = []
    tiles_placed: list[int] = []
    for g in games:
        rec = json.dumps(dump_record(g))
        tiles_placed.append(len(replay(g).board))
        replay_ms.append(_median_us(lambda g=g: replay(g), reps) / 1e3)
        load_replay_ms.append(_median_us(lambda rec=rec: replay(load_record(rec)), reps) / 1e3)

    out = {
        "validate_score_us_median": round(statistics.median(per_call), 1),
        "validate_score_us_p90": round(sorted(per_call)[int(0.9 * len(per_call))], 1),
        "validate_score_placements": len(per_call),
        "legal_placements_ms_median": round(statistics.median(search_ms), 2),
        "legal_placements_ms_max": round(max(search_ms), 2),
        "legal_placements_found_median": statistics.median(counts),
        "late_board_tiles": late_sizes,
        "infer_move_ms_median": round(statistics.median(infer_ms), 2),
        "replay_ms_median": round(statistics.median(replay_ms), 2),
        "load_and_replay_ms_median": round(statistics.median(load_replay_ms), 2),
        "replayed_game_tiles": tiles_placed,
        "replayed_game_turns": [len(g.events) for g in games],
        "targets": {
            "validate_score_us": TARGET_VALIDATE_US,
            "legal_placements_ms": TARGET_SEARCH_MS,
            "replay_ms": TARGET_REPLAY_MS,
        },
        "load_average": os.getloadavg()[0],
    }
    out["pass"] = (
        statistics.median(per_call) <= TARGET_VALIDATE_US
        and statistics.median(search_ms) <= TARGET_SEARCH_MS
        and statistics.median(replay_ms) <= TARGET_REPLAY_MS
    )
    return out


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:]), indent=2))
    sys.exit(0)
