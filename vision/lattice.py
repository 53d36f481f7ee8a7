"""The tiles' own lattice: grid cells from tile centres, robust to perspective and gaps.

Tiles are laid edge to edge, so neighbouring centres are one *pitch* apart along two
orthogonal directions; in the image those directions and the pitch change slowly across an
oblique view (a homography of the table plane). The lattice is recovered without markers:

1. The **orientation** modulo 90 degrees is the circular mean of ``4 * angle`` (so the four
   lattice directions coincide) of the short neighbour vectors and of the tiles' own edge
   angles.
2. **Growing**: from the tile nearest the centroid, neighbours within ``grow_radius`` pitches
   get integer grid steps in the *local* frame of the tile they are reached from (its own
   pitch and angle; the global angle where its edges read more than ``max_tile_turn_deg``
   off it), so perspective never accumulates over more than one step.
3. A **homography** grid -> image is fitted to all grown tiles (RANSAC; for six or more
   tiles in one line a one-dimensional perspective along it, else an affine similarity,
   when the tiles do not span two rows and two columns); tiles in other clusters (gaps where
   lines do not meet) are placed by the homography - a cluster of linked tiles whole, at one
   offset -, and every cell is re-read by rounding.

If a calibration homography (image -> table plane) is known, centres are first mapped to the
plane, where the lattice is nearly a similarity.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = ["LatticeFit", "LatticeSettings", "fit_lattice", "quarter_angle"]


@dataclass(frozen=True)
class LatticeSettings:
    """Thresholds of the lattice fit.

    Attributes:
        grow_radius: neighbours are linked when closer than this many local pitches; 1.6
            reaches diagonal neighbours (1.41) but not the next-but-one cell (2.0).
        max_step_residual: a link is accepted when the step rounds to integers within this
            fraction of a pitch (hand-laid tiles are pushed up to about a quarter of a tile).
        max_cell_residual: after the homography fit, a tile whose centre is farther than this
            (in pitches) from its cell centre is reported but marks the fit as poor; used to
            reject detections that sit between cells.
        ransac_px: RANSAC reprojection threshold as a fraction of the median pitch.
        min_homography_tiles: fewer tiles than this use a similarity (as many or more in one
            line: a perspective along the line, :func:`_line_fit`).
        branch_line_min_error: a line of ``min_homography_tiles`` or more with a tile or two
            beside it (its first branch) spans two rows and two columns but fixes no
            homography (the line and one point leave it undetermined), and the fit fell back
            to a similarity, one pitch all along: seen obliquely, the line's ends were read
            off their cells (seed 31 legal scene 15: 4 of 7 tiles). The line's own
            perspective (its fullest row or column, :func:`_line_fit`) is used instead when
            the similarity leaves one of the line's tiles this many pitches or more off its
            cell, the perspective leaves each of them less, and no tile farther than the
            similarity does (0.15: a straight line of tiles pushed by hand fits its
            perspective within 0.02-0.03 pitch, a similarity within 0.09 on a flat view;
            branch ``miss11``). 0 turns it off.
        min_cluster_tiles: a cluster of tiles apart from the first (a part of the board an
            arm cuts off, a line that does not meet the others) of at least this many linked
            tiles is placed whole, at one offset, when the first cluster fixes a homography;
            smaller ones (strays, single tiles) are placed tile by tile through the fit.
        max_cluster_bend: such a cluster is placed whole only when the fit with it keeps
            90 % of the tiles placed before within this many pitches of their cells (a part
            of the same board lies on the same homography; a tablecloth's tile-sized checks,
            on a grid of their own, bend it away; the 10 % allow for strays among them).
        max_tile_turn_deg: a tile's own edge direction steers its links only within this
            many degrees of the lattice's orientation (hand-laid tiles turn up to about 6
            degrees, perspective bends a 35-degree view by about 10 across a board); beyond
            it the edges were misread (tiny or blurred tiles, a check of a cloth touching one,
            a gap where four tile corners meet) and the tile steps in the lattice's frame. A
            tile read 40 degrees off that was a board's only link to its far arm turned the
            whole fit by 34 degrees (a rendered orange gingham, 24 px tiles: 14 of 58 read).
            12 and 30 read the same on the tuning scenes; 30 reads 20 more tiles of held-out
            oblique boards (seed 7), where perspective turns the lattice across the board.
        axis_pitch: each tile measures its pitch along each of its own two axes (its nearest
            neighbour along that axis) instead of one pitch for both: an oblique view
            foreshortens the lattice along the tilt (by cos(tilt), 0.82 at 35 degrees), and
            one pitch left a share of it in every step's residual, so steps of blurred or
            askew tiles on strongly tilted boards failed ``max_step_residual`` (held-out
            seed 7 and 11 scenes lost 11-19 tiles each; now 0-7).
        mutual_links: a link between two candidates needs a whole step in *both* their
            frames: a candidate whose edges read about 45 degrees off sees a tile half a
            diagonal away as one whole step, that tile sees it at half a step on both axes.
            Taken one-sided, such links chained two held-out boards (white table, corner
            gaps showing; an oblique cloth) onto a lattice of half the pitch or a wrong one.
        lattice_frame_links: when the first cluster grown on the tiles' own frames is one
            line, it grows again with the links that are whole steps in the lattice's own
            frame at both ends too (a tile whose edges read 17 degrees off - a glared star -
            links no neighbour across the line in its own frame), kept when its tiles off the
            line include an 8-connected group of ``min_cluster_tiles``: a line alone cannot
            set the pitch across it, and the far arm placed through its fit landed two rows
            away instead of three (seed 23 scene 28: 14-15 of 27 tiles lost, 6 misread; now
            none lost). A lone look-alike beside the line (a floral cloth's blob) is no such
            group.
        reseed_alone: the cells grow from the most central tile; when it links fewer than
            ``min_cluster_tiles`` tiles (a tile alone in the gap an arm leaves across a
            board), they grow instead from the most central tile of the largest linked
            cluster, when that one fixes a homography (``min_homography_tiles`` tiles,
            ``reseed_min_off_line`` of them off its fullest row and off its fullest column).
            Started from a lone tile, every other tile was placed through a similarity, and
            an oblique board's far part (pitch 70 px at the top, 42 px at the bottom) fell
            on wrong rows: seed 37 scene 28 (gamma) read 5 of 23 tiles, now 22. A cluster
            that is a line with a tile beside it is not taken: its homography, extrapolated
            across the board, lost 9 tiles of seed 23 scene 21 (gamma). With ``anchors``
            (the detector's dark-mask holes) the cluster's homography must rest on them: a
            gingham's checks chained in as weak holes form clusters too (seed 31 legal scene
            1: 3 of 6 tiles lost, 12 more false). The detector turns the reseed off in its
            retries at other pitch modes (``DetectorSettings.poor_reading_share``), whose
            links are as doubtful as their pitch (seed 7 scene 43 read 23 of 67 tiles so).
        reseed_min_off_line: ... tiles of that cluster off its fullest row and off its fullest
            column: 1 (a line with one tile beside it) lost seed 23 scene 21 its 9 tiles; 2 (an
            L of two arms of three) read seed 37 scene 28's legal board whole (6 more tiles
            than 3, no other reading of the 33 cached sets changed between 2 and 3).
    """

    grow_radius: float = 1.6
    max_step_residual: float = 0.35
    max_cell_residual: float = 0.42
    ransac_px: float = 0.3
    min_homography_tiles: int = 6
    branch_line_min_error: float = 0.15
    min_cluster_tiles: int = 3
    max_cluster_bend: float = 0.3
    max_tile_turn_deg: float = 30.0
    mutual_links: bool = True
    lattice_frame_links: bool = True
    axis_pitch: bool = True
    reseed_alone: bool = True
    reseed_min_off_line: int = 2


@dataclass(frozen=True)
class LatticeFit:
    """Result of :func:`fit_lattice`.

    Attributes:
        cells: ``(N, 2)`` int (row, col) per input centre.
        residual: ``(N,)`` distance of each centre from its cell centre, in pitches.
        image_from_grid: ``(3, 3)`` homography, grid ``(col, row, 1)`` -> image ``(x, y, 1)``.
        pitch_px: median distance between neighbouring cell centres, pixels.
        angle_deg: direction of +col in the image, degrees in [0, 90).
    """

    cells: NDArray[np.int64]
    residual: NDArray[np.float64]
    image_from_grid: NDArray[np.float64]
    pitch_px: float
    angle_deg: float


def quarter_angle(
    angles_rad: NDArray[np.float64], weights: NDArray[np.float64] | None = None
) -> float:
    """Circular mean of angles modulo 90 degrees (of ``exp(4i*angle)``), radians in [0, pi/2)."""
    w = np.ones_like(angles_rad) if weights is None else weights
    z = (w * np.exp(4j * angles_rad)).sum()
    return float((np.angle(z) / 4.0) % (math.pi / 2))


def _similarity(pitch: float, angle: float, origin_xy: NDArray[np.float64]) -> NDArray[np.float64]:
    c, s = math.cos(angle) * pitch, math.sin(angle) * pitch
    return np.array([[c, -s, origin_xy[0]], [s, c, origin_xy[1]], [0.0, 0.0, 1.0]])


def homogeneous(pts: NDArray[Any]) -> NDArray[np.float64]:
    """``(N, 3)`` float64 rows ``(x, y, 1)`` of the points ``pts`` ``(N, 2)``: what
    ``np.c_[pts, np.ones(N)]`` gives, without its index machinery (about 40 us a call)."""
    out = np.empty((len(pts), 3))
    out[:, :2] = pts
    out[:, 2] = 1.0
    return out


def _apply(h: NDArray[np.floating[Any]], pts: NDArray[np.floating[Any]]) -> NDArray[np.float64]:
    """Points ``(N, 2)`` mapped through the 3x3 projective transform ``h``, ``(N, 2)``."""
    p = homogeneous(pts) @ h.T
    return np.asarray(p[:, :2] / p[:, 2:3], np.float64)


def fit_lattice(
    centres_xy: NDArray[np.float64],
    tile_angles: NDArray[np.float64],
    tile_sides: NDArray[np.float64],
    settings: LatticeSettings = LatticeSettings(),
    anchors: NDArray[np.bool_] | None = None,
) -> LatticeFit:
    """Grid cells for tile centres.

    Args:
        centres_xy: ``(N, 2)`` tile centres, pixels (or table-plane units), N >= 1.
        tile_angles: ``(N,)`` each tile's own edge direction, radians (modulo 90 degrees).
        tile_sides: ``(N,)`` each tile's side estimate, same units as the centres; used as the
            pitch where neighbours cannot tell it (single tiles, isolated tiles).
        settings: thresholds.
        anchors: ``(N,)`` the centres sure to be tiles (a detector's dark-mask holes): a
            cluster the cells grow from instead of a lone central tile (``reseed_alone``)
            must fix its homography with them alone. None: every centre.

    Returns:
        A :class:`LatticeFit`; cells are shifted so the smallest row and col are 0.

    Raises:
        ValueError: no centres.
    """
    pts = np.asarray(centres_xy, np.float64).reshape(-1, 2)
    n = len(pts)
    if n == 0:
        raise ValueError("fit_lattice needs at least one centre")
    sides = np.asarray(tile_sides, np.float64)
    angles = np.asarray(tile_angles, np.float64)
    # (x and y differences apart: contiguous operands, half the cost of one (.., 2) array)
    d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    np.fill_diagonal(d, np.inf)

    # local pitch per tile: nearest neighbour if it is about one tile away, else the tile side
    nn = d.min(axis=1) if n > 1 else np.array([np.inf])
    local = np.where((nn < 1.25 * sides) & (nn > 0.75 * sides), nn, sides)
    pitch0 = float(np.median(local))

    # global orientation: short neighbour vectors (weight 2) plus each tile's own edges
    vec_angles: list[float] = []
    if n > 1:
        ii, jj = np.nonzero(d < 1.25 * local[:, None])
        v = pts[jj] - pts[ii]
        vec_angles = list(np.arctan2(v[:, 1], v[:, 0]))
    all_angles = np.r_[np.asarray(vec_angles), angles]
    weights = np.r_[np.full(len(vec_angles), 2.0), np.ones(len(angles))]
    theta = quarter_angle(all_angles, weights)
    # local angle per tile: its own edges where they are plausibly the tile's turn, else the
    # global orientation
    dev = ((angles - theta + math.pi / 4) % (math.pi / 2)) - math.pi / 4
    dev = np.where(np.abs(dev) <= math.radians(settings.max_tile_turn_deg), dev, 0.0)
    local_theta = theta + dev

    # grow integer cells from the most central tile, best-fitting links first (Prim-like), so
    # a stray detection between cells cannot relabel the tiles that fit the lattice well
    cells = np.zeros((n, 2), np.int64)
    known = np.zeros(n, bool)
    seed = int(np.argmin(np.hypot(*(pts - np.median(pts, axis=0)).T)))
    heap: list[tuple[float, int, int, int, int]] = []

    # every tile's candidate links at once: the step to j in i's own frame, rounded to
    # a cell; kept when it is a whole step within ``max_step_residual`` of a cell
    cos_t = np.array([math.cos(t) for t in local_theta])
    sin_t = np.array([math.sin(t) for t in local_theta])
    li, lj = np.nonzero(d < settings.grow_radius * local[:, None])  # pairs in reach only
    dx = pts[lj, 0] - pts[li, 0]
    dy = pts[lj, 1] - pts[li, 1]
    pc = cos_t[li] * dx + sin_t[li] * dy  # the step along i's own axes, pixels
    pr = -sin_t[li] * dx + cos_t[li] * dy
    # each axis's own pitch (``axis_pitch``): an oblique view foreshortens one axis of
    # the lattice against the other (by cos(tilt), 0.82 at 35 degrees), and one pitch for
    # both leaves a share of the foreshortening in every step's residual
    pitch_c, pitch_r = local.copy(), local.copy()
    if settings.axis_pitch:
        for along, across, out in ((pc, pr, pitch_c), (pr, pc, pitch_r)):
            a = np.abs(along)
            near = local[li]
            axial = (np.abs(across) < 0.3 * near) & (a > 0.6 * near) & (a < 1.4 * near)
            nearest = np.full(n, np.inf)
            np.minimum.at(nearest, li[axial], a[axial])
            has = np.isfinite(nearest)
            out[has] = nearest[has]
    gc = pc / pitch_c[li]
    gr = pr / pitch_r[li]
    rc, rr = np.round(gc), np.round(gr)  # half to even, as round()
    res = np.hypot(gc - rc, gr - rr)
    # ... and a whole step in j's own frame too (``mutual_links``)
    gc_j = -(cos_t[lj] * dx + sin_t[lj] * dy) / pitch_c[lj]
    gr_j = -(-sin_t[lj] * dx + cos_t[lj] * dy) / pitch_r[lj]
    res_j = np.hypot(gc_j - np.round(gc_j), gr_j - np.round(gr_j))
    ok = (
        (res <= settings.max_step_residual)
        & ((res_j <= settings.max_step_residual) | (not settings.mutual_links))
        & ((rc != 0) | (rr != 0))
    )
    if settings.lattice_frame_links:
        # ... or a whole step in the lattice's own frame at both ends (``lattice_frame_links``)
        cg, sg = math.cos(theta), math.sin(theta)
        pcg, prg = cg * dx + sg * dy, -sg * dx + cg * dy
        gcg, grg = pcg / pitch_c[li], prg / pitch_r[li]
        rcg, rrg = np.round(gcg), np.round(grg)
        resg = np.hypot(gcg - rcg, grg - rrg)
        gcg_j, grg_j = -pcg / pitch_c[lj], -prg / pitch_r[lj]
        resg_j = np.hypot(gcg_j - np.round(gcg_j), grg_j - np.round(grg_j))
        okg = (
            (resg <= settings.max_step_residual)
            & (resg_j <= settings.max_step_residual)
            & ((rcg != 0) | (rrg != 0))
            & ~ok
        )
        rc, rr, res = np.where(okg, rcg, rc), np.where(okg, rrg, rr), np.where(okg, resg, res)
        extra = okg
        ok = ok | okg
    else:
        extra = np.zeros(len(ok), bool)
    li, lj, res, rr, rc, extra = li[ok], lj[ok], res[ok], rr[ok], rc[ok], extra[ok]
    links: list[list[tuple[float, int, int, int, bool]]] = [[] for _ in range(n)]
    for a, b, r_, s_r, s_c, x_ in zip(
        li.tolist(),
        lj.tolist(),
        res.tolist(),
        rr.astype(np.int64).tolist(),
        rc.astype(np.int64).tolist(),
        extra.tolist(),
        strict=True,
    ):
        links[a].append((r_, b, s_r, s_c, x_))
    is_known = [False] * n
    use_extra = [False]

    def push_links(i: int) -> None:
        for r_, j, s_r, s_c, x_ in links[i]:
            if not is_known[j] and (use_extra[0] or not x_):
                heapq.heappush(heap, (r_, j, i, s_r, s_c))

    def flood(start: int) -> list[int]:
        """Grow from ``start`` along the links, nearest first: the tiles reached, in order."""
        members = [start]
        is_known[start] = True
        push_links(start)
        while heap:
            _, j, i, step_r, step_c = heapq.heappop(heap)
            if is_known[j]:
                continue
            cells[j] = cells[i] + (step_r, step_c)
            is_known[j] = True
            members.append(j)
            push_links(j)
        return members

    start = flood(seed)
    if settings.reseed_alone and len(start) < settings.min_cluster_tiles:
        # the most central tile may lie alone (a board an arm cuts in two leaves a tile in
        # the gap, linked to neither part): the fit then started from it and placed every
        # other tile through a similarity, so an oblique board's far part fell on wrong
        # rows. Start instead from the most central tile of the largest cluster
        # ... when it fixes a homography (``min_homography_tiles`` tiles, ``reseed_min_off_line``
        # of them off its fullest row and off its fullest column: the other parts are then
        # placed whole; a line with a tile or two beside it extrapolates a wrong homography
        # across the board, and from it the other parts are better placed tile by tile, as
        # from the lone tile)
        clusters = [start]
        while not all(is_known):
            clusters.append(flood(is_known.index(False)))
        big = max(clusters, key=len)
        # (fixed by sure tiles: a cloth's checks chained in as weak holes make clusters too)
        sure = big if anchors is None else [i for i in big if anchors[i]]
        bc = cells[sure]
        if (
            len(sure) >= settings.min_homography_tiles
            and min(_off_fullest(bc, 0), _off_fullest(bc, 1)) >= settings.reseed_min_off_line
        ):
            central = np.hypot(*(pts[big] - np.median(pts, axis=0)).T)
            seed = big[int(np.argmin(central))]
        cells[:] = 0
        is_known[:] = [False] * n
        start = flood(seed)
    known[start] = True
    # a first cluster in one line cannot set the pitch across it (each tile elsewhere is
    # placed through the line's fit): when the links in the lattice's own frame
    # (``lattice_frame_links``) join tiles off the line, it grows again with them
    kc = cells[known]
    if extra.any() and (np.ptp(kc[:, 0]) < 1 or np.ptp(kc[:, 1]) < 1):
        axis = 0 if np.ptp(kc[:, 0]) < 1 else 1  # the line's fixed axis (0: one row)
        use_extra[0] = True
        cells[:] = 0
        known[:] = False
        is_known[:] = [False] * n
        again = flood(seed)
        if _off_line_part(cells[again], axis) >= settings.min_cluster_tiles:
            known[again] = True
        else:  # (no part of a board off the line: the first cluster as it was)
            use_extra[0] = False
            cells[:] = 0
            is_known[:] = [False] * n
            known[flood(seed)] = True
    h = _fit(pts[known], cells[known], pitch0, theta, settings)
    # the other clusters of at least ``min_cluster_tiles`` tiles (parts of a board an arm cuts
    # apart, lines that do not meet): each grows on its own links, so its cells agree among
    # themselves, and is placed whole at the offset the fit gives its tiles (their median),
    # then joins the fit. Rounding each tile through a fit extrapolated across a gap of
    # several cells in an oblique view splits one cluster between neighbouring offsets, and
    # no homography then carries both halves. Only a first cluster of at least
    # ``min_homography_tiles`` tiles spanning rows and columns fixes a homography to place
    # them by
    loose = np.zeros(n, bool)  # tiles of smaller clusters, placed through the fit below
    kc = cells[known]
    if len(kc) < settings.min_homography_tiles or np.ptp(kc[:, 0]) < 1 or np.ptp(kc[:, 1]) < 1:
        loose[:] = True
    while not (known | loose).all():
        g = _apply(np.linalg.inv(h), pts)[:, ::-1]  # (row, col), fractional
        rest = np.nonzero(~(known | loose))[0]
        first = int(rest[np.argmin(np.hypot(*(g[rest] - np.round(g[rest])).T))])
        cells[first] = 0
        m = np.array(flood(first))
        if len(m) < settings.min_cluster_tiles:
            loose[m] = True
            continue
        cells[m] += np.round(np.median(g[m] - cells[m], axis=0)).astype(np.int64)
        # a part of the same board lies on the same homography: the tiles placed so far
        # stay on their cells when it joins the fit. A cluster that bends the fit away from
        # them (the checks of a tablecloth, on a grid of their own) is not placed whole
        both = known.copy()
        both[m] = True
        h_both = _fit(pts[both], cells[both], pitch0, theta, settings)
        g_old = _apply(np.linalg.inv(h_both), pts[known])[:, ::-1]
        moved = np.hypot(*(g_old - cells[known]).T)
        if float(np.percentile(moved, 90)) > settings.max_cluster_bend:
            loose[m] = True
            continue
        known[m] = True
        h = h_both
    fitted = cells.copy() if known.all() else None  # the cells of every tile h was fitted to
    # place the other clusters through the fit, grow again from them, and refit
    for _ in range(3):
        if known.all():
            break
        g = _apply(np.linalg.inv(h), pts)  # (col, row)
        cells = np.where(known[:, None], cells, np.round(g[:, ::-1]).astype(np.int64))
        known[:] = True
        h = _fit(pts, cells, pitch0, theta, settings)
        fitted = cells
    g = _apply(np.linalg.inv(h), pts)
    cells = np.round(g[:, ::-1]).astype(np.int64)
    # refit to the cells the fit rounds to; the fit is deterministic, so when those are the
    # cells it was fitted to it would return the same transform
    if fitted is None or not np.array_equal(cells, fitted):
        h = _fit(pts, cells, pitch0, theta, settings)
        g = _apply(np.linalg.inv(h), pts)
    cells = np.round(g[:, ::-1]).astype(np.int64)
    resid = np.hypot(*(g[:, ::-1] - cells).T)
    off = cells.min(axis=0)
    cells = cells - off
    shift = np.array([[1.0, 0.0, off[1]], [0.0, 1.0, off[0]], [0.0, 0.0, 1.0]])
    h = h @ shift
    h = h / h[2, 2]
    # pitch and angle at the board's centre
    mid = cells.mean(axis=0)
    p0 = _apply(h, np.array([[mid[1], mid[0]], [mid[1] + 1, mid[0]], [mid[1], mid[0] + 1]]))
    step_c, step_r = p0[1] - p0[0], p0[2] - p0[0]
    pitch = float((np.hypot(*step_c) + np.hypot(*step_r)) / 2)
    angle = math.degrees(math.atan2(step_c[1], step_c[0])) % 90.0
    return LatticeFit(cells, resid, h, pitch, angle)


def fit_known_cells(
    centres_xy: NDArray[np.float64],
    cells: NDArray[np.int64],
    pitch: float,
    angle_rad: float,
    settings: LatticeSettings = LatticeSettings(),
) -> NDArray[np.float64]:
    """Grid -> image transform ``(3, 3)`` for centres whose cells are already known.

    :func:`fit_lattice` finds the cells itself, by linking neighbours; this is its last step
    alone, for a refit onto tiles an earlier lattice placed: a homography when at least
    ``min_homography_tiles`` span rows and columns, else a line's perspective or a partial
    affine, and a similarity of ``pitch`` (same units as the centres) turned by
    ``angle_rad`` for one tile.

    Args:
        centres_xy: ``(N, 2)`` tile centres, pixels (or table-plane units), N >= 1.
        cells: ``(N, 2)`` their integer ``(row, col)`` cells.
        pitch: the lattice's pitch, units of the centres (the RANSAC threshold's scale).
        angle_rad: the +col direction, radians.
        settings: thresholds.

    Raises:
        ValueError: no centres, or centres and cells of different lengths.
    """
    pts = np.asarray(centres_xy, np.float64).reshape(-1, 2)
    cells = np.asarray(cells, np.int64).reshape(-1, 2)
    if len(pts) == 0 or len(pts) != len(cells):
        raise ValueError(
            f"fit_known_cells needs matching centres and cells, got {len(pts)} and {len(cells)}"
        )
    h = _fit(pts, cells, pitch, angle_rad, settings)
    return np.asarray(h / h[2, 2], np.float64)


def _off_fullest(cells: NDArray[np.int64], axis: int) -> int:
    """How many of ``cells`` ``(N, 2)`` lie off the fullest line along grid axis ``axis``."""
    _, counts = np.unique(cells[:, axis], return_counts=True)
    return int(len(cells) - counts.max())


def _off_line_part(cells: NDArray[np.int64], axis: int) -> int:
    """The size of the largest 8-connected group of ``cells`` ``(N, 2)`` off the line through
    the first cell along grid axis ``axis`` (0: its row, 1: its column)."""
    off = {(int(r), int(c)) for r, c in cells if (r, c)[axis] != cells[0][axis]}
    best, seen = 0, set()
    for start in off:
        if start in seen:
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:
            r, c = stack.pop()
            size += 1
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    nb = (r + dr, c + dc)
                    if nb in off and nb not in seen:
                        seen.add(nb)
                        stack.append(nb)
        best = max(best, size)
    return best


def _fit(
    pts: NDArray[np.float64],
    cells: NDArray[np.int64],
    pitch: float,
    theta: float,
    settings: LatticeSettings,
) -> NDArray[np.float64]:
    """Grid -> image transform from matched cells and centres."""
    grid = cells[:, ::-1].astype(np.float64)  # (col, row)
    n = len(pts)
    if n == 1:
        return _similarity(pitch, theta, pts[0] - 0.0)
    span_r = np.ptp(cells[:, 0])
    span_c = np.ptp(cells[:, 1])
    if n >= settings.min_homography_tiles and span_r >= 1 and span_c >= 1:
        found, _ = cv2.findHomography(
            grid, pts, cv2.RANSAC, settings.ransac_px * pitch, maxIters=200, confidence=0.99
        )
        if found is not None and _sane(np.asarray(found, np.float64), grid, pts, pitch):
            return np.asarray(found, np.float64)
    if n >= settings.min_homography_tiles and (span_r == 0) != (span_c == 0):
        line = _line_fit(grid, pts, along=0 if span_r == 0 else 1)
        if line is not None and _sane(line, grid, pts, pitch):
            return line
    a, _ = cv2.estimateAffinePartial2D(
        grid.reshape(-1, 1, 2), pts.reshape(-1, 1, 2), method=cv2.LMEDS
    )
    # (candidates all on one cell leave the partial affine undetermined: OpenCV returns NaN)
    if a is None or not np.isfinite(a).all():
        mean_g = grid.mean(axis=0)
        sim = _similarity(pitch, theta, np.zeros(2))
        origin = pts.mean(axis=0) - sim[:2, :2] @ mean_g
        return _similarity(pitch, theta, origin)
    affine = np.vstack([a, [0.0, 0.0, 1.0]])
    if settings.branch_line_min_error > 0 and n > settings.min_homography_tiles:
        # one long line and a tile or two beside it (a line's first branch) fix no
        # homography, and one pitch all along cannot follow an oblique line's perspective:
        # the line's own perspective (its fullest row or column, :func:`_line_fit`), kept
        # when the similarity leaves one of the line's tiles ``branch_line_min_error`` of a
        # pitch or more off its cell, the perspective places every one of them closer than
        # that, and every tile closer than the similarity does
        for along in (0, 1):  # a row (columns vary), then a column (rows vary)
            vals, counts = np.unique(cells[:, along], return_counts=True)
            on = cells[:, along] == vals[np.argmax(counts)]
            if int(on.sum()) < settings.min_homography_tiles or np.ptp(grid[on, along]) < 1:
                continue
            err_affine = np.linalg.norm(_apply(affine, grid) - pts, axis=1) / pitch
            if err_affine[on].max() < settings.branch_line_min_error:
                continue
            line = _line_fit(grid[on], pts[on], along=along)
            if line is None or not _sane(line, grid, pts, pitch):
                continue
            err_line = np.linalg.norm(_apply(line, grid) - pts, axis=1) / pitch
            if (
                err_line[on].max() < settings.branch_line_min_error
                and err_line.max() < err_affine.max()
            ):
                return line
    return affine


def _line_fit(
    grid: NDArray[np.float64], pts: NDArray[np.float64], along: int
) -> NDArray[np.float64] | None:
    """Homography of tiles in one line (grid axis ``along``: 0 = columns, 1 = rows).

    Seen obliquely, the tiles of a line shrink towards its far end: the image of cell ``t``
    is ``(o + a t) / (1 + c t)``, a one-dimensional perspective, which a similarity (one
    pitch all along) cannot follow over a long line. ``o``, ``a`` and ``c`` are fitted by
    least squares; across the line the cells step perpendicular to ``a`` by as much.
    None when the fit folds (``1 + c t`` not positive over the line).
    """
    t = grid[:, along]
    x, y = pts[:, 0], pts[:, 1]
    one, nil = np.ones_like(t), np.zeros_like(t)
    m = np.r_[np.c_[one, nil, t, nil, -t * x], np.c_[nil, one, nil, t, -t * y]]
    z, *_ = np.linalg.lstsq(m, np.r_[x, y], rcond=None)
    ox, oy, ax, ay, c = z
    if np.any(1.0 + c * t <= 0.5):
        return None
    other = grid[0, 1 - along]  # the line's fixed row (or column)
    if along == 0:  # +row is +col turned by +90 degrees
        nx, ny = -ay, ax
        h = np.array([[ax, nx, ox - nx * other], [ay, ny, oy - ny * other], [c, 0.0, 1.0]])
    else:  # +col is +row turned by -90 degrees
        nx, ny = ay, -ax
        h = np.array([[nx, ax, ox - nx * other], [ny, ay, oy - ny * other], [0.0, c, 1.0]])
    return h


def _sane(
    h: NDArray[np.float64], grid: NDArray[np.float64], pts: NDArray[np.float64], pitch: float
) -> bool:
    """A homography that keeps the tiles' cells convex, of plausible size and in front."""
    w = homogeneous(grid) @ h[2]
    if np.any(w <= 0):
        return False
    jac = _apply(h, grid + np.array([1.0, 0.0])) - _apply(h, grid)
    step = np.hypot(*jac.T)
    return bool(np.all((step > 0.4 * pitch) & (step < 2.5 * pitch)))
