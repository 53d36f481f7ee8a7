"""The tabletally-game/1 record: round trips, schema agreement, errors naming the field, fuzz."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.game import Exchange, Game, Pass, Place, Review, replay
from scorer.model import Board, Placement
from scorer.moves import random_game
from scorer.record import RecordError, dump_record, load_record, result_json, schema

DATA = Path(__file__).parents[1] / "data" / "dutch-example.json"


def tile(r: int, c: int, color: str = "red", shape: str = "square") -> dict[str, Any]:
    return {"row": r, "col": c, "color": color, "shape": shape}


def rec(**kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"format": "tabletally-game/1", "players": ["Ann", "Ben"], "turns": []}
    d.update(kw)
    return d


def test_every_turn_kind_round_trips() -> None:
    g = Game(
        ("Ann", "Ben"),
        variant="extra",
        setup=Board.from_ascii("Bs Bc"),
        tie_break="youngest",
        events=(
            Place(0, Placement.parse("Bd@0,2")),
            Exchange(1, 3),
            Pass(0),
            Review(1, "two moves", Placement.parse("Rs@5,5"), (Placement.parse("Rs@5,5"),), 9),
            Place(0, Placement.parse("Bk@0,3"), out=True),
        ),
    )
    d = dump_record(g)
    assert load_record(d) == g
    assert load_record(json.dumps(d)) == g
    jsonschema.validate(d, schema())


def test_example_validates_against_the_schema_and_random_games_too() -> None:
    jsonschema.validate(json.loads(DATA.read_text()), schema())
    for seed in range(3):
        g = random_game(seed, 3, turns=15)
        d = dump_record(g)
        jsonschema.validate(d, schema())
        assert load_record(d) == g


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "game.json"
    bad.write_text('{"format": "tabletally-game/1", "players": ["a"], "turns": [')
    with pytest.raises(RecordError, match=r"game\.json: malformed JSON at line 1"):
        load_record(bad)
    with pytest.raises(RecordError, match="cannot read file"):
        load_record(tmp_path / "missing.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError, match="UTF-8"):
        load_record(tmp_path / "bin.json")


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            rec(
                turns=[{"player": 0, "place": [tile(0, 0)]}] * 3
                + [{"player": 1, "place": [tile(0, 1, color="rd")]}]
            ),
            "game.json: turns[3].place[0].color: unknown colour 'rd'",
        ),
        (
            rec(turns=[{"player": 0, "place": [tile(0, 0, shape="hexagon")]}]),
            "turns[0].place[0].shape: unknown shape 'hexagon'",
        ),
        (
            rec(turns=[{"player": 0, "place": [{"row": 0, "color": "red", "shape": "circle"}]}]),
            "turns[0].place[0].col: missing",
        ),
        (
            rec(turns=[{"player": 0, "place": [tile("0", 0)]}]),  # type: ignore[arg-type]
            "turns[0].place[0].row: expected an integer, got string '0'",
        ),
        (rec(turns=[{"player": 2, "pass": True}]), "turns[0].player: 2 is out of range"),
        (rec(turns=[{"place": [tile(0, 0)]}]), "turns[0].player: missing"),
        (rec(turns=[{"player": 0}]), "turns[0]: a turn has exactly one of"),
        (rec(turns=[{"player": 0, "pass": True, "exchange": 2}]), "got exchange, pass"),
        (rec(turns=[{"player": 0, "place": []}]), "turns[0].place: no tiles"),
        (
            rec(turns=[{"player": 0, "place": [tile(0, 0), tile(0, 0, "blue")]}]),
            r"turns[0].place[1]: cell (0,0) already given at turns[0].place[0]",
        ),
        (rec(turns=[{"player": 0, "place": [tile(0, 0)], "out": "yes"}]), "turns[0].out"),
        (rec(turns=[{"player": 0, "pass": 1}]), "turns[0].pass: expected true"),
        (rec(turns=[{"player": 0, "exchange": 2.5}]), "turns[0].exchange: expected an integer"),
        (rec(players=[]), "players: expected 1 to 8 players"),
        (rec(players="Ann"), "players: expected a list"),
        (rec(players=["a", 3]), "players[1]: expected a string"),
        (rec(variant="turbo"), "variant: unknown variant 'turbo'"),
        (rec(format="tabletally-game/2"), "format: unsupported format"),
        ({"players": ["a"]}, "format: missing"),
        (rec(game="chess"), "game: unsupported game 'chess'"),
        (rec(board={"row": 0}), "board: expected a list"),
        (rec(turns=None), "turns: expected a list, got null"),
        ([1, 2], "game.json: expected an object, got a list"),
    ],
)
def test_errors_name_the_field(record: Any, message: str) -> None:
    with pytest.raises(RecordError) as e:
        load_record(record if isinstance(record, dict) else json.dumps(record), source="game.json")
    assert message in str(e.value)
    assert "\n" not in str(e.value)


def test_palette_colours_from_the_record() -> None:
    d = rec(
        colors=["red", "orange", "yellow", "green", "blue", "teal"],
        turns=[{"player": 0, "place": [tile(0, 0, "teal")]}],
    )
    g = load_record(d)
    assert g.colors[-1] == "teal" and replay(g).totals == [1, 0]
    assert load_record(dump_record(g)) == g
    with pytest.raises(
        RecordError, match=r"turns\[0\]\.place\[0\]\.color: unknown colour 'purple'"
    ):
        load_record(rec(colors=d["colors"], turns=[{"player": 0, "place": [tile(0, 0, "purple")]}]))


def test_unknown_keys_are_ignored() -> None:
    g = load_record(rec(note="hi", turns=[{"player": 0, "pass": True, "note": "x"}]))
    assert g.events == (Pass(0),)


def test_result_json_has_the_promised_shape() -> None:
    g = load_record(DATA)
    obj = result_json(g, replay(g))
    assert obj["players"] == ["Suzan", "Chris", "Lisanne", "Bob"]
    assert obj["totals"] == [20, 22, 25, 18] and obj["winners"] == [2]
    t = obj["turns"][10]
    assert {"player", "points", "legal", "reason", "lines", "qwirkle"} <= set(t)
    assert t["points"] == 18 and t["qwirkle"] and t["legal"] and t["reason"] is None
    assert sum(ln["points"] for ln in t["lines"]) == 18
    json.dumps(obj)  # JSON-able


# -- fuzzing: any input either loads or raises RecordError, never anything else ----------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids, max_size=4)
    ),
    max_leaves=12,
)
field_names = st.sampled_from(
    [
        "format",
        "players",
        "board",
        "turns",
        "variant",
        "game",
        "row",
        "col",
        "color",
        "shape",
        "player",
        "place",
        "exchange",
        "pass",
        "review",
        "out",
        "reason",
        "seen",
        "candidates",
        "frame",
        "colors",
        "tie_break",
    ]
)


def _mutate(d: Any, path: list[Any], value: Any) -> Any:
    if not path:
        return value
    if isinstance(d, dict) and d:
        key = sorted(d)[path[0] % len(d)] if isinstance(path[0], int) else path[0]
        d = dict(d)
        d[key] = _mutate(d.get(key), path[1:], value)
        return d
    if isinstance(d, list) and d:
        d = list(d)
        i = path[0] % len(d) if isinstance(path[0], int) else 0
        d[i] = _mutate(d[i], path[1:], value)
        return d
    return value


@settings(max_examples=150)
@given(
    path=st.lists(st.integers(0, 20) | field_names, max_size=5),
    value=json_values,
)
def test_fuzz_mutated_records_raise_only_record_error(path: list[Any], value: Any) -> None:
    base = json.loads(DATA.read_text())
    bad = _mutate(base, path, value)
    try:
        g = load_record(bad, source="fuzz.json")
    except RecordError as e:
        assert str(e).startswith("fuzz.json: ")
        return
    replay(g)  # whatever loads must replay


@settings(max_examples=100)
@given(st.binary(max_size=200) | st.text(max_size=200))
def test_fuzz_garbage_text(data: bytes | str) -> None:
    text = data.decode("latin-1") if isinstance(data, bytes) else data
    try:
        g = load_record("{" + text, source="g.json")
    except RecordError as e:
        assert str(e).startswith("g.json: ") and "\n" not in str(e)
    else:
        assert isinstance(g, Game)


def test_palette_inferred_when_tiles_use_another_built_in_colour() -> None:
    # Qwirkle Connect prints white instead of purple (RULES.md "Vocabulary")
    g = load_record(rec(turns=[{"player": 0, "place": [tile(0, 0, "white", "circle")]}]))
    assert g.colors == ("red", "orange", "yellow", "green", "blue", "white")
    assert sum(replay(g).unseen.values()) == 107
    assert load_record(dump_record(g)) == g
    assert load_record(rec()).colors[-1] == "purple"


def test_a_name_no_file_can_have_is_a_record_error() -> None:
    # found by the fuzz test above: a record replaced by the text "\x00" is taken as a path
    with pytest.raises(RecordError, match=r"^x\.json: .*cannot read file: embedded null byte"):
        load_record("\x00", source="x.json")
