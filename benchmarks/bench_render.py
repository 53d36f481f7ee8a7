"""Renderer speed: how long :func:`vision.render.render` and :meth:`Scene.frame` take.

Boards are positions of random legal games (:func:`scorer.moves.random_game`) with about 100
tiles (or fewer for the small sizes). For each image size and condition set the benchmark
reports the median wall time and the median CPU time (``time.process_time``, all threads) of
``repeats`` renders with different seeds, plus the 1-minute load average, because the machine
is shared (2 cores) and wall times rise with the load.

Target (task brief): a 1080p frame with ~100 tiles "well under 1 s".
``python -m benchmarks render`` (or ``python -m benchmarks.bench_render --quick``).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from typing import Any

import numpy as np

from scorer.game import replay
from scorer.model import Board
from scorer.moves import random_game
from vision.render import PRESETS, Conditions, Scene, render

SIZES: dict[str, tuple[int, int]] = {
    "640x480": (640, 480),
    "1280x720": (1280, 720),
    "1920x1080": (1920, 1080),
    "4000x3000": (4000, 3000),
}


def _board(seed: int, tiles: int) -> Board:
    best = Board()
    for turns in range(1, 200):
        b = replay(random_game(seed, 2, turns=turns)).board
        if len(b) > tiles:
            break
        best = b
    return best


def _time(fn: Any, repeats: int) -> tuple[float, float]:
    walls, cpus = [], []
    for k in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        fn(k)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus)


def main(argv: list[str]) -> dict[str, Any]:
    ap = argparse.ArgumentParser(prog="bench_render", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats, no 12 MP")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    repeats = 2 if args.quick else args.repeats
    board = _board(7, 100)
    hard = [Conditions.sample(np.random.default_rng(s), "hard") for s in range(repeats)]
    results: dict[str, Any] = {
        "tiles": len(board),
        "repeats": repeats,
        "load_1min_before": round(os.getloadavg()[0], 2),
    }
    for name, size in SIZES.items():
        if args.quick and name == "4000x3000":
            continue
        for label, cond_of in (
            ("easy", lambda k: PRESETS["easy"]),
            ("hand", lambda k: PRESETS["hand"]),
            ("hard", lambda k: hard[k % len(hard)]),
        ):
            wall, cpu = _time(
                lambda k, cond_of=cond_of, size=size: render(board, cond_of(k), 100 + k, size=size),
                repeats,
            )
            results[f"render_{name}_{label}_s"] = {"wall": round(wall, 3), "cpu": round(cpu, 3)}
    # video: one scene, many frames (table texture and camera made once)
    scene = Scene(PRESETS["easy"], 3, size=(1920, 1080), span=14)
    wall, cpu = _time(lambda k: scene.frame(board, t=float(k)), repeats)
    results["scene_frame_1920x1080_easy_s"] = {"wall": round(wall, 3), "cpu": round(cpu, 3)}
    wall, cpu = _time(lambda k: Scene(PRESETS["easy"], k, size=(1920, 1080), span=14), repeats)
    results["scene_setup_1920x1080_s"] = {"wall": round(wall, 3), "cpu": round(cpu, 3)}
    results["load_1min_after"] = round(os.getloadavg()[0], 2)
    # ru_maxrss is in KiB on Linux: the peak over the run (the 12 MP renders dominate)
    results["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return results


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(main(sys.argv[1:]), indent=2))
