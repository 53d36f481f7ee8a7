"""A highlight's gradient over a tile's black paint is taken out of the share of symbol
light the grey shape terms read (``DetectorSettings.glare_mix_min_slope``).

The share of symbol light (:func:`vision.shapes.linear_light_mix`) measures every pixel
against one body colour; a highlight that brightens one end of the paint reads there as
part symbol, and the templates see a ramp added to the symbol: a glared star8 reads as a
circle or a square.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from hard_scenes import false_tiles, missed_tiles, score_hard_scene

from vision.detect import DetectorSettings, _mix_without_glare, _patch_geometry
from vision.evaluate import legal_board
from vision.shapes import linear_light_mix

ON = DetectorSettings()


def _glared_patch(ramp: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A 48 px patch: black paint (sRGB 30) under a highlight rising ``ramp`` (sRGB
    levels) from the left side to the right, and a red disc of radius 0.25 tile sides.
    Returns the uint8 planes ``(1, 3, p * p)`` (B, G, R), the body and symbol colours
    ``(1, 3)`` as the reading measures them (margin median, centre) and the disc's mask."""
    p = ON.patch_px
    geo = _patch_geometry(p, ON)
    u, w = geo.u_flat, geo.w_flat
    disc = np.hypot(u, w) <= 0.25
    bgr = np.zeros((3, p * p))
    bgr[:] = 30.0
    bgr[2, disc] = 200.0
    bgr += ramp * (u + 0.5)[None, :]  # the light's grey, added to every channel
    planes = np.clip(np.round(bgr), 0, 255).astype(np.uint8)[None]
    body = np.median(planes[0][:, geo.body_idx], axis=1)[None].astype(np.float32)
    symbol = planes[0][:, geo.centre_idx].mean(axis=1)[None].astype(np.float64)
    return planes, body, symbol, disc


def _before_and_after(ramp: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The share of symbol light of :func:`_glared_patch` ``(1, p * p)`` as the reading
    measures it, the same with glare taken out, and the disc's mask ``(p * p,)``."""
    planes, body, symbol, disc = _glared_patch(ramp)
    geo = _patch_geometry(ON.patch_px, ON)
    before = linear_light_mix(planes, body, symbol) * geo.inner_flat[None, :]
    after = _mix_without_glare(
        before, planes, body, symbol, None, geo, ON.glare_mix_min_slope, ON.glare_mix_max_misfit
    )
    return before, after, disc


def test_a_glared_body_ramp_is_taken_out_of_the_mix() -> None:
    before, after, disc = _before_and_after(60.0)
    geo = _patch_geometry(ON.patch_px, ON)
    paint = geo.inner_flat & ~disc & (np.hypot(geo.u_flat, geo.w_flat) > 0.3)
    lit_paint = paint & (geo.u_flat > 0.2)
    # the lit end of the paint read as part symbol before, as paint after
    assert before[0, lit_paint].mean() > 0.03
    assert after[0, lit_paint].mean() < 0.3 * before[0, lit_paint].mean()
    # the symbol stays symbol: its core keeps nearly all of its share
    core = np.hypot(geo.u_flat, geo.w_flat) <= 0.15
    assert after[0, core].mean() > 0.9
    assert after.min() >= 0.0 and after.max() <= 1.0


def test_an_even_body_is_left_as_it_was() -> None:
    before, after, _ = _before_and_after(0.0)
    np.testing.assert_array_equal(after, before)


def test_glared_star8s_are_read_as_star8s() -> None:
    """hard_legal seed 2026 scene 61 (70 px tiles on green felt, two glare spots): five
    glared symbols read as circles and squares without it, at most one with it; nothing
    missed or false either way."""
    assert ON.glare_mix_min_slope > 0  # on by default
    off = dataclasses.replace(ON, glare_mix_min_slope=0.0)
    on_sc = score_hard_scene(2026, 61, legal_board, ON)
    off_sc = score_hard_scene(2026, 61, legal_board, off)
    assert off_sc.matched - off_sc.identity_ok >= 4
    assert on_sc.matched - on_sc.identity_ok <= 1
    for sc in (on_sc, off_sc):
        assert missed_tiles(sc) == false_tiles(sc) == 0
