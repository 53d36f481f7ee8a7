"""Rule-checked reading: let the rules of Qwirkle settle what the camera cannot tell apart.

Every line on a real Qwirkle table is one colour with different shapes or one shape with
different colours, at most six long (RULES.md section 1). A blurred diamond and a blurred
clover, or a thin orange star and a red one, can look alike to a camera; the lines they sit
in do not. :func:`rule_check` re-reads the tiles of one observation jointly: it picks, per
tile, one of the readings the detector already offers (the best reading and its
alternatives) so that as many lines as possible are legal, paying for each step away from the
camera's best reading by how much less likely the camera finds it.

The cost of a choice of readings ``r_i`` is (a MAP labelling under a Potts-like line prior)::

    sum_i -log conf_i(r_i)  +  line_penalty * (illegal lines + copies beyond the set's three)

so a reading the camera finds ``k`` times less likely than its best one replaces it only when
that makes ``log k / line_penalty`` or more lines legal. It is minimised greedily from the
camera's readings: the best single-tile change, else the best change of two tiles in one
illegal line, until nothing lowers the cost. Lines are the maximal runs of 2+ tiles along
rows and columns of the lattice; a missed tile splits a line into parts, and parts of a
legal line are legal, so misses never create violations.

A table that does not look like a Qwirkle board at all (a test layout of random tiles,
another game) is left alone: when more than ``max_illegal_share`` of its lines are still
illegal after the check, the camera's readings are returned unchanged. Confident readings
are never overturned (their cost exceeds any line penalty), so a tile a player laid against
the rules stays visible as such; only readings the camera itself is unsure of move, and the
camera's own reading stays among the alternatives.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from scorer.model import COPIES_PER_KIND, Pos, Tile
from scorer.rules import is_valid_line
from vision.observation import TileObservation

__all__ = ["RuleCheck", "RuleCheckSettings", "rule_check"]


@dataclass(frozen=True)
class RuleCheckSettings:
    """Weights of the rule check.

    Attributes:
        line_penalty: cost of one illegal line, or of one copy of a tile beyond the set's
            three (:data:`~scorer.model.COPIES_PER_KIND`), in nats of reading confidence.
            3.0: a reading the camera finds up to e^3 (about 20) times less likely than its
            best one may replace it to make one line legal, up to e^6 (about 400) times for
            two lines.
            Measured on hard rendered scenes of legal boards (``benchmarks/bench_vision.py``),
            where the detector's runner-up is the true tile for about 80 % of its misreads.
        max_illegal_share: a board with more than this share of its lines still illegal after
            the check is not treated as a Qwirkle board (its readings are left alone). A
            legal board read with a few misreads stays far below it; a layout of random tiles
            has most of its lines illegal.
        min_confidence: floor of a reading's confidence before its log is taken (a reading
            offered with confidence 0 stays possible, at a high but finite cost).
        max_start_share: a board with more than this share of its lines illegal as the camera
            reads it is not checked at all (it cannot end below ``max_illegal_share``
            without overturning many readings; a random layout has most lines illegal;
            this also bounds the time spent on it).
        free_illegal_lines: this many illegal lines never disqualify a board by the two
            shares above (a young game has few lines; one misread makes a large share).
        max_changes: bound on the greedy steps (each step changes one or two tiles).
        exchanges: when no change of one tile or of two tiles in one illegal line lowers the
            cost, also try exchanges: a tile takes a reading another tile has and that tile
            takes the first one's (two blurred tiles of one colour read as each other's
            shape: either change alone adds a copy beyond the set's three).
    """

    line_penalty: float = 3.0
    max_illegal_share: float = 0.25
    max_start_share: float = 0.6
    free_illegal_lines: int = 2
    min_confidence: float = 1e-4
    max_changes: int = 200
    exchanges: bool = True


@dataclass(frozen=True)
class RuleCheck:
    """What :func:`rule_check` did.

    Attributes:
        tiles: the tiles, in input order, with the chosen readings.
        changed: ``(cell, camera's reading, chosen reading)`` for each tile whose reading the
            rules changed.
        illegal_lines_before, illegal_lines_after: illegal lines with the camera's readings
            and with the chosen ones.
        lines: lines (maximal runs of 2+ tiles) on the board.
        applied: False when the board did not look like a Qwirkle board (see
            :attr:`RuleCheckSettings.max_illegal_share`) and nothing was changed.
    """

    tiles: list[TileObservation]
    changed: list[tuple[Pos, Tile, Tile]]
    illegal_lines_before: int
    illegal_lines_after: int
    lines: int
    applied: bool


def _lines(cells: Sequence[Pos]) -> list[list[int]]:
    """Maximal runs (2+ tiles) along rows and columns, as lists of indices into ``cells``."""
    at = {(p.row, p.col): i for i, p in enumerate(cells)}
    out: list[list[int]] = []
    for dr, dc in ((0, 1), (1, 0)):
        for (r, c), i in at.items():
            if (r - dr, c - dc) in at or (r + dr, c + dc) not in at:
                continue
            run = [i]
            rr, cc = r + dr, c + dc
            while (rr, cc) in at:
                run.append(at[(rr, cc)])
                rr, cc = rr + dr, cc + dc
            out.append(run)
    return out


def _reading_confidences(t: TileObservation) -> list[tuple[Tile, float]]:
    """The tile's readings with their joint confidences, the camera's best first."""
    return [(t.tile, t.color_confidence * t.shape_confidence), *t.alternatives]


def _with_reading(t: TileObservation, k: int) -> TileObservation:
    """``t`` reading its ``k``-th reading; the others (the camera's best among them) follow.

    The colour and shape confidences of the new reading are recovered from the alternatives
    (the detector offers the top two colours times the top two shapes, each as the product of
    its colour and shape confidences); when a factor cannot be recovered, the joint confidence
    is split evenly between the two.
    """
    readings = _reading_confidences(t)
    tile, joint = readings[k]
    by_tile = dict(readings)
    best = t.tile
    cc = t.color_confidence if tile.color == best.color else None
    sc = t.shape_confidence if tile.shape == best.shape else None
    if cc is None and sc is not None:
        cc = joint / max(sc, 1e-12)
    elif sc is None and cc is not None:
        sc = joint / max(cc, 1e-12)
    elif cc is None and sc is None:
        same_shape = by_tile.get(Tile(tile.color, best.shape))
        if same_shape is not None and t.shape_confidence > 0:
            cc = same_shape / t.shape_confidence
            sc = joint / max(cc, 1e-12)
        else:
            cc = sc = math.sqrt(max(joint, 0.0))
    others = tuple((r, c) for i, (r, c) in enumerate(readings) if i != k)
    return replace(
        t,
        tile=tile,
        color_confidence=float(min(max(cc or 0.0, 0.0), 1.0)),
        shape_confidence=float(min(max(sc or 0.0, 0.0), 1.0)),
        alternatives=others,
    )


def rule_check(
    tiles: Sequence[TileObservation], settings: RuleCheckSettings = RuleCheckSettings()
) -> RuleCheck:
    """Choose each tile's reading so the board's lines obey the rules where the camera is unsure.

    Args:
        tiles: one observation's tiles (distinct cells), each with its best reading and
            alternatives (:class:`~vision.observation.TileObservation`).
        settings: weights (:class:`RuleCheckSettings`).

    Returns:
        A :class:`RuleCheck`: the tiles in input order (unchanged objects where the reading
        stays), what changed and the illegal-line counts.
    """
    s = settings
    tiles = list(tiles)
    cells = [t.pos for t in tiles]
    lines = _lines(cells)
    options = [_reading_confidences(t) for t in tiles]
    cost = [[-math.log(max(c, s.min_confidence)) for _, c in o] for o in options]
    # a change can make at most three lines legal (two tiles of one line: that line and one
    # crossing line each) and take away a surplus copy, so a reading costing more than four
    # penalties above the tile's best one can never pay for itself: only the others are tried
    tries = [[k for k in range(1, len(c)) if c[k] - c[0] < 4.0 * s.line_penalty] for c in cost]
    choice = [0] * len(tiles)
    lines_of: list[list[int]] = [[] for _ in tiles]
    for li, line in enumerate(lines):
        for i in line:
            lines_of[i].append(li)

    def line_ok(li: int) -> bool:
        return is_valid_line([options[i][choice[i]][0] for i in lines[li]])

    ok = [line_ok(li) for li in range(len(lines))]
    before = ok.count(False)
    copies = Counter(t.tile for t in tiles)
    result = RuleCheck(tiles, [], before, before, len(lines), False)
    if before == 0 and max(copies.values(), default=0) <= COPIES_PER_KIND:
        return replace(result, applied=True)
    if before > max(s.free_illegal_lines, s.max_start_share * len(lines)):
        return result

    def delta(change: dict[int, int]) -> float:
        """Cost change of setting ``choice[i] = k`` for each ``i: k`` (choice restored)."""
        touched = {li for i in change for li in lines_of[i]}
        old = {i: choice[i] for i in change}
        d = sum(cost[i][k] - cost[i][old[i]] for i, k in change.items())
        for i, k in change.items():
            choice[i] = k
        d += s.line_penalty * sum(ok[li] - line_ok(li) for li in touched)
        # the set holds COPIES_PER_KIND of each tile: each copy above that is one more penalty
        moved = Counter(options[i][k][0] for i, k in change.items())
        moved.subtract(options[i][old[i]][0] for i in change)
        d += s.line_penalty * sum(
            max(0, copies[t] + n - COPIES_PER_KIND) - max(0, copies[t] - COPIES_PER_KIND)
            for t, n in moved.items()
            if n
        )
        for i, k in old.items():
            choice[i] = k
        return d

    for _ in range(s.max_changes):
        bad = [li for li in range(len(lines)) if not ok[li]]
        surplus = {t for t, n in copies.items() if n > COPIES_PER_KIND}
        suspects = sorted(
            {i for li in bad for i in lines[li]}
            | {i for i in range(len(tiles)) if options[i][choice[i]][0] in surplus}
        )
        best: tuple[float, dict[int, int]] = (-1e-9, {})
        for i in suspects:
            for k in [0, *tries[i]]:
                if k != choice[i]:
                    d = delta({i: k})
                    if d < best[0]:
                        best = (d, {i: k})
        if not best[1]:
            for li in bad:
                unsure = [i for i in lines[li] if tries[i] or choice[i]]
                for i, j in combinations(unsure, 2):
                    for ki in [0, *tries[i]]:
                        for kj in [0, *tries[j]]:
                            if ki == choice[i] and kj == choice[j]:
                                continue
                            d = delta({i: ki, j: kj})
                            if d < best[0]:
                                best = (d, {i: ki, j: kj})
        if not best[1] and s.exchanges:
            # two tiles of different lines read as each other (a blurred clover and diamond
            # of one colour): either change alone adds a copy beyond the set's, both together
            # keep the count
            reading_of: dict[Tile, list[int]] = {}
            for j in range(len(tiles)):
                reading_of.setdefault(options[j][choice[j]][0], []).append(j)
            for i in suspects:
                for ki in [0, *tries[i]]:
                    if ki == choice[i]:
                        continue
                    for j in reading_of.get(options[i][ki][0], []):
                        if j == i:
                            continue
                        for kj in [0, *tries[j]]:
                            if kj != choice[j] and options[j][kj][0] == options[i][choice[i]][0]:
                                d = delta({i: ki, j: kj})
                                if d < best[0]:
                                    best = (d, {i: ki, j: kj})
        if not best[1]:
            break
        for i, k in best[1].items():
            copies[options[i][choice[i]][0]] -= 1
            copies[options[i][k][0]] += 1
            choice[i] = k
            for li in lines_of[i]:
                ok[li] = line_ok(li)

    after = ok.count(False)
    if after > max(s.free_illegal_lines, s.max_illegal_share * len(lines)):
        return result  # not a Qwirkle board (or read too badly to trust the rules)
    out = [t if k == 0 else _with_reading(t, k) for t, k in zip(tiles, choice, strict=True)]
    changed = [(t.pos, t.tile, o.tile) for t, o, k in zip(tiles, out, choice, strict=True) if k]
    return RuleCheck(out, changed, before, after, len(lines), True)
