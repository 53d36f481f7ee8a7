"""Cells read off the lattice next to the board (``vision.detect._grow_on_lattice``), issue 3.

- A tile turned or pushed off the lattice shows table in the outer band of its cell's square;
  the look that found it at a smaller square is where its margin is judged.
- Blur rounds a star4's outline towards a square's (and noise frays a square's towards a
  star4's); their printed areas differ fourfold, so the size check also takes the shape the
  whole classifier reads.
- A margin's colour is black paint plus its own symbol's colour; a navy cloth around a green
  leaf is not.
- A glared tile next to no other glared one is taken when its margin is the light's grey and
  its symbol's paint shows over it.
- A hand or sleeve over a little of a tile's margin is left out of the margin's checks; a
  symbol it may cut is never read, and an empty pocket between tiles stays empty.

Scenes are the vision benchmark's hard legal boards (``--seed 2026``), drawn again here.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from benchmarks.bench_vision import hard_scene
from scorer.model import Pos
from vision.detect import (
    DetectorSettings,
    _alt_shapes,
    _foreign_chroma,
    _read_patches,
    _tile_like,
    detect,
)
from vision.evaluate import DetectionScore, legal_board, random_board, score_detection
from vision.render import Rendered
from vision.shapes import SHAPE_ORDER, Shape


def _hard_legal(k: int) -> Rendered:
    """Scene ``k`` of the vision benchmark's hard legal boards (seed 2026), as drawn there."""
    return hard_scene(2026, k, legal_board, isp_space="linear").first


def _hard_random(k: int) -> Rendered:
    """Scene ``k`` of the vision benchmark's hard random boards (seed 2026), as drawn there."""
    return hard_scene(2026, k, random_board, isp_space="linear").first


def _score(r: Rendered, settings: DetectorSettings | None = None) -> DetectionScore:
    obs = detect(r.image_bgr, settings=settings or DetectorSettings())
    return score_detection(obs, r.truth, r.pitch_px)


def test_tiles_turned_off_the_lattice_are_read_where_the_look_found_them() -> None:
    """Scene 39: a red square, a green star8 and a red diamond beside arms, turned a few
    degrees off their neighbours' lattice, showed green-check cloth in a quarter of the full
    square's margin band (uniformity 0.70-0.74 < 0.75) and were missed."""
    r = _hard_legal(39)
    obs = detect(r.image_bgr)
    found = {
        t.pos
        for t in r.truth
        if any(
            np.hypot(*np.subtract(o.center_xy, t.center_xy)) < 0.4 * r.pitch_px for o in obs.tiles
        )
    }
    assert {Pos(4, 3), Pos(4, -9), Pos(2, 3)} <= found
    sc = score_detection(obs, r.truth, r.pitch_px)
    assert sc.precision == 1.0, sc.summary()


def test_a_glared_line_of_star4s_passes_the_size_check_by_the_classifiers_shape() -> None:
    """Scene 31: a line of star4s washed out by glare and 12 % motion blur; their outlines
    read nearest a square's (0.000-0.004 closer than a star4's), whose printed area is four
    times theirs, so the size check failed all 13 of them."""
    r = _hard_legal(31)
    sc = _score(r)
    assert sc.recall >= 0.97, sc.summary()
    assert sc.precision == 1.0, sc.summary()
    # the adapted dark mask (``dark_adapt_*``) finds most of these star4s' holes directly;
    # the size check is measured where growth must read them, with the fixed mask. (With the
    # fixed mask and the star4's blur gated on its apparent blur, ``blur_gate_apparent``, one
    # more blurred red cross, whose side reads half the pitch, joins the first reading and
    # its lattice refit lands on 24 px instead of 28: 15 of 34 tiles. That fragility of the
    # refit is left for later; the size check is measured here without the gate.)
    # (growth's bridge into a glared line, ``grow_bridge_glare``, takes a few of these star4s
    # beyond one that fails: off, so that growth must read each of them; so is the second
    # reading on the look's own square, ``grow_unmoved_max_move``, which takes 5 of the
    # glared star4s the outline alone loses: 25 -> 30 of 34; and so is the judgement of whole
    # symbols beside a third colour in the margin, ``partial_whole_symbols``, which takes 4 of
    # them where a highlight's edge across the margin reads as an occluder: 25 -> 29)
    base = DetectorSettings()
    fixed = replace(
        base,
        dark_adapt_factor=0.0,
        shape=replace(base.shape, blur_gate_apparent=()),
        grow_bridge_glare=False,
        grow_unmoved_max_move=0.0,
        partial_whole_symbols=False,
    )
    sc = _score(r, fixed)
    outline_only = _score(r, replace(fixed, size_shape_margin=-1.0))
    assert sc.recall >= 0.97, sc.summary()
    assert sc.recall >= outline_only.recall + 0.2, (sc.summary(), outline_only.summary())


def test_alt_shapes_take_the_classifiers_shape_only_near_the_outlines() -> None:
    star4, square, circle = (
        SHAPE_ORDER.index(s) for s in (Shape.STAR4, Shape.SQUARE, Shape.CIRCLE)
    )
    dist = np.full((3, 6), 0.5)
    dist[:, star4] = 0.10  # the outline reads a star4 ...
    dist[0, square] = 0.12  # ... a square's is near
    dist[1, square] = 0.25  # ... a square's is far
    dist[2, circle] = 0.11
    conf = np.zeros((3, 6))
    conf[0, square] = conf[1, square] = 1.0  # the classifier reads a square
    conf[2, star4] = 1.0  # the classifier agrees with the outline
    reach = np.full(3, 0.3)
    got = _alt_shapes(dist, conf, reach, 0.04)
    assert got.tolist() == [square, star4, star4]
    assert _alt_shapes(dist, conf, reach, -1.0).tolist() == [star4] * 3


def test_foreign_chroma_tells_a_navy_cloth_from_a_symbols_bleed() -> None:
    """M2026 scene 59: leaves of a navy floral cloth next to the board read as green tiles;
    margins (21, 41, 70) around (36, 97, 20). A green symbol's own bleed into a black margin
    (19, 93, 39) around (105, 195, 106) is explained by the symbol."""
    black = np.array([30.0, 31.0, 35.0])  # the board's black margins under a slightly blue light
    body = np.array([[21.0, 41.0, 70.0], [19.0, 93.0, 39.0], [32.0, 33.0, 36.0]])
    sym = np.array([[36.0, 97.0, 20.0], [105.0, 195.0, 106.0], [220.0, 60.0, 50.0]])
    fc = _foreign_chroma(body, sym, black)
    s = DetectorSettings()
    assert fc[0] > s.grow_max_foreign_chroma
    assert fc[1] < s.grow_max_foreign_chroma / 2
    assert fc[2] < 0.05  # a plain black margin


def test_size_check_with_an_alternative_shape() -> None:
    """A square-sized symbol whose outline reads a star4 fails the size check as a star4
    (four times its printed area) and passes it as the square the classifier reads."""
    from vision.detect import _Reads
    from vision.shapes import prototype_areas

    square = SHAPE_ORDER.index(Shape.SQUARE)
    star4 = SHAPE_ORDER.index(Shape.STAR4)
    reads = _Reads(
        ok=np.ones(1, bool),
        profile=np.zeros((1, 8)),
        solidity=np.ones(1),
        symbol_rgb=np.array([[120.0, 60.0, 160.0]]),
        body_rgb=np.array([[25.0, 22.0, 27.0]]),
        area=np.array([1.4 * prototype_areas()[square]]),
        body_v=np.array([27.0]),
        body_sat=np.array([0.19]),
        sharpness=np.ones(1),
        blur=np.array([0.04]),
        score=np.zeros((1, 4), np.float32),
        centroid=np.zeros((1, 2)),
    )
    env, ok = np.array([180.0]), np.ones(1, bool)
    s = DetectorSettings()
    assert not _tile_like(reads, np.array([star4]), env, ok, s)[0]
    assert _tile_like(reads, np.array([star4]), env, ok, s, alt_shape_idx=np.array([square]))[0]


def _tile_image(
    *, finger: bool, touch: bool, pocket: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """A 200 x 200 grey table with one 80 px black tile (a yellow diamond on it), optionally
    a skin-coloured sleeve over its right side (over the diamond's tip or short of it); or,
    ``pocket``, a black U of tiles around table. Returns the image and the tile's corners."""
    img = np.full((200, 200, 3), (150, 155, 160), np.uint8)
    x0, y0, side = 60, 60, 80
    corners = np.array([[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]])
    if pocket:
        cv2.rectangle(img, (x0 - 20, y0), (x0 + side + 20, y0 + side + 20), (30, 30, 30), -1)
        cv2.rectangle(img, (x0 + 12, y0 - 5), (x0 + side - 12, y0 + side - 12), (150, 155, 160), -1)
        return img, corners.astype(np.float64)
    cv2.rectangle(img, (x0, y0), (x0 + side - 1, y0 + side - 1), (30, 30, 30), -1)
    c = x0 + side // 2
    diamond = np.array([[c, c - 25], [c + 25, c], [c, c + 25], [c - 25, c]], np.int32)
    cv2.fillPoly(img, [diamond], (20, 200, 245))
    if finger:  # a sleeve's edge over the tile's right side, short of the diamond or on it
        edge = x0 + side - (20 if touch else 11)
        cv2.rectangle(img, (edge, 0), (199, 199), (150, 185, 235), -1)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    return img, corners.astype(np.float64)


def test_an_occluder_over_a_margin_is_left_out_but_never_guessed() -> None:
    s = DetectorSettings()
    clear, corners = _tile_image(finger=False, touch=False)
    assert _read_patches(clear, corners[None], s, False).ok[0]
    # a sleeve over the right side: the margin fails as it is, passes without the sleeve
    sleeve, _ = _tile_image(finger=True, touch=False)
    assert not _read_patches(sleeve, corners[None], s, False).ok[0]
    read = _read_patches(sleeve, corners[None], s, False, occlusion="all")
    assert read.ok[0]
    assert abs(read.area[0] - _read_patches(clear, corners[None], s, False).area[0]) < 0.02
    # the plain reading marks the patch to read again (growth reads only those twice)
    assert _read_patches(sleeve, corners[None], s, False, occlusion="probe").occluder[0]
    assert not _read_patches(clear, corners[None], s, False, occlusion="probe").occluder[0]
    # a sleeve over the diamond's tip: the symbol may be cut, so it is not read
    cut, _ = _tile_image(finger=True, touch=True)
    assert not _read_patches(cut, corners[None], s, False, occlusion="all").ok[0]
    # a walled-in pocket: its open side shows the table, the colour of its "symbol"
    pocket, _ = _tile_image(finger=False, touch=False, pocket=True)
    for mode in ("off", "fallback", "all"):
        assert not _read_patches(pocket, corners[None], s, False, occlusion=mode).ok[0], mode


@pytest.mark.parametrize("k", [58])
def test_occluder_reads_add_tiles_and_no_false_ones(k: int) -> None:
    """Scene 58 (two hands, printed grid): tiles beside a sleeve read with the occluder left
    out; no reading is false. (Since branch ``recall5`` growth's last look at 0.88 of the
    square, ``grow_last_look``, can find them without the occluder when it is off - where
    the occluder's first look at the full square passes, the smaller ones are not tried -
    so the occluder's own gain is measured without it; and without ``side_glare_max``,
    since branch ``rec7``: a sleeve along one side, brighter than the margin in every
    channel, passes that side as glare would, and the tile is read without the occluder.)"""
    r = _hard_legal(k)
    base = replace(DetectorSettings(), grow_last_look=0.0, side_glare_max=0.0)
    sc = _score(r, base)
    off = _score(r, replace(base, occluder_max_share=0.0))
    assert sc.precision == 1.0, sc.summary()
    assert sc.recall > off.recall, (sc.summary(), off.summary())
    assert _score(r).precision == 1.0


def test_a_lone_glared_tile_is_taken_when_its_margin_is_the_lights_grey() -> None:
    """Random-board scene 73 (light wood, glare 0.38): a purple star4 washed grey by a
    highlight one tile wide cut a line of four tiles off the board (the glared tile had no
    glared neighbour). Nothing else on the wood passes for a glared tile. (Since branch
    ``recall5`` a glared patch - ``glare_patch_cells`` - reads all but one of them without
    the lone test: both are off for the comparison.)"""
    r = _hard_random(73)
    sc = _score(r)
    paired = _score(
        r,
        replace(
            DetectorSettings(),
            glare_lone_max_saturation=0.0,
            glare_patch_cells=1,
            grow_local_black_cells=0,  # (branch light17's local black reads it too)
        ),
    )
    assert sc.recall == 1.0, sc.summary()
    assert sc.precision == 1.0, sc.summary()
    assert sc.recall >= paired.recall + 0.05, (sc.summary(), paired.summary())
