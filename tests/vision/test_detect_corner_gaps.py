"""Corner gaps are not symbols: the small-symbols reading is skipped on a board laid close.

Four rounded tile corners leave a small hole of table where they meet; a board of many tiles
laid close has dozens. They must not make the detector read the board a second time taking
the small holes for the symbols (``DetectorSettings.small_symbols_max_corner_share``), which
doubled a 12 MP photo's time (142 -> 271-329 ms, target 300), while a patterned cloth's small
symbols, at cells the first reading missed, still get that reading.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import vision.detect as detect_module
from scorer.model import Pos, Shape, Tile
from vision.detect import DetectorSettings, _Candidate, _corner_share, detect
from vision.observation import Lattice, TileObservation


def _hole(x: float, y: float) -> _Candidate:
    return _Candidate(
        centre_xy=np.array([x, y]),
        area=20.0,
        diameter=5.0,
        bbox=(0, 0, 1, 1),
        contour=np.zeros((1, 1, 2), np.int32),
        parent=0,
        parent_contour=np.zeros((1, 1, 2), np.int32),
    )


def _board(cells: list[tuple[int, int]], pitch: float) -> tuple[list[TileObservation], Lattice]:
    h = ((pitch, 0.0, 100.0), (0.0, pitch, 50.0), (0.0, 0.0, 1.0))
    lattice = Lattice(pitch_px=pitch, angle_deg=0.0, image_from_grid=h)
    tiles = []
    for r, c in cells:
        x, y = 100.0 + c * pitch, 50.0 + r * pitch
        corners = ((x - 20, y - 20), (x + 20, y - 20), (x + 20, y + 20), (x - 20, y + 20))
        tiles.append(
            TileObservation(Pos(r, c), Tile("red", Shape.CIRCLE), 1.0, 1.0, (x, y), corners)
        )
    return tiles, lattice


def test_holes_where_read_tiles_meet_are_corner_gaps() -> None:
    pitch, scale = 40.0, 0.5  # image px per cell; work px per image px
    tiles, lattice = _board([(r, c) for r in range(3) for c in range(3)], pitch)
    # the four inner corners of a 3 x 3 block, a little off (work px)
    gaps = [
        _hole((100 + (c + 0.5) * pitch + 3) * scale, (50 + (r + 0.5) * pitch - 2) * scale)
        for r in range(2)
        for c in range(2)
    ]
    assert _corner_share(gaps, scale, tiles, lattice) == pytest.approx(1.0)
    # symbols at the centres of cells beside the block (missed tiles), and a hole at a corner
    # with only one read tile next to it (the board's outer corner): not corner gaps
    others = [_hole((100 + c * pitch) * scale, (50 + 4 * pitch) * scale) for c in range(3)]
    others.append(_hole((100 - 0.5 * pitch) * scale, (50 - 0.5 * pitch) * scale))
    assert _corner_share(others, scale, tiles, lattice) == 0.0
    assert _corner_share(gaps + others, scale, tiles, lattice) == pytest.approx(0.5)
    assert _corner_share(gaps, scale, [], lattice) == 0.0
    assert _corner_share(gaps, scale, tiles, None) == 0.0
    flat = Lattice(pitch_px=pitch, angle_deg=0.0, image_from_grid=((1, 0, 0), (1, 0, 0), (0, 0, 1)))
    assert _corner_share(gaps, scale, tiles, flat) == 0.0  # singular: no corners, no error


@pytest.mark.slow
def test_a_close_laid_board_in_a_12_mp_photo_is_read_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The speed benchmark's 12 MP photo: 100 tiles of 180 px laid close, 61 corner gaps under
    the size reference. One reading, every tile; with the gate off, two readings."""
    from benchmarks.bench_vision import _hundred_tile_board
    from vision.render import PRESETS, render

    board = _hundred_tile_board(2026)
    photo = render(board, replace(PRESETS["easy"], tile_px=180.0), seed=2027, size=(4000, 3000))
    calls = []
    assemble = detect_module._assemble

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return assemble(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(detect_module, "_assemble", counted)
    obs = detect(photo.image_bgr)
    assert len(calls) == 1 and len(obs.tiles) == 100
    calls.clear()
    detect(
        photo.image_bgr, settings=replace(DetectorSettings(), small_symbols_max_corner_share=2.0)
    )
    assert len(calls) == 2
