"""Symbol size as evidence of its kind across one image (:func:`vision.shapes.size_consistency`).

Symbols are drawn in another printing than the classifier's prototypes (``other_print``), at a
few sizes, turns and shifts, blurred; their summed share over the tile is what the detector
passes as ``size``. Seeds are fixed.
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
from numpy.typing import NDArray
from other_print import cover

from scorer.model import Shape
from vision.shapes import SHAPE_ORDER, ShapeSettings, size_consistency

P = 48  # DetectorSettings.patch_px
SQ, S4, CIR, CLO, DIA = (
    SHAPE_ORDER.index(Shape.SQUARE),
    SHAPE_ORDER.index(Shape.STAR4),
    SHAPE_ORDER.index(Shape.CIRCLE),
    SHAPE_ORDER.index(Shape.CLOVER),
    SHAPE_ORDER.index(Shape.DIAMOND),
)


def _size(shape: Shape, blur: float, rng: np.random.Generator, scale: float = 1.0) -> float:
    """Mean share of symbol light over a ``P`` px patch of a blurred, slightly turned and
    shifted symbol of ``other_print`` (``scale`` x its printed size)."""
    c = cover(
        shape,
        P,
        math.radians(float(rng.uniform(-5, 5))),
        scale * float(rng.uniform(0.99, 1.01)),
        rng.uniform(-0.02, 0.02, 2),
    )
    if blur > 0:
        c = cv2.GaussianBlur(c, (0, 0), blur * P, borderType=cv2.BORDER_CONSTANT)
    return float(c.mean())


def _confident(k: int, n: int) -> NDArray[np.float64]:
    """``(n, 6)`` confidences sure of kind ``k``."""
    c = np.full((n, len(SHAPE_ORDER)), 1e-4)
    c[:, k] = 1.0
    return c / c.sum(axis=1, keepdims=True)


def test_size_survives_blur() -> None:
    """The summed share is the printed area whatever the blur (to within the spread measured
    on renders, 0.05 in the log: what blur spreads beyond the patch is lost)."""
    rng = np.random.default_rng(11)
    for sh in SHAPE_ORDER:
        sharp = _size(sh, 0.0, rng)
        for blur in (0.04, 0.08, 0.12):
            assert abs(math.log(_size(sh, blur, rng) / sharp)) < 0.05, (sh, blur)


def _scene(rng: np.random.Generator, blur: float = 0.06) -> tuple[NDArray[np.float64], ...]:
    """Six confident squares, six star4s, six circles at one printing and their sizes."""
    conf = np.concatenate([_confident(SQ, 6), _confident(S4, 6), _confident(CIR, 6)])
    size = np.array(
        [_size(Shape.SQUARE, blur, rng) for _ in range(6)]
        + [_size(Shape.STAR4, blur, rng) for _ in range(6)]
        + [_size(Shape.CIRCLE, blur, rng) for _ in range(6)]
    )
    return conf, size


def test_star4_read_as_square_is_set_right_by_its_size() -> None:
    """A blurred star4 the symbol terms call a square (0.7 / 0.3) has a star4's size: it is
    read as a star4; the confident symbols keep their readings."""
    rng = np.random.default_rng(3)
    conf, size = _scene(rng)
    odd = np.full(len(SHAPE_ORDER), 1e-4)
    odd[SQ], odd[S4] = 0.7, 0.3
    conf = np.vstack([conf, odd / odd.sum()])
    size = np.append(size, _size(Shape.STAR4, 0.12, rng))
    out = size_consistency(conf, size)
    assert np.allclose(out.sum(axis=1), 1.0)
    assert int(np.argmax(out[-1])) == S4
    assert out[-1, S4] > 0.95
    assert (np.argmax(out[:-1], axis=1) == np.argmax(conf[:-1], axis=1)).all()


def test_confident_and_unsized_symbols_are_kept() -> None:
    """A confident reading is not overturned by its size (the penalty's ceiling), and a
    symbol fitting no kind's size (half hidden) is left as it is."""
    rng = np.random.default_rng(5)
    conf, size = _scene(rng)
    sure = np.full(len(SHAPE_ORDER), 1e-6)
    sure[CIR] = 1.0
    half = np.full(len(SHAPE_ORDER), 1e-4)
    half[SQ], half[DIA] = 0.6, 0.4
    conf = np.vstack([conf, sure / sure.sum(), half / half.sum()])
    # a circle at a star4's size; a square with most of it hidden (a size no kind has)
    size = np.append(size, [size[6], 0.5 * _size(Shape.STAR4, 0.06, rng)])
    out = size_consistency(conf, size)
    assert int(np.argmax(out[-2])) == CIR
    assert np.allclose(out[-1], conf[-1])


def test_near_sizes_and_switch_off() -> None:
    """Kinds of near sizes (clover, diamond: about 10 % apart) are not told apart by size; a
    size_sigma of 0 returns the confidences unchanged."""
    rng = np.random.default_rng(7)
    conf = np.concatenate([_confident(CLO, 5), _confident(DIA, 5)])
    size = np.array(
        [_size(Shape.CLOVER, 0.08, rng) for _ in range(5)]
        + [_size(Shape.DIAMOND, 0.08, rng) for _ in range(5)]
    )
    odd = np.full(len(SHAPE_ORDER), 1e-4)
    odd[CLO], odd[DIA] = 0.55, 0.45
    conf = np.vstack([conf, odd / odd.sum()])
    size = np.append(size, _size(Shape.DIAMOND, 0.08, rng))
    out = size_consistency(conf, size)
    assert math.isclose(out[-1, CLO] / out[-1, DIA], conf[-1, CLO] / conf[-1, DIA], rel_tol=1e-9)
    assert int(np.argmax(out[-1])) == CLO
    off = dataclasses.replace(ShapeSettings(), size_sigma=0.0)
    assert size_consistency(conf, size, off) is conf
