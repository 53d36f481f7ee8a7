"""The Dutch rulebook's worked example ("Spelvoorbeelden") replayed as a whole game.

Source: shared/seeds/qwirkle-extra-rules-and-rulebook.nl.txt. The pictures are missing, so the
board in tests/data/dutch-example.json was rebuilt from the sentences; each assertion below
quotes the sentence it checks.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorer.game import replay
from scorer.record import dump_record, load_record
from scorer.rules import board_violations

DATA = Path(__file__).parents[1] / "data" / "dutch-example.json"
SHIPPED = Path(__file__).parents[2] / "scorer" / "data" / "dutch-example.json"


@pytest.fixture(scope="module")
def result():  # type: ignore[no-untyped-def]
    return replay(load_record(DATA))


def test_the_twelve_scores_of_the_rulebook(result) -> None:  # type: ignore[no-untyped-def]
    assert [t.points for t in result.turns] == [3, 7, 4, 6, 7, 6, 3, 3, 10, 9, 18, 9]
    assert all(t.legal for t in result.turns)
    assert result.totals == [3 + 7 + 10, 7 + 6 + 9, 4 + 3 + 18, 6 + 3 + 9]
    assert result.winners == [2]  # Lisanne
    assert board_violations(result.board) == []


def lines(result, k: int) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
    return sorted((ln.direction, ln.length) for ln in result.turns[k].score.lines)


def test_sentences_line_by_line(result) -> None:  # type: ignore[no-untyped-def]
    # "Het rode vierkant scoort twee punten voor Chris, omdat hij het in twee rijen ... speelde"
    assert lines(result, 1) == [("col", 3), ("row", 4)]
    # "Lisanne speelt één blauwe cirkel ... een cirkel rij en een blauwe rij": 2 + 2
    assert lines(result, 2) == [("col", 2), ("row", 2)]
    # "Bob ... maakt drie nieuwe rijen: een diamant rij, een klaver rij en een groene rij"
    assert lines(result, 3) == [("col", 2), ("col", 2), ("row", 2)]
    # "Suzan speelt twee groene blokken ... ze raken elkaar niet": green row 4 + circles 3
    placed = [p for p, _ in result.turns[4].event.tiles]
    assert abs(placed[0].col - placed[1].col) > 1
    assert lines(result, 4) == [("col", 3), ("row", 4)]
    # "Bob heeft niet aangelegd aan de diamant rij, omdat zijn oranje diamant ... niet raakt"
    assert lines(result, 7) == [("row", 3)]
    # "Suzan ... maakt een gele rij en legt een blokje aan de diamant rij en de cirkel rij"
    assert lines(result, 8) == [("col", 4), ("col", 4), ("row", 2)]
    # "Ze speelde de zesde rode vorm en maakte daarmee een Qwirkle"
    assert result.turns[10].score.qwirkle
    assert [ln.points for ln in result.turns[10].score.lines if ln.qwirkle] == [12]
    # "Hij legt ze aan één vierkant rij en start twee nieuwe vierkant rijen": 5 + 2 + 2
    assert lines(result, 11) == [("col", 2), ("col", 5), ("row", 2)]


def test_shipped_copy_matches_and_round_trips() -> None:
    assert json.loads(SHIPPED.read_text()) == json.loads(DATA.read_text())
    game = load_record(SHIPPED)
    assert load_record(dump_record(game)) == game
    assert game.players == ("Suzan", "Chris", "Lisanne", "Bob")
