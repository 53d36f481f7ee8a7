"""View models and drawing: labels, board pictures, colour-blind-safe tiles."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from scorer.game import Exchange, Game, Pass, Place, Review, replay
from scorer.model import Board, Placement, Shape, Tile
from webui.drawing import SHAPE_GLYPHS, BoardPicture, color_letter, shape_primitives
from webui.views import board_picture, live_view, summary_view, tile_json, turn_label

QWIRKLE_ROW = "Rc@0,0 Rs@0,1 Rd@0,2 Rk@0,3 Rx@0,4"


def _game(*events: object, players: tuple[str, ...] = ("Ann", "Ben")) -> Game:
    return Game(players, events=tuple(events))  # type: ignore[arg-type]


def test_labels_name_each_scored_line() -> None:
    g = _game(Place(0, Placement.parse(QWIRKLE_ROW)), Place(1, Placement.parse("R*@0,5 B*@1,5")))
    r = replay(g)
    assert turn_label(r.turns[0], g.events[0]) == "row of 5 = 5"
    assert turn_label(r.turns[1], g.events[1]) == "row of 6 = 12, Qwirkle!, column of 2 = 2"


def test_labels_for_single_tile_exchange_pass_review_illegal_and_out() -> None:
    g = _game(
        Place(0, Placement.parse("Rc@0,0")),
        Exchange(1, 2),
        Place(0, Placement.parse("Bs@5,5")),
        Review(1, "tiles vanished at (0,0)"),
        Place(0, Placement.parse("Rs@0,1"), out=True),
    )
    r = replay(g)
    labels = [turn_label(t, e) for t, e in zip(r.turns, g.events, strict=True)]
    assert labels[0] == "single tile = 1"
    assert labels[1] == "exchanged 2 tiles"
    assert labels[2] == (
        "illegal, 0 points: none of the placed tiles touches a tile already on the table"
    )
    assert labels[3] == "needs review: tiles vanished at (0,0)"
    assert labels[4] == "row of 2 = 2, went out +6"


def test_pass_and_exchange_labels_say_when_not_allowed() -> None:
    g = _game(Place(0, Placement.parse("Rc@0,0")), Pass(1), Exchange(0, 7))
    r = replay(g)
    assert turn_label(r.turns[1], g.events[1]).startswith(
        "passed (not allowed: no passing while the bag holds"
    )
    assert turn_label(r.turns[2], g.events[2]).startswith("exchanged 7 tiles (not allowed: ")


def test_board_picture_highlights_last_placement_and_lines() -> None:
    g = _game(
        Place(0, Placement.parse(QWIRKLE_ROW)), Exchange(1, 1), Place(0, Placement.parse("R*@0,5"))
    )
    pic = board_picture(g, replay(g))
    assert pic.last == frozenset(Placement.parse("R*@0,5").positions)
    assert [ln.text for ln in pic.lines] == ["12!"]
    earlier = board_picture(g, replay(g), upto=1)
    assert len(earlier.last) == 5 and [ln.text for ln in earlier.lines] == ["5"]


def test_impossible_states_are_flagged() -> None:
    g = Game(("A", "B"), setup=Board.from_ascii("Rc Rc"))
    pic = board_picture(g, replay(g))
    assert len(pic.flagged) == 2


def test_board_svg_is_well_formed_and_colour_blind_safe() -> None:
    board = Board.from_ascii("Rc Rs Rd\n.  Bs .")
    svg = BoardPicture(board, last=frozenset(board)).svg(title='a "quoted" <title>')
    root = ET.fromstring(svg)
    ns = {"s": "http://www.w3.org/2000/svg"}
    tiles = root.findall(".//s:g[@class='tile last']", ns)
    assert len(tiles) == 4
    letters = sorted(t.find("s:text", ns).text for t in tiles)  # type: ignore[union-attr]
    assert letters == ["B", "R", "R", "R"]  # every tile carries its colour letter
    assert root.find("s:title", ns).text == 'a "quoted" <title>'  # type: ignore[union-attr]


def test_every_shape_has_a_glyph_and_an_outline() -> None:
    assert len(set(SHAPE_GLYPHS.values())) == 6
    for shape in Shape:
        prims = shape_primitives(shape, 0, 0, 40)
        assert prims
        for kind, v in prims:  # inside the cell
            xs = v[0::2] if kind == "poly" else (v[0] - v[2], v[0] + v[2])
            assert min(xs) >= 0 and max(xs) <= 40
    assert color_letter("red") == "R" and color_letter("teal") == "t"


def test_tile_json_and_unseen_counts() -> None:
    t = tile_json(Tile("blue", Shape.STAR8))
    assert t["letter"] == "B" and t["glyph"] == SHAPE_GLYPHS[Shape.STAR8] and t["text"] == "B*"
    g = _game(Place(0, Placement.parse("Rc@0,0 Rs@0,1")))
    v = live_view(1, "active", g, replay(g))
    counts = {u["text"]: u["count"] for u in v["unseen"]}
    assert counts["Rc"] == 2 and counts["Bc"] == 3 and v["unseen_total"] == 106
    assert v["players"][1]["next"] is True and v["last_turn"]["label"] == "row of 2 = 2"


def test_summary_best_turn_and_qwirkles() -> None:
    g = _game(Place(0, Placement.parse(QWIRKLE_ROW)), Place(1, Placement.parse("R*@0,5 B*@1,5")))
    s = summary_view(3, "finished", g, replay(g))
    assert s["best_turn"]["name"] == "Ben" and s["best_turn"]["points"] == 14
    assert [p["qwirkles"] for p in s["players"]] == [0, 1] and s["winner_names"] == ["Ben"]
