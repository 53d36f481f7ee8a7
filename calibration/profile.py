"""Tile-set profiles: the palette (colour names and references), white balance, geometry, lens.

INTERFACES.md ("Profile") promises two simple JSON forms that must keep working::

    {"palette": ["red", "orange", "yellow", "green", "blue", "white"]}     # built-in names
    {"palette": {"red": "#d23a2c", "teal": "#1f9e9a", ...}}               # explicit sRGB

The calibration tools (issue 6) write a third, versioned form, ``tabletally-profile/1``::

    {"format": "tabletally-profile/1",
     "palette": [{"name": "red", "rgb": "#c4392e", "lab": [44.1, 55.0, 38.2],
                  "spread": [2.1, 3.0, 2.7], "samples": 812}, ...],
     "white_balance": {"gains": [1.31, 1.0, 0.62], "source": "palette-fit"},
     "geometry": {"table_from_image": [[...], [...], [...]], "units": "mm",
                  "table_size": [600.0, 400.0], "tile_pitch": 30.0,
                  "image_size": [1280, 720], "source": "markers"},
     "lens": {"camera_matrix": [[...], [...], [...]], "distortion": [k1, k2, p1, p2, k3],
              "image_size": [1280, 720], "rms_px": 0.31}}

Readers accept all three forms; ``white_balance``, ``geometry`` and ``lens`` are optional in
every form; unknown keys are kept in :attr:`Profile.extra` and written back unchanged.

How a detector uses a calibrated profile (the contract with ``vision.detect``):

1. ``image = profile.lens.undistort(image_bgr)`` when :attr:`Profile.lens` is set (optional).
2. ``image = profile.correct_colours(image_bgr)``: applies :attr:`Profile.white_balance` (the
   identity when there is none). :attr:`Palette.lab` references live in this corrected space.
3. Measure the CIELAB of a tile's symbol pixels (:func:`srgb_to_lab`, or OpenCV's
   ``COLOR_BGR2LAB`` on float32 0..1 input, which gives the same D65 L*a*b*) and pick the nearest
   reference: :meth:`Palette.nearest` (ΔE76; ``spread`` is the per-axis standard deviation of the
   calibration samples, a natural scale for confidence and outlier tests).
4. :attr:`Profile.geometry` (optional) maps image points to the table plane
   (:meth:`Geometry.image_to_table`); ``tile_pitch`` is the lattice pitch in table units.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorer.model import CLASSIC_COLORS, check_color

if TYPE_CHECKING:  # numpy only for type hints; the module itself stays light
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "NAMED_COLORS",
    "PROFILE_FORMAT",
    "Geometry",
    "Lens",
    "Palette",
    "Profile",
    "ProfileError",
    "WhiteBalance",
    "apply_homography",
    "hex_to_rgb",
    "invert_homography",
    "lab_to_srgb",
    "load_profile",
    "rgb_to_hex",
    "save_profile",
    "srgb_to_lab",
]

#: The ``format`` value of the versioned profile written by the calibration tools.
PROFILE_FORMAT = "tabletally-profile/1"

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

Matrix3 = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]
Vec3 = tuple[float, float, float]


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


def rgb_to_hex(rgb: Sequence[int]) -> str:
    """``(210, 58, 44)`` -> ``"#d23a2c"`` (values clipped to 0..255)."""
    r, g, b = (max(0, min(255, int(v))) for v in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"


# sRGB (IEC 61966-2-1) <-> XYZ (D65) matrices, as in the forward direction below.
_M_RGB_XYZ = (
    (0.4124564, 0.3575761, 0.1804375),
    (0.2126729, 0.7151522, 0.0721750),
    (0.0193339, 0.1191920, 0.9503041),
)
_M_XYZ_RGB = (
    (3.2404542, -1.5371385, -0.4985314),
    (-0.9692660, 1.8760108, 0.0415560),
    (0.0556434, -0.2040259, 1.0572252),
)
_WHITE_D65 = (0.95047, 1.0, 1.08883)


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


def lab_to_srgb(lab: tuple[float, float, float]) -> tuple[int, int, int]:
    """The sRGB colour (0..255 ints, clipped to the gamut) of a CIELAB (D65) colour.

    Inverse of :func:`srgb_to_lab` up to rounding. Source: CIE 15:2004, IEC 61966-2-1.
    """
    l_, a, b = lab
    fy = (l_ + 16) / 116
    fx = fy + a / 500
    fz = fy - b / 200

    def finv(t: float) -> float:
        return t**3 if t > 6 / 29 else 3 * (6 / 29) ** 2 * (t - 4 / 29)

    xyz = (finv(fx) * _WHITE_D65[0], finv(fy) * _WHITE_D65[1], finv(fz) * _WHITE_D65[2])

    def enc(c: float) -> int:
        c = max(0.0, min(1.0, c))
        v = 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
        return max(0, min(255, round(v * 255)))

    rgb = [sum(m * x for m, x in zip(row, xyz, strict=True)) for row in _M_XYZ_RGB]
    return (enc(rgb[0]), enc(rgb[1]), enc(rgb[2]))


# ----------------------------------------------------------------------------------- palette
@dataclass(frozen=True)
class Palette:
    """The colours of a tile set: names in order, each with an sRGB and a CIELAB reference.

    Attributes:
        names: colour names, lower case (RULES.md vocabulary), usually six.
        rgb: per name, the sRGB reference ``(r, g, b)`` 0..255 (for a calibrated palette: the
            sRGB rendering of the learned ``lab``, for display).
        lab: per name, CIELAB ``(L, a, b)`` of the reference (for a calibrated palette: the
            median of the clean symbol pixels seen under the calibration light, in the space of
            :meth:`Profile.correct_colours`).
        spread: per name, an optional CIELAB standard deviation ``(σL, σa, σb)`` learned by
            calibration (robust: 1.4826 × median absolute deviation); empty for the simple forms.
        samples: per name, how many clean pixels calibration measured (empty when not learned).
    """

    names: tuple[str, ...]
    rgb: Mapping[str, tuple[int, int, int]]
    lab: Mapping[str, tuple[float, float, float]]
    spread: Mapping[str, tuple[float, float, float]] = field(default_factory=dict)
    samples: Mapping[str, int] = field(default_factory=dict)

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
    def from_lab(
        cls,
        lab: Mapping[str, Sequence[float]],
        spread: Mapping[str, Sequence[float]] | None = None,
        samples: Mapping[str, int] | None = None,
    ) -> Palette:
        """A palette of learned CIELAB references (names in ``lab``'s order); ``rgb`` derived.

        Raises:
            ProfileError: an invalid name, or a reference that is not three finite numbers.
        """
        if not lab:
            raise ProfileError("palette is empty")
        labs: dict[str, Vec3] = {}
        for name, v in lab.items():
            try:
                check_color(name)
            except ValueError as e:
                raise ProfileError(f"palette: {e}") from None
            labs[name] = _vec3(v, f"palette.{name}.lab")
        spreads = {n: _vec3(v, f"palette.{n}.spread") for n, v in (spread or {}).items()}
        return cls(
            names=tuple(labs),
            rgb={n: lab_to_srgb(v) for n, v in labs.items()},
            lab=labs,
            spread=spreads,
            samples=dict(samples or {}),
        )

    @classmethod
    def classic(cls) -> Palette:
        """The classic six: red, orange, yellow, green, blue, purple."""
        return cls.from_names(list(CLASSIC_COLORS))

    @property
    def calibrated(self) -> bool:
        """True when every colour has a learned spread (the palette came from calibration)."""
        return bool(self.names) and all(n in self.spread for n in self.names)

    def nearest(self, lab: Sequence[float]) -> tuple[str, float, float]:
        """The closest reference to one CIELAB colour: ``(name, ΔE76, margin)``.

        ``margin`` is the runner-up's ΔE minus the winner's (0 for a one-colour palette); a small
        margin means an ambiguous reading. For arrays use ``calibration.colour.classify_lab``.
        """
        d = sorted((math.dist(lab, self.lab[n]), n) for n in self.names)
        margin = d[1][0] - d[0][0] if len(d) > 1 else 0.0
        return d[0][1], d[0][0], margin

    def to_json(self) -> list[dict[str, Any]]:
        """The versioned form: ``[{"name", "rgb", "lab", "spread"?, "samples"?}, ...]``."""
        out: list[dict[str, Any]] = []
        for n in self.names:
            item: dict[str, Any] = {
                "name": n,
                "rgb": rgb_to_hex(self.rgb[n]),
                "lab": list(self.lab[n]),
            }
            if n in self.spread:
                item["spread"] = list(self.spread[n])
            if n in self.samples:
                item["samples"] = int(self.samples[n])
            out.append(item)
        return out

    @classmethod
    def from_json(cls, items: Any) -> Palette:
        """Inverse of :meth:`to_json` (``lab`` wins over ``rgb``; either may be omitted).

        Raises:
            ProfileError: naming ``palette[i].field``.
        """
        if not isinstance(items, list) or not items:
            raise ProfileError("palette: expected a non-empty list")
        names: list[str] = []
        rgb: dict[str, tuple[int, int, int]] = {}
        lab: dict[str, Vec3] = {}
        spread: dict[str, Vec3] = {}
        samples: dict[str, int] = {}
        for i, item in enumerate(items):
            where = f"palette[{i}]"
            if isinstance(item, str):  # a bare built-in name inside the versioned form
                item = {"name": item}
            if not isinstance(item, Mapping):
                raise ProfileError(f"{where}: expected an object with 'name' and 'lab'")
            name = item.get("name")
            if not isinstance(name, str):
                raise ProfileError(f"{where}.name: expected a colour name, got {name!r}")
            try:
                check_color(name)
            except ValueError as e:
                raise ProfileError(f"{where}.name: {e}") from None
            if name in names:
                raise ProfileError(f"{where}.name: duplicate colour {name!r}")
            names.append(name)
            if "rgb" in item:
                if not isinstance(item["rgb"], str):
                    raise ProfileError(f"{where}.rgb: expected '#rrggbb'")
                try:
                    rgb[name] = hex_to_rgb(item["rgb"])
                except ProfileError as e:
                    raise ProfileError(f"{where}.rgb: {e}") from None
            if "lab" in item:
                lab[name] = _vec3(item["lab"], f"{where}.lab")
            elif name in rgb:
                lab[name] = srgb_to_lab(tuple(float(v) for v in rgb[name]))  # type: ignore[arg-type]
            elif name in NAMED_COLORS:
                rgb[name] = hex_to_rgb(NAMED_COLORS[name])
                lab[name] = srgb_to_lab(tuple(float(v) for v in rgb[name]))  # type: ignore[arg-type]
            else:
                raise ProfileError(f"{where}: {name!r} needs 'lab' or 'rgb'")
            rgb.setdefault(name, lab_to_srgb(lab[name]))
            if "spread" in item:
                s = _vec3(item["spread"], f"{where}.spread")
                if min(s) < 0:
                    raise ProfileError(f"{where}.spread: must be >= 0")
                spread[name] = s
            if "samples" in item:
                k = item["samples"]
                if not isinstance(k, int) or isinstance(k, bool) or k < 0:
                    raise ProfileError(f"{where}.samples: expected a count >= 0")
                samples[name] = k
        return cls(names=tuple(names), rgb=rgb, lab=lab, spread=spread, samples=samples)


def _vec3(v: Any, where: str) -> Vec3:
    if (
        not isinstance(v, (list, tuple))
        or len(v) != 3
        or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)
        or not all(math.isfinite(x) for x in v)
    ):
        raise ProfileError(f"{where}: expected three finite numbers, got {v!r}")
    return (float(v[0]), float(v[1]), float(v[2]))


def _matrix3(v: Any, where: str) -> Matrix3:
    if not isinstance(v, (list, tuple)) or len(v) != 3:
        raise ProfileError(f"{where}: expected a 3x3 matrix (three rows of three numbers)")
    rows = tuple(_vec3(r, f"{where}[{i}]") for i, r in enumerate(v))
    return (rows[0], rows[1], rows[2])


def _pair(v: Any, where: str, *, integer: bool = False) -> Any:
    ok = isinstance(v, (list, tuple)) and len(v) == 2
    if ok:
        for x in v:
            bad_type = isinstance(x, bool) or not isinstance(x, (int, float))
            if bad_type or not math.isfinite(x) or x <= 0 or (integer and not isinstance(x, int)):
                ok = False
    if not ok:
        kind = "two positive integers" if integer else "two positive numbers"
        raise ProfileError(f"{where}: expected {kind}, got {v!r}")
    return (int(v[0]), int(v[1])) if integer else (float(v[0]), float(v[1]))


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


# ----------------------------------------------------------------------------- white balance
@dataclass(frozen=True)
class WhiteBalance:
    """Per-channel gains on *linear* sRGB that undo the light's colour cast.

    ``corrected_lin[c] = gains[c] * observed_lin[c]`` for ``c`` in (r, g, b), then re-encoded
    to 8-bit sRGB (a von Kries-style diagonal correction; source: von Kries 1902, as used by
    camera white balance). The gains are fitted by calibration so the calibration tiles' colours
    come as close as possible to the palette's daylight references.

    Attributes:
        gains: ``(r, g, b)`` multipliers, > 0, normalised so green is 1.0 unless the light was
            also too dim/bright (then all three scale).
        source: how the gains were found (``"palette-fit"``, ``"manual"``...).
    """

    gains: Vec3 = (1.0, 1.0, 1.0)
    source: str = "manual"

    def apply(self, image_bgr: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """A corrected copy of ``image_bgr : (H, W, 3) uint8`` (input unchanged).

        Uses one 256-entry lookup table per channel (exact for 8-bit input; fast).
        """
        import cv2
        import numpy as np

        v = np.arange(256, dtype=np.float64) / 255.0
        lin = np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)
        chans = []
        for k, g in zip((2, 1, 0), self.gains, strict=True):  # BGR order: b uses gains[2]
            c = np.clip(lin * g, 0.0, 1.0)
            enc = np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)
            lut = np.clip(np.rint(enc * 255), 0, 255).astype(np.uint8)
            chans.append((k, lut))
        out = np.empty_like(image_bgr)
        for k, lut in chans:
            out[..., k] = cv2.LUT(np.ascontiguousarray(image_bgr[..., k]), lut)
        return out

    def apply_rgb(self, rgb: Sequence[float]) -> tuple[float, float, float]:
        """One sRGB colour (0..255 floats) corrected; not clipped above 255 before encoding."""

        def lin(c: float) -> float:
            c = c / 255.0
            return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

        def enc(c: float) -> float:
            c = max(0.0, min(1.0, c))
            return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)

        r, g, b = (enc(lin(float(v)) * k) for v, k in zip(rgb, self.gains, strict=True))
        return (r, g, b)

    def to_json(self) -> dict[str, Any]:
        return {"gains": list(self.gains), "source": self.source}

    @classmethod
    def from_json(cls, data: Any) -> WhiteBalance:
        """Raises ProfileError naming ``white_balance.gains``."""
        if not isinstance(data, Mapping):
            raise ProfileError("white_balance: expected an object with 'gains'")
        gains = _vec3(data.get("gains"), "white_balance.gains")
        if min(gains) <= 0:
            raise ProfileError("white_balance.gains: every gain must be > 0")
        src = data.get("source", "manual")
        if not isinstance(src, str):
            raise ProfileError("white_balance.source: expected a string")
        return cls(gains=gains, source=src)


# ---------------------------------------------------------------------------------- geometry
def apply_homography(h: Matrix3, x: float, y: float) -> tuple[float, float]:
    """The image of point ``(x, y)`` under the 3x3 homography ``h`` (row-major nested tuples).

    Raises:
        ValueError: the point maps to infinity.
    """
    u = h[0][0] * x + h[0][1] * y + h[0][2]
    v = h[1][0] * x + h[1][1] * y + h[1][2]
    w = h[2][0] * x + h[2][1] * y + h[2][2]
    if w == 0:
        raise ValueError("point maps to infinity under the homography")
    return (u / w, v / w)


def invert_homography(a: Matrix3) -> Matrix3:
    """The inverse of a 3x3 homography, by the adjugate (exact for a well-conditioned matrix).

    Raises:
        ValueError: the matrix is singular.
    """
    det = (
        a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
        - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
        + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
    )
    if det == 0:
        raise ValueError("singular homography")
    return (
        (
            (a[1][1] * a[2][2] - a[1][2] * a[2][1]) / det,
            (a[0][2] * a[2][1] - a[0][1] * a[2][2]) / det,
            (a[0][1] * a[1][2] - a[0][2] * a[1][1]) / det,
        ),
        (
            (a[1][2] * a[2][0] - a[1][0] * a[2][2]) / det,
            (a[0][0] * a[2][2] - a[0][2] * a[2][0]) / det,
            (a[0][2] * a[1][0] - a[0][0] * a[1][2]) / det,
        ),
        (
            (a[1][0] * a[2][1] - a[1][1] * a[2][0]) / det,
            (a[0][1] * a[2][0] - a[0][0] * a[2][1]) / det,
            (a[0][0] * a[1][1] - a[0][1] * a[1][0]) / det,
        ),
    )


@dataclass(frozen=True)
class Geometry:
    """The table plane as seen by a fixed camera.

    Attributes:
        table_from_image: 3x3 homography mapping homogeneous image ``(x, y, 1)`` pixels to the
            top-down table plane ``(X, Y, 1)`` in ``units``; the origin is the top-left marker
            (or first clicked corner), +X towards the top-right one, +Y towards the bottom-left.
        units: table-plane unit, ``"mm"`` when the marker distances were given, else
            ``"table"`` (the marked rectangle is 1000 × 1000).
        table_size: ``(width, height)`` of the marked rectangle in ``units``.
        tile_pitch: centre-to-centre distance of neighbouring tiles in ``units``, or None.
        image_size: ``(width, height)`` of the calibration image in pixels, or None.
        source: ``"markers"`` (ArUco) or ``"corners"`` (clicked in the wizard).
    """

    table_from_image: Matrix3
    units: str = "mm"
    table_size: tuple[float, float] | None = None
    tile_pitch: float | None = None
    image_size: tuple[int, int] | None = None
    source: str = "markers"

    @property
    def image_from_table(self) -> Matrix3:
        """The inverse homography (table plane -> image pixels)."""
        return invert_homography(self.table_from_image)

    def image_to_table(self, x: float, y: float) -> tuple[float, float]:
        """Table-plane ``(X, Y)`` of an image pixel ``(x, y)``."""
        return apply_homography(self.table_from_image, x, y)

    def table_to_image(self, tx: float, ty: float) -> tuple[float, float]:
        """Image ``(x, y)`` of a table-plane point."""
        return apply_homography(self.image_from_table, tx, ty)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "table_from_image": [list(r) for r in self.table_from_image],
            "units": self.units,
            "source": self.source,
        }
        if self.table_size is not None:
            out["table_size"] = list(self.table_size)
        if self.tile_pitch is not None:
            out["tile_pitch"] = self.tile_pitch
        if self.image_size is not None:
            out["image_size"] = list(self.image_size)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Geometry:
        """Raises ProfileError naming ``geometry.<field>``."""
        if not isinstance(data, Mapping):
            raise ProfileError("geometry: expected an object with 'table_from_image'")
        h = _matrix3(data.get("table_from_image"), "geometry.table_from_image")
        try:
            invert_homography(h)
        except ValueError:
            raise ProfileError("geometry.table_from_image: singular matrix") from None
        units = data.get("units", "mm")
        src = data.get("source", "markers")
        if not isinstance(units, str) or not isinstance(src, str):
            raise ProfileError("geometry: 'units' and 'source' must be strings")
        size = data.get("table_size")
        pitch = data.get("tile_pitch")
        if pitch is not None and (
            isinstance(pitch, bool)
            or not isinstance(pitch, (int, float))
            or not math.isfinite(pitch)
            or pitch <= 0
        ):
            raise ProfileError(f"geometry.tile_pitch: expected a positive number, got {pitch!r}")
        img = data.get("image_size")
        return cls(
            table_from_image=h,
            units=units,
            table_size=None if size is None else _pair(size, "geometry.table_size"),
            tile_pitch=None if pitch is None else float(pitch),
            image_size=None if img is None else _pair(img, "geometry.image_size", integer=True),
            source=src,
        )


@dataclass(frozen=True)
class Lens:
    """Pinhole camera with radial/tangential distortion (OpenCV's model).

    Source: Zhang 2000, "A flexible new technique for camera calibration"; OpenCV
    ``calibrateCamera`` (distortion order ``k1, k2, p1, p2, k3``).

    Attributes:
        camera_matrix: 3x3 intrinsics ``[[fx, 0, cx], [0, fy, cy], [0, 0, 1]]`` in pixels.
        distortion: OpenCV distortion coefficients (4, 5, 8, 12 or 14 numbers).
        image_size: ``(width, height)`` the intrinsics belong to, pixels.
        rms_px: RMS reprojection error of the calibration, pixels.
    """

    camera_matrix: Matrix3
    distortion: tuple[float, ...]
    image_size: tuple[int, int]
    rms_px: float = 0.0

    def undistort(self, image_bgr: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """An undistorted copy of ``image_bgr : (H, W, 3) uint8`` (same size, same matrix).

        Raises:
            ValueError: the image size differs from :attr:`image_size`.
        """
        import cv2
        import numpy as np

        h, w = image_bgr.shape[:2]
        if (w, h) != tuple(self.image_size):
            raise ValueError(
                f"image is {w}x{h} but the lens was calibrated at "
                f"{self.image_size[0]}x{self.image_size[1]}"
            )
        k = np.array(self.camera_matrix, dtype=np.float64)
        d = np.array(self.distortion, dtype=np.float64)
        return np.asarray(cv2.undistort(image_bgr, k, d), dtype=np.uint8)

    def to_json(self) -> dict[str, Any]:
        return {
            "camera_matrix": [list(r) for r in self.camera_matrix],
            "distortion": list(self.distortion),
            "image_size": list(self.image_size),
            "rms_px": self.rms_px,
        }

    @classmethod
    def from_json(cls, data: Any) -> Lens:
        """Raises ProfileError naming ``lens.<field>``."""
        if not isinstance(data, Mapping):
            raise ProfileError("lens: expected an object with 'camera_matrix' and 'distortion'")
        k = _matrix3(data.get("camera_matrix"), "lens.camera_matrix")
        d = data.get("distortion")
        if (
            not isinstance(d, list)
            or len(d) not in (4, 5, 8, 12, 14)
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in d)
            or not all(math.isfinite(x) for x in d)
        ):
            raise ProfileError("lens.distortion: expected 4, 5, 8, 12 or 14 finite numbers")
        rms = data.get("rms_px", 0.0)
        if isinstance(rms, bool) or not isinstance(rms, (int, float)) or rms < 0:
            raise ProfileError("lens.rms_px: expected a number >= 0")
        return cls(
            camera_matrix=k,
            distortion=tuple(float(x) for x in d),
            image_size=_pair(data.get("image_size"), "lens.image_size", integer=True),
            rms_px=float(rms),
        )


# ----------------------------------------------------------------------------------- profile
_KNOWN_KEYS = ("format", "palette", "white_balance", "geometry", "lens")


@dataclass(frozen=True)
class Profile:
    """Everything known about one table, light and tile set.

    Attributes:
        palette: the tile set's colours.
        extra: every other key of the profile file, kept verbatim and written back unchanged.
        white_balance: light-cast correction, or None (no correction).
        geometry: table homography and tile pitch, or None (vision uses the tiles' own lattice).
        lens: camera intrinsics and distortion, or None (no undistortion).
    """

    palette: Palette = field(default_factory=Palette.classic)
    extra: Mapping[str, Any] = field(default_factory=dict)
    white_balance: WhiteBalance | None = None
    geometry: Geometry | None = None
    lens: Lens | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "profile") -> Profile:
        """A profile from parsed JSON (any of the documented forms).

        Raises:
            ProfileError: with ``source`` and the offending field in the message.
        """
        if not isinstance(data, Mapping):
            raise ProfileError(f"{source}: expected a JSON object")
        fmt = data.get("format")
        if fmt is not None and fmt != PROFILE_FORMAT:
            raise ProfileError(
                f"{source}: format: unsupported {fmt!r} (this version reads {PROFILE_FORMAT!r})"
            )
        pal = data.get("palette")
        try:
            if pal is None:
                palette = Palette.classic()
            elif isinstance(pal, list) and all(isinstance(p, str) for p in pal):
                palette = Palette.from_names(pal)
            elif isinstance(pal, list):
                palette = Palette.from_json(pal)
            elif isinstance(pal, Mapping) and all(isinstance(v, Mapping) for v in pal.values()):
                palette = Palette.from_json([{"name": k, **v} for k, v in pal.items()])
            elif isinstance(pal, Mapping):
                palette = Palette.from_hex(pal)
            else:
                raise ProfileError("palette: expected a list of names or an object of '#rrggbb'")
            wb = data.get("white_balance")
            geo = data.get("geometry")
            lens = data.get("lens")
            return cls(
                palette=palette,
                extra={k: v for k, v in data.items() if k not in _KNOWN_KEYS},
                white_balance=None if wb is None else WhiteBalance.from_json(wb),
                geometry=None if geo is None else Geometry.from_json(geo),
                lens=None if lens is None else Lens.from_json(lens),
            )
        except ProfileError as e:
            raise ProfileError(f"{source}: {e}") from None

    def to_dict(self) -> dict[str, Any]:
        """The ``tabletally-profile/1`` object; :meth:`from_dict` reads it back exactly."""
        out: dict[str, Any] = {"format": PROFILE_FORMAT, "palette": self.palette.to_json()}
        if self.white_balance is not None:
            out["white_balance"] = self.white_balance.to_json()
        if self.geometry is not None:
            out["geometry"] = self.geometry.to_json()
        if self.lens is not None:
            out["lens"] = self.lens.to_json()
        for k, v in self.extra.items():
            if k not in out:
                out[k] = v
        return out

    def correct_colours(self, image_bgr: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """``image_bgr`` with :attr:`white_balance` applied (the input itself when there is none).

        :attr:`Palette.lab` references are in this corrected space.
        """
        return image_bgr if self.white_balance is None else self.white_balance.apply(image_bgr)

    def with_(self, **changes: Any) -> Profile:
        """A copy with some fields replaced (``palette=``, ``white_balance=``, ``geometry=``...)."""
        from dataclasses import replace

        return replace(self, **changes)


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
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ProfileError(f"{p}: cannot read profile ({e.strerror or e})") from None
    except UnicodeDecodeError as e:
        raise ProfileError(f"{p}: malformed JSON ({e})") from None
    except ValueError as e:  # a name no file can have (an embedded NUL byte)
        raise ProfileError(f"{p!r}: cannot read profile ({e})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ProfileError(f"{p}: malformed JSON ({e})") from None
    return Profile.from_dict(data, source=str(p))


def save_profile(profile: Profile, path: str | Path) -> Path:
    """Write ``profile`` as ``tabletally-profile/1`` JSON, atomically (temp file + rename).

    An existing file is replaced only once the new one is completely written, so a crash never
    leaves a half-written profile. Returns the path.

    Raises:
        ProfileError: the directory is missing or not writable.
    """
    p = Path(path)
    text = json.dumps(profile.to_dict(), indent=2, allow_nan=False) + "\n"
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent or ".")
    except OSError as e:
        raise ProfileError(f"{p}: cannot write profile ({e.strerror or e})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise ProfileError(f"{p}: cannot write profile ({e.strerror or e})") from None
    return p
