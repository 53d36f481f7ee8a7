"""The readings a detected tile offers (``TileObservation.alternatives``) and the rule check
choosing among them: blur spreads a symbol's confidence over three or four shapes, so each
tile offers its best ``alternative_colours`` colours times its best ``alternative_shapes``
shapes (all six by default), those above ``alternative_min_confidence``."""

from __future__ import annotations

import dataclasses

import numpy as np

from scorer.model import Pos, Shape, Tile
from vision.detect import DetectorSettings, detect
from vision.evaluate import random_board
from vision.observation import TileObservation
from vision.render import PRESETS, render
from vision.rulecheck import rule_check


def test_each_tile_offers_best_colours_times_best_shapes() -> None:
    board = random_board(np.random.default_rng(3), 8)
    r = render(board, PRESETS["easy"], seed=3)
    for n_shapes in (2, 4, 6):
        s = dataclasses.replace(
            DetectorSettings(),
            alternative_shapes=n_shapes,
            rule_check=None,
            alternative_min_confidence=0.0,
        )
        obs = detect(r.image_bgr, settings=s, debug=True)
        assert obs.tiles
        for t in obs.tiles:
            readings = t.readings
            assert len(readings) == 2 * n_shapes
            assert len({x.shape for x in readings}) == n_shapes
            assert len({x.color for x in readings}) == 2
            conf = [c for _, c in t.alternatives]
            assert conf == sorted(conf, reverse=True)
        # debugging: per tile returned, its share of symbol light and shape confidences
        assert obs.debug is not None
        assert len(obs.debug["mix"]) == len(obs.tiles)
        assert np.allclose(obs.debug["conf_s"].sum(axis=1), 1.0)
    # by default only the readings above the floor are offered: every shape the camera gives
    # a chance (here, with the colour sure, each shape at or above the floor)
    obs = detect(r.image_bgr, settings=dataclasses.replace(DetectorSettings(), rule_check=None))
    floor = DetectorSettings().alternative_min_confidence
    for t in obs.tiles:
        assert all(c >= floor for _, c in t.alternatives)
        assert 1 <= len(t.readings) <= 12


def _tile(col: int, shapes: dict[Shape, float]) -> TileObservation:
    """A red tile at (0, col) whose shape confidences are ``shapes`` (best first), colour sure."""
    ranked = sorted(shapes.items(), key=lambda kv: -kv[1])
    best, conf = ranked[0]
    return TileObservation(
        pos=Pos(0, col),
        tile=Tile("red", best),
        color_confidence=1.0,
        shape_confidence=conf,
        center_xy=(30.0 * col, 0.0),
        corners_xy=((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)),
        alternatives=tuple((Tile("red", sh), c) for sh, c in ranked[1:]),
    )


def test_a_third_shape_settles_a_line() -> None:
    """A blurred red clover read circle 0.45 / star8 0.30 / clover 0.20 in a red line that
    already holds a circle and a star8: only the third shape makes the line legal."""
    line = [
        _tile(0, {Shape.CIRCLE: 0.99, Shape.SQUARE: 0.01}),
        _tile(1, {Shape.CIRCLE: 0.45, Shape.STAR8: 0.30, Shape.CLOVER: 0.20, Shape.DIAMOND: 0.05}),
        _tile(2, {Shape.STAR8: 0.99, Shape.CIRCLE: 0.01}),
        _tile(3, {Shape.SQUARE: 0.99, Shape.DIAMOND: 0.01}),
    ]
    assert rule_check(line).tiles[1].tile == Tile("red", Shape.CLOVER)
    two = [dataclasses.replace(t, alternatives=t.alternatives[:1]) for t in line]
    assert rule_check(two).tiles[1].tile != Tile("red", Shape.CLOVER)
