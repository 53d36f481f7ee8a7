"""Which move was made? Align two observed boards and read the added tiles as a placement.

A camera's grid has no fixed origin and the camera may have turned, so the board *after* a move
is known only up to a translation and a rotation by 90-degree steps (``shared/RULES.md``,
"Vocabulary"; ``shared/INTERFACES.md``: "consumers compare boards up to translation (and 90°
rotation, for camera output)"). :func:`infer_move`:

1. aligns ``after`` onto ``before``: for each of the 4 rotations, every pair of a *before* tile and
   an *after* cell that could hold the same kind votes for the offset between them; the best
   offsets are checked cell by cell (translations keep the camera's turn: rotation 0 is preferred,
   then 1, 3, 2 quarter turns);
2. requires every *before* tile to be found again at its aligned cell — otherwise the table was
   disturbed or a tile misread: :class:`TilesVanishedError` / :class:`TilesChangedError`;
3. reads the remaining *after* cells as the placement, trying each cell's alternative readings
   (a detector's runner-up colour or shape) and preferring, in order: a legal reading, fewer
   runner-up readings used, the preferred rotation. Equally good legal readings that differ
   raise :class:`AmbiguousMoveError`; no legal reading raises :class:`NoLegalReadingError`
   (unless ``allow_illegal``); nothing added raises :class:`NoChangeError`.

The returned placement is in *before's* coordinates, so it can be appended to the game as is.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorer.model import Board, Placement, Pos, Tile
from scorer.rules import (
    Score,
    Violation,
    board_violations,
    describe_tile,
    score_placement,
    validate_placement,
)

__all__ = [
    "AmbiguousMoveError",
    "InferSettings",
    "Inference",
    "MoveInferenceError",
    "NoChangeError",
    "NoLegalReadingError",
    "Reading",
    "SplitSettings",
    "TilesChangedError",
    "TilesVanishedError",
    "Transform",
    "infer_move",
    "split_moves",
]

#: Rotations in order of preference: a still camera first, then a quarter turn either way.
_ROTATION_ORDER: tuple[int, ...] = (0, 1, 3, 2)


@dataclass(frozen=True, slots=True)
class InferSettings:
    """Search limits of :func:`infer_move` (engineering bounds, not rules).

    Attributes:
        max_alternatives: readings per cell considered (best first); a detector's top 3 cover
            nearly every misread in practice, and the product over a 6-tile move stays small.
        max_readings: cap on the alternative combinations enumerated per alignment (3^6 = 729
            fits; beyond the cap, cells fall back to fewer alternatives).
        offsets_per_rotation: best-voted offsets checked per rotation.
    """

    max_alternatives: int = 3
    max_readings: int = 1024
    offsets_per_rotation: int = 4


@dataclass(frozen=True, slots=True)
class Transform:
    """Maps *after* coordinates to *before* ones: ``before = after.rotated(q) + offset``."""

    quarter_turns: int
    offset: Pos

    def apply(self, p: tuple[int, int]) -> Pos:
        """The *before* cell of *after* cell ``p``."""
        return Pos(*p).rotated(self.quarter_turns) + self.offset


IDENTITY = Transform(0, Pos(0, 0))


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read the move.

    Attributes:
        placement: the added tiles in *before's* coordinates, reading order.
        transform: the alignment used.
        legal: no rule broken.
        violations: what is wrong when not legal.
        runner_ups: how many cells use a non-first reading (weighted by its rank).
        score: points of the placement (as if legal).
    """

    placement: Placement
    transform: Transform
    legal: bool
    violations: tuple[Violation, ...]
    runner_ups: int
    score: Score


@dataclass(frozen=True, slots=True)
class Inference:
    """The move read from two boards.

    Attributes:
        placement: the added tiles in *before's* coordinates.
        transform: after -> before alignment.
        legal: whether the placement is legal (always true unless ``allow_illegal``).
        violations: problems of the placement when not legal.
        score: its points and lines.
        candidates: other readings, best first (at most ``max_candidates``).
    """

    placement: Placement
    transform: Transform
    legal: bool
    violations: tuple[Violation, ...]
    score: Score
    candidates: tuple[Reading, ...]


class MoveInferenceError(ValueError):
    """No move could be read. ``cells`` are the cells concerned (before's coordinates) and
    ``seen`` the after board aligned into before's coordinates (best readings)."""

    def __init__(self, message: str, cells: Sequence[Pos] = (), seen: Board | None = None):
        super().__init__(message)
        self.cells: tuple[Pos, ...] = tuple(cells)
        self.seen: Board = seen if seen is not None else Board()


class TilesVanishedError(MoveInferenceError):
    """Tiles on the table before are gone after (table bumped, tiles taken back, occluded).

    ``expected`` holds the missing tiles at their cells."""

    def __init__(self, message: str, cells: Sequence[Pos], seen: Board, expected: Board):
        super().__init__(message, cells, seen)
        self.expected = expected


class TilesChangedError(MoveInferenceError):
    """Tiles on the table changed kind between the boards (a misread).

    ``expected`` holds the tiles that were there before."""

    def __init__(self, message: str, cells: Sequence[Pos], seen: Board, expected: Board):
        super().__init__(message, cells, seen)
        self.expected = expected


class NoLegalReadingError(MoveInferenceError):
    """The added tiles form no legal placement under any reading; ``readings`` best first,
    ``violations`` those of the best."""

    def __init__(
        self, message: str, cells: Sequence[Pos], seen: Board, readings: Sequence[Reading]
    ):
        super().__init__(message, cells, seen)
        self.readings: tuple[Reading, ...] = tuple(readings)
        self.violations: tuple[Violation, ...] = readings[0].violations if readings else ()


class AmbiguousMoveError(MoveInferenceError):
    """Two or more equally likely legal readings differ; ``readings`` lists them."""

    def __init__(
        self, message: str, cells: Sequence[Pos], seen: Board, readings: Sequence[Reading]
    ):
        super().__init__(message, cells, seen)
        self.readings: tuple[Reading, ...] = tuple(readings)


class NoChangeError(MoveInferenceError):
    """Nothing was added: the boards hold the same tiles."""


def _alternatives(
    after: Mapping[Pos, Sequence[Tile]] | Board, k: int
) -> dict[Pos, tuple[Tile, ...]]:
    out: dict[Pos, tuple[Tile, ...]] = {}
    for p, v in after.items():
        if isinstance(v, Tile):
            alts: tuple[Tile, ...] = (v,)
        else:
            alts = tuple(dict.fromkeys(v))[:k]
        if alts:
            out[Pos(*p)] = alts
    return out


@dataclass(slots=True)
class _Fit:
    transform: Transform
    rank: int
    matched: int
    cost: int
    vanished: list[Pos]
    changed: list[Pos]
    added: dict[Pos, tuple[Tile, ...]]


def _fit(before: Board, alts: dict[Pos, tuple[Tile, ...]], tr: Transform, rank: int) -> _Fit:
    mapped = {tr.apply(p): a for p, a in alts.items()}
    matched = cost = 0
    vanished: list[Pos] = []
    changed: list[Pos] = []
    for p, t in before.items():
        a = mapped.get(p)
        if a is None:
            vanished.append(p)
        elif t in a:
            matched += 1
            cost += a.index(t)
        else:
            changed.append(p)
    added = {p: a for p, a in mapped.items() if p not in before}
    return _Fit(tr, rank, matched, cost, sorted(vanished), sorted(changed), added)


def _align(before: Board, alts: dict[Pos, tuple[Tile, ...]], settings: InferSettings) -> list[_Fit]:
    """Candidate alignments, best first."""
    if not before:
        return [_fit(before, alts, IDENTITY, 0)]
    fits: list[_Fit] = []
    rank = 0
    for q in _ROTATION_ORDER:
        by_kind: dict[Tile, list[Pos]] = defaultdict(list)
        for p, a in alts.items():
            rp = p.rotated(q)
            for t in a:
                by_kind[t].append(rp)
        votes: Counter[Pos] = Counter()
        for bp, bt in before.items():
            for rp in by_kind.get(bt, ()):
                votes[Pos(bp.row - rp.row, bp.col - rp.col)] += 1
        best = sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))
        for off, _ in best[: settings.offsets_per_rotation]:
            fits.append(_fit(before, alts, Transform(q, off), rank))
            rank += 1
        if not best and q == 0:
            fits.append(_fit(before, alts, IDENTITY, rank))
            rank += 1
    fits.sort(key=lambda f: (-f.matched, len(f.changed) + len(f.vanished), f.cost, f.rank))
    return fits


def _readings(
    before: Board, fit: _Fit, first_turn: bool | None, settings: InferSettings
) -> list[Reading]:
    cells = sorted(fit.added)
    options = [list(enumerate(fit.added[c])) for c in cells]
    k = settings.max_alternatives
    while k > 1:
        total = 1
        for o in options:
            total *= len(o)
        if total <= settings.max_readings:
            break
        k -= 1
        options = [o[:k] for o in options]
    out: list[Reading] = []
    for combo in itertools.product(*options):
        placement = Placement(tuple((c, t) for c, (_, t) in zip(cells, combo, strict=True)))
        viol = tuple(validate_placement(before, placement, first_turn=first_turn))
        out.append(
            Reading(
                placement=placement,
                transform=fit.transform,
                legal=not viol,
                violations=viol,
                runner_ups=fit.cost + sum(i for i, _ in combo),
                score=score_placement(before, placement),
            )
        )
    return out


def _list(board: Board | Mapping[Pos, Tile], cells: Sequence[Pos]) -> str:
    shown = [f"{describe_tile(board[c])} at ({c.row},{c.col})" for c in cells[:6]]
    more = f" and {len(cells) - 6} more" if len(cells) > 6 else ""
    return ", ".join(shown) + more


def infer_move(
    before: Board,
    after: Mapping[Pos, Sequence[Tile]] | Board,
    *,
    first_turn: bool | None = None,
    max_candidates: int = 5,
    allow_illegal: bool = False,
    settings: InferSettings = InferSettings(),
) -> Inference:
    """The placement that turns ``before`` into ``after``.

    Args:
        before: the table as the game knows it (its coordinates are the game's).
        after: the new observation: a :class:`Board`, or per cell its candidate tiles best first
            (``Observation.readings()``), in the camera's own coordinates.
        first_turn: passed to :func:`scorer.rules.validate_placement` (``None``: before is empty).
        max_candidates: how many other readings to return in ``Inference.candidates``.
        allow_illegal: return the best illegal reading (``legal=False``) instead of raising
            :class:`NoLegalReadingError`.
        settings: search limits.

    Raises:
        TilesVanishedError: tiles of ``before`` are missing (``.cells``, ``.expected``).
        TilesChangedError: tiles of ``before`` read as other kinds (``.cells``, ``.expected``).
        NoChangeError: nothing was added.
        NoLegalReadingError: no reading of the added tiles is legal (``.readings``).
        AmbiguousMoveError: equally likely legal readings differ (``.readings``).
    """
    alts = _alternatives(after, settings.max_alternatives)
    fits = _align(before, alts, settings)
    best_fit = fits[0]
    seen = Board(
        {c: a[0] for c, a in {best_fit.transform.apply(p): a for p, a in alts.items()}.items()}
    )
    full = [f for f in fits if not f.vanished and not f.changed]
    if not full:
        if best_fit.vanished:
            gone = best_fit.vanished
            raise TilesVanishedError(
                f"{len(gone)} tile(s) on the table are gone: {_list(before, gone)} "
                "(table bumped or tiles taken back?)",
                gone,
                seen,
                Board({c: before[c] for c in gone}),
            )
        ch = best_fit.changed
        now = ", ".join(
            f"({c.row},{c.col}) {describe_tile(before[c])} now reads {describe_tile(seen[c])}"
            for c in ch[:6]
        )
        raise TilesChangedError(
            f"{len(ch)} tile(s) on the table changed: {now} (a misread tile?)",
            ch,
            seen,
            Board({c: before[c] for c in ch}),
        )
    if not any(f.added for f in full):
        raise NoChangeError("no tile was added", (), seen)

    readings: list[Reading] = []
    for f in full:
        if f.added:
            readings.extend(_readings(before, f, first_turn, settings))
    order = {f.transform: f.rank for f in full}
    readings.sort(key=lambda r: (not r.legal, r.runner_ups, order[r.transform]))
    unique: list[Reading] = []
    seen_pl: set[frozenset[tuple[Pos, Tile]]] = set()
    for r in readings:
        key = frozenset(r.placement.tiles)
        if key not in seen_pl:
            seen_pl.add(key)
            unique.append(r)
    best = unique[0]
    added_cells = best.placement.positions
    if not best.legal and not allow_illegal:
        reasons = "; ".join(v.message for v in best.violations)
        raise NoLegalReadingError(
            f"the added tiles form no legal move: {reasons}", added_cells, seen, unique
        )
    if best.legal:
        ties = [
            r
            for r in unique[1:]
            if r.legal and r.runner_ups == best.runner_ups and r.transform == best.transform
        ]
        if ties:
            shown = " or ".join(str(r.placement) for r in [best, *ties][:3])
            raise AmbiguousMoveError(
                f"{len(ties) + 1} equally likely readings of the move: {shown}",
                added_cells,
                seen,
                [best, *ties],
            )
    return Inference(
        placement=best.placement,
        transform=best.transform,
        legal=best.legal,
        violations=best.violations,
        score=best.score,
        candidates=tuple(unique[1 : 1 + max_candidates]),
    )


# --------------------------------------------------------------------------- two moves in one diff


@dataclass(frozen=True, slots=True)
class SplitSettings:
    """Limits of :func:`split_moves` (engineering bounds from the rules, not tuning).

    Attributes:
        max_part: tiles in one part at most: a turn lays tiles from one hand, and a hand holds
            6 (RULES.md §1; de "Spielvorbereitung": "Jeder Spieler zieht blind 6 Steine").
        max_tiles: no search above this many added tiles (two turns lay at most 2 x 6).
        max_splits: splits returned (a review lists a few, not every one; two parts of up to
            6 tiles rarely split more than 2-4 legal ways).
        max_checks: full legality checks at most (:func:`scorer.rules.validate_placement`,
            2-60 us each on a 60-tile board, measured 2026-11-21): with the cheap colour/shape
            filter first, caps the search at a few ms whatever the diff.
    """

    max_part: int = 6
    max_tiles: int = 12
    max_splits: int = 4
    max_checks: int = 100


def _collinear(cells: Sequence[Pos]) -> bool:
    return len({p.row for p in cells}) == 1 or len({p.col for p in cells}) == 1


def _may_share_a_line(tiles: Sequence[Tile]) -> bool:
    """Tiles laid in one turn share a colour or a shape and are all different (RULES.md §1,
    "Placing"): a cheap necessary condition checked before the full rules."""
    if len(set(tiles)) != len(tiles):
        return False
    return len({t.color for t in tiles}) == 1 or len({t.shape for t in tiles}) == 1


def split_moves(
    before: Board,
    added: Placement | Mapping[Pos, Tile],
    *,
    first_turn: bool | None = None,
    settings: SplitSettings = SplitSettings(),
) -> tuple[tuple[Placement, Placement], ...]:
    """Ways to read ``added`` as two consecutive legal turns (two moves without a settle).

    A split ``(first, second)`` partitions the added tiles so that ``first`` is a legal
    placement on ``before`` (the player to move) and ``second`` a legal placement on
    ``before`` plus ``first`` (the next player). Each part lies in one row or column and holds
    at most :attr:`SplitSettings.max_part` tiles (one hand). Only the tiles' best readings are
    used; nothing is decided here: the tracker offers the splits in a
    :class:`scorer.game.Review` for a person to accept.

    Args:
        before: the table before both turns.
        added: the new tiles (cells in ``before``'s coordinates).
        first_turn: whether ``first`` opens the game; ``None`` means "``before`` is empty".
        settings: search limits.

    Returns:
        Up to :attr:`SplitSettings.max_splits` splits in the order of their first part's
        cells (row, then column): no split is more likely than another, the camera saw no
        settle between the turns, so none is ranked first. Empty when fewer than 2 or more than
        :attr:`SplitSettings.max_tiles` tiles were added, or no split is legal.
    """
    cells = dict(added.tiles) if isinstance(added, Placement) else dict(added)
    cells = {Pos(*p): t for p, t in cells.items()}
    order = sorted(cells)
    n = len(order)
    if n < 2 or n > settings.max_tiles:
        return ()
    if first_turn is None:
        first_turn = not before
    # the second turn leaves every line through an added tile valid, so an invalid line on
    # the final table rules out every split (and keeps pathological diffs cheap)
    final = before.with_tiles(cells.items())
    if any(
        v.code != "too_many_copies" and not cells.keys().isdisjoint(v.cells)
        for v in board_violations(final)
    ):
        return ()
    lines: dict[tuple[str, int], list[Pos]] = defaultdict(list)
    for p in order:
        lines["row", p.row].append(p)
        lines["col", p.col].append(p)
    tried: set[frozenset[Pos]] = set()
    found: list[tuple[list[Pos], list[Pos], Placement, Placement]] = []
    checks = 0
    for line in lines.values():
        for k in range(1, min(len(line), settings.max_part) + 1):
            for combo in itertools.combinations(line, k):
                part = frozenset(combo)
                if part in tried:  # a single cell lies in its row and in its column
                    continue
                tried.add(part)
                rest = [p for p in order if p not in part]
                if not rest or len(rest) > settings.max_part or not _collinear(rest):
                    continue
                if not _may_share_a_line([cells[p] for p in combo]) or not _may_share_a_line(
                    [cells[p] for p in rest]
                ):
                    continue
                if checks >= settings.max_checks:
                    return _best_splits(found, settings.max_splits)
                first = Placement(tuple((p, cells[p]) for p in combo))
                checks += 1
                if validate_placement(before, first, first_turn=first_turn):
                    continue
                middle = before.with_tiles(first.tiles)
                second = Placement(tuple((p, cells[p]) for p in rest))
                checks += 1
                if validate_placement(middle, second, first_turn=False):
                    continue
                found.append((sorted(combo), rest, first, second))
    return _best_splits(found, settings.max_splits)


def _best_splits(
    found: list[tuple[list[Pos], list[Pos], Placement, Placement]], limit: int
) -> tuple[tuple[Placement, Placement], ...]:
    found.sort(key=lambda f: (f[0], f[1]))
    return tuple((first, second) for _, _, first, second in found[:limit])
