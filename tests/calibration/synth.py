"""A tiny, deterministic tile-line painter for calibration tests (independent of vision.render).

Draws dark square tile bodies with a coloured symbol on a table, applies a light cast as
per-channel gains in linear RGB (von Kries), an exposure factor, blur and Gaussian noise.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

#: Casts as linear-RGB gains (r, g, b): a 2700 K lamp against D65 is about (1.0, 0.62, 0.28)
#: after normalising red (Planck's law integrated with sRGB primaries); cool ~6500->9000 K.
CASTS: dict[str, tuple[float, float, float]] = {
    "daylight": (1.0, 1.0, 1.0),
    "warm": (1.0, 0.66, 0.34),
    "cool": (0.72, 0.9, 1.15),
    "dim": (0.33, 0.3, 0.28),
}

_V = np.arange(256) / 255.0
_LIN = np.where(_V <= 0.04045, _V / 12.92, ((_V + 0.055) / 1.055) ** 2.4)


def _encode(lin: npt.NDArray[np.float64]) -> npt.NDArray[np.uint8]:
    c = np.clip(lin, 0, 1)
    v = np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)
    return np.clip(np.rint(v * 255), 0, 255).astype(np.uint8)


def paint_line(
    colors_rgb: Sequence[tuple[int, int, int]],
    *,
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0),
    seed: int = 0,
    tile_px: int = 60,
    gap_px: int = 6,
    angle_deg: float = 0.0,
    size: tuple[int, int] = (640, 360),
    noise: float = 2.0,
    table_rgb: tuple[int, int, int] = (196, 170, 130),
) -> tuple[npt.NDArray[np.uint8], list[npt.NDArray[np.float64]]]:
    """An image ``(H, W, 3) uint8`` BGR of tiles in a line, and each tile's corners ``(4, 2)``."""
    rng = np.random.default_rng(seed)
    w, h = size
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = table_rgb[::-1]
    n = len(colors_rgb)
    pitch = tile_px + gap_px
    cx0, cy0 = w / 2 - (n - 1) * pitch / 2, h / 2
    rot = cv2.getRotationMatrix2D((w / 2, h / 2), angle_deg, 1.0)
    quads = []
    shapes = ("circle", "square", "diamond", "circle", "square", "diamond", "circle", "square")
    for i, rgb in enumerate(colors_rgb):
        cx = cx0 + i * pitch
        s = tile_px / 2
        corners = np.array(
            [[cx - s, cy0 - s], [cx + s, cy0 - s], [cx + s, cy0 + s], [cx - s, cy0 + s]]
        )
        cv2.fillConvexPoly(img, np.rint(corners).astype(np.int32), (28, 26, 27))
        col = tuple(int(v) for v in rgb[::-1])
        r = int(tile_px * 0.3)
        kind = shapes[i % len(shapes)]
        if kind == "circle":
            cv2.circle(img, (int(cx), int(cy0)), r, col, -1, lineType=cv2.LINE_AA)
        elif kind == "square":
            cv2.rectangle(img, (int(cx - r), int(cy0 - r)), (int(cx + r), int(cy0 + r)), col, -1)
        else:
            pts = np.array([[cx, cy0 - r], [cx + r, cy0], [cx, cy0 + r], [cx - r, cy0]])
            cv2.fillConvexPoly(img, np.rint(pts).astype(np.int32), col, lineType=cv2.LINE_AA)
        quads.append(corners)
    img = cv2.warpAffine(img, rot, (w, h), flags=cv2.INTER_LINEAR, borderValue=table_rgb[::-1])
    quads = [cv2.transform(q[None], rot)[0] for q in quads]
    lin = _LIN[img[..., ::-1]] * np.asarray(cast)
    img = _encode(lin)[..., ::-1]
    img = cv2.GaussianBlur(img, (3, 3), 0.6)
    img = np.clip(img + rng.normal(0, noise, img.shape), 0, 255).astype(np.uint8)
    return np.ascontiguousarray(img), quads
