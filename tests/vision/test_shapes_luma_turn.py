"""Shape reading with symbols turned in their patch (:mod:`vision.shapes`): the star8
prototype's turn freedom.

Symbols are drawn with other proportions than the classifier's prototypes (another printing
of the set), mixed with the body in linear light, blurred, sRGB-encoded, noised and - where
a camera's colour resolution matters - JPEG-coded at the size a small tile has in the image
(4:2:0 chroma, as OpenCV's encoder writes by default), then resampled to the detector's patch.
Seeds are fixed.
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from scorer.model import Shape
from vision.shapes import (
    SHAPE_ORDER,
    ShapeSettings,
    classify_profiles,
    edge_blur,
    linear_light_mix,
    radial_profiles,
    template_scores,
)

P = 48  # DetectorSettings.patch_px
INSET = 0.08  # DetectorSettings.patch_inset
SMOOTH = 0.012  # DetectorSettings.patch_smooth
K = round(INSET * P)
INNER = np.zeros((P, P), bool)
INNER[K : P - K, K : P - K] = True


def _circle(cx: float, cy: float, r: float, n: int = 64) -> NDArray[np.float64]:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)


def _polys(shape: Shape) -> list[NDArray[np.float64]]:
    """Another printing (tile side 1, centre 0): fatter clover lobes, a larger diamond, a
    star8 with shallower valleys, a smaller circle."""
    if shape is Shape.CIRCLE:
        return [_circle(0, 0, 0.29)]
    if shape is Shape.DIAMOND:
        d = 0.37
        return [np.array([[0, -d], [d, 0], [0, d], [-d, 0]])]
    if shape is Shape.CLOVER:
        lobes = [
            _circle(0.16 * math.cos(a), 0.16 * math.sin(a), 0.155)
            for a in np.arange(4) * math.pi / 2
        ]
        return [*lobes, _circle(0, 0, 0.13)]
    if shape is Shape.STAR8:
        pts = []
        for k in range(16):
            a = k * math.pi / 8
            r = 0.36 if k % 2 == 0 else 0.21
            pts.append((r * math.cos(a), r * math.sin(a)))
        return [np.array(pts)]
    raise ValueError(shape)


def _srgb(lin: NDArray[np.float64]) -> NDArray[np.float64]:
    v = np.clip(lin, 0.0, 1.0)
    return 255.0 * np.where(v > 0.0031308, 1.055 * v ** (1 / 2.4) - 0.055, 12.92 * v)


def _lin(srgb: tuple[float, float, float]) -> NDArray[np.float64]:
    v = np.asarray(srgb, np.float64) / 255.0
    return np.where(v > 0.04045, ((v + 0.055) / 1.055) ** 2.4, v / 12.92)


def _patch(
    shape: Shape,
    blur: float,
    body_rgb: tuple[float, float, float],
    symbol_rgb: tuple[float, float, float],
    seed: int,
    *,
    tile_px: int = 27,
    jpeg: int | None = 70,
    turn_deg: float | None = None,
) -> tuple[NDArray[np.uint8], NDArray[np.float64]]:
    """A tile top as the detector's patch sees it: ``(3, P * P)`` smoothed B, G, R planes and
    the true ``(P, P)`` share of symbol light (the blurred cover, resampled the same way).

    The tile is drawn at ``tile_px`` image pixels (turned ``turn_deg``, else a random few
    degrees; scaled and shifted a little), blurred in linear light by ``blur`` x the side,
    encoded to sRGB with noise of 1.5/255, JPEG-coded at quality ``jpeg`` (None: not), then
    resampled to ``P`` pixels and smoothed as the detector does.
    """
    rng = np.random.default_rng(seed)
    ss = 8
    turn = math.radians(rng.uniform(-4, 4) if turn_deg is None else turn_deg)
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    scale = rng.uniform(0.94, 1.06)
    shift = rng.uniform(-0.02, 0.02, 2)
    big = np.zeros((tile_px * ss, tile_px * ss), np.uint8)
    for poly in _polys(shape):
        pts = ((poly @ rot.T) * scale + shift + 0.5) * tile_px * ss
        cv2.fillPoly(big, [np.round(pts).astype(np.int32)], 255, lineType=cv2.LINE_AA)
    cover = cv2.resize(big, (tile_px, tile_px), interpolation=cv2.INTER_AREA) / 255.0
    mix = cv2.GaussianBlur(cover, (0, 0), blur * tile_px)
    lb, ls = _lin(body_rgb), _lin(symbol_rgb)
    lin = lb[None, None, :] + mix[..., None] * (ls - lb)[None, None, :]
    rgb = np.clip(np.round(_srgb(lin) + rng.normal(0, 1.5, lin.shape)), 0, 255).astype(np.uint8)
    bgr = np.ascontiguousarray(rgb[..., ::-1])
    if jpeg is not None:
        ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
        assert ok
        bgr = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    up = cv2.resize(bgr, (P, P), interpolation=cv2.INTER_LINEAR)
    up = cv2.GaussianBlur(up, (0, 0), SMOOTH * P)
    truth = cv2.resize(mix, (P, P), interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(up.reshape(P * P, 3).T), truth


RED = ((40, 38, 42), (205, 40, 35))  # (body, symbol) sRGB: red on a black body
PURPLE = ((40, 38, 42), (120, 60, 170))
YELLOW = ((40, 38, 42), (240, 210, 40))


def _mix(planes: NDArray[np.uint8], body: tuple, symbol: tuple) -> NDArray[np.float32]:
    """The share of symbol light of one patch, ``(P, P)``, zero outside the inner region."""
    inner = INNER.reshape(-1).astype(np.float32)
    rgb_b, rgb_s = np.array([body], float)[:, ::-1], np.array([symbol], float)[:, ::-1]
    return (linear_light_mix(planes[None], rgb_b, rgb_s) * inner).reshape(P, P)


@pytest.mark.parametrize("turn", [16.0, 20.0, -20.0])
def test_a_star8_turned_off_the_patch_axes_still_matches_its_prototype(turn: float) -> None:
    """A star8 turned 16-20 degrees in its patch (the patch follows the tile's measured
    edges, which may be off by more than the tile's own turn) is as close to the star8
    prototype, by outline and by template, as an unturned one. With the star8 allowed no
    more turn than the other prototypes (10 degrees of outline, 6 of template), as before,
    it drifts to about the circle's distance."""
    s = ShapeSettings()
    before = dataclasses.replace(s, star8_shift_bins=2, star8_template_turns_deg=())
    star8 = SHAPE_ORDER.index(Shape.STAR8)
    body, symbol = YELLOW
    read = {}
    for t in (0.0, turn):
        planes, _ = _patch(Shape.STAR8, 0.03, body, symbol, 5, tile_px=36, jpeg=None, turn_deg=t)
        mix = _mix(planes, body, symbol)
        prof, sol, ok = radial_profiles((mix > 0.5)[None], s.bins)
        assert ok.all()
        blur = edge_blur(mix[None])
        read[t] = {
            name: (
                float(classify_profiles(prof, sol, st)[0][0, star8]),
                float(template_scores(mix[None], blur, st)[0, star8]),
            )
            for name, st in (("now", s), ("before", before))
        }
    (d0, c0), (d1, c1) = read[0.0]["now"], read[turn]["now"]
    assert d1 <= d0 + 0.035 and c1 >= c0 - 0.005, read
    (b0, e0), (b1, e1) = read[0.0]["before"], read[turn]["before"]
    assert b1 >= b0 + 0.05 and e1 <= e0 - 0.02, read
