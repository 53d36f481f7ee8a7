"""Table geometry: ArUco corner markers (or four clicked corners) and optional lens calibration.

Four ArUco markers (``cv2.aruco``, dictionary ``DICT_4X4_50``, ids 0-3) are printed on one sheet
(:func:`marker_sheet_pdf`), cut out and laid at the corners of the play area: id 0 top-left,
1 top-right, 2 bottom-right, 3 bottom-left as seen from the camera's usual side. Their centres
span the table rectangle; :func:`geometry_from_markers` fits the homography image -> table plane.
Four corners clicked in the browser wizard give the same through :func:`geometry_from_corners`.
A chessboard seen in a few photos gives the lens (:func:`calibrate_lens`, Zhang's method).

Everything here is optional: without geometry vision works from the tiles' own lattice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from calibration.colour import CalibrationError
from calibration.profile import Geometry, Lens, Matrix3

__all__ = [
    "CORNER_NAMES",
    "MarkerSettings",
    "calibrate_lens",
    "find_markers",
    "geometry_from_corners",
    "geometry_from_markers",
    "marker_image",
    "marker_sheet_layout",
    "marker_sheet_pdf",
]

#: Marker id -> the table corner it marks (clockwise from top-left, as the homography expects).
CORNER_NAMES: dict[int, str] = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}

#: Table-plane extent used when the real distances are unknown (units ``"table"``).
UNIT_TABLE_SIZE = (1000.0, 1000.0)


@dataclass(frozen=True)
class MarkerSettings:
    """Marker sheet and detection parameters.

    Attributes:
        dictionary: ``cv2.aruco`` predefined dictionary name; 4x4 bits have the largest cells
            for a given printed size, so they are read from farthest (OpenCV ArUco tutorial).
        ids: marker ids for the corners top-left, top-right, bottom-right, bottom-left.
        marker_mm: printed side of a marker (black border included), millimetres. 50 mm is
            ~25 px at 1280 px over a 1.2 m wide view, above the ~15 px ArUco needs reliably.
        page_mm: page size (A4 portrait), millimetres.
        margin_mm: page margin; most printers cannot print the outer ~5 mm.
        min_marker_px: markers whose side is below this many image pixels are ignored (false
            positives in tile symbols are tiny).
        chessboard: inner corners (columns, rows) of the lens-calibration chessboard (OpenCV's
            sample board is 9x6).
        min_lens_views: fewest chessboard views for a lens calibration; Zhang's method needs 3
            views of a plane for the 5 intrinsics, more give a stable distortion estimate.
    """

    dictionary: str = "DICT_4X4_50"
    ids: tuple[int, int, int, int] = (0, 1, 2, 3)
    marker_mm: float = 50.0
    page_mm: tuple[float, float] = (210.0, 297.0)
    margin_mm: float = 15.0
    min_marker_px: float = 8.0
    chessboard: tuple[int, int] = (9, 6)
    min_lens_views: int = 3


def _dictionary(settings: MarkerSettings) -> cv2.aruco.Dictionary:
    code = getattr(cv2.aruco, settings.dictionary, None)
    if code is None:
        raise CalibrationError(f"unknown ArUco dictionary {settings.dictionary!r}")
    return cv2.aruco.getPredefinedDictionary(code)


def marker_image(
    marker_id: int, side_px: int = 240, settings: MarkerSettings = MarkerSettings()
) -> npt.NDArray[np.uint8]:
    """The marker ``marker_id`` as a ``(side_px, side_px) uint8`` image (black border, white bits),
    with no quiet zone (the sheet adds one)."""
    return np.asarray(
        cv2.aruco.generateImageMarker(_dictionary(settings), marker_id, side_px), dtype=np.uint8
    )


def marker_sheet_layout(
    settings: MarkerSettings = MarkerSettings(),
) -> list[tuple[int, float, float]]:
    """Where the markers go on the page: ``[(id, x_mm, y_mm of the top-left corner), ...]``.

    A 2x2 grid centred on the page, markers ``marker_mm`` wide with a quiet zone of at least
    one marker cell around each (ArUco needs a white border to find the black one).
    """
    pw, ph = settings.page_mm
    m = settings.marker_mm
    cell_w = (pw - 2 * settings.margin_mm) / 2
    cell_h = (ph - 2 * settings.margin_mm - 20) / 2  # 20 mm for the heading
    if m > min(cell_w, cell_h) - 20:
        raise CalibrationError(f"marker size {m:g} mm does not fit four to a {pw:g}x{ph:g} mm page")
    out = []
    for k, mid in enumerate(settings.ids):
        col, row = k % 2, k // 2
        if row == 1:  # clockwise: bottom-right is 2, bottom-left is 3
            col = 1 - col
        x = settings.margin_mm + col * cell_w + (cell_w - m) / 2
        y = settings.margin_mm + 20 + row * cell_h + (cell_h - m) / 2
        out.append((mid, x, y))
    return out


def marker_sheet_pdf(path: str | Path, settings: MarkerSettings = MarkerSettings()) -> Path:
    """Write the printable A4 sheet with the four corner markers; returns the path.

    Each marker is drawn as vector squares (sharp at any printer resolution) with its corner
    name and id, a dashed cut line, and a 100 mm scale bar to check the print was not scaled.

    Raises:
        CalibrationError: the markers do not fit the page; the file cannot be written.
    """
    from fpdf import FPDF

    pdf = FPDF(orientation="P", unit="mm", format=(settings.page_mm[0], settings.page_mm[1]))
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("helvetica", "B", 14)
    pdf.set_xy(settings.margin_mm, settings.margin_mm)
    pdf.cell(0, 7, "tabletally - table corner markers", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("helvetica", "", 9)
    pdf.set_x(settings.margin_mm)
    pdf.cell(
        0,
        5,
        "Print at 100 % (no 'fit to page'). Cut along the dashed lines and lay each "
        "marker flat at the named corner of the play area.",
        new_x="LMARGIN",
        new_y="NEXT",
    )
    for mid, x, y in marker_sheet_layout(settings):
        m = settings.marker_mm
        dictionary = _dictionary(settings)
        n = dictionary.markerSize + 2  # bits plus the one-cell black border on each side
        grid = cv2.aruco.generateImageMarker(dictionary, mid, n)  # one pixel per cell
        cell = m / n
        pdf.set_fill_color(0, 0, 0)
        for r in range(n):
            for c in range(n):
                if grid[r, c] < 128:
                    pdf.rect(x + c * cell, y + r * cell, cell + 0.01, cell + 0.01, style="F")
        q = cell * 2  # quiet zone: two cells
        pdf.set_draw_color(150, 150, 150)
        pdf.set_dash_pattern(dash=1.5, gap=1.5)
        pdf.rect(x - q, y - q, m + 2 * q, m + 2 * q + 8)
        pdf.set_dash_pattern()
        pdf.set_font("helvetica", "", 8)
        pdf.set_xy(x - q, y + m + 1)
        pdf.cell(
            m + 2 * q, 5, f"{CORNER_NAMES.get(settings.ids.index(mid), '?')} (id {mid})", align="C"
        )
    # scale bar
    y0 = settings.page_mm[1] - settings.margin_mm
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.4)
    pdf.line(settings.margin_mm, y0, settings.margin_mm + 100, y0)
    for t in (0, 50, 100):
        pdf.line(settings.margin_mm + t, y0 - 2, settings.margin_mm + t, y0)
    pdf.set_xy(settings.margin_mm + 102, y0 - 3)
    pdf.cell(40, 4, "100 mm")
    p = Path(path)
    try:
        pdf.output(str(p))
    except OSError as e:
        raise CalibrationError(f"{p}: cannot write marker sheet ({e.strerror or e})") from None
    return p


def find_markers(
    image_bgr: npt.NDArray[np.uint8], settings: MarkerSettings = MarkerSettings()
) -> dict[int, npt.NDArray[np.float64]]:
    """The corner markers seen in ``image_bgr : (H, W, 3) uint8``.

    Returns:
        ``{id: corners (4, 2) float64 (x, y)}`` for ids in ``settings.ids`` (ArUco corner order:
        the marker's own top-left, top-right, bottom-right, bottom-left), with sub-pixel corner
        refinement. When an id is seen twice the larger one wins.
    """
    gray = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY) if image_bgr.ndim == 3 else image_bgr
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(_dictionary(settings), params)
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, npt.NDArray[np.float64]] = {}
    if ids is None:
        return found
    for c, i in zip(corners, ids.ravel(), strict=True):
        mid = int(i)
        q = np.asarray(c, dtype=np.float64).reshape(4, 2)
        side = float(np.mean(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)))
        if mid not in settings.ids or side < settings.min_marker_px:
            continue
        if mid in found:
            old = float(
                np.mean(np.linalg.norm(found[mid] - np.roll(found[mid], 1, axis=0), axis=1))
            )
            if old >= side:
                continue
        found[mid] = q
    return found


def _table_size(table_size: tuple[float, float] | None) -> tuple[tuple[float, float], str]:
    if table_size is None:
        return UNIT_TABLE_SIZE, "table"
    w, h = table_size
    if not (w > 0 and h > 0):
        raise CalibrationError(f"table size must be positive, got {w:g} x {h:g}")
    return (float(w), float(h)), "mm"


def geometry_from_corners(
    corners_xy: Sequence[Sequence[float]] | npt.NDArray[np.float64],
    *,
    table_size: tuple[float, float] | None = None,
    tile_pitch: float | None = None,
    image_size: tuple[int, int] | None = None,
    source: str = "corners",
) -> Geometry:
    """The table homography from four image points of the table rectangle.

    Parameters:
        corners_xy: ``(4, 2)`` image points, clockwise from the table's top-left.
        table_size: ``(width, height)`` of that rectangle in millimetres; None gives the
            unit-less ``1000 x 1000`` table plane.
        tile_pitch: tile centre-to-centre distance in the same unit (mm), if known.
        image_size: ``(width, height)`` of the image, pixels.

    Raises:
        CalibrationError: not four points, or three of them (nearly) collinear.
    """
    pts = np.asarray(corners_xy, dtype=np.float64)
    if pts.shape != (4, 2) or not np.all(np.isfinite(pts)):
        raise CalibrationError(f"expected four corner points (x, y), got shape {pts.shape}")
    for k in range(4):
        a, b, c = pts[k], pts[(k + 1) % 4], pts[(k + 2) % 4]
        area2 = abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))
        if area2 < 1e-3 * max(1.0, float(np.ptp(pts, axis=0).max()) ** 2):
            raise CalibrationError("the four corners are degenerate (three on one line)")
    (w, h), units = _table_size(table_size)
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    hmat = cv2.getPerspectiveTransform(pts.astype(np.float32), dst.astype(np.float32))
    hmat = hmat / hmat[2, 2]
    matrix: Matrix3 = tuple(tuple(float(v) for v in row) for row in hmat)  # type: ignore[assignment]
    if tile_pitch is not None and not tile_pitch > 0:
        raise CalibrationError(f"tile pitch must be positive, got {tile_pitch:g}")
    return Geometry(
        table_from_image=matrix,
        units=units,
        table_size=(w, h),
        tile_pitch=None if tile_pitch is None else float(tile_pitch),
        image_size=image_size,
        source=source,
    )


def geometry_from_markers(
    image_bgr: npt.NDArray[np.uint8],
    *,
    table_size: tuple[float, float] | None = None,
    tile_pitch: float | None = None,
    settings: MarkerSettings = MarkerSettings(),
) -> Geometry:
    """Find the four corner markers and fit the table homography (marker centres = corners).

    Raises:
        CalibrationError: "markers not found: top-right (id 1), ..." naming every missing one.
    """
    found = find_markers(image_bgr, settings)
    missing = [
        f"{CORNER_NAMES[k]} (id {mid})" for k, mid in enumerate(settings.ids) if mid not in found
    ]
    if missing:
        seen = ", ".join(str(i) for i in sorted(found)) or "none"
        raise CalibrationError(f"markers not found: {', '.join(missing)} (seen ids: {seen})")
    centres = np.array([found[mid].mean(axis=0) for mid in settings.ids])
    h, w = image_bgr.shape[:2]
    return geometry_from_corners(
        centres, table_size=table_size, tile_pitch=tile_pitch, image_size=(w, h), source="markers"
    )


def calibrate_lens(
    images_bgr: Sequence[npt.NDArray[np.uint8]],
    *,
    settings: MarkerSettings = MarkerSettings(),
    square: float = 1.0,
) -> Lens:
    """Camera intrinsics and distortion from photos of a chessboard (Zhang 2000, via OpenCV).

    Parameters:
        images_bgr: photos ``(H, W, 3) uint8`` of the same size, the board in different poses.
        square: side of a chessboard square (any unit; it does not change the lens model).

    Raises:
        CalibrationError: images of different sizes, or fewer than ``min_lens_views`` photos
            in which the whole board was found.
    """
    cols, rows = settings.chessboard
    obj = np.zeros((rows * cols, 3), np.float32)
    obj[:, :2] = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2) * square
    obj_pts, img_pts = [], []
    size: tuple[int, int] | None = None
    for k, img in enumerate(images_bgr):
        hh, ww = img.shape[:2]
        if size is None:
            size = (ww, hh)
        elif size != (ww, hh):
            raise CalibrationError(f"image {k} is {ww}x{hh}, the first is {size[0]}x{size[1]}")
        gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
        ok, corners = cv2.findChessboardCorners(gray, (cols, rows))
        if not ok:
            continue
        corners = cv2.cornerSubPix(
            gray,
            corners,
            (5, 5),
            (-1, -1),
            (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 1e-3),
        )
        obj_pts.append(obj)
        img_pts.append(corners)
    if size is None or len(obj_pts) < settings.min_lens_views:
        raise CalibrationError(
            f"chessboard ({cols}x{rows} inner corners) found in {len(obj_pts)} of "
            f"{len(images_bgr)} images; need {settings.min_lens_views}"
        )
    rms, k_mat, dist, _, _ = cv2.calibrateCamera(obj_pts, img_pts, size, None, None)
    kk = np.asarray(k_mat, dtype=np.float64)
    matrix: Matrix3 = tuple(tuple(float(v) for v in row) for row in kk)  # type: ignore[assignment]
    return Lens(
        camera_matrix=matrix,
        distortion=tuple(float(v) for v in np.asarray(dist, dtype=np.float64).ravel()),
        image_size=size,
        rms_px=float(rms),
    )
