"""Reads whose dark margin shows its own symbol's hue far beyond the board's bleed
(``DetectorSettings.max_margin_bleed``, ``bleed_min_reads``, ``bleed_floor``).

Blur and JPEG chroma lend a tile's black margin some of its own symbol's colour, by a share
about the same for every tile of one image. A noise cloth's light blot inside a dark blot of
the same hue reads as a symbol in a "margin" of that hue, far beyond that share.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from hard_scenes import false_tiles as _false
from hard_scenes import score_hard_scene

from vision.detect import DetectorSettings, _margin_bleed
from vision.evaluate import legal_board

# (measured with the table-colour test off: since branch false18 it takes the same look-alikes;
# and the off-lattice check: since branch false21 it takes some of them too)
DEFAULT = DetectorSettings(
    table_colour_share=0.0, offset_min_cells=0.0, glare_ramp=0.0, glare_cut_min_distance=0.0
)
OFF = dataclasses.replace(DEFAULT, max_margin_bleed=0.0)


def test_a_noise_cloths_blots_in_blots_of_their_hue_make_no_tiles() -> None:
    """Seed 37 legal scene 2, linear render (purple / navy / lavender noise cloth, dim,
    oblique; found 2026-11-22): lavender and sky-blue blots in purple and navy ones read as
    ten tiles one or two cells from the board; those whose margin bleeds beyond 20x the
    board's go (6 of them when measured, at least 3 here), every tile stays and reads the
    same."""
    on = score_hard_scene(37, 2, legal_board, DEFAULT, "linear")
    off = score_hard_scene(37, 2, legal_board, OFF, "linear")
    assert _false(off) >= 8
    assert _false(off) - _false(on) >= 3
    assert on.matched_visible == off.matched_visible == on.visible
    assert on.identity_ok == off.identity_ok


def test_margin_bleed_is_the_symbols_hue_in_the_margin() -> None:
    """The board's own black margin bleeds 0, a margin a fifth of the way from it to its
    symbol 0.2 (the board's black, a warm light's, is balanced to grey first); a margin of
    another hue than its symbol's bleeds nothing (that is ``_foreign_chroma``'s to judge)."""
    ref = np.array([60.0, 50.0, 40.0])
    sym = np.array([[200.0, 40.0, 30.0]])
    assert _margin_bleed(ref[None, :], sym, ref)[0] < 0.01
    body = 0.8 * ref[None, :] + 0.2 * sym
    assert abs(_margin_bleed(body, sym, ref)[0] - 0.2) < 0.02
    gain = (ref.mean() + 1.0) / (ref + 1.0)
    teal = ref + np.array([-15.0, 10.0, 12.0]) / gain  # the opposite hue of the red symbol
    assert _margin_bleed(teal[None, :], sym, ref)[0] == 0.0
