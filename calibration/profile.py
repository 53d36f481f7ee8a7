"""Tile-set profiles: the palette (colour names and references), and room for geometry.

INTERFACES.md ("Profile") promises two simple JSON forms that must keep working::

    {"palette": ["red", "orange", "yellow", "green", "blue", "white"]}     # built-in names
    {"palette": {"red": "#d23a2c", "teal": "#1f9e9a", ...}}               # explicit sRGB

The calibration tools (issue "Calibration") extend this file with a versioned, richer form
(CIELAB references with spread, white balance, table homography, lens distortion). Readers must
accept all three; unknown keys are ignored.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorer.model import CLASSIC_COLORS, check_color

__all__ = [
    "NAMED_COLORS",
    "Palette",
    "Profile",
    "ProfileError",
    "hex_to_rgb",
    "load_profile",
    "srgb_to_lab",
]

#: Built-in references (sRGB hex) for colour names, chosen near the printed paints of common
#: Qwirkle editions photographed under daylight. Names are the vocabulary of RULES.md.
NAMED_COLORS: dict[str, str] = {
    "red": "#d0312d",
    "orange": "#f07f22",
    "yellow": "#f5d327",
    "green": "#3ba845",
    "blue": "#2a6fc4",
    "purple": "#7d4aa6",
    "white": "#f0f0ec",
    "black": "#202020",
    "pink": "#ec79b0",
    "brown": "#7b4a2a",
    "grey": "#8e8e8e",
}


class ProfileError(ValueError):
    """A profile file or object that cannot be used; the message names the file and field."""


def hex_to_rgb(text: str) -> tuple[int, int, int]:
    """``"#d23a2c"`` -> ``(210, 58, 44)`` (sRGB, 0..255).

    Raises:
        ProfileError: not a ``#rrggbb`` string.
    """
    t = text.strip().lstrip("#")
    if len(t) != 6:
        raise ProfileError(f"invalid colour {text!r} (expected '#rrggbb')")
    try:
        return (int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16))
    except ValueError:
        raise ProfileError(f"invalid colour {text!r} (expected '#rrggbb')") from None


def srgb_to_lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIELAB (D65, L in 0..100) of an sRGB colour given as 0..255 floats.

    Source: IEC 61966-2-1 (sRGB transfer), CIE 15:2004 (XYZ -> L*a*b*).
    """

    def lin(c: float) -> float:
        c = c / 255.0
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return math.copysign(abs(t) ** (1 / 3), t) if t > 216 / 24389 else (841 / 108) * t + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


@dataclass(frozen=True)
class Palette:
    """The colours of a tile set: names in order, each with an sRGB and a CIELAB reference.

    Attributes:
        names: colour names, lower case (RULES.md vocabulary), usually six.
        rgb: per name, the sRGB reference ``(r, g, b)`` 0..255.
        lab: per name, CIELAB ``(L, a, b)`` of the reference.
        spread: per name, an optional CIELAB standard deviation learned by calibration.
    """

    names: tuple[str, ...]
    rgb: Mapping[str, tuple[int, int, int]]
    lab: Mapping[str, tuple[float, float, float]]
    spread: Mapping[str, tuple[float, float, float]] = field(default_factory=dict)

    @classmethod
    def from_names(cls, names: list[str] | tuple[str, ...]) -> Palette:
        """A palette of built-in names (:data:`NAMED_COLORS`).

        Raises:
            ProfileError: an unknown name or a duplicate.
        """
        return cls.from_hex({n: _named(n) for n in _unique(names)})

    @classmethod
    def from_hex(cls, refs: Mapping[str, str]) -> Palette:
        """A palette from ``{name: "#rrggbb"}``.

        Raises:
            ProfileError: an invalid name or colour.
        """
        if not refs:
            raise ProfileError("palette is empty")
        rgb: dict[str, tuple[int, int, int]] = {}
        for name, hx in refs.items():
            try:
                check_color(name)
            except ValueError as e:
                raise ProfileError(f"palette: {e}") from None
            if not isinstance(hx, str):
                raise ProfileError(f"palette.{name}: expected '#rrggbb', got {hx!r}")
            rgb[name] = hex_to_rgb(hx)
        lab = {n: srgb_to_lab(tuple(float(v) for v in c)) for n, c in rgb.items()}  # type: ignore[arg-type]
        return cls(names=tuple(rgb), rgb=rgb, lab=lab)

    @classmethod
    def classic(cls) -> Palette:
        """The classic six: red, orange, yellow, green, blue, purple."""
        return cls.from_names(list(CLASSIC_COLORS))


def _named(name: str) -> str:
    if name not in NAMED_COLORS:
        known = ", ".join(NAMED_COLORS)
        raise ProfileError(f"palette: unknown colour name {name!r} (built-in names: {known})")
    return NAMED_COLORS[name]


def _unique(names: list[str] | tuple[str, ...]) -> list[str]:
    if not isinstance(names, (list, tuple)) or not names:
        raise ProfileError("palette: expected a non-empty list of colour names")
    seen: list[str] = []
    for n in names:
        if not isinstance(n, str):
            raise ProfileError(f"palette: expected colour names, got {n!r}")
        if n in seen:
            raise ProfileError(f"palette: duplicate colour {n!r}")
        seen.append(n)
    return seen


@dataclass(frozen=True)
class Profile:
    """Everything known about one table, light and tile set.

    Attributes:
        palette: the tile set's colours.
        extra: every other key of the profile file, kept verbatim for the calibration tools
            (white balance, geometry, lens) and written back unchanged.
    """

    palette: Palette = field(default_factory=Palette.classic)
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "profile") -> Profile:
        """A profile from parsed JSON (any of the documented forms).

        Raises:
            ProfileError: with ``source`` and the offending field in the message.
        """
        if not isinstance(data, Mapping):
            raise ProfileError(f"{source}: expected a JSON object")
        pal = data.get("palette")
        try:
            if pal is None:
                palette = Palette.classic()
            elif isinstance(pal, list):
                palette = Palette.from_names(pal)
            elif isinstance(pal, Mapping):
                palette = Palette.from_hex(pal)
            else:
                raise ProfileError("palette: expected a list of names or an object of '#rrggbb'")
        except ProfileError as e:
            raise ProfileError(f"{source}: {e}") from None
        return cls(palette=palette, extra={k: v for k, v in data.items() if k != "palette"})


def load_profile(path: str | Path | None) -> Profile:
    """Read a profile JSON file; ``None`` gives the default (classic palette).

    Raises:
        ProfileError: unreadable file, malformed JSON or an invalid field; the message names
            the file.
    """
    if path is None:
        return Profile()
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise ProfileError(f"{p}: cannot read profile ({e.strerror or e})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ProfileError(f"{p}: malformed JSON ({e})") from None
    return Profile.from_dict(data, source=str(p))
