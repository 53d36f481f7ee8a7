"""What vision returns for one image: tiles on the lattice, plus the lattice and quality signals.

These are the types every later stage consumes (tracking, web UI, benchmarks). Pixel
coordinates are ``(x, y)`` floats in the *input* image (names end in ``_xy``); grid positions are
:class:`scorer.model.Pos` ``(row, col)`` on the tiles' own lattice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from calibration.profile import apply_homography, invert_homography
from scorer.model import Board, Pos, Tile

__all__ = ["Lattice", "Observation", "TileObservation"]

PointXY = tuple[float, float]
Matrix3 = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]


@dataclass(frozen=True, slots=True)
class TileObservation:
    """One tile as seen.

    Attributes:
        pos: lattice cell ``(row, col)``.
        tile: the best reading (colour name, shape).
        color_confidence, shape_confidence: posterior-like scores in [0, 1] of the best reading.
        alternatives: other readings, best first, as ``(tile, confidence)``; the first is the
            runner-up (a different colour or shape), used by move inference.
        center_xy: tile centre in image pixels.
        corners_xy: the tile top's four corners in image pixels, clockwise from top-left.
    """

    pos: Pos
    tile: Tile
    color_confidence: float
    shape_confidence: float
    center_xy: PointXY
    corners_xy: tuple[PointXY, PointXY, PointXY, PointXY]
    alternatives: tuple[tuple[Tile, float], ...] = ()

    @property
    def confidence(self) -> float:
        """Confidence of the whole reading: the weaker of colour and shape."""
        return min(self.color_confidence, self.shape_confidence)

    @property
    def readings(self) -> tuple[Tile, ...]:
        """The best reading followed by the alternatives, best first."""
        return (self.tile, *(t for t, _ in self.alternatives))


@dataclass(frozen=True, slots=True)
class Lattice:
    """The tiles' grid as seen in the image.

    Attributes:
        pitch_px: distance between neighbouring cell centres, image pixels (median over the
            board; varies across an oblique view).
        angle_deg: direction of the lattice's +col axis in the image, degrees in [0, 90).
        image_from_grid: 3x3 homography mapping homogeneous ``(col, row, 1)`` grid coordinates
            (cell centres at integers) to homogeneous image ``(x, y, 1)``.
    """

    pitch_px: float
    angle_deg: float
    image_from_grid: Matrix3

    def to_image(self, row: float, col: float) -> PointXY:
        """Image ``(x, y)`` of a (fractional) grid point."""
        return apply_homography(self.image_from_grid, col, row)

    def to_grid(self, x: float, y: float) -> tuple[float, float]:
        """Fractional ``(row, col)`` of an image point (inverse of :meth:`to_image`).

        Raises:
            ValueError: a singular lattice homography.
        """
        c, r = apply_homography(invert_homography(self.image_from_grid), x, y)
        return (r, c)


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything vision read from one image.

    Attributes:
        tiles: the tiles seen, in no particular order.
        lattice: the grid they sit on, or None when fewer than one tile was found.
        image_size: ``(width, height)`` of the input image, pixels.
        unseen: lattice cells that are (or may be) covered, e.g. by a hand: never guessed.
        occluded_fraction: share of the board's area hidden by non-table objects, in [0, 1].
        blur: sharpness signal (variance of the Laplacian on the tile tops; low = blurred).
        elapsed_ms: time spent on the decoded image (reading excluded), milliseconds.
        palette: colour names the classification used, in palette order.
        rule_changes: readings the rules of Qwirkle settled, as ``(cell, camera's best
            reading, reading returned)``: the camera was unsure and its runner-up makes the
            tile's lines legal (:mod:`vision.rulecheck`); the camera's reading stays among
            that tile's alternatives.
    """

    tiles: tuple[TileObservation, ...]
    lattice: Lattice | None
    image_size: tuple[int, int]
    unseen: tuple[Pos, ...] = ()
    occluded_fraction: float = 0.0
    blur: float = 0.0
    elapsed_ms: float = 0.0
    palette: tuple[str, ...] = ()
    rule_changes: tuple[tuple[Pos, Tile, Tile], ...] = ()
    debug: dict[str, object] | None = field(default=None, compare=False, repr=False)

    def board(self) -> Board:
        """The best readings as a :class:`Board` (positions may include impossible states)."""
        return Board((t.pos, t.tile) for t in self.tiles)

    def readings(self) -> dict[Pos, tuple[Tile, ...]]:
        """Per cell, the candidate tiles best first (for :func:`scorer.infer.infer_move`)."""
        return {t.pos: t.readings for t in self.tiles}

    @staticmethod
    def from_tiles(tiles: Sequence[TileObservation], image_size: tuple[int, int]) -> Observation:
        """A minimal observation (no lattice) from tiles, e.g. for tests of tracking."""
        return Observation(tiles=tuple(tiles), lattice=None, image_size=image_size)
