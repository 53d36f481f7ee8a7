"""A clipped symbol in the foreign-chroma test (``DetectorSettings.clip_high_*``).

Under a warm light an orange or red symbol's red channel saturates at 255: what the camera
keeps of it reads nearly grey once the board's warm black is made grey, so its own hue no
longer explains the orange bleed in its margin, and growth refused the tile as a third
colour. Read as the bound it is (the symbol at least that bright), the margin is black
paint plus its own symbol's colour, and the tile is read.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from hard_scenes import false_tiles, score_hard_scene

from vision.detect import DetectorSettings, _foreign_chroma
from vision.evaluate import legal_board

DEFAULT = DetectorSettings()
OFF = dataclasses.replace(DEFAULT, clip_high_max_gain=1.0)  # the clipped values as read

#: The board's black margins under the warm light of seed 59 legal scene 44 (sRGB, measured).
WARM_BLACK = np.array([65.0, 40.0, 14.0])


def test_a_clipped_orange_symbol_explains_its_red_margin() -> None:
    """An orange square's margin ``[119, 17, 1]`` beside its symbol ``[252, 140, 59]`` (red
    clipped; measured on seed 59 legal scene 44, gamma): unexplained by the clipped reading,
    explained once the clipped red is a bound."""
    body, sym = np.array([[119.0, 17.0, 1.0]]), np.array([[252.0, 140.0, 59.0]])
    plain = _foreign_chroma(body, sym, WARM_BLACK)
    bounded = _foreign_chroma(body, sym, WARM_BLACK, DEFAULT)
    assert plain[0] > DEFAULT.grow_max_foreign_chroma
    assert bounded[0] <= DEFAULT.grow_max_foreign_chroma


def test_unclipped_reads_and_third_colours_are_unchanged() -> None:
    """No clipped channel: the same residual as without the bound; a navy cloth's margin
    around a green leaf (nothing clipped) and a blue margin beside a clipped yellow symbol
    keep a residual above growth's bound (a brighter yellow explains no blue)."""
    body = np.array([[40.0, 42.0, 90.0], [30.0, 35.0, 120.0], [70.0, 60.0, 50.0]])
    sym = np.array([[60.0, 170.0, 70.0], [255.0, 240.0, 40.0], [200.0, 120.0, 60.0]])
    grey = np.array([50.0, 50.0, 50.0])
    plain = _foreign_chroma(body, sym, grey)
    bounded = _foreign_chroma(body, sym, grey, DEFAULT)
    assert bounded[0] == plain[0] and bounded[2] == plain[2]
    assert bounded[0] > DEFAULT.grow_max_foreign_chroma
    assert bounded[1] > DEFAULT.grow_max_foreign_chroma
    assert np.all(bounded <= plain)


def test_orange_tiles_on_orange_wood_are_read() -> None:
    """Seed 59 legal scene 44 (light wood, warm light, gamma): orange tiles whose margins read
    red were refused as foreign to the board's black; with the clipped red read as a bound
    at least three more are read and named (five on the cached render), nothing false
    comes."""
    on = score_hard_scene(59, 44, legal_board, DEFAULT)
    off = score_hard_scene(59, 44, legal_board, OFF)
    assert on.matched_visible >= off.matched_visible + 3
    assert on.identity_ok >= off.identity_ok + 3
    assert false_tiles(on) <= false_tiles(off)
