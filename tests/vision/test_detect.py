"""Detector tests on rendered scenes: rates with tolerances, fixed seeds, never exact pixels."""

from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.profile import Palette, Profile
from scorer.model import Board, Pos, Shape, Tile
from vision.detect import DetectorSettings, detect, draw_overlay
from vision.evaluate import random_board, score_detection
from vision.render import PRESETS, render


def _scene(name: str, n: int = 24, seed: int = 3, **kw):  # type: ignore[no-untyped-def]
    board = random_board(np.random.default_rng(seed), n)
    return render(board, PRESETS[name], seed=seed, **kw)


def test_easy_scene_reads_every_tile() -> None:
    r = _scene("easy")
    obs = detect(r.image_bgr)
    sc = score_detection(obs, r.truth, r.pitch_px)
    assert sc.recall >= 0.99
    assert sc.precision >= 0.99
    assert sc.identity >= 0.99
    assert sc.cells >= 0.99
    assert obs.lattice is not None
    assert obs.lattice.pitch_px == pytest.approx(r.pitch_px, rel=0.15)
    assert obs.palette == ("red", "orange", "yellow", "green", "blue", "purple")


def test_corners_and_centres_within_tolerance() -> None:
    r = _scene("easy", seed=5)
    obs = detect(r.image_bgr)
    truth = {t.center_xy: t for t in r.truth if t.visible}
    centres = np.array(list(truth))
    errs, corner_errs = [], []
    for t in obs.tiles:
        d = np.hypot(*(centres - t.center_xy).T)
        j = int(np.argmin(d))
        errs.append(d[j])
        tc = np.array(truth[tuple(centres[j])].corners_xy)
        oc = np.array(t.corners_xy)
        # corners may start at any of the four (lattice axes are arbitrary): best cyclic shift
        corner_errs.append(min(np.hypot(*(np.roll(oc, k, 0) - tc).T).max() for k in range(4)))
    assert np.median(errs) <= 0.06 * r.pitch_px
    assert np.median(corner_errs) <= 0.15 * r.pitch_px


def test_square_vs_diamond_and_clover_vs_star4_by_tile_edges() -> None:
    # the same board turned 45 degrees: shapes are read relative to the tiles, not the image
    tiles = [Tile("red", s) for s in (Shape.SQUARE, Shape.DIAMOND, Shape.CLOVER, Shape.STAR4)]
    board = Board(
        {Pos(0, i): t for i, t in enumerate(tiles)}
        | {Pos(1, i): Tile("blue", t.shape) for i, t in enumerate(tiles)}
    )
    for yaw in (0.0, 45.0, 22.0):
        cond = PRESETS["easy"].__class__(**{**PRESETS["easy"].__dict__, "yaw_deg": yaw})
        r = render(board, cond, seed=9)
        obs = detect(r.image_bgr)
        sc = score_detection(obs, r.truth, r.pitch_px)
        assert sc.recall == 1.0, yaw
        assert sc.identity == 1.0, (yaw, dict(sc.confusions))


def test_single_tile_has_a_lattice_from_its_own_edges() -> None:
    board = Board({Pos(0, 0): Tile("green", Shape.DIAMOND)})
    r = render(board, PRESETS["easy"], seed=2)
    obs = detect(r.image_bgr)
    assert len(obs.tiles) == 1
    assert obs.tiles[0].tile == Tile("green", Shape.DIAMOND)
    assert obs.lattice is not None
    truth_angle = r.lattice.angle_deg
    diff = abs((obs.lattice.angle_deg - truth_angle + 45) % 90 - 45)
    assert diff <= 5.0


def test_white_palette() -> None:
    names = ("red", "orange", "yellow", "green", "blue", "white")
    palette = Palette.from_names(list(names))
    board = random_board(np.random.default_rng(4), 24, colors=names)
    r = render(board, PRESETS["easy"], seed=4, palette=palette)
    obs = detect(r.image_bgr, profile=Profile(palette=palette))
    sc = score_detection(obs, r.truth, r.pitch_px)
    assert sc.recall >= 0.95
    assert sc.identity >= 0.95, dict(sc.confusions)
    assert obs.palette == names


def test_empty_table_gives_no_tiles() -> None:
    r = render(Board(), PRESETS["patterned_cloth"], seed=1)
    obs = detect(r.image_bgr)
    assert obs.tiles == ()
    assert obs.lattice is None


def test_input_is_not_modified_and_bad_input_raises() -> None:
    r = _scene("easy", n=6)
    img = r.image_bgr.copy()
    detect(img)
    assert np.array_equal(img, r.image_bgr)
    with pytest.raises(ValueError, match="uint8"):
        detect(img.astype(np.float32))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="BGR"):
        detect(img[:, :, 0])


def test_debug_data_and_overlay() -> None:
    r = _scene("easy", n=8)
    obs = detect(r.image_bgr, debug=True)
    assert obs.debug is not None
    assert obs.debug["dark_mask"].dtype == np.uint8
    assert len(obs.debug["patches"]) == len(obs.tiles)
    ov = draw_overlay(r.image_bgr, obs)
    assert ov.shape == r.image_bgr.shape
    # the overlay draws on the tiles: pixels change near every tile centre
    diff = np.abs(ov.astype(int) - r.image_bgr.astype(int)).sum(axis=2)
    for t in obs.tiles:
        x, y = map(int, t.center_xy)
        p = int(0.4 * r.pitch_px)
        assert diff[y - p : y + p, x - p : x + p].max() > 0


def test_settings_are_frozen_and_documented() -> None:
    s = DetectorSettings()
    with pytest.raises(AttributeError):
        s.dark_ratio = 0.5  # type: ignore[misc]
    doc = DetectorSettings.__doc__ or ""
    for name in DetectorSettings.__dataclass_fields__:
        assert name in doc, name
    assert math.isfinite(s.dark_ratio)


def test_calibrated_geometry_profile_is_used() -> None:
    from calibration.profile import Geometry

    r = _scene("oblique", seed=8)
    # the table plane in millimetres (32 mm pitch), as the calibration wizard would measure it
    pitch_mm = 32.0
    table_from_image = np.diag([pitch_mm, pitch_mm, 1.0]) @ np.linalg.inv(r.image_from_grid)
    geo = Geometry(
        table_from_image=tuple(tuple(float(v) for v in row) for row in table_from_image),  # type: ignore[arg-type]
        tile_pitch=pitch_mm,
        image_size=(r.image_bgr.shape[1], r.image_bgr.shape[0]),
    )
    obs = detect(r.image_bgr, profile=Profile(geometry=geo))
    sc = score_detection(obs, r.truth, r.pitch_px)
    assert sc.recall >= 0.95 and sc.cells >= 0.99 and sc.identity >= 0.95
    assert obs.lattice is not None
    assert obs.lattice.pitch_px == pytest.approx(r.pitch_px, rel=0.2)
