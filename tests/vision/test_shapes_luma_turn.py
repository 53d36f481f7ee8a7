"""Shape reading with colour blurred more than brightness, and with symbols turned in their
patch (:mod:`vision.shapes`): :func:`luma_guided_mix` and the prototypes' turn freedom.

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
from other_print import INNER, P, cover, linear_from_srgb255, srgb_from_linear

from scorer.model import Shape
from vision.shapes import (
    SHAPE_ORDER,
    ShapeSettings,
    classify_profiles,
    edge_blur,
    integrated_profiles,
    linear_light_mix,
    luma_guided_mix,
    notch_harmonic,
    radial_profiles,
    template_scores,
)

SMOOTH = 0.012  # DetectorSettings.patch_smooth


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
    turn = math.radians(rng.uniform(-4, 4) if turn_deg is None else turn_deg)
    scale = rng.uniform(0.94, 1.06)
    shift = rng.uniform(-0.02, 0.02, 2)
    area = cover(shape, tile_px, turn, scale, shift)
    mix = cv2.GaussianBlur(area, (0, 0), blur * tile_px)
    lb, ls = linear_from_srgb255(body_rgb), linear_from_srgb255(symbol_rgb)
    lin = lb[None, None, :] + mix[..., None] * (ls - lb)[None, None, :]
    rgb = np.clip(np.round(srgb_from_linear(lin) + rng.normal(0, 1.5, lin.shape)), 0, 255).astype(
        np.uint8
    )
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


def _mixes(
    planes: NDArray[np.uint8], body: tuple, symbol: tuple, settings: ShapeSettings
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """``(plain, guided)`` mixes of one patch, ``(P, P)`` each, zero outside the inner region."""
    inner = INNER.reshape(-1).astype(np.float32)
    rgb_b, rgb_s = np.array([body], float), np.array([symbol], float)
    plain = linear_light_mix(planes[None], rgb_b[:, ::-1], rgb_s[:, ::-1]) * inner
    guided = (
        luma_guided_mix(plain, planes[None], rgb_b[:, ::-1], rgb_s[:, ::-1], P, settings) * inner
    )
    return plain.reshape(P, P), guided.reshape(P, P)


def _notch(mix: NDArray[np.floating]) -> float:
    """The notch harmonic ``a8`` of a ``(P, P)`` mix, smoothed as the classifier reads it."""
    sm = cv2.GaussianBlur(np.asarray(mix, np.float32), (0, 0), ShapeSettings().notch_smooth * P)
    return float(notch_harmonic(integrated_profiles(sm[None], 72))[0][0])


@pytest.mark.parametrize(("colours", "gain"), [(RED, 0.8), (PURPLE, 0.8), (YELLOW, 1.0)])
def test_luma_guide_gives_back_the_detail_jpeg_kept_in_brightness(
    colours: tuple, gain: float
) -> None:
    """27 px tiles blurred by 5 % of the side and JPEG-coded at quality 70: the colour of a
    red or purple symbol on a black body comes back at half resolution, which fills a
    clover's notches and rounds a diamond's tips. The notch harmonic of the guided mix is
    clearly closer to that of the true share of light than the plain mix's (summed error
    over 8 clovers and 8 diamonds at most ``gain`` of it); a yellow symbol, whose contrast
    is mostly brightness anyway, is not read worse."""
    body, symbol = colours
    s = ShapeSettings()
    err_plain = err_guided = 0.0
    for shape in (Shape.CLOVER, Shape.DIAMOND):
        for seed in range(8):
            planes, truth = _patch(shape, 0.05, body, symbol, seed=40 + seed)
            plain, guided = _mixes(planes, body, symbol, s)
            want = _notch(truth * INNER)
            err_plain += abs(_notch(plain) - want)
            err_guided += abs(_notch(guided) - want)
    assert err_guided <= gain * err_plain + 5e-4, (err_guided, err_plain)


def test_luma_guide_keeps_a_symbol_without_brightness_contrast() -> None:
    """A symbol as bright as its body (a saturated red on a lit brownish body: luma equal to
    within a code) differs only in colour; the guide has nothing to follow and the mix stays
    as it was, to within the noise."""
    body, symbol = (115, 78, 60), (250, 20, 10)
    y = [0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] for c in (body, symbol)]
    assert abs(y[0] - y[1]) < 3.0
    s = ShapeSettings()
    for seed in range(4):
        planes, truth = _patch(Shape.DIAMOND, 0.05, body, symbol, seed=70 + seed, jpeg=None)
        plain, guided = _mixes(planes, body, symbol, s)
        e_p = float(np.abs(plain - truth)[INNER].mean())
        e_g = float(np.abs(guided - truth)[INNER].mean())
        assert e_g <= e_p + 0.01, (e_g, e_p)


def test_luma_guide_works_patch_by_patch_and_on_edge_cases() -> None:
    """Each patch of a stack is filtered on its own (its neighbours in the stack change
    nothing); radius 0 returns the mix unchanged; empty input gives empty output; the result
    is float32 in 0..1."""
    s = ShapeSettings()
    body, symbol = RED
    a, _ = _patch(Shape.CLOVER, 0.05, body, symbol, seed=1)
    b, _ = _patch(Shape.DIAMOND, 0.03, *YELLOW, seed=2)
    planes = np.stack([a, b])
    rgb_b = np.array([body, YELLOW[0]], float)[:, ::-1]
    rgb_s = np.array([symbol, YELLOW[1]], float)[:, ::-1]
    mix = linear_light_mix(planes, rgb_b, rgb_s)
    both = luma_guided_mix(mix, planes, rgb_b, rgb_s, P, s)
    alone = luma_guided_mix(mix[:1], planes[:1], rgb_b[:1], rgb_s[:1], P, s)
    assert both.dtype == np.float32 and both.shape == (2, P * P)
    assert both.min() >= 0.0 and both.max() <= 1.0
    np.testing.assert_allclose(both[0], alone[0], atol=1e-6)
    off = dataclasses.replace(s, luma_guide_radius=0.0)
    assert luma_guided_mix(mix, planes, rgb_b, rgb_s, P, off) is mix
    assert luma_guided_mix(mix[:0], planes[:0], rgb_b[:0], rgb_s[:0], P, s).shape == (0, P * P)


def _classify(
    patches: list[tuple[NDArray[np.uint8], tuple, tuple]], settings: ShapeSettings
) -> NDArray[np.int64]:
    """Read patches through the detector's path: the sRGB projection score, its half-height
    blob's outline profile and measured blur, and the grey terms on the (guided) mix."""
    scores, mixes, bodies, syms = [], [], [], []
    inner = INNER.reshape(-1).astype(np.float32)
    for planes, body, symbol in patches:
        bgr = planes.T.astype(np.float64)  # (P * P, 3)
        b = np.asarray(body, float)[::-1]
        d = np.asarray(symbol, float)[::-1] - b
        scores.append((np.clip(((bgr - b) @ d) / float(d @ d), 0, 1) * inner).reshape(P, P))
        plain = linear_light_mix(planes[None], b[None], (b + d)[None]) * inner
        guided = luma_guided_mix(plain, planes[None], b[None], (b + d)[None], P, settings)
        mixes.append((guided * inner).reshape(P, P))
        bodies.append(body)
        syms.append(symbol)
    score = np.stack(scores).astype(np.float32)
    prof, sol, ok = radial_profiles(score > 0.5, settings.bins)
    assert ok.all()
    _, conf = classify_profiles(
        prof,
        sol,
        settings,
        edge_blur(score),
        score,
        np.array(bodies, float),
        np.array(syms, float),
        np.stack(mixes).astype(np.float32),
    )
    return np.argmax(conf, axis=1)


def test_jpeg_coded_red_and_purple_diamonds_and_clovers_are_read_better_with_the_guide() -> None:
    """Red and purple diamonds and clovers on 27 px tiles, blurred by 5-7 % of the side and
    JPEG-coded at quality 70 (the hard benchmark's worst band): the guided mix reads more of
    them right than the plain one."""
    shapes = [Shape.DIAMOND, Shape.CLOVER] * 12
    truth = np.array([SHAPE_ORDER.index(sh) for sh in shapes])
    on = ShapeSettings()
    off = dataclasses.replace(on, luma_guide_radius=0.0)
    right = {"on": 0, "off": 0}
    for blur, seed0 in ((0.05, 300), (0.06, 400), (0.07, 500)):
        patches = []
        for i, sh in enumerate(shapes):
            body, symbol = (RED, PURPLE)[i % 2]
            planes, _ = _patch(sh, blur, body, symbol, seed=seed0 + i)
            patches.append((planes, body, symbol))
        right["on"] += int((_classify(patches, on) == truth).sum())
        right["off"] += int((_classify(patches, off) == truth).sum())
    assert right["on"] >= right["off"] + 4, right
    assert right["on"] >= 0.9 * 3 * len(shapes), right


@pytest.mark.parametrize("turn", [16.0, 20.0, -20.0])
def test_a_star8_turned_off_the_patch_axes_still_matches_its_prototype(turn: float) -> None:
    """A star8 turned 16-20 degrees in its patch (the patch follows the tile's measured
    edges, which may be off by more than the tile's own turn) is as close to the star8
    prototype, by outline and by template, as an unturned one. With the star8 allowed no
    more turn than the other prototypes (10 degrees of outline, 6 of template), as before,
    it drifts to about the circle's distance."""
    s = ShapeSettings()
    before = dataclasses.replace(
        s, star8_shift_bins=2, star8_template_turns_deg=(), template_turns_deg=(-6.0, 0.0, 6.0)
    )
    star8 = SHAPE_ORDER.index(Shape.STAR8)
    body, symbol = YELLOW
    read = {}
    for t in (0.0, turn):
        planes, _ = _patch(Shape.STAR8, 0.03, body, symbol, 5, tile_px=36, jpeg=None, turn_deg=t)
        _, mix = _mixes(planes, body, symbol, s)
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
