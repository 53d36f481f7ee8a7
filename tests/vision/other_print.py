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
from vision.shapes import SHAPE_ORDER, ShapeSettings, classify_profiles, edge_blur, radial_profiles

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


def tile_top_planes(
    shape: Shape,
    body: tuple[int, int, int],
    symbol: tuple[int, int, int],
    tile_px: int,
    blur: float,
    seed: int,
    noise: float,
    jpeg: int | None,
) -> NDArray[np.uint8]:
    """``(1, 3, P * P)`` B, G, R planes of one tile top (sRGB ``body`` and ``symbol``, R, G,
    B 0..255) drawn at ``tile_px``, turned by up to 4 degrees, blurred by ``blur`` of its side
    in linear light, with sensor ``noise`` (8-bit levels) and JPEG ``jpeg`` quality (4:2:0,
    the tile at a random offset to the 8 x 8 blocks), resampled to the patch and smoothed as
    the detector does (``patch_smooth`` 0.012). Deterministic by ``seed``."""
    rng = np.random.default_rng(seed)
    turn = math.radians(rng.uniform(-4.0, 4.0))
    area = cover(shape, tile_px, turn, rng.uniform(0.95, 1.05), rng.uniform(-0.02, 0.02, 2))
    mix = cv2.GaussianBlur(area, (0, 0), blur * tile_px)
    lb, ls = linear_from_srgb255(body), linear_from_srgb255(symbol)
    lin = lb[None, None, :] + mix[..., None] * (ls - lb)[None, None, :]
    rgb = srgb_from_linear(lin) + rng.normal(0.0, noise, lin.shape)
    bgr = np.clip(np.round(rgb), 0, 255).astype(np.uint8)[..., ::-1]
    if jpeg is not None:
        frame = np.empty((64, 64, 3), np.uint8)
        frame[:] = body[::-1]
        o = int(rng.integers(0, 8))
        frame[o : o + tile_px, o : o + tile_px] = bgr
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
        assert ok
        bgr = cv2.imdecode(buf, cv2.IMREAD_COLOR)[o : o + tile_px, o : o + tile_px]
    up = cv2.resize(bgr, (P, P), interpolation=cv2.INTER_LINEAR)
    up = cv2.GaussianBlur(up, (0, 0), 0.012 * P)
    return np.ascontiguousarray(up.reshape(P * P, 3).T)[None]


def misread_count(
    mixes: NDArray[np.float32],
    truth: NDArray[np.int64],
    body: tuple[int, int, int],
    symbol: tuple[int, int, int],
    settings: ShapeSettings | None = None,
) -> int:
    """Symbols the classifier reads as anything but their kind: ``mixes`` ``(n, P, P)``
    shares of symbol light, ``truth`` ``(n,)`` indices into ``SHAPE_ORDER``, every tile with
    the sRGB ``body`` and ``symbol`` colours (``settings``: the default classifier's when
    None)."""
    n = len(mixes)
    s = ShapeSettings() if settings is None else settings
    prof, sol, ok = radial_profiles(mixes > 0.5, s.bins)
    assert ok.all()
    b = np.tile(np.array([body], float), (n, 1))
    y = np.tile(np.array([symbol], float), (n, 1))
    _, conf = classify_profiles(prof, sol, s, edge_blur(mixes), mixes, b, y, mixes)
    return int((np.argmax(conf, axis=1) != truth).sum())


def pair_truth(pair: tuple[Shape, Shape], n: int) -> NDArray[np.int64]:
    """``(n,)`` the kinds of ``n`` tiles alternating between the two shapes of ``pair``."""
    return np.array([SHAPE_ORDER.index(pair[i % 2]) for i in range(n)])
