"""The observation types: the lattice's image <-> grid mapping."""

from __future__ import annotations

import pytest

from scorer.model import Pos, Shape, Tile
from vision.observation import Lattice, Observation, TileObservation


def test_lattice_maps_grid_to_image_and_back_under_perspective() -> None:
    lat = Lattice(30.0, 10.0, ((30.0, 5.0, 100.0), (-5.0, 30.0, 50.0), (1e-4, 2e-4, 1.0)))
    for row, col in [(0.0, 0.0), (2.5, -1.25), (-7.0, 11.0)]:
        x, y = lat.to_image(row, col)
        r2, c2 = lat.to_grid(x, y)
        assert r2 == pytest.approx(row, abs=1e-9) and c2 == pytest.approx(col, abs=1e-9)
    # cell (0, 1) lies one pitch along +col from (0, 0) when there is no perspective
    flat = Lattice(30.0, 0.0, ((30.0, 0.0, 10.0), (0.0, 30.0, 20.0), (0.0, 0.0, 1.0)))
    assert flat.to_image(0, 1) == pytest.approx((40.0, 20.0))


def test_singular_lattice_raises() -> None:
    lat = Lattice(1.0, 0.0, ((1.0, 2.0, 3.0), (2.0, 4.0, 6.0), (0.0, 0.0, 1.0)))
    with pytest.raises(ValueError, match="singular"):
        lat.to_grid(1.0, 1.0)


def test_observation_board_and_readings_keep_runner_up() -> None:
    rs, rc = Tile("red", Shape.SQUARE), Tile("red", Shape.CIRCLE)
    t = TileObservation(
        Pos(0, 1),
        rs,
        0.9,
        0.6,
        (10.0, 10.0),
        ((0.0, 0.0), (20.0, 0.0), (20.0, 20.0), (0.0, 20.0)),
        ((rc, 0.3),),
    )
    obs = Observation.from_tiles([t], (640, 480))
    assert obs.board()[Pos(0, 1)] == rs
    assert obs.readings() == {Pos(0, 1): (rs, rc)}
    assert t.confidence == 0.6
