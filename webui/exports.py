"""Score sheets: CSV and PDF (INTERFACES.md "HTTP": ``/api/game/sheet.csv``, ``sheet.pdf``).

Both list every turn with its points in the column of the player who made it, then the totals
and the winner(s); the PDF (fpdf2) adds the picture of the final board, drawn with the same
shape outlines and colour letters as the pages (:mod:`webui.drawing`), so it stays readable when
printed in black and white.

Routes: ``/api/game/sheet.csv|pdf`` (the current game) and ``/api/games/<id>/sheet.csv|pdf``.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from pathlib import Path

from flask import Blueprint, Response
from fpdf import FPDF

from scorer.game import Game, GameResult
from webui import games as g
from webui.drawing import CELL, BoardPicture, color_hex, color_letter, shape_primitives
from webui.views import board_picture, log_view

bp = Blueprint("exports", __name__, url_prefix="/api")

__all__ = ["bp", "sheet_csv", "sheet_pdf"]

#: A Unicode TrueType font for names in any script (Debian's fonts-dejavu-core); when absent the
#: PDF falls back to the core Helvetica font and replaces characters outside Latin-1 with "?".
UNICODE_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
UNICODE_FONT_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    """Neutralise spreadsheet formulas in user text (OWASP "CSV injection")."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def _tiles_text(turn: dict[str, object]) -> str:
    tiles = turn.get("tiles") or []
    assert isinstance(tiles, list)
    return " ".join(f"{t['text']}@{t['row']},{t['col']}" for t in tiles)


def sheet_csv(game_id: int, status: str, game: Game, result: GameResult) -> str:
    """The score sheet as CSV text: a header ``turn, player, move, tiles, <each player>,
    result``; one row per turn (points under the player who scored them); then ``total`` and
    ``winner`` rows. Names starting with ``= + - @`` are prefixed with ``'``."""
    view = log_view(game_id, status, game, result)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    names = [_cell(n) for n in game.players]
    w.writerow(["turn", "player", "move", "tiles", *names, "result"])
    for t in view["turns"]:
        pts = ["" for _ in names]
        pts[t["player"]] = str(t["points"])
        note = t["label"] if t["legal"] else "ILLEGAL: " + "; ".join(t["reasons"])
        w.writerow([t["number"], _cell(t["name"]), t["kind"], _tiles_text(t), *pts, _cell(note)])
    w.writerow(["total", "", "", "", *[str(x) for x in result.totals], ""])
    winners = " and ".join(_cell(game.players[i]) for i in result.winners) if result.turns else ""
    w.writerow(
        [
            "winner",
            winners,
            "",
            "",
            *["" for _ in names],
            "finished" if result.finished else f"status: {status}",
        ]
    )
    return buf.getvalue()


class _Sheet(FPDF):
    def __init__(self) -> None:
        super().__init__(orientation="P", unit="mm", format="A4")
        self.unicode = UNICODE_FONT.exists() and UNICODE_FONT_BOLD.exists()
        if self.unicode:
            self.add_font("Sheet", "", str(UNICODE_FONT))
            self.add_font("Sheet", "B", str(UNICODE_FONT_BOLD))
            self.family_name = "Sheet"
        else:
            self.family_name = "Helvetica"
        self.set_auto_page_break(auto=True, margin=15)

    def text_of(self, s: str) -> str:
        return s if self.unicode else s.encode("latin-1", "replace").decode("latin-1")

    def use(self, size: float, bold: bool = False) -> None:
        self.set_font(self.family_name, "B" if bold else "", size)


def _rgb(hex_: str) -> tuple[int, int, int]:
    return int(hex_[1:3], 16), int(hex_[3:5], 16), int(hex_[5:7], 16)


def draw_board(
    pdf: FPDF, pic: BoardPicture, x0: float, y0: float, max_w: float, max_h: float
) -> float:
    """Draw ``pic`` into the box at ``(x0, y0)`` mm; returns the height used, mm."""
    w, h = pic.size()
    scale = min(max_w / w, max_h / h, 12.0 / CELL)  # a tile at most 12 mm wide
    pdf.set_fill_color(47, 93, 70)
    pdf.rect(x0, y0, w * scale, h * scale, style="F")
    pdf.set_line_width(0.6)
    for pos, tile, x, y in pic.cells_xy():
        tx, ty = x0 + x * scale, y0 + y * scale
        pdf.set_fill_color(22, 22, 22)
        if pos in pic.last:
            pdf.set_draw_color(255, 255, 255)
            pdf.rect(
                tx + 1 * scale, ty + 1 * scale, (CELL - 2) * scale, (CELL - 2) * scale, style="DF"
            )
        else:
            pdf.rect(
                tx + 1 * scale, ty + 1 * scale, (CELL - 2) * scale, (CELL - 2) * scale, style="F"
            )
        pdf.set_fill_color(*_rgb(color_hex(tile.color)))
        for kind, v in shape_primitives(tile.shape, tx, ty, CELL * scale):
            if kind == "circle":
                pdf.circle(x=v[0], y=v[1], radius=v[2], style="F")
            else:
                pts = [(v[i], v[i + 1]) for i in range(0, len(v), 2)]
                pdf.polygon(pts, style="F")
        pdf.set_text_color(255, 255, 255)
        pdf.set_font(pdf.font_family, "B", max(4.0, 9 * scale * 2.8))
        pdf.text(tx + 4 * scale, ty + 12 * scale, color_letter(tile.color))
    pdf.set_text_color(0, 0, 0)
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.2)
    return h * scale


def sheet_pdf(game_id: int, status: str, game: Game, result: GameResult) -> bytes:
    """The printable score sheet (A4): title, per-turn points per player, totals, winner(s),
    and a picture of the final board. Returns the PDF bytes."""
    view = log_view(game_id, status, game, result)
    pdf = _Sheet()
    pdf.add_page()
    pdf.use(16, True)
    pdf.cell(
        0, 9, pdf.text_of(f"tabletally score sheet - game {game_id}"), new_x="LMARGIN", new_y="NEXT"
    )
    pdf.use(9)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    pdf.cell(
        0,
        5,
        pdf.text_of(
            f"Qwirkle, {game.variant} rules - {len(result.turns)} turns - "
            f"status {status} - printed {stamp}"
        ),
        new_x="LMARGIN",
        new_y="NEXT",
    )
    pdf.ln(2)

    n = len(game.players)
    widths = [8.0, 26.0, 0.0] + [min(20.0, 90.0 / n)] * n
    widths[2] = 190.0 - sum(widths)
    pdf.use(8)
    with pdf.table(
        col_widths=tuple(widths), text_align="LEFT", line_height=4.2, first_row_as_headings=True
    ) as table:
        table.row([pdf.text_of(x) for x in ("#", "Player", "Move", *game.players)])
        for t in view["turns"]:
            pts = ["" for _ in range(n)]
            pts[t["player"]] = str(t["points"])
            move = t["label"]
            if t["kind"] == "place" and t["tiles"]:
                move = f"{_tiles_text(t)}: {move}"
            table.row([str(t["number"]), pdf.text_of(t["name"]), pdf.text_of(move), *pts])
        table.row(["", "Total", "", *[str(x) for x in result.totals]])
    pdf.ln(9)
    pdf.use(12, True)
    if result.turns:
        names = " and ".join(game.players[i] for i in result.winners)
        verb = "wins" if len(result.winners) == 1 else "share the win"
        line = f"{names} {verb} with {max(result.totals)} points"
        if not result.finished and status != "finished":
            line = f"Leading (game not finished): {names} with {max(result.totals)} points"
        pdf.multi_cell(
            0,
            7,
            pdf.text_of(line),
            new_x="LMARGIN",
            new_y="NEXT",
        )
    pdf.ln(2)
    pic = board_picture(game, result)
    if pic.board:
        pdf.use(10, True)
        if pdf.get_y() > 200:
            pdf.add_page()
        pdf.cell(0, 6, "Final board", new_x="LMARGIN", new_y="NEXT")
        pdf.use(7)
        pdf.cell(
            0,
            4,
            pdf.text_of(
                "Tiles: shape outline + colour letter (R red, O orange, Y yellow, "
                "G green, B blue, P purple); last move outlined white."
            ),
            new_x="LMARGIN",
            new_y="NEXT",
        )
        y = pdf.get_y() + 2
        used = draw_board(pdf, pic, pdf.l_margin, y, 190.0, max(40.0, 282.0 - y))
        pdf.set_y(y + used + 2)
    return bytes(pdf.output())


def _download(body: bytes | str, mimetype: str, filename: str) -> Response:
    resp = Response(body, mimetype=mimetype)
    resp.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _load(game_id: int | None) -> tuple[int, str, Game, GameResult]:
    st = g.state()
    gid = g.current_game_id(st) if game_id is None else game_id
    gi, game, result = g.load(st, gid)
    return gid, gi.status, game, result


@bp.get("/game/sheet.csv")
@bp.get("/games/<int:game_id>/sheet.csv")
def csv_sheet(game_id: int | None = None) -> Response:
    gid, status, game, result = _load(game_id)
    return _download(sheet_csv(gid, status, game, result), "text/csv", f"tabletally-game-{gid}.csv")


@bp.get("/game/sheet.pdf")
@bp.get("/games/<int:game_id>/sheet.pdf")
def pdf_sheet(game_id: int | None = None) -> Response:
    gid, status, game, result = _load(game_id)
    return _download(
        sheet_pdf(gid, status, game, result), "application/pdf", f"tabletally-game-{gid}.pdf"
    )
