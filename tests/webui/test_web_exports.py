"""Score sheets: the CSV parses back to the scorer's numbers; the PDF's text says the same."""

from __future__ import annotations

import csv
import io
from typing import Any

import pypdfium2 as pdfium
from conftest import Client


def _pdf_text(data: bytes) -> str:
    pdf = pdfium.PdfDocument(data)
    try:
        return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


def _dutch(client: Client, record: dict[str, Any]) -> int:
    return int(client.post("/api/import", json=record).get_json()["id"])


def test_csv_sheet_per_turn_points_totals_winner(
    client: Client, dutch_record: dict[str, Any]
) -> None:
    gid = _dutch(client, dutch_record)
    r = client.get("/api/game/sheet.csv")
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/csv")
    assert f"tabletally-game-{gid}.csv" in r.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True))))
    assert rows[0] == [
        "turn",
        "player",
        "move",
        "tiles",
        "Suzan",
        "Chris",
        "Lisanne",
        "Bob",
        "result",
    ]
    turns = rows[1:13]
    points = [int(next(x for x in row[4:8] if x)) for row in turns]
    assert points == [3, 7, 4, 6, 7, 6, 3, 3, 10, 9, 18, 9]  # RULES.md §1b
    assert turns[10][1] == "Lisanne" and "Qwirkle!" in turns[10][8]
    assert rows[13][:1] == ["total"] and rows[13][4:8] == ["20", "22", "25", "18"]
    assert rows[14][0] == "winner" and rows[14][1] == "Lisanne"


def test_csv_neutralises_formulas_in_names(client: Client) -> None:
    client.post("/api/games", json={"players": ['=HYPERLINK("x")', "Ben"]})
    rows = list(csv.reader(io.StringIO(client.get("/api/game/sheet.csv").get_data(as_text=True))))
    assert rows[0][4] == '\'=HYPERLINK("x")'


def test_pdf_sheet_has_turns_totals_winner_and_board(
    client: Client, dutch_record: dict[str, Any]
) -> None:
    gid = _dutch(client, dutch_record)
    r = client.get(f"/api/games/{gid}/sheet.pdf")
    assert r.status_code == 200 and r.headers["Content-Type"] == "application/pdf"
    assert r.data.startswith(b"%PDF")
    text = _pdf_text(r.data)
    for name in ("Suzan", "Chris", "Lisanne", "Bob"):
        assert name in text
    assert "Total" in text and "Final board" in text
    assert "Leading (game not finished): Lisanne with 25 points" in text
    assert "row of 6 = 12, Qwirkle!" in " ".join(text.split())  # the cell may wrap
    assert "20 22 25 18" in " ".join(text.split())  # the totals row


def test_pdf_handles_names_outside_latin1_and_empty_games(client: Client) -> None:
    gid = client.post("/api/games", json={"players": ["Zoë", "Łukasz", "美咲"]}).get_json()["id"]
    r = client.get(f"/api/games/{gid}/sheet.pdf")
    assert r.status_code == 200
    text = _pdf_text(r.data)
    assert "Zoë" in text and "Łukasz" in text


def test_sheets_for_unknown_or_missing_game(client: Client) -> None:
    assert client.get("/api/game/sheet.csv").status_code == 404
    assert client.get("/api/game/sheet.pdf").get_json()["error"] == "no_game"
