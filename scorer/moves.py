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
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import cast

from scorer.game import HAND_SIZE, Event, Exchange, Game, Pass, Place
from scorer.model import COPIES_PER_KIND, Board, Placement, Pos, Tile, classic_kinds
from scorer.rules import MAX_LINE, score_placement

__all__ = ["best_placement", "largest_group", "legal_placements", "random_game"]

Cell = tuple[int, int]


def _valid_run(tiles: Sequence[Tile]) -> bool:
    """True when ``tiles`` can be one line: same colour with distinct shapes or vice versa."""
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


def _arm(cells: dict[Cell, Tile], r: int, c: int, dr: int, dc: int) -> list[Tile]:
    out: list[Tile] = []
    r += dr
    c += dc
    while (r, c) in cells:
        out.append(cells[(r, c)])
        r += dr
        c += dc
    return out


def legal_placements(board: Board, hand: Sequence[Tile]) -> Iterator[Placement]:
    """Every legal placement of any non-empty sub-multiset of ``hand`` on ``board``, each once.

    On an empty board the placements are laid from ``(0, 0)`` rightwards (a row) or downwards
    (a column): positions are relative, so translations are not repeated. Tiles in a placement
    are in reading order (row, then column).

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

    rows = [p[0] for p in cells]
    cols = [p[1] for p in cells]
    r0, r1, c0, c1 = min(rows), max(rows), min(cols), max(cols)
    n_hand = len(hand)
    singles: set[tuple[Cell, Tile]] = set()
    perp_cache: dict[tuple[int, Cell], list[Tile]] = {}

    def accepts(direction: int, cell: Cell) -> list[Tile]:
        """Kinds that fit ``cell`` given its perpendicular line (direction 0 = row run)."""
        key = (direction, cell)
        got = perp_cache.get(key)
        if got is None:
            r, c = cell
            if direction == 0:
                perp = _arm(cells, r, c, -1, 0)[::-1] + _arm(cells, r, c, 1, 0)
            else:
                perp = _arm(cells, r, c, 0, -1)[::-1] + _arm(cells, r, c, 0, 1)
            if not perp:
                got = kinds
            elif len(perp) >= MAX_LINE or not _valid_run(perp):
                got = []
            else:
                got = [t for t in kinds if _valid_run([*perp, t])]
            perp_cache[key] = got
        return got

    for direction in (0, 1):
        # direction 0: runs along a row (cells (r, c..)); 1: along a column.
        outer = range(r0 - 1, r1 + 2) if direction == 0 else range(c0 - 1, c1 + 2)
        inner_lo = (c0 if direction == 0 else r0) - MAX_LINE
        inner_hi = (c1 if direction == 0 else r1) + 1

        def cell_at(line: int, i: int, d: int = direction) -> Cell:
            return (line, i) if d == 0 else (i, line)

        for line in outer:
            for a in range(inner_lo, inner_hi + 1):
                if cell_at(line, a - 1) in cells:
                    continue
                empties: list[Cell] = []
                fixed: list[Tile] = []
                options: list[list[Tile]] = []
                touches = False
                for b in range(a, a + MAX_LINE):
                    cb = cell_at(line, b)
                    tb = cells.get(cb)
                    if tb is not None:
                        fixed.append(tb)
                        touches = True
                    else:
                        acc = accepts(direction, cb)
                        if not acc or len(empties) >= n_hand:
                            break
                        empties.append(cb)
                        options.append(acc)
                        r, c = cb
                        if not touches and (
                            (r - 1, c) in cells
                            or (r + 1, c) in cells
                            or (r, c - 1) in cells
                            or (r, c + 1) in cells
                        ):
                            touches = True
                    if cell_at(line, b + 1) in cells:
                        continue  # the run would go on: not a maximal window
                    if not empties or not touches or not _valid_run(fixed):
                        continue
                    if len(empties) == 1:
                        for t in options[0]:
                            if _valid_run([*fixed, t]) and (empties[0], t) not in singles:
                                singles.add((empties[0], t))
                                yield Placement(((Pos(*empties[0]), t),))
                        continue
                    yield from _assign(empties, options, fixed, hand)


def _assign(
    empties: list[Cell], options: list[list[Tile]], fixed: list[Tile], hand: Sequence[Tile]
) -> Iterator[Placement]:
    """Every assignment of distinct hand kinds to ``empties`` making a valid run with ``fixed``."""
    n = len(empties)
    chosen: list[Tile] = []
    run: list[Tile] = list(fixed)
    avail = Counter(hand)

    def rec(i: int) -> Iterator[Placement]:
        if i == n:
            yield Placement(tuple((Pos(*empties[j]), chosen[j]) for j in range(n)))
            return
        for t in options[i]:
            if avail[t] <= 0:
                continue
            run.append(t)
            if _valid_run(run):
                avail[t] -= 1
                chosen.append(t)
                yield from rec(i + 1)
                chosen.pop()
                avail[t] += 1
            run.pop()

    yield from rec(0)


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
                if _valid_run(cand):
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
