"""Scoring a detector reading against ground truth (for tests and ``benchmarks/bench_vision.py``).

A detection *matches* a truth tile when its centre is within ``match_radius`` pitches of the
tile's true centre (one-to-one, nearest first). Grid positions are compared up to the
translation and quarter turn that best align the detected cells with the true ones (the
lattice is the tiles' own, so its origin and which axis is "row" are arbitrary; INTERFACES.md
"Vocabulary").

Counts:
- recall = matched visible tiles / visible tiles;
- precision = correct detections / detections, where a detection is correct when it matches a
  visible tile, or a hidden tile (more than a quarter covered, still readable) *and* reads it
  right; a detection of nothing, or a wrong guess at a covered tile, is a false positive;
- identity = matched tiles with the right colour and shape / matched tiles;
- cells = matched tiles at the right (aligned) cell / matched tiles;
- exact = every visible tile found, read and placed right, and no false positive.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from scorer.model import COPIES_PER_KIND, Board, NotationError, Pos, Shape, Tile
from scorer.rules import is_valid_line
from vision.observation import Observation

if TYPE_CHECKING:
    from vision.render import TruthTile

__all__ = ["DetectionScore", "legal_board", "random_board", "score_detection"]


@dataclass
class DetectionScore:
    """Counts from one or more images (add them with ``+``)."""

    visible: int = 0
    detected: int = 0
    matched_visible: int = 0
    correct_detections: int = 0
    identity_ok: int = 0
    cell_ok: int = 0
    matched: int = 0
    images: int = 0
    exact: int = 0
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)

    def __add__(self, other: DetectionScore) -> DetectionScore:
        return DetectionScore(
            self.visible + other.visible,
            self.detected + other.detected,
            self.matched_visible + other.matched_visible,
            self.correct_detections + other.correct_detections,
            self.identity_ok + other.identity_ok,
            self.cell_ok + other.cell_ok,
            self.matched + other.matched,
            self.images + other.images,
            self.exact + other.exact,
            self.confusions + other.confusions,
        )

    @property
    def recall(self) -> float:
        return self.matched_visible / self.visible if self.visible else 1.0

    @property
    def precision(self) -> float:
        return self.correct_detections / self.detected if self.detected else 1.0

    @property
    def identity(self) -> float:
        return self.identity_ok / self.matched if self.matched else 1.0

    @property
    def cells(self) -> float:
        return self.cell_ok / self.matched if self.matched else 1.0

    @property
    def exact_rate(self) -> float:
        return self.exact / self.images if self.images else 1.0

    def misread_kinds(self) -> dict[str, Any]:
        """The misreads (``confusions``) split by what the reading got wrong.

        Returns ``{"misreads": n, "colour": n, "shape": n, "both": n, "shape_pairs": {...},
        "colour_pairs": {...}}``: ``colour`` counts readings with the right shape and another
        colour, ``shape`` the right colour and another shape, ``both`` neither; the pair
        counts are unordered (a diamond read as a clover and a clover read as a diamond are
        both ``"clover/diamond"``), most first, over the readings that got only that
        attribute wrong. Confusions whose keys are no tile notation (:meth:`Tile.parse`)
        count under ``misreads`` alone.
        """
        out: dict[str, Any] = {"misreads": sum(self.confusions.values())}
        kinds: Counter[str] = Counter()
        shapes: Counter[str] = Counter()
        colours: Counter[str] = Counter()
        for (truth, read), n in self.confusions.items():
            try:
                t, d = Tile.parse(truth), Tile.parse(read)
            except NotationError:
                continue
            if t.color != d.color and t.shape != d.shape:
                kinds["both"] += n
            elif t.color != d.color:
                kinds["colour"] += n
                colours["/".join(sorted((t.color, d.color)))] += n
            elif t.shape != d.shape:
                kinds["shape"] += n
                shapes["/".join(sorted((t.shape.value, d.shape.value)))] += n
        out.update({k: kinds[k] for k in ("colour", "shape", "both")})
        out["shape_pairs"] = dict(shapes.most_common())
        out["colour_pairs"] = dict(colours.most_common())
        return out

    def summary(self) -> dict[str, float | int]:
        """Rates rounded for reports."""
        return {
            "images": self.images,
            "tiles": self.visible,
            "recall": round(self.recall, 4),
            "precision": round(self.precision, 4),
            "identity": round(self.identity, 4),
            "cells": round(self.cells, 4),
            "boards_exact": round(self.exact_rate, 4),
        }


def _rot(p: tuple[int, int], k: int) -> tuple[int, int]:
    r, c = p
    for _ in range(k % 4):
        r, c = c, -r
    return r, c


def score_detection(
    obs: Observation, truth: list[TruthTile], pitch_px: float, match_radius: float = 0.4
) -> DetectionScore:
    """Compare a reading with the renderer's truth (``Rendered.truth``, ``Rendered.pitch_px``)."""
    det = list(obs.tiles)
    tr = list(truth)
    sc = DetectionScore(images=1, detected=len(det), visible=sum(t.visible for t in tr))
    if det and tr:
        dc = np.array([d.center_xy for d in det])
        tc = np.array([t.center_xy for t in tr])
        dist = np.hypot(*(dc[:, None, :] - tc[None, :, :]).transpose(2, 0, 1))
        pairs = sorted(
            (
                (dist[i, j], i, j)
                for i in range(len(det))
                for j in range(len(tr))
                if dist[i, j] < match_radius * pitch_px
            ),
        )
        used_d: set[int] = set()
        used_t: set[int] = set()
        match: list[tuple[int, int]] = []
        for _, i, j in pairs:
            if i in used_d or j in used_t:
                continue
            used_d.add(i)
            used_t.add(j)
            match.append((i, j))
    else:
        match = []
    # best quarter turn + translation of detected cells onto true cells
    best = (0, 0, (0, 0))
    for k in range(4):
        offs: Counter[tuple[int, int]] = Counter()
        for i, j in match:
            r, c = _rot(det[i].pos, k)
            offs[(tr[j].pos.row - r, tr[j].pos.col - c)] += 1
        if offs:
            off, n = offs.most_common(1)[0]
            if n > best[1]:
                best = (k, n, off)
    k, _, off = best
    for i, j in match:
        d, t = det[i], tr[j]
        ident = d.tile == t.tile
        if t.visible:
            sc.matched_visible += 1
            sc.correct_detections += 1
        elif ident:
            sc.correct_detections += 1
        sc.matched += 1
        sc.identity_ok += int(ident)
        if not ident:
            sc.confusions[(str(t.tile), str(d.tile))] += 1
        r, c = _rot(d.pos, k)
        sc.cell_ok += int((r + off[0], c + off[1]) == (t.pos.row, t.pos.col))
    sc.exact = int(
        sc.matched_visible == sc.visible
        and sc.correct_detections == sc.detected
        and sc.identity_ok == sc.matched
        and sc.cell_ok == sc.matched
    )
    return sc


def _grow_lines(
    rng: np.random.Generator,
    cells: dict[Pos, Tile],
    n_tiles: int,
    place: Callable[[Pos], bool],
    max_rounds: int,
) -> None:
    """Grow ``cells`` to ``n_tiles`` as lines of 1-5 new cells branching off earlier tiles.

    ``place(p)`` puts a tile on the empty cell ``p`` (False: none fits, the line stops there).
    """
    rounds = 0
    while len(cells) < n_tiles and rounds < max_rounds:
        rounds += 1
        start = list(cells)[int(rng.integers(len(cells)))]
        dr, dc = [(0, 1), (1, 0), (0, -1), (-1, 0)][int(rng.integers(4))]
        p = start
        for _ in range(int(rng.integers(1, 6))):
            p = Pos(p.row + dr, p.col + dc)
            if p in cells:
                continue
            if not place(p) or len(cells) >= n_tiles:
                break


def random_board(
    rng: np.random.Generator,
    n_tiles: int,
    colors: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple"),
) -> Board:
    """A connected, Qwirkle-like layout of ``n_tiles`` random tiles (lines crossing lines).

    Identities are random, so most lines break the rules: the detector's rule check leaves
    such a layout alone and it measures the camera's reading by itself (:func:`legal_board`
    for real tables). Positions grow as lines of 2-6 tiles branching off earlier tiles,
    leaving gaps as real boards do.
    """
    cells: dict[Pos, Tile] = {}
    shapes = list(Shape)

    def new_tile() -> Tile:
        return Tile(colors[int(rng.integers(len(colors)))], shapes[int(rng.integers(6))])

    def place(p: Pos) -> bool:
        cells[p] = new_tile()
        return True

    cells[Pos(0, 0)] = new_tile()
    _grow_lines(rng, cells, n_tiles, place, 10000)
    return Board(cells.items())


def _run_tiles(cells: dict[Pos, Tile], p: Pos, dr: int, dc: int, tile: Tile) -> list[Tile]:
    """The line through the empty cell ``p`` along ``(dr, dc)`` if ``tile`` were put there."""
    out = [tile]
    for sign in (1, -1):
        q = Pos(p.row + sign * dr, p.col + sign * dc)
        while q in cells:
            out.append(cells[q])
            q = Pos(q.row + sign * dr, q.col + sign * dc)
    return out


def legal_board(
    rng: np.random.Generator,
    n_tiles: int,
    colors: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple"),
) -> Board:
    """A connected board of up to ``n_tiles`` tiles on which every line obeys the rules.

    Real tables hold legal boards (RULES.md section 1: a line is one colour with different
    shapes or one shape with different colours, at most 6 long), drawn from the real bag
    (:data:`~scorer.model.COPIES_PER_KIND` copies of each of the 36 tiles). Positions grow
    like :func:`random_board` (lines of 1-5 new tiles branching off earlier tiles); each new
    tile is drawn from what is left in the bag among those that keep both lines through its
    cell legal. An extension stops where no tile fits, so the board may come out smaller than
    ``n_tiles`` when the layout boxes itself in (rare below ~80 tiles).

    Raises:
        ValueError: ``n_tiles`` < 1 or more than the bag holds.
    """
    kinds = [Tile(c, s) for c in colors for s in Shape]
    if not 1 <= n_tiles <= len(kinds) * COPIES_PER_KIND:
        raise ValueError(f"legal_board: n_tiles must be 1..{len(kinds) * COPIES_PER_KIND}")
    bag = {t: COPIES_PER_KIND for t in kinds}
    cells: dict[Pos, Tile] = {}

    def place(p: Pos) -> bool:
        order = rng.permutation(len(kinds))
        for i in order.tolist():
            t = kinds[i]
            if bag[t] == 0:
                continue
            if not (
                is_valid_line(_run_tiles(cells, p, 0, 1, t))
                and is_valid_line(_run_tiles(cells, p, 1, 0, t))
            ):
                continue
            cells[p] = t
            bag[t] -= 1
            return True
        return False

    place(Pos(0, 0))
    _grow_lines(rng, cells, n_tiles, place, 20 * n_tiles + 200)
    return Board(cells.items())
