"""Tiles growth missed and the seventh session's recall branch (``rec7``) reads (issue 3).

Glare's gradient over one tile brightens one or two sides of its margin by as much as the
symbol's faded contrast (``side_glare_max``); a tile no look could read (glare, a finger)
does not end its line (``grow_bridge_cells``). Rates with tolerances on fixed benchmark
scenes, never pixels; each is checked against the same scene with the setting off.
"""

from __future__ import annotations

from dataclasses import replace

from benchmarks.bench_vision import hard_scene
from vision.detect import DetectorSettings, detect
from vision.evaluate import legal_board, score_detection
from vision.render import Rendered


def _missed_and_false(scene: Rendered, settings: DetectorSettings) -> tuple[int, int]:
    sc = score_detection(detect(scene.image_bgr, settings=settings), scene.truth, scene.pitch_px)
    return sc.visible - sc.matched_visible, sc.detected - sc.correct_detections


def test_glared_sides_of_a_margin_pass_the_side_test() -> None:
    """Random scene 25 of ``--seed 71`` (gamma render: a printed grid under glare, dim
    light, blurred tiles; found 2026-11-22): four tiles whose margins glare brightens on one
    or two sides fail growth's first look without ``side_glare_max`` (6 missed when
    measured); with it they are read (2 missed), and nothing false joins. (The scene this
    was found on, seed 2026 legal scene 39, reads whole either way since the fourteenth
    session's corners of the local lattice:
    ``test_a_blurred_board_on_a_checked_cloth_under_a_hand_is_read``.)"""
    from vision.evaluate import random_board

    scene = hard_scene(71, 25, random_board).final
    # (a one-cell bridge, as found: past longer gaps, ``grow_bridge_cells`` 3 reads some of
    # those tiles with the check off too)
    s = DetectorSettings(grow_bridge_cells=1, glare_ramp=0.0, glare_cut_min_distance=0.0)
    missed, false = _missed_and_false(scene, s)
    assert missed <= 2 and false == 0, (missed, false)
    missed_off, false_off = _missed_and_false(scene, replace(s, side_glare_max=0.0))
    assert missed_off >= missed + 3, (missed_off, missed)
    assert false <= false_off, (false, false_off)


def test_a_blurred_board_on_a_checked_cloth_under_a_hand_is_read() -> None:
    """Legal scene 39 of ``--seed 2026`` (as rendered in linear light): a blurred board on
    a checked cloth under a hand, whose five glared tiles needed ``side_glare_max`` with the
    thirteenth session's turned corners; read whole, nothing false."""
    scene = hard_scene(2026, 39, legal_board, isp_space="linear").final
    missed, false = _missed_and_false(scene, DetectorSettings())
    assert missed <= 1 and false == 0, (missed, false)


def test_a_line_goes_on_beyond_a_tile_no_look_could_read() -> None:
    """Random scene 24 of ``--seed 59`` (gamma render: a noise cloth under glare, dim light,
    tiny blurred noisy tiles askew, a hand; found 2026-11-22): growth stops at a tile it
    cannot read and loses the tiles beyond it (3 missed without the bridge when measured).
    Looking one cell past the gap, in line with the board, finds them (1 missed), and nothing
    false joins. (Without the second reading on the look's own square,
    ``grow_unmoved_max_move``, which since 2026-11-23 reads them without the bridge too.)"""
    from vision.evaluate import random_board

    scene = hard_scene(59, 24, random_board).final
    s = DetectorSettings(grow_unmoved_max_move=0.0)
    missed, false = _missed_and_false(scene, s)
    missed_off, false_off = _missed_and_false(scene, replace(s, grow_bridge_cells=0))
    assert missed <= 1, (missed, false)
    assert missed_off >= missed + 2, (missed_off, missed)
    assert false <= false_off, (false, false_off)


def test_a_hand_over_a_board_on_a_checked_cloth_is_read() -> None:
    """Random scene 42 of ``--seed 13`` (gamma): a hand over a board on a checked cloth,
    where growth once stopped at a tile it could not read; at most one tile missed and one
    false (the tile in the gap, a cross, is read since the star4's blur is gated on its
    apparent blur, ``blur_gate_apparent``; the bridge was measured here without that gate
    until the fourteenth session's corners, with which the scene needs no bridge)."""
    scene = hard_scene(13, 42).final
    gated, gated_false = _missed_and_false(scene, DetectorSettings())
    assert gated <= 1 and gated_false <= 1, (gated, gated_false)
