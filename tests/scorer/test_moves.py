"""Legal-move search: soundness, completeness against brute force, opening groups, engine games."""

from __future__ import annotations

import itertools
import random

from scorer.game import Place, replay
from scorer.model import Board, Placement, Pos, Tile, classic_kinds
from scorer.moves import best_placement, largest_group, legal_placements, random_game
from scorer.rules import is_legal, score_placement

T = Tile.parse


def brute_force(board: Board, hand: list[Tile], max_tiles: int) -> set[frozenset[tuple[Pos, Tile]]]:
    """Every legal placement of up to ``max_tiles`` tiles, by trying all cells near the board."""
    rows = [p.row for p in board]
    cols = [p.col for p in board]
    cells = [
        Pos(r, c)
        for r in range(min(rows) - max_tiles, max(rows) + max_tiles + 1)
        for c in range(min(cols) - max_tiles, max(cols) + max_tiles + 1)
        if (r, c) not in board
    ]
    found: set[frozenset[tuple[Pos, Tile]]] = set()
    kinds = list(dict.fromkeys(hand))
    for k in range(1, max_tiles + 1):
        for where in itertools.combinations(cells, k):
            if len({p.row for p in where}) > 1 and len({p.col for p in where}) > 1:
                continue
            for what in itertools.permutations(kinds, k):
                pl = Placement(tuple(zip(where, what, strict=True)))
                if is_legal(board, pl):
                    found.add(frozenset(pl.tiles))
    return found


def search(board: Board, hand: list[Tile]) -> list[frozenset[tuple[Pos, Tile]]]:
    return [frozenset(p.tiles) for p in legal_placements(board, hand)]


def test_matches_brute_force_on_small_boards() -> None:
    board = Board.from_ascii("Rs Rc Rd\n.  Bc .\n.  Gc Gk")
    for hand in (["Rk", "Rx", "Yc"], ["Bs", "Rs", "Bd"], ["Oc", "O*", "Pk"]):
        tiles = [T(h) for h in hand]
        got = search(board, tiles)
        assert len(got) == len(set(got)), "duplicates"
        assert set(g for g in got if len(g) <= 2) == brute_force(board, tiles, 2)


def test_matches_brute_force_on_random_midgame_boards() -> None:
    rng = random.Random(5)
    kinds = classic_kinds()
    for seed in range(3):
        g = random_game(seed, 2, turns=6)
        board = replay(g).board
        hand = rng.sample(kinds, 3)
        got = [x for x in search(board, hand) if len(x) <= 2]
        assert set(got) == brute_force(board, hand, 2)


def test_every_yielded_placement_is_legal_on_a_late_board() -> None:
    g = random_game(11, 2)
    board = replay(g.delete_event(len(g.events) - 1)).board
    rng = random.Random(1)
    total = 0
    for _ in range(5):
        hand = rng.sample(classic_kinds(), 6)
        for p in legal_placements(board, hand):
            assert is_legal(board, p), p
            total += 1
    assert total > 0


def test_three_tile_placements_through_a_gap_are_found() -> None:
    board = Board.from_ascii("Rs . Rd")  # gap at (0,1) is fillable
    got = {str(p) for p in legal_placements(board, [T("Rc"), T("Rk"), T("Rx")])}
    assert "Rc@0,1 Rk@0,3" in got or "Rk@0,1 Rc@0,3" in got
    assert any(len(p.split()) == 3 for p in got)


def test_empty_board_openings() -> None:
    got = list(legal_placements(Board(), [T("Rs"), T("Rc"), T("Bs")]))
    assert all(is_legal(Board(), p) for p in got)
    assert Placement.parse("Rs@0,0 Rc@0,1") in got and Placement.parse("Rs@0,0 Rc@1,0") in got
    assert not any(len(p) == 3 for p in got)  # Rs Rc Bs share nothing as a line


def test_no_kind_beyond_three_copies_and_empty_hand() -> None:
    board = Board.from_ascii("Rs .  Rs .  Rs")
    assert not any(t == T("Rs") for p in legal_placements(board, [T("Rs")]) for _, t in p)
    assert list(legal_placements(board, [])) == []


def test_best_placement_is_the_highest_scoring() -> None:
    board = Board.from_ascii("Rs Rc Rd Rk Rx")
    best = best_placement(board, [T("R*"), T("Bs")])
    assert best is not None and score_placement(board, best).points == 12
    assert best_placement(Board.from_ascii("Rs Rc"), [T("Bd")]) is None


def test_largest_group_counts_identical_tiles_once() -> None:
    hand = [T("Rs"), T("Rs"), T("Rc"), T("Bs"), T("Gs"), T("Yk")]
    assert largest_group(hand) == [T("Rs"), T("Bs"), T("Gs")]
    assert largest_group([]) == []
    assert largest_group([T("Rs"), T("Rs")]) == [T("Rs")]


def test_random_game_is_deterministic_and_legal() -> None:
    a, b = random_game(3, 3, turns=20), random_game(3, 3, turns=20)
    assert a == b and len(a.events) == 20 and a != random_game(4, 3, turns=20)
    r = replay(a)
    assert all(t.legal for t in r.turns)
    assert isinstance(a.events[0], Place)
