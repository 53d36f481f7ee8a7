"""``tabletally detect IMAGE... [--profile FILE] [--json] [--debug-dir DIR]`` (INTERFACES.md).

Reads each image, runs :func:`vision.detect.detect`, and prints one result per image in
argument order. An image that cannot be read (missing, empty, truncated, corrupt, not an image)
gives a one-line error for that image - ``{"image": path, "error": "..."}`` with ``--json`` -
while the others are still processed; the exit status is then 1. A bad ``--profile`` is a
usage error (exit 2) before any image is read.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2

from calibration.profile import Profile, ProfileError, load_profile
from scorer.rules import describe_tile
from vision.detect import DetectInputError, detect, draw_overlay
from vision.imagefile import ImageError as ImageReadError
from vision.imagefile import read_image
from vision.observation import Observation

__all__ = ["ImageReadError", "read_image", "register", "run"]


def _tile_json(obs: Observation) -> list[dict[str, Any]]:
    out = []
    for t in sorted(obs.tiles, key=lambda t: (t.pos.row, t.pos.col)):
        out.append(
            {
                "row": t.pos.row,
                "col": t.pos.col,
                "color": t.tile.color,
                "shape": t.tile.shape.value,
                "confidence": round(t.confidence, 4),
                "x": round(t.center_xy[0], 1),
                "y": round(t.center_xy[1], 1),
            }
        )
    return out


def run(
    images: list[str],
    *,
    profile: Profile | None,
    as_json: bool,
    debug_dir: Path | None,
    out: Any = None,
    err: Any = None,
) -> int:
    """Detect tiles in each image; print results; return the exit status (0 or 1)."""
    out = out or sys.stdout
    err = err or sys.stderr
    results: list[dict[str, Any]] = []
    failed = 0
    if debug_dir is not None:
        debug_dir.mkdir(parents=True, exist_ok=True)
    for k, path in enumerate(images):
        try:
            img = read_image(path)
        except ImageReadError as e:
            failed += 1
            results.append({"image": path, "error": str(e)})
            print(f"tabletally detect: {path}: {e}", file=err)
            continue
        t0 = time.perf_counter()
        try:
            obs = detect(img, profile=profile)
        except Exception as e:  # the image, or a detector bug it met: say so, read the rest
            failed += 1
            if isinstance(e, DetectInputError):  # too small to hold a tile
                msg = str(e).removeprefix("detect: ")
            else:
                msg = (
                    f"the detector failed on this image ({type(e).__name__}: {e}); please report it"
                )
            results.append({"image": path, "error": msg})
            print(f"tabletally detect: {path}: {msg}", file=err)
            continue
        elapsed = (time.perf_counter() - t0) * 1000.0
        results.append(
            {
                "image": path,
                "tiles": _tile_json(obs),
                "elapsed_ms": round(elapsed, 1),
                # additive (INTERFACES.md keys unchanged): cells covered by a hand or an arm
                "unseen": [[p.row, p.col] for p in obs.unseen],
                # additive: readings the rules settled where the camera was unsure
                "rule_changes": [
                    {
                        "row": p.row,
                        "col": p.col,
                        "seen": {"color": a.color, "shape": a.shape.value},
                        "read": {"color": b.color, "shape": b.shape.value},
                    }
                    for p, a, b in obs.rule_changes
                ],
            }
        )
        if debug_dir is not None:
            name = f"{k:03d}_{Path(path).stem}_overlay.png"
            cv2.imwrite(str(debug_dir / name), draw_overlay(img, obs))
        if not as_json:
            print(f"{path}: {len(obs.tiles)} tiles, {elapsed:.0f} ms", file=out)
            board = obs.board()
            if len(board):
                print(_indent(board.to_ascii()), file=out)
            if obs.unseen:
                cells = " ".join(f"{p.row},{p.col}" for p in obs.unseen)
                print(f"  unseen (covered): {cells}", file=out)
            for p, seen, read in obs.rule_changes:
                print(
                    f"  {p.row},{p.col}: {describe_tile(read)} by the rules "
                    f"(the camera was unsure: {describe_tile(seen)}?)",
                    file=out,
                )
    if as_json:
        json.dump(results, out, indent=1)
        out.write("\n")
    return 1 if failed else 0


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


def _cmd(args: argparse.Namespace) -> int:
    from webui.cli import CLIError

    profile: Profile | None = None
    if args.profile is not None:
        try:
            profile = load_profile(args.profile)
        except ProfileError as e:
            raise CLIError(str(e), 2) from None
    debug_dir = Path(args.debug_dir) if args.debug_dir else None
    if debug_dir is not None and debug_dir.exists() and not debug_dir.is_dir():
        raise CLIError(f"--debug-dir {debug_dir}: exists and is not a directory", 2)
    return run(list(args.images), profile=profile, as_json=args.json, debug_dir=debug_dir)


def register(subparsers: Any) -> None:
    """Add ``tabletally detect`` to the top-level parser's subcommands."""
    p = subparsers.add_parser(
        "detect",
        help="read the Qwirkle tiles in photos",
        description=(
            "Find every Qwirkle tile in each image: its grid cell on the tiles' own lattice, "
            "colour and shape. Unreadable images get a one-line error; the others are still "
            "processed (exit 1 if any failed)."
        ),
    )
    p.add_argument("images", nargs="+", metavar="IMAGE", help="image files (JPEG, PNG, ...)")
    p.add_argument("--profile", metavar="FILE", help="tile-set/table profile JSON (palette)")
    p.add_argument("--json", action="store_true", help="print a JSON array, one object per image")
    p.add_argument(
        "--debug-dir", metavar="DIR", help="write an annotated overlay PNG per image into DIR"
    )
    p.set_defaults(func=_cmd)
