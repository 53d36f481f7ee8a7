"""Geometry: the printed marker sheet, markers found in a warped photo, corners, lens."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.colour import CalibrationError
from calibration.markers import (
    MarkerSettings,
    calibrate_lens,
    find_markers,
    geometry_from_corners,
    geometry_from_markers,
    marker_sheet_layout,
    marker_sheet_pdf,
)

pdfium = pytest.importorskip("pypdfium2")

DPI = 150.0
PX_PER_MM = DPI / 25.4


@pytest.fixture(scope="module")
def sheet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, np.ndarray]:
    """The real PDF, and its first page rasterised at 150 dpi (BGR)."""
    path = marker_sheet_pdf(tmp_path_factory.mktemp("sheet") / "markers.pdf")
    page = pdfium.PdfDocument(str(path))[0]
    rgb = page.render(scale=DPI / 72).to_numpy()[..., :3]
    return path, np.ascontiguousarray(rgb[..., ::-1])


def test_sheet_is_a_one_page_pdf_with_four_markers_at_true_size(
    sheet: tuple[Path, np.ndarray],
) -> None:
    path, page = sheet
    assert path.read_bytes().startswith(b"%PDF")
    found = find_markers(page)
    assert sorted(found) == [0, 1, 2, 3]
    settings = MarkerSettings()
    for mid, x_mm, y_mm in marker_sheet_layout(settings):
        q = found[mid]
        side_px = float(np.mean(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)))
        assert side_px == pytest.approx(settings.marker_mm * PX_PER_MM, rel=0.02)
        centre_mm = q.mean(axis=0) / PX_PER_MM
        expect = (x_mm + settings.marker_mm / 2, y_mm + settings.marker_mm / 2)
        assert np.allclose(centre_mm, expect, atol=1.0)


def _table_photo(page: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cut the four printed markers out of the page, lay them at the corners of a 900 x 600 mm
    table (1 px per mm, top-down), and photograph it through a known homography.

    Returns (photo_bgr, true marker centres in the photo (4, 2), table_from_image truth)."""
    rng = np.random.default_rng(seed)
    table_w, table_h = 900, 600
    margin = 60  # marker centres this far inside the table edge
    top = np.full((table_h + 2 * margin, table_w + 2 * margin, 3), (120, 150, 175), np.uint8)
    found = find_markers(page)
    centres_table = np.array(
        [
            [margin, margin],
            [margin + table_w, margin],
            [margin + table_w, margin + table_h],
            [margin, margin + table_h],
        ],
        dtype=np.float64,
    )
    for k in range(4):
        q = found[k]
        c = q.mean(axis=0)
        half = int(np.ptp(q[:, 0]) * 0.75)
        cut = page[int(c[1]) - half : int(c[1]) + half, int(c[0]) - half : int(c[0]) + half]
        cut = cv2.resize(
            cut, None, fx=1 / PX_PER_MM, fy=1 / PX_PER_MM, interpolation=cv2.INTER_AREA
        )  # to 1 px per mm
        cx, cy = centres_table[k].astype(int)
        hh, ww = cut.shape[:2]
        top[cy - hh // 2 : cy - hh // 2 + hh, cx - ww // 2 : cx - ww // 2 + ww] = cut
    # a camera at an angle: the table corners land on a jittered trapezoid
    src = np.array(
        [[0, 0], [top.shape[1], 0], [top.shape[1], top.shape[0]], [0, top.shape[0]]],
        dtype=np.float32,
    )
    dst = np.array([[260, 90], [1060, 120], [1220, 650], [80, 610]], dtype=np.float32)
    dst += rng.uniform(-25, 25, dst.shape).astype(np.float32)
    image_from_top = cv2.getPerspectiveTransform(src, dst)
    photo = cv2.warpPerspective(
        top, image_from_top, (1280, 720), flags=cv2.INTER_LINEAR, borderValue=(60, 70, 80)
    )
    photo = cv2.GaussianBlur(photo, (0, 0), 0.8)
    photo = np.clip(photo + rng.normal(0, 3.0, photo.shape), 0, 255).astype(np.uint8)
    pts = cv2.perspectiveTransform(centres_table[None].astype(np.float32), image_from_top)[0]
    top_from_image = np.linalg.inv(image_from_top)
    return photo, pts.astype(np.float64), top_from_image


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_markers_found_in_a_warped_photo_within_tolerance(
    sheet: tuple[Path, np.ndarray], seed: int
) -> None:
    photo, true_centres, top_from_image = _table_photo(sheet[1], seed)
    found = find_markers(photo)
    assert sorted(found) == [0, 1, 2, 3]
    err = [float(np.linalg.norm(found[k].mean(axis=0) - true_centres[k])) for k in range(4)]
    assert max(err) < 1.5, err  # pixels
    geo = geometry_from_markers(photo, table_size=(900.0, 600.0), tile_pitch=33.0)
    assert geo.units == "mm" and geo.source == "markers" and geo.image_size == (1280, 720)
    # any image point maps to the table within a few millimetres
    rng = np.random.default_rng(seed)
    for _ in range(20):
        tx, ty = rng.uniform(0, 900), rng.uniform(0, 600)
        x, y = cv2.perspectiveTransform(
            np.array([[[tx + 60, ty + 60]]], np.float64), np.linalg.inv(top_from_image)
        )[0, 0]
        gx, gy = geo.image_to_table(float(x), float(y))
        assert abs(gx - tx) < 3.0 and abs(gy - ty) < 3.0


def test_missing_markers_are_named(sheet: tuple[Path, np.ndarray]) -> None:
    photo, centres, _ = _table_photo(sheet[1], 4)
    x, y = centres[1].astype(int)
    photo[y - 60 : y + 60, x - 60 : x + 60] = (60, 70, 80)  # cover the top-right marker
    with pytest.raises(CalibrationError, match=r"markers not found: top-right \(id 1\)"):
        geometry_from_markers(photo)


def test_geometry_from_clicked_corners() -> None:
    corners = [(100.0, 80.0), (900.0, 120.0), (950.0, 600.0), (60.0, 560.0)]
    geo = geometry_from_corners(corners, image_size=(1000, 700))
    assert geo.units == "table" and geo.table_size == (1000.0, 1000.0)
    for (x, y), expect in zip(corners, [(0, 0), (1000, 0), (1000, 1000), (0, 1000)], strict=True):
        tx, ty = geo.image_to_table(x, y)
        assert abs(tx - expect[0]) < 1e-6 and abs(ty - expect[1]) < 1e-6
    with pytest.raises(CalibrationError, match="degenerate"):
        geometry_from_corners([(0, 0), (10, 0), (20, 0), (0, 10)])
    with pytest.raises(CalibrationError, match="four corner points"):
        geometry_from_corners([(0, 0), (10, 0), (20, 0)])


def _chessboard_views(n: int) -> list[np.ndarray]:
    """A 10x7-square board photographed by a pinhole camera (f = 800 px) from n poses."""
    sq = 40
    board = np.full((7 * sq + 2 * sq, 10 * sq + 2 * sq), 255, np.uint8)
    for r in range(7):
        for c in range(10):
            if (r + c) % 2 == 0:
                board[sq + r * sq : sq + (r + 1) * sq, sq + c * sq : sq + (c + 1) * sq] = 0
    k = np.array([[800.0, 0, 320], [0, 800.0, 240], [0, 0, 1]])
    rng = np.random.default_rng(5)
    views = []
    for _ in range(n):
        rvec = rng.uniform(-0.35, 0.35, 3)
        rmat, _ = cv2.Rodrigues(rvec)
        t = np.array([-board.shape[1] / 2, -board.shape[0] / 2, 0.0])
        tvec = np.array([0.0, 0.0, 1100.0]) + rng.uniform(-40, 40, 3)
        h = k @ np.column_stack([rmat[:, 0], rmat[:, 1], rmat @ t + tvec])
        img = cv2.warpPerspective(board, h / h[2, 2], (640, 480), borderValue=200)
        views.append(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR))
    return views


def test_lens_from_chessboard_views() -> None:
    lens = calibrate_lens(_chessboard_views(6))
    assert lens.image_size == (640, 480)
    assert lens.rms_px < 0.5
    assert lens.camera_matrix[0][0] == pytest.approx(800.0, rel=0.05)
    assert lens.camera_matrix[0][2] == pytest.approx(320.0, abs=25)
    img = _chessboard_views(1)[0]
    assert lens.undistort(img).shape == img.shape
    with pytest.raises(ValueError, match="calibrated at 640x480"):
        lens.undistort(img[:100])


def test_lens_needs_enough_views() -> None:
    blank = [np.full((480, 640, 3), 255, np.uint8)] * 3
    with pytest.raises(CalibrationError, match="found in 0 of 3 images; need 3"):
        calibrate_lens(blank)
