"""Pure-Python Qwirkle rules, game model and scoring. Imports neither cv2 nor numpy."""

from scorer.model import (
    CLASSIC_COLORS,
    COLOR_LETTERS,
    Board,
    NotationError,
    Placement,
    Pos,
    Shape,
    Tile,
)

__all__ = [
    "CLASSIC_COLORS",
    "COLOR_LETTERS",
    "Board",
    "NotationError",
    "Placement",
    "Pos",
    "Shape",
    "Tile",
]
