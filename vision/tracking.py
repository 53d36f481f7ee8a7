"""Live tracking: from a stream of :class:`~vision.observation.Observation`s to scored turns.

Issue 4, "Tracking". The tracker consumes observations, never frames, so it is tested without
pixels (observations built from the renderer's truth or by hand) and end-to-end with the
detector. Per observation:

1. **Gate.** An observation with hands over the board (``occluded_fraction`` above
   :attr:`TrackerSettings.max_occluded`, or ``unseen`` cells), with motion (the caller's pixel
   motion score, or tile centres that moved more than :attr:`TrackerSettings.max_shift_pitch`
   of a cell since the previous observation), or with too few of the committed tiles in view,
   breaks the current *run*: nothing is committed while hands are over the table. Unseen cells
   that keep their place in the picture for :attr:`TrackerSettings.still_object_s` are a
   *still object* (the tile bag or a cup against the board, a glare spot), not hands: later
   observations whose unseen cells lie under it pass, and tiles under it are not reported
   vanished.
2. **Run.** Each observation is aligned to the previous one (90-degree turns and translation of
   the lattice coordinates, which a detector may renumber between frames); the run goes on while
   the set of occupied cells stays the same.
3. **Settle.** A run of :attr:`TrackerSettings.settle_frames` observations spanning at least
   :attr:`TrackerSettings.settle_s` seconds is a *settled board*; every cell's tile is voted over
   the run (confidence-weighted, alternatives included). With ``stills=True`` every observation
   that passes the gate is settled on its own (one photo per turn).
4. **Align** the settled board to the board the camera last confirmed (a bumped table or camera
   is re-registered, not a move: the transform that maps the most tiles onto equal tiles wins,
   ties going to the previous transform).
5. **Diff -> infer.** New cells only: :func:`scorer.infer.infer_move` reads the move (choosing
   among each cell's alternatives) and a legal, unambiguous reading becomes
   ``Place(next_player, ...)`` where ``next_player`` comes from replaying the sink's game, so
   exchanges and passes entered in the UI keep the turn order. Anything else — tiles vanished or
   changed, an illegal diff, tiles in two lines (two moves without a settle), an ambiguous
   reading — becomes a :class:`scorer.game.Review` turn with what was seen and the best legal
   candidates: never dropped, never guessed. When the added tiles are no legal single move,
   the Review also lists the ways to read them as two consecutive legal turns
   (``Review.splits``, :func:`scorer.infer.split_moves`) for the user to accept.

Before aligning a settled board the tracker checks the sink's ``version()``: when anyone else
wrote to the game (the web UI resolving a review, correcting, deleting or inserting a turn), it
re-reads the game and diffs against the corrected table from then on (:meth:`Tracker._sync`).

The tracker writes to a :class:`GameSink`: :class:`StoreSink` (the SQLite store, for ``serve``
and ``replay``) or :class:`MemorySink` (an in-memory :class:`scorer.game.Game`, for tests).
"""

from __future__ import annotations

import math
import time
from collections import Counter, defaultdict, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from scorer.game import Event, Game, Place, Review, replay
from scorer.model import Board, Placement, Pos, Tile
from scorer.rules import describe_tile
from scorer.store import GameStore
from vision.observation import Observation

__all__ = [
    "GameSink",
    "MemorySink",
    "StoreSink",
    "Tracker",
    "TrackerEvent",
    "TrackerSettings",
    "Transform",
    "align_boards",
]


# --------------------------------------------------------------------------- settings


@dataclass(frozen=True, slots=True)
class TrackerSettings:
    """Every threshold of the tracker, with where it comes from.

    Attributes:
        settle_frames: observations that must agree before a board counts as settled (3).
        settle_s: the run must also span at least this many seconds of media time (0.3 s).
            Together: 0.3 s of stillness at 10-15 processed fps, 0.35-0.5 s at the ~6 fps a
            1080p stream gets on 2 busy cores — a hand moving over the table breaks the run
            (motion gate) long before, and the commit stays well within 1 s of the board
            settling (issue 4; measured in benchmarks/bench_tracking.py).
        max_occluded: an observation with more than this share of the board's tile tops
            covered is gated out (hands). 0.02: a fingertip resting on one tile of a 50-tile
            board; anything larger is a hand in the picture.
        max_unseen: an observation with more ``unseen`` cells than this is gated out (hands).
            1: the detector flags a single cell at the board's edge now and then on still
            frames (shadows, table texture; measured on rendered videos 2026-11-21), while a
            hand covers several cells.
        max_motion: gate when the caller's pixel motion score (mean absolute difference of
            consecutive 160 px grey thumbnails, 0..255, see :mod:`vision.live`) exceeds this.
            1.0: measured on rendered game videos (tests/vision, 2026-11-21), sensor noise and
            light drift give 0.15-0.2, laying a tile 0.4-0.5, a hand moving over the table 1.2-6,
            a bumped table 7.
        max_shift_pitch: gate when the median tile centre moved more than this fraction of a
            cell pitch since the previous observation (a bump in progress). 0.15 cells.
        min_present: gate an observation showing fewer than this share of the confirmed tiles
            (the camera looks away, a detector failure on a dark frame) instead of reporting
            them vanished. 0.6.
        min_confidence: readings weaker than this (the observation's ``confidence``) are
            voted with a weight floor of this value, so one confident frame outweighs several
            unsure ones but unsure frames still count. 0.2.
        stills: every observation that passes the gate is a settled board (``--stills``).
        setup_first_frame: the first settled board is the setup, not a move
            (``--setup first-frame``).
        max_candidates: candidates kept in a Review (best first).
        max_splits: two-turn readings kept in a Review whose tiles are no legal move as one
            turn (:func:`scorer.infer.split_moves`; its own limits cap the search at a few ms).
            4: two parts of up to 6 tiles rarely split more ways; 0 turns the search off.
        late_sightings: when a settled run ends, a cell seen in at least this many of its
            observations, always with the same reading, but in too few for the majority vote,
            is added and the run settled again (a tile the detector finds only now and then,
            e.g. under glare, must not lose its move). 2; 0 turns it off.
        max_flicker: a run goes on while at most this many cells differ from its first
            observation, and no cell differs for ``settle_frames`` observations in a row; a
            cell is part of the settled board when seen in more than half of the run. 2: the
            detector finds or misses one or two tiles every few frames on still boards
            (measured on rendered 40-turn videos, 2026-11-21); a real change (a hand that
            the gate missed) persists and restarts the run.
        confirm_settles, confirm_s: a loss (tiles vanished or changed) becomes a Review only
            when at least ``confirm_settles`` settled boards in a row, spanning at least
            ``confirm_s`` seconds, all show it. A hand resting on the board long enough to
            settle hides tiles from a detector that does not flag it, and is gone by a later
            settle; a tile really taken away stays gone. 2 settles over 4 s: longer than the
            pause of a hand in our recordings (< 2 s), short enough that a real problem shows
            up before the next turn. Additions seen together with an unconfirmed loss are
            committed as a move (they are real either way); a tile seen at all during a
            settled run (a flaky detection) is not lost.
        still_object_s, still_object_frames, still_object_share: an unseen cell that has
            stayed in its place in the picture for ``still_object_s`` seconds, shown unseen
            in at least ``still_object_share`` of the observations of the last
            ``still_object_s`` seconds (and in ``still_object_frames`` or more), lies under a
            *still object* (the tile bag or a cup put down against the board, a lamp's glare
            spot), not a hand. An observation whose unseen cells lie under still objects, but
            for ``max_unseen``, and that covers no tile top (``max_occluded``) passes the
            gate; tiles under a still object are not reported vanished. Without this a bag
            against the board held every later frame back as "hands": rendered 7-turn games
            with the bag against the final board lost 8 of 42 moves (seeds 1-6,
            ``benchmarks/bench_tracking.py``; with the rule 42 exact). 3 s and 0.8: hands
            in our recordings rest at most ~2 s, and the first commit after a bag is put
            down against the board waits about this long (a recording that ends sooner:
            :meth:`Tracker.flush`). With ``stills=True`` the cell must be unseen in each
            of the last ``still_object_frames`` (2) photos. ``still_object_s`` 0 turns it off.
        still_object_cells: an unseen cell is the same cell as a followed one when their
            centres lie within this many cell pitches (image pixels, so the lattice's
            renumbering between frames does not matter). 0.5.
        still_object_grow: the board grew along a still object: an unseen cell within this
            many pitches of a still object's cell joins it once it was unseen in
            ``settle_frames`` observations in a row with no motion (the hand that laid the
            tiles has gone), without waiting ``still_object_s`` again. 1.5: diagonal
            neighbours (1.41) join.
        still_object_forget: a followed cell is dropped after this many observations in a
            row without it (the object was taken away). 20: about 2-3 s of video.
    """

    settle_frames: int = 3
    settle_s: float = 0.3
    max_occluded: float = 0.02
    max_unseen: int = 1
    max_motion: float = 1.0
    max_shift_pitch: float = 0.15
    min_present: float = 0.6
    min_confidence: float = 0.2
    stills: bool = False
    setup_first_frame: bool = False
    max_candidates: int = 3
    max_splits: int = 4
    max_flicker: int = 2
    late_sightings: int = 2
    confirm_settles: int = 2
    confirm_s: float = 4.0
    still_object_s: float = 3.0
    still_object_frames: int = 2
    still_object_share: float = 0.8
    still_object_cells: float = 0.5
    still_object_grow: float = 1.5
    still_object_forget: int = 20

    def hands_over(self, obs: Observation) -> bool:
        """Whether ``obs`` shows hands over the board: more than ``max_occluded`` of its tile
        tops covered or more than ``max_unseen`` unseen cells (the tracker's "hands" gate)."""
        return obs.occluded_fraction > self.max_occluded or len(obs.unseen) > self.max_unseen


# --------------------------------------------------------------------------- sinks


class GameSink(Protocol):
    """Where the tracker's turns go: the store (live/replay) or an in-memory game (tests)."""

    def game(self) -> Game:
        """The game as it stands (with corrections and UI events applied)."""
        ...

    def append(self, event: Event, *, frame: int | None) -> int:
        """Append a turn; return its index in the game's events."""
        ...

    def set_setup(self, board: Board) -> None:
        """Declare the tiles on the table before the first turn (``--setup first-frame``)."""
        ...


# Optional sink methods (looked up with ``getattr``, so older sinks keep working):
# ``replace_event(index, event)`` — the tracker completing its own move with a tile seen late;
# ``version() -> Hashable`` — a token that changes whenever anyone (the web UI too) writes to
# the game. With it the tracker reloads the game only when the token moved; without it, it
# compares its board with the game's at every settle (correct, a little slower).


class MemorySink:
    """An in-memory :class:`~scorer.game.Game` as a sink (tests, ``replay`` without a DB)."""

    def __init__(self, game: Game):
        self._game = game
        self.frames: list[int | None] = []
        self._version = 0

    def game(self) -> Game:
        return self._game

    def version(self) -> int:
        """Counts the writes (appends, corrections, setup)."""
        return self._version

    def append(self, event: Event, *, frame: int | None) -> int:
        self._game = self._game.append(event)
        self.frames.append(frame)
        self._version += 1
        return len(self._game.events) - 1

    def set_setup(self, board: Board) -> None:
        if self._game.events:
            raise ValueError("the setup can only be set before the first turn")
        self._game = Game(
            players=self._game.players,
            variant=self._game.variant,
            setup=board,
            events=(),
            tie_break=self._game.tie_break,
            colors=self._game.colors,
        )
        self._version += 1

    def replace(self, game: Game) -> None:
        """Swap in an edited game (what a UI correction does), e.g. an exchange entered."""
        self._game = game
        self._version += 1

    def replace_event(self, index: int, event: Event) -> None:
        """Correct event ``index`` (the tracker completing a move with a tile seen late)."""
        self._game = self._game.replace_event(index, event)
        self._version += 1


class StoreSink:
    """A game of a :class:`~scorer.store.GameStore` as a sink.

    Args:
        store: the store.
        game_id: the game.
        key_prefix: with a replayable source (a file), each append gets the idempotency key
            ``f"{key_prefix}:{frame}"`` so a replay restarted after a crash adds no duplicate.
    """

    def __init__(self, store: GameStore, game_id: int, *, key_prefix: str | None = None):
        self.store = store
        self.game_id = game_id
        self.key_prefix = key_prefix

    def game(self) -> Game:
        return self.store.game(self.game_id)

    def version(self) -> tuple[int, str]:
        """:meth:`scorer.store.GameStore.revision`: moves with every write, by anyone (the
        web UI's corrections run in request threads; the store serialises them)."""
        return self.store.revision(self.game_id)

    def append(self, event: Event, *, frame: int | None) -> int:
        key = None
        if self.key_prefix is not None and frame is not None:
            key = f"{self.key_prefix}:{frame}"
        return self.store.append(self.game_id, event, source="camera", frame=frame, key=key)

    def set_setup(self, board: Board) -> None:
        self.store.set_setup(self.game_id, board)

    def replace_event(self, index: int, event: Event) -> None:
        """Correct event ``index``: a correction in the store's log (source ``camera``)."""
        self.store.correct(self.game_id, "replace", index, event, source="camera")


# --------------------------------------------------------------------------- alignment


_ORIGIN = Pos(0, 0)


@dataclass(frozen=True, slots=True)
class Transform:
    """Maps lattice cells of one view onto another: ``p -> p.rotated(quarter_turns) + offset``."""

    quarter_turns: int = 0
    offset: Pos = _ORIGIN

    def apply(self, p: Pos) -> Pos:
        r = p.rotated(self.quarter_turns) if self.quarter_turns % 4 else p
        return Pos(r.row + self.offset.row, r.col + self.offset.col)

    def then(self, other: Transform) -> Transform:
        """``other`` applied after ``self``."""
        q = (self.quarter_turns + other.quarter_turns) % 4
        o = other.apply(self.offset)
        return Transform(q, o)

    @property
    def identity(self) -> bool:
        return self.quarter_turns % 4 == 0 and self.offset == (0, 0)


IDENTITY = Transform()

Readings = Mapping[Pos, Sequence[Tile]]


def _score(ref: Mapping[Pos, Tile], obs: Readings, tf: Transform) -> float:
    """+1 per observed cell landing on an equal tile (+0.5 if only an alternative matches),
    -1 per cell landing on a different tile, -1 per reference tile not covered."""
    score = 0.0
    covered = 0
    for p, readings in obs.items():
        q = tf.apply(p)
        t = ref.get(q)
        if t is None:
            continue
        covered += 1
        if readings and readings[0] == t:
            score += 1.0
        elif t in readings:
            score += 0.5
        else:
            score -= 1.0
    return score - (len(ref) - covered)


def align_boards(
    ref: Mapping[Pos, Tile], obs: Readings, prior: Transform = IDENTITY
) -> tuple[Transform, float]:
    """The transform mapping ``obs`` cells onto ``ref`` that best explains ``ref``'s tiles.

    Candidates are the offsets (for each of the 4 quarter turns) that put an observed tile on an
    equal reference tile; each is scored by :func:`_score` (matches minus mismatches minus
    reference tiles left uncovered). Ties go to ``prior`` (the camera rarely moves), then to
    fewer quarter turns.

    Args:
        ref: the reference board (e.g. the committed one).
        obs: per observed cell, candidate tiles best first.
        prior: the transform found last time.

    Returns:
        ``(transform, score)``; the identity (or ``prior``) when ``ref`` is empty.
    """
    if not ref or not obs:
        return prior, 0.0
    prior_score = _score(ref, obs, prior)
    if prior_score >= len(ref):  # every reference tile matched: the common, stable case
        return prior, prior_score
    by_tile: dict[Tile, list[Pos]] = defaultdict(list)
    for p, t in ref.items():
        by_tile[t].append(p)
    votes: Counter[Transform] = Counter()
    for q in range(4):
        for p, readings in obs.items():
            if not readings:
                continue
            rp = p.rotated(q)
            for rq in by_tile.get(readings[0], ()):
                votes[Transform(q, Pos(rq.row - rp.row, rq.col - rp.col))] += 1
    best, best_score = prior, prior_score
    for tf, _ in votes.most_common(12):
        s = _score(ref, obs, tf)
        if s > best_score or (s == best_score and tf != prior and best != prior
                              and tf.quarter_turns < best.quarter_turns):  # fmt: skip
            best, best_score = tf, s
    return best, best_score


# --------------------------------------------------------------------------- events


TrackerEventKind = Literal["move", "review", "setup", "realigned", "settled", "rebased"]


@dataclass(frozen=True, slots=True)
class TrackerEvent:
    """Something the tracker did, for the UI, the CLI and the benchmarks.

    Attributes:
        kind: ``move`` (a Place appended), ``review`` (a Review appended), ``setup`` (the first
            board taken as setup), ``realigned`` (the board moved in the picture: a bump,
            re-registered, nothing appended), ``settled`` (a settled board with no change),
            ``rebased`` (someone else — the web UI — corrected the game: the tracker re-read
            its board and player to move before diffing; nothing appended).
        frame_index: the frame whose observation completed the settle.
        t: media time of that frame, seconds.
        settled_t: media time of the first observation of the settled run (when the board
            stopped changing); ``t - settled_t`` is the settle delay in media time.
        event: the appended turn (``move``/``review``), else ``None``.
        index: its index in the game's events, else ``None``.
        board: the settled board in the game's coordinates.
        transform: the settled run's coordinates -> the game's.
        message: one line for humans.
        commit_wall_s: wall-clock seconds spent from the settling observation's arrival in
            :meth:`Tracker.feed` to the append returning (inference + store).
    """

    kind: TrackerEventKind
    frame_index: int
    t: float
    settled_t: float
    event: Event | None
    index: int | None
    board: Board
    transform: Transform
    message: str
    commit_wall_s: float = 0.0


@dataclass(slots=True)
class _Seen:
    """One gated-in observation of the current run, in the run's coordinates."""

    readings: dict[Pos, list[tuple[Tile, float]]]
    t: float
    frame_index: int
    covered: frozenset[Pos] = frozenset()  # its unseen cells, run coordinates


@dataclass(slots=True)
class _Run:
    first: Mapping[Pos, Tile]
    cells: frozenset[Pos]
    to_run: Transform  # current observation coordinates -> run coordinates
    seen: list[_Seen] = field(default_factory=list)
    done: bool = False
    centers: dict[Pos, tuple[float, float]] = field(default_factory=dict)
    pitch: float | None = None
    streak: dict[Pos, int] = field(default_factory=dict)  # frames a cell differs from ``cells``
    deferred: bool = False  # the settle's reading was unclear: decide when the run ends
    committed: int | None = None  # index of the Place this run's settle appended
    committed_event: Place | None = None  # that Place (the index is checked against it)


def _unseen_points(obs: Observation) -> list[tuple[float, float]]:
    """Image pixel centres ``(x, y)`` of ``obs.unseen`` (empty without a lattice)."""
    lattice = obs.lattice
    if lattice is None:
        return []
    out = []
    for p in obs.unseen:
        try:
            out.append(lattice.to_image(p.row, p.col))
        except ValueError:  # a cell beyond the horizon: never near the board
            continue
    return out


def _near(
    points: Sequence[tuple[float, float]], ref: Sequence[tuple[float, float]], tol: float
) -> list[bool]:
    """Per point of ``points``: whether one of ``ref`` lies within ``tol`` pixels."""
    return [any(math.dist(p, q) <= tol for q in ref) for p in points]


@dataclass(slots=True)
class _Track:
    """One unseen cell followed through the observations (image pixels)."""

    xy: tuple[float, float]
    first_t: float
    recent: deque[tuple[float, bool]] = field(default_factory=deque)  # (t, shown unseen)
    misses: int = 0  # observations in a row without it
    calm: int = 0  # observations in a row showing it with no motion
    still: bool = False


class _StillObjects:
    """Unseen cells that stand still: a tile bag, a cup, a glare spot beside the board
    (:attr:`TrackerSettings.still_object_s`). Followed in image pixels: a still object stays
    where it is in the picture, while the detector may renumber the lattice between frames
    and hands come and go over it."""

    def __init__(self, settings: TrackerSettings):
        self.settings = settings
        self.tracks: list[_Track] = []

    def observe(self, obs: Observation, t: float, motion: float | None) -> None:
        """Follow ``obs``'s unseen cells (every observation, gated or not)."""
        s = self.settings
        if s.still_object_s <= 0 or obs.lattice is None:
            return
        tol = s.still_object_cells * obs.lattice.pitch_px
        shown: set[int] = set()
        for xy in _unseen_points(obs):
            near = [
                (math.dist(xy, tr.xy), i)
                for i, tr in enumerate(self.tracks)
                if i not in shown and math.dist(xy, tr.xy) <= tol
            ]
            if not near:
                self.tracks.append(_Track(xy, t))
                near = [(0.0, len(self.tracks) - 1)]
            shown.add(min(near)[1])
        calm = motion is None or motion <= s.max_motion
        for i, tr in enumerate(self.tracks):
            tr.recent.append((t, i in shown))
            tr.misses = 0 if i in shown else tr.misses + 1
            tr.calm = tr.calm + 1 if i in shown and calm else 0
            if s.stills:  # photos: the last few, whenever they were taken
                while len(tr.recent) > s.still_object_frames:
                    tr.recent.popleft()
                window_full = len(tr.recent) >= s.still_object_frames
            else:
                while tr.recent and tr.recent[0][0] < t - s.still_object_s:
                    tr.recent.popleft()
                window_full = t - tr.first_t >= s.still_object_s
            n = sum(on for _, on in tr.recent)
            tr.still = (
                window_full
                and n >= s.still_object_frames
                and n >= s.still_object_share * len(tr.recent)
            ) or (tr.still and tr.misses == 0)
        self.tracks = [tr for tr in self.tracks if tr.misses < s.still_object_forget]
        # the board grew along a still object: the new ring cells beside it are the object's
        # as soon as they stay put for a settle (the hand that laid the tiles has gone)
        grow = s.still_object_grow * obs.lattice.pitch_px
        spread = True
        while spread:
            spread = False
            still = [tr.xy for tr in self.tracks if tr.still]
            for tr in self.tracks:
                if not tr.still and tr.calm >= s.settle_frames and any(_near([tr.xy], still, grow)):
                    tr.still = spread = True

    def under(self, obs: Observation) -> list[bool]:
        """Per unseen cell of ``obs`` (in order): whether it lies under a still object."""
        still = [tr.xy for tr in self.tracks if tr.still]
        if not still or obs.lattice is None:
            return [False] * len(obs.unseen)
        return _near(
            _unseen_points(obs), still, self.settings.still_object_cells * obs.lattice.pitch_px
        )

    def explains(self, obs: Observation) -> bool:
        """Whether ``obs``'s unseen cells are still objects' but for at most
        :attr:`TrackerSettings.max_unseen` (the stray cell the gate allows anyway), with no
        tile top covered: then the hands gate lets it through."""
        if obs.occluded_fraction > self.settings.max_occluded:
            return False
        under = self.under(obs)
        return any(under) and len(under) - sum(under) <= self.settings.max_unseen


# --------------------------------------------------------------------------- the tracker


TrackerStatus = Literal["waiting", "hands", "moving", "settling", "settled"]


class Tracker:
    """Turns observations into turns of the sink's game (see the module docstring).

    Args:
        sink: where turns go; its current game is the starting point (a resumed game: the
            tiles of its board, plus those of unresolved reviews, count as already on the
            table).
        settings: thresholds.
        first_player: the seat who opens, when the game has no turn yet (who opens depends on
            the hands, which a camera does not see; RULES.md §1 "First turn"). Afterwards the
            order comes from replaying the game.
    """

    def __init__(
        self,
        sink: GameSink,
        settings: TrackerSettings = TrackerSettings(),
        *,
        first_player: int = 0,
    ):
        self.sink = sink
        self.settings = settings
        self.first_player = first_player
        self._version = self._sink_version()  # read before the game: a write after it shows
        game = sink.game()
        self.baseline: dict[Pos, Tile] = _table(game)
        # cells a correction changed: p -> (the game's tile or None, what the camera had there)
        self._overrides: dict[Pos, tuple[Tile | None, Tile | None]] = {}
        self._need_setup = settings.setup_first_frame and not game.events and not game.setup
        self._transform = IDENTITY  # last run -> game transform
        self._run: _Run | None = None
        self._reported_cells: frozenset[Pos] = frozenset()
        self._pending: list[tuple[frozenset[Pos], float]] = []
        self.status: TrackerStatus = "waiting"
        self.gate_reason = ""
        #: what the status alone does not say: cells hidden by a still object (a tile bag)
        self.note = ""
        self.settles = 0
        self._still = _StillObjects(settings)
        self._held: list[tuple[Observation, int, float]] = []  # see :meth:`flush`
        self._at_end = False

    # -- public -------------------------------------------------------------------------------
    def feed(
        self,
        observation: Observation,
        *,
        frame_index: int,
        t: float,
        motion: float | None = None,
    ) -> list[TrackerEvent]:
        """Take one observation; return what happened (usually nothing).

        Args:
            observation: the detector's output for one frame.
            frame_index: the frame's index in its source.
            t: the frame's media time, seconds (monotonic within a source).
            motion: optional pixel motion score of the frame (mean absolute difference to the
                previous frame, 0..255); above :attr:`TrackerSettings.max_motion` gates it.

        Returns:
            :class:`TrackerEvent`s, in order.
        """
        arrived = time.perf_counter()
        s = self.settings
        self._still.observe(observation, float(t), motion)
        reason = self._gate(observation, motion)
        self._hold(observation, frame_index, float(t), motion, reason)
        if reason:
            late = self._late(self._run, arrived)
            self._run = None
            self.status = "hands" if reason == "hands" else "moving"
            self.gate_reason = reason
            return late
        self.gate_reason = ""
        n_still = sum(self._still.under(observation)) if observation.unseen else 0
        self.note = (
            f"{n_still} cell(s) beside the board hidden by something lying still" if n_still else ""
        )
        obs = self._readings(observation)
        best = {p: r[0][0] for p, r in obs.items()}
        run = self._run
        if s.stills or run is None:
            run = self._run = _Run(first=best, cells=frozenset(best), to_run=IDENTITY)
        else:
            last_best = {p: r[0][0] for p, r in run.seen[-1].readings.items()}
            cur = {p: [t_ for t_, _ in r] for p, r in obs.items()}
            to_run, _ = align_boards(last_best, cur, run.to_run)
            cells = frozenset(to_run.apply(p) for p in obs)
            moved = self._moved(run, observation, to_run)
            diff = cells ^ run.cells
            run.streak = {p: run.streak.get(p, 0) + 1 for p in diff}
            changed = len(diff) > s.max_flicker or any(
                n >= s.settle_frames for n in run.streak.values()
            )
            if changed or moved:
                # cells that now persist are the next board's, not late tiles of this one
                late = self._late(run, arrived, extras=False)
                if late:
                    return late  # this observation starts the next run on the next call
                run = self._run = _Run(first=best, cells=frozenset(best), to_run=IDENTITY)
                if moved:
                    self.status = "moving"
            else:
                run.to_run = to_run
        self._remember_centers(run, observation)
        run.seen.append(
            _Seen(
                {run.to_run.apply(p): r for p, r in obs.items()},
                float(t),
                frame_index,
                frozenset(run.to_run.apply(Pos(*p)) for p in observation.unseen),
            )
        )
        if run.done:
            self.status = "settled"
            return []
        span = run.seen[-1].t - run.seen[0].t
        if not s.stills and (len(run.seen) < s.settle_frames or span + 1e-6 < s.settle_s):
            self.status = "settling"
            return []
        run.done = True
        self.status = "settled"
        self.settles += 1
        return self._settled(run, frame_index, float(t), arrived)

    def flush(self) -> list[TrackerEvent]:
        """The source has ended: decide what the last still period left open (an unclear
        reading waiting for the end of the period, tiles seen only now and then).

        A still period at the very end that the hands gate held back only for unseen cells
        that kept their place (no pixel motion, no tile top covered, for at least a settle)
        is read too: a move laid against the tile bag just before the recording stops would
        otherwise be lost, because the bag becomes a still object only after
        :attr:`TrackerSettings.still_object_s`."""
        events: list[TrackerEvent] = []
        held, self._held = self._held, []
        s = self.settings
        if len(held) >= s.settle_frames and held[-1][2] - held[0][2] + 1e-6 >= s.settle_s:
            self._at_end = True
            try:
                for obs, frame_index, t in held:
                    events += self.feed(obs, frame_index=frame_index, t=t)
            finally:
                self._at_end = False
        return events + self._late(self._run, time.perf_counter())

    def _hold(
        self, obs: Observation, frame_index: int, t: float, motion: float | None, reason: str
    ) -> None:
        """Keep the observations of a still period the hands gate holds back only for
        unseen cells that keep their place (for :meth:`flush`; part of the still-object
        rule, off with ``still_object_s`` 0)."""
        s = self.settings
        still = (
            s.still_object_s > 0
            and reason == "hands"
            and obs.occluded_fraction <= s.max_occluded
            and (motion is None or motion <= s.max_motion)
        )
        if not still:
            self._held = []
            return
        if self._held and obs.lattice is not None:
            first = self._held[0][0]
            tol = s.still_object_cells * obs.lattice.pitch_px
            a, b = _unseen_points(obs), _unseen_points(first)
            if not (all(_near(a, b, tol)) and all(_near(b, a, tol))):
                self._held = []
        self._held.append((obs, frame_index, t))

    # -- corrections from elsewhere (the web UI) -----------------------------------------------
    def _sink_version(self) -> object:
        version = getattr(self.sink, "version", None)
        return version() if callable(version) else None

    def _sync(self, frame_index: int, t: float, settled_t: float) -> list[TrackerEvent]:
        """Re-read the game when someone else wrote to it (a review resolved, a move corrected,
        replaced or deleted, a turn inserted in the web page): the board the tracker diffs
        against becomes the game's table again, so a phantom tile the user removed is gone
        from the next diff and a tile the user added is not reported as a new move. The player
        to move is read from the game at every commit anyway (:meth:`_next_player`).

        The committed board is kept in the game's coordinates (``self._transform`` maps the
        camera's lattice onto them), so the game's table needs no mapping; the transform stays
        valid because the tiles the correction did not touch still pin it down
        (:func:`align_boards` re-checks it at every settle).

        Cells the correction changed are remembered in ``self._overrides``: while the camera
        keeps reading there what it read before the correction, the user's word wins (a
        detector misreading a cell — an empty pocket walled in by tiles, glare on a symbol —
        usually misreads it again the same way on the next frames). The version token is read
        before the game, so a write racing with the reload only causes one more reload.
        """
        version = self._sink_version()
        if version is not None and version == self._version:
            return []
        game = self.sink.game()
        self._version = version
        if self._need_setup and (game.events or game.setup):
            self._need_setup = False  # the UI entered the setup or the first turns itself
        table = _table(game)
        if table == self.baseline:
            return []  # our own write, an exchange or a pass: the table is as we have it
        old = self.baseline
        touched = sorted(p for p in old.keys() | table.keys() if old.get(p) != table.get(p))
        for p in touched:
            camera = self._overrides[p][1] if p in self._overrides else old.get(p)
            if table.get(p) == camera:
                self._overrides.pop(p, None)
            else:
                self._overrides[p] = (table.get(p), camera)
        self.baseline = dict(table)
        self._pending.clear()  # losses are confirmed afresh against the corrected table
        self._reported_cells -= frozenset(touched)
        removed = [p for p in touched if p not in table]
        added = [p for p in touched if p not in old]
        parts = []
        if removed:
            parts.append(f"{len(removed)} tile(s) removed at {_cells(removed)}")
        if added:
            parts.append(f"{len(added)} tile(s) added at {_cells(added)}")
        if len(touched) > len(removed) + len(added):
            parts.append(f"{len(touched) - len(removed) - len(added)} tile(s) changed")
        return [TrackerEvent(
            "rebased", frame_index, t, settled_t, None, None, Board(self.baseline),
            self._transform, "game corrected elsewhere: " + ", ".join(parts),
        )]  # fmt: skip

    def _apply_overrides(
        self, after: dict[Pos, list[Tile]], sighted: set[Pos]
    ) -> dict[Pos, list[Tile]]:
        """The settled board with the user's corrections winning over repeated misreadings.

        Per overridden cell ``p`` (user's tile ``u`` or None, camera's earlier reading ``c``):
        the camera reads ``c`` again -> the cell is what the user said (dropped when ``u`` is
        None); it reads ``u`` -> it agrees, the override ends; it reads something else -> a
        real change, the override ends and the reading counts; it sees nothing during the
        whole run -> for ``u`` None it agrees (the override ends), for a tile ``u`` the
        camera just cannot see it: not reported vanished (see :meth:`_settled`).
        """
        out = dict(after)
        for p, (user, camera) in list(self._overrides.items()):
            r = out.get(p)
            if r is None:
                if user is None and p not in sighted:
                    del self._overrides[p]
            elif user is not None and user in r[:3]:
                del self._overrides[p]
            elif camera is not None and r[0] == camera:
                if user is None:
                    del out[p]
                else:
                    out[p] = [user]
            else:
                del self._overrides[p]
        return out

    def _cleared_next_to(
        self, added: Mapping[Pos, list[Tile]], raw: Mapping[Pos, list[Tile]]
    ) -> list[tuple[Pos, Tile]]:
        """Cells a correction emptied that the camera still reads as the removed tile, next
        to (sharing an edge with) a cell of this move."""
        out = []
        for p, (user, camera) in self._overrides.items():
            r = raw.get(p)
            if user is not None or camera is None or r is None or r[0] != camera:
                continue
            if any(abs(p.row - q.row) + abs(p.col - q.col) == 1 for q in added):
                out.append((p, camera))
        return sorted(out)

    def _masked(self, p: Pos, tile: Tile) -> bool:
        """The camera reads at ``p`` what a correction overruled there."""
        o = self._overrides.get(p)
        return o is not None and o[1] == tile

    # -- gating -------------------------------------------------------------------------------
    def _gate(self, obs: Observation, motion: float | None) -> str:
        s = self.settings
        if s.hands_over(obs) and not self._at_end and not self._still.explains(obs):
            return "hands"
        if motion is not None and motion > s.max_motion:
            return "motion"
        if self.baseline and len(obs.tiles) < s.min_present * len(self.baseline):
            return "board not in view"
        if not obs.tiles and not self.baseline and not self._need_setup:
            return ""  # an empty table is a valid settled state (nothing to commit)
        return ""

    def _moved(self, run: _Run, obs: Observation, to_run: Transform) -> bool:
        """The tiles moved in the picture since the previous observation (a bump)."""
        if not run.centers:
            return False
        pitch = run.pitch or (obs.lattice.pitch_px if obs.lattice else None)
        if not pitch:
            return False
        shifts = []
        for to in obs.tiles:
            prev = run.centers.get(to_run.apply(to.pos))
            if prev is not None:
                shifts.append(math.dist(prev, to.center_xy))
        if not shifts:
            return False
        shifts.sort()
        return shifts[len(shifts) // 2] > self.settings.max_shift_pitch * pitch

    def _remember_centers(self, run: _Run, obs: Observation) -> None:
        run.centers = {run.to_run.apply(to.pos): to.center_xy for to in obs.tiles}
        if obs.lattice is not None:
            run.pitch = obs.lattice.pitch_px

    def _readings(self, obs: Observation) -> dict[Pos, list[tuple[Tile, float]]]:
        floor = self.settings.min_confidence
        out: dict[Pos, list[tuple[Tile, float]]] = {}
        for to in obs.tiles:
            w = max(to.confidence, floor)
            items = [(to.tile, w)]
            items += [(alt, max(c, 0.0) * w) for alt, c in to.alternatives if alt != to.tile]
            out[Pos(*to.pos)] = items
        return out

    # -- settling -----------------------------------------------------------------------------
    def _late(self, run: _Run | None, arrived: float, *, extras: bool = True) -> list[TrackerEvent]:
        """When a settled run ends: tiles the detector found only now and then during it
        (in at least ``late_sightings`` observations, always with the same reading) but too
        rarely for the settle's majority vote are a move too — settle the run again with
        them (the commit is late, but not lost)."""
        s = self.settings
        if run is None or not run.done or s.late_sightings <= 0:
            return []
        self._run = None
        # tiles seen after the settle were not lost after all
        sighted = {self._transform.apply(p) for seen in run.seen for p in seen.readings}
        self._pending = [(k - sighted, t) for k, t in self._pending if k - sighted]
        last = run.seen[-1]
        if run.deferred:  # decide the unclear settle with the whole still period
            return self._settled(run, last.frame_index, last.t, arrived, min_count=1, final=True)
        if not extras:
            return []
        counts: Counter[Pos] = Counter()
        readings: dict[Pos, set[Tile]] = defaultdict(set)
        for seen in run.seen:
            for p, items in seen.readings.items():
                counts[p] += 1
                readings[p].add(items[0][0])
        voted = self._vote(run)
        extra = [
            p
            for p, n in counts.items()
            if p not in voted and n >= s.late_sightings and len(readings[p]) == 1
        ]
        mapped = {self._transform.apply(p): next(iter(readings[p])) for p in extra}
        rebased = self._sync(last.frame_index, last.t, run.seen[0].t)
        mapped = {
            q: t for q, t in mapped.items() if q not in self.baseline and not self._masked(q, t)
        }
        if not mapped:
            return rebased
        if run.committed is not None:
            return rebased + self._extend_committed(run.committed, mapped, last, arrived, run)
        return rebased + [
            e
            for e in self._settled(run, last.frame_index, last.t, arrived, min_count=1, final=True)
            if e.kind != "settled"
        ]

    def _extend_committed(
        self, index: int, extra: Mapping[Pos, Tile], last: _Seen, arrived: float, run: _Run
    ) -> list[TrackerEvent]:
        """Tiles seen only rarely during the still period after a committed move: when they
        complete that move (the move with them is legal), correct the move (a replace in the
        log, never a second turn); otherwise leave them for the next settle."""
        from scorer.rules import validate_placement

        game = self.sink.game()
        ev = game.events[index] if index < len(game.events) else None
        if ev != run.committed_event:  # corrected, deleted or moved by the UI meanwhile
            return []
        if not isinstance(ev, Place) or not hasattr(self.sink, "replace_event"):
            return []
        tiles = Placement((*ev.tiles.tiles, *sorted(extra.items())))
        before = Board(self.baseline).without(ev.tiles.positions)
        if validate_placement(before, tiles, first_turn=not before):
            return []
        fixed = Place(ev.player, tiles, ev.out)
        self.sink.replace_event(index, fixed)
        self.baseline.update(extra)
        return [TrackerEvent(
            "move", last.frame_index, last.t, last.t, fixed, index, Board(self.baseline),
            self._transform, f"corrected: {_describe(fixed)} (a tile seen late)",
            time.perf_counter() - arrived,
        )]  # fmt: skip

    def _vote(self, run: _Run, min_count: int | None = None) -> dict[Pos, list[Tile]]:
        """Per cell seen in more than half of the run (or in ``min_count`` observations), the
        readings ordered by their total weight over the run."""
        totals: dict[Pos, dict[Tile, float]] = defaultdict(lambda: defaultdict(float))
        present: Counter[Pos] = Counter()
        for seen in run.seen:
            present.update(seen.readings.keys())
            for p, items in seen.readings.items():
                for tile, w in items:
                    totals[p][tile] += w
        half = len(run.seen) / 2
        return {
            p: sorted(c, key=lambda t: -c[t])
            for p, c in totals.items()
            if present[p] > half or (min_count is not None and present[p] >= min_count)
        }

    def _settled(
        self,
        run: _Run,
        frame_index: int,
        t: float,
        arrived: float,
        *,
        min_count: int | None = None,
        final: bool = False,
    ) -> list[TrackerEvent]:
        voted = self._vote(run)
        if min_count is not None:  # a late settle: add the rare but consistent sightings
            rare = self._vote(run, min_count=self.settings.late_sightings)
            voted.update({p: r for p, r in rare.items() if p not in voted})
        settled_t = run.seen[0].t
        rebased = self._sync(frame_index, t, settled_t)
        if self._need_setup:
            board = Board((p, r[0]) for p, r in voted.items())
            self.sink.set_setup(board)
            self.baseline = dict(board.items())
            self._need_setup = False
            self._transform = IDENTITY
            msg = f"setup: {len(board)} tiles already on the table"
            return [*rebased, TrackerEvent("setup", frame_index, t, settled_t, None, None, board,
                                 IDENTITY, msg, time.perf_counter() - arrived)]  # fmt: skip
        tf, _ = align_boards(self.baseline, voted, self._transform)
        realigned = tf != self._transform
        self._transform = tf
        # a tile the detector found even once during the run is there (a flaky detection, not
        # a loss); only tiles never seen while the board stood still count as vanished
        sighted = {tf.apply(p) for seen in run.seen for p in seen.readings}
        raw = {tf.apply(p): r for p, r in voted.items()}
        after = self._apply_overrides(raw, sighted)
        added = {p: r for p, r in after.items() if p not in self.baseline}
        # a tile the user put in the game that the camera cannot see is not a loss
        vouched = {p for p, (user, _) in self._overrides.items() if user is not None}
        # nor is one under a still object (a bag, a cup) or a hand the gate let through
        covered = {tf.apply(p) for seen in run.seen for p in seen.covered}
        vanished = sorted(
            p
            for p in self.baseline
            if p not in after and p not in sighted and p not in vouched and p not in covered
        )
        changed = sorted(
            p for p, tile in self.baseline.items() if p in after and tile not in after[p][:3]
        )
        board_now = Board({**self.baseline, **{p: r[0] for p, r in added.items()}})
        events: list[TrackerEvent] = list(rebased)
        if realigned and self.baseline:
            events.append(TrackerEvent(
                "realigned", frame_index, t, settled_t, None, None, board_now, tf,
                f"board re-registered (turned {tf.quarter_turns} x 90 deg, "
                f"shifted {tuple(tf.offset)})",
            ))  # fmt: skip
        problems = []
        if vanished:
            problems.append(f"tiles vanished at {_cells(vanished)}")
        if changed:
            seen_as = ", ".join(
                f"{p.row},{p.col} {self.baseline[p]}->{after[p][0]}" for p in changed
            )
            problems.append(f"tiles changed ({seen_as})")
        key = frozenset(vanished) | frozenset(changed)
        if key <= self._reported_cells:  # already reported: do not hold another turn for it
            problems = []
        if problems:
            if self._pending and not all(k & key for k, _ in self._pending):
                self._pending.clear()  # a different loss: start confirming afresh
            self._pending.append((key, settled_t))
            confirmed = (
                len(self._pending) >= self.settings.confirm_settles
                and settled_t - self._pending[0][1] >= self.settings.confirm_s
            )
            if not confirmed:
                waiting = "waiting for the next settled board to confirm: " + "; ".join(problems)
                if not added:
                    events.append(TrackerEvent(
                        "settled", frame_index, t, settled_t, None, None, board_now, tf, waiting,
                    ))  # fmt: skip
                    return events
                problems = []  # the additions are a move all the same; the loss stays pending
        else:
            self._pending.clear()
        if not added and not problems:
            events.append(TrackerEvent("settled", frame_index, t, settled_t, None, None,
                                       board_now, tf, "no change"))  # fmt: skip
            return events
        seen = Placement(tuple(sorted((p, r[0]) for p, r in added.items())))
        if problems:
            self._reported_cells |= key
            reason = "; ".join(problems)
            if added:
                reason += f"; and {len(added)} tile(s) added"
            ev: Event = self._review(reason, seen, (), frame_index)
        else:
            ev = self._infer(added, seen, frame_index)
            cleared = self._cleared_next_to(added, raw)
            if isinstance(ev, Place) and cleared:
                # a move laid next to a cell the user cleared, which the camera still reads
                # as the tile it was told is not there: now a real tile may stand on it. Ask
                # (one click either way) rather than drop it or count it silently
                q, tile = cleared[0]
                with_q = Placement(tuple(sorted([*ev.tiles.tiles, (q, tile)])))
                ev = self._review(
                    f"a move was laid next to {q.row},{q.col}, where a correction removed a "
                    f"{describe_tile(tile)} the camera still reads: is a real tile there now?",
                    with_q,
                    (ev.tiles, with_q),
                    frame_index,
                )
            if isinstance(ev, Review) and not final and self.settings.late_sightings > 0:
                # an unclear reading: the rest of the still period may show the missing tile
                run.deferred = True
                events.append(TrackerEvent(
                    "settled", frame_index, t, settled_t, None, None, board_now, tf,
                    f"unclear ({ev.reason}); deciding at the end of the still period",
                ))  # fmt: skip
                return events
        if isinstance(ev, Place):
            for p, tile in ev.tiles.tiles:
                self.baseline[Pos(*p)] = tile
        else:
            for p, tile in seen.tiles:
                self.baseline[p] = tile
        index = self.sink.append(ev, frame=frame_index)
        if isinstance(ev, Place):
            run.committed, run.committed_event = index, ev
        board_now = Board(self.baseline)
        kind: TrackerEventKind = "move" if isinstance(ev, Place) else "review"
        events.append(TrackerEvent(kind, frame_index, t, settled_t, ev, index, board_now, tf,
                                   _describe(ev), time.perf_counter() - arrived))  # fmt: skip
        return events

    def _next_player(self) -> int:
        game = self.sink.game()
        if not game.events:
            return self.first_player % len(game.players)
        return replay(game).next_player

    def _review(
        self,
        reason: str,
        seen: Placement,
        candidates: Iterable[Placement],
        frame: int,
        splits: tuple[tuple[Placement, Placement], ...] = (),
    ) -> Review:
        player = self._next_player()
        cands = tuple(candidates)[: self.settings.max_candidates]
        return Review(player, reason, seen, cands, frame, splits)

    def _infer(self, added: Mapping[Pos, list[Tile]], seen: Placement, frame: int) -> Event:
        """Read the added cells as a move; a Place when legal and unambiguous, else a Review."""
        from scorer.infer import (
            AmbiguousMoveError,
            MoveInferenceError,
            NoLegalReadingError,
            SplitSettings,
            infer_move,
            split_moves,
        )

        before = Board(self.baseline)
        after: dict[Pos, Sequence[Tile]] = {p: (t,) for p, t in self.baseline.items()}
        after.update({p: tuple(r) for p, r in added.items()})
        try:
            inf = infer_move(
                before, after, first_turn=not self.baseline,
                max_candidates=self.settings.max_candidates,
            )  # fmt: skip
        except (AmbiguousMoveError, NoLegalReadingError) as e:
            cands = [r.placement for r in e.readings]
            legal = [r.placement for r in e.readings if r.legal]
            reason = str(e)
            if (
                isinstance(e, NoLegalReadingError)
                and len(added) > 1
                and not _one_line(list(added), self.baseline)
            ):
                reason = f"tiles added in more than one place (two moves without a settle?): {e}"
            splits: tuple[tuple[Placement, Placement], ...] = ()
            if isinstance(e, NoLegalReadingError) and len(added) > 1 and self.settings.max_splits:
                # two turns laid without a settle between them (a quick player, a hand that
                # never left the table): offer the legal two-turn readings, decide nothing
                splits = split_moves(
                    before,
                    {p: r[0] for p, r in added.items()},
                    first_turn=not self.baseline,
                    settings=SplitSettings(max_splits=self.settings.max_splits),
                )
                if splits:
                    # the search is capped (SplitSettings), so the count is what it found
                    reason += f"; legal as two turns ({len(splits)} way(s) found to split it)"
            if isinstance(e, NoLegalReadingError):
                drop = self._legal_without_one(added)
                if drop:
                    reason += (
                        "; legal without the tile at "
                        + " or ".join(f"({p.row},{p.col})" for p, _ in drop)
                        + " (an empty cell or a neighbour's tile read as a tile?)"
                    )
                    cands = [pl for _, pl in drop] + cands
            return self._review(reason, seen, legal or cands, frame, splits)
        except MoveInferenceError as e:  # vanished/changed cannot happen: before is forced
            return self._review(str(e), seen, (), frame)
        return Place(self._next_player(), inf.placement)

    def _legal_without_one(self, added: Mapping[Pos, list[Tile]]) -> list[tuple[Pos, Placement]]:
        """For added tiles that form no legal move: each ``(cell, placement)`` where leaving
        out that one cell leaves a legal, unambiguous move, in cell order (empty when there is
        none, or fewer than two tiles were added).

        A Review's first candidates, so one click in the UI accepts the move: the detector
        can read an empty cell walled in by tiles on three sides as a tile (seen on rendered
        games, 2026-11-21: a wood-coloured gap read as an orange square at 0.97), which makes
        the real move look illegal. Only a suggestion: the turn stays a Review.
        """
        from scorer.infer import MoveInferenceError, infer_move

        if len(added) < 2:
            return []
        out: list[tuple[Pos, Placement]] = []
        for cell in sorted(added):
            after: dict[Pos, Sequence[Tile]] = {p: (t,) for p, t in self.baseline.items()}
            after.update({p: tuple(r) for p, r in added.items() if p != cell})
            try:
                inf = infer_move(Board(self.baseline), after, first_turn=not self.baseline)
            except MoveInferenceError:
                continue
            out.append((cell, inf.placement))
        return out


def _table(game: Game) -> dict[Pos, Tile]:
    """The tiles on the table after ``game``'s log: setup, placements (illegal ones too) and
    the tiles of unresolved reviews (:func:`scorer.game.replay` lays them all)."""
    if not game.events and not game.setup:
        return {}
    return dict(replay(game).board.items())


def _one_line(cells: Sequence[Pos], board: Mapping[Pos, Tile]) -> bool:
    """The cells lie in one row or column with no empty cell between them (gaps may be
    filled by tiles already on ``board``)."""
    rows, cols = {p.row for p in cells}, {p.col for p in cells}
    if len(rows) == 1:
        (r,) = rows
        line = [Pos(r, c) for c in range(min(cols), max(cols) + 1)]
    elif len(cols) == 1:
        (c,) = cols
        line = [Pos(r, c) for r in range(min(rows), max(rows) + 1)]
    else:
        return False
    added = set(cells)
    return all(p in added or p in board for p in line)


def _cells(cells: Iterable[Pos]) -> str:
    return " ".join(f"({p.row},{p.col})" for p in cells)


def _describe(ev: Event) -> str:
    if isinstance(ev, Place):
        return f"player {ev.player + 1} placed {ev.tiles}"
    if isinstance(ev, Review):
        return f"player {ev.player + 1}: needs review: {ev.reason}"
    return repr(ev)
