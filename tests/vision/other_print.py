"""A printing of the six symbols with other proportions than the classifier's prototypes
(:func:`vision.shapes.shape_polygon`), for tests that draw tile tops themselves: fatter
clover lobes, a larger diamond, a smaller circle, a star8 with shallower valleys. Polygons
are in tile units (side 1, centre 0)."""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from scorer.model import Shape
from vision.detect import DetectorSettings

P = DetectorSettings().patch_px  # the canonical tile-top patch's side, px
K = round(DetectorSettings().patch_inset * P)  # the border the symbol's segmentation ignores
INNER = np.zeros((P, P), bool)  # ``(P, P)`` the patch inside that border
INNER[K : P - K, K : P - K] = True


def circle(cx: float, cy: float, r: float, n: int = 64) -> NDArray[np.float64]:
    """``(n, 2)`` points of a circle."""
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)


def star(points: int, outer: float, inner: float, phase: float) -> NDArray[np.float64]:
    """``(2 * points, 2)`` corners of a star, tips at ``outer``, valleys at ``inner``."""
    out = []
    for k in range(2 * points):
        a = phase + k * math.pi / points
        r = outer if k % 2 == 0 else inner
        out.append((r * math.cos(a), r * math.sin(a)))
    return np.array(out)


def other_print(shape: Shape) -> list[NDArray[np.float64]]:
    """The polygons whose union is ``shape`` in this printing."""
    if shape is Shape.CIRCLE:
        return [circle(0, 0, 0.29)]
    if shape is Shape.SQUARE:
        s = 0.27
        return [np.array([[-s, -s], [s, -s], [s, s], [-s, s]])]
    if shape is Shape.DIAMOND:
        d = 0.37
        return [np.array([[0, -d], [d, 0], [0, d], [-d, 0]])]
    if shape is Shape.CLOVER:
        lobes = [
            circle(0.16 * math.cos(a), 0.16 * math.sin(a), 0.155)
            for a in np.arange(4) * math.pi / 2
        ]
        return [*lobes, circle(0, 0, 0.13)]
    if shape is Shape.STAR4:
        return [star(4, 0.40, 0.12, math.pi / 4)]
    return [star(8, 0.36, 0.21, 0.0)]


def cover(
    shape: Shape, side_px: int, turn: float, scale: float, shift: NDArray[np.float64]
) -> NDArray[np.float64]:
    """``(side_px, side_px)`` share of a tile top's area the symbol covers, 0..1.

    The symbol is turned by ``turn`` radians, scaled by ``scale`` and shifted by ``shift``
    (tile units), drawn anti-aliased at 8x and averaged down to ``side_px``.
    """
    ss = 8
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    big = np.zeros((side_px * ss, side_px * ss), np.uint8)
    for poly in other_print(shape):
        pts = ((poly @ rot.T) * scale + shift + 0.5) * side_px * ss
        cv2.fillPoly(big, [np.round(pts).astype(np.int32)], 255, lineType=cv2.LINE_AA)
    area = cv2.resize(big, (side_px, side_px), interpolation=cv2.INTER_AREA)
    return area.astype(np.float64) / 255.0


def srgb_from_linear(lin: NDArray[np.float64]) -> NDArray[np.float64]:
    """Linear light 0..1 to sRGB 0..255 (IEC 61966-2-1), unrounded."""
    v = np.clip(lin, 0.0, 1.0)
    return 255.0 * np.where(v > 0.0031308, 1.055 * v ** (1 / 2.4) - 0.055, 12.92 * v)


def linear_from_srgb255(srgb: tuple[float, float, float]) -> NDArray[np.float64]:
    """sRGB 0..255 to linear light 0..1 (IEC 61966-2-1)."""
    v = np.asarray(srgb, np.float64) / 255.0
    return np.where(v > 0.04045, ((v + 0.055) / 1.055) ** 2.4, v / 12.92)
