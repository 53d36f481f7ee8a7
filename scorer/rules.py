"""Qwirkle placement rules and scoring, with reasons a player understands.

Sources (``shared/seeds/``): ``qwirkle-tiles-rules.de.txt`` ("Anlegen", "Wertung") and the Dutch
rulebook in ``qwirkle-extra-rules-and-rulebook.nl.txt`` ("Aanleggen", "Scoren"), digested in
``shared/RULES.md`` section 1:

- a *line* is a maximal run of 2+ orthogonally adjacent tiles in a row or a column; a valid line is
  all one colour with different shapes or all one shape with different colours, so at most 6 tiles;
- the tiles of one turn lie in one row or column and, with the tiles already there, form one
  contiguous line (gaps may be filled by tiles already on the table); from the second turn on at
  least one of them touches a tile on the table; every line they touch must stay valid;
- a placement scores, for every line (length >= 2) holding a placed tile, its length; each line
  once; a completed line of 6 (a *Qwirkle*) scores 6 more; a lone tile on an empty table scores 1.

:func:`validate_placement` reports *every* problem (an empty list means legal);
:func:`score_placement` gives the points with a line-by-line breakdown for the UI.
Positions are :class:`~scorer.model.Pos` ``(row, col)``; plain ``(row, col)`` tuples work too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, cast

from scorer.model import COPIES_PER_KIND, Board, Placement, Pos, Shape, Tile

__all__ = [
    "MAX_LINE",
    "QWIRKLE_BONUS",
    "IllegalPlacementError",
    "Line",
    "Score",
    "ScoredLine",
    "Violation",
    "board_violations",
    "describe_tile",
    "is_legal",
    "is_valid_line",
    "line_problems",
    "lines_of",
    "score_placement",
    "validate_placement",
]

#: Longest valid line: one of each of 6 colours or 6 shapes (RULES.md section 1, "Line").
MAX_LINE = 6
#: Bonus for completing a line of 6, on top of its 6 points (de: "Wertung", nl: "Scoren").
QWIRKLE_BONUS = 6

Direction = Literal["row", "col"]

_SHAPE_WORDS: dict[Shape, str] = {
    Shape.CIRCLE: "circle",
    Shape.SQUARE: "square",
    Shape.DIAMOND: "diamond",
    Shape.CLOVER: "clover",
    Shape.STAR4: "4-point star",
    Shape.STAR8: "8-point star",
}
_SHAPE_PLURALS: dict[Shape, str] = {
    Shape.CIRCLE: "circles",
    Shape.SQUARE: "squares",
    Shape.DIAMOND: "diamonds",
    Shape.CLOVER: "clovers",
    Shape.STAR4: "4-point stars",
    Shape.STAR8: "8-point stars",
}


def describe_tile(tile: Tile) -> str:
    """A tile in words for messages: ``"red square"``, ``"blue 8-point star"``."""
    return f"{tile.color} {_SHAPE_WORDS[tile.shape]}"


def _at(p: tuple[int, int]) -> str:
    return f"({p[0]},{p[1]})"


class IllegalPlacementError(ValueError):
    """A placement that breaks the rules where a legal one is required.

    ``violations`` lists every problem; the message joins their reasons.
    """

    def __init__(self, violations: Sequence[Violation]):
        self.violations: tuple[Violation, ...] = tuple(violations)
        super().__init__("illegal placement: " + "; ".join(v.message for v in self.violations))


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule.

    Attributes:
        code: a stable machine name: ``empty``, ``same_cell``, ``occupied``, ``not_in_line``,
            ``gap``, ``not_touching``, ``mixed_tiles``, ``mixed_line``, ``duplicate_tile``,
            ``line_too_long``, ``too_many_copies`` (game-level codes are in :mod:`scorer.game`).
        message: the reason in words a player understands, naming tiles and cells.
        cells: the cells concerned (for the UI to highlight).
    """

    code: str
    message: str
    cells: tuple[Pos, ...] = ()


@dataclass(frozen=True, slots=True)
class Line:
    """A maximal run of 2+ adjacent tiles; ``cells`` run left-to-right or top-to-bottom."""

    direction: Direction
    cells: tuple[Pos, ...]
    tiles: tuple[Tile, ...]

    @property
    def length(self) -> int:
        return len(self.cells)

    def describe(self) -> str:
        """``"the row (2,0)-(2,3)"``."""
        what = "row" if self.direction == "row" else "column"
        return f"the {what} {_at(self.cells[0])}-{_at(self.cells[-1])}"


@dataclass(frozen=True, slots=True)
class ScoredLine:
    """One line that scored in a placement.

    Attributes:
        cells: the line's cells, left-to-right / top-to-bottom.
        tiles: the tiles in those cells.
        length: number of tiles; also the base points.
        qwirkle: a completed line of 6 (+6).
        points: ``length`` plus the Qwirkle bonus.
        direction: ``"row"`` (horizontal) or ``"col"`` (vertical).
    """

    cells: tuple[Pos, ...]
    tiles: tuple[Tile, ...]
    length: int
    qwirkle: bool
    points: int
    direction: Direction


@dataclass(frozen=True, slots=True)
class Score:
    """Points of one placement with their breakdown.

    ``points == sum(line.points for line in lines)``, or 1 for a lone tile that forms no line
    (``lone``; only possible on an empty table).
    """

    points: int
    lines: tuple[ScoredLine, ...]
    lone: bool = False

    @property
    def qwirkle(self) -> bool:
        """True when the placement completed at least one line of 6."""
        return any(line.qwirkle for line in self.lines)

    def explain(self) -> str:
        """``"3 (row) + 4 (col)"``, ``"6+6 Qwirkle (row)"``, or ``"1 (lone tile)"``."""
        if self.lone:
            return "1 (lone tile)"
        parts = [
            f"{ln.length}+{QWIRKLE_BONUS} Qwirkle ({ln.direction})"
            if ln.qwirkle
            else f"{ln.length} ({ln.direction})"
            for ln in self.lines
        ]
        return " + ".join(parts) if parts else "0"


# --------------------------------------------------------------------------- internals


def _cells(board: Mapping[Pos, Tile]) -> dict[tuple[int, int], Tile]:
    """The board's dict without a copy when it is a :class:`Board` (read only!)."""
    if isinstance(board, Board):
        return cast("dict[tuple[int, int], Tile]", board._cells)
    return {Pos(*p): t for p, t in board.items()}


def _run(
    cells: Mapping[tuple[int, int], Tile], r: int, c: int, dr: int, dc: int
) -> list[tuple[int, int]]:
    """The maximal run through ``(r, c)`` along ``(dr, dc)``, in increasing order."""
    r0, c0 = r, c
    while (r0 - dr, c0 - dc) in cells:
        r0 -= dr
        c0 -= dc
    out = []
    while (r0, c0) in cells:
        out.append((r0, c0))
        r0 += dr
        c0 += dc
    return out


def is_valid_line(tiles: Sequence[Tile]) -> bool:
    """Whether ``tiles`` can be one line: :func:`line_problems` finds nothing (a fast test).

    One colour with distinct shapes or one shape with distinct colours, at most
    :data:`MAX_LINE` long (RULES.md section 1); 0 or 1 tiles are trivially valid.
    """
    n = len(tiles)
    if n <= 1:
        return True
    if n > MAX_LINE:
        return False
    c0, s0 = tiles[0]
    if all(t[0] == c0 for t in tiles):
        return len({t[1] for t in tiles}) == n
    if all(t[1] == s0 for t in tiles):
        return len({t[0] for t in tiles}) == n
    return False


def line_problems(tiles: Sequence[Tile]) -> list[tuple[str, str]]:
    """What is wrong with one line of tiles, as ``(code, reason)`` pairs (empty: valid).

    A valid line (RULES.md section 1) is all one colour with different shapes or all one shape
    with different colours, at most :data:`MAX_LINE` long.
    """
    out: list[tuple[str, str]] = []
    n = len(tiles)
    if n < 2:
        return out
    if n > MAX_LINE:
        out.append(("line_too_long", f"{n} tiles in a line (at most {MAX_LINE})"))
    colors = {t.color for t in tiles}
    shapes = {t.shape for t in tiles}
    if len(colors) == 1 or len(shapes) == 1:
        seen: set[Tile] = set()
        dups: list[Tile] = []
        for t in tiles:
            if t in seen and t not in dups:
                dups.append(t)
            seen.add(t)
        if dups:
            if len(colors) == 1 and len(shapes) > 1:
                kind = f"{next(iter(colors))} line"
            elif len(shapes) == 1 and len(colors) > 1:
                kind = f"line of {_SHAPE_PLURALS[next(iter(shapes))]}"
            else:
                kind = "line"
            names = ", ".join(describe_tile(t) for t in dups)
            out.append(("duplicate_tile", f"the {kind} holds the same tile twice ({names})"))
    else:
        names = ", ".join(describe_tile(t) for t in tiles)
        out.append(("mixed_line", f"shares neither colour nor shape ({names})"))
    return out


def _line_at(
    cells: Mapping[tuple[int, int], Tile], p: tuple[int, int], direction: Direction
) -> list[tuple[int, int]]:
    return _run(cells, p[0], p[1], 0, 1) if direction == "row" else _run(cells, p[0], p[1], 1, 0)


def _placed_lines(
    merged: Mapping[tuple[int, int], Tile], positions: Iterable[tuple[int, int]]
) -> list[tuple[Direction, list[tuple[int, int]]]]:
    """Every line (2+) through a placed cell, each once, rows first in placement order."""
    seen: set[tuple[Direction, tuple[int, int]]] = set()
    out: list[tuple[Direction, list[tuple[int, int]]]] = []
    pos_list = list(positions)
    for direction in ("row", "col"):
        d: Direction = "row" if direction == "row" else "col"
        for p in pos_list:
            run = _line_at(merged, p, d)
            if len(run) < 2:
                continue
            key = (d, run[0])
            if key in seen:
                continue
            seen.add(key)
            out.append((d, run))
    return out


# --------------------------------------------------------------------------- public API


def validate_placement(
    board: Mapping[Pos, Tile], placement: Placement, *, first_turn: bool | None = None
) -> list[Violation]:
    """Every rule the placement breaks on ``board``; an empty list means legal.

    Args:
        board: tiles on the table before the turn (may hold impossible states; problems of
            lines the placement does not touch are not reported here, see
            :func:`board_violations`).
        placement: the tiles laid this turn with their cells.
        first_turn: whether this is the opening move (no need to touch the table); ``None``
            means "the board is empty".

    Returns:
        Violations in a fixed order (placement shape first, then lines, then copies), each
        with a reason naming tiles and cells.
    """
    cells = _cells(board)
    items = placement.tiles
    out: list[Violation] = []
    if not items:
        return [Violation("empty", "no tiles were placed")]
    if first_turn is None:
        first_turn = not cells

    placed: dict[tuple[int, int], Tile] = {}
    for p, t in items:
        if p in placed:
            out.append(
                Violation(
                    "same_cell",
                    f"two tiles placed on the same cell {_at(p)}: "
                    f"{describe_tile(placed[p])} and {describe_tile(t)}",
                    (Pos(*p),),
                )
            )
        elif p in cells:
            out.append(
                Violation(
                    "occupied",
                    f"cell {_at(p)} already holds a {describe_tile(cells[p])}; "
                    f"the {describe_tile(t)} cannot go there",
                    (Pos(*p),),
                )
            )
        else:
            placed[p] = t
    if not placed:
        return out

    rows = {p[0] for p in placed}
    cols = {p[1] for p in placed}
    in_line = len(rows) == 1 or len(cols) == 1
    merged = dict(cells)
    merged.update(placed)
    gap_free = True
    if not in_line:
        out.append(
            Violation(
                "not_in_line",
                "the tiles of one turn must lie in one row or one column",
                tuple(Pos(*p) for p in placed),
            )
        )
    elif len(placed) > 1:
        if len(rows) == 1:
            r = next(iter(rows))
            holes = [(r, c) for c in range(min(cols), max(cols) + 1) if (r, c) not in merged]
        else:
            c = next(iter(cols))
            holes = [(r, c) for r in range(min(rows), max(rows) + 1) if (r, c) not in merged]
        if holes:
            gap_free = False
            out.append(
                Violation(
                    "gap",
                    "the tiles of one turn must form one unbroken line with the tiles already "
                    f"there; empty cell(s) {', '.join(_at(h) for h in holes)} split it",
                    tuple(Pos(*h) for h in holes),
                )
            )

    if not first_turn:
        touching = any(
            (r - 1, c) in cells or (r + 1, c) in cells or (r, c - 1) in cells or (r, c + 1) in cells
            for r, c in placed
        )
        if not touching:
            out.append(
                Violation(
                    "not_touching",
                    "none of the placed tiles touches a tile already on the table",
                    tuple(Pos(*p) for p in placed),
                )
            )

    placed_tiles = list(placed.values())
    shares = len({t.color for t in placed_tiles}) == 1 or len({t.shape for t in placed_tiles}) == 1
    if not shares and not (in_line and gap_free):
        names = ", ".join(describe_tile(t) for t in placed_tiles)
        out.append(
            Violation(
                "mixed_tiles",
                f"the tiles of one turn must share a colour or a shape ({names})",
                tuple(Pos(*p) for p in placed),
            )
        )

    for direction, run in _placed_lines(merged, placed):
        tiles = [merged[p] for p in run]
        probs = line_problems(tiles)
        if probs:
            what = "row" if direction == "row" else "column"
            where = f"the {what} {_at(run[0])}-{_at(run[-1])}"
            cells_t = tuple(Pos(*p) for p in run)
            for code, reason in probs:
                out.append(Violation(code, f"{where}: {reason}", cells_t))

    on_table = list(cells.values())  # list.count compares in C; Counter would hash each tile
    for t in dict.fromkeys(placed_tiles):
        n_copies = on_table.count(t) + placed_tiles.count(t)
        if n_copies > COPIES_PER_KIND:
            copies = tuple(Pos(*p) for p, x in merged.items() if x == t)
            out.append(
                Violation(
                    "too_many_copies",
                    f"{n_copies} copies of the {describe_tile(t)} on the table, but the set "
                    f"has only {COPIES_PER_KIND} (a misread tile?)",
                    copies,
                )
            )
    return out


def is_legal(
    board: Mapping[Pos, Tile], placement: Placement, *, first_turn: bool | None = None
) -> bool:
    """True when :func:`validate_placement` finds nothing wrong."""
    return not validate_placement(board, placement, first_turn=first_turn)


def score_placement(
    board: Mapping[Pos, Tile], placement: Placement, *, check: bool = False
) -> Score:
    """The points of ``placement`` on ``board`` with every scored line.

    Each line (2+ tiles) through a placed tile scores its length once; a line of 6 scores 6
    more (Qwirkle); a placement that forms no line (a lone first tile) scores 1
    (RULES.md section 1, "Score of a placement"; de "Wertung", nl "Scoren").

    The placement is not validated unless ``check`` is true: scoring an illegal placement gives
    the points its lines would give.

    Raises:
        IllegalPlacementError: with ``check=True``, when the placement is illegal.
    """
    if check:
        problems = validate_placement(board, placement)
        if problems:
            raise IllegalPlacementError(problems)
    cells = _cells(board)
    placed: dict[tuple[int, int], Tile] = {p: t for p, t in placement.tiles if p not in cells}
    merged = dict(cells)
    merged.update(placed)
    lines: list[ScoredLine] = []
    total = 0
    for direction, run in _placed_lines(merged, placed):
        n = len(run)
        q = n == MAX_LINE
        pts = n + (QWIRKLE_BONUS if q else 0)
        total += pts
        lines.append(
            ScoredLine(
                tuple(Pos(*p) for p in run), tuple(merged[p] for p in run), n, q, pts, direction
            )
        )
    if not lines and placed:
        return Score(1, (), lone=True)
    return Score(total, tuple(lines))


def lines_of(board: Mapping[Pos, Tile]) -> list[Line]:
    """Every line (maximal run of 2+ tiles) on the board: rows first, then columns, sorted."""
    cells = _cells(board)
    out: list[Line] = []
    for direction, (dr, dc) in (("row", (0, 1)), ("col", (1, 0))):
        d: Direction = "row" if direction == "row" else "col"
        for p in sorted(cells):
            r, c = p
            if (r - dr, c - dc) in cells:
                continue  # not the start of a run
            if (r + dr, c + dc) not in cells:
                continue  # a run of 1
            run = _run(cells, r, c, dr, dc)
            out.append(Line(d, tuple(Pos(*q) for q in run), tuple(cells[q] for q in run)))
    return out


def board_violations(board: Mapping[Pos, Tile]) -> list[Violation]:
    """Impossible states on a table: invalid lines and more than 3 copies of a kind.

    A camera can see such states (a misread tile, a bumped table); this explains them.
    Codes: ``mixed_line``, ``duplicate_tile``, ``line_too_long``, ``too_many_copies``.
    """
    cells = _cells(board)
    out: list[Violation] = []
    for line in lines_of(board):
        for code, reason in line_problems(line.tiles):
            out.append(Violation(code, f"{line.describe()}: {reason}", line.cells))
    counts = Counter(cells.values())
    for t, n in sorted(counts.items(), key=lambda kv: str(kv[0])):
        if n > COPIES_PER_KIND:
            where = tuple(sorted(Pos(*p) for p, x in cells.items() if x == t))
            out.append(
                Violation(
                    "too_many_copies",
                    f"{n} copies of the {describe_tile(t)} on the table, but the set has only "
                    f"{COPIES_PER_KIND} (a misread tile?)",
                    where,
                )
            )
    return out
