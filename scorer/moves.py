"""Legal-move search and engine-played games.

- :func:`legal_placements`: every legal placement of any sub-multiset of a hand on a board, each
  once. Legality is exactly :func:`scorer.rules.validate_placement`'s (the property tests check
  that every yielded placement validates).
- :func:`best_placement`: the highest-scoring of them.
- :func:`largest_group`: the opening group (RULES.md section 1, "First turn": the most tiles
  sharing colour or shape, identical tiles counted once).
- :func:`random_game`: a legal game played by the engine from a shuffled bag, for property
  tests, renders and the demo.

How the search is fast enough for a late-game board (the target is a median <= 50 ms for a
6-tile hand on an 80+ tile board, see ``benchmarks/bench_scorer.py``): a placement's tiles lie in
one row or column and, with the tiles already there, form one run of at most 6 cells, so it is a
*window* ``[a, b]`` on one line whose outside neighbours ``a - 1`` and ``b + 1`` are empty. Each
empty cell of a window gets a tile whose *perpendicular* line does not depend on the other placed
tiles, so the kinds each empty cell accepts are computed once per cell and direction; a depth-first
assignment over the window's empty cells then checks only the run itself.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from typing import cast

from scorer.game import HAND_SIZE, Event, Exchange, Game, Pass, Place
from scorer.model import COPIES_PER_KIND, Board, Placement, Pos, Tile, classic_kinds
from scorer.rules import MAX_LINE, is_valid_line, score_placement

__all__ = ["best_placement", "largest_group", "legal_placements", "random_game"]

Cell = tuple[int, int]


def largest_group(hand: Sequence[Tile]) -> list[Tile]:
    """The largest group of distinct tiles in ``hand`` sharing a colour or a shape.

    Identical tiles count once (de "Start des Spiels": "in Farbe und Form identische Steine
    zählen dabei nur einfach"). Ties: the first group in colour-then-shape order of the hand.
    Returns the tiles in hand order; an empty hand gives ``[]``.
    """
    distinct = list(dict.fromkeys(hand))
    best: list[Tile] = []
    keys: list[tuple[int, object]] = []
    for t in distinct:
        for key in ((0, t.color), (1, t.shape)):
            if key not in keys:
                keys.append(key)
    for which, value in keys:
        group = [t for t in distinct if t[which] == value]
        if len(group) > len(best):
            best = group
    return best


def legal_placements(board: Board, hand: Sequence[Tile]) -> Iterator[Placement]:
    """Every legal placement of any non-empty sub-multiset of ``hand`` on ``board``, each once.

    On an empty board the placements are laid from ``(0, 0)`` rightwards (a row) or downwards
    (a column): positions are relative, so translations are not repeated. Tiles in a placement
    are in line order (left to right, top to bottom).

    Args:
        board: the table (may hold impossible states; placements touching broken lines are
            illegal and not yielded).
        hand: the tiles available, duplicates allowed (a duplicate never fits one line twice).

    Yields:
        :class:`~scorer.model.Placement` objects; the order is deterministic.
    """
    cells: dict[Cell, Tile] = dict(cast("dict[Cell, Tile]", board._cells))
    on_table = Counter(cells.values())
    kinds = [t for t in dict.fromkeys(hand) if on_table[t] < COPIES_PER_KIND]
    if not kinds:
        return
    if not cells:
        yield from _opening_placements(kinds)
        return
    bits = _Bits()
    kind_bits = [(bits.color(t.color), bits.shape(t.shape)) for t in kinds]
    tile_bits = {t: (bits.color(t.color), bits.shape(t.shape)) for t in set(cells.values())}
    n_hand = min(len(hand), MAX_LINE)
    singles: set[tuple[Cell, int]] = set()
    transposed = {(c, r): t for (r, c), t in cells.items()}
    for flip, grid in ((False, cells), (True, transposed)):
        for run_cells, picks in _row_runs(grid, kinds, kind_bits, tile_bits, n_hand):
            if flip:
                run_cells = [(c, r) for r, c in run_cells]
            if len(picks) == 1:
                key = (run_cells[0], picks[0])
                if key in singles:
                    continue
                singles.add(key)
            yield Placement(
                tuple((Pos(*cell), kinds[k]) for cell, k in zip(run_cells, picks, strict=True))
            )


class _Bits:
    """Colour and shape names as bits, so a line check is two popcounts."""

    def __init__(self) -> None:
        self._colors: dict[str, int] = {}
        self._shapes: dict[object, int] = {}

    def color(self, name: str) -> int:
        return 1 << self._colors.setdefault(name, len(self._colors))

    def shape(self, shape: object) -> int:
        return 1 << self._shapes.setdefault(shape, len(self._shapes))


def _ok(cm: int, sm: int, n: int) -> bool:
    """Whether ``n`` tiles whose colour/shape bits are ``cm``/``sm`` form a valid line."""
    if n <= 1:
        return True
    return (cm & (cm - 1) == 0 and sm.bit_count() == n) or (
        sm & (sm - 1) == 0 and cm.bit_count() == n
    )


def _row_runs(
    cells: dict[Cell, Tile],
    kinds: list[Tile],
    kind_bits: list[tuple[int, int]],
    tile_bits: dict[Tile, tuple[int, int]],
    n_hand: int,
) -> Iterator[tuple[list[Cell], list[int]]]:
    """Placements whose tiles lie in one *row*: ``(empty cells, kind indices)`` pairs.

    A window ``[a, b]`` of a row whose outside neighbours are empty becomes one run once its
    empty cells are filled; each empty cell accepts the kinds its column allows (computed once).
    """
    by_row: dict[int, list[int]] = defaultdict(list)
    for r, c in cells:
        by_row[r].append(c)
    accept_cache: dict[Cell, list[int]] = {}
    all_kinds = list(range(len(kinds)))

    def accepts(cell: Cell) -> list[int]:
        got = accept_cache.get(cell)
        if got is None:
            r, c = cell
            cm = sm = n = 0
            for dr in (-1, 1):
                rr = r + dr
                while (rr, c) in cells:
                    b = tile_bits[cells[(rr, c)]]
                    cm |= b[0]
                    sm |= b[1]
                    n += 1
                    rr += dr
            if n == 0:
                got = all_kinds
            elif n >= MAX_LINE:
                got = []
            else:
                got = [k for k, (cb, sb) in enumerate(kind_bits) if _ok(cm | cb, sm | sb, n + 1)]
            accept_cache[cell] = got
        return got

    for r in sorted(set(by_row) | {r + 1 for r in by_row} | {r - 1 for r in by_row}):
        near = by_row.get(r - 1, []) + by_row.get(r, []) + by_row.get(r + 1, [])
        lo, hi = min(near), max(near)
        for a in range(lo - MAX_LINE + 1, hi + 1):
            if (r, a - 1) in cells:
                continue
            empties: list[Cell] = []
            options: list[list[int]] = []
            fcm = fsm = fn = 0
            touches = False
            for b in range(a, a + MAX_LINE):
                t = cells.get((r, b))
                if t is not None:
                    cb, sb = tile_bits[t]
                    fcm |= cb
                    fsm |= sb
                    fn += 1
                    touches = True
                else:
                    acc = accepts((r, b))
                    if not acc or len(empties) >= n_hand:
                        break
                    empties.append((r, b))
                    options.append(acc)
                    if not touches and ((r - 1, b) in cells or (r + 1, b) in cells):
                        touches = True
                if (r, b + 1) in cells:
                    continue  # the run would go on: not a maximal window
                if not empties or not touches or not _ok(fcm, fsm, fn):
                    continue
                for picks in _fill(options, kind_bits, fcm, fsm, fn):
                    yield empties, picks


def _fill(
    options: list[list[int]], kind_bits: list[tuple[int, int]], cm: int, sm: int, n: int
) -> Iterator[list[int]]:
    """Every choice of one distinct kind per empty cell keeping the run valid (depth first)."""
    depth = len(options)
    picks: list[int] = []

    def rec(i: int, cm: int, sm: int, n: int, used: int) -> Iterator[list[int]]:
        if i == depth:
            yield list(picks)
            return
        n1 = n + 1
        for k in options[i]:
            if used >> k & 1:
                continue
            cb, sb = kind_bits[k]
            cm1 = cm | cb
            sm1 = sm | sb
            if (cm1 & (cm1 - 1) == 0 and sm1.bit_count() == n1) or (
                sm1 & (sm1 - 1) == 0 and cm1.bit_count() == n1
            ):
                picks.append(k)
                yield from rec(i + 1, cm1, sm1, n1, used | 1 << k)
                picks.pop()

    yield from rec(0, cm, sm, n, 0)


def _opening_placements(kinds: list[Tile]) -> Iterator[Placement]:
    """Placements on an empty table: rows and columns from (0, 0) of every valid sequence."""
    for t in kinds:
        yield Placement(((Pos(0, 0), t),))
    seqs: list[list[Tile]] = [[t] for t in kinds]
    while seqs:
        longer: list[list[Tile]] = []
        for seq in seqs:
            for t in kinds:
                if t in seq:
                    continue
                cand = [*seq, t]
                if is_valid_line(cand):
                    longer.append(cand)
                    yield Placement(tuple((Pos(0, i), x) for i, x in enumerate(cand)))
                    yield Placement(tuple((Pos(i, 0), x) for i, x in enumerate(cand)))
        seqs = longer


def best_placement(board: Board, hand: Sequence[Tile]) -> Placement | None:
    """The highest-scoring legal placement of tiles from ``hand`` (first found on ties).

    Returns ``None`` when nothing can be placed.
    """
    best: Placement | None = None
    best_pts = -1
    for p in legal_placements(board, hand):
        pts = score_placement(board, p).points
        if pts > best_pts:
            best, best_pts = p, pts
    return best


def random_game(
    seed: int,
    players: int = 2,
    *,
    turns: int | None = None,
    exchange_rate: float = 0.05,
    variant: str = "standard",
) -> Game:
    """A random legal game played by the engine; deterministic for a given ``seed``.

    The bag is the 108 classic tiles shuffled; each player draws 6. The player with the largest
    group opens with it (ties: the lowest seat); then each player in turn exchanges with
    probability ``exchange_rate`` (while the bag has tiles), else places: the best-scoring
    placement half of the time, a random legal one otherwise; exchanges when nothing fits and
    passes when the bag is empty too. Ends when a player goes out (inferred, +6), when every
    player passed in a row, or after ``turns`` events.

    Raises:
        ValueError: ``players`` outside 1..8.
    """
    if not 1 <= players <= 8:
        raise ValueError(f"players must be 1..8, got {players}")
    rng = random.Random(seed)
    bag = [t for t in classic_kinds() for _ in range(COPIES_PER_KIND)]
    rng.shuffle(bag)
    hands: list[list[Tile]] = []
    for _ in range(players):
        hands.append(bag[:HAND_SIZE])
        del bag[:HAND_SIZE]
    board = Board()
    events: list[Event] = []
    groups = [len(largest_group(h)) for h in hands]
    player = groups.index(max(groups))
    passes = 0
    limit = turns if turns is not None else 10_000

    while len(events) < limit:
        hand = hands[player]
        ev: Event
        if not board:
            group = largest_group(hand)
            placement = Placement(tuple((Pos(0, i), t) for i, t in enumerate(group)))
        else:
            placement = None
            if not (bag and rng.random() < exchange_rate):
                options = list(legal_placements(board, hand))
                if options:
                    if rng.random() < 0.5:
                        scores = [score_placement(board, p).points for p in options]
                        placement = options[scores.index(max(scores))]
                    else:
                        placement = rng.choice(options)
        if placement is not None:
            for _, t in placement.tiles:
                hand.remove(t)
            board = board.with_tiles(placement.tiles)
            draw = min(len(placement), len(bag))
            hand.extend(bag[:draw])
            del bag[:draw]
            ev = Place(player, placement)
            passes = 0
            events.append(ev)
            if not hand:
                break  # out: the replay infers the +6
        elif bag:
            k = rng.randint(1, min(len(hand), len(bag)))
            rng.shuffle(hand)
            returned = hand[:k]
            del hand[:k]
            hand.extend(bag[:k])
            del bag[:k]
            bag.extend(returned)
            rng.shuffle(bag)
            events.append(Exchange(player, k))
            passes = 0
        else:
            events.append(Pass(player))
            passes += 1
            if passes >= players:
                break
        player = (player + 1) % players
    names = tuple(f"P{i + 1}" for i in range(players))
    return Game(names, variant="extra" if variant == "extra" else "standard", events=tuple(events))
