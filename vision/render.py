"""A photo-like synthetic renderer of Qwirkle tiles on tables (deterministic by seed).

The renderer is a small physical model, not a drawing of a diagram:

- **Geometry.** A pinhole camera (horizontal field of view ``fov_deg``) looks at the table from
  ``tilt_deg`` off vertical at any rotation ``yaw_deg`` about the vertical. World coordinates are
  millimetres ``(X, Y, Z)`` with ``X`` along the board's ``+col`` axis, ``Y`` along ``+row`` and
  ``Z`` pointing *down* into the table (the table is ``Z = 0``; a tile top is ``Z = -thickness``).
  Tiles are solid rounded-corner blocks (``TILE_MM`` wide, ``tile_thickness`` x that thick) laid
  on the integer lattice with a small gap, each turned and pushed off its cell by a few per cent
  of the pitch (hand-laid) but never into a neighbour. Their lit side facets show in oblique
  views; tops are offset from the footprints. Symbols are polygons in tile units.
- **Surfaces.** Tables are textures generated in table millimetres (wood species with planks,
  growth rings and pores, white laminate, dark laminate, cloth weave, felt, gingham checks,
  florals, polka dots, stripes, blotchy prints, a printed grid board), a finite table top with the
  floor beyond its edge, and clutter (score pad, pencil, cup, tile bag, dice, coins, face-down
  spare tiles), warped into the image with the table-plane homography (``cv2.warpPerspective``).
- **Light.** Everything is composed in linear RGB: albedo x illumination (colour temperature
  with a partial camera white balance, an uneven gradient, vignetting, a large soft shadow,
  soft cast shadows of tiles, objects and hands) + specular glare (lamp or window shaped) on
  glossy surfaces (tile tops most, printed symbols less); then the camera: auto exposure and
  grey-world white balance, radial (barrel) lens distortion (``lens_k1``; off unless asked
  for), depth of field, optical/motion blur, lateral chromatic aberration,
  Poisson-Gaussian sensor noise, noise reduction, the sRGB curve, then saturation and
  sharpening on the gamma-encoded image (as a camera's processor does) and JPEG.
- **Occluders.** Hands and forearms (skin tones, sleeves, finger creases), possibly holding a
  tile, above the table cast soft shadows; a tile whose top is more than ``HIDDEN_COVER``
  covered is ``visible=False`` in the truth.

Public API (docs/ARCHITECTURE.md, "vision/"): :class:`Conditions` (+ ``Conditions.sample``),
:data:`PRESETS`, :func:`render` -> :class:`Rendered` (``image_bgr``, ``truth``,
``image_from_grid``), :class:`Scene` for videos of one game (fixed table, camera and light;
``frame(board, hands=..., bump=..., t=...)``), :class:`Hand`, :class:`Bump`,
:func:`truth_observation` (truth as a :class:`vision.observation.Observation`) and
:func:`load_golden` (the stored golden scenes). ``python -m vision.render --help`` renders one
image from the command line.

Determinism: every random choice comes from ``numpy.random.Generator`` streams derived from the
seed with :class:`numpy.random.SeedSequence`; per-tile jitter depends only on ``(seed, pos)`` so a
tile does not move between frames of a :class:`Scene`.

Speed (docs/benchmarks.md): a 1920x1080 frame with 100 tiles takes about 0.6 s of CPU, a 12 MP
one about 2-3 s; :meth:`Scene.frame` reuses the table and camera (about 0.3 s at 1080p).
"""

from __future__ import annotations

import colorsys
import functools
import json
import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, cast, get_args

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.profile import NAMED_COLORS, Palette, hex_to_rgb
from scorer.model import Board, Pos, Shape, Tile
from vision.observation import Lattice, Observation, TileObservation

__all__ = [
    "CLUTTER_RADIUS_MM",
    "DRAWN_SURFACES",
    "GOLDEN_DIR",
    "HIDDEN_COVER",
    "PRESETS",
    "SKIN_TONES",
    "SURFACES",
    "TILE_MM",
    "Bump",
    "Conditions",
    "GoldenScene",
    "Hand",
    "Rendered",
    "Scene",
    "TruthTile",
    "load_golden",
    "render",
    "truth_observation",
]

F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]
PointXY = tuple[float, float]

#: Side of a Qwirkle tile, millimetres (the wooden tiles measure about 32-33 mm square).
TILE_MM = 32.0
#: A tile counts as hidden when more than this share of its top face is covered (task brief).
HIDDEN_COVER = 0.25
#: Sampled optical blur sigma at most this share of the tile width ("mild blur", issue 3).
MAX_BLUR_OF_TILE = 0.05
#: Sampled motion blur length at most this share of the tile width.
MAX_MOTION_OF_TILE = 0.12
#: Neighbouring footprints may overlap by this share of a tile (they look touching; more would
#: be tiles inside each other).
TOUCH_OVERLAP = 0.01
#: A tile counts as hidden when less than this share of its top lies inside the image.
MIN_IN_FRAME = 0.75

Surface = Literal[
    "light_wood",
    "dark_wood",
    "white",
    "cloth",
    "green_felt",
    "checked_cloth",
    "floral_cloth",
    "noise_cloth",
    "printed_grid",
    "dark_laminate",
    "polka_dot_cloth",
    "striped_cloth",
]

#: Table surface kinds understood by :class:`Conditions` ``surface``.
SURFACES: tuple[str, ...] = get_args(Surface)

#: The surfaces :meth:`Conditions.sample` draws from at medium and hard difficulty: every one
#: but the polka dots (added in session 39) and the stripes (session 50), which come by name
#: only, so that every seed of the benchmarks and of the tests pinned to them keeps the scene
#: it had.
DRAWN_SURFACES: tuple[str, ...] = tuple(
    k for k in SURFACES if k not in ("polka_dot_cloth", "striped_cloth")
)

#: A non-standard paint set (name -> sRGB), as a home-made or 3D-printed tile set might have:
#: renders, tests and benchmarks use it to check that nothing assumes the classic colours.
CUSTOM_PAINTS: dict[str, str] = {
    "teal": "#1f9e9a",
    "crimson": "#a3123a",
    "lime": "#9ccc3c",
    "navy": "#243a80",
    "gold": "#d9a521",
    "pink": "#ec79b0",
}

#: Skin tones (sRGB), light to dark, after the Fitzpatrick-like swatches used in graphics.
SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (241, 204, 180),
    (234, 189, 157),
    (224, 172, 130),
    (198, 140, 100),
    (165, 110, 75),
    (125, 80, 52),
    (88, 58, 40),
)


# ----------------------------------------------------------------------------------------------
# Conditions
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Conditions:
    """Everything about the camera, table and light of a render (frozen; defaults = easy).

    Attributes:
        tilt_deg: camera axis angle off vertical, degrees (0 = straight down; brief: up to ~35).
        yaw_deg: camera rotation about the vertical, degrees (any).
        roll_deg: small rotation about the optical axis, degrees.
        fov_deg: horizontal field of view, degrees (phones ~65-75, webcams ~60-80).
        tile_px: wanted tile width in pixels at the board centre (brief: ~25-200). A single
            :func:`render` moves the camera back when the board would not fit the frame.
        center_offset: board centre offset from the image centre, fraction of (W, H).
        surface: table kind, one of :data:`SURFACES`.
        surface_rgb: main sRGB colour of cloth/laminate surfaces (``None`` = drawn from seed).
        kelvin: colour temperature of the light, kelvin (tungsten ~2700, daylight ~5500-6500,
            shade/LED ~7500+).
        wb_correction: how much of the light's cast the camera's white balance removes, 0..1.
        exposure: linear exposure gain (1 = well exposed; 0.3 = dim). Noise grows as it drops
            (higher ISO).
        gradient: unevenness of the light: relative drop across the frame, 0..1.
        gradient_deg: direction of the light gradient in the image, degrees.
        vignette: brightness drop at the image corners, 0..1.
        shadow: darkness of cast shadows (tiles, hands), 0..1.
        light_azimuth_deg, light_elevation_deg: direction of the main light in the table frame
            (sets the direction and length of cast shadows).
        glare: peak strength of specular glare (linear radiance added on glossy surfaces; >1
            clips tile tops to white).
        glare_size: glare spot radius as a fraction of the image diagonal.
        glare_spots: number of glare spots (lamps, windows).
        blur_px: Gaussian optical blur sigma, pixels.
        motion_px: motion blur length, pixels (camera shake or a bumped table).
        noise: sensor read noise: standard deviation in 1/255 of the *linear* full scale at
            exposure 1, times 1/exposure (higher ISO when dim); shot noise grows with the
            signal. The sRGB curve makes it look about 4-8x larger in 8-bit shadows.
        jpeg_quality: JPEG quality 1..100 for the final compression, or ``None`` for none.
        hands: number of random hands/arms over the table (when ``render(hands=None)``).
        tile_rot_deg: maximum turn of a tile from the lattice, degrees (brief: 0-6); a turn needs
            a gap (a turned tile must fit its cell), so small gaps limit it.
        tile_offset: standard deviation of a tile's push off its cell, fraction of the pitch
            (limited by the room left in the cell: tiles never overlap).
        gap: mean gap between neighbouring tiles, fraction of the tile width.
        tile_thickness: tile thickness, fraction of the tile width (Qwirkle blocks ~0.25-0.3).
        tile_gloss: glossiness of the black tile tops, 0..1.
        wear: paint wear/dirt on the symbols, 0..1.
        drift: lighting drift amplitude over time in a :class:`Scene` (exposure and colour), 0..1.
        bump_mm, bump_deg: magnitude of a random table/camera bump (:meth:`Bump.random`).
        sharpen: phone-style unsharp masking strength on the gamma-encoded image (0 = none;
            phones use ~0.3-1).
        saturation: colour saturation gain of the camera's processing (1 = neutral), applied
            to the chroma of the gamma-encoded image (about Rec. 601 luma), as cameras do.
        chroma_px: lateral chromatic aberration at the image corners, pixels (red and blue
            channels scaled about the centre in opposite directions).
        dof_px: extra defocus blur sigma, pixels, at the part of the table farthest (in depth)
            from the focus plane through the board centre (matters in oblique views).
        clutter: number of everyday objects on the table around the board (score pad and
            pencil, cup, the tile bag, dice, coins, spare tiles lying face down).
        shade: darkness 0..1 of a large soft shadow across part of the frame (someone leaning
            over the table, a lamp shade); 1 leaves a quarter of the light in it.
        denoise: strength 0..1 of the camera's noise reduction (phones: strong on colour
            noise, milder on luminance, which smooths fine detail too).
        isp_space: where ``saturation`` and ``sharpen`` act: ``"gamma"`` (default), on the
            gamma-encoded image as a phone's or webcam's image signal processor does;
            ``"linear"``, in linear light as scene-referred raw converters do (and as this
            renderer did before 2026-11-21; tests that keep a scene found then use it).
        table_mm: the table top's size ``(long, short)`` in millimetres, its long side along
            the wood grain; beyond its edges the (far, dark, blurred) floor shows in wide or
            oblique views. ``None`` = a table larger than any view.
        auto_exposure: strength 0..1 of the camera's metering: the exposure moves this fraction
            (in log) toward a frame mean of 18 % grey, so a white table darkens the tiles and a
            dark table brightens (and may clip) them.
        exposure_ev: the camera's exposure bias in stops on top of its metering (``auto_exposure``):
            the sensor gets ``2 ** exposure_ev`` times the light, in linear light before its
            noise, its ceiling (values above 1 clip) and the processing, as an exposure
            compensation or a meter fooled by a dark frame does (0 = none; +1 = one stop
            over: bright paints clip at the sensor, before the tone curve and the JPEG).
        awb: strength 0..1 of a grey-world automatic white balance on the whole frame: a
            coloured cloth tints everything toward its complement (green felt -> magenta).
        lens_k1: radial (barrel) lens distortion, the first coefficient of the Brown-Conrady
            model as OpenCV's camera calibration reports it (``x_d = x (1 + k1 r^2)`` in
            coordinates normalised by the focal length), -0.4..0. 0 = an ideal lens (phones
            correct theirs in the processor: residual |k1| < ~0.02); wide-angle webcams
            calibrate at about -0.1 to -0.35. The image is zoomed so the distorted frame is
            filled (as an undistorted render cannot show what lies beyond its corners), so
            lines bow outward toward the edges and tiles there are drawn smaller. Truth
            positions are distorted the same way; ``Rendered.image_from_grid`` stays the
            ideal lens's homography.
        art: how far the printed symbols' proportions depart from the classic set's, 0..1
            (0 = the classic art of :func:`_symbol_polys`). Editions, printings and
            home-made (3D-printed, laser-cut) sets draw the same six symbols a little
            differently: at 1 each proportion (symbol scale, the diamond's aspect, the
            clover's lobe size and spread, the stars' inner radii and flank bow, the square's
            corner rounding) moves by up to its own bound (10-25 %, :func:`art_symbols`),
            drawn once per scene from its seed. A check that the reader does not lean on the
            exact art of the renderer; the hard benchmark does not sample it (``bench_vision
            --art``).
    """

    tilt_deg: float = 8.0
    yaw_deg: float = 0.0
    roll_deg: float = 0.0
    fov_deg: float = 66.0
    tile_px: float = 60.0
    center_offset: tuple[float, float] = (0.0, 0.0)
    surface: Surface = "light_wood"
    surface_rgb: tuple[int, int, int] | None = None
    kelvin: float = 5500.0
    wb_correction: float = 0.8
    exposure: float = 1.0
    gradient: float = 0.15
    gradient_deg: float = 30.0
    vignette: float = 0.15
    shadow: float = 0.35
    light_azimuth_deg: float = 120.0
    light_elevation_deg: float = 65.0
    glare: float = 0.08
    glare_size: float = 0.15
    glare_spots: int = 1
    blur_px: float = 0.5
    motion_px: float = 0.0
    noise: float = 1.5
    jpeg_quality: int | None = 92
    hands: int = 0
    tile_rot_deg: float = 2.0
    tile_offset: float = 0.015
    gap: float = 0.04
    tile_thickness: float = 0.28
    tile_gloss: float = 0.6
    wear: float = 0.05
    drift: float = 0.0
    bump_mm: float = 0.0
    bump_deg: float = 0.0
    sharpen: float = 0.0
    saturation: float = 1.0
    chroma_px: float = 0.0
    dof_px: float = 0.0
    clutter: int = 0
    auto_exposure: float = 0.0
    exposure_ev: float = 0.0
    awb: float = 0.0
    table_mm: tuple[float, float] | None = (1600.0, 900.0)
    shade: float = 0.0
    denoise: float = 0.0
    isp_space: Literal["gamma", "linear"] = "gamma"
    lens_k1: float = 0.0
    art: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.art <= 1.0:
            raise ValueError(f"art must be in [0, 1] (0 = the classic symbols), got {self.art}")
        if not -0.4 <= self.lens_k1 <= 0.0:
            raise ValueError(
                f"lens_k1 must be in [-0.4, 0] (barrel distortion; 0 = ideal lens), "
                f"got {self.lens_k1}"
            )
        if self.isp_space not in ("gamma", "linear"):
            raise ValueError(f"isp_space must be 'gamma' or 'linear', got {self.isp_space!r}")
        if self.surface not in SURFACES:
            raise ValueError(f"unknown surface {self.surface!r} (expected one of {SURFACES})")
        if not 0.0 <= self.tilt_deg <= 60.0:
            raise ValueError(f"tilt_deg must be in [0, 60], got {self.tilt_deg}")
        if not 5.0 <= self.tile_px <= 600.0:
            raise ValueError(f"tile_px must be in [5, 600], got {self.tile_px}")
        if self.jpeg_quality is not None and not 1 <= self.jpeg_quality <= 100:
            raise ValueError(f"jpeg_quality must be in 1..100 or None, got {self.jpeg_quality}")
        if not 10.0 <= self.fov_deg <= 120.0:
            raise ValueError(f"fov_deg must be in [10, 120], got {self.fov_deg}")
        if self.exposure <= 0:
            raise ValueError(f"exposure must be > 0, got {self.exposure}")
        for name in (
            "blur_px",
            "motion_px",
            "noise",
            "gap",
            "glare",
            "glare_size",
            "shadow",
            "tile_offset",
            "wear",
            "drift",
            "dof_px",
            "chroma_px",
            "sharpen",
            "saturation",
            "bump_mm",
            "bump_deg",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)}")
        for name in (
            "auto_exposure",
            "awb",
            "shade",
            "wb_correction",
            "gradient",
            "vignette",
            "denoise",
        ):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {getattr(self, name)}")
        if not -4.0 <= self.exposure_ev <= 4.0:
            raise ValueError(f"exposure_ev must be in [-4, 4] stops, got {self.exposure_ev}")
        if not 0.0 <= self.tile_rot_deg <= 45.0:
            raise ValueError(f"tile_rot_deg must be in [0, 45], got {self.tile_rot_deg}")
        if self.hands < 0 or self.clutter < 0 or self.glare_spots < 0:
            raise ValueError("hands, clutter and glare_spots must be >= 0")
        if not 500.0 <= self.kelvin <= 40000.0:
            raise ValueError(f"kelvin must be in [500, 40000], got {self.kelvin}")
        if self.table_mm is not None and min(self.table_mm) <= 0:
            raise ValueError(f"table_mm must be positive, got {self.table_mm}")

    @classmethod
    def sample(
        cls,
        rng: np.random.Generator,
        difficulty: Literal["easy", "medium", "hard"] = "hard",
    ) -> Conditions:
        """Random conditions drawn from ``rng``.

        ``"hard"`` spans the whole range the vision brief (issue 3, "Input it must handle")
        promises: tilt to 35°, any rotation, tiles 25-200 px, every surface of
        :data:`DRAWN_SURFACES` (all but the polka dots and stripes, by name only), warm and cool
        light, glare, dim exposure, blur, noise, JPEG 50-95 (webcam MJPEG and messaging apps go
        down to about 50; phones save 85-95), hands, askew tiles, clutter,
        table edges, camera processing. ``"medium"`` narrows each range; ``"easy"`` is near
        :data:`PRESETS` ``["easy"]``. Blur stays "mild" (the brief's word) relative to the tiles:
        sigma <= :data:`MAX_BLUR_OF_TILE` and motion <= :data:`MAX_MOTION_OF_TILE` of the
        wanted tile size.

        Raises:
            ValueError: unknown difficulty.
        """
        if difficulty not in ("easy", "medium", "hard"):
            raise ValueError(f"unknown difficulty {difficulty!r} (easy, medium, hard)")
        k = {"easy": 0.25, "medium": 0.6, "hard": 1.0}[difficulty]
        u = rng.uniform

        def pick(options: Sequence[Any]) -> Any:
            return options[int(rng.integers(len(options)))]

        surfaces = DRAWN_SURFACES if k >= 0.6 else ("light_wood", "white", "cloth", "green_felt")
        kelvin = float(np.exp(u(np.log(5500 - 2800 * k), np.log(5500 + 3500 * k))))
        tile_lo, tile_hi = 60 - 35 * k, 60 + 140 * k
        c = cls(
            tilt_deg=float(u(0, 35 * k)),
            yaw_deg=float(u(0, 360)) if k > 0.3 else float(u(-10, 10)),
            roll_deg=float(u(-3, 3) * k),
            fov_deg=float(u(55, 80)),
            tile_px=float(np.exp(u(np.log(tile_lo), np.log(tile_hi)))),
            center_offset=(float(u(-0.12, 0.12) * k), float(u(-0.12, 0.12) * k)),
            surface=pick(surfaces),
            surface_rgb=None,
            kelvin=kelvin,
            wb_correction=float(u(0.9 - 0.6 * k, 0.95)),
            exposure=float(np.exp(u(np.log(1 - 0.7 * k), np.log(1 + 0.35 * k)))),
            gradient=float(u(0, 0.6 * k)),
            gradient_deg=float(u(0, 360)),
            vignette=float(u(0, 0.45 * k)),
            shadow=float(u(0.1, 0.3 + 0.4 * k)),
            light_azimuth_deg=float(u(0, 360)),
            light_elevation_deg=float(u(70 - 35 * k, 85)),
            glare=float(u(0, 1.0 * k) ** 1.5) if rng.random() < 0.3 + 0.3 * k else 0.0,
            glare_size=float(np.exp(u(np.log(0.02), np.log(0.25)))),
            glare_spots=int(rng.integers(1, 3)),
            blur_px=float(u(0.2, 0.5 + 1.6 * k)),
            motion_px=float(u(0, 6 * k)) if rng.random() < 0.3 * k else 0.0,
            noise=float(u(0.5, 1.0 + 3.0 * k)),
            jpeg_quality=int(rng.integers(int(95 - 45 * k), 96)),
            hands=int(rng.integers(0, 3)) if rng.random() < 0.4 * k else 0,
            tile_rot_deg=float(u(1, 1 + 5 * k)),
            tile_offset=float(u(0.005, 0.01 + 0.03 * k)),
            gap=float(u(0.02, 0.03 + 0.07 * k)),
            tile_thickness=float(u(0.22, 0.32)),
            tile_gloss=float(u(0.3, 1.0)),
            wear=float(u(0, 0.1 + 0.3 * k)),
            drift=float(u(0, 0.3 * k)),
            bump_mm=float(u(2, 2 + 20 * k)),
            bump_deg=float(u(0.3, 0.3 + 3 * k)),
            sharpen=float(u(0, 1.2 * k)),
            saturation=float(u(1 - 0.25 * k, 1 + 0.35 * k)),
            chroma_px=float(u(0, 2.0 * k)),
            dof_px=float(u(0, 3.0 * k)) if rng.random() < 0.5 else 0.0,
            clutter=int(rng.integers(0, 1 + round(4 * k))),
            auto_exposure=float(u(0, 0.8 * k)),
            awb=float(u(0, 0.4 * k)) if rng.random() < 0.6 else 0.0,
            table_mm=(float(u(1000, 2200)), float(u(700, 1000))),
            shade=float(u(0, 0.7 * k)) if rng.random() < 0.35 else 0.0,
            denoise=float(u(0, 1)) if rng.random() < 0.5 else 0.0,
        )
        # "mild blur" (issue 3): relative to the tiles, so small tiles stay readable
        return replace(
            c,
            blur_px=min(c.blur_px, MAX_BLUR_OF_TILE * c.tile_px),
            motion_px=min(c.motion_px, MAX_MOTION_OF_TILE * c.tile_px),
        )


_EASY = Conditions(
    tilt_deg=5.0,
    yaw_deg=4.0,
    tile_px=60.0,
    surface="light_wood",
    kelvin=5500.0,
    gradient=0.1,
    glare=0.05,
    blur_px=0.4,
    noise=1.0,
    jpeg_quality=95,
)

#: Named conditions, each stressing one thing (plus ``easy``). Other conditions stay moderate.
PRESETS: dict[str, Conditions] = {
    "easy": _EASY,
    "glare": replace(
        _EASY,
        yaw_deg=17.0,
        tilt_deg=15.0,
        glare=1.2,
        glare_size=0.12,
        glare_spots=2,
        tile_gloss=1.0,
        surface="white",
    ),
    "dim": replace(
        _EASY,
        yaw_deg=-25.0,
        exposure=0.28,
        noise=4.0,
        kelvin=3600.0,
        wb_correction=0.6,
        gradient=0.4,
        jpeg_quality=80,
        blur_px=0.9,
    ),
    "warm": replace(
        _EASY,
        yaw_deg=33.0,
        kelvin=2700.0,
        wb_correction=0.45,
        gradient=0.3,
        light_elevation_deg=50.0,
        shadow=0.55,
    ),
    "cool": replace(
        _EASY, yaw_deg=-40.0, kelvin=9000.0, wb_correction=0.3, gradient=0.25, surface="white"
    ),
    "oblique": replace(
        _EASY, tilt_deg=35.0, yaw_deg=63.0, roll_deg=2.0, tile_px=70.0, gradient=0.25
    ),
    "patterned_cloth": replace(_EASY, yaw_deg=12.0, tilt_deg=14.0, surface="floral_cloth"),
    "dark_table": replace(
        _EASY, yaw_deg=-8.0, surface="dark_wood", exposure=0.8, gradient=0.3, auto_exposure=0.4
    ),
    "tiny_tiles": replace(_EASY, yaw_deg=21.0, tile_px=25.0, blur_px=0.7, jpeg_quality=80),
    "hand": replace(_EASY, yaw_deg=-15.0, hands=2, tilt_deg=12.0),
    "printed_grid": replace(_EASY, yaw_deg=9.0, surface="printed_grid", tilt_deg=10.0),
    "green_felt": replace(_EASY, yaw_deg=48.0, surface="green_felt", gradient=0.3, awb=0.25),
    "white_table": replace(_EASY, yaw_deg=-70.0, surface="white", vignette=0.3, auto_exposure=0.5),
    "bumped": replace(_EASY, yaw_deg=5.0, motion_px=7.0, bump_mm=15.0, bump_deg=2.5, tilt_deg=9.0),
    "askew": replace(_EASY, yaw_deg=28.0, tile_rot_deg=6.0, tile_offset=0.04, gap=0.09),
}


# ----------------------------------------------------------------------------------------------
# Occluders and bumps
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hand:
    """A hand and forearm held over the table.

    Attributes:
        target: fractional lattice ``(row, col)`` under the fingertips.
        from_deg: direction the arm comes from, degrees in the board frame (0 = from +col,
            90 = from +row, i.e. the bottom of an unrotated board).
        height_mm: fingertip height above the table, millimetres (arm rises toward the body).
        skin_rgb: sRGB skin tone (``None`` = drawn from the seed).
        sleeve_rgb: sRGB sleeve colour (``None`` = drawn; bare forearms are possible).
        spread_deg: finger spread, degrees.
        curl: 0 = flat fingers, 1 = curled (a grabbing hand).
        holding: a tile held under the fingertips (being placed or taken), or ``None``. It
            is not on the board: it is drawn, occludes like the hand, and is not in the truth.
    """

    target: tuple[float, float]
    from_deg: float = 90.0
    height_mm: float = 45.0
    skin_rgb: tuple[int, int, int] | None = None
    sleeve_rgb: tuple[int, int, int] | None = None
    spread_deg: float = 8.0
    curl: float = 0.3
    holding: Tile | None = None

    @classmethod
    def random(cls, rng: np.random.Generator, board: Board | None = None) -> Hand:
        """A random hand reaching over ``board`` (or near the origin for an empty board)."""
        if board:
            r0, c0, r1, c1 = board.bounds()
        else:
            r0 = c0 = -2
            r1 = c1 = 2
        target = (float(rng.uniform(r0 - 1, r1 + 1)), float(rng.uniform(c0 - 1, c1 + 1)))
        skin = SKIN_TONES[int(rng.integers(len(SKIN_TONES)))]
        jitter = rng.integers(-10, 11, size=3)
        skin = cast(
            "tuple[int, int, int]",
            tuple(int(np.clip(s + j, 0, 255)) for s, j in zip(skin, jitter, strict=True)),
        )
        sleeve: tuple[int, int, int] | None = None
        if rng.random() < 0.7:
            sleeve = cast(
                "tuple[int, int, int]", tuple(int(v) for v in rng.integers(15, 240, size=3))
            )
        holding: Tile | None = None
        if board and rng.random() < 0.35:
            kinds = sorted(set(board.values()), key=str)
            holding = kinds[int(rng.integers(len(kinds)))]
        return cls(
            target=target,
            from_deg=float(rng.uniform(0, 360)),
            height_mm=float(rng.uniform(25, 90)),
            skin_rgb=skin,
            sleeve_rgb=sleeve,
            spread_deg=float(rng.uniform(2, 16)),
            curl=float(rng.uniform(0, 1)),
            holding=holding,
        )


@dataclass(frozen=True)
class Bump:
    """A displacement of the table relative to the camera (someone knocked it).

    A :class:`Scene` frame with ``bump=b`` is seen from the initial pose moved by ``b``; pass the
    same bump to every later frame to keep the table where it ended up.

    Attributes:
        dx_mm, dy_mm: table shift along the board's col/row axes, millimetres.
        rot_deg: turn about the vertical, degrees.
        tilt_deg: change of the camera tilt, degrees.
    """

    dx_mm: float = 0.0
    dy_mm: float = 0.0
    rot_deg: float = 0.0
    tilt_deg: float = 0.0

    @classmethod
    def random(cls, rng: np.random.Generator, mm: float = 10.0, deg: float = 1.5) -> Bump:
        """A random bump of about ``mm`` shift and ``deg`` turn."""
        ang = rng.uniform(0, 2 * math.pi)
        dist = mm * rng.uniform(0.5, 1.0)
        return cls(
            dx_mm=float(dist * math.cos(ang)),
            dy_mm=float(dist * math.sin(ang)),
            rot_deg=float(deg * rng.uniform(-1, 1)),
            tilt_deg=float(deg * 0.3 * rng.uniform(-1, 1)),
        )

    def __add__(self, other: Bump) -> Bump:
        return Bump(
            self.dx_mm + other.dx_mm,
            self.dy_mm + other.dy_mm,
            self.rot_deg + other.rot_deg,
            self.tilt_deg + other.tilt_deg,
        )


# ----------------------------------------------------------------------------------------------
# Results
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TruthTile:
    """Ground truth for one tile.

    Attributes:
        pos: the tile's lattice cell (the input board's coordinates).
        tile: its colour and shape.
        center_xy: centre of the tile's top face, image pixels.
        corners_xy: the top face's four (sharp, un-rounded) corners, image pixels, clockwise
            from the corner nearest the cell's top-left in the board frame.
        visible: False when more than :data:`HIDDEN_COVER` of the top is covered (a hand) or
            less than :data:`MIN_IN_FRAME` of it is inside the image.
        covered: share of the top face covered by occluders, 0..1.
    """

    pos: Pos
    tile: Tile
    center_xy: PointXY
    corners_xy: tuple[PointXY, PointXY, PointXY, PointXY]
    visible: bool
    covered: float = 0.0


@dataclass(frozen=True, eq=False)
class Rendered:
    """A rendered image with its ground truth.

    Attributes:
        image_bgr: (H, W, 3) uint8 image (after JPEG when the conditions ask for it).
        truth: one :class:`TruthTile` per board tile (hidden ones included, ``visible=False``).
        image_from_grid: (3, 3) float64 homography from homogeneous lattice ``(col, row, 1)``
            (cell centres at integers, the board's coordinates) to image ``(x, y, 1)`` on the
            plane of the tile tops (as :attr:`vision.observation.Lattice.image_from_grid`).
        pitch_px: lattice pitch at the board centre, pixels.
        conditions: the conditions used.
        seed: the seed used.
        hand_mask: (H, W) bool, True where an occluder covers the image: a hand, an arm, a held
            tile or a tall object (cup, tile bag).
        palette: colour names the board was painted with, in palette order.
    """

    image_bgr: U8
    truth: list[TruthTile]
    image_from_grid: NDArray[np.float64]
    pitch_px: float
    conditions: Conditions
    seed: int
    hand_mask: NDArray[np.bool_]
    palette: tuple[str, ...] = ()

    @property
    def lattice(self) -> Lattice:
        """The truth lattice as a :class:`vision.observation.Lattice`."""
        h = self.image_from_grid
        if self.truth:  # direction of +col at the board's centre (perspective bends it)
            r = float(np.mean([t.pos.row for t in self.truth]))
            c = float(np.mean([t.pos.col for t in self.truth]))
        else:
            r = c = 0.0
        p0 = h @ np.array([c - 0.5, r, 1.0])
        p1 = h @ np.array([c + 0.5, r, 1.0])
        d = p1[:2] / p1[2] - p0[:2] / p0[2]
        angle = math.degrees(math.atan2(d[1], d[0])) % 90.0
        matrix = tuple(tuple(float(v) for v in row) for row in h)
        return Lattice(pitch_px=self.pitch_px, angle_deg=angle, image_from_grid=matrix)  # type: ignore[arg-type]

    def board(self, *, visible_only: bool = True) -> Board:
        """The truth as a :class:`Board` (only visible tiles by default)."""
        return Board((t.pos, t.tile) for t in self.truth if t.visible or not visible_only)


def _from_image_top_left(
    corners: tuple[PointXY, PointXY, PointXY, PointXY],
) -> tuple[PointXY, PointXY, PointXY, PointXY]:
    """The same clockwise corners, starting at the one nearest the image's top-left."""
    k = min(range(4), key=lambda i: corners[i][0] + corners[i][1])
    return (corners[k], corners[(k + 1) % 4], corners[(k + 2) % 4], corners[(k + 3) % 4])


def truth_observation(rendered: Rendered) -> Observation:
    """The ground truth as an :class:`Observation`, as a perfect detector would report it.

    Visible tiles get confidence 1 and no alternatives, corners clockwise from the one nearest
    the image's top-left (the :class:`TileObservation` convention); hidden tiles go to ``unseen``;
    ``occluded_fraction`` is the share of the board's tile tops covered. For testing tracking
    without the detector.
    """
    tiles = tuple(
        TileObservation(
            pos=t.pos,
            tile=t.tile,
            color_confidence=1.0,
            shape_confidence=1.0,
            center_xy=t.center_xy,
            corners_xy=_from_image_top_left(t.corners_xy),
        )
        for t in rendered.truth
        if t.visible
    )
    unseen = tuple(t.pos for t in rendered.truth if not t.visible)
    covered = [t.covered for t in rendered.truth]
    h, w = rendered.image_bgr.shape[:2]
    return Observation(
        tiles=tiles,
        lattice=rendered.lattice if rendered.truth else None,
        image_size=(w, h),
        unseen=unseen,
        occluded_fraction=float(np.mean(covered)) if covered else 0.0,
        palette=rendered.palette,
    )


# ----------------------------------------------------------------------------------------------
# Colour helpers
# ----------------------------------------------------------------------------------------------
def _srgb_to_linear_lut() -> F32:
    c = np.arange(256, dtype=np.float64) / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return lin.astype(np.float32)


_TO_LINEAR = _srgb_to_linear_lut()
_LUT_N = 4096


def _linear_to_srgb_lut() -> U8:
    x = np.arange(_LUT_N, dtype=np.float64) / (_LUT_N - 1)
    s = np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055)
    return np.clip(np.round(s * 255), 0, 255).astype(np.uint8)


_TO_SRGB = _linear_to_srgb_lut()


#: BGR luma weights: Rec. 709 luminance of linear light; Rec. 601 luma of encoded RGB (YCbCr).
_LUMA_709 = np.array([0.0722, 0.7152, 0.2126], np.float32)
_LUMA_601 = np.array([0.114, 0.587, 0.299], np.float32)


def _isp(img: F32, saturation: float, sharpen: float, luma_bgr: F32) -> F32:
    """Saturation (chroma scaled about ``img @ luma_bgr``) and unsharp masking of BGR ``img``
    ``(H, W, 3)`` float32, in whatever space ``img`` is (linear or gamma-encoded)."""
    if abs(saturation - 1.0) > 0.01:
        luma = img @ luma_bgr
        img = cast(F32, luma[..., None] + (img - luma[..., None]) * np.float32(saturation))
    if sharpen > 0.01:
        soft = cv2.GaussianBlur(img, (0, 0), 1.2)
        img = cast(F32, cv2.addWeighted(img, 1 + sharpen, soft, -sharpen, 0))
    return img


def _to_srgb_f32(lin: F32) -> F32:
    """Gamma-encoded sRGB, float32 0..1 (same shape as ``lin``), of linear light ``lin``.

    Values above 1 clip to 1, as on a sensor.
    """
    x = np.clip(lin, 0.0, 1.0)
    return np.where(
        x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, np.float32(1 / 2.4)) - 0.055
    ).astype(np.float32)


def _lin(rgb: Sequence[float]) -> NDArray[np.float32]:
    """Linear BGR (float32, 3) of an sRGB ``(r, g, b)`` 0..255 colour."""
    r, g, b = (float(v) / 255.0 for v in rgb)

    def f(c: float) -> float:
        c = min(max(c, 0.0), 1.0)
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return np.array([f(b), f(g), f(r)], dtype=np.float32)


def _to_srgb_u8(lin: F32) -> U8:
    idx = np.clip(lin * (_LUT_N - 1) + 0.5, 0, _LUT_N - 1).astype(np.uint16)
    return cast(U8, _TO_SRGB[idx])


def _kelvin_rgb(kelvin: float) -> NDArray[np.float32]:
    """Linear BGR of a black body at ``kelvin``, normalised to green = 1.

    Source: Tanner Helland's fit to Mitchell Charity's blackbody table (sRGB, 1000-40000 K),
    converted to linear light.
    """
    t = kelvin / 100.0
    if t <= 66:
        r = 255.0
        g = 99.4708025861 * math.log(t) - 161.1195681661
        b = 0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307
    else:
        r = 329.698727446 * (t - 60) ** -0.1332047592
        g = 288.1221695283 * (t - 60) ** -0.0755148492
        b = 255.0
    lin = _lin((min(max(r, 1.0), 255.0), min(max(g, 1.0), 255.0), min(max(b, 1.0), 255.0)))
    return cast(NDArray[np.float32], (lin / lin[1]).astype(np.float32))


# ----------------------------------------------------------------------------------------------
# Noise and textures (all in table millimetres)
# ----------------------------------------------------------------------------------------------
def _fbm(
    rng: np.random.Generator,
    shape: tuple[int, int],
    cell_px: float,
    octaves: int = 4,
    persistence: float = 0.5,
    stretch: tuple[float, float] = (1.0, 1.0),
) -> F32:
    """Fractal value noise, zero mean, unit-ish std, shape (rows, cols), float32.

    ``cell_px`` is the size of the coarsest feature in pixels; ``stretch`` (row, col) makes
    features longer along an axis (wood grain).
    """
    h, w = shape
    out = np.zeros(shape, np.float32)
    amp, total = 1.0, 0.0
    cell = max(cell_px, 1.0)
    for _ in range(octaves):
        gh = max(2, int(h / (cell * stretch[0])) + 2)
        gw = max(2, int(w / (cell * stretch[1])) + 2)
        grid = rng.standard_normal((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp * amp
        amp *= persistence
        cell /= 2.0
        if cell < 1.0:
            break
    return out / np.float32(math.sqrt(total))


def _hsv_rgb(h: float, s: float, v: float) -> tuple[int, int, int]:
    r, g, b = colorsys.hsv_to_rgb(float(h) % 1.0, float(s), float(v))
    return (round(255 * r), round(255 * g), round(255 * b))


def _woven(
    img: F32,
    rng: np.random.Generator,
    shape: tuple[int, int],
    u_mm: F32,
    v_mm: F32,
    px: float,
    depth: float,
) -> F32:
    """A printed cloth's ``img`` ``(h, w, 3)`` with its weave (a thread period of 0.7-1.4 mm,
    ``depth`` of the colour) and slow blotches: the finish of the checked, floral,
    polka-dot and striped cloths (``u_mm``, ``v_mm``: table mm per pixel; ``px``: pixels per mm)."""
    period = float(rng.uniform(0.7, 1.4))
    weave = np.sin(2 * np.pi * u_mm / period) * np.sin(2 * np.pi * v_mm / period) * depth
    out: F32 = img * (1 + weave + _fbm(rng, shape, 150 * px, 2) * 0.06)[..., None]
    return out


def _surface_texture(
    kind: str,
    rng: np.random.Generator,
    shape: tuple[int, int],
    mm_per_px: float,
    base_rgb: tuple[int, int, int] | None,
    pitch_mm: float,
) -> U8:
    """An sRGB (rows, cols, 3) uint8 BGR texture of a table surface in table millimetres."""
    h, w = shape
    px = 1.0 / mm_per_px  # pixels per millimetre
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    v_mm = yy * mm_per_px
    u_mm = xx * mm_per_px

    def col(rgb: Sequence[float]) -> F32:
        return np.array([rgb[2], rgb[1], rgb[0]], np.float32)

    def jitter_rgb(rgb: Sequence[int], amount: int = 18) -> tuple[int, int, int]:
        j = rng.integers(-amount, amount + 1, size=3)
        return tuple(int(np.clip(c + d, 0, 255)) for c, d in zip(rgb, j, strict=True))  # type: ignore[return-value]

    if kind in ("light_wood", "dark_wood"):
        # species colours (sRGB) from photos of common table tops: oak, pine, birch, beech /
        # walnut, mahogany, wenge, dark stain
        light = [(190, 148, 104), (212, 172, 124), (218, 190, 150), (200, 156, 116)]
        dark = [(96, 64, 44), (112, 56, 40), (74, 54, 42), (62, 42, 32)]
        species = light if kind == "light_wood" else dark
        base = base_rgb or jitter_rgb(species[int(rng.integers(len(species)))], 12)
        plank_mm = float(rng.uniform(70, 190))
        plank = np.floor(v_mm / plank_mm + rng.uniform(0, 1)).astype(np.int32)
        plank = plank - plank.min()
        n_planks = int(plank.max() + 1)
        plank_tone = rng.uniform(0.85, 1.12, size=n_planks).astype(np.float32)
        plank_shift = rng.uniform(0, 1000, size=n_planks).astype(np.float32)
        # growth rings: a slowly waving coordinate across the grain, per plank, so the latewood
        # lines meander and form arches ("cathedrals") where the warp is strong
        warp = _fbm(rng, shape, 90 * px, octaves=3, stretch=(1.0, 5.0)) * float(rng.uniform(4, 14))
        period = float(rng.uniform(3.0, 8.0))
        phase = (v_mm + warp + plank_shift[plank]) / period
        phase = phase + _fbm(rng, shape, 40 * px, octaves=2, stretch=(1.0, 4.0)) * 0.35
        frac = phase - np.floor(phase)
        line_w = float(rng.uniform(0.06, 0.16))
        latewood = np.exp(-(((frac - 0.5) / line_w) ** 2)).astype(np.float32)
        pores = _fbm(rng, shape, 2 * px, octaves=2, stretch=(1.0, 14.0)) * 0.6
        figure = _fbm(rng, shape, 150 * px, octaves=2, stretch=(1.0, 3.0))
        strength = float(rng.uniform(0.15, 0.35))
        shade = plank_tone[plank] * (1 - strength * latewood + 0.04 * pores + 0.06 * figure)
        # seams between planks and butt joints along them
        seam_d = np.abs((v_mm / plank_mm + 0.5) % 1.0 - 0.5) * plank_mm
        joints = rng.uniform(0, 2500, size=n_planks).astype(np.float32)
        joint_d = np.abs((u_mm - joints[plank] + 1200) % 2400 - 1200)
        seam = (seam_d < 0.7) | (joint_d < 0.5)
        shade = shade * np.where(seam, 0.5, 1.0).astype(np.float32)
        img = col(base)[None, None, :] * shade[..., None]
        # latewood is darker and warmer: less blue and green than the base
        img[..., 0] *= 1 - 0.15 * latewood
        img[..., 1] *= 1 - 0.06 * latewood
    elif kind == "white":
        base = base_rgb or jitter_rgb((232, 230, 224), 8)
        n = _fbm(rng, shape, 200 * px, octaves=3) * 0.03 + _fbm(rng, shape, 3 * px, 2) * 0.015
        img = col(base)[None, None, :] * (1 + n[..., None])
    elif kind == "dark_laminate":
        base = base_rgb or jitter_rgb((52, 50, 50), 12)
        n = _fbm(rng, shape, 150 * px, octaves=3) * 0.05 + _fbm(rng, shape, 2 * px, 2) * 0.04
        img = col(base)[None, None, :] * (1 + n[..., None])
    elif kind in ("cloth", "green_felt"):
        if kind == "green_felt":
            base = base_rgb or jitter_rgb((34, 110, 60), 15)
            weave = _fbm(rng, shape, 1.5 * px, octaves=2) * 0.06
        else:
            base = base_rgb or _hsv_rgb(
                rng.uniform(0, 1), rng.uniform(0.15, 0.75), rng.uniform(0.2, 0.9)
            )
            period = float(rng.uniform(0.8, 1.6))
            weave = (
                np.sin(2 * np.pi * u_mm / period) * np.sin(2 * np.pi * v_mm / period) * 0.05
            ).astype(np.float32)
        folds = _fbm(rng, shape, 150 * px, octaves=3) * 0.08
        img = col(base)[None, None, :] * (1 + weave + folds)[..., None]
    elif kind == "checked_cloth":
        c1 = base_rgb or tuple(int(v) for v in rng.integers(20, 200, size=3))
        c2 = jitter_rgb((240, 238, 230), 10)
        check = float(rng.uniform(0.5, 1.6)) * pitch_mm
        su = ((u_mm / check) % 1.0) < 0.5
        sv = ((v_mm / check) % 1.0) < 0.5
        mix = (su.astype(np.float32) + sv.astype(np.float32)) / 2
        a, b = col(c1), col(c2)
        img = b[None, None, :] * (1 - mix[..., None]) + a[None, None, :] * mix[..., None]
        img = _woven(img, rng, shape, u_mm, v_mm, px, 0.05)
    elif kind == "floral_cloth":
        bg = base_rgb or jitter_rgb(
            [(236, 226, 200), (40, 60, 110), (200, 60, 60), (245, 245, 240)][int(rng.integers(4))],
            15,
        )
        img = np.empty((h, w, 3), np.float32)
        img[:] = col(bg)
        canvas = img
        n_flowers = int(w * h * mm_per_px**2 / (60.0**2) * rng.uniform(0.6, 1.4))
        flower_cols = [tuple(int(v) for v in rng.integers(0, 256, size=3)) for _ in range(4)]
        leaf = jitter_rgb((60, 120, 50), 30)
        for _ in range(n_flowers):
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            size = rng.uniform(6, 22) * px
            fc = flower_cols[int(rng.integers(len(flower_cols)))]
            ang0 = rng.uniform(0, 2 * np.pi)
            for k in range(2):  # leaves
                ang = ang0 + np.pi * k + 0.6
                center = (int(cx + 1.6 * size * np.cos(ang)), int(cy + 1.6 * size * np.sin(ang)))
                cv2.ellipse(
                    canvas,
                    center,
                    (int(size), int(size * 0.45)),
                    float(np.degrees(ang)),
                    0,
                    360,
                    col(leaf).tolist(),
                    -1,
                    cv2.LINE_AA,
                )
            petals = int(rng.integers(5, 8))
            for k in range(petals):
                ang = ang0 + 2 * np.pi * k / petals
                center = (int(cx + 0.8 * size * np.cos(ang)), int(cy + 0.8 * size * np.sin(ang)))
                cv2.ellipse(
                    canvas,
                    center,
                    (int(size * 0.75), int(size * 0.45)),
                    float(np.degrees(ang)),
                    0,
                    360,
                    col(fc).tolist(),
                    -1,
                    cv2.LINE_AA,
                )
            cv2.circle(
                canvas,
                (int(cx), int(cy)),
                max(1, int(size * 0.35)),
                col((240, 200, 40)).tolist(),
                -1,
                cv2.LINE_AA,
            )
        img = _woven(img, rng, shape, u_mm, v_mm, px, 0.04)
    elif kind == "polka_dot_cloth":
        # dots printed in staggered rows (half-drop), one to three colours on a plain ground,
        # dots 0.3-0.8 of a tile across: at the small end a dot is the size of a symbol and
        # a dark ground is as black as a tile's margin (the hard case: a motif of "circles")
        bg = base_rgb or _hsv_rgb(rng.uniform(0, 1), rng.uniform(0.0, 0.6), rng.uniform(0.08, 0.9))
        img = np.empty((h, w, 3), np.float32)
        img[:] = col(bg)
        dot_mm = float(rng.uniform(0.3, 0.8)) * pitch_mm
        step = dot_mm * float(rng.uniform(1.5, 2.6))
        n_cols = int(rng.integers(1, 4))
        dot_cols = [
            col(_hsv_rgb(rng.uniform(0, 1), rng.uniform(0.5, 1.0), rng.uniform(0.75, 1.0)))
            for _ in range(n_cols)
        ]
        turn = float(rng.uniform(0, np.pi))
        ct, st = math.cos(turn), math.sin(turn)
        a_mm = ct * u_mm + st * v_mm  # along the rows
        b_mm = -st * u_mm + ct * v_mm  # across them
        row = np.floor(b_mm / step)
        shift = (row % 2) * 0.5 * step  # every other row half a step along
        col_i = np.floor((a_mm - shift) / step)
        da = a_mm - shift - (col_i + 0.5) * step
        db = b_mm - (row + 0.5) * step
        r_px = np.hypot(da, db) * px  # distance to the nearest dot centre, pixels
        radius_px = 0.5 * dot_mm * px
        cover = np.clip(radius_px + 0.5 - r_px, 0.0, 1.0)  # antialiased edge
        pick_col = ((row * 7 + col_i * 3).astype(np.int64)) % n_cols
        for i, dc in enumerate(dot_cols):
            m = cover * (pick_col == i)
            img = img * (1 - m[..., None]) + dc[None, None, :] * m[..., None]
        img = _woven(img, rng, shape, u_mm, v_mm, px, 0.04)
    elif kind == "striped_cloth":
        # a woven stripe (ticking, deck-chair canvas, a striped runner): one to three stripes
        # repeating every 0.5-2 tiles at any angle on a plain ground, each a thin line of
        # 1 mm to a band of 0.6 tile, of any colour down to a tile's black: a dark line runs
        # into a lone tile's body and makes one dark region of both
        bg = base_rgb or _hsv_rgb(rng.uniform(0, 1), rng.uniform(0.0, 0.7), rng.uniform(0.45, 0.95))
        img = np.empty((h, w, 3), np.float32)
        img[:] = col(bg)
        repeat = float(rng.uniform(0.5, 2.0)) * pitch_mm
        turn = float(rng.uniform(0, np.pi))
        across = (-math.sin(turn) * u_mm + math.cos(turn) * v_mm) % repeat
        for _ in range(int(rng.integers(1, 4))):
            width = float(rng.uniform(1.0, max(1.5, min(0.6 * pitch_mm, 0.45 * repeat))))
            off = float(rng.uniform(0, repeat))
            d = np.abs((across - off + repeat / 2) % repeat - repeat / 2)  # mm from its middle
            cover = np.clip((width / 2 - d) * px + 0.5, 0.0, 1.0)[..., None]
            sc = col(_hsv_rgb(rng.uniform(0, 1), rng.uniform(0.0, 0.9), rng.uniform(0.05, 0.9)))
            img = img * (1 - cover) + sc[None, None, :] * cover
        img = _woven(img, rng, shape, u_mm, v_mm, px, 0.04)
    elif kind == "noise_cloth":
        n1 = _fbm(rng, shape, float(rng.uniform(15, 50)) * px, octaves=4)
        n2 = _fbm(rng, shape, float(rng.uniform(10, 40)) * px, octaves=3)
        # a printed fabric: colours around one hue (analogous scheme), moderate saturation
        hue0 = float(rng.uniform(0, 1))
        cols = []
        for _ in range(4):
            hue = (hue0 + rng.uniform(-0.12, 0.12)) % 1.0
            cols.append(col(_hsv_rgb(hue, rng.uniform(0.2, 0.7), rng.uniform(0.3, 0.95))))
        img = np.empty((h, w, 3), np.float32)
        img[:] = cols[0]
        for c, m in ((cols[1], n1 > 0.3), (cols[2], n2 > 0.5), (cols[3], (n1 < -0.6) & (n2 < 0))):
            img[m] = c
        img = cv2.GaussianBlur(img, (0, 0), max(0.5, 0.4 * px))
        img = img * (1 + _fbm(rng, shape, 2 * px, 2)[..., None] * 0.04)
    elif kind == "printed_grid":
        bg = base_rgb or jitter_rgb((226, 214, 180), 14)
        img = np.empty((h, w, 3), np.float32)
        img[:] = col(bg)
        cell = pitch_mm * float(rng.choice([0.9, 1.0, 1.0, 1.08, 1.5, 2.0]))
        line_mm = float(rng.uniform(0.6, 1.6))
        line_col = col(jitter_rgb((90, 70, 50), 40))
        # a few tinted squares like a printed game board
        ci = np.floor(u_mm / cell).astype(np.int32)
        cj = np.floor(v_mm / cell).astype(np.int32)
        # a pseudo-random sprinkling of tinted cells (hash of the cell index)
        hashed = (ci * 73856093) ^ (cj * 19349663)
        tint_mask = (hashed % 97) < int(rng.integers(3, 14))
        tint = col(jitter_rgb((200, 120, 110), 50))
        img[tint_mask] = img[tint_mask] * 0.4 + tint * 0.6
        du = (u_mm / cell) % 1.0
        dv = (v_mm / cell) % 1.0
        lu = np.minimum(du, 1 - du) * cell < line_mm / 2
        lv = np.minimum(dv, 1 - dv) * cell < line_mm / 2
        img[lu | lv] = line_col
        img = cv2.GaussianBlur(img, (0, 0), max(0.4, 0.25 * px))
        img = img * (1 + _fbm(rng, shape, 100 * px, 2)[..., None] * 0.04)
    else:  # pragma: no cover - guarded by Conditions.__post_init__
        raise ValueError(f"unknown surface {kind!r}")
    return cast(U8, np.clip(img, 0, 255).astype(np.uint8))


def _surface_gloss(kind: str) -> float:
    """How much of the glare a surface reflects, relative to a glossy tile top (0..1)."""
    return {
        "white": 0.25,
        "light_wood": 0.2,
        "dark_wood": 0.25,
        "dark_laminate": 0.3,
        "printed_grid": 0.15,
    }.get(kind, 0.02)


# ----------------------------------------------------------------------------------------------
# Geometry
# ----------------------------------------------------------------------------------------------
def _rot_x(a: float) -> NDArray[np.float64]:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rot_z(a: float) -> NDArray[np.float64]:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


@dataclass(frozen=True)
class _Camera:
    k: NDArray[np.float64]
    r: NDArray[np.float64]  # world -> camera rotation
    c: NDArray[np.float64]  # camera centre, world mm

    def project(self, pts: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Image ``(x, y)`` (N, 2) and depth (N,) of world points (N, 3)."""
        cam = (pts - self.c) @ self.r.T
        z = cam[:, 2]
        uvw = cam @ self.k.T
        zz = np.where(np.abs(z) < 1e-9, 1e-9, z)
        return uvw[:, :2] / zz[:, None], z

    def plane_h(self, z0: float) -> NDArray[np.float64]:
        """Homography from world ``(X, Y, 1)`` on the plane ``Z = z0`` to image."""
        t = -self.r @ self.c
        m = np.column_stack([self.r[:, 0], self.r[:, 1], self.r[:, 2] * z0 + t])
        return self.k @ m


def _make_camera(
    size: tuple[int, int],
    cond: Conditions,
    target: NDArray[np.float64],
    dist: float,
    bump: Bump | None = None,
) -> _Camera:
    w, h = size
    f = _focal_px(cond.fov_deg, w)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], dtype=np.float64)
    yaw, tilt = cond.yaw_deg, cond.tilt_deg
    tgt = target.astype(np.float64).copy()
    if bump is not None:
        # the table moved: equivalently the camera moved the other way about the target
        yaw -= bump.rot_deg
        tilt = min(max(tilt + bump.tilt_deg, 0.0), 60.0)
        tgt = tgt - np.array([bump.dx_mm, bump.dy_mm, 0.0])
    r = _rot_z(math.radians(cond.roll_deg)) @ _rot_x(math.radians(tilt)) @ _rot_z(math.radians(yaw))
    forward = r.T @ np.array([0.0, 0.0, 1.0])
    c = tgt - dist * forward
    return _Camera(k=k, r=r, c=c)


def _focal_px(fov_deg: float, width: int) -> float:
    """Focal length in pixels of a pinhole camera of horizontal field of view ``fov_deg`` on a
    frame ``width`` px wide."""
    return (width / 2) / math.tan(math.radians(fov_deg) / 2)


def _corner_r2(f: float, size: tuple[int, int]) -> float:
    """Squared radius of a ``size`` (W, H) frame's corner in coordinates normalised by the
    focal length ``f`` px (the principal point at the frame's centre)."""
    w, h = size
    return ((w / 2) ** 2 + (h / 2) ** 2) / (f * f)


def barrel_limit(fov_deg: float, size: tuple[int, int], corner_slope: float) -> float:
    """The strongest barrel ``lens_k1`` (most negative) a view of horizontal field of view
    ``fov_deg`` on a ``size`` (W, H) frame takes with the radial map's slope at the corner,
    ``1 + 3 k1 r^2``, still at least ``corner_slope`` (0 folds the corners; 0.4 stretches
    them 2.5x). The renderer refuses a lens beyond a slope of 0.05."""
    return -(1.0 - corner_slope) / (3.0 * _corner_r2(_focal_px(fov_deg, size[0]), size))


@dataclass(frozen=True)
class _Lens:
    """Radial (barrel) distortion ``d = u (1 + k1 |u|^2)`` of ideal normalised coordinates
    ``u = (p - c) / f`` (pixels ``p``, principal point ``c``, focal length ``f``), drawn at
    focal length ``f * zoom`` so the distorted frame's corners show the ideal frame's
    corners (the frame stays filled). Source of the model: Brown (1966), as in OpenCV's
    ``calib3d`` camera model with only ``k1``."""

    k1: float
    f: float
    c: tuple[float, float]
    zoom: float

    @classmethod
    def for_frame(cls, k1: float, f: float, size: tuple[int, int]) -> _Lens:
        """The lens for a ``size`` (W, H) frame at focal length ``f`` px.

        Raises:
            ValueError: ``k1`` folds the frame (the radial map is not monotonic out to the
                corners: ``1 + 3 k1 r^2 <= 0``).
        """
        w, h = size
        r2 = _corner_r2(f, size)
        if 1 + 3 * k1 * r2 <= 0.05:
            raise ValueError(f"lens_k1 {k1} folds a frame this wide (corner radius^2 {r2:.2f})")
        return cls(k1=k1, f=f, c=(w / 2, h / 2), zoom=1.0 / (1.0 + k1 * r2))

    def distort(self, pts: NDArray[np.float64]) -> NDArray[np.float64]:
        """Ideal image points (N, 2) px -> where the lens draws them (N, 2) px."""
        c = np.array(self.c)
        u = (np.asarray(pts, np.float64) - c) / self.f
        g = 1.0 + self.k1 * np.sum(u * u, axis=-1, keepdims=True)
        return np.asarray(c + self.f * self.zoom * u * g, np.float64)

    def maps(self, size: tuple[int, int]) -> tuple[F32, F32]:
        """``cv2.remap`` maps (H, W) float32: for each output pixel, the ideal pixel it shows
        (the radial map inverted by Newton's method, 6 steps: error < 1e-6 px)."""
        w, h = size
        xs = (np.arange(w, dtype=np.float64) - self.c[0]) / (self.f * self.zoom)
        ys = (np.arange(h, dtype=np.float64) - self.c[1]) / (self.f * self.zoom)
        rd = np.hypot(xs[None, :], ys[:, None])
        ru = rd.copy()
        for _ in range(6):  # solve ru (1 + k1 ru^2) = rd
            ru -= (ru * (1 + self.k1 * ru * ru) - rd) / (1 + 3 * self.k1 * ru * ru)
        scale = np.where(rd > 1e-12, ru / np.maximum(rd, 1e-12), 1.0)
        mx = (self.c[0] + self.f * xs[None, :] * scale).astype(np.float32)
        my = (self.c[1] + self.f * ys[:, None] * scale).astype(np.float32)
        return mx, my


def _rounded_square(half: float, radius: float, n_arc: int = 5) -> NDArray[np.float64]:
    """Outline (N, 2) of a square of half-width ``half`` with rounded corners, clockwise
    (in image-like axes, y down) starting at the top-left corner's arc."""
    pts = []
    r = min(radius, half * 0.99)
    centers = [
        (-half + r, -half + r, math.pi),
        (half - r, -half + r, 1.5 * math.pi),
        (half - r, half - r, 0.0),
        (-half + r, half - r, 0.5 * math.pi),
    ]
    for cx, cy, a0 in centers:
        for i in range(n_arc + 1):
            a = a0 + 0.5 * math.pi * i / n_arc
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(pts, dtype=np.float64)


def _circle(cx: float, cy: float, r: float, n: int = 40) -> NDArray[np.float64]:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a)])


def _star(
    n_points: int, outer: float, inner: float, phase: float, concave: float = 0.0
) -> NDArray[np.float64]:
    """Star outline with ``n_points`` tips; ``concave`` bows the edges inward (0 = straight)."""
    pts = []
    steps = 6 if concave > 0 else 1
    for i in range(n_points):
        a_tip = phase + 2 * np.pi * i / n_points
        a_in = a_tip + np.pi / n_points
        a_next = a_tip + 2 * np.pi / n_points
        tip = np.array([outer * np.cos(a_tip), outer * np.sin(a_tip)])
        inn = np.array([inner * np.cos(a_in), inner * np.sin(a_in)])
        nxt = np.array([outer * np.cos(a_next), outer * np.sin(a_next)])
        for seg_a, seg_b in ((tip, inn), (inn, nxt)):
            for s in range(steps):
                t = s / steps
                p = seg_a * (1 - t) + seg_b * t
                if concave > 0:
                    bow = concave * 4 * t * (1 - t)
                    p = p * (1 - bow)
                pts.append(p)
    return np.array(pts, dtype=np.float64)


def _symbol_polys(shape: Shape, v: Mapping[str, float] | None = None) -> list[NDArray[np.float64]]:
    """Filled polygons (union) of a symbol in tile units (tile width 1, centred, y down).

    Proportions from photos of the classic set: each symbol spans ~60-70% of the tile; the
    square's edges, the diamond's tips and the clover's lobes align with the tile's edges, the
    criss-cross points to its corners. ``v`` scales the proportions (keys of
    :data:`_ART_BOUNDS`, 1 = classic; ``round`` is the square's corner radius in tile units).
    """
    f = dict.fromkeys(_ART_BOUNDS, 1.0) | {"round": 0.0} | dict(v or {})
    k = f["scale"]
    if shape is Shape.CIRCLE:
        return [_circle(0, 0, 0.31 * k * f["circle"], 72)]
    if shape is Shape.SQUARE:
        s = 0.285 * k * f["square"]
        if f["round"] > 0:
            return [_rounded_square(s, f["round"], 5)]
        return [np.array([[-s, -s], [s, -s], [s, s], [-s, s]], np.float64)]
    if shape is Shape.DIAMOND:
        d = 0.36 * k
        dx, dy = d / math.sqrt(f["diamond_aspect"]), d * math.sqrt(f["diamond_aspect"])
        return [np.array([[0, -dy], [dx, 0], [0, dy], [-dx, 0]], np.float64)]
    if shape is Shape.CLOVER:
        r, off = 0.15 * k * f["clover_lobe"], 0.165 * k * f["clover_spread"]
        polys = [
            _circle(off * math.cos(a), off * math.sin(a), r, 48)
            for a in (0, math.pi / 2, math.pi, 1.5 * math.pi)
        ]
        polys.append(_circle(0, 0, 0.14 * k * f["clover_lobe"], 24))
        return polys
    if shape is Shape.STAR4:
        return [_star(4, 0.42 * k, 0.10 * k * f["star4_inner"], math.pi / 4, 0.18 * f["star4_bow"])]
    if shape is Shape.STAR8:
        return [_star(8, 0.35 * k, 0.19 * k * f["star8_inner"], -math.pi / 2)]
    raise ValueError(f"unknown shape {shape!r}")  # pragma: no cover


#: Bounds of :attr:`Conditions.art` at 1: each proportion of the classic art moves by up to
#: this fraction either way (``scale`` for every symbol of a set at once; ``round``, the
#: square's corner radius, is in tile units, from 0). Chosen so every symbol stays itself:
#: a diamond 25 % taller than wide is still no square turned by the tile's few degrees, and a
#: clover whose lobes spread 15 % still touch its centre.
_ART_BOUNDS: dict[str, float] = {
    "scale": 0.10,
    "circle": 0.05,
    "square": 0.06,
    "diamond_aspect": 0.12,
    "clover_lobe": 0.20,
    "clover_spread": 0.15,
    "star4_inner": 0.25,
    "star4_bow": 0.30,
    "star8_inner": 0.15,
    "round": 0.06,
}


def art_symbols(art: float, rng: np.random.Generator) -> dict[Shape, list[NDArray[np.float64]]]:
    """The six symbols of one set's art: :func:`_symbol_polys` with its proportions moved.

    Args:
        art: 0..1, :attr:`Conditions.art` (0 returns the classic art).
        rng: draws each proportion's direction (the same draws whatever ``art``, so a larger
            ``art`` moves the same set's art further the same way).

    Returns:
        ``{shape: [polygon (n, 2) in tile units, ...]}``, the polygons' union being the symbol.
    """
    draws = {name: float(rng.uniform(-1.0, 1.0)) for name in _ART_BOUNDS}
    if art <= 0.0:
        return _SYMBOLS
    v = {name: 1.0 + art * bound * draws[name] for name, bound in _ART_BOUNDS.items()}
    v["round"] = art * _ART_BOUNDS["round"] * abs(draws["round"])
    return {s: _symbol_polys(s, v) for s in Shape}


_SYMBOLS: dict[Shape, list[NDArray[np.float64]]] = {s: _symbol_polys(s) for s in Shape}
#: Tile footprint and top outlines (mm, centred): rounded corners, the top a little smaller
#: (the blocks' upper edges are rounded off).
_TILE_FOOT = _rounded_square(TILE_MM / 2, TILE_MM * 0.09, 4)
_TILE_TOP = _rounded_square(TILE_MM / 2 * 0.97, TILE_MM * 0.1, 4)


_ARM_RISE = 0.18  # forearm height gained per mm toward the body (elbow above the table)


def _hand_polys(hand: Hand, arm_mm: float = 800.0) -> list[tuple[str, NDArray[np.float64]]]:
    """Hand/arm polygons in a hand frame: mm, fingertips at the origin, arm along +u (toward
    the body), v across; third column is height above the fingertips (mm)."""

    def capsule(
        p0: tuple[float, float],
        p1: tuple[float, float],
        w0: float,
        w1: float,
        z0: float,
        z1: float,
        n: int = 8,
    ) -> NDArray[np.float64]:
        a = np.array(p0, np.float64)
        b = np.array(p1, np.float64)
        d = b - a
        length = float(np.hypot(*d)) or 1.0
        t = d / length
        nrm = np.array([-t[1], t[0]])
        pts = []
        for i in range(n + 1):  # cap at p1
            ang = -np.pi / 2 + np.pi * i / n
            pts.append((*(b + (np.cos(ang) * t + np.sin(ang) * nrm) * w1 / 2), z1))
        for i in range(n + 1):  # cap at p0
            ang = np.pi / 2 + np.pi * i / n
            pts.append((*(a + (np.cos(ang) * t + np.sin(ang) * nrm) * w0 / 2), z0))
        return np.array(pts, np.float64)

    polys: list[tuple[str, NDArray[np.float64]]] = []
    finger_len = 75.0 * (1 - 0.45 * hand.curl)
    palm_len, palm_w = 95.0, 84.0
    base_u = finger_len  # palm's finger edge
    rise = _ARM_RISE
    # forearm from the wrist to beyond the image edge (the caller measures ``arm_mm``)
    wrist_u = base_u + palm_len
    far_u = max(wrist_u + 150.0, arm_mm)
    polys.append(
        ("skin", capsule((wrist_u - 10, 0), (far_u, 0), 60, 80, wrist_u * 0.1, far_u * rise))
    )
    sleeve_start = wrist_u + 60.0 + 120.0 * (hand.spread_deg / 16.0)
    if hand.sleeve_rgb is not None:
        polys.append(
            (
                "sleeve",
                capsule(
                    (sleeve_start, 0), (far_u, 0), 92, 110, sleeve_start * rise * 0.6, far_u * rise
                ),
            )
        )
    # palm
    palm = capsule(
        (base_u + 18, 0), (wrist_u - 10, 0), palm_w, 66, base_u * 0.1, wrist_u * 0.1, n=10
    )
    polys.append(("palm", palm))
    # fingers
    widths = (17.0, 19.0, 18.5, 16.0)
    lens = (0.82, 1.0, 0.95, 0.75)
    offs = (-28.0, -9.5, 9.5, 27.0)
    for i in range(4):
        ang = math.radians((i - 1.5) * hand.spread_deg)
        ln = finger_len * lens[i]
        root = (base_u + 8, offs[i])
        tip = (base_u + 8 - ln * math.cos(ang), offs[i] - ln * math.sin(ang) * 1.0)
        polys.append(("finger", capsule(root, tip, widths[i], widths[i] * 0.85, 8, 0)))
        polys.append(("nail", _nail(root, tip, widths[i] * 0.55, 0.0)))
    # thumb from the palm's side
    side = 1.0 if hand.spread_deg > 8 else -1.0
    t_root = (base_u + 60, side * 34.0)
    t_ang = math.radians(35 + 2 * hand.spread_deg)
    t_tip = (t_root[0] - 58 * math.cos(t_ang), t_root[1] + side * 58 * math.sin(t_ang))
    polys.append(("finger", capsule(t_root, t_tip, 24, 19, 12, 4)))
    polys.append(("nail", _nail(t_root, t_tip, 24 * 0.55, 4.0)))
    return polys


def _nail(
    root: tuple[float, float], tip: tuple[float, float], width: float, z: float
) -> NDArray[np.float64]:
    """A finger nail seen from above: an ellipse just behind the tip (hand frame, mm)."""
    a, b = np.array(root), np.array(tip)
    d = b - a
    t = d / (float(np.hypot(*d)) or 1.0)
    centre = b - t * (width * 0.95)
    length = width * 1.25
    ang = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    nrm = np.array([-t[1], t[0]])
    pts = centre + np.outer(np.cos(ang) * length / 2, t) + np.outer(np.sin(ang) * width / 2, nrm)
    return np.column_stack([pts, np.full(len(pts), z + 1.0)])


# ----------------------------------------------------------------------------------------------
# Compositing helpers
# ----------------------------------------------------------------------------------------------
_SHIFT = 4  # sub-pixel bits for cv2.fillPoly
_SCALE = float(1 << _SHIFT)


def _poly_mask(polys: Sequence[NDArray[np.float64]], x0: int, y0: int, w: int, h: int) -> F32:
    """Anti-aliased coverage (h, w) float32 0..1 of polygons (image xy) in the ROI at (x0, y0)."""
    m = np.zeros((h, w), np.uint8)
    pts = [np.round((p - (x0, y0)) * _SCALE).astype(np.int32) for p in polys]
    cv2.fillPoly(m, pts, 255, cv2.LINE_AA, _SHIFT)
    return m.astype(np.float32) * np.float32(1 / 255)


def _blend(img: F32, mask: F32, color: F32 | NDArray[np.float32], x0: int, y0: int) -> None:
    """In place: ``img[roi] = img[roi] * (1 - mask) + color * mask`` (color (3,) or (h, w, 3))."""
    h, w = mask.shape
    roi = img[y0 : y0 + h, x0 : x0 + w]
    m = mask[..., None]
    roi *= 1 - m
    roi += m * color


def _roi(
    pts: NDArray[np.float64], size: tuple[int, int], pad: int = 2
) -> tuple[int, int, int, int] | None:
    w, h = size
    x0 = max(math.floor(pts[:, 0].min()) - pad, 0)
    y0 = max(math.floor(pts[:, 1].min()) - pad, 0)
    x1 = min(math.ceil(pts[:, 0].max()) + pad, w)
    y1 = min(math.ceil(pts[:, 1].max()) + pad, h)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1 - x0, y1 - y0


_NOISE_N = 1031  # prime side of the cached Gaussian noise bank (no visible period)


@functools.lru_cache(maxsize=1)
def _noise_bank() -> F32:
    """A fixed (N, N, 3) float32 standard-normal field; frames cut shifted, flipped views of it
    (drawing 36 M fresh normals for a 12 MP frame takes over a second)."""
    return np.random.default_rng(20240601).standard_normal(
        (_NOISE_N, _NOISE_N, 3), dtype=np.float32
    )


def _noise_field(rng: np.random.Generator, h: int, w: int) -> F32:
    """(h, w, 3) float32 unit Gaussian noise for one frame, chosen by ``rng``."""
    bank = _noise_bank()
    if rng.random() < 0.5:
        bank = bank.transpose(1, 0, 2)
    if rng.random() < 0.5:
        bank = bank[::-1]
    n = _NOISE_N
    oy, ox = (int(v) for v in rng.integers(0, n, size=2))
    out = np.empty((h, w, 3), np.float32)
    y, sy = 0, oy
    while y < h:  # copy wrapped blocks of the bank
        ch = min(n - sy, h - y)
        x, sx = 0, ox
        while x < w:
            cw = min(n - sx, w - x)
            out[y : y + ch, x : x + cw] = bank[sy : sy + ch, sx : sx + cw]
            x, sx = x + cw, 0
        y, sy = y + ch, 0
    return out


def _noise_sigma(img: F32, shot: float, read: float) -> F32:
    """Per-pixel noise sigma (linear units): Poisson-like shot noise plus read noise.

    Source: the usual affine (Poisson-Gaussian) sensor noise model, variance = a * signal + b
    (Foi et al., "Practical Poissonian-Gaussian noise modeling", IEEE TIP 2008). The signal is
    smooth enough to evaluate at 1/4 resolution.
    """
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(w // 4, 1), max(h // 4, 1)), interpolation=cv2.INTER_AREA)
    sig = np.sqrt(np.maximum(small, 0) * np.float32(shot) + np.float32(read * read * 0.25))
    return cast(F32, cv2.resize(sig, (w, h), interpolation=cv2.INTER_LINEAR))


def _denoise(img: F32, strength: float) -> F32:
    """A phone-like noise reduction: chroma smoothed hard, luminance gently (0..1 strength)."""
    w709 = np.array([0.0722, 0.7152, 0.2126], np.float32)  # BGR, Rec. 709
    luma = img @ w709
    chroma = img - luma[..., None]
    chroma = cv2.GaussianBlur(chroma, (0, 0), 0.5 + 2.0 * strength)
    smooth = cv2.GaussianBlur(luma, (0, 0), 0.8)
    luma = luma + (smooth - luma) * np.float32(0.6 * strength)
    return cast(F32, luma[..., None] + chroma)


def _chromatic_aberration(img: F32, px: float) -> F32:
    """Lateral chromatic aberration: red scaled up, blue down about the centre so each is
    displaced by ``px`` pixels at the corners (green, the reference, stays)."""
    h, w = img.shape[:2]
    half_diag = math.hypot(w, h) / 2
    out = img.copy()
    for ch, sign in ((2, 1.0), (0, -1.0)):
        s = 1 + sign * px / half_diag
        m = np.array([[s, 0, (1 - s) * w / 2], [0, s, (1 - s) * h / 2]], np.float64)
        out[..., ch] = cv2.warpAffine(
            img[..., ch], m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
        )
    return out


def _seed_rng(*key: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([int(k) & 0xFFFFFFFF for k in key]))


# stream tags
_T_CAMERA, _T_TABLE, _T_TILE, _T_HAND, _T_FRAME, _T_LIGHT, _T_PALETTE, _T_CLUTTER = range(1, 9)
_T_ART = 9


# ----------------------------------------------------------------------------------------------
# Clutter: everyday objects on the table around the board
# ----------------------------------------------------------------------------------------------
_CLUTTER_KINDS = ("sheet", "pencil", "cup", "bag", "die", "coin", "facedown")
#: Clutter tall enough to hide tiles (drawn after them; counted as an occluder in the truth).
_TALL_CLUTTER = ("cup", "bag")
#: How far each kind of clutter reaches from its centre, mm (about; placement keeps it clear).
CLUTTER_RADIUS_MM: dict[str, float] = {
    "sheet": 95.0,
    "pencil": 90.0,
    "cup": 45.0,
    "bag": 90.0,
    "die": 12.0,
    "coin": 13.0,
    "facedown": 24.0,
}


def _clutter_items(
    rng: np.random.Generator,
    count: int,
    keep_out: tuple[float, float, float, float],
    view: tuple[float, float, float, float],
    on_table: Any = None,
) -> list[dict[str, Any]]:
    """Random objects (world mm) outside the ``keep_out`` box ``(x0, y0, x1, y1)``, on the
    table (``on_table(x, y, margin)``) and, where possible, inside the ``view`` box."""
    items: list[dict[str, Any]] = []
    kx0, ky0, kx1, ky1 = keep_out
    vx0, vy0, vx1, vy1 = view
    for _ in range(count):
        kind = _CLUTTER_KINDS[int(rng.integers(len(_CLUTTER_KINDS)))]
        radius = CLUTTER_RADIUS_MM[kind]
        for _attempt in range(30):
            x = float(rng.uniform(vx0, vx1))
            y = float(rng.uniform(vy0, vy1))
            outside = x + radius < kx0 or x - radius > kx1 or y + radius < ky0 or y - radius > ky1
            if outside and (on_table is None or on_table(x, y, radius * 0.7)):
                break
        else:
            continue
        items.append(
            {
                "kind": kind,
                "x": x,
                "y": y,
                "angle": float(rng.uniform(0, 2 * np.pi)),
                "seed": int(rng.integers(1 << 30)),
            }
        )
    return items


def _place_table(
    rng: np.random.Generator,
    size_mm: tuple[float, float],
    lo: NDArray[np.float64],
    hi: NDArray[np.float64],
) -> tuple[float, float, float, float]:
    """A table top ``(u0, v0, u1, v1)`` (canvas-frame mm, long side along u) holding the box
    ``lo..hi`` with at least 60 mm to spare where it can (boards are played on the table)."""
    margin = 60.0
    out = []
    for axis, length in ((0, max(size_mm)), (1, min(size_mm))):
        need_lo, need_hi = float(lo[axis]) - margin, float(hi[axis]) + margin
        if need_hi - need_lo >= length:  # a board bigger than the table: grow the table
            start, length = need_lo, need_hi - need_lo
        else:
            start = float(rng.uniform(need_hi - length, need_lo))
        out.append((start, start + length))
    (u0, u1), (v0, v1) = out
    return (u0, v0, u1, v1)


def _with_floor(
    texture: U8,
    rng: np.random.Generator,
    rect: tuple[float, float, float, float],
    lo: NDArray[np.float64],
    mm_per_px: float,
) -> U8:
    """The texture with everything outside the table top ``rect`` (canvas-frame mm, canvas
    origin at ``lo``) replaced by a far, dark, defocused floor and a thin edge band."""
    h, w = texture.shape[:2]
    u0, v0, u1, v1 = rect
    xs = (lo[0] + (np.arange(w) + 0.5) * mm_per_px).astype(np.float32)
    ys = (lo[1] + (np.arange(h) + 0.5) * mm_per_px).astype(np.float32)
    du = np.minimum(xs - u0, u1 - xs)  # distance inside the table along each axis (mm)
    dv = np.minimum(ys - v0, v1 - ys)
    edge_mm = 18.0  # the table top's rounded edge, seen from above: darker toward the drop
    if min(float(du.min()), float(dv.min())) >= edge_mm:
        return texture
    inside = np.minimum(dv[:, None], du[None, :])  # < 0 outside
    floor_rgb = [(58, 50, 44), (40, 40, 44), (96, 84, 70), (30, 26, 24)][int(rng.integers(4))]
    sw, sh = max(w // 4, 4), max(h // 4, 4)  # the floor is far and out of focus: low-res
    floor = np.empty((sh, sw, 3), np.float32)
    floor[:] = np.array(floor_rgb[::-1], np.float32)
    floor *= (1 + 0.25 * _fbm(rng, (sh, sw), 20 / mm_per_px, 3))[..., None]
    floor = cv2.GaussianBlur(floor, (0, 0), max(0.5, 1.5 / mm_per_px))
    floor = cv2.resize(floor, (w, h), interpolation=cv2.INTER_LINEAR)
    shade = 0.55 + 0.45 * np.clip(inside / edge_mm, 0, 1)
    alpha = np.clip(0.5 + inside / (2 * max(1.5, 1.5 * mm_per_px)), 0, 1)  # anti-aliased edge
    out = texture.astype(np.float32) * (shade * alpha)[..., None] + floor * (1 - alpha)[..., None]
    return cast(U8, np.clip(out, 0, 255).astype(np.uint8))


def _rect(wd: float, ht: float) -> NDArray[np.float64]:
    return np.array([[-wd / 2, -ht / 2], [wd / 2, -ht / 2], [wd / 2, ht / 2], [-wd / 2, ht / 2]])


def _draw_clutter(
    img: F32,
    gloss: F32,
    cam: _Camera,
    items: Sequence[dict[str, Any]],
    size: tuple[int, int],
    sh_dir: NDArray[np.float64],
    shadow: float,
    occluder: F32 | None = None,
) -> None:
    """Draw clutter ``items`` (from :func:`_clutter_items`) into ``img`` (linear, in place);
    their coverage is accumulated into ``occluder`` (H, W) when given."""
    for it in items:
        rng = np.random.default_rng(it["seed"])
        ca, sa = math.cos(it["angle"]), math.sin(it["angle"])
        rot = np.array([[ca, -sa], [sa, ca]])
        origin = np.array([it["x"], it["y"]])

        def proj(
            local: NDArray[np.float64],
            z: float,
            rot: NDArray[np.float64] = rot,
            origin: NDArray[np.float64] = origin,
        ) -> NDArray[np.float64] | None:
            world = local @ rot.T + origin
            xy, depth = cam.project(np.column_stack([world, np.full(len(world), -z)]))
            return xy if np.all(depth > 0) else None

        def fill(
            polys: list[NDArray[np.float64] | None],
            colour: Sequence[float] | F32,
            alpha: float = 1.0,
        ) -> tuple[int, int, F32] | None:
            ps = [p for p in polys if p is not None]
            if not ps:
                return None
            roi = _roi(np.vstack(ps), size)
            if roi is None:
                return None
            x0, y0, rw, rh = roi
            m = _poly_mask(ps, x0, y0, rw, rh) * np.float32(alpha)
            c = colour if isinstance(colour, np.ndarray) else _lin(colour)
            _blend(img, m, c, x0, y0)
            if occluder is not None:
                sub = occluder[y0 : y0 + rh, x0 : x0 + rw]
                np.maximum(sub, m, out=sub)
            return x0, y0, m

        def cast_shadow(
            local: NDArray[np.float64], height: float, rot: NDArray[np.float64] = rot
        ) -> None:
            base = proj(local + (sh_dir @ rot) * height * 0.5, 0.0)
            if base is None:
                return
            roi = _roi(base, size, pad=6)
            if roi is None:
                return
            x0, y0, rw, rh = roi
            m = _poly_mask([base], x0, y0, rw, rh)
            m = cast(F32, cv2.GaussianBlur(m, (0, 0), 2.0))
            img[y0 : y0 + rh, x0 : x0 + rw] *= (1 - shadow * 0.6 * m)[..., None]

        kind = it["kind"]
        if kind == "sheet":
            outline = _rect(105, 148)
            cast_shadow(outline, 1.0)
            paper = (int(rng.integers(232, 250)),) * 2 + (int(rng.integers(220, 240)),)
            fill([proj(outline, 0.3)], paper)
            ink = _lin((30, 40, 110) if rng.random() < 0.5 else (50, 50, 55))
            # ruled lines and handwritten scores
            for row in range(-64, 70, 8):
                line = proj(np.array([[-46.0, row], [46.0, row]]), 0.3)
                if line is not None:
                    _line(img, line, _lin((150, 180, 220)), 0.45, cam, size)
                if rng.random() < 0.6:
                    x = -44.0 + rng.uniform(0, 10)
                    pts = [[x, row - 1.0]]
                    for _ in range(int(rng.integers(6, 22))):
                        x += rng.uniform(1.0, 3.0)
                        pts.append([x, row - 1.0 - rng.uniform(0, 5.0)])
                    scrib = proj(np.array(pts), 0.3)
                    if scrib is not None:
                        _line(img, scrib, ink, 0.5, cam, size)
        elif kind == "pencil":
            body = _rect(170, 7.5)
            cast_shadow(body, 7.5)
            colour = [(232, 186, 40), (40, 90, 170), (200, 40, 40), (40, 140, 70)][
                int(rng.integers(4))
            ]
            fill([proj(body, 7.5)], colour)
            stripe = _rect(170, 2.4) + np.array([0.0, 1.8])  # the lit facet of the hexagon
            fill([proj(stripe, 7.5)], np.clip(_lin(colour) * 1.4, 0, 1))
            tip = np.array([[85, -3.75], [85, 3.75], [103, 0]])
            fill([proj(tip, 5.0)], (222, 184, 135))
            fill([proj(np.array([[99, -1], [99, 1], [103, 0]]), 4.0)], (45, 45, 48))
        elif kind == "cup":
            cast_shadow(_circle(0, 0, 40, 32), 95.0)
            rims = [proj(_circle(0, 0, 38, 40), 0.0), proj(_circle(0, 0, 42, 40), 95.0)]
            rim_pts = [p for p in rims if p is not None]
            if len(rim_pts) == 2:
                hull = cv2.convexHull(np.vstack(rim_pts).astype(np.float32)).reshape(-1, 2)
                colour = [(240, 240, 235), (30, 60, 120), (190, 60, 50), (60, 60, 60)][
                    int(rng.integers(4))
                ]
                fill([hull.astype(np.float64)], np.clip(_lin(colour) * 0.75, 0, 1))
                fill([proj(_circle(0, 0, 42, 40), 95.0)], colour)
                fill([proj(_circle(0, 0, 37, 40), 90.0)], (70, 40, 22))
        elif kind == "bag":
            ang = np.linspace(0, 2 * np.pi, 48, endpoint=False)
            ph = rng.uniform(0, 2 * np.pi, size=2)
            r = 60 * (1 + 0.12 * np.sin(2 * ang + ph[0]) + 0.07 * np.sin(3 * ang + ph[1]))
            outline = np.column_stack([r * 1.4 * np.cos(ang), r * np.sin(ang)])
            cast_shadow(outline, 40.0)
            colour = [(48, 36, 80), (25, 25, 30), (90, 30, 40)][int(rng.integers(3))]
            res = fill([proj(outline, 30.0)], colour)
            if res is not None:
                x0, y0, m = res
                n = _fbm(rng, m.shape, 6, 3) * 0.25
                roi = img[y0 : y0 + m.shape[0], x0 : x0 + m.shape[1]]
                roi *= (1 + n * m)[..., None]
        elif kind == "die":
            cast_shadow(_rect(16, 16), 16.0)
            foot, top = proj(_rect(16, 16), 0.0), proj(_rect(15, 15), 16.0)
            if foot is not None and top is not None:
                hull = cv2.convexHull(np.vstack([foot, top]).astype(np.float32)).reshape(-1, 2)
                fill([hull.astype(np.float64)], (170, 170, 165))
                fill([top], (238, 236, 230))
                pips = {
                    1: [(0, 0)],
                    2: [(-4, -4), (4, 4)],
                    3: [(-4, -4), (0, 0), (4, 4)],
                    4: [(-4, -4), (4, -4), (-4, 4), (4, 4)],
                    5: [(-4, -4), (4, -4), (0, 0), (-4, 4), (4, 4)],
                    6: [(-4, -4), (4, -4), (-4, 0), (4, 0), (-4, 4), (4, 4)],
                }[int(rng.integers(1, 7))]
                fill([proj(_circle(px_, py_, 1.6, 12), 16.0) for px_, py_ in pips], (25, 25, 25))
            gl = proj(_rect(15, 15), 16.0)
            if gl is not None:
                gl_roi = _roi(gl, size)
                if gl_roi is not None:
                    x0, y0, rw, rh = gl_roi
                    gloss[y0 : y0 + rh, x0 : x0 + rw] = np.maximum(
                        gloss[y0 : y0 + rh, x0 : x0 + rw], _poly_mask([gl], x0, y0, rw, rh) * 0.4
                    )
        elif kind == "coin":
            cast_shadow(_circle(0, 0, 12, 24), 2.0)
            colour = [(196, 160, 80), (190, 190, 195), (170, 110, 70)][int(rng.integers(3))]
            fill([proj(_circle(0, 0, 12, 32), 2.0)], colour)
            fill([proj(_circle(0, 0, 10.5, 32), 2.0)], np.clip(_lin(colour) * 1.2, 0, 1))


def _line(
    img: F32,
    pts_xy: NDArray[np.float64],
    colour: F32,
    width_mm: float,
    cam: _Camera,
    size: tuple[int, int],
) -> None:
    roi = _roi(pts_xy, size, pad=3)
    if roi is None:
        return
    x0, y0, rw, rh = roi
    m = np.zeros((rh, rw), np.uint8)
    scale = float(cam.k[0, 0] / max(np.linalg.norm(cam.c), 1.0))  # px per mm near the table
    thick = max(1, round(width_mm * scale))
    pts = np.round((pts_xy - (x0, y0)) * _SCALE).astype(np.int32)
    cv2.polylines(m, [pts], False, 255, thick, cv2.LINE_AA, _SHIFT)
    alpha = m.astype(np.float32) * np.float32(min(1.0, width_mm * scale) / 255)
    _blend(img, alpha, colour, x0, y0)


# ----------------------------------------------------------------------------------------------
# Scene
# ----------------------------------------------------------------------------------------------
class Scene:
    """A table, camera and light held fixed across the frames of one game (for video).

    Args:
        conditions: the scene's conditions.
        seed: any int; the same seed and arguments give the same frames.
        size: image ``(width, height)`` in pixels (640x480 .. 4000x3000 and beyond).
        palette: the tile set's colours (default: the classic six). Board colours not in it are
            taken from :data:`calibration.profile.NAMED_COLORS`.
        fit: a board to frame (single renders); the camera backs off until it fits.
        span: without ``fit``, how many lattice cells the camera frames across the shorter side
            at most (a game grows into it; tiles outside the frame are ``visible=False``).

    Raises:
        ValueError: a size below 32x32.
    """

    def __init__(
        self,
        conditions: Conditions,
        seed: int,
        *,
        size: tuple[int, int] = (1280, 720),
        palette: Palette | None = None,
        fit: Board | None = None,
        span: float = 11.0,
    ) -> None:
        w, h = int(size[0]), int(size[1])
        if w < 32 or h < 32:
            raise ValueError(f"image size must be at least 32x32, got {size}")
        self.conditions = conditions
        self.seed = int(seed)
        self.size = (w, h)
        self.palette = palette or Palette.classic()
        cond = conditions
        self._symbols = art_symbols(cond.art, _seed_rng(self.seed, _T_ART))
        self.pitch_mm = TILE_MM * (1 + cond.gap)
        self.thick_mm = TILE_MM * cond.tile_thickness
        f = _focal_px(cond.fov_deg, w)
        dist = f * TILE_MM / cond.tile_px
        # board frame: cell (r, c) centre at ((c - mid_c) * pitch, (r - mid_r) * pitch)
        if fit:
            r0, c0, r1, c1 = fit.bounds()
        else:
            r0 = c0 = 0
            r1 = c1 = 0
        self.mid = ((r0 + r1) / 2.0, (c0 + c1) / 2.0)
        off = np.array(cond.center_offset, np.float64)
        if fit:
            corners = np.array(
                [[c, r] for r in (r0 - 0.6, r1 + 0.6) for c in (c0 - 0.6, c1 + 0.6)], np.float64
            )
        else:
            half = span / 2.0
            corners = np.array([[c, r] for r in (-half, half) for c in (-half, half)], np.float64)
            corners += np.array([self.mid[1], self.mid[0]])
        world = np.column_stack(
            [
                (corners[:, 0] - self.mid[1]) * self.pitch_mm,
                (corners[:, 1] - self.mid[0]) * self.pitch_mm,
                np.full(len(corners), -self.thick_mm),
            ]
        )
        # put the board centre at the wanted image offset; then the nearest camera distance
        # (>= the one giving ``tile_px``) at which the board fits, by bisection on log(dist)
        margin = 0.04 * min(w, h)

        def aim(d: float, o: NDArray[np.float64]) -> NDArray[np.float64]:
            tgt = np.zeros(3)
            for _ in range(3):
                cam = _make_camera(self.size, cond, tgt, d)
                p = np.linalg.inv(cam.plane_h(0.0)) @ np.array(
                    [w / 2 + o[0] * w, h / 2 + o[1] * h, 1.0]
                )
                # the table point seen at the wanted pixel should become the board centre
                tgt = tgt - np.array([p[0] / p[2], p[1] / p[2], 0.0])
            return tgt

        def fits(d: float, o: NDArray[np.float64]) -> bool:
            cam = _make_camera(self.size, cond, aim(d, o), d)
            xy, z = cam.project(world)
            if np.any(z <= 0.05 * d):
                return False
            lo, hi = xy.min(axis=0), xy.max(axis=0)
            return bool(
                lo[0] >= margin and lo[1] >= margin and hi[0] <= w - margin and hi[1] <= h - margin
            )

        if not fits(dist, off):
            if not fits(dist * 1000.0, off):
                off = np.zeros(2)
            lo_d, hi_d = dist, dist * 1000.0
            for _ in range(40):
                mid_d = math.sqrt(lo_d * hi_d)
                if fits(mid_d, off):
                    hi_d = mid_d
                else:
                    lo_d = mid_d
            dist = hi_d
        target = aim(dist, off)
        self.target = target
        self.dist = dist
        self.camera = _make_camera(self.size, cond, target, dist)
        self._f = f
        # table texture on a canvas in its own (rotated) frame covering the view plus a margin
        trng = _seed_rng(self.seed, _T_TABLE)
        self.table_angle = (
            float(trng.uniform(0, 2 * np.pi))
            if trng.random() < 0.7
            else float(trng.choice([0.0, np.pi / 2]) + trng.normal(0, 0.05))
        )
        hinv = np.linalg.inv(self.camera.plane_h(0.0))
        mx, my = 0.25 * w, 0.25 * h
        img_corners = np.array(
            [[-mx, -my, 1], [w + mx, -my, 1], [w + mx, h + my, 1], [-mx, h + my, 1]], np.float64
        )
        wc = (hinv @ img_corners.T).T
        wc = wc[:, :2] / wc[:, 2:3]
        rot = np.array(
            [
                [math.cos(self.table_angle), -math.sin(self.table_angle)],
                [math.sin(self.table_angle), math.cos(self.table_angle)],
            ]
        )
        canvas_pts = wc @ rot  # world -> canvas frame (rot^T applied to row vectors)
        lo = canvas_pts.min(axis=0)
        hi = canvas_pts.max(axis=0)
        area = float(np.prod(hi - lo))
        budget = float(min(w * h * 0.8, 3.5e6))
        mmpp = max(math.sqrt(area / budget), 0.05)
        cw = max(int((hi[0] - lo[0]) / mmpp) + 1, 8)
        ch = max(int((hi[1] - lo[1]) / mmpp) + 1, 8)
        self._texture = _surface_texture(
            cond.surface, trng, (ch, cw), mmpp, cond.surface_rgb, self.pitch_mm
        )
        # the board's region (cells framed, plus a margin) in world mm: clutter stays out of it
        # and the table top extends around it
        if fit:
            kr0, kc0, kr1, kc1 = r0 - 1.5, c0 - 1.5, r1 + 1.5, c1 + 1.5
        else:
            kr0, kc0 = self.mid[0] - span / 2, self.mid[1] - span / 2
            kr1, kc1 = self.mid[0] + span / 2, self.mid[1] + span / 2
        keep_out = (
            (kc0 - self.mid[1]) * self.pitch_mm,
            (kr0 - self.mid[0]) * self.pitch_mm,
            (kc1 - self.mid[1]) * self.pitch_mm,
            (kr1 - self.mid[0]) * self.pitch_mm,
        )
        self._table_rect: tuple[float, float, float, float] | None = None  # canvas-frame mm
        if cond.table_mm is not None:
            corners_w = np.array(
                [
                    [keep_out[0], keep_out[1]],
                    [keep_out[2], keep_out[1]],
                    [keep_out[2], keep_out[3]],
                    [keep_out[0], keep_out[3]],
                ]
            )
            kc = corners_w @ rot  # world -> canvas frame
            self._table_rect = _place_table(trng, cond.table_mm, kc.min(axis=0), kc.max(axis=0))
            self._texture = _with_floor(self._texture, trng, self._table_rect, lo, mmpp)
        self._rot = rot
        # canvas px -> world: world = rot @ (lo + px * mmpp)
        a = np.array([[mmpp, 0, lo[0]], [0, mmpp, lo[1]], [0, 0, 1]], np.float64)
        r3 = np.eye(3)
        r3[:2, :2] = rot
        self._world_from_canvas = r3 @ a
        # light
        lrng = _seed_rng(self.seed, _T_LIGHT)
        self._glare_xy = [
            (float(lrng.uniform(0.1, 0.9) * w), float(lrng.uniform(0.1, 0.9) * h))
            for _ in range(max(cond.glare_spots, 1))
        ]
        self._glare_aspect = [float(lrng.uniform(0.5, 1.0)) for _ in self._glare_xy]
        self._glare_angle = [float(lrng.uniform(0, 180)) for _ in self._glare_xy]
        self._glare_window = [bool(lrng.random() < 0.5) for _ in self._glare_xy]
        self._drift_phase = float(lrng.uniform(0, 2 * np.pi))
        self._drift_period = float(lrng.uniform(20, 90))
        self._blob = _fbm(lrng, (max(h // 16, 4), max(w // 16, 4)), max(min(w, h) / 64, 2), 2)
        # a big soft shadow (someone leaning over, a lamp shade): a wavy edge across the frame
        self._shade_angle = float(lrng.uniform(0, 2 * np.pi))
        self._shade_offset = float(lrng.uniform(-0.5, 0.3))
        self._shade_soft = float(lrng.uniform(0.03, 0.25))
        self._shade_wave = lrng.uniform(-1, 1, size=3)
        self._wear = _fbm(_seed_rng(self.seed, _T_PALETTE), (64, 64), 6, 3)
        # clutter around the board (outside the framed cells), fixed for the scene
        crng = _seed_rng(self.seed, _T_CLUTTER)
        view_pts = (hinv @ np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64).T).T
        view_pts = view_pts[:, :2] / view_pts[:, 2:3]
        view = (
            float(view_pts[:, 0].min()),
            float(view_pts[:, 1].min()),
            float(view_pts[:, 0].max()),
            float(view_pts[:, 1].max()),
        )
        self._clutter = _clutter_items(crng, cond.clutter, keep_out, view, self._on_table)

    def put_down(self, kind: str, x_mm: float, y_mm: float, *, angle: float = 0.0) -> None:
        """Put an object on the table for every later frame, besides the scene's own clutter.

        Args:
            kind: one of ``CLUTTER_RADIUS_MM`` ("bag" and "cup" stand tall enough to hide
                tiles in oblique views).
            x_mm, y_mm: its centre in the board frame, mm (cell ``(r, c)`` lies at
                ``((c - mid[1]) * pitch_mm, (r - mid[0]) * pitch_mm)``).
            angle: its turn, radians.

        Raises:
            ValueError: an unknown kind.
        """
        if kind not in CLUTTER_RADIUS_MM:
            raise ValueError(f"unknown clutter kind {kind!r}; one of {sorted(CLUTTER_RADIUS_MM)}")
        seed = int(_seed_rng(self.seed, _T_CLUTTER, len(self._clutter) + 1).integers(1 << 30))
        self._clutter.append(
            {"kind": kind, "x": float(x_mm), "y": float(y_mm), "angle": float(angle), "seed": seed}
        )

    def _on_table(self, x: float, y: float, margin: float = 0.0) -> bool:
        """Whether world point ``(x, y)`` mm is on the table top (``margin`` mm inside)."""
        if self._table_rect is None:
            return True
        u, v = np.array([x, y]) @ self._rot
        x0, y0, x1, y1 = self._table_rect
        return bool(x0 + margin <= u <= x1 - margin and y0 + margin <= v <= y1 - margin)

    # -- per-tile geometry ----------------------------------------------------------------
    def _tile_pose(self, pos: Pos) -> tuple[float, float, float]:
        """World centre (X, Y) mm and turn (radians) of the tile at ``pos`` (hand-laid).

        Tiles are solid: each turned tile stays inside its own cell of side ``pitch`` (plus
        :data:`TOUCH_OVERLAP` of a tile, so neighbours look touching), so a turn needs a gap
        and the push off the cell is limited by the room the turn leaves. Depends only on the
        seed and ``pos``, so a tile keeps its pose in every frame of a scene.
        """
        cond = self.conditions
        rng = _seed_rng(self.seed, _T_TILE, pos.row + 100000, pos.col + 100000)
        off = rng.normal(0, cond.tile_offset, size=2) * self.pitch_mm
        ang = math.radians(cond.tile_rot_deg) * float(rng.uniform(-1, 1))
        half_cell = self.pitch_mm / 2 + TOUCH_OVERLAP * TILE_MM
        ext = TILE_MM / 2 * (math.cos(abs(ang)) + math.sin(abs(ang)))
        if ext > half_cell:  # no room for this turn: turn only as far as the cell allows
            ratio = min(2 * half_cell / TILE_MM / math.sqrt(2), 1.0)
            ang = math.copysign(max(math.asin(ratio) - math.pi / 4, 0.0), ang)
            ext = TILE_MM / 2 * (math.cos(abs(ang)) + math.sin(abs(ang)))
        room = max(half_cell - ext, 0.0)
        off = off.clip(-room, room)
        x = (pos.col - self.mid[1]) * self.pitch_mm + float(off[0])
        y = (pos.row - self.mid[0]) * self.pitch_mm + float(off[1])
        return x, y, ang

    def image_from_grid(self, bump: Bump | None = None) -> NDArray[np.float64]:
        """(3, 3) homography lattice ``(col, row, 1)`` -> image on the tile-top plane."""
        cam = self._camera(bump)
        g = np.array(
            [
                [self.pitch_mm, 0, -self.mid[1] * self.pitch_mm],
                [0, self.pitch_mm, -self.mid[0] * self.pitch_mm],
                [0, 0, 1],
            ],
            np.float64,
        )
        hmat = cam.plane_h(-self.thick_mm) @ g
        return cast(NDArray[np.float64], hmat / hmat[2, 2])

    def random_bump(self, key: int) -> Bump:
        """A random :class:`Bump` of the conditions' size (``bump_mm``, ``bump_deg``), the same
        for the same scene seed and ``key`` (e.g. the frame index where it happens)."""
        return Bump.random(
            _seed_rng(self.seed, _T_CAMERA, key), self.conditions.bump_mm, self.conditions.bump_deg
        )

    def _camera(self, bump: Bump | None) -> _Camera:
        if bump is None:
            return self.camera
        return _make_camera(self.size, self.conditions, self.target, self.dist, bump)

    # -- rendering ------------------------------------------------------------------------
    def frame(
        self,
        board: Board,
        *,
        hands: Sequence[Hand] | None = (),
        bump: Bump | None = None,
        t: float = 0.0,
        motion_px: float | None = None,
    ) -> Rendered:
        """Render ``board`` as seen at time ``t`` (seconds).

        Args:
            board: tiles by lattice position (any coordinates; the scene's lattice is fixed).
            hands: hands over the table; ``None`` = ``conditions.hands`` random ones (drawn from
                the seed and ``t``); ``()`` = none.
            bump: the table's displacement since the scene began (see :class:`Bump`).
            t: time in seconds; drives lighting drift and the frame's sensor noise.
            motion_px: motion blur of this frame only, pixels (e.g. while the table is being
                knocked); ``None`` = the conditions' ``motion_px``.

        Returns:
            A :class:`Rendered` image with its truth.

        Raises:
            ValueError: a tile colour in neither the palette nor ``NAMED_COLORS``.
        """
        cond = self.conditions
        w, h = self.size
        cam = self._camera(bump)
        frame_key = round(t * 1000)
        frng = _seed_rng(self.seed, _T_FRAME, frame_key)
        if hands is None:
            hrng = _seed_rng(self.seed, _T_HAND, frame_key)
            hands = [Hand.random(hrng, board) for _ in range(cond.hands)]
        colors = self._colors(board)

        # 1. table albedo (linear) through the table-plane homography
        h_img_canvas = cam.plane_h(0.0) @ self._world_from_canvas
        table = cv2.warpPerspective(
            self._texture,
            h_img_canvas,
            (w, h),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REFLECT,
        )
        img = _TO_LINEAR[table]
        gloss = np.full((h, w), _surface_gloss(cond.surface), np.float32)

        # 2. light direction (table frame) -> shadow offset per mm of height
        az = math.radians(cond.light_azimuth_deg)
        el = math.radians(max(cond.light_elevation_deg, 5.0))
        sh_dir = np.array([-math.cos(az), -math.sin(az)]) / math.tan(el)

        tiles = sorted(board.items(), key=lambda kv: -self._depth(cam, kv[0]))
        geo = [self._tile_geometry(cam, pos) | {"tile_shape": tile.shape} for pos, tile in tiles]

        # 3. tile cast shadows + contact shadows on the table (half resolution)
        sw, shh = max(w // 2, 1), max(h // 2, 1)
        smask = np.zeros((shh, sw), np.uint8)
        for g in geo:
            foot = g["foot_world"]
            shadow_world = np.vstack(
                [
                    np.column_stack([foot, np.zeros(len(foot))]),
                    np.column_stack([foot + sh_dir * self.thick_mm, np.zeros(len(foot))]),
                ]
            )
            sxy, z = cam.project(shadow_world)
            if np.any(z <= 0):
                continue
            hull = cv2.convexHull((sxy * 0.5 * _SCALE).astype(np.int32))
            cv2.fillPoly(smask, [hull], 255, cv2.LINE_AA, _SHIFT)
        tile_px_now = self._pitch_px(cam)
        sig = max(0.5, 0.06 * tile_px_now)
        sm = cv2.GaussianBlur(smask, (0, 0), sig).astype(np.float32) * np.float32(1 / 255)
        sm = cast(F32, cv2.resize(sm, (w, h), interpolation=cv2.INTER_LINEAR))
        img *= (1 - cond.shadow * 0.85 * sm)[..., None]

        # clutter lies on the table around the board
        low = [it for it in self._clutter if it["kind"] not in _TALL_CLUTTER]
        if low:
            _draw_clutter(img, gloss, cam, low, self.size, sh_dir, cond.shadow)
            for k, it in enumerate(self._clutter):  # spare tiles lying face down (plain backs)
                if it["kind"] == "facedown":
                    g = self._tile_geometry(
                        cam, Pos(-(10**6) - 1, k), pose=(it["x"], it["y"], it["angle"])
                    )
                    self._draw_tile(
                        img, gloss, g | {"tile_shape": None}, _lin((0, 0, 0)), self._wear
                    )

        # 4. tiles, far to near
        wear_noise = self._wear
        truth_geo: list[tuple[Pos, Tile, dict[str, Any]]] = []
        for (pos, tile), g in zip(tiles, geo, strict=True):
            self._draw_tile(img, gloss, g, colors[tile.color], wear_noise)
            truth_geo.append((pos, tile, g))

        # tall objects (cups, the bag) stand above the tiles and may hide some in oblique views
        occluder = np.zeros((h, w), np.float32)
        tall = [it for it in self._clutter if it["kind"] in _TALL_CLUTTER]
        if tall:
            _draw_clutter(img, gloss, cam, tall, self.size, sh_dir, cond.shadow, occluder)

        # 5. hands: shadows first, then the hands themselves
        if hands:
            hand_alpha = self._draw_hands(img, gloss, cam, hands, sh_dir, frng)
            np.maximum(occluder, hand_alpha, out=occluder)

        # 6. illumination, glare, exposure (linear)
        light = self._illumination(t)
        img *= light
        glare = self._glare(t)
        if glare is not None:
            img += glare[..., None] * gloss[..., None] * self._light_color(t)[None, None, :]
        if cond.auto_exposure > 0 or cond.awb > 0:
            img = self._auto_camera(img)
        if cond.exposure_ev != 0.0:  # the exposure bias, after the metering chose its exposure
            img = cast(F32, img * np.float32(2.0**cond.exposure_ev))

        # 7. optics and sensor: the lens's distortion first, then blur, then the sensor
        lens = None
        hand_out = occluder > 0.5
        if cond.lens_k1 != 0.0:
            lens = _Lens.for_frame(cond.lens_k1, float(cam.k[0, 0]), self.size)
            mx, my = lens.maps(self.size)
            img = cast(F32, cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT))
            hand_out = cv2.remap(hand_out.astype(np.uint8), mx, my, cv2.INTER_NEAREST) > 0
        if cond.dof_px > 0.3:
            img = self._defocus(img, cam)
        motion = cond.motion_px if motion_px is None else motion_px
        if motion > 0.5:
            img = self._motion_blur(img, motion, frng)
        if cond.blur_px > 0.05:
            img = cv2.GaussianBlur(img, (0, 0), cond.blur_px)
        if cond.chroma_px > 0.05:
            img = _chromatic_aberration(img, cond.chroma_px)
        iso = 1.0 / min(max(cond.exposure, 0.05), 1.0)
        read = cond.noise / 255.0 * iso
        shot = (cond.noise / 255.0) * 0.02 * iso
        img += _noise_field(frng, h, w) * _noise_sigma(img, shot, read)
        # chroma-correlated low-light blotches
        if iso > 1.5:
            blot = cv2.resize(
                frng.standard_normal((h // 4 + 1, w // 4 + 1, 3)).astype(np.float32),
                (w, h),
                interpolation=cv2.INTER_LINEAR,
            )
            img += blot * np.float32(read * 0.4)
        # 8. the camera's processing: noise reduction on the linear sensor data; then, as in
        # a camera's image signal processor, saturation and unsharp masking on the
        # gamma-encoded image (chroma scaled about Rec. 601 luma, as in YCbCr), which is
        # where phones and webcams apply them (the source of the halos and hue shifts they
        # leave differs from the linear-light version this renderer used before)
        if cond.denoise > 0.01:
            img = _denoise(img, cond.denoise)
        if cond.isp_space == "linear":
            out = _to_srgb_u8(_isp(img, cond.saturation, cond.sharpen, _LUMA_709))
        elif abs(cond.saturation - 1.0) > 0.01 or cond.sharpen > 0.01:
            enc = _isp(_to_srgb_f32(img), cond.saturation, cond.sharpen, _LUMA_601)
            out = np.clip(enc * 255.0 + 0.5, 0, 255).astype(np.uint8)
        else:
            out = _to_srgb_u8(img)
        if cond.jpeg_quality is not None:
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, cond.jpeg_quality])
            if ok:
                out = cast(U8, cv2.imdecode(buf, cv2.IMREAD_COLOR))

        # 9. truth (where the lens drew it)
        truth = []
        for pos, tile, g in truth_geo:
            top = g["top_xy"] if lens is None else lens.distort(np.asarray(g["top_xy"], np.float64))
            covered, inside = self._coverage(top, hand_out, g["ok"])
            visible = covered <= HIDDEN_COVER and inside >= MIN_IN_FRAME
            c = g["corners_xy"]
            ctr = np.asarray(g["center_xy"], np.float64)
            if lens is not None:
                c = lens.distort(np.asarray(c, np.float64))
                ctr = lens.distort(ctr[None, :])[0]
            truth.append(
                TruthTile(
                    pos=pos,
                    tile=tile,
                    center_xy=(float(ctr[0]), float(ctr[1])),
                    corners_xy=tuple((float(x), float(y)) for x, y in c),  # type: ignore[arg-type]
                    visible=bool(visible),
                    covered=float(covered),
                )
            )
        truth.sort(key=lambda tt: (tt.pos.row, tt.pos.col))
        return Rendered(
            image_bgr=out,
            truth=truth,
            image_from_grid=self.image_from_grid(bump),
            pitch_px=tile_px_now if lens is None else self._pitch_px(cam, lens),
            conditions=cond,
            seed=self.seed,
            hand_mask=hand_out,
            palette=tuple(self.palette.names),
        )

    # -- helpers ----------------------------------------------------------------------------
    def _colors(self, board: Board) -> dict[str, NDArray[np.float32]]:
        out: dict[str, NDArray[np.float32]] = {}
        for tile in board.values():
            name = tile.color
            if name in out:
                continue
            if name in self.palette.rgb:
                rgb = self.palette.rgb[name]
            elif name in NAMED_COLORS:
                rgb = hex_to_rgb(NAMED_COLORS[name])
            else:
                raise ValueError(
                    f"tile colour {name!r} is in neither the palette "
                    f"({', '.join(self.palette.names)}) nor the built-in colour names"
                )
            out[name] = _lin(rgb)
        return out

    def _depth(self, cam: _Camera, pos: Pos) -> float:
        x, y, _ = self._tile_pose(pos)
        _, z = cam.project(np.array([[x, y, 0.0]]))
        return float(z[0])

    def _pitch_px(self, cam: _Camera, lens: _Lens | None = None) -> float:
        hmat = cam.plane_h(-self.thick_mm)
        p = np.array([[0, 0, 1], [self.pitch_mm, 0, 1], [0, self.pitch_mm, 1]], np.float64)
        q = (hmat @ p.T).T
        q = q[:, :2] / q[:, 2:3]
        if lens is not None:
            q = lens.distort(q)
        return float((np.hypot(*(q[1] - q[0])) + np.hypot(*(q[2] - q[0]))) / 2)

    def _tile_geometry(
        self,
        cam: _Camera,
        pos: Pos,
        pose: tuple[float, float, float] | None = None,
        lift_mm: float = 0.0,
    ) -> dict[str, Any]:
        """Projected outlines of a tile at ``pos`` (or at ``pose`` (X, Y, turn), raised
        ``lift_mm`` above the table, e.g. held in a hand)."""
        x, y, ang = pose if pose is not None else self._tile_pose(pos)
        ca, sa = math.cos(ang), math.sin(ang)
        rmat = np.array([[ca, -sa], [sa, ca]])
        half = TILE_MM / 2
        outline, top_local = _TILE_FOOT, _TILE_TOP
        foot = outline @ rmat.T + (x, y)
        top = top_local @ rmat.T + (x, y)
        z0 = -lift_mm
        zt = z0 - self.thick_mm
        nb = len(foot)
        pts3 = np.vstack(
            [
                np.column_stack([foot, np.full(nb, z0)]),
                np.column_stack([top, np.full(len(top), zt)]),
            ]
        )
        xy, z = cam.project(pts3)
        sharp = np.array([[-half, -half], [half, -half], [half, half], [-half, half]]) * 0.97
        sharp_w = sharp @ rmat.T + (x, y)
        cxy, _ = cam.project(np.column_stack([sharp_w, np.full(4, zt)]))
        center, _ = cam.project(np.array([[x, y, zt]]))
        return {
            "pos": pos,
            "angle": ang,
            "foot_world": foot,
            "top_world": top,
            "hull_xy": xy,
            "top_xy": xy[nb:],
            "corners_xy": cxy,
            "center_xy": center[0],
            "rmat": rmat,
            "xy": (x, y),
            "ok": bool(np.all(z > 0)),
            "zt": zt,
            "pitch_px": self._pitch_px(cam),
            "cam": cam,
        }

    def _draw_tile(
        self, img: F32, gloss: F32, g: dict[str, Any], color: NDArray[np.float32], wear_noise: F32
    ) -> None:
        if not g["ok"]:
            return
        cond = self.conditions
        roi = _roi(g["hull_xy"], self.size)
        if roi is None:
            return
        x0, y0, rw, rh = roi
        pos: Pos = g["pos"]
        rng = _seed_rng(self.seed, _T_TILE + 50, pos.row + 100000, pos.col + 100000)
        # body / sides: the hull of footprint and top, darker (less light reaches the sides)
        hull = cv2.convexHull(g["hull_xy"].astype(np.float32)).reshape(-1, 2).astype(np.float64)
        side = _poly_mask([hull], x0, y0, rw, rh)
        side_base = _lin((30, 30, 33)) * np.float32(rng.uniform(0.8, 1.2))
        # each camera-facing side facet lit by the main light (Lambert) plus ambient, relative
        # to the top face (which faces the light at the elevation angle)
        az = math.radians(cond.light_azimuth_deg)
        el = math.radians(max(cond.light_elevation_deg, 5.0))
        foot_w = g["foot_world"]
        n = nb = len(foot_w)
        fxy, txy = g["hull_xy"][:nb], g["hull_xy"][nb:]
        cam_c = g["cam"].c
        centre = np.mean(foot_w, axis=0)
        shade_img = np.full((rh, rw), 0.5, np.float32)
        for j in range(n):
            k = (j + 1) % n
            mid = (foot_w[j] + foot_w[k]) / 2
            nrm = mid - centre
            nrm = nrm / (np.hypot(*nrm) or 1.0)
            to_cam = cam_c[:2] - mid
            if nrm @ to_cam <= 0:  # facing away from the camera (z is down; camera above)
                continue
            diffuse = max(0.0, math.cos(el) * (nrm[0] * math.cos(az) + nrm[1] * math.sin(az)))
            val = (0.35 + diffuse) / (0.35 + math.sin(el))
            quad = np.array([fxy[j], fxy[k], txy[k], txy[j]]) - (x0, y0)
            cv2.fillConvexPoly(
                shade_img, np.round(quad * _SCALE).astype(np.int32), float(val), cv2.LINE_8, _SHIFT
            )
        _blend(img, side, side_base[None, None, :] * shade_img[..., None], x0, y0)
        # top face with a faint sheen gradient
        top_mask = _poly_mask([g["top_xy"]], x0, y0, rw, rh)
        base = _lin((36, 36, 39)) * np.float32(rng.uniform(0.85, 1.15))
        sheen_dir = rng.uniform(0, 2 * np.pi)
        xs = (np.arange(rw, dtype=np.float32) - rw / 2) * np.float32(
            np.cos(sheen_dir) / max(rw, rh)
        )
        ys = (np.arange(rh, dtype=np.float32) - rh / 2) * np.float32(
            np.sin(sheen_dir) / max(rw, rh)
        )
        ramp = ys[:, None] + xs[None, :]
        top_col = cast(F32, base[None, None, :] * (1 + 0.35 * ramp)[..., None])
        _blend(img, top_mask, top_col, x0, y0)
        # bevel highlight along the top edge (rounded edges catch the light)
        edge = np.zeros((rh, rw), np.uint8)
        pts = np.round((g["top_xy"] - (x0, y0)) * _SCALE).astype(np.int32)
        thick = max(1, round(g["pitch_px"] * 0.025))
        cv2.polylines(edge, [pts], True, 255, thick, cv2.LINE_AA, _SHIFT)
        edge_f = edge.astype(np.float32) * np.float32(0.35 / 255)
        _blend(img, edge_f, _lin((95, 95, 100)), x0, y0)
        # symbol, printed on the top (matte-ish paint, slightly worn)
        x, y = g["xy"]
        rmat = g["rmat"]
        zt = g["zt"]
        shape_polys = []
        jitter = rng.normal(0, 0.008, size=2)
        for poly in self._symbols[g["tile_shape"]] if g["tile_shape"] is not None else []:
            pw = (poly + jitter) * TILE_MM @ rmat.T + (x, y)
            pxy, _ = g["cam"].project(np.column_stack([pw, np.full(len(pw), zt)]))
            shape_polys.append(pxy)
        if shape_polys:
            sym = np.zeros((rh, rw), np.float32)
            for p in shape_polys:  # union of lobes (clover)
                sym = np.maximum(sym, _poly_mask([p], x0, y0, rw, rh))
            tint = color * np.float32(rng.uniform(0.9, 1.05))
            if cond.wear > 0:
                wn = cv2.resize(wear_noise, (rw, rh), interpolation=cv2.INTER_LINEAR)
                shift = int(rng.integers(0, 64))
                wn = np.roll(wn, shift, axis=0)
                worn = np.clip(wn * cond.wear * 0.6, 0, 0.6)
                sym_col = tint[None, None, :] * (1 - worn[..., None]) + base * worn[..., None]
            else:
                sym_col = tint
            _blend(img, sym, sym_col, x0, y0)
        # gloss map: tile top strongly glossy, printed paint less so; tops tilt a little, so
        # each tile reflects a different share of the glare
        tilt_gain = np.float32(rng.uniform(0.45, 1.3))
        groi = gloss[y0 : y0 + rh, x0 : x0 + rw]
        top_gloss = cond.tile_gloss * tilt_gain
        groi *= 1 - top_mask
        groi += top_mask * top_gloss
        if shape_polys:
            groi -= sym * top_gloss * 0.55

    def _draw_hands(
        self,
        img: F32,
        gloss: F32,
        cam: _Camera,
        hands: Sequence[Hand],
        sh_dir: NDArray[np.float64],
        rng: np.random.Generator,
    ) -> F32:
        """Composite hands/arms (and their soft shadows) into ``img``; returns their alpha."""
        cond = self.conditions
        w, h = self.size
        q = 4  # shadows are soft: draw and blur them at quarter resolution
        sw, sh = max(w // q, 1), max(h // q, 1)
        shadow_all = np.zeros((sh, sw), np.float32)
        alpha_all = np.zeros((h, w), np.float32)
        pitch = self._pitch_px(cam)
        layers = []
        for hand in hands:
            skin = hand.skin_rgb or SKIN_TONES[int(rng.integers(len(SKIN_TONES)))]
            a = math.radians(hand.from_deg)
            u = np.array([math.cos(a), math.sin(a)])
            v = np.array([-u[1], u[0]])
            tr, tc = hand.target
            tip = np.array([(tc - self.mid[1]) * self.pitch_mm, (tr - self.mid[0]) * self.pitch_mm])
            arm_mm = 300.0
            while arm_mm < 4000.0:
                p3 = np.array([[*(tip + u * arm_mm), -(hand.height_mm + arm_mm * _ARM_RISE)]])
                axy, az = cam.project(p3)
                if az[0] < 0.35 * self.dist:
                    break
                ax_, ay_ = axy[0]
                if ax_ < -0.1 * w or ax_ > 1.1 * w or ay_ < -0.1 * h or ay_ > 1.1 * h:
                    break
                arm_mm += 50.0
            skin_m = np.zeros((h, w), np.uint8)
            sleeve_m = np.zeros((h, w), np.uint8)
            crease = np.zeros((h, w), np.uint8)
            palm_m = np.zeros((h, w), np.uint8)
            nail_m = np.zeros((h, w), np.uint8)
            shadow = np.zeros((sh, sw), np.uint8)
            crease_px = max(1, round(pitch * 0.03))
            for kind, poly in _hand_polys(hand, arm_mm):
                world_xy = tip + poly[:, :1] * u + poly[:, 1:2] * v
                height = hand.height_mm + poly[:, 2]
                xy, z = cam.project(np.column_stack([world_xy, -height]))
                keep = z > 0.15 * self.dist
                if keep.sum() < 3:
                    continue
                pts = np.round(np.clip(xy[keep], -4 * w, 5 * w) * _SCALE).astype(np.int32)
                if kind == "nail":
                    cv2.fillPoly(nail_m, [pts], 255, cv2.LINE_AA, _SHIFT)
                    continue
                target_m = sleeve_m if kind == "sleeve" else skin_m
                cv2.fillPoly(target_m, [pts], 255, cv2.LINE_AA, _SHIFT)
                if kind == "palm":
                    cv2.fillPoly(palm_m, [pts], 255, cv2.LINE_8, _SHIFT)
                if kind == "finger":
                    cv2.polylines(crease, [pts], True, 255, crease_px, cv2.LINE_AA, _SHIFT)
                s_w = world_xy[keep] + sh_dir[None, :] * height[keep, None]
                sxy, sz = cam.project(np.column_stack([s_w, np.zeros(len(s_w))]))
                if np.all(sz > 0):
                    spts = np.round(np.clip(sxy / q, -4 * sw, 5 * sw) * _SCALE).astype(np.int32)
                    cv2.fillPoly(shadow, [spts], 255, cv2.LINE_AA, _SHIFT)
            union = np.maximum(skin_m, sleeve_m)
            ys, xs = np.nonzero(union)
            if len(xs) == 0:
                continue
            # soft shadow: penumbra grows with the height above the table
            sig = max(1.0, pitch * hand.height_mm / 110 / q)
            shadow_all = np.maximum(
                shadow_all,
                cv2.GaussianBlur(shadow.astype(np.float32) * np.float32(1 / 255), (0, 0), sig),
            )
            x0, x1, y0, y1 = int(xs.min()), int(xs.max()) + 1, int(ys.min()), int(ys.max()) + 1
            un = union[y0:y1, x0:x1]
            alpha = un.astype(np.float32) * np.float32(1 / 255)
            # rounded limbs: darker toward the silhouette, a little lighter along the ridge
            dist = cv2.distanceTransform((un > 127).astype(np.uint8), cv2.DIST_L2, 3)
            roundness = np.clip(dist / max(pitch * 0.7, 2.0), 0, 1)
            shade = 0.5 + 0.5 * np.sqrt(roundness)
            cr = crease[y0:y1, x0:x1].astype(np.float32) * np.float32(1 / 255)
            cr *= palm_m[y0:y1, x0:x1] == 0  # creases between fingers, not across the palm
            cr = cast(F32, cv2.GaussianBlur(cr, (0, 0), max(0.6, pitch * 0.015)))
            shade *= 1 - 0.3 * cr * (dist > 1.5)
            sl = sleeve_m[y0:y1, x0:x1].astype(np.float32)[..., None] * np.float32(1 / 255)
            col = np.empty((y1 - y0, x1 - x0, 3), np.float32)
            col[:] = _lin(skin)
            # skin is not flat: a little low-frequency mottling
            mott = _fbm(rng, (y1 - y0, x1 - x0), max(pitch * 0.8, 2.0), 2) * 0.05
            col *= (1 + mott)[..., None]
            nails = nail_m[y0:y1, x0:x1].astype(np.float32)[..., None] * np.float32(1 / 255)
            nail_col = np.clip(_lin(skin) * np.array([1.25, 1.2, 1.35], np.float32) + 0.04, 0, 1)
            col = col * (1 - 0.8 * nails) + nail_col * (0.8 * nails)
            if hand.sleeve_rgb is not None:
                fold = _fbm(rng, (y1 - y0, x1 - x0), max(pitch * 0.5, 2.0), 3) * 0.12
                sleeve_col = _lin(hand.sleeve_rgb)[None, None, :] * (1 + fold)[..., None]
                col = col * (1 - sl) + sleeve_col * sl
            layers.append((x0, y0, alpha, col * shade[..., None]))
            roi = alpha_all[y0:y1, x0:x1]
            np.maximum(roi, alpha, out=roi)
        shadow_full = cv2.resize(shadow_all, (w, h), interpolation=cv2.INTER_LINEAR)
        img *= (1 - cond.shadow * 0.8 * shadow_full)[..., None]
        for k, hand in enumerate(hands):  # tiles in hand: under the fingers, above the table
            if hand.holding is None:
                continue
            a = math.radians(hand.from_deg)
            tr, tc = hand.target
            cx = (tc - self.mid[1]) * self.pitch_mm - math.cos(a) * 10.0
            cy = (tr - self.mid[0]) * self.pitch_mm - math.sin(a) * 10.0
            lift = max(hand.height_mm - self.thick_mm - 6.0, 0.0)
            g = self._tile_geometry(
                cam, Pos(-(10**6), k), pose=(cx, cy, a + 0.2 * (k - 0.5)), lift_mm=lift
            )
            g["tile_shape"] = hand.holding.shape
            if not g["ok"]:
                continue
            self._draw_tile(
                img,
                gloss,
                g,
                self._colors(Board({Pos(0, 0): hand.holding}))[hand.holding.color],
                self._wear,
            )
            hull = cv2.convexHull(g["hull_xy"].astype(np.float32)).reshape(-1, 2)
            hull_roi = _roi(hull.astype(np.float64), self.size)
            if hull_roi is not None:
                x0, y0, rw, rh = hull_roi
                m = _poly_mask([hull.astype(np.float64)], x0, y0, rw, rh)
                sub = alpha_all[y0 : y0 + rh, x0 : x0 + rw]
                np.maximum(sub, m, out=sub)
        for x0, y0, alpha, col in layers:
            _blend(img, alpha, col, x0, y0)
            groi = gloss[y0 : y0 + alpha.shape[0], x0 : x0 + alpha.shape[1]]
            groi *= 1 - alpha
            groi += alpha * 0.04
        return alpha_all

    def _light_color(self, t: float) -> NDArray[np.float32]:
        cond = self.conditions
        kelvin = cond.kelvin
        if cond.drift > 0:
            kelvin *= 1 + 0.15 * cond.drift * math.sin(
                2 * math.pi * t / self._drift_period + self._drift_phase * 1.7
            )
        light = _kelvin_rgb(kelvin)
        # the camera's white balance removes part of the cast (von Kries in linear RGB)
        return (light ** np.float32(1 - cond.wb_correction)).astype(np.float32)

    def _illumination(self, t: float) -> F32:
        """(H, W, 3) float32 light reaching each pixel (smooth: computed at 1/8 resolution)."""
        cond = self.conditions
        w, h = self.size
        lw, lh = max(w // 8, 4), max(h // 8, 4)
        yy, xx = np.ogrid[0:lh, 0:lw]
        nx = ((xx + 0.5) / lw - 0.5) * 2
        ny = ((yy + 0.5) / lh - 0.5) * 2
        a = math.radians(cond.gradient_deg)
        ramp = (math.cos(a) * nx + math.sin(a) * ny) / 2  # -0.7..0.7
        blob = cv2.resize(self._blob, (lw, lh), interpolation=cv2.INTER_CUBIC)
        field_ = 1 + cond.gradient * (ramp - 0.15 * blob)
        field_ = np.maximum(field_, 0.05)
        rr = nx * nx * 0.5 + ny * ny * 0.5
        field_ = field_ * (1 - cond.vignette * rr)
        if cond.shade > 0:
            ca, sa = math.cos(self._shade_angle), math.sin(self._shade_angle)
            along = -sa * nx + ca * ny
            wave = sum(
                0.08 * a * np.sin((k + 1) * 2.2 * along + k) for k, a in enumerate(self._shade_wave)
            )
            d = ca * nx + sa * ny - self._shade_offset + wave
            field_ = field_ * (1 - cond.shade * 0.75 / (1 + np.exp(-d / self._shade_soft)))
        exposure = cond.exposure
        if cond.drift > 0:
            exposure *= 1 + 0.3 * cond.drift * math.sin(
                2 * math.pi * t / self._drift_period + self._drift_phase
            )
        small = (field_ * exposure).astype(np.float32)[..., None] * self._light_color(t)[
            None, None, :
        ]
        return cast(F32, cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR))

    def _glare(self, t: float) -> F32 | None:
        cond = self.conditions
        if cond.glare <= 0:
            return None
        w, h = self.size
        diag = math.hypot(w, h)
        yy, xx = np.mgrid[0:h:4, 0:w:4].astype(np.float32)
        g = np.zeros_like(xx)
        for i, (gx, gy) in enumerate(self._glare_xy):
            if cond.drift > 0:
                gx += 0.05 * w * cond.drift * math.sin(t / self._drift_period * 2 * math.pi + i)
            sig = cond.glare_size * diag
            ca, sa = (
                math.cos(math.radians(self._glare_angle[i])),
                math.sin(math.radians(self._glare_angle[i])),
            )
            du, dv = xx - gx, yy - gy
            pu = (ca * du + sa * dv) / sig
            pv = (-sa * du + ca * dv) / (sig * self._glare_aspect[i])
            d2 = pu * pu + pv * pv
            if self._glare_window[i]:
                # a window's reflection: a flat-topped rounded rectangle with soft edges
                d4 = (pu * pu) ** 2 + (pv * pv) ** 2
                core = 1.0 / (1.0 + (d4 * 1.5) ** 3)
            else:
                core = np.exp(-d2 * 2.0)  # a lamp: a round bright core
            halo = np.exp(-d2 * 0.4)
            g += cond.glare * (core * 0.8 + halo * 0.2) / (1 + i * 0.4)
        g = cv2.resize(g, (w, h), interpolation=cv2.INTER_LINEAR)
        return cast(F32, g.astype(np.float32) * np.float32(cond.exposure))

    def _auto_camera(self, img: F32) -> F32:
        """The camera's automatic exposure and grey-world white balance (partial strengths).

        Metering: ``gain = (0.18 / mean luminance) ** auto_exposure`` clamped to [0.4, 3]
        (18 % grey is the reflected-light meter's calibration target, ISO 2720). White balance:
        per-channel ``(mean grey / channel mean) ** awb`` (the grey-world assumption, Buchsbaum
        1980), luminance kept.
        """
        cond = self.conditions
        h, w = img.shape[:2]
        small = cv2.resize(img, (max(w // 16, 1), max(h // 16, 1)), interpolation=cv2.INTER_AREA)
        mean = small.reshape(-1, 3).mean(axis=0).astype(np.float64)  # BGR
        luma_w = np.array([0.0722, 0.7152, 0.2126])
        gains = np.ones(3)
        if cond.awb > 0:
            grey = float(mean @ luma_w)
            wb = (grey / np.maximum(mean, 1e-6)) ** cond.awb
            gains = wb / (float((mean * wb) @ luma_w) / max(grey, 1e-12))  # keep luminance
        if cond.auto_exposure > 0:
            luma = float((mean * gains) @ luma_w)
            gains *= float(np.clip((0.18 / max(luma, 1e-6)) ** cond.auto_exposure, 0.4, 3.0))
        return img * gains.astype(np.float32)[None, None, :]

    def _defocus(self, img: F32, cam: _Camera) -> F32:
        """Depth-dependent defocus: blend towards a blurred copy with the thin-lens blur
        ``|1 - z_focus / z|`` of the table point at each pixel (focus on the board centre)."""
        w, h = self.size
        lw, lh = max(w // 16, 2), max(h // 16, 2)
        yy, xx = np.mgrid[0:lh, 0:lw].astype(np.float64)
        pix = np.stack([(xx + 0.5) * w / lw, (yy + 0.5) * h / lh, np.ones_like(xx)], axis=-1)
        world = pix.reshape(-1, 3) @ np.linalg.inv(cam.plane_h(0.0)).T
        world = world[:, :2] / world[:, 2:3]
        _, z = cam.project(np.column_stack([world, np.zeros(len(world))]))
        _, zf = cam.project(np.array([[*self.target[:2], 0.0]]))
        coc = np.abs(1 - zf[0] / np.maximum(z, 1e-6)).reshape(lh, lw)
        peak = float(coc.max())
        if peak <= 1e-6:
            return img
        alpha = cv2.resize((coc / peak).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        blurred = cv2.GaussianBlur(img, (0, 0), self.conditions.dof_px)
        return cast(F32, img + (blurred - img) * alpha[..., None])

    def _motion_blur(self, img: F32, length: float, rng: np.random.Generator) -> F32:
        n = max(3, round(length) | 1)
        k = np.zeros((n, n), np.float32)
        ang = float(rng.uniform(0, 180))
        c = n // 2
        dx, dy = math.cos(math.radians(ang)), math.sin(math.radians(ang))
        cv2.line(
            k,
            (round(c - dx * c), round(c - dy * c)),
            (round(c + dx * c), round(c + dy * c)),
            1.0,
            1,
            cv2.LINE_AA,
        )
        k /= k.sum()
        return cast(F32, cv2.filter2D(img, -1, k, borderType=cv2.BORDER_REFLECT))

    def _coverage(
        self, top: NDArray[np.float64], cover: NDArray[np.bool_], ok: bool = True
    ) -> tuple[float, float]:
        """(share of the top face covered by occluders, share inside the image).

        Only the part of the outline inside the image is rasterised, so a tile far outside
        the frame costs nothing; ``ok=False`` (behind the camera) counts as outside.
        """
        w, h = self.size
        if not ok or not np.all(np.isfinite(top)):
            return 0.0, 0.0
        total = float(abs(cv2.contourArea(top.astype(np.float32))))
        if total <= 1e-6:
            return 0.0, 0.0
        x0 = max(int(np.floor(top[:, 0].min())) - 1, 0)
        y0 = max(int(np.floor(top[:, 1].min())) - 1, 0)
        x1 = min(int(np.ceil(top[:, 0].max())) + 1, w)
        y1 = min(int(np.ceil(top[:, 1].max())) + 1, h)
        if x1 <= x0 or y1 <= y0:
            return 0.0, 0.0
        inner = _poly_mask([np.clip(top, -4 * w, 5 * w)], x0, y0, x1 - x0, y1 - y0)
        seen = float(inner.sum())
        inside = min(seen / total, 1.0)
        cov = float((inner * cover[y0:y1, x0:x1]).sum()) / max(seen, 1e-6)
        return cov, inside


def render(
    board: Board,
    conditions: Conditions,
    seed: int,
    *,
    size: tuple[int, int] = (1280, 720),
    palette: Palette | None = None,
    hands: Sequence[Hand] | None = None,
) -> Rendered:
    """Render one photo of ``board`` on a table.

    Args:
        board: the tiles; the camera frames the whole board (backing off if needed).
        conditions: camera, table and light (e.g. ``PRESETS["glare"]`` or
            ``Conditions.sample(rng)``).
        seed: any int; equal seeds and arguments give equal images.
        size: image ``(width, height)``, pixels.
        palette: the tile set's paints (default: classic); see :class:`Scene`.
        hands: ``None`` = ``conditions.hands`` random hands; else exactly these.

    Returns:
        :class:`Rendered` with ``image_bgr``, ``truth`` and ``image_from_grid``.

    Raises:
        ValueError: bad size or a colour that cannot be painted.
    """
    scene = Scene(conditions, seed, size=size, palette=palette, fit=board if board else None)
    return scene.frame(board, hands=hands)


# ----------------------------------------------------------------------------------------------
# Golden scenes (tests/data/golden, written by benchmarks/make_golden.py)
# ----------------------------------------------------------------------------------------------
#: Where the repository keeps the golden scenes.
GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "golden"


@dataclass(frozen=True, eq=False)
class GoldenScene:
    """One stored golden scene with its truth.

    Attributes:
        name: what the scene stresses (a :data:`PRESETS` name, ``connect_white``,
            ``custom_paints`` or ``hard_<k>``).
        path: the JPEG file.
        image_bgr: (H, W, 3) uint8, decoded.
        truth: per tile, as :class:`TruthTile`.
        image_from_grid: (3, 3) float64, as :attr:`Rendered.image_from_grid`.
        pitch_px: lattice pitch at the board centre, pixels.
        palette: the tile set's colours (a :class:`Palette`).
        conditions: the conditions, as stored (a plain dict).
    """

    name: str
    path: Path
    image_bgr: U8
    truth: list[TruthTile]
    image_from_grid: NDArray[np.float64]
    pitch_px: float
    palette: Palette
    conditions: dict[str, Any] = field(default_factory=dict)

    def board(self, *, visible_only: bool = True) -> Board:
        """The truth as a :class:`Board` (only visible tiles by default)."""
        return Board((t.pos, t.tile) for t in self.truth if t.visible or not visible_only)


def load_golden(directory: str | Path = GOLDEN_DIR) -> list[GoldenScene]:
    """Read the golden scenes (``golden.json`` + JPEGs) from ``directory``.

    Raises:
        FileNotFoundError: no ``golden.json`` there.
        ValueError: an unreadable image or a malformed index (the message names the file).
    """
    d = Path(directory)
    index_path = d / "golden.json"
    index = json.loads(index_path.read_text(encoding="utf-8"))
    if index.get("format") != "tabletally-golden/1":
        raise ValueError(f"{index_path}: not a tabletally-golden/1 index")
    scenes = []
    for s in index["scenes"]:
        path = d / s["image"]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{path}: unreadable image")
        truth = [
            TruthTile(
                pos=Pos(t["row"], t["col"]),
                tile=Tile(t["color"], Shape(t["shape"])),
                center_xy=(float(t["x"]), float(t["y"])),
                corners_xy=tuple((float(x), float(y)) for x, y in t["corners"]),  # type: ignore[arg-type]
                visible=bool(t["visible"]),
                covered=float(t.get("covered", 0.0)),
            )
            for t in s["tiles"]
        ]
        scenes.append(
            GoldenScene(
                name=s["name"],
                path=path,
                image_bgr=cast(U8, image),
                truth=truth,
                image_from_grid=np.array(s["image_from_grid"], np.float64),
                pitch_px=float(s["pitch_px"]),
                palette=Palette.from_hex(s["palette"]),
                conditions=dict(s["conditions"]),
            )
        )
    return scenes


# ----------------------------------------------------------------------------------------------
# Command line: python -m vision.render --preset glare --seed 3 --out /tmp/glare.jpg
# ----------------------------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    """Render one scene to an image file (and its truth to JSON); returns the exit code."""
    import argparse

    from scorer.game import replay
    from scorer.moves import random_game

    ap = argparse.ArgumentParser(
        prog="python -m vision.render", description="Render a synthetic Qwirkle table photo."
    )
    ap.add_argument("--preset", choices=sorted(PRESETS), default="easy")
    ap.add_argument("--hard", action="store_true", help="Conditions.sample(seed, 'hard')")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--turns", type=int, default=12, help="turns of a random game to show")
    ap.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT (default 1280x720)")
    ap.add_argument("--out", default="render.jpg", help="image file (.jpg/.png)")
    ap.add_argument("--truth", default=None, help="also write the truth as JSON here")
    ap.add_argument(
        "--lens-k1",
        type=float,
        default=0.0,
        help="radial lens distortion k1, -0.4..0 (barrel; Conditions.lens_k1; default 0)",
    )
    ap.add_argument(
        "--art",
        type=float,
        default=0.0,
        help="how far the symbols' proportions depart from the classic art, 0..1 "
        "(Conditions.art; default 0)",
    )
    args = ap.parse_args(argv)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        ap.error(f"--size: expected WIDTHxHEIGHT, got {args.size!r}")
    cond = (
        Conditions.sample(np.random.default_rng(args.seed), "hard")
        if args.hard
        else PRESETS[args.preset]
    )
    board = replay(random_game(args.seed, 2, turns=args.turns)).board
    try:
        if args.lens_k1:
            cond = replace(cond, lens_k1=args.lens_k1)
        if args.art:
            cond = replace(cond, art=args.art)
        r = render(board, cond, args.seed, size=(w, h))
    except ValueError as e:
        print(f"python -m vision.render: {e}", file=sys.stderr)
        return 2
    if not cv2.imwrite(args.out, r.image_bgr):
        print(f"python -m vision.render: cannot write {args.out}", file=sys.stderr)
        return 1
    if args.truth:
        tiles = [
            {
                "row": t.pos.row,
                "col": t.pos.col,
                "color": t.tile.color,
                "shape": t.tile.shape.value,
                "visible": t.visible,
                "x": t.center_xy[0],
                "y": t.center_xy[1],
                "corners": [list(c) for c in t.corners_xy],
            }
            for t in r.truth
        ]
        Path(args.truth).write_text(
            json.dumps(
                {
                    "tiles": tiles,
                    "image_from_grid": r.image_from_grid.tolist(),
                    "pitch_px": r.pitch_px,
                },
                indent=1,
            ),
            encoding="utf-8",
        )
    print(f"{args.out}: {len(board)} tiles, pitch {r.pitch_px:.1f} px")
    return 0


if __name__ == "__main__":
    sys.exit(main())
