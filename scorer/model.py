"""The small value model shared by every part of tabletally.

Vocabulary from ``shared/RULES.md`` ("Vocabulary used across the code"):

- a *colour* is a lower-case name in a palette (``red orange yellow green blue purple`` is the
  classic set; other editions print other paints, so colours are names, not an enum);
- a *shape* is one of six :class:`Shape` members;
- a :class:`Tile` is ``(colour, shape)``; the full set holds each of the 36 kinds three times;
- a :class:`Pos` is an integer ``(row, col)`` on the tiles' own lattice, row growing down the
  picture. Only relative positions matter.

A text notation works both ways so tests and logs diff as text::

    >>> Tile.parse("Rs")
    Tile('red', Shape.SQUARE)
    >>> str(Tile("blue", Shape.STAR8))
    'B*'
    >>> Board.from_ascii("Rs Rc\\n.  Bc").to_ascii()
    'Rs Rc\\n.  Bc'

Colour letters: the built-in colour names have one upper-case letter each (``COLOR_LETTERS``);
any other palette name is written in braces, ``{teal}s``. Shape letters: ``c`` circle, ``s``
square, ``d`` diamond, ``k`` clover (*klaver*/*Kleeblatt* in the seeds), ``x`` star4 (the
criss-cross), ``*`` star8 (the starburst); ``4`` and ``8`` are accepted on input.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import NamedTuple

__all__ = [
    "CLASSIC_COLORS",
    "COLOR_LETTERS",
    "COPIES_PER_KIND",
    "FULL_SET_SIZE",
    "Board",
    "NotationError",
    "Placement",
    "Pos",
    "Shape",
    "Tile",
    "classic_kinds",
]

#: The classic edition's six colours, in the rulebook's usual order.
CLASSIC_COLORS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple")

#: One-letter codes for the built-in colour names (INTERFACES.md, "Profile").
COLOR_LETTERS: dict[str, str] = {
    "red": "R",
    "orange": "O",
    "yellow": "Y",
    "green": "G",
    "blue": "B",
    "purple": "P",
    "white": "W",
    "black": "K",
    "pink": "I",
    "brown": "N",
    "grey": "E",
}
_LETTER_COLORS: dict[str, str] = {v: k for k, v in COLOR_LETTERS.items()}

#: Each of the 36 kinds appears three times: 108 tiles (RULES.md "Vocabulary").
COPIES_PER_KIND = 3
FULL_SET_SIZE = 108

_COLOR_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


class NotationError(ValueError):
    """Text that is not valid tile or board notation; the message quotes the input."""


class Shape(enum.Enum):
    """The six Qwirkle shapes (RULES.md "Vocabulary")."""

    CIRCLE = "circle"
    SQUARE = "square"
    DIAMOND = "diamond"
    CLOVER = "clover"
    STAR4 = "star4"
    STAR8 = "star8"

    # Members are singletons compared by identity, so the C-level identity hash is consistent
    # with ``==`` and spares Enum's Python-level ``hash(self._name_)`` on every Tile hash
    # (tiles are hashed constantly by the move search and replay; see benchmarks/bench_scorer).
    __hash__ = object.__hash__

    @property
    def letter(self) -> str:
        """The shape's notation letter."""
        return _SHAPE_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Shape:
        """A shape from its name (``"star4"``) or notation letter (``"x"``).

        Raises:
            NotationError: unknown shape; the message quotes ``text``.
        """
        t = text.strip().lower()
        if t in _LETTER_SHAPES:
            return _LETTER_SHAPES[t]
        try:
            return cls(t)
        except ValueError:
            names = ", ".join(s.value for s in cls)
            raise NotationError(f"unknown shape {text!r} (expected one of {names})") from None

    def __repr__(self) -> str:
        return f"Shape.{self.name}"


_SHAPE_LETTERS: dict[Shape, str] = {
    Shape.CIRCLE: "c",
    Shape.SQUARE: "s",
    Shape.DIAMOND: "d",
    Shape.CLOVER: "k",
    Shape.STAR4: "x",
    Shape.STAR8: "*",
}
_LETTER_SHAPES: dict[str, Shape] = {v: k for k, v in _SHAPE_LETTERS.items()}
_LETTER_SHAPES["4"] = Shape.STAR4
_LETTER_SHAPES["8"] = Shape.STAR8


def check_color(name: str) -> str:
    """Validate a colour name (lower case, starts with a letter) and return it.

    Raises:
        NotationError: not a usable colour name; the message quotes it.
    """
    if not isinstance(name, str) or not _COLOR_NAME.match(name):
        raise NotationError(f"invalid colour name {name!r} (lower-case letters, e.g. 'red')")
    return name


class Pos(NamedTuple):
    """A lattice cell ``(row, col)``; row grows down the picture."""

    row: int
    col: int

    def neighbours(self) -> tuple[Pos, Pos, Pos, Pos]:
        """The four orthogonal neighbours: up, down, left, right."""
        r, c = self
        return (Pos(r - 1, c), Pos(r + 1, c), Pos(r, c - 1), Pos(r, c + 1))

    def __add__(self, other: object) -> Pos:
        if not isinstance(other, tuple):
            return NotImplemented
        return Pos(self[0] + other[0], self[1] + other[1])

    def __sub__(self, other: tuple[int, int]) -> Pos:
        return Pos(self[0] - other[0], self[1] - other[1])

    def rotated(self, quarter_turns: int) -> Pos:
        """This position turned by ``quarter_turns`` x 90 degrees clockwise about (0, 0)."""
        r, c = self
        for _ in range(quarter_turns % 4):
            r, c = c, -r
        return Pos(r, c)


class Tile(NamedTuple):
    """A tile kind: ``(color, shape)``. Hashable, ordered, cheap."""

    color: str
    shape: Shape

    @classmethod
    def parse(cls, text: str) -> Tile:
        """A tile from notation: ``"Rs"`` (red square), ``"B*"``, ``"{teal}k"``.

        Raises:
            NotationError: malformed notation; the message quotes ``text``.
        """
        t = text.strip()
        if t.startswith("{"):
            end = t.find("}")
            if end < 0 or len(t) != end + 2:
                raise NotationError(f"invalid tile {text!r} (expected e.g. 'Rs' or '{{teal}}s')")
            try:
                color = check_color(t[1:end])
            except NotationError as e:
                raise NotationError(f"invalid tile {text!r}: {e}") from None
            shape_txt = t[end + 1 :]
        else:
            if len(t) != 2 or t[0] not in _LETTER_COLORS:
                raise NotationError(f"invalid tile {text!r} (expected e.g. 'Rs', 'Bx', 'G*')")
            color = _LETTER_COLORS[t[0]]
            shape_txt = t[1]
        if shape_txt not in _LETTER_SHAPES:
            raise NotationError(f"invalid tile {text!r}: unknown shape letter {shape_txt!r}")
        return cls(color, _LETTER_SHAPES[shape_txt])

    @classmethod
    def of(cls, color: str, shape: str | Shape) -> Tile:
        """A tile from names, validating both (``Tile.of("red", "star4")``).

        Raises:
            NotationError: invalid colour name or unknown shape.
        """
        return cls(check_color(color), shape if isinstance(shape, Shape) else Shape.parse(shape))

    def __str__(self) -> str:
        letter = COLOR_LETTERS.get(self.color)
        c = letter if letter is not None else "{" + self.color + "}"
        return c + _SHAPE_LETTERS[self.shape]

    def __repr__(self) -> str:
        return f"Tile({self.color!r}, {self.shape!r})"


def classic_kinds(colors: Iterable[str] = CLASSIC_COLORS) -> list[Tile]:
    """The 36 tile kinds of a set with the given six colours, colour-major order."""
    return [Tile(c, s) for c in colors for s in Shape]


@dataclass(frozen=True, slots=True)
class Placement:
    """Tiles laid in one turn: ``((pos, tile), ...)`` in the order given."""

    tiles: tuple[tuple[Pos, Tile], ...]

    @classmethod
    def of(cls, items: Iterable[tuple[tuple[int, int], Tile]]) -> Placement:
        """A placement from ``(pos, tile)`` pairs (positions may be plain tuples)."""
        return cls(tuple((Pos(*p), t) for p, t in items))

    @classmethod
    def parse(cls, text: str) -> Placement:
        """Notation ``"Rs@0,1 Rc@0,2"``: tiles with ``@row,col``, separated by spaces.

        Raises:
            NotationError: malformed text; the message quotes it.
        """
        items: list[tuple[Pos, Tile]] = []
        for tok in text.split():
            tile_txt, sep, where = tok.partition("@")
            try:
                r_txt, c_txt = where.split(",")
                pos = Pos(int(r_txt), int(c_txt))
            except ValueError:
                raise NotationError(f"invalid placement item {tok!r} in {text!r}") from None
            if not sep:
                raise NotationError(f"invalid placement item {tok!r} in {text!r}")
            items.append((pos, Tile.parse(tile_txt)))
        return cls(tuple(items))

    @property
    def positions(self) -> tuple[Pos, ...]:
        return tuple(p for p, _ in self.tiles)

    def __len__(self) -> int:
        return len(self.tiles)

    def __iter__(self) -> Iterator[tuple[Pos, Tile]]:
        return iter(self.tiles)

    def __str__(self) -> str:
        return " ".join(f"{t}@{p.row},{p.col}" for p, t in self.tiles)

    def __repr__(self) -> str:
        return f"Placement.parse({str(self)!r})"


class Board(Mapping[Pos, Tile]):
    """Tiles on the table by lattice position.

    A board may hold *impossible* states (mixed lines, a fourth copy of a kind): a camera can see
    them, and validation explains them rather than refusing to represent them. Boards are
    immutable; :meth:`with_tiles` returns a new one.
    """

    __slots__ = ("_cells", "_hash")

    def __init__(
        self,
        cells: Mapping[Pos, Tile]
        | Mapping[tuple[int, int], Tile]
        | Iterable[tuple[tuple[int, int], Tile]] = (),
    ) -> None:
        items = cells.items() if isinstance(cells, Mapping) else cells
        self._cells: dict[Pos, Tile] = {Pos(*p): t for p, t in items}
        self._hash: int | None = None

    # -- Mapping protocol -------------------------------------------------------------------
    def __getitem__(self, pos: tuple[int, int]) -> Tile:
        return self._cells[pos]  # type: ignore[index]

    def __iter__(self) -> Iterator[Pos]:
        return iter(self._cells)

    def __len__(self) -> int:
        return len(self._cells)

    def __contains__(self, pos: object) -> bool:
        return pos in self._cells

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Board):
            return self._cells == other._cells
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._cells.items()))
        return self._hash

    @classmethod
    def _wrap(cls, cells: dict[Pos, Tile]) -> Board:
        """A board owning ``cells`` without copying (scorer-internal fast path)."""
        new = cls.__new__(cls)
        new._cells = cells
        new._hash = None
        return new

    # -- construction -------------------------------------------------------------------------
    def with_tiles(self, items: Iterable[tuple[tuple[int, int], Tile]]) -> Board:
        """A new board with ``items`` added (an occupied cell is overwritten)."""
        new = Board(self._cells)
        for p, t in items:
            new._cells[Pos(*p)] = t
        return new

    def without(self, positions: Iterable[tuple[int, int]]) -> Board:
        """A new board with the tiles at ``positions`` removed (absent ones ignored)."""
        new = Board(self._cells)
        for p in positions:
            new._cells.pop(Pos(*p), None)
        return new

    def translated(self, d_row: int, d_col: int) -> Board:
        return Board({Pos(p.row + d_row, p.col + d_col): t for p, t in self._cells.items()})

    def rotated(self, quarter_turns: int) -> Board:
        """The board turned by ``quarter_turns`` x 90 degrees clockwise about (0, 0)."""
        return Board({p.rotated(quarter_turns): t for p, t in self._cells.items()})

    def normalized(self) -> Board:
        """Translated so the top-left of the bounding box is (0, 0)."""
        if not self._cells:
            return self
        r0, c0, _, _ = self.bounds()
        return self.translated(-r0, -c0)

    def bounds(self) -> tuple[int, int, int, int]:
        """``(min_row, min_col, max_row, max_col)``; raises ValueError on an empty board."""
        if not self._cells:
            raise ValueError("an empty board has no bounds")
        rows = [p.row for p in self._cells]
        cols = [p.col for p in self._cells]
        return min(rows), min(cols), max(rows), max(cols)

    # -- notation -----------------------------------------------------------------------------
    @classmethod
    def from_ascii(cls, text: str, origin: tuple[int, int] = (0, 0)) -> Board:
        """A board from rows of whitespace-separated cells; ``.`` is an empty cell.

        The first token of the first non-blank line is ``origin``. Example::

            Rs Rc .
            .  Bc Bs

        Raises:
            NotationError: a cell that is not tile notation; the message gives its row/column.
        """
        cells: dict[Pos, Tile] = {}
        lines = [ln for ln in text.splitlines() if ln.strip()]
        for i, line in enumerate(lines):
            for j, tok in enumerate(line.split()):
                if set(tok) <= {"."}:
                    continue
                try:
                    cells[Pos(origin[0] + i, origin[1] + j)] = Tile.parse(tok)
                except NotationError as e:
                    raise NotationError(f"board line {i + 1}, cell {j + 1}: {e}") from None
        return cls(cells)

    def to_ascii(self) -> str:
        """Rows of cells, ``.`` for empty ones, top-left of the bounding box first."""
        if not self._cells:
            return ""
        r0, c0, r1, c1 = self.bounds()
        width = max(len(str(t)) for t in self._cells.values())
        out = []
        for r in range(r0, r1 + 1):
            cells = [
                str(self._cells[Pos(r, c)]) if Pos(r, c) in self._cells else "."
                for c in range(c0, c1 + 1)
            ]
            out.append(" ".join(x.ljust(width) for x in cells).rstrip())
        return "\n".join(out)

    def __repr__(self) -> str:
        if not self._cells:
            return "Board()"
        r0, c0, _, _ = self.bounds()
        return f"Board.from_ascii({self.to_ascii()!r}, origin=({r0}, {c0}))"
