"""The detector on an independently written renderer: ``python -m benchmarks heldout``.

:mod:`benchmarks.independent_render` draws Qwirkle tables by its own model (written without
reading :mod:`vision.render`, the detector or its tests): its own symbol proportions, paints,
tables, lights, hands and camera. The detector's numbers on it show how much of the accuracy on
:mod:`vision.render`'s scenes carries over to pictures nobody tuned for. It is a check, never a
tuning set.

Seeds 0-119 were looked at in session 38 (they showed wide criss-crosses read as squares, which
``ShapeSettings.star4_wide`` answers); the default range here, 1000 onwards, was not looked at
before that change. Scored as ``bench_vision`` scores (:func:`vision.evaluate.score_detection`):
recall and precision of tiles, colour+shape identity of the matched ones, boards exact; overall,
by table, by image size and with or without a hand; the confusions; the median detect time.

usage: python -m benchmarks.bench_heldout [--first N] [--scenes N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from types import SimpleNamespace
from typing import Any

from benchmarks.independent_render import conditions, render_scene
from scorer.model import Pos, Shape, Tile
from vision.detect import detect
from vision.evaluate import DetectionScore, score_detection


def _truth(rows: list[dict[str, Any]]) -> list[SimpleNamespace]:
    """The renderer's truth dicts as :func:`score_detection` reads truth tiles."""
    return [
        SimpleNamespace(
            pos=Pos(int(t["row"]), int(t["col"])),
            tile=Tile(str(t["color"]), Shape(t["shape"])),
            center_xy=tuple(t["center_xy"]),
            visible=bool(t["visible"]),
            covered=float(t["covered"]),
        )
        for t in rows
    ]


def percent_rates(s: DetectionScore) -> dict[str, Any]:
    """Scenes, tiles and the rates of ``s`` in per cent (boards exact to 0.1, the rest 0.01)."""
    return {
        "scenes": s.images,
        "tiles": s.visible,
        "recall": round(100 * s.recall, 2),
        "precision": round(100 * s.precision, 2),
        "identity": round(100 * s.identity, 2),
        "boards_exact": round(100 * s.exact_rate, 1),
    }


def run(first: int, scenes: int) -> dict[str, Any]:
    total = DetectionScore()
    by: dict[str, DetectionScore] = defaultdict(DetectionScore)
    times: list[float] = []
    worst: list[tuple[int, int, int, int]] = []
    for seed in range(first, first + scenes):
        image, truth, pitch = render_scene(seed)
        t0 = time.perf_counter()
        obs = detect(image)
        times.append(time.perf_counter() - t0)
        sc = score_detection(obs, _truth(truth), pitch)  # type: ignore[arg-type]
        total = total + sc
        cond = conditions(seed)
        for key in ("table", "size", "hand"):
            by[f"{key}={cond[key]}"] = by[f"{key}={cond[key]}"] + sc
        missed = sc.visible - sc.matched_visible
        false = sc.detected - sc.correct_detections
        misread = sc.matched - sc.identity_ok
        if missed or false or misread:
            worst.append((seed, missed, false, misread))
    worst.sort(key=lambda w: -sum(w[1:]))
    return {
        "seeds": [first, first + scenes - 1],
        "all": percent_rates(total),
        "by_condition": {k: percent_rates(v) for k, v in sorted(by.items())},
        "confusions": [
            [f"{a} -> {b}", n] for (a, b), n in Counter(total.confusions).most_common(12)
        ],
        "worst_scenes (seed, missed, false, misread)": worst[:10],
        "median_detect_ms": round(1000 * statistics.median(times), 1),
    }


def main(argv: list[str]) -> dict[str, Any]:
    ap = argparse.ArgumentParser(prog="bench_heldout")
    ap.add_argument("--first", type=int, default=1000, help="first seed (default 1000)")
    ap.add_argument("--scenes", type=int, default=60, help="scenes (default 60)")
    a = ap.parse_args(argv)
    return run(a.first, a.scenes)


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:]), indent=2))
