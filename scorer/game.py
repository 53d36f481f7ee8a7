"""An event-sourced Qwirkle game: the move log is the truth, results come from replaying it.

A :class:`Game` is immutable: setup tiles (already on the table when tracking began; they score
nothing) plus a tuple of events (:class:`Place`, :class:`Exchange`, :class:`Pass`,
:class:`Review`). A correction is a new game (:meth:`Game.replace_event`,
:meth:`Game.delete_event`, :meth:`Game.insert_event`) and :func:`replay` recomputes everything.
Nothing is ever dropped: an illegal turn stays in the log, flagged with its reasons, scoring 0.

Rules applied (``shared/RULES.md`` section 1 and 1a; seeds ``qwirkle-tiles-rules.de.txt`` and
``qwirkle-extra-rules-and-rulebook.nl.txt``):

- placement legality and points: :mod:`scorer.rules`;
- turn order: clockwise from whoever opened (``player + 1`` modulo the player count);
- bag and hands from the tile count: the bag starts at ``max(0, 108 - table - 6 x players)``
  (extra rule 4, with the seed's ``min`` typo read as ``max``); a player who places ``k`` tiles
  draws ``min(k, bag)``; once the bag is dry each hand shrinks by what its player places;
- "out": the first player to place their last tile once the bag is empty ends the game at once
  and scores +6 (de "Spielende", nl "Einde van het spel"). It is inferred from the hand count
  (``Place.out is None``) or declared (``out=True``/``False`` wins over the inference);
- exchange: 1-6 tiles, at most the hand; none on the opening turn (the Dutch seed: "Bij de eerst
  zet ... mag er niet geruild worden", which it says follows from the standard rule that the
  first turn lays the largest line, so it is applied in both variants); the ``extra`` variant
  also forbids exchanging more tiles than the bag holds (extra rule 1);
- pass: only when the bag is empty (the standard rules have no pass: who cannot place must
  exchange; extra rule 2 allows it when the bag is empty);
- ``extra`` variant, rule 3: when none of the tiles not yet on the table (hands plus bag) can be
  placed anywhere, the game ends and nobody gets the +6 (``end_reason == "blocked"``).

The first-turn rule (the largest group opens; tie: youngest in the German rules, oldest in the
Dutch/English) needs the hands, which a camera does not see: :attr:`Game.tie_break` records the
table's choice and does not change scores.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, TypeAlias

from scorer.model import (
    CLASSIC_COLORS,
    COPIES_PER_KIND,
    FULL_SET_SIZE,
    Board,
    Placement,
    Pos,
    Tile,
    classic_kinds,
)
from scorer.rules import (
    MAX_LINE,
    Score,
    Violation,
    describe_tile,
    score_placement,
    validate_placement,
)

__all__ = [
    "HAND_SIZE",
    "OUT_BONUS",
    "Event",
    "Exchange",
    "Game",
    "GameResult",
    "Pass",
    "Place",
    "Review",
    "TurnResult",
    "Variant",
    "can_place_any",
    "replay",
]

#: Tiles in a full hand (de "Spielvorbereitung": "Jeder Spieler zieht blind 6 Steine").
HAND_SIZE = 6
#: Bonus for the player who places their last tile and ends the game (de "Spielende").
OUT_BONUS = 6

Variant = Literal["standard", "extra"]
TieBreak = Literal["youngest", "oldest"]
VARIANTS: tuple[str, ...] = ("standard", "extra")
TIE_BREAKS: tuple[str, ...] = ("youngest", "oldest")


@dataclass(frozen=True, slots=True)
class Place:
    """The player laid ``tiles``; ``out`` declares the last tile (+6) — ``None`` infers it."""

    player: int
    tiles: Placement
    out: bool | None = None


@dataclass(frozen=True, slots=True)
class Exchange:
    """The player swapped ``count`` tiles (1-6) with the bag."""

    player: int
    count: int


@dataclass(frozen=True, slots=True)
class Pass:
    """The player passed (only when the bag is empty; extra rule 2)."""

    player: int


@dataclass(frozen=True, slots=True)
class Review:
    """A turn the tracker could not explain; it holds the turn slot and scores 0.

    Resolved by replacing it with a :class:`Place` (or deleting it). ``seen`` is what was added
    (in the board's coordinates), ``candidates`` other readings, ``frame`` the video frame.
    ``splits``: ways to read ``seen`` as two consecutive turns, ``(first, second)`` — the
    first legal for this turn's player, the second legal for the next player on the board
    after the first (two moves without a settle; :func:`scorer.infer.split_moves`). Accepting
    one replaces the review with two :class:`Place` turns.
    """

    player: int
    reason: str
    seen: Placement = field(default_factory=lambda: Placement(()))
    candidates: tuple[Placement, ...] = ()
    frame: int | None = None
    splits: tuple[tuple[Placement, Placement], ...] = ()


Event: TypeAlias = Place | Exchange | Pass | Review


@dataclass(frozen=True, slots=True)
class Game:
    """An immutable game: players, rules variant, setup tiles and the event log.

    Attributes:
        players: names in seating (clockwise) order; 1-8 players (the Dutch rulebook allows 8).
        variant: ``"standard"`` or ``"extra"`` (RULES.md section 1a).
        setup: tiles already on the table when tracking began; they score nothing.
        events: the turns, in order.
        tie_break: who opens on equal groups (``"youngest"`` German rules, ``"oldest"`` Dutch);
            recorded only, it changes no score.
        colors: the palette's six colour names (for :attr:`GameResult.unseen`).

    Raises:
        ValueError: no players, an unknown variant/tie-break, or an event whose player is not
            a seat index.
    """

    players: tuple[str, ...]
    variant: Variant = "standard"
    setup: Board = field(default_factory=Board)
    events: tuple[Event, ...] = ()
    tie_break: TieBreak = "oldest"
    colors: tuple[str, ...] = CLASSIC_COLORS

    def __post_init__(self) -> None:
        if not self.players:
            raise ValueError("a game needs at least one player")
        if self.variant not in VARIANTS:
            raise ValueError(f"unknown variant {self.variant!r} (expected standard or extra)")
        if self.tie_break not in TIE_BREAKS:
            raise ValueError(f"unknown tie_break {self.tie_break!r} (expected youngest or oldest)")
        if not isinstance(self.events, tuple):
            object.__setattr__(self, "events", tuple(self.events))
        if not isinstance(self.players, tuple):
            object.__setattr__(self, "players", tuple(self.players))
        for k, e in enumerate(self.events):
            self._check_event(e, k)

    def _check_event(self, e: Event, k: int) -> None:
        if not isinstance(e, Place | Exchange | Pass | Review):
            raise ValueError(f"event {k} is not a Place/Exchange/Pass/Review: {e!r}")
        if not isinstance(e.player, int) or not 0 <= e.player < len(self.players):
            raise ValueError(
                f"event {k}: player {e.player!r} is not a seat (0..{len(self.players) - 1})"
            )

    # -- corrections: each returns a new Game ---------------------------------------------
    def replace_event(self, k: int, e: Event) -> Game:
        """A game with event ``k`` replaced by ``e``. Raises IndexError for a bad ``k``."""
        self._index(k)
        ev = list(self.events)
        ev[k] = e
        return replace(self, events=tuple(ev))

    def delete_event(self, k: int) -> Game:
        """A game without event ``k``. Raises IndexError for a bad ``k``."""
        self._index(k)
        ev = list(self.events)
        del ev[k]
        return replace(self, events=tuple(ev))

    def insert_event(self, k: int, e: Event) -> Game:
        """A game with ``e`` inserted before event ``k`` (``k == len(events)`` appends)."""
        if not 0 <= k <= len(self.events):
            raise IndexError(f"no event slot {k} (0..{len(self.events)})")
        ev = list(self.events)
        ev.insert(k, e)
        return replace(self, events=tuple(ev))

    def append(self, e: Event) -> Game:
        """A game with ``e`` as its last event."""
        return replace(self, events=(*self.events, e))

    def _index(self, k: int) -> None:
        if not 0 <= k < len(self.events):
            raise IndexError(f"no event {k} (the game has {len(self.events)})")


@dataclass(frozen=True, slots=True)
class TurnResult:
    """One replayed turn.

    Attributes:
        index: position in :attr:`Game.events`.
        player: seat index.
        kind: ``"place"``, ``"exchange"``, ``"pass"`` or ``"review"``.
        points: points of the turn including ``bonus`` (0 when illegal).
        legal: no rule broken (a review is never legal until resolved).
        reasons: the violations' messages.
        violations: what is wrong (codes from :mod:`scorer.rules` plus ``out_of_turn``,
            ``game_over``, ``too_many_tiles``, ``bad_exchange``, ``first_turn_exchange``,
            ``pass_with_bag``, ``needs_review``).
        score: the placement's score breakdown (also for an illegal placement, for display;
            ``None`` for other kinds).
        out: the player placed their last tile and ended the game.
        bonus: the end bonus (+6 when ``out``).
        event: the event itself.
    """

    index: int
    player: int
    kind: Literal["place", "exchange", "pass", "review"]
    points: int
    legal: bool
    reasons: list[str]
    violations: list[Violation]
    score: Score | None
    out: bool
    bonus: int
    event: Event


@dataclass(slots=True)
class GameResult:
    """Everything :func:`replay` recomputes from the log.

    Attributes:
        turns: one :class:`TurnResult` per event, in order.
        totals: points per seat.
        winners: seats with the highest total (ties share the win; no tie-break, de "Spielende").
        board: the table after the last event (setup plus placed tiles, illegal ones included
            because they lie on the table; a tile on an occupied cell is not applied).
        bag: tiles left in the bag.
        hands: tiles in each hand.
        finished: the game is over.
        end_reason: ``"out"`` (a player placed their last tile), ``"blocked"`` (extra rule 3),
            or ``None``.
        next_player: whose turn it is.
        unseen: the 108-tile set minus the table (hands plus bag), by kind.
    """

    turns: list[TurnResult]
    totals: list[int]
    winners: list[int]
    board: Board
    bag: int
    hands: list[int]
    finished: bool
    end_reason: Literal["out", "blocked"] | None
    next_player: int
    unseen: Counter[Tile]


def _unseen(board: Board, colors: Sequence[str]) -> Counter[Tile]:
    counts: Counter[Tile] = Counter({t: COPIES_PER_KIND for t in classic_kinds(colors)})
    for t in board.values():
        if counts[t] > 0:
            counts[t] -= 1
    return +counts


def can_place_any(board: Board, tiles: Iterable[Tile]) -> bool:
    """True when at least one of ``tiles`` can legally be placed alone on ``board``.

    A legal placement of several tiles exists only if one of its tiles, placed alone next to
    the table, is legal too (its lines are sub-lines of valid lines), so single tiles suffice
    (used for extra rule 3, the blocked game). Copies are not checked: ``tiles`` are assumed to
    be tiles not on the table.
    """
    kinds = set(tiles)
    if not kinds:
        return False
    if not board:
        return True
    cells = board._cells
    frontier: set[tuple[int, int]] = set()
    for r, c in cells:
        for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if q not in cells:
                frontier.add(q)
    for r, c in frontier:
        row = _arm(cells, r, c, 0, -1) + _arm(cells, r, c, 0, 1)
        col = _arm(cells, r, c, -1, 0) + _arm(cells, r, c, 1, 0)
        for t in kinds:
            if _fits(row, t) and _fits(col, t):
                return True
    return False


def _arm(cells: dict[Pos, Tile], r: int, c: int, dr: int, dc: int) -> list[Tile]:
    out = []
    r += dr
    c += dc
    while (r, c) in cells:
        out.append(cells[(r, c)])  # type: ignore[index]
        r += dr
        c += dc
    return out


def _fits(line: list[Tile], t: Tile) -> bool:
    """Whether ``line + [t]`` is a valid line (an empty ``line`` always fits)."""
    if not line:
        return True
    if len(line) >= MAX_LINE or t in line:
        return False
    if all(x.color == t.color for x in line):
        return len({x.shape for x in line}) == len(line)
    if all(x.shape == t.shape for x in line):
        return len({x.color for x in line}) == len(line)
    return False


def _opening_hands(n_players: int, off_table: int) -> tuple[int, list[int]]:
    hands = []
    left = off_table
    for _ in range(n_players):
        h = min(HAND_SIZE, max(0, left))
        hands.append(h)
        left -= h
    return max(0, left), hands


def _lay_on_table(
    cells: dict[Pos, Tile], tiles: Placement, player: int, hands: list[int], bag: int
) -> tuple[dict[Pos, Tile], int]:
    """Put ``tiles`` on the table (occupied cells keep their tile) and refill the player's hand.

    Returns the new cells and the new bag count; ``hands`` is updated in place.
    """
    new_cells = dict(cells)
    for p, t in tiles.tiles:
        if p not in cells:
            new_cells[Pos(*p)] = t
    count = len(tiles)
    draw = min(count, bag)
    hands[player] = max(0, hands[player] - count) + draw
    return new_cells, bag - draw


def replay(game: Game) -> GameResult:
    """Replay the log of ``game`` from its setup and return every recomputed number.

    Deterministic and pure: the same game always gives an equal result. Illegal turns are kept
    with reasons and score 0; turns after the end are flagged ``game_over``.
    """
    n = len(game.players)
    cells: dict[Pos, Tile] = dict(game.setup._cells)
    bag, hands = _opening_hands(n, FULL_SET_SIZE - len(cells))
    totals = [0] * n
    turns: list[TurnResult] = []
    finished = False
    end_reason: Literal["out", "blocked"] | None = None
    expected: int | None = None  # whose turn; None until the first event sets the opener
    placed_any = bool(cells)
    names = game.players

    for k, ev in enumerate(game.events):
        problems: list[Violation] = []
        if finished:
            problems.append(Violation("game_over", "the game was already over"))
        if expected is not None and ev.player != expected:
            problems.append(
                Violation(
                    "out_of_turn",
                    f"it was {names[expected]}'s turn, not {names[ev.player]}'s",
                )
            )
        score: Score | None = None
        out = False
        bonus = 0
        points = 0
        if isinstance(ev, Place):
            kind: Literal["place", "exchange", "pass", "review"] = "place"
            board = Board._wrap(cells)
            first = not placed_any
            problems.extend(validate_placement(board, ev.tiles, first_turn=first))
            score = score_placement(board, ev.tiles)
            count = len(ev.tiles)
            hand = hands[ev.player]
            if count > hand:
                problems.append(
                    Violation(
                        "too_many_tiles",
                        f"{names[ev.player]} placed {count} tiles but holds only {hand}",
                        ev.tiles.positions,
                    )
                )
            # The tiles lie on the table whether or not the move was legal.
            cells, bag = _lay_on_table(cells, ev.tiles, ev.player, hands, bag)
            placed_any = placed_any or bool(ev.tiles.tiles)
            out = (hands[ev.player] == 0 and count > 0) if ev.out is None else ev.out
            legal = not problems
            if legal:
                points = score.points
                if out:  # an illegal placement ends nothing until it is corrected
                    bonus = OUT_BONUS
                    points += bonus
                    hands[ev.player] = 0
                    finished = True
                    end_reason = "out"
            else:
                out = False
        elif isinstance(ev, Exchange):
            kind = "exchange"
            hand = hands[ev.player]
            if not placed_any:
                problems.append(
                    Violation(
                        "first_turn_exchange",
                        "no exchange on the first turn: it must lay the largest line "
                        "(qwirkle-extra-rules-and-rulebook.nl.txt)",
                    )
                )
            if not 1 <= ev.count <= min(HAND_SIZE, hand):
                problems.append(
                    Violation(
                        "bad_exchange",
                        f"{names[ev.player]} cannot exchange {ev.count} tiles "
                        f"(1 to {min(HAND_SIZE, hand)} in hand)",
                    )
                )
            if bag == 0:
                problems.append(
                    Violation("bad_exchange", "the bag is empty: there is nothing to exchange")
                )
            elif game.variant == "extra" and ev.count > bag:
                problems.append(
                    Violation(
                        "bad_exchange",
                        f"only {bag} tiles left in the bag; cannot exchange {ev.count} "
                        "(extra rule 1)",
                    )
                )
            legal = not problems
        elif isinstance(ev, Pass):
            kind = "pass"
            if bag > 0:
                problems.append(
                    Violation(
                        "pass_with_bag",
                        f"no passing while the bag holds {bag} tiles: a player who cannot "
                        "place must exchange",
                    )
                )
            legal = not problems
        else:
            kind = "review"
            problems.append(Violation("needs_review", f"needs review: {ev.reason}"))
            legal = False
            # What the camera saw added lies on the table (as for an illegal placement), so later
            # turns are judged against the real table; it scores 0 until the review is resolved.
            cells, bag = _lay_on_table(cells, ev.seen, ev.player, hands, bag)
            placed_any = placed_any or bool(ev.seen.tiles)

        totals[ev.player] += points
        turns.append(
            TurnResult(
                index=k,
                player=ev.player,
                kind=kind,
                points=points,
                legal=legal,
                reasons=[v.message for v in problems],
                violations=problems,
                score=score,
                out=out,
                bonus=bonus,
                event=ev,
            )
        )
        expected = (ev.player + 1) % n
        if (
            not finished
            and game.variant == "extra"
            and kind == "place"
            and placed_any
            and not can_place_any(Board._wrap(cells), _unseen(Board._wrap(cells), game.colors))
        ):
            finished = True
            end_reason = "blocked"

    board = Board._wrap(cells)
    best = max(totals)
    return GameResult(
        turns=turns,
        totals=totals,
        winners=[i for i, t in enumerate(totals) if t == best],
        board=board,
        bag=bag,
        hands=hands,
        finished=finished,
        end_reason=end_reason,
        next_player=0 if expected is None else expected,
        unseen=_unseen(board, game.colors),
    )


def describe_event(e: Event) -> str:
    """One line for logs: ``"place Rs@0,1 Rc@0,2"``, ``"exchange 3"``, ``"pass"``."""
    if isinstance(e, Place):
        return f"place {e.tiles}" + (" (out)" if e.out else "")
    if isinstance(e, Exchange):
        return f"exchange {e.count}"
    if isinstance(e, Pass):
        return "pass"
    return f"review: {e.reason}"


__all__ += ["describe_event", "describe_tile"]
