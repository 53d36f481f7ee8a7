"""The tiles' own lattice (:func:`vision.lattice.fit_lattice`) from tile centres and edges."""

from __future__ import annotations

import numpy as np

from vision.lattice import LatticeSettings, fit_lattice


def test_a_misread_tile_edge_does_not_turn_the_lattice() -> None:
    # nine tiles of a rendered orange gingham (24 px tiles; x, y px, own edge angle in
    # degrees, side px): the lattice runs at 17 degrees, one tile's edges read at 66.9 (a
    # check beside it). Stepping its links in that frame labelled its diagonal neighbour as
    # a straight one and turned the whole fit (three tiles then sat off their cells)
    tiles = np.array(
        [
            (528.9, 462.0, 19.3, 27.8),
            (536.2, 440.5, 17.3, 24.4),
            (510.5, 433.4, 66.9, 32.3),
            (518.2, 410.9, 16.0, 37.4),
            (493.5, 403.7, 20.0, 29.6),
            (507.2, 358.0, 16.1, 21.3),
            (456.5, 120.3, 19.8, 29.6),
            (428.8, 110.0, 18.8, 34.4),
            (499.7, 381.4, 17.9, 32.9),
        ]
    )
    fit = fit_lattice(tiles[:, :2], np.radians(tiles[:, 2]), tiles[:, 3], LatticeSettings())
    assert float(fit.residual.max()) < 0.2
    assert abs(((fit.angle_deg - 17.0 + 45.0) % 90.0) - 45.0) < 2.0
    # the bound is what saves it: trusting every edge reading gives the old, turned fit
    loose = fit_lattice(
        tiles[:, :2], np.radians(tiles[:, 2]), tiles[:, 3], LatticeSettings(max_tile_turn_deg=90)
    )
    assert float(loose.residual.max()) > 0.42
