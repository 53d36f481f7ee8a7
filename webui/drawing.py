"""How tiles and boards look: glyphs, colour letters, shape outlines, the board as SVG.

Colour-blind safety (issue 5): a tile is always shown as its *shape* (a glyph or an outline)
plus its *colour letter* (``scorer.model.COLOR_LETTERS``; palette names without a letter use
their first letter in lower case), never by colour alone. The same shape geometry
(:func:`shape_primitives`) draws the SVG board on the pages and the board picture on the PDF
score sheet, so both look alike.

Coordinates: boards are ``(row, col)``; drawing primitives are ``(x, y)`` in user units of a
cell of side :data:`CELL` whose top-left corner is ``(0, 0)``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from calibration.profile import NAMED_COLORS
from scorer.model import COLOR_LETTERS, Board, Pos, Shape, Tile

__all__ = [
    "CELL",
    "SHAPE_GLYPHS",
    "BoardPicture",
    "color_hex",
    "color_letter",
    "shape_primitives",
    "tile_label",
]

#: Side of one board cell in SVG/PDF user units.
CELL = 40.0

#: A text glyph per shape for HTML and plain text (Unicode "Geometric Shapes" and "Dingbats").
SHAPE_GLYPHS: dict[Shape, str] = {
    Shape.CIRCLE: "\u25cf",  # ● black circle
    Shape.SQUARE: "\u25a0",  # ■ black square
    Shape.DIAMOND: "\u25c6",  # ◆ black diamond
    Shape.CLOVER: "\u2663",  # ♣ black club suit (the 4-lobed clover)
    Shape.STAR4: "\u2726",  # ✦ black four-pointed star (the criss-cross)
    Shape.STAR8: "\u2738",  # ✸ heavy eight-pointed rectilinear star (the starburst)
}

_FALLBACK_HEX = "#9a9a9a"


def color_hex(color: str) -> str:
    """The display colour ``#rrggbb`` of a colour name (built-in reference, else grey)."""
    return NAMED_COLORS.get(color, _FALLBACK_HEX)


def color_letter(color: str) -> str:
    """The colour's letter: ``R`` for red (``COLOR_LETTERS``), else the name's first letter."""
    return COLOR_LETTERS.get(color, color[:1].lower() or "?")


def tile_label(tile: Tile) -> str:
    """A short human label, e.g. ``"red star4"``."""
    return f"{tile.color} {tile.shape.value}"


# -- shape geometry ----------------------------------------------------------------------------
Primitive = tuple[str, tuple[float, ...]]
"""``("circle", (cx, cy, r))`` or ``("poly", (x0, y0, x1, y1, ...))`` in cell units."""


def _star(cx: float, cy: float, points: int, r_out: float, r_in: float, rot: float) -> Primitive:
    pts: list[float] = []
    for k in range(points * 2):
        r = r_out if k % 2 == 0 else r_in
        a = rot + math.pi * k / points
        pts += [cx + r * math.sin(a), cy - r * math.cos(a)]
    return ("poly", tuple(pts))


def shape_primitives(
    shape: Shape, x0: float = 0.0, y0: float = 0.0, size: float = CELL
) -> list[Primitive]:
    """Filled primitives outlining ``shape`` inside the square cell at ``(x0, y0)``.

    The shapes follow the printed tiles (RULES.md "Vocabulary"): star4 is the 4-point
    criss-cross, star8 the 8-point starburst, clover the 4-lobed "+"-like shape.
    """
    cx, cy, s = x0 + size / 2, y0 + size / 2, size / 40.0
    if shape is Shape.CIRCLE:
        return [("circle", (cx, cy, 11 * s))]
    if shape is Shape.SQUARE:
        h = 10 * s
        return [("poly", (cx - h, cy - h, cx + h, cy - h, cx + h, cy + h, cx - h, cy + h))]
    if shape is Shape.DIAMOND:
        h = 13 * s
        return [("poly", (cx, cy - h, cx + h, cy, cx, cy + h, cx - h, cy))]
    if shape is Shape.CLOVER:
        r, d = 6 * s, 6.5 * s
        return [
            ("circle", (cx, cy - d, r)),
            ("circle", (cx + d, cy, r)),
            ("circle", (cx, cy + d, r)),
            ("circle", (cx - d, cy, r)),
            ("circle", (cx, cy, r)),
        ]
    if shape is Shape.STAR4:
        return [_star(cx, cy, 4, 14 * s, 4.5 * s, math.pi / 4)]
    return [_star(cx, cy, 8, 14 * s, 6 * s, 0.0)]


# -- the board ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ScoredLineMark:
    """A line that scored in the highlighted move: its cells and its label (e.g. ``"4"``)."""

    cells: tuple[Pos, ...]
    text: str


@dataclass(frozen=True)
class BoardPicture:
    """A board ready to draw: tiles, the last move's cells and the lines it scored.

    Attributes:
        board: the tiles on the table.
        last: cells placed by the highlighted move (outlined).
        lines: scored lines of that move (a band across the cells with the points).
        flagged: cells of an impossible state or illegal move (red dashed outline).
    """

    board: Board
    last: frozenset[Pos] = frozenset()
    lines: tuple[ScoredLineMark, ...] = ()
    flagged: frozenset[Pos] = frozenset()

    def extent(self) -> tuple[int, int, int, int]:
        """``(min_row, min_col, max_row, max_col)`` with a margin of one empty cell."""
        if not self.board:  # a small empty table, wider than high like the pages' cards
            return (-1, -3, 1, 3)
        r0, c0, r1, c1 = self.board.bounds()
        return (r0 - 1, c0 - 1, r1 + 1, c1 + 1)

    def cells_xy(self) -> Iterable[tuple[Pos, Tile, float, float]]:
        """Each tile with the top-left ``(x, y)`` of its cell, in cell units from the extent."""
        r0, c0, _, _ = self.extent()
        for pos in sorted(self.board):
            yield pos, self.board[pos], (pos.col - c0) * CELL, (pos.row - r0) * CELL

    def size(self) -> tuple[float, float]:
        """``(width, height)`` in user units."""
        r0, c0, r1, c1 = self.extent()
        return ((c1 - c0 + 1) * CELL, (r1 - r0 + 1) * CELL)

    def svg(self, *, title: str = "Board", max_width: str | None = None) -> str:
        """The board as a standalone SVG document (text is escaped; no scripts)."""
        w, h = self.size()
        r0, c0, _, _ = self.extent()
        out: list[str] = [
            '<svg xmlns="http://www.w3.org/2000/svg" '
            f'viewBox="0 0 {w:g} {h:g}" width="{w:g}" height="{h:g}" role="img" '
            f'aria-label={quoteattr(title)} font-family="sans-serif"'
            + (f' style="max-width:{escape(max_width)}"' if max_width else "")
            + ">",
            f"<title>{escape(title)}</title>",
            f'<rect width="{w:g}" height="{h:g}" fill="#2f5d46"/>',
        ]
        if not self.board:
            out.append(
                f'<text x="{w / 2:g}" y="{h / 2 + 4:g}" font-size="11" fill="#fff" '
                'text-anchor="middle">no tiles on the table yet</text>'
            )
        for line in self.lines:
            xs = [(p.col - c0) * CELL for p in line.cells]
            ys = [(p.row - r0) * CELL for p in line.cells]
            x, y = min(xs) + 3, min(ys) + 3
            bw, bh = max(xs) - min(xs) + CELL - 6, max(ys) - min(ys) + CELL - 6
            out.append(
                f'<rect class="scored" x="{x:g}" y="{y:g}" width="{bw:g}" height="{bh:g}" rx="6" '
                'fill="#ffe66d" fill-opacity="0.35" stroke="#ffe66d" stroke-width="1.5"/>'
            )
        for pos, tile, x, y in self.cells_xy():
            out.append(_svg_tile(tile, x, y, pos in self.last, pos in self.flagged))
        for line in self.lines:
            xs = [(p.col - c0) * CELL for p in line.cells]
            ys = [(p.row - r0) * CELL for p in line.cells]
            if len(set(ys)) == 1:  # a row: label on its right end, vertically centred
                lx, ly = max(xs) + CELL - 1, ys[0] + CELL / 2
            else:  # a column: label under its bottom end, horizontally centred
                lx, ly = xs[0] + CELL / 2, max(ys) + CELL - 1
            out.append(
                f'<g class="line-label"><circle cx="{lx:g}" cy="{ly:g}" r="8" fill="#ffe66d" '
                f'stroke="#222"/><text x="{lx:g}" y="{ly + 3.5:g}" font-size="10" '
                f'font-weight="bold" text-anchor="middle" fill="#111">'
                f"{escape(line.text)}</text></g>"
            )
        out.append("</svg>")
        return "\n".join(out)


def _svg_tile(tile: Tile, x: float, y: float, last: bool, flagged: bool) -> str:
    fill = color_hex(tile.color)
    parts = [
        f'<g class="tile{" last" if last else ""}" data-tile="{escape(str(tile))}">',
        f"<title>{escape(tile_label(tile))}</title>",
        f'<rect x="{x + 2:g}" y="{y + 2:g}" width="{CELL - 4:g}" height="{CELL - 4:g}" rx="5" '
        'fill="#161616"' + (' stroke="#ffffff" stroke-width="3"' if last else "") + "/>",
    ]
    for kind, v in shape_primitives(tile.shape, x, y):
        if kind == "circle":
            parts.append(f'<circle cx="{v[0]:.2f}" cy="{v[1]:.2f}" r="{v[2]:.2f}" fill="{fill}"/>')
        else:
            pts = " ".join(f"{v[i]:.2f},{v[i + 1]:.2f}" for i in range(0, len(v), 2))
            parts.append(f'<polygon points="{pts}" fill="{fill}"/>')
    parts.append(
        f'<text x="{x + 5:g}" y="{y + 12:g}" font-size="9" font-weight="bold" fill="#fff">'
        f"{escape(color_letter(tile.color))}</text>"
    )
    if flagged:
        parts.append(
            f'<rect x="{x + 1:g}" y="{y + 1:g}" width="{CELL - 2:g}" height="{CELL - 2:g}" rx="5" '
            'fill="none" stroke="#ff3b30" stroke-width="2.5" stroke-dasharray="4 3"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def line_phrase(direction: str, length: int, points: int, qwirkle: bool) -> str:
    """``"row of 4 = 4"``, ``"column of 6 = 12, Qwirkle!"`` (RULES.md §1 "Score")."""
    word = "row" if direction == "row" else "column"
    return f"{word} of {length} = {points}" + (", Qwirkle!" if qwirkle else "")
