"""The detector on one table surface at a time: ``python -m benchmarks.bench_surface``.

``bench_vision`` draws every condition at once, so a surface that defeats the detector shows
only as a few bad scenes among hundreds; here legal boards (:func:`vision.evaluate.legal_board`,
30 tiles) lie on one named surface of :mod:`vision.render` under the easy preset, so what goes
wrong is the table's doing. Each ground colour given is read as its own row (``drawn``: the
renderer draws the ground from the seed). The default is the polka-dot cloth of session 39,
which :meth:`vision.render.Conditions.sample` never draws: on a near-black ground its dots are
symbol-sized discs on a tile's black.

Scored as ``bench_vision`` scores (:func:`vision.evaluate.score_detection`): recall and
precision of tiles, colour+shape identity of the matched ones, boards exact, false tiles.

usage: python -m benchmarks.bench_surface [--surface KIND] [--grounds R,G,B|drawn ...]
       [--first N] [--scenes N]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any

import numpy as np

from benchmarks.bench_heldout import percent_rates
from vision.detect import detect
from vision.evaluate import DetectionScore, legal_board, score_detection
from vision.render import PRESETS, SURFACES, render


def _ground(text: str) -> tuple[int, int, int] | None:
    if text == "drawn":
        return None
    parts = tuple(int(v) for v in text.split(","))
    if len(parts) != 3 or not all(0 <= v <= 255 for v in parts):
        raise argparse.ArgumentTypeError(f"ground must be R,G,B (0-255) or 'drawn': {text!r}")
    return parts


def run(
    surface: str, grounds: list[tuple[int, int, int] | None], first: int, scenes: int
) -> dict[str, Any]:
    """Read ``scenes`` legal boards (seeds ``first``...) on ``surface`` per ground colour."""
    if surface not in SURFACES:
        raise ValueError(f"unknown surface {surface!r} (expected one of {SURFACES})")
    out: dict[str, Any] = {"surface": surface, "seeds": [first, first + scenes - 1]}
    for ground in grounds:
        total = DetectionScore()
        cond = dataclasses.replace(PRESETS["easy"], surface=surface, surface_rgb=ground)  # type: ignore[arg-type]
        for seed in range(first, first + scenes):
            board = legal_board(np.random.default_rng(seed), 30)
            scene = render(board, cond, seed=seed, size=(1280, 720))
            obs = detect(scene.image_bgr)
            total = total + score_detection(obs, scene.truth, scene.pitch_px)
        name = "drawn" if ground is None else ",".join(map(str, ground))
        out[f"ground={name}"] = {
            **percent_rates(total),
            "false_tiles": total.detected - total.correct_detections,
        }
    return out


def main(argv: list[str]) -> dict[str, Any]:
    ap = argparse.ArgumentParser(prog="bench_surface")
    ap.add_argument("--surface", default="polka_dot_cloth", choices=SURFACES)
    ap.add_argument(
        "--grounds",
        nargs="+",
        type=_ground,
        default=[(28, 28, 30), None],
        help="ground colours R,G,B or 'drawn' (default: 28,28,30 drawn)",
    )
    ap.add_argument("--first", type=int, default=100, help="first seed (default 100)")
    ap.add_argument("--scenes", type=int, default=24, help="scenes per ground (default 24)")
    a = ap.parse_args(argv)
    return run(a.surface, a.grounds, a.first, a.scenes)


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:]), indent=2))
