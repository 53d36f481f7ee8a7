"""Independent photo-like renderer of Qwirkle tiles on a table: a held-out cross-check.

This module was written independently of ``vision/render.py`` (without reading it, the detector,
its tests or its calibration) so that it can measure the tile detector on pictures whose
generator never influenced the detector. It must never be used for tuning: only for checking.

Scene model (millimetres, world z up, table at z = 0):
- Tiles are black boxes (side ~30 mm, 6-7 mm thick, rounded corners, a small bevel) carrying one
  painted symbol; the top face is a texture (symbol in tile coordinates) warped into the image
  with the homography of the plane z = thickness; the visible side faces are drawn as projected
  quads. Each tile is super-sampled in its own patch and composited far-to-near.
- Boards grow as lines of 1-6 tiles branching off existing tiles on a square grid; tiles are
  hand-laid (turned by ~2 deg, pushed about a mm, then relaxed so that they never overlap).
  Kinds are random or Qwirkle-like (each new line shares the colour or the shape of its anchor).
- A pinhole camera tilted 0-35 deg off vertical, any board rotation, board anywhere in frame
  (sometimes deliberately cut by the frame edge).
- Procedural tables in table coordinates (wood, white, cloth, felt, checks, stripes, dots, flowers,
  printed game board), point lights (warm to cool), ambient, vignetting, soft tile shadows,
  Blinn-Phong glare on the glossy tile tops (per-tile top tilt breaks the highlight up), hands
  or arms with soft shadows, defocus/motion blur, lateral chromatic shift, sensor noise, JPEG.

Conditions (``conditions(seed)``, drawn first from ``default_rng(seed)``; render_scene then goes
on drawing from the same generator, so the two always agree):
- size: 640x480 30 %, 1280x720 30 %, 1920x1080 28 %, 1600x1200 6 %, 2000x1500 6 % (``size=``
  overrides the image size; conditions() still reports the drawn one).
- table: light_wood 14 %, dark_wood 12 %, white 10 %, cloth 17 %, felt 8 %, checks 10 %,
  stripes 8 %, dots 7 %, flowers 6 %, game_board 8 % (grid lines at ~the tile pitch);
  table_tone: cloth-like tables take any of 15 tones uniformly, among them red, orange, yellow
  and black (close to the tile paints / tile body); wood pale / yellow / oak or walnut /
  mahogany / espresso; felt mostly green.
- light: warm 35 % (2600-3600 K), neutral 35 % (3800-5600 K), cool 30 % (5800-8000 K), partly
  white-balanced; dim 20 %; lights: 1 (70 %) or 2 point lamps + ambient; vignette 0.05-0.45.
- tilt_deg: 0-8 (30 %) or 8-35 (70 %); rotation_deg 0-360; fov_deg 52-76.
- pitch: small 25-45 px 35 %, medium 45-90 px 40 %, large 90-200 px 25 % (log-uniform; capped
  at min(W, H) / 3); the measured pitch_px differs by perspective.
- board: lines 50 % / random 50 %; n_tiles_target 1-3 15 %, 4-12 25 %, 13-40 30 %, 41-100 30 %
  (capped to ~40 % of the grid cells the frame holds and by what fits in the frame);
  partial 15 % (tiles may lie up to two pitches beyond the frame edge).
- hand 25 % (open hand 70 % / fist 30 %, six skin tones, sleeve 60 %, soft shadow).
- glare: none 25 %, mild 45 %, strong 30 % (strong: a lamp placed so that its mirror image lands
  on the board).
- blur: none 50 %, defocus 30 % (sigma 0.3-1.2 px), motion 20 % (1.5-5 px); noise 0.002-0.012
  (x2.5 when dim); lateral chromatic shift 40 %; sharpen 30 %; jpeg quality 50-95.

Truth: one dict per tile on the board (also tiles outside the frame), sorted by (row, col):
``row``, ``col`` (grid cell; rows grow down the picture when rotation is 0, the board is never
mirrored), ``color``, ``shape``, ``center_xy`` (image coordinates of the centre of the tile's TOP
face, OpenCV convention: pixel (i, j) has its centre at x = j, y = i), ``covered`` (fraction of the
top face hidden by a hand or lying outside the frame) and ``visible`` (covered < 0.15 and the
whole symbol inside the frame and not touched by a hand: a detector must find it).
``pitch_px`` is the mean image distance from the grid cell nearest the board's centroid to its
four neighbour cells (nominal grid, top-face height).

CLI: ``python -m benchmarks.independent_render OUTDIR --seeds 0 20 [--overlay]`` renders seeds
0..19 into OUTDIR/scene_SEED.jpg + .json (and scene_SEED_overlay.png).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
Rng = np.random.Generator

COLORS = ("red", "orange", "yellow", "green", "blue", "purple")
SHAPES = ("circle", "square", "diamond", "clover", "star4", "star8")
# Nominal paints, sRGB (R, G, B); varied per scene.
PAINTS = {
    "red": (198, 30, 52),
    "orange": (240, 118, 30),
    "yellow": (245, 200, 40),
    "green": (70, 166, 64),
    "blue": (36, 96, 196),
    "purple": (138, 56, 160),
}
SIZES = [
    ("640x480", 0.30),
    ("1280x720", 0.30),
    ("1920x1080", 0.28),
    ("1600x1200", 0.06),
    ("2000x1500", 0.06),
]
TABLES = [
    ("light_wood", 0.14),
    ("dark_wood", 0.12),
    ("white", 0.10),
    ("cloth", 0.17),
    ("felt", 0.08),
    ("checks", 0.10),
    ("stripes", 0.08),
    ("dots", 0.07),
    ("flowers", 0.06),
    ("game_board", 0.08),
]
TONES: dict[str, tuple[int, int, int]] = {
    "red": (168, 32, 36),
    "orange": (226, 112, 36),
    "yellow": (226, 190, 64),
    "green": (62, 122, 62),
    "blue": (42, 72, 142),
    "navy": (26, 34, 70),
    "purple": (92, 52, 112),
    "pink": (222, 152, 170),
    "beige": (212, 196, 164),
    "grey": (122, 122, 120),
    "teal": (32, 118, 118),
    "brown": (112, 76, 52),
    "black": (32, 32, 34),
    "white": (232, 232, 226),
    "cream": (238, 228, 200),
}
WOODS = {
    "light_wood": [(214, 178, 128), (222, 172, 84), (192, 142, 92)],
    "dark_wood": [(102, 66, 40), (112, 48, 32), (58, 40, 30)],
}
SKINS = [
    (241, 204, 178),
    (228, 178, 142),
    (200, 146, 108),
    (160, 108, 76),
    (112, 72, 50),
    (74, 48, 36),
]


def _lin(rgb: tuple[float, float, float] | F64) -> F64:
    """sRGB 0-255 (R, G, B) -> linear BGR 0-1."""
    a = np.asarray(rgb, np.float64)[::-1] / 255.0
    return np.asarray(a**2.2, np.float64)


def _pick(rng: Rng, items: list[tuple[str, float]]) -> str:
    p = np.array([w for _, w in items], np.float64)
    return items[int(rng.choice(len(items), p=p / p.sum()))][0]


# ----------------------------------------------------------------------------- conditions
def _draw_conditions(rng: Rng) -> dict[str, Any]:
    """All scene-level choices, drawn first from a fresh rng (so conditions() matches renders)."""
    c: dict[str, Any] = {"size": _pick(rng, SIZES), "table": _pick(rng, TABLES)}
    t = c["table"]
    if t in WOODS:
        c["table_tone"] = (
            ["pale", "yellow", "oak"][int(rng.integers(3))]
            if t == "light_wood"
            else ["walnut", "mahogany", "espresso"][int(rng.integers(3))]
        )
    elif t == "felt":
        c["table_tone"] = _pick(rng, [("green", 0.7), ("blue", 0.1), ("red", 0.1), ("grey", 0.1)])
    elif t == "white":
        c["table_tone"] = "white"
    elif t == "game_board":
        c["table_tone"] = _pick(
            rng, [("cream", 0.4), ("white", 0.3), ("beige", 0.2), ("grey", 0.1)]
        )
    else:  # cloth-like: any hue, including ones close to the tile paints (and black)
        c["table_tone"] = list(TONES)[int(rng.integers(len(TONES)))]
    c["light"] = _pick(rng, [("warm", 0.35), ("neutral", 0.35), ("cool", 0.30)])
    lo, hi = {"warm": (2600, 3600), "neutral": (3800, 5600), "cool": (5800, 8000)}[c["light"]]
    c["kelvin"] = float(rng.uniform(lo, hi))
    c["dim"] = bool(rng.random() < 0.2)
    c["lights"] = 2 if rng.random() < 0.3 else 1
    c["tilt_deg"] = float(rng.uniform(0, 8) if rng.random() < 0.3 else rng.uniform(8, 35))
    c["rotation_deg"] = float(rng.uniform(0, 360))
    c["fov_deg"] = float(rng.uniform(52, 76))
    c["pitch"] = _pick(rng, [("small", 0.35), ("medium", 0.40), ("large", 0.25)])
    plo, phi = {"small": (25, 45), "medium": (45, 90), "large": (90, 200)}[c["pitch"]]
    c["pitch_target_px"] = float(math.exp(rng.uniform(math.log(plo), math.log(phi))))
    c["board"] = "lines" if rng.random() < 0.5 else "random"
    band = _pick(rng, [("a", 0.15), ("b", 0.25), ("c", 0.30), ("d", 0.30)])
    nlo, nhi = {"a": (1, 3), "b": (4, 12), "c": (13, 40), "d": (41, 100)}[band]
    c["n_tiles_target"] = int(rng.integers(nlo, nhi + 1))
    c["partial"] = bool(rng.random() < 0.15)
    c["hand"] = bool(rng.random() < 0.25)
    c["glare"] = _pick(rng, [("none", 0.25), ("mild", 0.45), ("strong", 0.30)])
    c["blur"] = _pick(rng, [("none", 0.5), ("defocus", 0.3), ("motion", 0.2)])
    c["blur_px"] = float(
        0.0
        if c["blur"] == "none"
        else rng.uniform(0.5, 2.0)
        if c["blur"] == "defocus"
        else rng.uniform(1.5, 5.0)
    )
    c["noise"] = float(rng.uniform(0.002, 0.012) * (2.5 if c["dim"] else 1.0))
    c["jpeg"] = int(rng.integers(50, 96))
    c["vignette"] = float(rng.uniform(0.05, 0.45))
    c["sharpen"] = bool(rng.random() < 0.3)
    return c


def conditions(seed: int) -> dict[str, Any]:
    """The scene's drawn conditions, deterministic from seed, without rendering."""
    return _draw_conditions(np.random.default_rng(seed))


# ----------------------------------------------------------------------------- camera
@dataclass
class Camera:
    K: F64
    R: F64
    C: F64  # camera centre, world mm
    W: int
    H: int

    @property
    def t(self) -> F64:
        return np.asarray(-self.R @ self.C, np.float64)

    def plane_h(self, z: float) -> F64:
        """Homography world (X, Y, 1) on the plane at height z -> image pixels."""
        R, t = self.R, self.t
        return np.asarray(self.K @ np.column_stack([R[:, 0], R[:, 1], R[:, 2] * z + t]))

    def project(self, X: F64) -> F64:
        p = (self.R @ X.T).T + self.t
        q = (self.K @ p.T).T
        return np.asarray(q[:, :2] / q[:, 2:3], np.float64)


def _rot_z(a: float) -> F64:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)


def _rot_x(a: float) -> F64:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]], np.float64)


def _apply_h(Hm: F64, pts: F64) -> F64:
    q = np.c_[pts, np.ones(len(pts))] @ Hm.T
    return np.asarray(q[:, :2] / q[:, 2:3], np.float64)


def _make_camera(
    rng: Rng, c: dict[str, Any], W: int, H: int, pitch_mm: float, top_z: float, pitch_px: float
) -> Camera:
    f = (W / 2) / math.tan(math.radians(c["fov_deg"]) / 2)
    K = np.array(
        [
            [f, 0, W / 2 + rng.normal(0, W * 0.004)],
            [0, f, H / 2 + rng.normal(0, H * 0.004)],
            [0, 0, 1],
        ],
        np.float64,
    )
    tilt = math.radians(c["tilt_deg"])
    # straight-down camera: image x = world x, image y = -world y (a proper rotation); the board
    # frame puts rows along -y, so rows grow down the picture and the board is never mirrored.
    R0 = np.diag([1.0, -1.0, -1.0])
    R = (
        _rot_z(math.radians(rng.normal(0, 2)))
        @ _rot_x(-tilt)
        @ _rot_z(math.radians(c["rotation_deg"]))
        @ R0
    )
    # distance along the optical axis giving about the wanted pitch (foreshortening averaged)
    D = f * pitch_mm * (1 + math.cos(tilt)) / 2 / pitch_px
    axis = R.T @ np.array([0.0, 0.0, 1.0])
    cam = Camera(K, R, np.array([0.0, 0.0, top_z]) - D * axis, W, H)
    # slide the camera parallel to the table so the first tile (world origin) lands at a random
    # pixel: the table point now seen there moves to the origin.
    target = np.array(
        [[W / 2 + rng.uniform(-0.28, 0.28) * W, H / 2 + rng.uniform(-0.28, 0.28) * H]]
    )
    q = _apply_h(np.asarray(np.linalg.inv(cam.plane_h(top_z)), np.float64), target)[0]
    cam.C = cam.C - np.array([q[0], q[1], 0.0])
    return cam


# ----------------------------------------------------------------------------- board
Kind = tuple[int, int]  # (colour index, shape index)


def _grow_board(
    rng: Rng, n: int, lines: bool, allowed: Callable[[int, int], bool]
) -> dict[tuple[int, int], Kind]:
    """Grow lines of 1-6 tiles off existing tiles; cells must pass `allowed`."""
    cells: dict[tuple[int, int], Kind] = {(0, 0): (int(rng.integers(6)), int(rng.integers(6)))}
    dirs = [(0, 1), (0, -1), (1, 0), (-1, 0)]
    attempts = 0
    while len(cells) < n and attempts < 10 * n + 20:
        attempts += 1
        keys = list(cells)
        ar, ac = keys[int(rng.integers(len(keys)))]
        dr, dc = dirs[int(rng.integers(4))]
        length = min(int(rng.integers(1, 7)), n - len(cells))
        # the existing run through the anchor along this axis (Qwirkle-like mode)
        run = [cells[(ar, ac)]]
        for s in (1, -1):
            r, cc = ar + s * dr, ac + s * dc
            while (r, cc) in cells:
                run.append(cells[(r, cc)])
                r, cc = r + s * dr, cc + s * dc
        if len(run) >= 2:
            by_color = all(k[0] == run[0][0] for k in run)
        else:
            by_color = bool(rng.random() < 0.5)
        r, cc = ar + dr, ac + dc
        for _ in range(length):
            if (r, cc) in cells or not allowed(r, cc):
                break
            # mostly keep lines apart (real boards are branching lines, not solid blocks)
            side = ((r + dc, cc + dr) in cells) or ((r - dc, cc - dr) in cells)
            if side and rng.random() < 0.9:
                break
            if lines:
                if by_color:
                    free = [s for s in range(6) if all(k[1] != s for k in run)]
                    kind = (run[0][0], free[int(rng.integers(len(free)))]) if free else None
                else:
                    free = [s for s in range(6) if all(k[0] != s for k in run)]
                    kind = (free[int(rng.integers(len(free)))], run[0][1]) if free else None
                if kind is None:
                    break
            else:
                kind = (int(rng.integers(6)), int(rng.integers(6)))
            cells[(r, cc)] = kind
            run.append(kind)
            r, cc = r + dr, cc + dc
    return cells


def _square_corners(ctr: F64, ang: float, half: float) -> F64:
    c, s = math.cos(ang), math.sin(ang)
    loc = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    return np.asarray(ctr + loc @ np.array([[c, s], [-s, c]]), np.float64)


def _relax(
    pos: dict[tuple[int, int], F64], ang: dict[tuple[int, int], float], half: float, min_gap: float
) -> None:
    """Push touching/overlapping neighbours apart (separating-axis test on the square outlines)."""
    for _ in range(8):
        moved = False
        for (r, c), p in pos.items():
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                q = (r + dr, c + dc)
                if q not in pos:
                    continue
                A = _square_corners(p, ang[(r, c)], half)
                B = _square_corners(pos[q], ang[q], half)
                over = np.inf
                for a in (ang[(r, c)], ang[q]):
                    for ax in (
                        np.array([math.cos(a), math.sin(a)]),
                        np.array([-math.sin(a), math.cos(a)]),
                    ):
                        pa, pb = A @ ax, B @ ax
                        over = min(over, min(pa.max(), pb.max()) - max(pa.min(), pb.min()))
                if over > -min_gap:
                    d = pos[q] - p
                    d = d / (np.linalg.norm(d) + 1e-9)
                    push = (over + min_gap) / 2 + 1e-3
                    pos[(r, c)] = p - d * push
                    pos[q] = pos[q] + d * push
                    p = pos[(r, c)]
                    moved = True
        if not moved:
            break


# ----------------------------------------------------------------------------- tile texture
def _rounded_square(half: float, rad: float, n_arc: int = 6) -> F64:
    pts = []
    for cx, cy, a0 in (
        (half - rad, half - rad, 0.0),
        (-half + rad, half - rad, 90.0),
        (-half + rad, -half + rad, 180.0),
        (half - rad, -half + rad, 270.0),
    ):
        for a in np.radians(np.linspace(a0, a0 + 90, n_arc)):
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return np.array(pts, np.float64)


def _symbol_polys(shape: str, S: float, sp: dict[str, float]) -> list[F64]:
    """Symbol outline(s) in tile-local mm (x along the columns, y along the rows)."""
    k = sp["scale"]
    t = np.linspace(0, 2 * math.pi, 72, endpoint=False)
    circ = np.c_[np.cos(t), np.sin(t)]
    if shape == "circle":
        return [circ * 0.31 * S * k]
    if shape == "square":  # sides parallel to the tile edges
        h = 0.255 * S * k
        return [np.array([[-h, -h], [h, -h], [h, h], [-h, h]])]
    if shape == "diamond":  # points toward the edge midpoints
        h = 0.365 * S * k
        return [np.array([[0, -h], [h, 0], [0, h], [-h, 0]])]
    if shape == "clover":  # four round lobes on the axes (a rounded "+") and a filled centre
        d, r = sp["clover_d"] * S * k, sp["clover_r"] * S * k
        polys = [circ * r + np.array(o) for o in ((d, 0), (-d, 0), (0, d), (0, -d))]
        return [*polys, circ * d * 1.02]
    if shape == "star4":  # criss-cross: four sharp points toward the corners, concave sides
        a, p = 0.45 * S * k, sp["star4_p"]
        u = np.linspace(0, 2 * math.pi, 160, endpoint=False)
        cu, su = np.cos(u), np.sin(u)
        x = a * np.sign(cu) * np.abs(cu) ** (2 / p)  # superellipse |x|^p + |y|^p = a^p, p < 1
        y = a * np.sign(su) * np.abs(su) ** (2 / p)
        rot = math.pi / 4
        return [np.c_[x * math.cos(rot) - y * math.sin(rot), x * math.sin(rot) + y * math.cos(rot)]]
    # star8: starburst, points toward edge midpoints and corners
    ro, ri = 0.385 * S * k, 0.385 * S * k * sp["star8_ratio"]
    u = np.arange(16) * math.pi / 8
    rr = np.where(np.arange(16) % 2 == 0, ro, ri)
    return [np.c_[rr * np.cos(u), rr * np.sin(u)]]


def _tile_texture(
    rng: Rng,
    kind: Kind,
    res: int,
    geo: dict[str, float],
    sp: dict[str, float],
    paints: dict[str, F64],
) -> F32:
    """Premultiplied linear BGRA texture of a tile top (res x res covering the top face)."""
    S, St, rad = geo["S"], geo["top"], geo["top_rad"]
    px = res / St  # texels per mm; texel j centre at x = (j + 0.5) / px - St / 2
    ss = 4

    def to_tex(p: F64) -> npt.NDArray[np.int32]:
        return np.asarray(np.round(((p + St / 2) * px - 0.5) * 8), np.int32)

    mask = np.zeros((res, res), np.uint8)
    cv2.fillPoly(mask, [to_tex(_rounded_square(St / 2, rad, 10))], 255, cv2.LINE_AA, 3)
    alpha = mask.astype(np.float32) / 255
    sym = np.zeros((res, res), np.uint8)
    off = rng.normal(0, 0.25, 2)  # print registration
    for poly in _symbol_polys(SHAPES[kind[1]], S, sp):
        cv2.fillPoly(sym, [to_tex(poly + off)], 255, cv2.LINE_AA, 3)
    m = cv2.GaussianBlur(sym.astype(np.float32) / 255, (0, 0), max(0.3, 0.12 * px))
    fine = cv2.resize(
        rng.standard_normal((res // ss + 2, res // ss + 2)).astype(np.float32),
        (res, res),
        interpolation=cv2.INTER_CUBIC,
    )
    black = geo["black"] * (1 + 0.07 * fine)
    # lighter rounded edge (bevel catching light) within ~0.6 mm of the outline
    dist = cv2.distanceTransform((alpha > 0.5).astype(np.uint8), cv2.DIST_L2, 3) / px
    # brighter on the edges facing the light (tile-local light direction lx, ly)
    g = (np.arange(res, dtype=np.float32) + 0.5) / px - St / 2
    xx, yy = np.meshgrid(g, g)
    nx = np.where(np.abs(xx) >= np.abs(yy), np.sign(xx), 0)
    ny = np.where(np.abs(yy) > np.abs(xx), np.sign(yy), 0)
    ln = math.hypot(geo["lx"], geo["ly"]) + 1e-6
    facing = np.clip((nx * geo["lx"] + ny * geo["ly"]) / ln, 0, 1)
    black = black + geo["rim"] * (0.3 + 0.7 * facing) * np.exp(-dist / 0.6)
    paint = paints[COLORS[kind[0]]][None, None, :] * (1 + 0.05 * fine[..., None])
    if rng.random() < 0.3:  # worn specks in the paint
        wear = (
            cv2.resize(
                rng.random((res // 6 + 1, res // 6 + 1)).astype(np.float32),
                (res, res),
                interpolation=cv2.INTER_NEAREST,
            )
            > 0.994
        ).astype(np.float32)
        m = m * (1 - 0.6 * cv2.GaussianBlur(wear, (0, 0), 0.8))
    col = black[..., None] * (1 - m[..., None]) + paint * m[..., None]
    out = np.empty((res, res, 4), np.float32)
    out[..., :3] = col * alpha[..., None]
    out[..., 3] = alpha
    return out


# ----------------------------------------------------------------------------- table
def _noise(rng: Rng, s: F32, t: F32, ls: float, lt: float) -> F32:
    """Smooth value noise (unit-ish std) sampled at table coordinates (s, t) mm, cells ls x lt."""
    s0, s1, t0, t1 = float(s.min()), float(s.max()), float(t.min()), float(t.max())
    while ((s1 - s0) / ls + 4) * ((t1 - t0) / lt + 4) > 3e6:  # keep the lattice small
        ls, lt = ls * 1.5, lt * 1.5
    g = rng.standard_normal((int((t1 - t0) / lt) + 4, int((s1 - s0) / ls) + 4)).astype(np.float32)
    out = cv2.remap(
        g,
        ((s - s0) / ls + 1).astype(np.float32),
        ((t - t0) / lt + 1).astype(np.float32),
        cv2.INTER_CUBIC,
        borderMode=cv2.BORDER_REFLECT,
    )
    return np.asarray(out / 0.85, np.float32)


def _band(x: F32, period: float, fp: F32, duty: float = 0.5) -> F32:
    """Anti-aliased square wave (1 inside the band [0, duty * period)), fading to grey when tiny."""
    f = x / period - np.floor(x / period)
    sd = np.where(f < duty, np.minimum(f, duty - f), -np.minimum(f - duty, 1 - f)) * period
    a = np.clip(sd / fp + 0.5, 0, 1)
    w = np.clip(period / fp / 3 - 0.5, 0, 1)
    return np.asarray(w * a + (1 - w) * duty, np.float32)


def _lines(x: F32, period: float, width: float, fp: F32) -> F32:
    """Coverage of lines of `width` mm every `period` mm under a box pixel filter of size fp."""
    f = x / period
    d = np.abs(f - np.round(f)) * period
    cov = (np.minimum(d + fp / 2, width / 2) - np.maximum(d - fp / 2, -width / 2)) / fp
    return np.asarray(np.clip(cov, 0, 1), np.float32)


def _fade(period: float, fp: F32) -> F32:
    """Amplitude of a sinusoid of `period` mm that survives pixel footprint fp (anti-aliasing)."""
    return np.asarray(np.clip(period / fp / 2.5 - 0.6, 0, 1), np.float32)


def _soft(m: F32, sigma: float) -> F32:
    """Gaussian blur; large kernels are run at reduced resolution (they only make soft shadows)."""
    k = int(sigma // 3)
    if k < 2:
        return np.asarray(cv2.GaussianBlur(m, (0, 0), sigma), np.float32)
    H, W = m.shape[:2]
    small = cv2.resize(m, (max(1, W // k), max(1, H // k)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / k)
    return np.asarray(cv2.resize(small, (W, H), interpolation=cv2.INTER_LINEAR), np.float32)


def _hash_lut(rng: Rng, n: int = 4096) -> F64:
    return rng.random(n)


def _table(rng: Rng, c: dict[str, Any], u: F32, v: F32, fp: F32, grid_mm: float) -> F32:
    """Linear BGR albedo of the table at table points (u, v) mm; fp = mm per pixel."""
    kind, tone = c["table"], c["table_tone"]
    ang = rng.uniform(0, math.pi)
    s = (u * math.cos(ang) + v * math.sin(ang)).astype(np.float32)
    t = (-u * math.sin(ang) + v * math.cos(ang)).astype(np.float32)
    jitter = rng.uniform(0.88, 1.12, 3)
    if kind in WOODS:
        base = (
            _lin(
                WOODS[kind][
                    ["pale", "yellow", "oak", "walnut", "mahogany", "espresso"].index(tone) % 3
                ]
            )
            * jitter
        )
        dark = base * rng.uniform(0.45, 0.7)
        plank = rng.uniform(70, 200)
        pid = np.floor(t / plank).astype(np.int64)
        lut = _hash_lut(rng)
        warp = 5 * _noise(rng, s, t, 160, 14) + 1.5 * _noise(rng, s, t, 40, 4)
        period = rng.uniform(3, 10)
        rings = 0.5 + 0.5 * np.sin(2 * math.pi * (t + warp + 97 * lut[pid % 4096]) / period)
        rings = 0.5 + (rings**3 - 0.5) * _fade(period, fp)
        grain = _noise(rng, s, t, 25, 0.7) * _fade(1.4, fp)
        mix = np.clip(0.45 * rings + 0.12 * grain + 0.1 * _noise(rng, s, t, 300, 60) + 0.2, 0, 1)
        col = base[None, None] * (1 - mix[..., None]) + dark[None, None] * mix[..., None]
        col = col * (0.88 + 0.24 * lut[(pid * 7 + 3) % 4096])[..., None]
        col = col * (1 - 0.6 * _lines(t, plank, rng.uniform(0.4, 1.2), fp))[..., None]
    elif kind == "felt":
        base = _lin(TONES[tone]) * jitter
        fuzz = cv2.GaussianBlur(rng.standard_normal(u.shape).astype(np.float32), (0, 0), 0.8)
        col = base[None, None] * (1 + 0.12 * fuzz + 0.06 * _noise(rng, u, v, 40, 40))[..., None]
    elif kind == "white":
        base = _lin(TONES["white"]) * rng.uniform(0.94, 1.04, 3)
        col = (
            base[None, None]
            * (
                1
                + 0.025 * _noise(rng, u, v, 80, 80)
                + 0.02 * _noise(rng, u, v, 3, 3) * _fade(3, fp)
            )[..., None]
        )
    elif kind == "game_board":
        base = _lin(TONES[tone]) * rng.uniform(0.95, 1.03, 3)
        ink = _lin(tuple(rng.uniform(10, 90, 3)))
        g_ang = 0.0 if rng.random() < 0.5 else math.radians(rng.uniform(-4, 4))
        gs = (u * math.cos(g_ang) + v * math.sin(g_ang)).astype(np.float32)
        gt = (-u * math.sin(g_ang) + v * math.cos(g_ang)).astype(np.float32)
        pitch = grid_mm * rng.uniform(0.96, 1.06)
        width = rng.uniform(0.4, 1.3)
        off = rng.uniform(0, pitch, 2)
        cov = np.maximum(
            _lines(gs + off[0], pitch, width, fp), _lines(gt + off[1], pitch, width, fp)
        )
        paper = 1 + 0.03 * _noise(rng, u, v, 2.5, 2.5) * _fade(2.5, fp)
        col = base[None, None] * (1 - cov[..., None]) + ink[None, None] * cov[..., None]
        col = col * paper[..., None]
    else:  # fabrics
        base = _lin(TONES[tone]) * jitter
        other = [k for k in TONES if k != tone]
        c2 = _lin(TONES[other[int(rng.integers(len(other)))]]) * rng.uniform(0.9, 1.1, 3)
        c3 = _lin(TONES[other[int(rng.integers(len(other)))]])
        if kind == "checks":
            size = rng.uniform(6, 35)
            a, b = _band(s, size * 2, fp), _band(t, size * 2, fp)
            if rng.random() < 0.5:  # gingham: white + tint where one band, full colour where both
                white = _lin(TONES["white"])
                w1 = (a + b - 2 * a * b)[..., None]
                w2 = (a * b)[..., None]
                col = white * (1 - w1 - w2) + (0.5 * white + 0.5 * base) * w1 + base * w2
            else:  # two-colour checkerboard
                x = (a + b - 2 * a * b)[..., None]
                col = base * (1 - x) + c2 * x
        elif kind == "stripes":
            per = rng.uniform(12, 60)
            a = _band(s, per, fp, rng.uniform(0.25, 0.6))[..., None]
            b = _band(s + per * 0.3, per, fp, rng.uniform(0.05, 0.15))[..., None]
            col = base * (1 - a) + c2 * a
            col = col * (1 - b) + c3 * b
        elif kind == "cloth":  # plain cloth: weave and slubs only (added below)
            col = np.broadcast_to(base[None, None], (*u.shape, 3)).astype(np.float32)
        else:  # dots / flowers on a (hashed) cell lattice
            sp = rng.uniform(10, 36)
            lut = _hash_lut(rng)
            ci, cj = np.floor(t / sp), np.floor(s / sp + 0.5 * np.floor(t / sp))
            hsh = ((ci.astype(np.int64) * 73856093) ^ (cj.astype(np.int64) * 19349663)) % 4096
            lx = s / sp + 0.5 * np.floor(t / sp) - cj - 0.5 + (lut[hsh] - 0.5) * 0.3
            ly = t / sp - ci - 0.5 + (lut[(hsh + 17) % 4096] - 0.5) * 0.3
            fpc = fp / sp
            if kind == "dots":
                rad = rng.uniform(0.12, 0.32)
                cov = np.clip((rad - np.hypot(lx, ly)) / fpc + 0.5, 0, 1)
                pick = (lut[(hsh + 5) % 4096] < 0.5)[..., None]
                dot = np.where(pick, c2, c3)
                col = base * (1 - cov[..., None]) + dot * cov[..., None]
            else:
                rot = lut[(hsh + 9) % 4096] * 2 * math.pi
                r, th = np.hypot(lx, ly), np.arctan2(ly, lx) + rot
                petal = 0.2 + 0.1 * np.abs(np.cos(2.5 * th))  # five rounded petals
                cov = np.clip((petal - r) / fpc + 0.5, 0, 1) * (lut[(hsh + 3) % 4096] < 0.8)
                mid = np.clip((0.07 - r) / fpc + 0.5, 0, 1)
                pick = (lut[(hsh + 5) % 4096] < 0.5)[..., None]
                fl = np.where(pick, c2, c3)
                col = base * (1 - cov[..., None]) + fl * cov[..., None]
                col = col * (1 - mid[..., None]) + _lin((235, 200, 60)) * mid[..., None]
        period = rng.uniform(0.5, 1.8)  # woven threads
        weave = np.sin(2 * math.pi * s / period) * np.sin(2 * math.pi * t / period)
        col = (
            col
            * (
                1
                + (
                    0.12 * weave * _fade(period, fp)
                    + 0.04 * _noise(rng, s, t, 120, 120)
                    + 0.04 * _noise(rng, s, t, 6, 0.8) * _fade(1.5, fp)
                )
            )[..., None]
        )
    return np.asarray(np.clip(col, 0, 1), np.float32)


# ----------------------------------------------------------------------------- light
def _kelvin_bgr(k: float) -> F64:
    """Colour of a black body at k kelvin (Tanner Helland fit), linear BGR normalised to G = 1."""
    t = k / 100
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * math.log(t) - 161.12 if t <= 66 else 288.12 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.52 * math.log(t - 10) - 305.04)
    rgb = np.clip(np.array([r, g, b]), 1, 255)
    lin = _lin(rgb)
    return np.asarray(lin / lin[1], np.float64)


@dataclass
class Light:
    pos: F64  # world mm
    power: float  # relative


@dataclass
class Scene:
    cam: Camera
    lights: list[Light]
    ambient: float
    centre: F64  # board centroid, world mm (z = 0)
    extras: dict[str, float] = field(default_factory=dict)

    def direct(self, X: F64) -> list[tuple[F64, float]]:
        """(unit direction to light, irradiance on a horizontal surface) for each light at X."""
        out = []
        for L in self.lights:
            d = L.pos - X
            dist = float(np.linalg.norm(d))
            out.append((d / dist, L.power * max(0.0, d[2] / dist) * (1000.0 / dist) ** 2))
        return out


def _irradiance(sc: Scene, u: F32, v: F32) -> F32:
    """Irradiance of the table (ambient + point lights, cosine law, 1/d^2), normalised at centre."""
    E = np.full(u.shape, sc.ambient, np.float32)
    for L in sc.lights:
        dx, dy, dz = L.pos[0] - u, L.pos[1] - v, L.pos[2]
        d2 = dx * dx + dy * dy + dz * dz
        E += (L.power * dz / np.sqrt(d2) * 1e6 / d2).astype(np.float32)
    e0 = sc.ambient + sum(e for _, e in sc.direct(sc.centre))
    return np.asarray(E / e0, np.float32)


def _blinn(sc: Scene, X: F32, Y: F32, Z: float, nrm: F64, m: float) -> F32:
    """Sum over lights of (n . h)^m on points (X, Y, Z), h the half vector light/camera."""
    C = sc.cam.C
    vx, vy, vz = C[0] - X, C[1] - Y, np.float32(C[2] - Z)
    vn = np.sqrt(vx * vx + vy * vy + vz * vz)
    out = np.zeros(X.shape, np.float32)
    for L in sc.lights:
        lx, ly, lz = L.pos[0] - X, L.pos[1] - Y, np.float32(L.pos[2] - Z)
        ln = np.sqrt(lx * lx + ly * ly + lz * lz)
        hx, hy, hz = vx / vn + lx / ln, vy / vn + ly / ln, vz / vn + lz / ln
        nh = (hx * nrm[0] + hy * nrm[1] + hz * nrm[2]) / np.sqrt(hx * hx + hy * hy + hz * hz)
        out += (L.power * np.clip(nh, 0, 1) ** m).astype(np.float32)
    return out


# ----------------------------------------------------------------------------- hand
@dataclass
class Capsule:
    p0: F64
    p1: F64
    r0: float
    r1: float
    color: F64  # linear BGR albedo


def _hand_parts(rng: Rng, W: int, H: int, target: F64, pxmm: float) -> list[Capsule]:
    """A forearm entering from a frame edge, with an open hand or a fist, in image pixels."""
    edge = _pick(rng, [("bottom", 0.4), ("top", 0.2), ("left", 0.2), ("right", 0.2)])
    a = rng.uniform(0.1, 0.9)
    entry = {
        "bottom": (a * W, H + 30),
        "top": (a * W, -30),
        "left": (-30, a * H),
        "right": (W + 30, a * H),
    }[edge]
    e = np.array(entry, np.float64)
    d = target - e
    d = d / (np.linalg.norm(d) + 1e-9)
    side = np.array([-d[1], d[0]])
    hand_s = pxmm * rng.uniform(0.9, 1.15)
    skin = _lin(SKINS[int(rng.integers(len(SKINS)))]) * rng.uniform(0.92, 1.08, 3)
    fist = bool(rng.random() < 0.3)
    palm_w, palm_l = 84 * hand_s, 90 * hand_s
    fingers_l = np.array([68, 76, 71, 56]) * hand_s * (0.32 if fist else rng.uniform(0.85, 1.05))
    # the fingertips (or knuckles) end near the target
    reach = palm_l + (fingers_l[1] * 0.8 if not fist else 0.0)
    wrist = target - d * reach + side * rng.normal(0, 0.3) * palm_w
    far = e - d * 200 * hand_s
    parts = [Capsule(far, wrist, 36 * hand_s, 27 * hand_s, skin * 0.95)]
    if rng.random() < 0.6:  # sleeve from the frame edge to somewhere along the forearm
        sleeve = _lin(tuple(rng.uniform(20, 230, 3)))
        cut = e + (wrist - e) * rng.uniform(0.0, 0.7)
        parts.append(Capsule(far, cut, 48 * hand_s, 45 * hand_s, sleeve))
    knuckle = wrist + d * palm_l
    rp = 0.46 * palm_w  # back of the hand: a short, wide capsule from the wrist to the knuckles
    parts.append(Capsule(wrist + d * rp * 0.9, knuckle - d * rp * 0.6, rp * 0.92, rp, skin))
    chir = 1.0 if rng.random() < 0.5 else -1.0  # left or right hand
    th_dir = d * math.cos(0.8) + chir * side * math.sin(0.8)
    th0 = wrist + d * 0.3 * palm_l + chir * side * 0.32 * palm_w
    th_len = (60 if not fist else 40) * hand_s
    parts.append(Capsule(th0, th0 + th_dir * th_len, 12 * hand_s, 10 * hand_s, skin))
    spread = rng.uniform(0.0, 0.18)
    for i, fl in enumerate(fingers_l):
        o = (1.5 - i) * chir  # index finger next to the thumb
        ang = o * spread
        fd = d * math.cos(ang) + side * math.sin(ang)
        k0 = knuckle + side * o * 0.24 * palm_w - d * 6 * hand_s
        parts.append(Capsule(k0, k0 + fd * fl, 9.5 * hand_s, 8 * hand_s, skin))
    return parts


def _draw_capsules(parts: list[Capsule], W: int, H: int, l2d: F64, el: float) -> tuple[F32, F32]:
    """Premultiplied colour and alpha of shaded capsules (cylinder-like), painted in order."""
    rgb = np.zeros((H, W, 3), np.float32)
    alpha = np.zeros((H, W), np.float32)
    l3 = np.array([l2d[0] * math.cos(el), l2d[1] * math.cos(el), math.sin(el)])
    for p in parts:
        rmax = max(p.r0, p.r1) + 2
        x0 = max(0, int(min(p.p0[0], p.p1[0]) - rmax))
        x1 = min(W, int(max(p.p0[0], p.p1[0]) + rmax) + 1)
        y0 = max(0, int(min(p.p0[1], p.p1[1]) - rmax))
        y1 = min(H, int(max(p.p0[1], p.p1[1]) + rmax) + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        seg = p.p1 - p.p0
        tt = np.clip(((xs - p.p0[0]) * seg[0] + (ys - p.p0[1]) * seg[1]) / (seg @ seg + 1e-9), 0, 1)
        dx, dy = xs - (p.p0[0] + tt * seg[0]), ys - (p.p0[1] + tt * seg[1])
        dist = np.sqrt(dx * dx + dy * dy) + 1e-6
        r = p.r0 + tt * (p.r1 - p.r0)
        a = np.clip(r - dist + 0.5, 0, 1).astype(np.float32)
        q = np.clip(dist / r, 0, 1)
        nz = np.sqrt(1 - q * q)  # surface normal of a cylinder seen from above
        ndl = dx / dist * q * l3[0] + dy / dist * q * l3[1] + nz * l3[2]
        shade = (0.4 + 0.6 * np.clip(ndl, 0, 1)) * (0.7 + 0.3 * nz)
        col = p.color[None, None, :] * shade[..., None]
        sl = (slice(y0, y1), slice(x0, x1))
        rgb[sl] = rgb[sl] * (1 - a[..., None]) + col * a[..., None]
        alpha[sl] = alpha[sl] * (1 - a) + a
    return rgb, alpha


# ----------------------------------------------------------------------------- rendering
@dataclass
class Tile:
    row: int
    col: int
    kind: Kind
    ctr: F64  # board frame mm (x along columns, y along rows)
    ang: float  # radians, in the board frame
    normal: F64  # slightly tilted top normal (world), breaks the glare up
    gloss: float
    gain: float


def _tile_to_world(t: Tile) -> F64:
    """3x3 affine map tile-local (x, y, 1) mm -> world (X, Y, 1); world Y = -board y."""
    c, s = math.cos(t.ang), math.sin(t.ang)
    return np.array([[c, -s, t.ctr[0]], [-s, -c, -t.ctr[1]], [0, 0, 1]], np.float64)


def _polygon_area_in(poly: F64, W: int, H: int) -> tuple[float, float]:
    """(area, area inside the image) of a convex polygon in pixels."""
    full = abs(float(cv2.contourArea(poly.astype(np.float32))))
    rect = np.array(
        [[-0.5, -0.5], [W - 0.5, -0.5], [W - 0.5, H - 0.5], [-0.5, H - 0.5]], np.float32
    )
    inter, _ = cv2.intersectConvexConvex(poly.astype(np.float32), rect)
    return full, float(inter)


def _frac_under(poly: F64, mask: F32, thr: float) -> float:
    """Fraction of the in-frame pixels of `poly` where mask > thr."""
    H, W = mask.shape
    x0, y0 = max(0, int(poly[:, 0].min())), max(0, int(poly[:, 1].min()))
    x1, y1 = min(W, int(poly[:, 0].max()) + 2), min(H, int(poly[:, 1].max()) + 2)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(m, np.round((poly - [x0, y0]) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    n = int(m.sum())
    return 0.0 if n == 0 else float(((mask[y0:y1, x0:x1] > thr) & (m > 0)).sum()) / n


def _symbol_extent(shape: str, S: float, sp: dict[str, float]) -> F64:
    """Convex hull (tile-local mm) of the printed symbol, with a margin for print registration."""
    pts = np.vstack(_symbol_polys(shape, S, sp))
    hull = cv2.convexHull(pts.astype(np.float32))[:, 0, :].astype(np.float64)
    n = np.linalg.norm(hull, axis=1, keepdims=True)
    return np.asarray(hull * (n + 0.5) / np.maximum(n, 1e-6), np.float64)


def _glare_params(rng: Rng, glare: str) -> tuple[float, float, float, float]:
    """(broad strength, broad exponent, sharp strength, sharp exponent) of the tile-top gloss."""
    if glare == "none":
        return rng.uniform(0.002, 0.008), rng.uniform(5, 12), 0.0, 1.0
    if glare == "mild":
        return (
            rng.uniform(0.01, 0.035),
            rng.uniform(10, 40),
            rng.uniform(0.03, 0.15),
            rng.uniform(800, 4000),
        )
    return (
        rng.uniform(0.03, 0.08),
        rng.uniform(10, 40),
        rng.uniform(0.12, 0.5),
        rng.uniform(600, 3000),
    )


def _render(
    rng: Rng, c: dict[str, Any], W: int, H: int
) -> tuple[npt.NDArray[np.uint8], list[dict[str, Any]], float, bytes]:
    # --- tile set and board geometry (mm)
    S, T = rng.uniform(29, 31), rng.uniform(6.0, 7.2)
    P = S + rng.uniform(0.3, 1.4)  # grid pitch: tile + nominal gap
    bevel, crad = rng.uniform(0.5, 1.0), rng.uniform(1.5, 3.0)
    geo = {
        "S": S,
        "top": S - 2 * bevel,
        "top_rad": max(0.4, crad - bevel),
        "black": rng.uniform(0.007, 0.014),
        "rim": rng.uniform(0.02, 0.06),
    }
    sp = {
        "scale": rng.uniform(0.94, 1.06),
        "clover_d": rng.uniform(0.17, 0.2),
        "clover_r": rng.uniform(0.14, 0.165),
        "star4_p": rng.uniform(0.5, 0.62),
        "star8_ratio": rng.uniform(0.55, 0.68),
    }
    paints = {
        k: _lin(np.clip(np.array(v, np.float64) * rng.uniform(0.9, 1.08, 3), 0, 255))
        for k, v in PAINTS.items()
    }
    pitch_t = min(c["pitch_target_px"], min(W, H) / 3)
    cam = _make_camera(rng, c, W, H, P, T, pitch_t)
    margin = -2.0 * pitch_t if c["partial"] else 0.65 * pitch_t

    def allowed(r: int, cc: int) -> bool:
        X = np.array([[cc * P, -r * P, T]])
        if float((cam.R @ X[0] + cam.t)[2]) < 1.0:
            return False
        x, y = cam.project(X)[0]
        return bool(margin <= x <= W - 1 - margin and margin <= y <= H - 1 - margin)

    # a photo framed on the board rarely shows a solid carpet of tiles: cap the count to ~40 %
    # of the grid cells the frame holds (unless the board is allowed to run off the frame)
    cap = 0.4 * W * H / pitch_t**2
    n_tiles = c["n_tiles_target"] if c["partial"] else max(1, min(c["n_tiles_target"], int(cap)))
    cells = _grow_board(rng, n_tiles, c["board"] == "lines", allowed)
    rot_sd = rng.uniform(1.0, 2.5)
    pos = {
        k: np.array([k[1] * P, k[0] * P]) + np.clip(rng.normal(0, 0.8, 2), -2.5, 2.5) for k in cells
    }
    ang = {k: math.radians(float(np.clip(rng.normal(0, rot_sd), -6, 6))) for k in cells}
    _relax(pos, ang, S / 2, 0.05)
    tiles = []
    for k, kind in cells.items():
        tilt = np.radians(rng.normal(0, 1.3, 2))
        nrm = np.array([math.tan(tilt[0]), math.tan(tilt[1]), 1.0])
        tiles.append(
            Tile(
                k[0],
                k[1],
                kind,
                pos[k],
                ang[k],
                nrm / np.linalg.norm(nrm),
                float(rng.uniform(0.5, 1.3)),
                float(rng.uniform(0.9, 1.1)),
            )
        )
    cb = np.mean([t.ctr for t in tiles], axis=0)
    centre = np.array([cb[0], -cb[1], 0.0])

    # --- lights
    dist = rng.uniform(700, 2200)
    if c["glare"] == "strong":  # lamp placed where its mirror image falls on a tile top
        g = tiles[int(rng.integers(len(tiles)))].ctr + rng.normal(0, 0.7 * P, 2)
        G = np.array([g[0], -g[1], T])
        vv = cam.C - G
        refl = np.array([-vv[0], -vv[1], vv[2]]) / np.linalg.norm(vv)
        lights = [Light(G + refl * dist, 1.0)]
    else:
        el, az = math.radians(rng.uniform(35, 75)), rng.uniform(0, 2 * math.pi)
        lights = [
            Light(
                centre
                + dist
                * np.array(
                    [math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)]
                ),
                1.0,
            )
        ]
    if c["lights"] == 2:
        el, az = math.radians(rng.uniform(25, 80)), rng.uniform(0, 2 * math.pi)
        d2 = rng.uniform(600, 2500)
        lights.append(
            Light(
                centre
                + d2
                * np.array(
                    [math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)]
                ),
                float(rng.uniform(0.25, 0.6)),
            )
        )
    sc = Scene(cam, lights, 0.0, centre)
    direct = sc.direct(centre)
    sc.ambient = sum(e for _, e in direct) * float(rng.uniform(0.3, 1.1))
    e0 = sc.ambient + sum(e for _, e in direct)
    geo["lx"], geo["ly"] = float(direct[0][0][0]), float(-direct[0][0][1])  # tile-local axes

    # --- table albedo in table coordinates
    gx, gy = np.meshgrid(np.arange(W, dtype=np.float32), np.arange(H, dtype=np.float32))
    Hi = np.linalg.inv(cam.plane_h(0.0))
    den = (Hi[2, 0] * gx + Hi[2, 1] * gy + Hi[2, 2]).astype(np.float32)
    u = ((Hi[0, 0] * gx + Hi[0, 1] * gy + Hi[0, 2]) / den).astype(np.float32)
    v = ((Hi[1, 0] * gx + Hi[1, 1] * gy + Hi[1, 2]) / den).astype(np.float32)
    fp = np.sqrt(abs(np.linalg.det(Hi)) / np.abs(den) ** 3).astype(np.float32)  # mm per pixel
    img = _table(rng, c, u, v, fp, P)
    pxmm = pitch_t / P
    H0 = cam.plane_h(0.0)

    # --- soft tile shadows (per light) and contact darkening, on the table only
    loc_b = _rounded_square(S / 2, crad, 5)
    loc_t = _rounded_square(S / 2 - bevel, geo["top_rad"], 5)
    world_b = {id(t): _apply_h(_tile_to_world(t), loc_b) for t in tiles}
    world_t = {id(t): _apply_h(_tile_to_world(t), loc_t) for t in tiles}
    shade = np.zeros((H, W), np.float32)
    for ldir, e in direct:
        off = -ldir[:2] / max(ldir[2], 0.2) * T
        m = np.zeros((H, W), np.float32)
        for t in tiles:
            hull = cv2.convexHull(
                np.vstack([world_b[id(t)], world_t[id(t)] + off]).astype(np.float32)
            )[:, 0, :].astype(np.float64)
            cv2.fillConvexPoly(
                m, np.round(_apply_h(H0, hull) * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4
            )
        soft = max(0.6, rng.uniform(0.6, 3.0) * pxmm)
        shade += _soft(m, soft) * (e / e0) * float(rng.uniform(0.7, 0.95))
    m = np.zeros((H, W), np.float32)
    for t in tiles:
        cv2.fillConvexPoly(
            m,
            np.round(_apply_h(H0, world_b[id(t)] * 1.0) * 16).astype(np.int32),
            1.0,
            cv2.LINE_AA,
            4,
        )
    shade += _soft(m, max(0.6, 1.5 * pxmm)) * 0.3
    img *= (1 - np.clip(shade, 0, 0.92))[..., None]

    # --- tiles: sides as projected quads + warped top texture, super-sampled per patch
    ss = 3 if pitch_t < 60 else 2
    res = int(np.clip(pitch_t * ss * 1.1, 48, 320))
    St = geo["top"]
    T_tex = np.array(
        [
            [St / res, 0, -St / 2 + 0.5 * St / res],
            [0, St / res, -St / 2 + 0.5 * St / res],
            [0, 0, 1],
        ]
    )
    Ht, Hti = cam.plane_h(T), np.linalg.inv(cam.plane_h(T))
    ks_b, m_b, ks_s, m_s = _glare_params(rng, c["glare"])
    sheen = rng.uniform(0.002, 0.006)
    textures: dict[Kind, F32] = {}
    tile_a = np.zeros((H, W), np.float32)
    spec = np.zeros((H, W), np.float32)

    def wc(t: Tile) -> F64:
        return np.array([t.ctr[0], -t.ctr[1], T / 2])

    for t in sorted(tiles, key=lambda t: -float(np.linalg.norm(wc(t) - cam.C))):
        b3 = np.c_[world_b[id(t)], np.zeros(len(loc_b))]
        t3 = np.c_[world_t[id(t)], np.full(len(loc_t), T)]
        bi, ti = cam.project(b3), cam.project(t3)
        allp = np.vstack([bi, ti])
        x0, y0 = (
            max(0, math.floor(float(allp[:, 0].min())) - 1),
            max(0, math.floor(float(allp[:, 1].min())) - 1),
        )
        x1, y1 = (
            min(W, math.ceil(float(allp[:, 0].max())) + 2),
            min(H, math.ceil(float(allp[:, 1].max())) + 2),
        )
        if x1 <= x0 or y1 <= y0:
            continue
        pw, ph = x1 - x0, y1 - y0
        Sp = np.array([[ss, 0, (0.5 - x0) * ss - 0.5], [0, ss, (0.5 - y0) * ss - 0.5], [0, 0, 1]])
        canvas = np.zeros((ph * ss, pw * ss, 3), np.float32)
        am = np.zeros((ph * ss, pw * ss), np.float32)
        ctr3 = wc(t)
        for j in range(len(loc_b)):
            j2 = (j + 1) % len(loc_b)
            n = np.cross(b3[j2] - b3[j], t3[j] - b3[j])
            mid = (b3[j] + b3[j2] + t3[j] + t3[j2]) / 4
            if n @ (mid - ctr3) < 0:
                n = -n
            n = n / (np.linalg.norm(n) + 1e-12)
            if n @ (cam.C - mid) <= 0:  # back face
                continue
            e_side = 0.6 * sc.ambient + sum(
                L.power
                * max(0.0, float(n @ (L.pos - mid) / np.linalg.norm(L.pos - mid)))
                * (1000.0 / np.linalg.norm(L.pos - mid)) ** 2
                for L in lights
            )
            col = geo["black"] * 1.3 * e_side / e0 + sheen
            q = _apply_h(Sp, np.vstack([bi[j], bi[j2], ti[j2], ti[j]]))
            qi = np.round(q * 16).astype(np.int32)
            cv2.fillConvexPoly(
                canvas, qi, (float(col), float(col), float(col) * 1.05), cv2.LINE_8, 4
            )
            cv2.fillConvexPoly(am, qi, 1.0, cv2.LINE_8, 4)
        if t.kind not in textures:
            textures[t.kind] = _tile_texture(rng, t.kind, res, geo, sp, paints)
        M = Sp @ Ht @ _tile_to_world(t) @ T_tex
        top = cv2.warpPerspective(
            textures[t.kind],
            M,
            (pw * ss, ph * ss),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(0, 0, 0, 0),
        )
        a = top[..., 3]
        canvas = canvas * (1 - a[..., None]) + top[..., :3] * t.gain
        am = am * (1 - a) + a
        if ss > 1:
            canvas = np.asarray(
                cv2.resize(canvas, (pw, ph), interpolation=cv2.INTER_AREA), np.float32
            )
            am = np.asarray(cv2.resize(am, (pw, ph), interpolation=cv2.INTER_AREA), np.float32)
            a = np.asarray(cv2.resize(a, (pw, ph), interpolation=cv2.INTER_AREA), np.float32)
        sl = (slice(y0, y1), slice(x0, x1))
        img[sl] = img[sl] * (1 - am[..., None]) + canvas
        tile_a[sl] = tile_a[sl] * (1 - am) + am
        # gloss of this top face (its own slightly tilted normal)
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        dn = Hti[2, 0] * xx + Hti[2, 1] * yy + Hti[2, 2]
        X = (Hti[0, 0] * xx + Hti[0, 1] * yy + Hti[0, 2]) / dn
        Y = (Hti[1, 0] * xx + Hti[1, 1] * yy + Hti[1, 2]) / dn
        sp_t = ks_b * _blinn(sc, X, Y, T, t.normal, m_b)
        if ks_s > 0:
            sp_t += ks_s * _blinn(sc, X, Y, T, t.normal, m_s)
        spec[sl] = spec[sl] * (1 - am) + sp_t * t.gloss * a

    # --- hand / arm with a soft shadow
    hand_a = np.zeros((H, W), np.float32)
    if c["hand"]:
        vis = [cam.project(np.array([[t.ctr[0], -t.ctr[1], T]]))[0] for t in tiles]
        vis = [p for p in vis if 0 <= p[0] < W and 0 <= p[1] < H] or [np.array([W / 2, H / 2])]
        target = vis[int(rng.integers(len(vis)))] + rng.normal(0, pitch_t, 2)
        hs = min(pxmm * 1.15, 0.55 * min(W, H) / 84)
        l0, _ = direct[0]
        pc = cam.project(np.array([centre, centre + np.r_[l0[:2] * 100, 0]]))
        l2d = (pc[1] - pc[0]) / (np.linalg.norm(pc[1] - pc[0]) + 1e-9)
        parts = _hand_parts(rng, W, H, target, hs)
        hrgb, hand_a = _draw_capsules(parts, W, H, l2d, math.asin(min(1.0, abs(l0[2]))))
        h_mm = rng.uniform(30, 110)
        offw = -l0[:2] / max(l0[2], 0.3) * h_mm
        po = cam.project(np.array([centre, centre + np.r_[offw, 0]]))
        d = po[1] - po[0]
        sh = np.asarray(
            cv2.warpAffine(hand_a, np.array([[1, 0, d[0]], [0, 1, d[1]]], np.float64), (W, H)),
            np.float32,
        )
        sh = _soft(sh, 0.3 * float(np.linalg.norm(d)) + 4 * pxmm)
        kk = 1 - sh * (direct[0][1] / e0 * float(rng.uniform(0.6, 0.9)) + 0.1)
        img *= kk[..., None]
        spec *= kk
        img = img * (1 - hand_a[..., None]) + hrgb
        spec *= 1 - hand_a

    # --- illumination, gloss, vignetting (linear light)
    qs = 4
    irr = cv2.resize(
        _irradiance(sc, u[::qs, ::qs], v[::qs, ::qs]), (W, H), interpolation=cv2.INTER_LINEAR
    )
    light = _kelvin_bgr(c["kelvin"]).astype(np.float32)
    uneven = 1 + 0.05 * cv2.resize(_noise(rng, u[::qs, ::qs], v[::qs, ::qs], 400, 400), (W, H))
    lin = img * (irr * uneven)[..., None] * light
    ks_tab = {"white": 0.05, "light_wood": 0.03, "dark_wood": 0.03, "game_board": 0.02}.get(
        c["table"], 0.0
    ) * float(rng.uniform(0.3, 1.5))
    if ks_tab > 0:
        tsp = _blinn(
            sc, u[::qs, ::qs], v[::qs, ::qs], 0.0, np.array([0.0, 0, 1]), rng.uniform(8, 40)
        )
        spec += ks_tab * cv2.resize(tsp, (W, H)) * (1 - tile_a) * (1 - hand_a)
    lin += spec[..., None] * light
    rr = ((gx - W / 2) ** 2 + (gy - H / 2) ** 2) / ((W / 2) ** 2 + (H / 2) ** 2)
    lin *= (1 - c["vignette"] * rr)[..., None]

    # --- optics and sensor
    if c["blur"] == "defocus":
        lin = np.asarray(cv2.GaussianBlur(lin, (0, 0), c["blur_px"] * 0.6), np.float32)
    elif c["blur"] == "motion":
        L = max(2, round(float(c["blur_px"])))
        ker = np.zeros((L, L), np.float32)
        ker[L // 2, :] = 1
        rot = cv2.getRotationMatrix2D(((L - 1) / 2, (L - 1) / 2), rng.uniform(0, 180), 1.0)
        ker = np.asarray(cv2.warpAffine(ker, rot, (L, L)), np.float32)
        lin = np.asarray(cv2.filter2D(lin, -1, ker / max(float(ker.sum()), 1e-6)), np.float32)
    if rng.random() < 0.4:  # lateral chromatic aberration: red and blue scaled about the centre
        eps = rng.uniform(0.0005, 0.002)
        for ch, s in ((2, 1 + eps), (0, 1 - eps)):
            Ma = cv2.getRotationMatrix2D((W / 2, H / 2), 0, s)
            lin[..., ch] = cv2.warpAffine(lin[..., ch], Ma, (W, H), borderMode=cv2.BORDER_REFLECT)
    wb = light ** -float(rng.uniform(0.5, 0.95))
    small = cv2.resize(lin, (64, 48), interpolation=cv2.INTER_AREA) * wb
    mean = float(small.mean()) + 1e-4
    gain = float(np.clip((0.2 / mean) ** 0.75, 0.5, 4.0)) * float(rng.uniform(0.85, 1.15))
    if c["dim"]:
        gain *= float(rng.uniform(0.3, 0.55))
    lin = lin * (wb * gain).astype(np.float32)
    sig = c["noise"]
    noise = rng.standard_normal((H, W, 3), dtype=np.float32)
    lin += noise * (sig * 0.4 + sig * np.sqrt(np.clip(lin, 0, None)))
    chroma = rng.standard_normal((H // 4 + 1, W // 4 + 1, 3), dtype=np.float32)
    lin += cv2.resize(chroma, (W, H)) * sig * 0.3
    out = np.clip(lin, 0, 1) ** (1 / 2.2)
    if c["sharpen"]:
        out = out + rng.uniform(0.3, 0.8) * (out - cv2.GaussianBlur(out, (0, 0), 1.2))
    bgr = np.clip(out * 255 + 0.5, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(c["jpeg"])])
    assert ok
    bgr = cv2.imdecode(buf, cv2.IMREAD_COLOR)

    # --- truth
    truth: list[dict[str, Any]] = []
    for t in sorted(tiles, key=lambda t: (t.row, t.col)):
        A = _tile_to_world(t)
        ctr = cam.project(np.array([[t.ctr[0], -t.ctr[1], T]]))[0]
        top_poly = _apply_h(Ht @ A, loc_t)
        full, inside = _polygon_area_in(top_poly, W, H)
        out_frac = 1 - inside / max(full, 1e-9)
        covered = out_frac + (1 - out_frac) * _frac_under(top_poly, hand_a, 0.5)
        shp = SHAPES[t.kind[1]]
        sym = _apply_h(Ht @ A, _symbol_extent(shp, S, sp))
        sfull, sin_ = _polygon_area_in(sym, W, H)
        sym_ok = sin_ >= 0.999 * sfull and _frac_under(sym, hand_a, 0.1) <= 0.002
        truth.append(
            {
                "row": t.row,
                "col": t.col,
                "color": COLORS[t.kind[0]],
                "shape": shp,
                "center_xy": (round(float(ctr[0]), 2), round(float(ctr[1]), 2)),
                "covered": round(float(min(1.0, max(0.0, covered))), 4),
                "visible": bool(covered < 0.15 and sym_ok),
            }
        )
    rm, cm = np.mean([[t.row, t.col] for t in tiles], axis=0)
    r0, c0 = round(float(rm)), round(float(cm))
    pts = cam.project(
        np.array(
            [
                [(c0 + dc) * P, -(r0 + dr) * P, T]
                for dr, dc in ((0, 0), (0, 1), (0, -1), (1, 0), (-1, 0))
            ]
        )
    )
    pitch_px = float(np.mean(np.linalg.norm(pts[1:] - pts[0], axis=1)))
    return np.asarray(bgr, np.uint8), truth, pitch_px, buf.tobytes()


def render_scene(
    seed: int, size: tuple[int, int] | None = None
) -> tuple[npt.NDArray[np.uint8], list[dict[str, Any]], float]:
    """Return (bgr uint8 (H, W, 3), truth, pitch_px)."""
    bgr, truth, pitch, _ = _render_seed(seed, size)
    return bgr, truth, pitch


def _render_seed(
    seed: int, size: tuple[int, int] | None
) -> tuple[npt.NDArray[np.uint8], list[dict[str, Any]], float, bytes]:
    rng = np.random.default_rng(seed)
    c = _draw_conditions(rng)
    W, H = size if size is not None else tuple(int(x) for x in c["size"].split("x"))
    return _render(rng, c, int(W), int(H))


# ----------------------------------------------------------------------------- CLI
_SHORT = {
    "circle": "ci",
    "square": "sq",
    "diamond": "di",
    "clover": "cl",
    "star4": "s4",
    "star8": "s8",
}


def overlay(bgr: npt.NDArray[np.uint8], truth: list[dict[str, Any]]) -> npt.NDArray[np.uint8]:
    """Truth centres (green: visible, red: not), labelled colour letter + shape; grid links."""
    out = bgr.copy()
    at = {(d["row"], d["col"]): d["center_xy"] for d in truth}
    for (r, c), p in at.items():
        for q in (at.get((r, c + 1)), at.get((r + 1, c))):
            if q is not None:
                cv2.line(
                    out,
                    (int(p[0]), int(p[1])),
                    (int(q[0]), int(q[1])),
                    (255, 255, 0),
                    1,
                    cv2.LINE_AA,
                )
    for d in truth:
        x, y = round(float(d["center_xy"][0])), round(float(d["center_xy"][1]))
        col = (0, 255, 0) if d["visible"] else (0, 0, 255)
        cv2.circle(out, (x, y), 3, col, -1, cv2.LINE_AA)
        lab = d["color"][0] + _SHORT[d["shape"]]
        for th, cc in ((3, (0, 0, 0)), (1, (255, 255, 255))):
            cv2.putText(
                out, lab, (x + 4, y - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.4, cc, th, cv2.LINE_AA
            )
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("outdir", type=Path)
    ap.add_argument(
        "--seeds",
        type=int,
        nargs="+",
        default=[0, 20],
        help="START END (renders START..END-1) or a single seed",
    )
    ap.add_argument("--overlay", action="store_true", help="also write truth overlays (PNG)")
    ap.add_argument("--size", type=str, default=None, help="override image size, e.g. 1280x720")
    a = ap.parse_args(argv)
    seeds = range(a.seeds[0], a.seeds[1]) if len(a.seeds) == 2 else a.seeds
    size = tuple(int(x) for x in a.size.split("x")) if a.size else None
    a.outdir.mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        t0 = time.perf_counter()
        img, truth, pitch, jpg = _render_seed(seed, size)  # type: ignore[arg-type]
        dt = time.perf_counter() - t0
        # the very JPEG stream the returned image was decoded from
        (a.outdir / f"scene_{seed}.jpg").write_bytes(jpg)
        doc = {
            "seed": seed,
            "size": [img.shape[1], img.shape[0]],
            "pitch_px": round(pitch, 3),
            "conditions": conditions(seed),
            "truth": truth,
        }
        (a.outdir / f"scene_{seed}.json").write_text(json.dumps(doc, indent=1))
        if a.overlay:
            cv2.imwrite(str(a.outdir / f"scene_{seed}_overlay.png"), overlay(img, truth))
        n_vis = sum(d["visible"] for d in truth)
        print(
            f"seed {seed}: {img.shape[1]}x{img.shape[0]} {len(truth)} tiles ({n_vis} visible) "
            f"pitch {pitch:.1f}px {dt:.2f}s"
        )


if __name__ == "__main__":
    main()
