"""Diamonds and clovers on small, dim, JPEG-compressed tile tops (:mod:`vision.shapes`).

The diamond <-> clover pair makes most of the identity errors on the hard renders (645 of
1,095 misread tiles on the 40 tuning sets of the fifteenth session). Measured then: they fall
on tiles under 36 px (206 of 218 on nine random-board sets) and on dim symbols (red, purple
and blue at under 200 of 255 in their brightest channel: 30-150 per 1,000 tiles; yellow 4),
and re-rendering the scenes of two sets (R59g, R37g) that showed them with the same blur
took their diamond <-> clover misreads from 30 / 40 to 16 / 13 without sensor noise, 8 / 10
without JPEG (12 / 17 with JPEG at quality 100: its 4:2:0 colour alone), 4 / 1 with
neither: the pair is limited by the camera's noise and JPEG, not by blur. JPEG halves the
colour's resolution (4:2:0), and a red symbol on a black body differs from it mostly in
colour, so what keeps its shape is the luma (:func:`vision.shapes.luma_guided_mix`). These
tests draw the symbols to other proportions than the prototypes (:mod:`other_print`), blur
them in linear light, add noise, JPEG-compress them inside a larger frame and read them
through the classifier.
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray
from other_print import INNER, P, misread_count, pair_truth, tile_top_planes

from scorer.model import Shape
from vision.shapes import linear_light_mix, luma_guided_mix

BODY, SYMBOL = (30, 28, 32), (150, 45, 50)  # sRGB: a dim red symbol on a black body
TILE_PX = 27  # near the benchmark's smallest in-spec pitch (25 px)
PAIR = (Shape.DIAMOND, Shape.CLOVER)


def _mix(
    shape: Shape, blur: float, seed: int, noise: float, jpeg: int | None, guide: bool
) -> NDArray[np.float32]:
    """The ``(P, P)`` share of symbol light the classifier reads from one tile top drawn at
    ``TILE_PX``, blurred by ``blur`` of its side, with sensor ``noise`` (8-bit levels) and
    JPEG ``jpeg`` quality (4:2:0, the tile at a random offset to the 8 x 8 blocks), patch
    resampled and smoothed as the detector does (``patch_smooth`` 0.012)."""
    planes = tile_top_planes(shape, BODY, SYMBOL, TILE_PX, blur, seed, noise, jpeg)
    b, s = np.array([BODY[::-1]], float), np.array([SYMBOL[::-1]], float)
    inner = INNER.reshape(-1).astype(np.float32)
    out = linear_light_mix(planes, b, s) * inner
    if guide:
        out = luma_guided_mix(out, planes, b, s, P) * inner
    return out.reshape(P, P)


def _errors(blur: float, noise: float, jpeg: int | None, guide: bool = True, n: int = 40) -> int:
    """Diamonds and clovers (``n`` / 2 each, fixed seeds) read as anything else."""
    mixes = np.stack(
        [_mix(PAIR[i % 2], blur, 1000 + i, noise, jpeg, guide) for i in range(n)]
    ).astype(np.float32)
    return misread_count(mixes, pair_truth(PAIR, n), BODY, SYMBOL)


def test_dim_diamonds_and_clovers_survive_jpeg_through_the_luma() -> None:
    """Blurred by 5 % of the side (the hard renders' median edge blur is about 0.06), with
    noise of 3 levels and JPEG at quality 60: all 40 read right (measured 0); read from the
    colour alone (no luma guide) 6 of 40 were wrong, and 12 of 40 without the noise (which
    dithers JPEG's quantisation)."""
    assert _errors(0.05, 3.0, 60) <= 1
    assert _errors(0.05, 3.0, 60, guide=False) >= 3


def test_blurred_dim_diamonds_and_clovers_without_noise_or_jpeg_read_right() -> None:
    """Without JPEG, blur up to 6.5 % of the side costs nothing on the pair, with or without
    noise (measured 0 of 40 each): blur alone is not what confuses it on the renders."""
    for blur in (0.05, 0.065):
        for noise in (0.0, 3.0):
            assert _errors(blur, noise, None) == 0, (blur, noise)


@pytest.mark.xfail(strict=True, reason="known bias: heavily blurred diamonds read as clovers")
def test_heavily_blurred_clean_diamonds_are_read_as_diamonds() -> None:
    """At 8 % of the side (a tail of the hard renders: measured edge blur 0.09, 0.10 after the
    notch term's smoothing), clean diamonds read as clovers: 14 of 20 (no noise, no JPEG).
    The prototypes' notch harmonic (:func:`vision.shapes.notch_distances`) is drawn uncut and
    blurred as a whole, while a symbol's patch is cut at ``patch_inset`` before the notch
    smoothing: under this much blur the cut takes tails on the tile's axes, not on the
    diagonals, and the drawn clovers keep an ``a8`` of about -0.0013 where the prototype's
    has crossed to +0.0009, which puts the diamonds (+0.0019) at the prototypes' midpoint.
    Cutting the prototypes the same way fixes these tiles but moved the renders' balance
    too far the other way (diamond -> clover 126 -> 88, clover -> diamond 84 -> 121 on nine
    sets; 193 -> 214 on ten others), the renderer's diamond (0.36 of the side) being larger
    than the prototype's (0.34)."""
    assert _errors(0.08, 0.0, None) <= 4
