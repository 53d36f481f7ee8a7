"""``tabletally calibrate ...``: make and inspect calibration profiles.

Subcommands::

    tabletally calibrate colours IMAGE --out PROFILE [--palette red,orange,...|--profile FILE]
                                       [--order auto|palette] [--json] [--debug-png PNG]
    tabletally calibrate markers OUT.pdf [--marker-mm 50]
    tabletally calibrate geometry IMAGE --out PROFILE [--table-mm W H] [--tile-mm P]
                                        [--corners X,Y X,Y X,Y X,Y]
    tabletally calibrate lens IMAGE... --out PROFILE [--board 9x6]
    tabletally calibrate show PROFILE [--json]

A profile is written only when the calibration is complete (every colour has clean samples), and
atomically, so a failed run never damages an existing profile. Calibrating into an existing
``--out`` keeps what it already holds (colours keep the geometry and vice versa).
Exit codes: 0 done, 1 calibration failed (missing colours, line or markers not found),
2 bad input (unreadable image or profile, bad option).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.colour import CalibrationError, calibrate_colours, draw_calibration
from calibration.markers import (
    MarkerSettings,
    calibrate_lens,
    geometry_from_corners,
    geometry_from_markers,
    marker_sheet_pdf,
)
from calibration.profile import Palette, Profile, ProfileError, load_profile, save_profile
from vision.imagefile import ImageError, read_image
from webui.cli import CLIError

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``calibrate`` and its subcommands to the ``tabletally`` parser."""
    p = subparsers.add_parser(
        "calibrate",
        help="make a calibration profile (colours, table geometry, lens)",
        description="Make a calibration profile: learn the tile colours under the current "
        "light, print corner markers, find the table geometry, calibrate the lens.",
    )
    sub = p.add_subparsers(dest="calibrate_command", metavar="WHAT")
    sub.required = True

    c = sub.add_parser(
        "colours",
        aliases=["colors"],
        help="learn the palette from a photo of one tile per colour in a line",
    )
    c.add_argument("image", help="photo: one tile of each palette colour laid in a line")
    c.add_argument("--out", "-o", required=True, help="profile to write (JSON)")
    src = c.add_mutually_exclusive_group()
    src.add_argument(
        "--palette",
        help="comma-separated built-in colour names "
        "(default: the palette of --profile/--out, else the classic six)",
    )
    src.add_argument("--profile", help="profile whose palette (and geometry) to start from")
    c.add_argument(
        "--order",
        choices=("auto", "palette"),
        default="auto",
        help="auto: tiles in any order (default); palette: in palette order, left to right",
    )
    c.add_argument("--json", action="store_true", help="print the result as JSON")
    c.add_argument(
        "--debug-png",
        metavar="PNG",
        help="write the photo with the tiles found and their colours (also when "
        "the calibration is refused)",
    )
    c.set_defaults(func=_cmd_colours)

    m = sub.add_parser("markers", help="write the printable ArUco corner marker sheet (PDF)")
    m.add_argument("out", help="PDF file to write")
    m.add_argument(
        "--marker-mm",
        type=float,
        default=MarkerSettings.marker_mm,
        help="printed marker side in mm (default %(default)s)",
    )
    m.set_defaults(func=_cmd_markers)

    g = sub.add_parser("geometry", help="table homography from the four corner markers")
    g.add_argument("image", help="photo of the table with the four markers (or --corners)")
    g.add_argument("--out", "-o", required=True, help="profile to write (JSON)")
    g.add_argument("--profile", help="profile to start from (default: --out if it exists)")
    g.add_argument(
        "--table-mm",
        nargs=2,
        type=float,
        metavar=("W", "H"),
        help="distance between the marker centres, width and height in mm",
    )
    g.add_argument("--tile-mm", type=float, help="tile pitch (centre to centre) in mm")
    g.add_argument(
        "--corners",
        nargs=4,
        metavar="X,Y",
        help="the table's four corners in image pixels, clockwise from top-left, "
        "instead of markers",
    )
    g.add_argument("--json", action="store_true", help="print the result as JSON")
    g.set_defaults(func=_cmd_geometry)

    ln = sub.add_parser("lens", help="lens distortion from chessboard photos")
    ln.add_argument("images", nargs="+", help="photos of a chessboard in different poses")
    ln.add_argument("--out", "-o", required=True, help="profile to write (JSON)")
    ln.add_argument("--profile", help="profile to start from (default: --out if it exists)")
    ln.add_argument("--board", default="9x6", help="inner corners COLSxROWS (default 9x6)")
    ln.add_argument("--json", action="store_true", help="print the result as JSON")
    ln.set_defaults(func=_cmd_lens)

    s = sub.add_parser("show", help="summarise a profile (any of the documented forms)")
    s.add_argument("profile", help="profile file")
    s.add_argument("--json", action="store_true", help="print the normalised profile as JSON")
    s.set_defaults(func=_cmd_show)


# ------------------------------------------------------------------------------------ helpers
def _read_image(path: str) -> npt.NDArray[np.uint8]:
    """The photo at ``path``, read as ``detect`` reads it (:func:`vision.imagefile.read_image`:
    a truncated or oversized file is refused, not calibrated from)."""
    try:
        return read_image(path)
    except ImageError as e:
        raise CLIError(f"{path}: cannot read image: {e}", 2) from None


def _load(path: str | None) -> Profile:
    try:
        return load_profile(path)
    except ProfileError as e:
        raise CLIError(str(e), 2) from None


def _base(args: argparse.Namespace) -> Profile:
    """--profile if given, else the existing --out (so calibrations accumulate), else default."""
    if getattr(args, "profile", None):
        return _load(args.profile)
    out = Path(args.out)
    if out.exists():
        return _load(str(out))
    return Profile()


def _save(profile: Profile, path: str) -> None:
    try:
        save_profile(profile, path)
    except ProfileError as e:
        raise CLIError(str(e), 2) from None


# ----------------------------------------------------------------------------------- commands
def _cmd_colours(args: argparse.Namespace) -> int:
    base = _base(args)
    palette = base.palette
    if args.palette:
        names = [n.strip() for n in args.palette.split(",") if n.strip()]
        try:
            palette = Palette.from_names(names)
        except ProfileError as e:
            raise CLIError(f"--palette: {e}", 2) from None
    image = _read_image(args.image)
    try:
        result = calibrate_colours(image, palette, order=args.order, base=base)
    except CalibrationError as e:
        raise CLIError(f"{args.image}: {e}", 1) from None
    if args.debug_png and not cv2.imwrite(args.debug_png, draw_calibration(image, result)):
        raise CLIError(f"{args.debug_png}: cannot write the debug image", 2)
    if args.json:
        print(
            json.dumps(
                {
                    "image": args.image,
                    "complete": result.complete,
                    "problems": result.problems(),
                    "saved": result.complete and args.out,
                    "white_balance": list(result.profile.white_balance.gains)
                    if result.profile.white_balance
                    else None,
                    "fit_residual": round(result.fit_residual, 2),
                    "tiles": [
                        {
                            "index": s.index,
                            "color": s.color,
                            "pixels": s.pixels,
                            "lab": [round(v, 2) for v in s.lab],
                            "spread": [round(v, 2) for v in s.spread],
                            "clean": s.clean,
                            "problem": s.problem or None,
                        }
                        for s in result.samples
                    ],
                },
                indent=2,
            )
        )
    if not result.complete:
        raise CLIError(f"{args.image}: {'; '.join(result.problems())}; profile not saved", 1)
    _save(result.profile, args.out)
    if not args.json:
        for s in result.samples:
            lab = ", ".join(f"{v:.1f}" for v in s.lab)
            print(
                f"  tile {s.index + 1}: {s.color:<10} L*a*b* ({lab})  {s.pixels} px, "
                f"spread {max(s.spread):.1f}"
            )
        print(f"wrote {args.out}: {len(palette.names)} colours calibrated")
    return 0


def _cmd_markers(args: argparse.Namespace) -> int:
    if not args.marker_mm > 0:
        raise CLIError("--marker-mm must be positive", 2)
    settings = MarkerSettings(marker_mm=args.marker_mm)
    try:
        path = marker_sheet_pdf(args.out, settings)
    except CalibrationError as e:
        raise CLIError(str(e), 2) from None
    print(
        f"wrote {path}: print at 100 %, lay id 0 top-left, 1 top-right, 2 bottom-right, "
        "3 bottom-left"
    )
    return 0


def _parse_corners(items: Sequence[str]) -> list[tuple[float, float]]:
    out = []
    for it in items:
        try:
            x, y = (float(v) for v in it.split(","))
        except ValueError:
            raise CLIError(f"--corners: expected X,Y pixel pairs, got {it!r}", 2) from None
        out.append((x, y))
    return out


def _cmd_geometry(args: argparse.Namespace) -> int:
    base = _base(args)
    image = _read_image(args.image)
    size = tuple(args.table_mm) if args.table_mm else None
    try:
        if args.corners:
            h, w = image.shape[:2]
            geo = geometry_from_corners(
                _parse_corners(args.corners),
                table_size=size,
                tile_pitch=args.tile_mm,
                image_size=(w, h),
            )
        else:
            geo = geometry_from_markers(image, table_size=size, tile_pitch=args.tile_mm)
    except CalibrationError as e:
        raise CLIError(f"{args.image}: {e}", 1) from None
    _save(base.with_(geometry=geo), args.out)
    if args.json:
        print(json.dumps({"image": args.image, "geometry": geo.to_json()}, indent=2))
    else:
        tw, th = geo.table_size or (0.0, 0.0)
        print(f"wrote {args.out}: table {tw:g} x {th:g} {geo.units} from {geo.source}")
    return 0


def _cmd_lens(args: argparse.Namespace) -> int:
    base = _base(args)
    try:
        cols, rows = (int(v) for v in args.board.lower().split("x"))
    except ValueError:
        raise CLIError(f"--board: expected COLSxROWS like 9x6, got {args.board!r}", 2) from None
    images = [_read_image(p) for p in args.images]
    try:
        lens = calibrate_lens(images, settings=MarkerSettings(chessboard=(cols, rows)))
    except CalibrationError as e:
        raise CLIError(str(e), 1) from None
    _save(base.with_(lens=lens), args.out)
    if args.json:
        print(json.dumps({"lens": lens.to_json()}, indent=2))
    else:
        print(f"wrote {args.out}: lens from {len(images)} photos, RMS {lens.rms_px:.2f} px")
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    prof = _load(args.profile)
    if args.json:
        print(json.dumps(prof.to_dict(), indent=2))
        return 0
    pal = prof.palette
    print(
        f"{args.profile}: {len(pal.names)} colours"
        f"{' (calibrated)' if pal.calibrated else ' (daylight references)'}"
    )
    for n in pal.names:
        lab = ", ".join(f"{v:.1f}" for v in pal.lab[n])
        spread = f"  spread {max(pal.spread[n]):.1f}" if n in pal.spread else ""
        print(f"  {n:<10} L*a*b* ({lab}){spread}")
    wb = prof.white_balance
    print(f"  white balance: {'none' if wb is None else ', '.join(f'{g:.2f}' for g in wb.gains)}")
    geo = prof.geometry
    print(
        "  geometry: none"
        if geo is None
        else f"  geometry: {geo.source}, table {geo.table_size} {geo.units}"
        f"{f', tile pitch {geo.tile_pitch:g}' if geo.tile_pitch else ''}"
    )
    lens = prof.lens
    print("  lens: none" if lens is None else f"  lens: RMS {lens.rms_px:.2f} px")
    return 0
