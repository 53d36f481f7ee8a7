"""The embedded recorded game: a deterministic rendered video of a whole Qwirkle game.

Used by ``make demo`` / ``tabletally serve --demo`` (the whole pipeline on a game nobody has to
film), by the tracking tests and by ``benchmarks/bench_tracking.py``. Issue 4 asks for ~40
turns, 2-4 players, hands reaching in, a bump, light drift and a nudged tile, generated in under
~60 s: the video is rendered on first use into a cache folder (with a progress bar on stderr) and
reused afterwards.

The game is :func:`scorer.moves.random_game` (a legal game played by the engine). A *script*
turns it into shots at a fixed frame rate; per placing turn:

1. a hand reaches in over the table (its fingertips travel from outside the board to the target
   cell), the tiles appear under it, the hand withdraws;
2. the board stays still for :attr:`DemoSettings.still_s` seconds (the tracker settles here).

Exchanges and passes are invisible to a camera: the script marks them as *UI events* at the
start of their turn (``serve --demo`` applies them as if a player had pressed the button). At
:attr:`DemoSettings.bump_turn` the table is knocked (a shift and a small turn, kept for the
rest of the game); at :attr:`DemoSettings.nudge_turn` a hand pushes one tile a fifth of a cell
off its spot, toward a side with free room (a tile cannot be pushed into its neighbour).
Lighting drifts slowly throughout (``Conditions.drift``).

To stay within the time budget only a few shots per turn are *rendered* (four hand poses, one
still board); the other frames repeat one of them with fresh sensor noise (cheap). A moving hand
alternates between two poses, so consecutive frames differ as in a real video.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scorer.game import Event, Game, Place
from scorer.model import Board, Pos
from scorer.moves import random_game
from scorer.store import decode_event, encode_event
from vision.diskcache import cache_dir
from vision.observation import Observation
from vision.render import (
    CLUTTER_RADIUS_MM,
    SKIN_TONES,
    Bump,
    Conditions,
    Hand,
    Rendered,
    Scene,
    truth_observation,
)

__all__ = [
    "DEMO_CACHE_KEEP",
    "DemoSettings",
    "DemoVideo",
    "Script",
    "Shot",
    "cache_dir",
    "demo_game",
    "ensure_demo_video",
    "final_board",
    "prune_demo_cache",
    "put_down_beside",
    "render_shots",
    "script_game",
]

#: Version of the demo's recipe; part of the cache key (bump it when the script changes).
#: 2 (2026-11-23): the nudge pushes toward a free side (:func:`_nudge_target`).
DEMO_VERSION = 2


@dataclass(frozen=True, slots=True)
class DemoSettings:
    """How the demo game is played and filmed.

    Attributes:
        seed: seed of the game, the scene and the noise.
        players: 2-4 (issue 4).
        turns: events in the game (~40, issue 4).
        names: player names (the first ``players`` are used).
        size: video ``(width, height)``, pixels. 960x540 keeps rendering within budget; the
            detector works at any size.
        fps: frame rate of the video.
        hand_s: seconds a hand is over the table per placing turn.
        still_s: seconds the board stays still after a turn (the tracker needs < 0.5 s).
        bump_turn, nudge_turn: event indices after which the table is bumped / a tile nudged
            (``-1``: never).
        bump: the table's displacement at the bump.
        nudge_cells: how far the nudged tile is pushed, cells (toward a free side; recipe 1
            pushed it 0.2 rows and -0.1 columns whatever lay there, into a neighbour).
        drift: lighting drift amplitude (``Conditions.drift``).
        tile_px: tile width in pixels at the board centre.
        noise_sigma: sensor noise added to repeated frames, 8-bit units (the renderer's own
            noise at exposure 1 is ~1.5).
        exchange_rate: how often a player exchanges instead of placing
            (:func:`scorer.moves.random_game`).
    """

    seed: int = 2026
    players: int = 3
    turns: int = 40
    names: tuple[str, ...] = ("Ann", "Ben", "Cleo", "Dev")
    size: tuple[int, int] = (960, 540)
    fps: float = 10.0
    hand_s: float = 0.9
    still_s: float = 1.2
    bump_turn: int = 17
    nudge_turn: int = 27
    bump: Bump = field(default_factory=lambda: Bump(dx_mm=9.0, dy_mm=-6.0, rot_deg=1.5))
    nudge_cells: float = 0.2
    drift: float = 0.3
    tile_px: float = 34.0
    noise_sigma: float = 1.5
    exchange_rate: float = 0.05

    def key(self) -> str:
        """A short hash naming this recipe in the cache."""
        blob = json.dumps([DEMO_VERSION, asdict(self)], sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:12]


@dataclass(frozen=True, slots=True)
class Shot:
    """One frame of the script.

    Attributes:
        index: frame number (``t = index / fps``).
        t: media time, seconds.
        board: tiles on the table.
        hands: hands over the table.
        bump: the table's displacement so far.
        nudges: tiles pushed off their cell: ``pos -> (d_row, d_col)`` in cells.
        render: which render this frame shows (frames with equal ``render`` repeat one image).
        settles: the index of the game event whose board is complete and still from this frame
            on (only on the first still frame after a placing turn), else ``None``.
        ui_event: an exchange/pass entered in the UI at this frame, else ``None``.
        ui_index: that event's index in the game.
    """

    index: int
    t: float
    board: Board
    hands: tuple[Hand, ...]
    bump: Bump | None
    nudges: Mapping[Pos, tuple[float, float]]
    render: int
    settles: int | None = None
    ui_event: Event | None = None
    ui_index: int | None = None


@dataclass(frozen=True, slots=True)
class Script:
    """The shots of a game, in order, with the game and the frame rate."""

    game: Game
    shots: tuple[Shot, ...]
    fps: float

    @property
    def renders(self) -> int:
        return len({s.render for s in self.shots})


def demo_game(settings: DemoSettings = DemoSettings()) -> Game:
    """The demo's game: :func:`scorer.moves.random_game` with the settings' seed and names."""
    g = random_game(
        settings.seed, settings.players, turns=settings.turns, exchange_rate=settings.exchange_rate
    )
    return replace(g, players=tuple(settings.names[: settings.players]))


def script_game(game: Game, settings: DemoSettings = DemoSettings()) -> Script:
    """Turn ``game`` into shots (see the module docstring). Deterministic."""
    rng = np.random.default_rng(settings.seed)
    fps = settings.fps
    shots: list[Shot] = []
    board = game.setup
    bump: Bump | None = None
    nudges: dict[Pos, tuple[float, float]] = {}
    render_id = 0

    def add(n: int, board: Board, hands: tuple[Hand, ...], **kw: Any) -> None:
        """``n`` frames repeating one render."""
        nonlocal render_id
        for k in range(max(1, n)):
            i = len(shots)
            extra = kw if k == 0 else {}
            shots.append(Shot(i, i / fps, board, hands, bump, dict(nudges), render_id, **extra))
        render_id += 1

    def wave(n: int, views: list[tuple[Board, tuple[Hand, ...]]]) -> None:
        """``n`` frames alternating between the renders of ``views``: a hand that keeps
        moving (every frame differs from the previous one, as in a real video)."""
        nonlocal render_id
        first = render_id
        render_id += len(views)
        for k in range(max(1, n)):
            i = len(shots)
            v = k % len(views)
            b, hands = views[v]
            shots.append(Shot(i, i / fps, b, hands, bump, dict(nudges), first + v))

    n_still = max(1, round(settings.still_s * fps))
    n_hand = max(2, round(settings.hand_s * fps))
    add(n_still, board, ())  # the empty (or setup) table
    for k, ev in enumerate(game.events):
        if isinstance(ev, Place):
            after = board.with_tiles(ev.tiles.tiles)
            rows = [p.row for p in ev.tiles.positions]
            cols = [p.col for p in ev.tiles.positions]
            target = (float(np.mean(rows)), float(np.mean(cols)))
            from_deg = float(rng.uniform(0, 360))
            base = _hand(rng)

            def hand_at(away: float, base: Hand = base, deg: float = from_deg) -> tuple[Hand, ...]:
                rad = float(np.radians(deg))
                tgt = (target[0] + away * np.sin(rad), target[1] + away * np.cos(rad))  # noqa: B023
                return (replace(base, target=tgt, from_deg=deg, height_mm=40.0),)

            # the hand comes in (3 -> 1 cells from the spot), lays the tiles, goes back out
            wave(n_hand // 2, [(board, hand_at(3.0)), (board, hand_at(1.0))])
            wave(n_hand - n_hand // 2, [(after, hand_at(0.3)), (after, hand_at(2.0))])
            board = after
            add(n_still, board, (), settles=k)
        else:
            add(n_still, board, (), ui_event=ev, ui_index=k)
        if k == settings.bump_turn:
            final = settings.bump
            bump = Bump(final.dx_mm / 2, final.dy_mm / 2, final.rot_deg / 2)
            add(1, board, ())  # the table moving
            bump = final
            add(n_still, board, ())
        if k == settings.nudge_turn and board:
            cells = sorted(board)
            pos, push = _nudge_target(board, cells, int(rng.integers(len(cells))), settings)
            near = (Hand((pos.row + 0.1, pos.col), from_deg=90.0, height_mm=20.0),)
            far = (Hand((pos.row + 1.5, pos.col), from_deg=90.0, height_mm=30.0),)
            wave(n_hand // 2, [(board, near), (board, far)])
            nudges[pos] = push
            wave(n_hand // 2, [(board, near), (board, far)])
            add(n_still, board, ())
    return Script(game, tuple(shots), fps)


#: Directions a nudge pushes a tile, ``(d_row, d_col)`` per cell of ``nudge_cells``, in order
#: of preference: down and half as far left (the recipe before version 2), then straight down,
#: left, up, right.
_NUDGE_SIDES = ((1.0, -0.5), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0), (0.0, 1.0))


def _nudge_target(
    board: Board, cells: list[Pos], start: int, settings: DemoSettings
) -> tuple[Pos, tuple[float, float]]:
    """The tile a hand nudges and its push ``(d_row, d_col)`` in cells: the first tile from
    ``cells[start]`` on (in turn) with free room on the side it is pushed to, since a push into
    a neighbour would overlap two tiles, which a real table cannot show. A board with no free
    side anywhere (impossible for a finite board) falls back to ``cells[start]``."""
    n = settings.nudge_cells
    for i in range(len(cells)):
        pos = cells[(start + i) % len(cells)]
        for dr, dc in _NUDGE_SIDES:
            sr, sc = int(np.sign(dr)), int(np.sign(dc))
            toward = {Pos(pos.row + sr, pos.col), Pos(pos.row, pos.col + sc)}
            toward.add(Pos(pos.row + sr, pos.col + sc))
            toward.discard(pos)
            if not any(p in board for p in toward):
                return pos, (n * dr, n * dc)
    pos = cells[start]
    return pos, (n * _NUDGE_SIDES[0][0], n * _NUDGE_SIDES[0][1])


def _hand(rng: np.random.Generator) -> Hand:
    """A hand with a skin tone from the renderer's table and a random sleeve (our own draw,
    so the script does not change when the renderer's ``Hand.random`` does)."""
    skin = SKIN_TONES[int(rng.integers(len(SKIN_TONES)))]
    sleeve = tuple(int(v) for v in rng.integers(15, 240, size=3))
    return Hand(
        target=(0.0, 0.0),
        skin_rgb=skin,
        sleeve_rgb=(sleeve[0], sleeve[1], sleeve[2]),
        spread_deg=float(rng.uniform(2, 16)),
        curl=float(rng.uniform(0, 1)),
    )


class _NudgeScene(Scene):
    """A :class:`~vision.render.Scene` in which single tiles can be pushed off their cell.

    Relies on ``Scene._tile_pose`` (the renderer's per-tile placement, used for drawing and for
    the truth); a nudge adds ``(d_row, d_col)`` cells to it.
    """

    nudges: Mapping[Pos, tuple[float, float]] = {}

    def _tile_pose(self, pos: Pos) -> tuple[float, float, float]:
        x, y, ang = super()._tile_pose(pos)
        d = self.nudges.get(pos)
        if d is not None:
            x += d[1] * self.pitch_mm
            y += d[0] * self.pitch_mm
        return x, y, ang


def final_board(script: Script) -> Board:
    """The largest board the script shows (the game's last)."""
    final = Board()
    for s in script.shots:
        if len(s.board) > len(final):
            final = s.board
    return final


def put_down_beside(
    scene: Scene, board: Board, kind: str = "bag", side: int = 0, gap_cells: float = 0.25
) -> None:
    """Put an object (:data:`vision.render.CLUTTER_RADIUS_MM`) on the table against one side
    of ``board``'s bounding box for every later frame: the tile bag or a cup left beside the
    board, as players do (``tests/vision/test_still_objects.py``).

    Args:
        scene: the game's scene (its board frame: cell ``(r, c)`` at
            ``((c - mid[1]) * pitch, (r - mid[0]) * pitch)``).
        board: the board to lie against (usually :func:`final_board`).
        side: 0 right of the board (+col), 1 left, 2 below (+row), 3 above; the object lies
            at the middle of that side.
        gap_cells: table left between the board's cells and the object's rim, cells.

    Raises:
        ValueError: an empty board, a side outside 0-3 or an unknown kind.
    """
    if not board:
        raise ValueError("an empty board has no side to lie against")
    if side not in (0, 1, 2, 3):
        raise ValueError(f"side must be 0-3, got {side}")
    r0, c0, r1, c1 = board.bounds()
    p = scene.pitch_mm
    reach = (0.5 + gap_cells) * p + 0.75 * CLUTTER_RADIUS_MM.get(kind, 0.0)  # 0.75: its rim
    mid_x = ((c0 + c1) / 2 - scene.mid[1]) * p
    mid_y = ((r0 + r1) / 2 - scene.mid[0]) * p
    x, y = {
        0: ((c1 - scene.mid[1]) * p + reach, mid_y),
        1: ((c0 - scene.mid[1]) * p - reach, mid_y),
        2: (mid_x, (r1 - scene.mid[0]) * p + reach),
        3: (mid_x, (r0 - scene.mid[0]) * p - reach),
    }[side]
    scene.put_down(kind, x, y, angle=0.4)


def make_scene(script: Script, settings: DemoSettings = DemoSettings()) -> Scene:
    """The demo's scene: easy light with drift, framed on the game's final board."""
    final = final_board(script)
    cond = Conditions(drift=settings.drift, tile_px=settings.tile_px, tilt_deg=10.0, yaw_deg=7.0)
    fit = final if final else None
    return _NudgeScene(cond, settings.seed, size=settings.size, fit=fit)


def render_shots(
    script: Script, scene: Scene, settings: DemoSettings = DemoSettings()
) -> Iterator[tuple[Shot, Rendered, np.ndarray[Any, np.dtype[np.uint8]]]]:
    """Render the script: ``(shot, rendered, image_bgr)`` per frame, in order.

    Frames repeating a render get the render's image plus fresh Gaussian noise
    (``noise_sigma``); ``rendered.truth`` is that of the render.
    """
    rng = np.random.default_rng(settings.seed + 1)
    bank: list[np.ndarray[Any, np.dtype[np.int16]]] = []
    last_id: int | None = None
    rendered: Rendered | None = None
    for shot in script.shots:
        if shot.render != last_id or rendered is None:
            if isinstance(scene, _NudgeScene):
                scene.nudges = shot.nudges
            rendered = scene.frame(shot.board, hands=shot.hands, bump=shot.bump, t=shot.t)
            last_id = shot.render
            image = rendered.image_bgr
        else:
            if not bank or bank[0].shape != rendered.image_bgr.shape:
                # a small bank of noise fields, cycled: drawing fresh Gaussian noise for every
                # 1080p frame would cost more than the render it repeats
                shape = rendered.image_bgr.shape
                bank = [
                    np.round(rng.normal(0.0, settings.noise_sigma, shape)).astype(np.int16)
                    for _ in range(5)
                ]
            noise = bank[shot.index % len(bank)]
            image = np.clip(rendered.image_bgr.astype(np.int16) + noise, 0, 255).astype(np.uint8)
        yield shot, rendered, image


def truth_observations(
    script: Script, settings: DemoSettings = DemoSettings()
) -> Iterator[tuple[Shot, Observation]]:
    """The script as a perfect detector would see it (renders only, no noise repeats)."""
    scene = make_scene(script, settings)
    cache: dict[int, Observation] = {}
    for shot in script.shots:
        if shot.render not in cache:
            if isinstance(scene, _NudgeScene):
                scene.nudges = shot.nudges
            r = scene.frame(shot.board, hands=shot.hands, bump=shot.bump, t=shot.t)
            cache.clear()
            cache[shot.render] = truth_observation(r)
        yield shot, cache[shot.render]


@dataclass(frozen=True, slots=True)
class DemoVideo:
    """A rendered demo on disk.

    Attributes:
        video: the video file (MJPEG in AVI: decodes everywhere OpenCV does).
        meta: the sidecar JSON: the game record, the UI events by frame, the settle frames.
        game: the game played.
        fps: frame rate.
        ui_events: ``frame -> (event index, event)`` for exchanges/passes entered in the UI.
        settle_frames: ``event index -> first frame its board is complete and still``.
    """

    video: Path
    meta: Path
    game: Game
    fps: float
    ui_events: dict[int, tuple[int, Event]]
    settle_frames: dict[int, int]


def _load_meta(path: Path, video: Path) -> DemoVideo:
    from scorer.record import load_record

    meta = json.loads(path.read_text())
    game = load_record(meta["record"], source=str(path))
    return DemoVideo(
        video=video,
        meta=path,
        game=game,
        fps=float(meta["fps"]),
        ui_events={int(u["frame"]): (int(u["index"]), decode_event(u["turn"])) for u in meta["ui"]},
        settle_frames={int(k): int(v) for k, v in meta["settle_frames"].items()},
    )


def ensure_demo_video(
    folder: Path | None = None,
    settings: DemoSettings = DemoSettings(),
    *,
    progress: bool = True,
) -> DemoVideo:
    """The demo video, rendering it on first use (progress bar on stderr), then cached.

    Args:
        folder: where to keep it (default :func:`cache_dir`).
        settings: the recipe; a different recipe is a different cache entry.
        progress: show a tqdm progress bar on stderr while rendering.

    Raises:
        OSError: the folder cannot be written, or OpenCV cannot write the video.
    """
    from tqdm import tqdm

    from scorer.record import dump_record

    folder = folder or cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    name = f"demo-{settings.key()}"
    video, meta = folder / f"{name}.avi", folder / f"{name}.json"
    if video.is_file() and meta.is_file():
        for f in (video, meta):  # most recently used: kept by prune_demo_cache
            with contextlib.suppress(OSError):
                os.utime(f)
        return _load_meta(meta, video)
    game = demo_game(settings)
    script = script_game(game, settings)
    scene = make_scene(script, settings)
    tmp = folder / f".{name}.{os.getpid()}.avi"
    writer = cv2.VideoWriter(str(tmp), cv2.VideoWriter.fourcc(*"MJPG"), script.fps, settings.size)
    if not writer.isOpened():
        raise OSError(f"{tmp}: OpenCV cannot write an MJPEG video here")
    try:
        bar = tqdm(
            total=len(script.shots), desc="rendering the demo game", unit="frame",
            file=sys.stderr, disable=not progress, leave=False,
        )  # fmt: skip
        with bar:
            for _, _, image in render_shots(script, scene, settings):
                writer.write(image)
                bar.update(1)
    finally:
        writer.release()
    ui = [
        {"frame": s.index, "index": s.ui_index, "turn": encode_event(s.ui_event)}
        for s in script.shots
        if s.ui_event is not None
    ]
    settle = {str(s.settles): s.index for s in script.shots if s.settles is not None}
    doc = {
        "format": "tabletally-demo/1",
        "fps": script.fps,
        "settings": asdict(settings),
        "record": dump_record(game),
        "ui": ui,
        "settle_frames": settle,
    }
    meta_tmp = folder / f".{name}.{os.getpid()}.json"
    meta_tmp.write_text(json.dumps(doc, default=str))
    os.replace(tmp, video)  # video first: the pair counts as complete once the JSON exists
    os.replace(meta_tmp, meta)
    prune_demo_cache(folder, keep=DEMO_CACHE_KEEP)
    return _load_meta(meta, video)


#: Demo videos kept in a cache folder (each is 60-80 MB): the most recently used ones.
DEMO_CACHE_KEEP = 4


def prune_demo_cache(folder: Path, keep: int = DEMO_CACHE_KEEP) -> list[Path]:
    """Delete all but the ``keep`` most recently used demo videos (and their JSON) in
    ``folder``: a changed recipe renders a new video under a new name, and the old ones
    would otherwise pile up. Unfinished renders of other processes (dot files) are left.

    Returns:
        The files deleted.
    """
    used: list[tuple[float, Path]] = []
    for v in folder.glob("demo-*.avi"):
        with contextlib.suppress(OSError):  # another process may prune at the same time
            if v.with_suffix(".json").is_file():
                used.append((v.stat().st_mtime, v))
    pairs = [v for _, v in sorted(used, reverse=True)]
    gone: list[Path] = []
    for v in pairs[keep:]:
        for f in (v, v.with_suffix(".json")):
            with contextlib.suppress(OSError):
                f.unlink()
                gone.append(f)
    return gone
