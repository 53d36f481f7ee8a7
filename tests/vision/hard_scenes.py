"""Reading one of the benchmark's hard scenes with given detector settings (test helper).

The detector tests that compare a setting on and off rebuild the scene
(:func:`benchmarks.bench_vision.hard_scene`, deterministic by seed), read it and score it
against its truth; this is that step once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from benchmarks.bench_vision import hard_scene
from scorer.model import Board
from vision.detect import DetectorSettings, detect
from vision.evaluate import DetectionScore, score_detection
from vision.render import PRESETS, Rendered, render

#: a near-black cloth ground, as dark as the tiles' paint (``benchmarks surface``'s worst)
DARK_GROUND = (28, 28, 30)


def score_hard_scene(
    seed: int,
    k: int,
    make_board: Callable[[np.random.Generator, int], Any],
    settings: DetectorSettings,
    isp_space: Literal["gamma", "linear"] = "gamma",
) -> DetectionScore:
    """Scene ``k`` of the hard benchmark with ``seed`` (boards by ``make_board``: the
    benchmark's ``random_board`` or ``legal_board``; rendered in ``isp_space``), read with
    ``settings`` and scored against its truth."""
    scene = hard_scene(seed, k, make_board, isp_space=isp_space).final
    return score_detection(detect(scene.image_bgr, settings=settings), scene.truth, scene.pitch_px)


def dark_dots_scene(board: Board, seed: int) -> Rendered:
    """``board`` on a polka-dot cloth with a :data:`DARK_GROUND` (easy preset, 1280x720)."""
    cond = dataclasses.replace(PRESETS["easy"], surface="polka_dot_cloth", surface_rgb=DARK_GROUND)
    return render(board, cond, seed=seed, size=(1280, 720))


def missed_tiles(sc: DetectionScore) -> int:
    """Visible tiles no detection matched."""
    return sc.visible - sc.matched_visible


def false_tiles(sc: DetectionScore) -> int:
    """Detections that are no tile, or a wrong guess at a covered one."""
    return sc.detected - sc.correct_detections


def without_lookalike_checks(settings: DetectorSettings, **more: Any) -> DetectorSettings:
    """``settings`` with the eleventh session's look-alike checks off (``max_margin_bleed``,
    ``lone_doubt_*``, ``window_*``, ``part_*``), the twelfth's (``lone_foreign_*``), the
    fourteenth's (``part_max_solid_share``), the seventeenth's (``pale_margin_*``), the
    eighteenth's (``table_colour_*``, ``cover_*``), the nineteenth's (``lone_max_cell_offset``),
    the twentieth's (``part_max_light_share``), the twenty-first's (``offset_min_cells``), the
    forty-first's (``edge_free_ratio``), the forty-second's (``reading_edge_ratio``), the
    forty-fifth's (``motif_kind_share``) and any ``more`` fields set: they drop some of the
    same look-alikes as older checks, so a test that measures an older check alone turns them
    off."""
    return dataclasses.replace(
        settings,
        max_margin_bleed=0.0,
        lone_doubt_colour_distance=0.0,
        lone_foreign_chroma=0.0,
        window_max_distance=0.0,
        part_max_kind_share=0.0,
        part_max_solid_share=0.0,
        pale_margin_colour_distance=0.0,
        table_colour_share=0.0,
        cover_min_outline=0.0,
        lone_max_cell_offset=0.0,
        part_max_light_share=0.0,
        offset_min_cells=0.0,
        edge_free_ratio=0.0,
        reading_edge_ratio=0.0,
        motif_kind_share=0.0,
        **more,
    )


def with_turned_corners(settings: DetectorSettings, **more: Any) -> DetectorSettings:
    """``settings`` with the thirteenth session's tile corners and any ``more`` fields set:
    each tile turned by its own edges up to 12 degrees (``max_tile_turn_deg``), with no
    refit guard (``refit_guard_added``). Since the fourteenth session the corners follow the
    local lattice alone, and several scenes the look-alike checks were found on no longer
    read the look-alikes there (the checks' patches, taken square to the lattice, read less
    of a cloth as a symbol). A test that measures such a check on its scene turns these
    corners on for both arms, where the failure still shows, and checks that the default
    reads the scene at least as well."""
    return dataclasses.replace(settings, max_tile_turn_deg=12.0, refit_guard_added=False, **more)
