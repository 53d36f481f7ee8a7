"""Colour calibration from the tiles themselves.

The user lays one tile of each palette colour in a straight line (any order, or palette order
left to right) under the evening's light. We find the line, take the clean symbol pixels of every
tile (the coloured paint on the dark tile body), fit a white balance that brings the line's
colours to the palette's daylight references, and learn per-colour CIELAB references with their
spread in that white-balanced space. *Coverage gating*: the result is complete, and may be saved,
only when every palette colour has enough clean pixels with a low spread and no two learned
colours are confusable.

Public entry points: :func:`calibrate_colours` (an image -> :class:`ColourCalibration`),
:func:`find_reference_tiles` (the line), :func:`symbol_lab` (clean pixels of one tile),
:func:`classify_lab` (nearest references for many colours), :func:`srgb_to_lab_array`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.profile import Palette, Profile, WhiteBalance, lab_to_srgb

__all__ = [
    "CalibrationError",
    "ColourCalibration",
    "ColourSettings",
    "CoverageError",
    "TileSample",
    "calibrate_colours",
    "calibrate_from_tiles",
    "classify_lab",
    "draw_calibration",
    "find_reference_tiles",
    "lab_noise_cov",
    "measure_tiles",
    "srgb_to_lab_array",
    "symbol_lab",
    "symbol_lin_rgb",
    "tile_lab",
]

QuadXY = npt.NDArray[np.float64]  # (4, 2) corners (x, y), clockwise from top-left


class CalibrationError(ValueError):
    """Calibration could not run on this input (e.g. "reference line not found")."""


class CoverageError(CalibrationError):
    """Calibration ran but some palette colours have no clean samples; nothing was saved.

    Attributes:
        missing: the colour names without clean samples, in palette order.
    """

    def __init__(self, message: str, missing: Sequence[str] = ()):
        super().__init__(message)
        self.missing = tuple(missing)


@dataclass(frozen=True)
class ColourSettings:
    """Thresholds of colour calibration (all measured on renders and phone photos of tiles).

    Attributes:
        min_pixels: fewest clean symbol pixels a colour needs. A Qwirkle symbol covers ~25-35 %
            of the tile top; at the smallest tile size vision supports (~24 px) that is ~150 px,
            and ~60 survive the edge erosion, so 40 leaves margin.
        max_spread: largest robust per-axis CIELAB σ (ΔE units) of a clean sample; render noise
            and JPEG give 0.5-2 in good light, the ``dim`` render preset (exposure 0.28, ISO
            noise, white-balance gains ~3-4.5) up to 13 on b*; a tile half covered by a hand
            or showing two paints gives > 20.
        min_separation: smallest ΔE76 between two learned references; below it the two colours
            cannot be told apart reliably under this light (the classic paints are >= 25 apart
            in daylight; orange/yellow under a 2700 K lamp ~15).
        inner_margin: fraction of the tile side trimmed from each edge before sampling, to keep
            bevels, shadows and neighbours out. Small, because the more paint pixels are
            averaged the less the chroma noise of dim light matters: on the ``dim`` renders
            0.12 gave 96.3 % colour identity, 0.05 gave 98 %.
        erode_px: erosion (pixels) of the symbol mask, dropping the paint/body mixing rim.
        min_symbol_contrast: smallest ΔE between the symbol and the tile body for a pixel to be
            paint; below it the tile shows no symbol (or is face down).
        max_line_residual: largest distance of a tile centre from the fitted line, in tile
            sides (a hand-laid line wanders by ~0.1).
        min_solidity: area / min-area-rectangle area of a tile blob (squares ~0.95).
        size_tolerance: a tile's area may differ from the median tile's by this factor.
        min_tile_area_frac, max_tile_area_frac: tile area bounds as a fraction of the image.
        dark_body_max_l: tile bodies are darker than this CIELAB L* (black plastic ~ 10-30
            even under a bright lamp); used by the stand-alone line finder.
        dark_percentiles: further darkness thresholds the line finder tries (percentiles of
            the image's L*): six tiles cover ~1-20 % of a calibration photo.
        split_erode_px: erosions (pixels) the line finder tries to separate touching tiles.
        max_fit_residual: largest mean ΔE between the white-balanced line and the palette's
            daylight references; above it no single light cast explains the colours (glare
            washing the symbols out, a wrong tile set): the profile is refused. Measured:
            1.9-9.6 on the easy/warm/cool/dim presets, 20 for a classic line calibrated as
            the white-for-purple set, 58 under the ``glare`` preset.
        max_body_gain: clamp of the tile-body white-balance gains, ``[1/x, x]``; the same 3 as
            ``vision.colour.ColourSettings.max_wb_gain`` (2700 K needs ~2x blue vs red).
        chain_slack: a chain of touching tiles is split by its length over the spacing of its
            symbols (holes in the dark body) when that count is within this of the aspect
            ratio (cast shadows widen a chain by up to a tile side).
        lightness_weight: weight of ΔL* when classifying a tile with learned references: light
            gradients and vignetting change lightness across a table far more than hue
            (``vision.colour`` uses 0.35 for the same reason; 0.5 keeps white vs grey apart).
        body_subtract: share of the tile body's linear colour taken from each symbol pixel
            (specular glare and lens flare add light to paint and body alike; black paint's
            own reflectance is small and neutral). The same 0.5 as
            ``vision.colour.ColourSettings.body_subtract``: it is part of the reference space
            contract, so learned references and the detector's readings compare like with like.
        smooth_px: box filter (pixels) applied before measuring symbol colours, so the spread
            measures the paint and the light, not sensor noise (a 3x3 mean divides the noise
            σ by 3; measured on the ``dim`` render preset).
        mask_blur: σ of the Gaussian (fraction of the tile side) applied, in linear light, to
            the copy on which paint is told from body. Qwirkle symbol strokes are ~1/6 of the
            side wide, so σ = 1/30 side (~1/5 of a stroke; 1.5 px on a 45 px tile) keeps the
            stroke edges while averaging ~(2σ)² pixels of sensor noise: in dim light single
            pixels of the black body otherwise pass as paint (diluting a purple cross towards
            neutral, i.e. towards blue) and dark paint pixels fall out. ``dim`` renders, 8
            scenes x 96 tiles: 98.0 % -> 99.2 % calibrated colour identity (unblurred -> σ).
        noise_weighted: classify each tile with its own noise (:func:`lab_noise_cov` of the
            robust per-channel σ of its paint pixels, :func:`classify_lab` ``noise_cov``): a
            dark blue or purple in dim light has its red channel near the noise floor, where
            the cube root turns the same linear noise into a wide a* spread, so an a*
            difference then weighs less than an L* or b* one. Only with learned references
            (``Palette.calibrated``): against daylight references the unknown light cast,
            not the sensor noise, dominates the difference. ``dim`` renders, 1536 + 1440
            tiles (seeds 100-115 / 200-215): 12 + 10 wrong without, 4 + 1 with (all left are
            orange <-> red); no change under the other casts.
        clip_sigma: a tile's colour is the mean of its paint pixels in linear light after
            dropping those beyond this many robust σ of the per-channel median (glints,
            a neighbour's paint). The mean is the efficient estimate under Gaussian sensor
            noise (the median needs ~1.6x the pixels for the same σ); clipped to 0 by the
            camera, dark channels read the same bias in calibration and play, so it cancels.
    """

    min_pixels: int = 40
    max_spread: float = 16.0
    min_separation: float = 8.0
    inner_margin: float = 0.05
    erode_px: int = 1
    min_symbol_contrast: float = 12.0
    max_line_residual: float = 0.45
    min_solidity: float = 0.72
    size_tolerance: float = 2.2
    min_tile_area_frac: float = 0.0004
    max_tile_area_frac: float = 0.15
    dark_body_max_l: float = 40.0
    dark_percentiles: tuple[float, ...] = (3.0, 6.0, 10.0, 15.0, 22.0, 30.0)
    smooth_px: int = 3
    split_erode_px: tuple[int, ...] = (0, 2, 4)
    max_fit_residual: float = 15.0
    max_body_gain: float = 3.0
    chain_slack: float = 1.3
    body_subtract: float = 0.5
    lightness_weight: float = 0.5
    mask_blur: float = 1 / 30
    clip_sigma: float = 3.0
    noise_weighted: bool = True


@dataclass(frozen=True)
class TileSample:
    """What calibration measured on one tile of the line.

    Attributes:
        index: position in the line, 0 = leftmost (topmost for a vertical line).
        color: the palette colour assigned to it (None before assignment).
        corners_xy: the tile's four corners in image pixels, clockwise from top-left.
        lab: CIELAB of the σ-clipped mean of its clean symbol pixels (:func:`tile_lab`),
            white balance applied.
        spread: robust per-axis σ of those pixels (ΔE units).
        pixels: how many clean pixels.
        clean: enough pixels and a low spread (:class:`ColourSettings`).
        problem: why it is not clean ("12 pixels", "spread 14.2"), or "".
    """

    index: int
    color: str | None
    corners_xy: tuple[tuple[float, float], ...]
    lab: tuple[float, float, float]
    spread: tuple[float, float, float]
    pixels: int
    clean: bool
    problem: str = ""


@dataclass(frozen=True)
class ColourCalibration:
    """The outcome of :func:`calibrate_colours`.

    Attributes:
        profile: the calibrated profile (palette learned, white balance set). Only meant to be
            saved when :attr:`complete`.
        samples: per tile of the line, what was measured, in line order.
        missing: palette colours without clean samples (empty when complete), palette order.
        confusable: pairs of colours whose learned references are closer than
            ``min_separation`` ΔE.
        fit_residual: mean ΔE76 between the white-balanced line colours and the palette's
            daylight references (how well a single white balance explains the light).
        fit_limit: the largest acceptable ``fit_residual`` (``ColourSettings.max_fit_residual``).
    """

    profile: Profile
    samples: tuple[TileSample, ...]
    missing: tuple[str, ...]
    confusable: tuple[tuple[str, str, float], ...] = ()
    fit_residual: float = 0.0
    fit_limit: float = math.inf

    @property
    def coverage(self) -> dict[str, bool]:
        """Per palette colour, whether it has clean samples."""
        return {n: n not in self.missing for n in self.profile.palette.names}

    @property
    def complete(self) -> bool:
        """Every colour covered and no two colours confusable: safe to save."""
        return not self.missing and not self.confusable and self.fit_residual <= self.fit_limit

    def problems(self) -> list[str]:
        """Human messages for everything that blocks saving (empty when complete)."""
        out = [f"no clean samples for {n!r}{self._why(n)}" for n in self.missing]
        out += [
            f"colours {a!r} and {b!r} look alike under this light (ΔE {d:.1f})"
            for a, b, d in self.confusable
        ]
        if self.fit_residual > self.fit_limit:
            out.append(
                f"the line's colours match the palette under no single light cast (ΔE "
                f"{self.fit_residual:.1f} after white balance, limit {self.fit_limit:g}): "
                "glare on the tiles, or not the palette's tile set?"
            )
        return out

    def _why(self, name: str) -> str:
        for s in self.samples:
            if s.color == name and s.problem:
                return f" ({s.problem})"
        return ""

    def require_complete(self) -> Profile:
        """The profile, or :class:`CoverageError` naming every missing colour."""
        if not self.complete:
            raise CoverageError("; ".join(self.problems()), self.missing)
        return self.profile


# --------------------------------------------------------------------------------- colour math
_V = np.arange(256, dtype=np.float64) / 255.0
_LIN_LUT = np.where(_V <= 0.04045, _V / 12.92, ((_V + 0.055) / 1.055) ** 2.4)
_M = np.array(
    [
        [0.4124564 / 0.95047, 0.3575761 / 0.95047, 0.1804375 / 0.95047],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339 / 1.08883, 0.1191920 / 1.08883, 0.9503041 / 1.08883],
    ]
)


def _lin_to_lab(lin_rgb: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    xyz = lin_rgb @ _M.T
    eps = 216 / 24389
    f = np.where(xyz > eps, np.cbrt(np.maximum(xyz, eps)), (841 / 108) * xyz + 4 / 29)
    return np.stack(
        [116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])],
        axis=-1,
    )


def srgb_to_lab_array(rgb: npt.NDArray[np.generic]) -> npt.NDArray[np.float64]:
    """CIELAB (D65) of sRGB colours ``(..., 3)`` (uint8 0..255 or floats 0..255).

    The same formula as :func:`calibration.profile.srgb_to_lab`, vectorised.
    """
    a = np.asarray(rgb)
    if a.dtype == np.uint8:
        lin = _LIN_LUT[a]
    else:
        v = np.clip(a.astype(np.float64) / 255.0, 0.0, None)
        lin = np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)
    return _lin_to_lab(lin)


def classify_lab(
    lab: npt.ArrayLike,
    palette: Palette,
    *,
    lightness_weight: float = 1.0,
    noise_cov: npt.ArrayLike | None = None,
) -> tuple[list[str], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Nearest palette reference for each of ``lab : (N, 3)`` CIELAB colours.

    ``lightness_weight`` scales the L* difference (1 = plain ΔE76; below 1 trusts chroma more
    than lightness, which shading and uneven light disturb most).

    ``noise_cov : (N, 3, 3)`` (ΔE²), optional: each colour's own measurement noise in CIELAB
    (:func:`lab_noise_cov`). Distances then become Mahalanobis distances under
    ``noise_cov + diag(1/lightness_weight², 1, 1)`` (the second term: 1 ΔE of chroma and
    ``1/lightness_weight`` ΔE of lightness that light and paint vary between tiles anyway),
    so a difference along the direction in which this tile's sensor noise moves CIELAB most
    (a* for a dark blue or purple in dim light) counts less than one across it. Without
    noise they equal the weighted ΔE.

    Returns:
        ``(names, delta_e, margin)``: per colour the nearest name, its (weighted, and with
        ``noise_cov`` noise-scaled) ΔE and the gap to the runner-up (same units; large =
        unambiguous).
    """
    x = np.asarray(lab, dtype=np.float64).reshape(-1, 3)
    refs = np.array([palette.lab[n] for n in palette.names], dtype=np.float64)
    w = np.array([lightness_weight, 1.0, 1.0])
    diff = x[:, None, :] - refs[None, :, :]  # (N, K, 3)
    if noise_cov is None:
        d = np.linalg.norm(diff * w, axis=2)
    else:
        cov = np.asarray(noise_cov, dtype=np.float64).reshape(-1, 3, 3)
        if len(cov) != len(x):
            raise ValueError(f"noise_cov has {len(cov)} matrices for {len(x)} colours")
        inv = np.linalg.inv(cov + np.diag(1.0 / np.maximum(w, 1e-6) ** 2)[None])
        d = np.sqrt(np.maximum(np.einsum("nki,nij,nkj->nk", diff, inv, diff), 0.0))
    order = np.argsort(d, axis=1)
    best = d[np.arange(len(x)), order[:, 0]]
    second = d[np.arange(len(x)), order[:, 1]] if len(refs) > 1 else best
    return [palette.names[i] for i in order[:, 0]], best, second - best


def lab_noise_cov(lin_rgb: npt.ArrayLike, sigma_lin: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """CIELAB covariance ``(3, 3)`` (ΔE²) of independent per-channel noise ``sigma_lin : (3,)``
    on a linear-sRGB colour ``lin_rgb : (3,)``: ``J diag(σ²) Jᵀ`` with ``J`` the Jacobian of
    linear sRGB -> CIELAB at that colour (first-order error propagation; the cube root makes
    the same linear noise on a dark channel swing CIELAB far more than on a bright one).
    """
    m = np.clip(np.asarray(lin_rgb, dtype=np.float64).reshape(3), 0.0, 1.0)
    eps = 1e-4
    pts = np.vstack([m, m + np.eye(3) * eps])
    lab = _lin_to_lab(pts)
    jac = (lab[1:] - lab[0]).T / eps  # (3 lab, 3 rgb)
    var = np.asarray(sigma_lin, dtype=np.float64).reshape(3) ** 2
    return np.asarray(jac @ np.diag(var) @ jac.T, dtype=np.float64)


def _robust_sigma(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    med = np.median(x, axis=0)
    return np.asarray(1.4826 * np.median(np.abs(x - med), axis=0), dtype=np.float64)


# ------------------------------------------------------------------------------ tile sampling
def _quad_mask(shape: tuple[int, int], quad: QuadXY, margin: float) -> npt.NDArray[np.uint8]:
    c = quad.mean(axis=0)
    inner = c + (quad - c) * (1.0 - 2.0 * margin)
    m = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(m, np.rint(inner).astype(np.int32), 255)
    return m


def symbol_lin_rgb(
    image_bgr: npt.NDArray[np.uint8],
    corners_xy: npt.ArrayLike,
    settings: ColourSettings = ColourSettings(),
) -> npt.NDArray[np.float64]:
    """Linear-sRGB ``(N, 3)`` of the clean symbol pixels of one tile (N may be 0).

    ``image_bgr : (H, W, 3) uint8``; ``corners_xy : (4, 2)`` the tile top's corners. Paint is
    told from the dark body by its CIELAB distance to the body colour (the darkest third of the
    tile), split with Otsu's threshold; the mask is then eroded by ``erode_px`` and the colours
    smoothed by a ``smooth_px`` box (staying inside the paint).
    """
    return _tile_pixels(image_bgr, corners_xy, settings)[0]


def _tile_pixels(
    image_bgr: npt.NDArray[np.uint8],
    corners_xy: npt.ArrayLike,
    settings: ColourSettings = ColourSettings(),
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Clean symbol pixels and tile-body pixels of one tile, linear sRGB ``(N, 3)`` each."""
    quad = np.asarray(corners_xy, dtype=np.float64).reshape(4, 2)
    h, w = image_bgr.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return np.zeros((0, 3)), np.zeros((0, 3))
    crop = image_bgr[y0:y1, x0:x1]
    mask = _quad_mask(crop.shape[:2], quad - (x0, y0), settings.inner_margin) > 0
    if mask.sum() < 9:
        return np.zeros((0, 3)), np.zeros((0, 3))
    lin = _LIN_LUT[crop[..., ::-1]]
    side = math.sqrt(abs(cv2.contourArea(quad.astype(np.float32))))
    sigma = settings.mask_blur * side
    if sigma > 0.3:
        # paint vs body is decided on a denoised copy (a Gaussian in linear light mixes light
        # as a lens does, so low-light chroma noise no longer flips single pixels between
        # "paint" and "body"); the colours themselves are read from the unblurred ``lin``
        soft = cv2.GaussianBlur(lin.astype(np.float32), (0, 0), sigma).astype(np.float64)
    else:
        soft = lin
    lab = _lin_to_lab(soft)
    inside = lab[mask]
    dark = inside[inside[:, 0] <= np.percentile(inside[:, 0], 33)]
    body = np.median(dark, axis=0)
    dist = np.linalg.norm(lab - body, axis=2)
    dvals = dist[mask]
    body_px = lin[mask & (dist < settings.min_symbol_contrast / 2)]
    if dvals.max() < settings.min_symbol_contrast:
        return np.zeros((0, 3)), body_px
    scaled = np.clip(dvals / dvals.max() * 255, 0, 255).astype(np.uint8)
    thr, _ = cv2.threshold(scaled.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    thr_de = max(thr / 255 * dvals.max(), settings.min_symbol_contrast)
    sym = ((dist > thr_de) & mask).astype(np.uint8)
    # the symbol is printed in the middle: paint-like pixels touching the sampled area's rim
    # are the table, a neighbour or a lit tile side showing through a misplaced quad
    # (a component is kept when at least a third of it lies in the central disc, so noise
    # bridging a dim symbol to the rim does not throw the symbol away)
    rim = mask & ~cv2.erode(mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    n_lab, labels = cv2.connectedComponents(sym, connectivity=8)
    if n_lab > 1:
        cx, cy = quad.mean(axis=0) - (x0, y0)
        yy, xx = np.mgrid[0 : crop.shape[0], 0 : crop.shape[1]]
        central = (xx - cx) ** 2 + (yy - cy) ** 2 <= (0.3 * side) ** 2
        sizes = np.bincount(labels.ravel(), minlength=n_lab)
        in_disc = np.bincount(labels[central], minlength=n_lab)
        for lab_id in np.unique(labels[rim & (sym > 0)]):
            if lab_id > 0 and in_disc[lab_id] < sizes[lab_id] / 3:
                sym[labels == lab_id] = 0
    if settings.erode_px > 0:
        k = 2 * settings.erode_px + 1
        eroded = cv2.erode(sym, np.ones((k, k), np.uint8))
        if eroded.sum() >= settings.min_pixels:
            sym = eroded
    if settings.smooth_px > 1:
        k = settings.smooth_px
        lin = cv2.blur(lin.astype(np.float32), (k, k)).astype(np.float64)
        inner = cv2.erode(sym, np.ones((k, k), np.uint8))  # the box must stay on the paint
        if inner.sum() >= settings.min_pixels:
            sym = inner
    paint = np.asarray(lin[sym > 0], dtype=np.float64)
    if settings.body_subtract > 0 and len(body_px) >= 3 and len(paint):
        # glare and flare add the same light to paint and body; black paint reflects little
        paint = np.maximum(paint - settings.body_subtract * np.median(body_px, axis=0), 1e-4)
    return paint, body_px


def symbol_lab(
    image_bgr: npt.NDArray[np.uint8],
    corners_xy: npt.ArrayLike,
    white_balance: WhiteBalance | None = None,
    settings: ColourSettings = ColourSettings(),
) -> npt.NDArray[np.float64]:
    """CIELAB ``(N, 3)`` of one tile's clean symbol pixels, white balance applied if given."""
    lin = symbol_lin_rgb(image_bgr, corners_xy, settings)
    if white_balance is not None and len(lin):
        lin = np.clip(lin * np.asarray(white_balance.gains), 0.0, 1.0)
    return _lin_to_lab(lin) if len(lin) else np.zeros((0, 3))


def measure_tiles(
    image_bgr: npt.NDArray[np.uint8],
    quads_xy: Sequence[npt.ArrayLike],
    profile: Profile,
    settings: ColourSettings = ColourSettings(),
) -> list[tuple[str | None, float, float, int]]:
    """Classify the symbol colour of tiles whose corners are known, with ``profile``.

    Returns per quad ``(name, ΔE to it, margin to the runner-up, clean pixels)``; ``name`` is
    None when the tile shows too few symbol pixels. With ``settings.noise_weighted`` the
    distances to a calibrated palette are scaled by the tile's own sensor noise
    (:func:`classify_lab` ``noise_cov``, from the robust σ of its paint pixels): equal to ΔE
    in good light, smaller in dim light.
    Used by the wizard's live view and the benchmark (the detector has its own classifier
    reading the same profile fields).
    """
    out: list[tuple[str | None, float, float, int]] = []
    gains = np.asarray(profile.white_balance.gains if profile.white_balance else (1, 1, 1))
    for q in quads_xy:
        lin = symbol_lin_rgb(image_bgr, q, settings)
        if len(lin) < max(3, settings.min_pixels // 4):
            out.append((None, math.inf, 0.0, len(lin)))
            continue
        cov = None
        if settings.noise_weighted and profile.palette.calibrated:
            est = _clipped_mean(lin, settings.clip_sigma) * gains
            cov = lab_noise_cov(est, _robust_sigma(lin * gains))[None]
        names, de, margin = classify_lab(
            tile_lab(lin, gains, settings.clip_sigma)[None],
            profile.palette,
            lightness_weight=settings.lightness_weight,
            noise_cov=cov,
        )
        out.append((names[0], float(de[0]), float(margin[0]), len(lin)))
    return out


def tile_lab(
    lin_rgb: npt.NDArray[np.float64],
    gains: npt.ArrayLike = (1.0, 1.0, 1.0),
    clip_sigma: float = ColourSettings.clip_sigma,
) -> npt.NDArray[np.float64]:
    """One tile's colour: CIELAB ``(3,)`` of the σ-clipped per-channel mean of its symbol
    pixels ``lin_rgb : (N, 3)`` (linear sRGB), white-balanced by ``gains``.

    Pixels further than ``clip_sigma`` robust σ (1.4826 MAD) from the per-channel median in
    any channel are dropped (glints, stray paint); the rest are averaged in *linear* light,
    where sensor noise is additive, before converting to CIELAB (the cube root of noisy dark
    pixels would bias a CIELAB average). ``clip_sigma <= 0`` gives the per-channel median.
    """
    est = _clipped_mean(lin_rgb, clip_sigma)
    return _lin_to_lab(np.clip(est * np.asarray(gains), 0.0, 1.0))


def _clipped_mean(lin_rgb: npt.NDArray[np.float64], clip_sigma: float) -> npt.NDArray[np.float64]:
    """Per-channel mean of ``lin_rgb : (N, 3)`` without pixels beyond ``clip_sigma`` robust σ
    of the median in any channel (``clip_sigma <= 0``: the per-channel median)."""
    px = np.asarray(lin_rgb, dtype=np.float64).reshape(-1, 3)
    med = np.asarray(np.median(px, axis=0), dtype=np.float64)
    if clip_sigma <= 0 or len(px) < 3:
        return med
    sig = np.maximum(_robust_sigma(px), 1e-6)
    keep = np.all(np.abs(px - med) <= clip_sigma * sig, axis=1)
    return np.asarray(px[keep].mean(axis=0), dtype=np.float64) if keep.sum() >= 3 else med


# ------------------------------------------------------------------------------ the line
def _order_quad(pts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Corners clockwise from top-left (image coordinates, y down)."""
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    p = pts[np.argsort(ang)]  # clockwise on screen since y grows down
    start = int(np.argmin(p.sum(axis=1)))
    return np.roll(p, -start, axis=0)


def _tile_blobs(
    light: npt.NDArray[np.uint8],
    settings: ColourSettings,
    limit: float,
    erode: int,
    expect: int = 0,
) -> list[npt.NDArray[np.float64]]:
    """Blobs of ``light : (H, W) uint8`` (8-bit L*) darker than ``limit``, square-ish, symbols
    filled in. ``erode`` pixels are peeled off first (separating tiles joined by shadows or
    table grain) and added back to each box; tiles touching in a row are split by aspect."""
    h, w = light.shape[:2]
    mask = (light < limit).astype(np.uint8) * 255
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    if erode > 0:
        opened = cv2.erode(opened, np.ones((2 * erode + 1, 2 * erode + 1), np.uint8))
    dark: npt.NDArray[np.uint8] = np.asarray(opened, dtype=np.uint8)
    contours, _ = cv2.findContours(dark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    quads: list[npt.NDArray[np.float64]] = []
    amin, amax = settings.min_tile_area_frac * h * w, settings.max_tile_area_frac * h * w
    for c in contours:
        area = cv2.contourArea(c)
        if area < amin:
            continue
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(c)
        if rw * rh <= 0 or area / (rw * rh) < settings.min_solidity:
            continue
        rw, rh = rw + 2 * erode, rh + 2 * erode
        long_, short = max(rw, rh), min(rw, rh)
        if short * short > amax:
            continue
        aspect = long_ / short
        # touching tiles in a row: one symbol (a hole in the dark body) per tile
        box = _order_quad(cv2.boxPoints(((cx, cy), (rw, rh), ang)).astype(np.float64))
        e01, e03 = box[1] - box[0], box[3] - box[0]
        axis = e01 if np.linalg.norm(e01) >= np.linalg.norm(e03) else e03
        axis = axis / max(float(np.linalg.norm(axis)), 1e-9)
        pitch = _hole_pitch(dark, np.asarray(c, np.int32), short, axis) if aspect > 1.5 else 0.0
        by_pitch = round(long_ / pitch) if pitch > 0 else 0
        if expect and abs(aspect - expect) <= 0.5:
            k = expect  # the whole reference line, some dark symbols (navy, purple) unseen
        elif by_pitch >= 2 and abs(by_pitch - aspect) <= settings.chain_slack:
            k = by_pitch  # symbols repeat every pitch; a shadow only widens the chain
        else:
            k = max(1, round(aspect))
            if abs(aspect - k) > 0.35:
                continue
        # split along the long side into k squares (b0..b3 clockwise from top-left)
        for i in range(k):
            if np.linalg.norm(e01) >= np.linalg.norm(e03):
                p0 = box[0] + e01 * i / k
                q = np.array([p0, p0 + e01 / k, p0 + e01 / k + e03, p0 + e03])
            else:
                p0 = box[0] + e03 * i / k
                q = np.array([p0, p0 + e01, p0 + e01 + e03 / k, p0 + e03 / k])
            quads.append(_order_quad(q))
    return quads


def _hole_pitch(
    dark: npt.NDArray[np.uint8],
    contour: npt.NDArray[np.int32],
    short: float,
    axis: npt.NDArray[np.float64],
) -> float:
    """The spacing of the symbols (holes at least a fifth of the blob's width across) along a
    chain of touching tiles, pixels; 0 when fewer than two symbols show."""
    x, y, w, h = cv2.boundingRect(contour)
    filled = np.zeros((h, w), np.uint8)
    cv2.drawContours(filled, [contour - np.array([x, y], dtype=contour.dtype)], -1, 255, -1)
    holes = cv2.bitwise_and(filled, cv2.bitwise_not(dark[y : y + h, x : x + w]))
    holes = cv2.morphologyEx(holes, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, _, stats, cents = cv2.connectedComponentsWithStats(holes, connectivity=8)
    keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= (0.2 * short) ** 2]
    if len(keep) < 2:
        return 0.0
    along = np.sort(cents[keep] @ axis)
    gaps = np.diff(along)
    gaps = gaps[gaps > 0.5 * short]
    if len(gaps) == 0:
        return 0.0
    adjacent = gaps[gaps < 1.5 * gaps.min()]  # neighbours; larger gaps hide dark symbols
    return float(np.median(adjacent))


def find_reference_tiles(
    image_bgr: npt.NDArray[np.uint8],
    count: int,
    settings: ColourSettings = ColourSettings(),
) -> list[npt.NDArray[np.float64]]:
    """The ``count`` tiles of the reference line, in line order (left to right, or top down).

    ``image_bgr : (H, W, 3) uint8``. Tiles are the dark, square bodies (symbols inside them are
    filled); touching tiles are split by their aspect ratio. When that fails and
    ``vision.detect`` is available and finds exactly ``count`` tiles in a line, those are used.

    Returns:
        ``count`` arrays ``(4, 2)`` of corners ``(x, y)``, clockwise from top-left.

    Raises:
        CalibrationError: "reference line not found: ..." (too few or too many tiles, tiles of
            different sizes, or not in one straight line).
    """
    try:
        return _own_line(image_bgr, count, settings)
    except CalibrationError:
        detected = _detector_quads(image_bgr, count)
        if detected:
            try:
                return _as_line(detected, settings)
            except CalibrationError:
                pass
        raise


def _own_line(
    image_bgr: npt.NDArray[np.uint8], count: int, settings: ColourSettings
) -> list[npt.NDArray[np.float64]]:
    """The stand-alone line finder: dark square blobs over a sweep of thresholds."""
    lab8 = np.asarray(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2LAB)[..., 0], dtype=np.uint8)
    light = np.asarray(cv2.medianBlur(lab8, 5), dtype=np.uint8)  # dim-light noise splits blobs
    otsu, _ = cv2.threshold(light, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # darkness thresholds to try: Otsu's, then low percentiles of L (a dark or dim table
    # defeats Otsu; the tile bodies are always among the darkest pixels)
    limits = [min(float(otsu), settings.dark_body_max_l * 2.55)]
    limits += [float(np.percentile(light, q)) + 1 for q in settings.dark_percentiles]
    best_error: CalibrationError | None = None
    best_found = -1
    for limit, erode in itertools.product(limits, settings.split_erode_px):
        quads = _tile_blobs(light, settings, limit, erode, count if count >= 3 else 0)
        if quads:
            areas = np.array([abs(cv2.contourArea(q.astype(np.float32))) for q in quads])
            med = float(np.median(areas))
            quads = [
                q
                for q, a in zip(quads, areas, strict=True)
                if med / settings.size_tolerance <= a <= med * settings.size_tolerance
            ]
        if len(quads) != count:
            if best_error is None or abs(len(quads) - count) < abs(best_found - count):
                best_found = len(quads)
                best_error = CalibrationError(
                    f"reference line not found: expected {count} tiles (one per palette "
                    f"colour) in a line, found {len(quads)}"
                )
            continue
        try:
            return _as_line(quads, settings)
        except CalibrationError as e:
            best_error, best_found = e, count
    assert best_error is not None
    raise best_error


def _as_line(
    quads: list[npt.NDArray[np.float64]], settings: ColourSettings
) -> list[npt.NDArray[np.float64]]:
    """``quads`` sorted along their common line; CalibrationError when not in one line."""
    count = len(quads)
    centres = np.array([q.mean(axis=0) for q in quads])
    side = float(np.median([np.sqrt(abs(cv2.contourArea(q.astype(np.float32)))) for q in quads]))
    mean = centres.mean(axis=0)
    if count >= 2:
        _, _, vt = np.linalg.svd(centres - mean)
        direction = vt[0]
        normal = np.array([-direction[1], direction[0]])
        resid = np.abs((centres - mean) @ normal)
        if resid.max() > settings.max_line_residual * side:
            raise CalibrationError(
                "reference line not found: the tiles are not in one straight line "
                f"(a tile is {resid.max() / side:.1f} tile sides off the line)"
            )
        if abs(direction[0]) >= abs(direction[1]):
            direction = direction if direction[0] > 0 else -direction
        else:
            direction = direction if direction[1] > 0 else -direction
        order = np.argsort((centres - mean) @ direction)
        quads = [quads[i] for i in order]
    return quads


def _detector_quads(image_bgr: npt.NDArray[np.uint8], count: int) -> list[npt.NDArray[np.float64]]:
    try:
        from vision.detect import detect
    except ImportError:
        return []
    try:
        obs = detect(image_bgr)
    except Exception:  # the detector is optional here; fall back to our own segmentation
        return []
    if len(obs.tiles) != count:
        return []
    return [np.asarray(t.corners_xy, dtype=np.float64) for t in obs.tiles]


# ------------------------------------------------------------------------- white balance fit
def _fit_gains(
    obs: npt.NDArray[np.float64], ref: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Per-channel least-squares gains g with g * obs ≈ ref (linear RGB, (n, 3) each)."""
    num = (obs * ref).sum(axis=0)
    den = (obs * obs).sum(axis=0)
    return np.asarray(np.where(den > 1e-9, num / np.maximum(den, 1e-12), 1.0), dtype=np.float64)


def _assign(
    obs_lin: npt.NDArray[np.float64], ref_lin: npt.NDArray[np.float64], ordered: bool
) -> tuple[list[int], npt.NDArray[np.float64], float]:
    """Which reference each observed tile is, and the white balance: ``(perm, gains, ΔE)``.

    Tries every assignment (n! for n <= 7; the palette order only when ``ordered``); for each,
    the best diagonal gains are fitted and the mean ΔE76 after correction is the cost.
    """
    n = len(obs_lin)
    ref_lab = _lin_to_lab(ref_lin)
    if ordered:
        perms: list[tuple[int, ...]] = [tuple(range(n))]
    elif n <= 7:
        perms = list(itertools.permutations(range(n)))
    else:  # greedy: alternate nearest assignment and gain fit
        g = _fit_gains(obs_lin, np.repeat(ref_lin.mean(axis=0, keepdims=True), n, axis=0))
        perm = list(range(n))
        for _ in range(5):
            lab = _lin_to_lab(np.clip(obs_lin * g, 0, 1))
            d = np.linalg.norm(lab[:, None] - ref_lab[None], axis=2)
            perm = list(np.argmin(d, axis=1))
            g = _fit_gains(obs_lin, ref_lin[perm])
        perms = [tuple(int(p) for p in perm)]
    p_arr = np.array(perms)  # (P, n)
    refs = ref_lin[p_arr]  # (P, n, 3)
    num = (obs_lin[None] * refs).sum(axis=1)
    den = (obs_lin * obs_lin).sum(axis=0)[None]
    gains = np.where(den > 1e-9, num / np.maximum(den, 1e-12), 1.0)  # (P, 3)
    corrected = np.clip(obs_lin[None] * gains[:, None, :], 0, 1)
    lab = _lin_to_lab(corrected)
    cost = np.linalg.norm(lab - ref_lab[p_arr], axis=2).mean(axis=1)
    best = int(np.argmin(cost))
    return [int(i) for i in p_arr[best]], gains[best], float(cost[best])


# ------------------------------------------------------------------------------ entry point
def calibrate_colours(
    image_bgr: npt.NDArray[np.uint8],
    palette: Palette,
    *,
    order: str = "auto",
    base: Profile | None = None,
    quads_xy: Sequence[npt.ArrayLike] | None = None,
    settings: ColourSettings = ColourSettings(),
) -> ColourCalibration:
    """Learn the palette's references under the light of ``image_bgr``.

    Parameters:
        image_bgr: ``(H, W, 3) uint8``, a photo of one tile per palette colour in a line.
        palette: the tile set's colours with their daylight references (any simple form).
        order: ``"auto"`` (any order; the assignment and white balance that best explain the
            line are chosen jointly) or ``"palette"`` (the tiles are in palette order, left to
            right or top down).
        base: a profile whose geometry, lens and extra keys are kept (default: none).
        quads_xy: the tiles' corners, if already known (e.g. from the detector or the first
            move); skips the line search. ``len(quads_xy)`` must equal the palette size.
        settings: thresholds.

    Returns:
        A :class:`ColourCalibration`; check :attr:`~ColourCalibration.complete` (or call
        :meth:`~ColourCalibration.require_complete`) before saving its profile.

    Raises:
        CalibrationError: "reference line not found: ..." or a bad ``order``.
    """
    if order not in ("auto", "palette"):
        raise CalibrationError(f"order must be 'auto' or 'palette', not {order!r}")
    if image_bgr.ndim != 3 or image_bgr.shape[2] != 3 or image_bgr.dtype != np.uint8:
        raise CalibrationError("expected a colour image (H, W, 3) uint8")
    names = palette.names
    n = len(names)
    if quads_xy is not None:
        quads = [np.asarray(q, dtype=np.float64).reshape(4, 2) for q in quads_xy]
        if len(quads) != n:
            raise CalibrationError(
                f"reference line not found: expected {n} tiles, got {len(quads)}"
            )
    else:
        quads = find_reference_tiles(image_bgr, n, settings)

    measured = [_tile_pixels(image_bgr, q, settings) for q in quads]
    pixels = [m[0] for m in measured]
    bodies = [m[1] for m in measured if len(m[1])]
    usable = [i for i, p in enumerate(pixels) if len(p) >= 3]
    ref_lin = _LIN_LUT[np.array([palette.rgb[c] for c in names], dtype=np.uint8)]
    obs_med = np.array([np.median(p, axis=0) if len(p) >= 3 else np.zeros(3) for p in pixels])
    if order == "palette" or len(usable) < n:
        # without every tile the joint assignment is ill-posed: fall back to line order
        perm = list(range(n))
        sel = usable if usable else list(range(n))
        fit = _fit_gains(obs_med[sel], ref_lin[sel]) if usable else np.ones(3)
        lab_c = _lin_to_lab(np.clip(obs_med[sel] * fit, 0, 1))
        residual = float(np.linalg.norm(lab_c - _lin_to_lab(ref_lin[sel]), axis=1).mean())
    else:
        perm, _fit, residual = _assign(obs_med, ref_lin, ordered=False)
    return _learn(
        palette, quads, pixels, bodies, [names[p] for p in perm], residual, base, settings
    )


def _learn(
    palette: Palette,
    quads: Sequence[npt.NDArray[np.float64]],
    pixels: Sequence[npt.NDArray[np.float64]],
    bodies: Sequence[npt.NDArray[np.float64]],
    colours: Sequence[str],
    residual: float,
    base: Profile | None,
    settings: ColourSettings,
) -> ColourCalibration:
    """References from tiles whose colours are known: ``pixels[i]`` (linear sRGB) of the tile
    with corners ``quads[i]`` is ``colours[i]``; ``bodies`` are tile-body pixels."""
    names = palette.names
    # The reference space: von Kries gains that make the black tile bodies neutral (mean
    # preserving), as vision.colour does per image, so a detector that white-balances on the
    # bodies and one that applies profile.white_balance both compare like with like.
    gains = np.ones(3)
    if bodies:
        med_body = np.median(np.vstack(bodies), axis=0)
        if np.all(med_body > 1e-5):
            lim = settings.max_body_gain
            gains = np.clip(med_body.mean() / med_body, 1 / lim, lim)
    wb = WhiteBalance(
        gains=(float(gains[0]), float(gains[1]), float(gains[2])), source="tile-bodies"
    )

    samples: list[TileSample] = []
    pooled: dict[str, list[npt.NDArray[np.float64]]] = {}
    for i, (q, px, color) in enumerate(zip(quads, pixels, colours, strict=True)):
        if len(px):
            lab = _lin_to_lab(np.clip(px * gains, 0, 1))
            med = tile_lab(px, gains, settings.clip_sigma)
            sig = _robust_sigma(lab)
        else:
            med, sig = np.zeros(3), np.full(3, np.inf)
        problem = ""
        if len(px) < settings.min_pixels:
            problem = f"{len(px)} clean pixels, need {settings.min_pixels}"
        elif float(sig.max()) > settings.max_spread:
            problem = f"spread {float(sig.max()):.1f} ΔE, limit {settings.max_spread:g}"
        samples.append(
            TileSample(
                index=i,
                color=color,
                corners_xy=tuple((float(x), float(y)) for x, y in q),
                lab=(float(med[0]), float(med[1]), float(med[2])),
                spread=tuple(float(s) for s in sig),  # type: ignore[arg-type]
                pixels=len(px),
                clean=not problem,
                problem=problem,
            )
        )
        if not problem:
            pooled.setdefault(color, []).append(px)

    lab_ref: dict[str, tuple[float, float, float]] = {}
    spread: dict[str, tuple[float, float, float]] = {}
    counts: dict[str, int] = {}
    for color, parts in pooled.items():
        px = np.vstack(parts)
        med = tile_lab(px, gains, settings.clip_sigma)
        sig = _robust_sigma(_lin_to_lab(np.clip(px * gains, 0, 1)))
        if float(sig.max()) > settings.max_spread:  # tiles of one colour disagree
            continue
        lab_ref[color] = (float(med[0]), float(med[1]), float(med[2]))
        spread[color] = (float(sig[0]), float(sig[1]), float(sig[2]))
        counts[color] = len(px)

    missing = tuple(c for c in names if c not in lab_ref)
    # the learned palette: learned where clean, else the daylight reference
    full_lab = {c: lab_ref.get(c, palette.lab[c]) for c in names}
    learned = Palette(
        names=names,
        rgb={c: (lab_to_srgb(full_lab[c]) if c in lab_ref else palette.rgb[c]) for c in names},
        lab=full_lab,
        spread=spread,
        samples=counts,
    )
    confusable: list[tuple[str, str, float]] = []
    for a, b in itertools.combinations([c for c in names if c in lab_ref], 2):
        d = math.dist(lab_ref[a], lab_ref[b])
        if d < settings.min_separation:
            confusable.append((a, b, d))
    profile = (base or Profile()).with_(palette=learned, white_balance=wb)
    return ColourCalibration(
        profile=profile,
        samples=tuple(samples),
        missing=missing,
        confusable=tuple(confusable),
        fit_residual=residual,
        fit_limit=settings.max_fit_residual,
    )


def calibrate_from_tiles(
    views: Sequence[tuple[npt.NDArray[np.uint8], Sequence[tuple[npt.ArrayLike, str]]]],
    palette: Palette,
    *,
    base: Profile | None = None,
    settings: ColourSettings = ColourSettings(),
) -> ColourCalibration:
    """Learn references from tiles whose colours the user confirmed (e.g. the first moves).

    Parameters:
        views: photos under one light, each with its tiles as ``(corners_xy (4, 2), colour)``;
            several tiles (and photos) may show the same colour: their clean pixels are pooled.
        palette: the tile set's colours; every confirmed colour must be in it.

    Returns:
        A :class:`ColourCalibration` whose ``missing`` lists the colours not yet seen cleanly
        (coverage grows as more moves are confirmed).

    Raises:
        CalibrationError: no tiles, a colour not in the palette, or a bad image.
    """
    quads: list[npt.NDArray[np.float64]] = []
    pixels: list[npt.NDArray[np.float64]] = []
    bodies: list[npt.NDArray[np.float64]] = []
    colours: list[str] = []
    for image_bgr, tiles in views:
        if image_bgr.ndim != 3 or image_bgr.shape[2] != 3 or image_bgr.dtype != np.uint8:
            raise CalibrationError("expected colour images (H, W, 3) uint8")
        for corners, color in tiles:
            if color not in palette.names:
                raise CalibrationError(
                    f"colour {color!r} is not in the palette ({', '.join(palette.names)})"
                )
            q = np.asarray(corners, dtype=np.float64).reshape(4, 2)
            sym, body = _tile_pixels(image_bgr, q, settings)
            quads.append(q)
            pixels.append(sym)
            colours.append(color)
            if len(body):
                bodies.append(body)
    if not quads:
        raise CalibrationError("no confirmed tiles to learn from")
    # how well one diagonal cast maps the confirmed colours onto their daylight references
    seen = sorted({c for c, p in zip(colours, pixels, strict=True) if len(p) >= 3})
    residual = 0.0
    if seen:
        obs = np.array(
            [
                np.median(
                    np.vstack(
                        [
                            p
                            for c, p in zip(colours, pixels, strict=True)
                            if c == name and len(p) >= 3
                        ]
                    ),
                    axis=0,
                )
                for name in seen
            ]
        )
        ref = _LIN_LUT[np.array([palette.rgb[c] for c in seen], dtype=np.uint8)]
        fit = _fit_gains(obs, ref)
        lab_c = _lin_to_lab(np.clip(obs * fit, 0, 1))
        residual = float(np.linalg.norm(lab_c - _lin_to_lab(ref), axis=1).mean())
    return _learn(palette, quads, pixels, bodies, colours, residual, base, settings)


def draw_calibration(
    image_bgr: npt.NDArray[np.uint8], result: ColourCalibration
) -> npt.NDArray[np.uint8]:
    """A copy of ``image_bgr`` with each line tile outlined in its learned colour (red when not
    clean) and labelled ``index colour ✓/✗``; the input is not modified."""
    out = image_bgr.copy()
    pal = result.profile.palette
    scale = max(0.4, min(out.shape[:2]) / 900)
    for s in result.samples:
        pts = np.rint(np.array(s.corners_xy)).astype(np.int32)
        r, g, b = pal.rgb[s.color] if s.color else (255, 255, 255)
        colour = (b, g, r) if s.clean else (0, 0, 255)
        cv2.polylines(out, [pts], True, colour, max(1, round(2 * scale)), cv2.LINE_AA)
        label = f"{s.index + 1} {s.color or '?'} {'ok' if s.clean else 'X'}"
        x, y = int(pts[:, 0].min()), int(pts[:, 1].min()) - 4
        cv2.putText(
            out,
            label,
            (x, max(y, 12)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.45 * scale,
            (0, 0, 0),
            max(2, round(3 * scale)),
            cv2.LINE_AA,
        )
        cv2.putText(
            out,
            label,
            (x, max(y, 12)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.45 * scale,
            (255, 255, 255),
            max(1, round(scale)),
            cv2.LINE_AA,
        )
    return out
