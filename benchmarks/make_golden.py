"""Generate the golden scene set ``tests/data/golden/`` (deterministic).

One small JPEG per renderer preset (``vision.render.PRESETS``: glare, dim, warm, cool, oblique,
patterned_cloth, dark_table, tiny_tiles, hand, printed_grid, green_felt, white_table, bumped,
askew, easy), plus a Qwirkle Connect palette scene (white instead of purple), a custom-paint
palette scene and two scenes drawn with ``Conditions.sample(rng, "hard")``. Their truth goes to
``golden.json`` (format ``tabletally-golden/1``, read by :func:`vision.render.load_golden`).

Boards are positions of random legal games (:func:`scorer.moves.random_game`) so lines,
gaps and corners look like real play. Each image is rendered without compression and written
once as JPEG at the preset's quality, lowered if needed to stay under ``MAX_BYTES``.

Usage::

    python -m benchmarks.make_golden [--out tests/data/golden] [--check]

``--check`` regenerates in memory and compares with the files on disk (truth exactly but for
the last digits of its floating-point numbers, :data:`TRUTH_TOLERANCE`; images within a
tolerance) and exits 1 on a difference.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.profile import Palette
from scorer.game import replay
from scorer.model import Board
from scorer.moves import random_game
from vision.render import CUSTOM_PAINTS, PRESETS, Conditions, Rendered, render

#: Largest JPEG written, bytes (task brief: <= 150 KB each, ~1 MB in all).
MAX_BYTES = 60_000
#: Image size of the golden scenes, pixels (small enough for the size budget).
SIZE = (640, 480)
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "golden"
FORMAT = "tabletally-golden/1"


def _board(seed: int, tiles: int) -> Board:
    """The board of random game ``seed`` after the last turn that leaves <= ``tiles`` tiles
    (small boards keep tiles >= ~25 px in a 640x480 frame)."""
    best = Board()
    for turns in range(1, 60):
        b = replay(random_game(seed, 2, turns=turns)).board
        if len(b) > tiles:
            break
        best = b
    return best


def scene_specs() -> list[dict[str, Any]]:
    """The scenes: name, conditions, seed, board, palette (deterministic)."""
    specs: list[dict[str, Any]] = []
    for i, name in enumerate(sorted(PRESETS)):
        specs.append(
            {
                "name": name,
                "conditions": PRESETS[name],
                "seed": 1000 + i,
                "board": _board(100 + i, 26 if name == "hand" else 8 + (i * 5) % 20),
                "palette": None,
            }
        )
    connect = Palette.from_names(["red", "orange", "yellow", "green", "blue", "white"])
    b = _board(300, 16)
    recolour = {"purple": "white"}
    b = Board((p, t._replace(color=recolour.get(t.color, t.color))) for p, t in b.items())
    specs.append(
        {
            "name": "connect_white",
            "conditions": PRESETS["easy"],
            "seed": 2000,
            "board": b,
            "palette": connect,
        }
    )
    paints = CUSTOM_PAINTS
    custom = Palette.from_hex(paints)
    mapping = dict(zip(("red", "orange", "yellow", "green", "blue", "purple"), paints, strict=True))
    b = _board(301, 14)
    b = Board((p, t._replace(color=mapping[t.color])) for p, t in b.items())
    specs.append(
        {
            "name": "custom_paints",
            "conditions": dataclasses.replace(
                PRESETS["easy"], surface="cloth", surface_rgb=(70, 80, 95)
            ),
            "seed": 2001,
            "board": b,
            "palette": custom,
        }
    )
    for k in range(2):
        cond = Conditions.sample(np.random.default_rng(5000 + k), "hard")
        specs.append(
            {
                "name": f"hard_{k}",
                "conditions": cond,
                "seed": 3000 + k,
                "board": _board(400 + k, 18 + 6 * k),
                "palette": None,
            }
        )
    return specs


def _encode(image_bgr: np.ndarray, quality: int) -> bytes:
    q = quality
    while True:
        ok, buf = cv2.imencode(".jpg", image_bgr, [cv2.IMWRITE_JPEG_QUALITY, q])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        if len(buf) <= MAX_BYTES or q <= 30:
            return bytes(buf)
        q -= 5


def _truth_json(r: Rendered) -> list[dict[str, Any]]:
    return [
        {
            "row": t.pos.row,
            "col": t.pos.col,
            "color": t.tile.color,
            "shape": t.tile.shape.value,
            "visible": t.visible,
            "covered": round(t.covered, 4),
            "x": round(t.center_xy[0], 2),
            "y": round(t.center_xy[1], 2),
            "corners": [[round(x, 2), round(y, 2)] for x, y in t.corners_xy],
        }
        for t in r.truth
    ]


def build(out: Path, *, write: bool = True) -> tuple[dict[str, Any], dict[str, bytes]]:
    """Render every scene; returns the index (JSON object) and the JPEG bytes per file."""
    scenes: list[dict[str, Any]] = []
    files: dict[str, bytes] = {}
    for spec in scene_specs():
        cond: Conditions = spec["conditions"]
        quality = cond.jpeg_quality or 92
        r = render(
            spec["board"],
            dataclasses.replace(cond, jpeg_quality=None),
            spec["seed"],
            size=SIZE,
            palette=spec["palette"],
        )
        data = _encode(r.image_bgr, min(quality, 92))
        fname = f"{spec['name']}.jpg"
        files[fname] = data
        palette = spec["palette"] or Palette.classic()
        scenes.append(
            {
                "name": spec["name"],
                "image": fname,
                "seed": spec["seed"],
                "size": list(SIZE),
                "palette": {
                    n: "#{:02x}{:02x}{:02x}".format(*palette.rgb[n]) for n in palette.names
                },
                "conditions": {
                    k: (list(v) if isinstance(v, tuple) else v)
                    for k, v in dataclasses.asdict(cond).items()
                },
                "pitch_px": round(r.pitch_px, 3),
                "image_from_grid": [[float(v) for v in row] for row in r.image_from_grid],
                "tiles": _truth_json(r),
            }
        )
    index = {"format": FORMAT, "generator": "python -m benchmarks.make_golden", "scenes": scenes}
    if write:
        out.mkdir(parents=True, exist_ok=True)
        for fname, data in files.items():
            (out / fname).write_bytes(data)
        (out / "golden.json").write_text(_dumps(index), encoding="utf-8")
    return index, files


def _dumps(index: dict[str, Any]) -> str:
    """JSON with one scene field / one tile per line (small, and diffs read well)."""
    lines = [
        "{",
        f' "format": {json.dumps(index["format"])},',
        f' "generator": {json.dumps(index["generator"])},',
        ' "scenes": [',
    ]
    for i, scene in enumerate(index["scenes"]):
        lines.append("  {")
        for key, value in scene.items():
            if key == "tiles":
                lines.append('   "tiles": [')
                tiles = [json.dumps(t, separators=(",", ":")) for t in value]
                lines.extend(f"    {t}," for t in tiles[:-1])
                lines.extend(f"    {t}" for t in tiles[-1:])
                lines.append("   ]")
            else:
                lines.append(f"   {json.dumps(key)}: {json.dumps(value)},")
        lines.append("  }," if i < len(index["scenes"]) - 1 else "  }")
    lines += [" ]", "}"]
    return "\n".join(lines) + "\n"


#: Largest difference between a stored and a fresh truth number (pixels, homography entries,
#: conditions): numpy and OpenCV builds differ in the last digits of the same float64 sums
#: (numpy 2.4 / OpenCV 5.0 moved 1e-13 px against the builds the set was made with).
TRUTH_TOLERANCE = 1e-6


def _same_truth(a: Any, b: Any) -> bool:
    """``a`` and ``b`` (parsed JSON) equal, floats within :data:`TRUTH_TOLERANCE`."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_truth(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_truth(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) or isinstance(b, float):
        return (
            isinstance(a, (int, float))
            and isinstance(b, (int, float))
            and not isinstance(a, bool)
            and not isinstance(b, bool)
            and abs(a - b) <= TRUTH_TOLERANCE
        )
    return bool(a == b)


def check(out: Path) -> list[str]:
    """Differences between a fresh build and the files in ``out`` (empty = identical)."""
    index, files = build(out, write=False)
    problems: list[str] = []
    try:
        stored = json.loads((out / "golden.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        return [f"{out / 'golden.json'}: {e}"]
    if not _same_truth(stored, json.loads(json.dumps(index))):
        problems.append("golden.json differs from a fresh build")
    for fname, data in files.items():
        disk = cv2.imread(str(out / fname), cv2.IMREAD_COLOR)
        fresh = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if disk is None or fresh is None:
            problems.append(f"{fname}: missing or unreadable")
        elif disk.shape != fresh.shape or np.abs(disk.astype(int) - fresh).mean() > 1.0:
            problems.append(f"{fname}: image differs from a fresh build")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="compare with the files on disk")
    args = ap.parse_args(argv)
    if args.check:
        problems = check(args.out)
        for p in problems:
            print(p, file=sys.stderr)
        return 1 if problems else 0
    _, files = build(args.out)
    total = sum(len(d) for d in files.values())
    print(
        f"wrote {len(files)} scenes to {args.out} ({total / 1e3:.0f} kB; largest "
        f"{max(len(d) for d in files.values()) / 1e3:.0f} kB)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
