"""Shape reading under controlled blur (issue 3's identity target): ``python -m benchmarks shapes``.

Boards of 36 random tiles are rendered (:func:`vision.render.render`, seeds 500+, disjoint from
the hard benchmark's 2026) with a Gaussian optical blur of 0-10 % of the tile side, 28 and 36 px
tiles, sensor noise 2, JPEG quality 80, a 20 degree tilt and tiles turned up to 4 degrees, and
read by :func:`vision.detect.detect` twice: with the current shape classifier and with the
previous one (``ShapeSettings(linear_light=False, notch_weight=0)``: no linear-light grey terms,
no notch harmonic). Reported per blur level: tiles visible and matched, colour+shape identity of
the matched tiles, and the confusions. Also the CPU time of
:func:`vision.shapes.classify_profiles` on 100 tiles read from those boards, both ways.

usage: python -m benchmarks.bench_shapes [--boards N]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import time
from collections import Counter
from typing import Any

import numpy as np

import vision.detect as vdetect
from vision.detect import DetectorSettings, detect
from vision.evaluate import random_board, score_detection
from vision.render import Conditions, render
from vision.shapes import ShapeSettings, classify_profiles

BLUR_OF_TILE = (0.0, 0.02, 0.04, 0.06, 0.08, 0.10)
TILE_PX = (28.0, 36.0)


def _settings() -> dict[str, DetectorSettings]:
    now = DetectorSettings()
    before = dataclasses.replace(
        now, shape=dataclasses.replace(ShapeSettings(), linear_light=False, notch_weight=0.0)
    )
    return {"now": now, "previous": before}


def _sweep(boards: int) -> tuple[dict[str, Any], list[tuple[np.ndarray, np.ndarray]]]:
    out: dict[str, Any] = {}
    reads: list[tuple[np.ndarray, np.ndarray]] = []
    settings = _settings()
    for frac in BLUR_OF_TILE:
        row: dict[str, Any] = {}
        tally: dict[str, Counter[str]] = {k: Counter() for k in settings}
        conf: dict[str, Counter[str]] = {k: Counter() for k in settings}
        for tile_px in TILE_PX:
            for b in range(boards):
                seed = 500 + 10 * b + int(tile_px)
                rng = np.random.default_rng(seed)
                board = random_board(rng, 36)
                cond = dataclasses.replace(
                    Conditions(),
                    tile_px=tile_px,
                    blur_px=max(0.05, frac * tile_px),
                    noise=2.0,
                    jpeg_quality=80,
                    tilt_deg=20.0,
                    tile_rot_deg=4.0,
                )
                r = render(board, cond, seed=seed, size=(1280, 720))
                for name, st in settings.items():
                    obs = detect(r.image_bgr, settings=st)
                    sc = score_detection(obs, r.truth, r.pitch_px)
                    tally[name].update(
                        visible=sc.visible, matched=sc.matched, identity_ok=sc.identity_ok
                    )
                    conf[name].update({f"{a}->{c}": n for (a, c), n in sc.confusions.items()})
                    if name == "now" and obs.tiles:
                        reads.append(
                            (r.image_bgr, np.array([t.corners_xy for t in obs.tiles], np.float64))
                        )
        for name in settings:
            t = tally[name]
            row[name] = {
                "visible": t["visible"],
                "matched": t["matched"],
                "identity": round(t["identity_ok"] / max(t["matched"], 1), 4),
                "confusions": dict(conf[name].most_common(6)),
            }
        out[f"blur {frac:.2f} of the tile"] = row
    return out, reads


def _classifier_cpu_ms(reads: list[tuple[np.ndarray, np.ndarray]]) -> dict[str, float]:
    """Median ms of ``classify_profiles`` on 100 tiles, current vs previous settings.

    Wall time, and CPU time of the process: with OpenBLAS threads (numpy's matrix products)
    the CPU time counts their busy-waiting too, so it is only comparable between the two
    settings of one run (run with ``OPENBLAS_NUM_THREADS=1`` for the single-core cost).
    """
    st = DetectorSettings()
    got: list[Any] = []
    for image, corners in reads:
        got.append(vdetect._read_patches(image, corners, st, False))
        if sum(len(g.ok) for g in got) >= 100:
            break

    def cat(name: str) -> np.ndarray:
        return np.concatenate([getattr(g, name) for g in got])[:100]

    p = st.patch_px
    args = (cat("profile"), cat("solidity"))
    extra = (cat("blur"), cat("score").reshape(-1, p, p), cat("body_rgb"), cat("symbol_rgb"))
    cpu: dict[str, list[float]] = {k: [] for k in _settings()}
    wall: dict[str, list[float]] = {k: [] for k in _settings()}
    for _ in range(3):  # warm the prototype caches
        for s in _settings().values():
            classify_profiles(*args, s.shape, *extra)
    for _ in range(31):  # interleaved, so load changes hit both alike
        for name, s in _settings().items():
            t0, w0 = time.process_time(), time.perf_counter()
            classify_profiles(*args, s.shape, *extra)
            cpu[name].append((time.process_time() - t0) * 1000.0)
            wall[name].append((time.perf_counter() - w0) * 1000.0)
    out = {f"{k}_cpu_ms_per_100_tiles": round(statistics.median(v), 2) for k, v in cpu.items()}
    out |= {f"{k}_wall_ms_per_100_tiles": round(statistics.median(v), 2) for k, v in wall.items()}
    out["openblas_threads"] = float(os.environ.get("OPENBLAS_NUM_THREADS", "0") or 0)
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=2, help="boards per tile size and blur level")
    a = ap.parse_args(argv or [])
    t0 = time.perf_counter()
    out: dict[str, Any] = {"machine": {"loadavg_start": [round(x, 2) for x in os.getloadavg()]}}
    sweep, reads = _sweep(a.boards)
    out["identity_by_blur"] = sweep
    out["classifier_cpu"] = _classifier_cpu_ms(reads)
    out["machine"]["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    out["seconds"] = round(time.perf_counter() - t0, 1)
    return out


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:]), indent=2))
