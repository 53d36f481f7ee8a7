"""The detector's fast paths give what the plain numpy formulas they replace give.

Speed itself is measured by ``python -m benchmarks vision`` (never by timed tests); these tests
pin the arithmetic of the shortcuts: radix-sort medians, the single-threaded matrix product,
the band-only edge slope, the uint8 ray canvas, the neutral mask's table of V's levels and
the work image's channel split, plus a board of look-alikes that yields candidates but no
tile.
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest

from vision.detect import (
    DetectorSettings,
    _contour_stats,
    _edge_blur,
    _median_u8,
    _neutral_mask,
    _patch_geometry,
    _seen_side_deviation,
    _work_image,
    detect,
)
from vision.shapes import _ray_table, radial_profiles, single_thread_matmul


@pytest.mark.parametrize("length", [1, 2, 7, 535, 536])
def test_uint8_median_equals_numpy_median(length: int) -> None:
    rng = np.random.default_rng(length)
    a = rng.integers(0, 256, (5, 3, length)).astype(np.uint8)
    a[0, 0] = 255  # constant rows and the extremes too
    a[1, 1] = 0
    got = _median_u8(a)
    assert got.shape == (5, 3)
    np.testing.assert_array_equal(got, np.median(a, axis=-1))


@pytest.mark.parametrize(
    ("m", "k", "n"),
    [(0, 3, 4), (5, 3, 4), (2, 576, 198), (94, 576, 198), (150, 576, 198), (100, 4, 2304)],
)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_single_thread_matmul_equals_numpy(m: int, k: int, n: int, dtype: type) -> None:
    rng = np.random.default_rng(m * 1000 + n)
    a = rng.random((m, k)).astype(dtype)
    b = rng.random((k, n)).astype(dtype)
    got = single_thread_matmul(a, b)
    assert got.shape == (m, n) and got.dtype == dtype
    np.testing.assert_allclose(got, a @ b, rtol=1e-4, atol=1e-3)


def test_edge_blur_equals_the_numpy_gradient_formula() -> None:
    rng = np.random.default_rng(3)
    p = 24
    # blurred random blobs: many pixels in the 0.3-0.7 band, some on the patch border
    raw = (rng.random((6, p, p)) > 0.5).astype(np.float32)
    score = np.stack([cv2.GaussianBlur(r, (0, 0), 2.0) for r in raw]).astype(np.float32)
    score[5] = 0.0  # no band at all: 0
    gy, gx = np.gradient(score, axis=(1, 2))
    band = (score > 0.3) & (score < 0.7)
    cnt = band.sum(axis=(1, 2))
    mean = (np.hypot(gx, gy) * band).sum(axis=(1, 2)) / np.maximum(cnt, 1)
    sig = 1.0 / (np.sqrt(2 * np.pi) * np.maximum(mean, 1e-3))
    want = np.where(cnt > 0, sig / p, 0.0)
    np.testing.assert_allclose(_edge_blur(score, p), want, rtol=1e-5)
    assert _edge_blur(score, p)[5] == 0.0


def test_radial_profile_of_a_disc_is_flat_and_of_a_square_peaks_at_corners() -> None:
    p = 48
    disc = np.zeros((p, p), np.uint8)
    cv2.circle(disc, (24, 24), 14, 1, -1)
    square = np.zeros((p, p), np.uint8)
    square[12:36, 12:36] = 1
    prof, sol, ok = radial_profiles(np.stack([disc, square, np.zeros_like(disc)]) > 0, 72)
    assert ok.tolist() == [True, True, False]
    assert np.ptp(prof[0]) < 0.1  # radius within a sample step all round
    # square: the diagonals (45, 135, ... degrees = bins 9, 27, 45, 63) reach sqrt(2) farther
    assert prof[1][[9, 27, 45, 63]].min() > 1.3 * prof[1][[0, 18, 36, 54]].max()
    assert sol[0] > 0.95 and sol[1] > 0.95


def test_look_alikes_give_candidates_but_no_tiles() -> None:
    """Round black blobs with bright dots are symbol holes, but no blob is a square tile."""
    img = np.full((480, 640, 3), 170, np.uint8)
    for k in range(6):
        centre = (80 + 90 * k, 240)
        cv2.circle(img, centre, 30, (20, 20, 20), -1)
        cv2.circle(img, centre, 9, (40, 200, 230), -1)
    obs = detect(img, debug=True)
    assert obs.debug is not None and len(obs.debug["candidates"]) == 6
    assert obs.tiles == () and obs.lattice is None and obs.unseen == ()


def _reference_radii(masks: np.ndarray, bins: int) -> np.ndarray:
    """Outermost-inside ray radii the plain way: float 0/1 canvas, every sample, >= 0.5 (the
    sample rows on the 1/256 px grid ``radial_profiles`` keeps them on)."""
    n, p, _ = masks.shape
    out = np.zeros((n, bins))
    n_r = p + p // 2
    step = 0.75 * p / n_r
    ray_x, ray_y = _ray_table(bins, n_r, step)
    coord = np.arange(p) + 0.5
    for i, m in enumerate(masks.astype(np.float32)):
        area = max(float(m.sum()), 1.0)
        cx, cy = float(m.sum(axis=0) @ coord) / area, float(m.sum(axis=1) @ coord) / area
        canvas = np.zeros((2 * p, 2 * p), np.float32)
        canvas[p // 2 : p // 2 + p, p // 2 : p // 2 + p] = m
        vals = cv2.remap(
            canvas,
            (np.float32(cx + p // 2 - 0.5) + ray_x).astype(np.float32),
            np.round((np.float32(cy + p // 2 - 0.5) + ray_y).astype(np.float32) * 256) / 256,
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=0.0,
        )
        inside = vals >= 0.5
        last = n_r - 1 - np.argmax(inside[:, ::-1], axis=1)
        out[i] = np.where(inside.any(axis=1), (last + 1.0) * step, 0.0)
    return out


def test_radial_profiles_equal_the_plain_float_sampling() -> None:
    """uint8 canvas and rays cut past the farthest mask pixel change no radius."""
    rng = np.random.default_rng(11)
    p = 48
    masks = np.zeros((12, p, p), np.uint8)
    for i, m in enumerate(masks):  # blobs of every size, some reaching the patch edge
        r = 4 + 2 * i
        cv2.ellipse(
            m, (24 + int(rng.integers(-3, 4)), 24), (r, max(3, r // 2)), 15.0 * i, 0, 360, 1, -1
        )
        if i % 3 == 0:
            cv2.line(m, (24, 24), (int(rng.integers(0, p)), int(rng.integers(0, p))), 1, 2)
    for subset in (masks[[1, 2, 4, 5]], masks):  # small blobs only: rays are cut short
        prof, _, ok = radial_profiles(subset > 0, 72)
        ref = _reference_radii(subset, 72)
        assert ok.all()
        np.testing.assert_allclose(prof, ref / ref.mean(axis=1, keepdims=True), rtol=0, atol=1e-9)


def test_scratch_buffers_are_per_name_and_thread_and_capped() -> None:
    import threading

    from vision.scratch import MAX_KEEP_BYTES, scratch

    a = scratch("test.a", (4, 5), np.float32)
    a[...] = 1.0
    b = scratch("test.b", (4, 5), np.float32)
    b[...] = 2.0
    assert a.shape == (4, 5) and a.dtype == np.float32 and a.flags.c_contiguous
    assert float(a.sum()) == 20.0  # another name does not share memory
    again = scratch("test.a", (2, 3), np.float64)
    assert np.shares_memory(again, a)  # same name, same thread: reused
    seen: list[np.ndarray] = []
    t = threading.Thread(target=lambda: seen.append(scratch("test.a", (4, 5), np.float32)))
    t.start()
    t.join()
    assert not np.shares_memory(seen[0], a)  # another thread has its own
    big = MAX_KEEP_BYTES // 8 + 1
    assert not np.shares_memory(
        scratch("test.big", (big,), np.float64), scratch("test.big", (big,), np.float64)
    )


def test_contour_stats_equal_opencv_to_the_last_bit() -> None:
    rng = np.random.default_rng(5)
    img = np.zeros((200, 300), np.uint8)
    for _ in range(40):  # blobs with holes, lines, single pixels
        c = (int(rng.integers(0, 300)), int(rng.integers(0, 200)))
        cv2.circle(img, c, int(rng.integers(1, 25)), 255, -1)
        cv2.circle(img, c, int(rng.integers(0, 8)), 0, -1)
    img[5, 5] = 255
    contours, _ = cv2.findContours(img, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    st = _contour_stats(list(contours))
    want = [cv2.moments(c) for c in contours]
    assert len(want) > 40
    assert st.m00.tolist() == [m["m00"] for m in want]
    assert st.m10.tolist() == [m["m10"] for m in want]
    assert st.m01.tolist() == [m["m01"] for m in want]
    assert st.area.tolist() == [cv2.contourArea(c) for c in contours]
    assert st.box.tolist() == [list(cv2.boundingRect(c)) for c in contours]
    assert len(_contour_stats([]).area) == 0


def test_first_look_reads_ok_and_centroid_as_the_full_reading() -> None:
    from vision.detect import DetectorSettings, _read_patches
    from vision.evaluate import random_board
    from vision.render import PRESETS, render

    board = random_board(np.random.default_rng(4), 20)
    r = render(board, PRESETS["easy"], seed=4, size=(960, 540))
    tiles = np.array([t.corners_xy for t in r.truth if t.visible], np.float64)
    step = tiles[:, 1] - tiles[:, 0]  # one tile side along the row: half the shifted
    corners = np.concatenate([tiles, tiles + step[:, None, :], tiles + 0.5 * step[:, None, :]])
    s = DetectorSettings()
    full = _read_patches(r.image_bgr, corners, s, False)
    first = _read_patches(r.image_bgr, corners, s, False, first_look=True)
    assert full.ok.sum() >= len(tiles) // 2 and (~full.ok).sum() >= len(tiles) // 2
    np.testing.assert_array_equal(first.ok, full.ok)
    np.testing.assert_array_equal(first.centroid, full.centroid)
    # the outline too (growth reads a cell in full only when it is near some prototype)
    np.testing.assert_array_equal(first.profile[first.ok], full.profile[full.ok])
    np.testing.assert_array_equal(first.solidity[first.ok], full.solidity[full.ok])


def test_a_shared_bgra_copy_reads_as_a_fresh_one() -> None:
    """Reads from one BGRA copy of the board's region (``_TileSource``, made once per detect
    and large enough for growth's looks around the board) give what a read with its own copy
    gives."""
    from vision.detect import DetectorSettings, _read_patches, _TileSource
    from vision.evaluate import random_board
    from vision.render import PRESETS, render

    board = random_board(np.random.default_rng(8), 30)
    r = render(board, PRESETS["glare"], seed=8, size=(1280, 720))
    s = DetectorSettings()
    corners = np.array([t.corners_xy for t in r.truth if t.visible], np.float64)
    source = _TileSource(r.image_bgr, grow_tiles=3.0)
    _read_patches(source, corners, s, False)  # the copy: the board and 3 tiles around it
    shared = _read_patches(source, corners[:5], s, False)  # read from that larger copy
    fresh = _read_patches(r.image_bgr, corners[:5], s, False)
    for name in ("ok", "profile", "symbol_rgb", "body_rgb", "score", "mix", "blur"):
        np.testing.assert_array_equal(getattr(shared, name), getattr(fresh, name))


@pytest.mark.parametrize(("seed", "preset"), [(12, "glare"), (13, "dim")])
def test_a_patch_reads_the_same_alone_and_with_any_neighbours(seed: int, preset: str) -> None:
    """A patch's reading, its shape confidences included, does not depend on the patches it
    is stacked with at all: read alone, among all the others and among them in another order
    (full readings, growth's first looks with the occluder as a fallback, and readings with
    the occluder left out), at the widest smoothing (a noisy image's). So growth may batch
    its looks in one read."""
    from vision.detect import _read_patches
    from vision.shapes import outline_distances, shape_confidences

    image, corners, _ = _pushed_tiles(seed, preset)
    n = len(corners)
    s = dataclasses.replace(DetectorSettings(), patch_smooth=DetectorSettings().max_patch_smooth)
    p = s.patch_px
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    back = np.argsort(order)
    modes: list[dict[str, object]] = [
        {},
        {"first_look": True, "occlusion": "fallback", "shaded_sides": True},
        {"occlusion": "all"},
    ]
    for kw in modes:
        full = _read_patches(image, corners, s, False, **kw)  # type: ignore[arg-type]
        mixed = _read_patches(image, corners[order], s, False, **kw)  # type: ignore[arg-type]
        for i in rng.choice(n, 5, replace=False):
            alone = _read_patches(image, corners[i : i + 1], s, False, **kw)  # type: ignore[arg-type]
            for f in dataclasses.fields(full):
                got = getattr(alone, f.name)
                if got is None:
                    continue
                np.testing.assert_array_equal(got[0], getattr(full, f.name)[i], err_msg=f.name)
                np.testing.assert_array_equal(
                    got[0], getattr(mixed, f.name)[back[i]], err_msg=f.name
                )
            if kw or not alone.ok[0]:
                continue
            conf = [
                shape_confidences(
                    outline_distances(r.profile[j : j + 1], r.solidity[j : j + 1], s.shape),
                    s.shape,
                    r.blur[j : j + 1],
                    r.score[j : j + 1].reshape(1, p, p),
                    r.body_rgb[j : j + 1],
                    r.symbol_rgb[j : j + 1],
                    None if r.mix is None else r.mix[j : j + 1].reshape(1, p, p),
                )
                for r, j in ((alone, 0), (full, i), (mixed, back[i]))
            ]
            np.testing.assert_array_equal(conf[0], conf[1])
            np.testing.assert_array_equal(conf[0], conf[2])


def _pushed_tiles(seed: int, preset: str) -> tuple[np.ndarray, np.ndarray, float]:
    """A rendered board's image, its tiles' corners as a lattice would guess them (each
    square pushed up to 0.15 of a side and turned up to 12 degrees about the tile's centre,
    beyond the range growth's second look rescues), plus free cells (half and whole steps
    beside the tiles), and the work image's scale."""
    from vision.evaluate import random_board
    from vision.render import PRESETS, render

    rng = np.random.default_rng(seed)
    r = render(random_board(rng, 30), PRESETS[preset], seed=seed, size=(1280, 720))
    tiles = np.array([t.corners_xy for t in r.truth if t.visible], np.float64)
    centre = tiles.mean(axis=1, keepdims=True)
    side = np.hypot(*(tiles[:, 1] - tiles[:, 0]).T)[:, None, None]
    turn = np.radians(rng.uniform(-12.0, 12.0, len(tiles)))
    c, s_ = np.cos(turn)[:, None], np.sin(turn)[:, None]
    rel = tiles - centre
    turned = np.stack([c * rel[..., 0] - s_ * rel[..., 1], s_ * rel[..., 0] + c * rel[..., 1]], 2)
    pushed = centre + turned + side * rng.uniform(-0.15, 0.15, (len(tiles), 1, 2))
    step = tiles[:, 1] - tiles[:, 0]
    free = np.concatenate([tiles + step[:, None, :], tiles + 0.5 * step[:, None, :]])
    return r.image_bgr, np.concatenate([pushed, free]), 960 / 1280


@pytest.mark.parametrize(("seed", "preset"), [(11, "easy"), (12, "glare"), (13, "dim")])
def test_coarse_contrast_passes_every_cell_the_full_look_passes(seed: int, preset: str) -> None:
    """Growth skips a free cell whose coarse contrast (work image, half the patch size) is
    below ``grow_coarse_contrast`` x ``min_symbol_contrast``: every cell whose full look
    passes the contrast test must read at least that coarsely (with room to spare), and
    cells of table are skipped."""
    from vision.detect import DetectorSettings, _coarse_contrast, _read_patches, _work_image

    image, corners, scale = _pushed_tiles(seed, preset)
    s = DetectorSettings()
    small, _ = _work_image(image, scale)
    coarse = _coarse_contrast(small, corners, scale, s)
    full = _read_patches(image, corners, s, False, first_look=True)
    assert full.contrast is not None
    passed = full.contrast
    assert passed.sum() >= len(corners) // 4
    floor = s.grow_coarse_contrast * s.min_symbol_contrast
    assert coarse[passed].min() >= 1.2 * floor
    assert (coarse[~passed] < floor).mean() >= 0.3


def test_second_look_finds_nothing_where_the_first_sees_no_contrast() -> None:
    """Growth's second look (``grow_first_look`` of the square) is taken only where the full
    square's centre and margin differ by ``min_symbol_contrast``: wherever the smaller
    square finds a symbol, on tiles pushed and turned off their cells, the full one passes
    that test (also where only the smaller square finds it)."""
    from vision.detect import DetectorSettings, _read_patches

    # (without ``side_glare_max``: the table strip beside a pushed tile is brighter than its
    # margin in every channel, so the full square then passes some of the tiles counted here
    # as rescued by the smaller one: 2 instead of 3)
    s = DetectorSettings(side_glare_max=0.0)
    found = rescued = 0
    for seed, preset in [(11, "easy"), (12, "glare"), (13, "dim")]:
        image, corners, _ = _pushed_tiles(seed, preset)
        centre = corners.mean(axis=1, keepdims=True)
        first = _read_patches(image, corners, s, False, first_look=True, occlusion="fallback")
        second = _read_patches(
            image,
            centre + s.grow_first_look * (corners - centre),
            s,
            False,
            first_look=True,
            occlusion="fallback",
        )
        assert first.contrast is not None
        assert first.contrast[second.ok].all(), (seed, preset)
        found += int(second.ok.sum())
        rescued += int((second.ok & ~first.ok).sum())
    assert found >= 100 and rescued >= 3


def test_growth_reads_the_same_when_it_looks_at_every_free_cell() -> None:
    """Skipping the free cells of table (``grow_coarse_contrast``) and the full reading of
    looks whose outline is far from every shape (``grow_look_max_outline``) leaves every
    reading of growth as without them: a hard legal scene whose tiles turned off the lattice
    are grown (``tests/vision/test_detect_growth.py``)."""
    from benchmarks.bench_vision import hard_scene
    from vision.detect import DetectorSettings
    from vision.evaluate import legal_board

    r = hard_scene(2026, 39, legal_board, isp_space="linear").first
    fast = detect(r.image_bgr)
    slow = detect(
        r.image_bgr,
        settings=dataclasses.replace(
            DetectorSettings(), grow_coarse_contrast=0.0, grow_look_max_outline=float("inf")
        ),
    )
    assert len(fast.tiles) >= 20
    assert [(t.pos, t.tile) for t in fast.tiles] == [(t.pos, t.tile) for t in slow.tiles]
    for a, b in zip(fast.tiles, slow.tiles, strict=True):
        assert a.confidence == pytest.approx(b.confidence, abs=1e-6)
        assert a.center_xy == pytest.approx(b.center_xy, abs=1e-6)


@pytest.mark.parametrize("shape", [(2, 2), (3, 5), (48, 48), (960, 48)])
def test_laplacian_equals_opencv(shape: tuple[int, int]) -> None:
    """The patches' sharpness Laplacian (int16 numpy) gives cv2.Laplacian's float32 values."""
    from vision.detect import _laplacian

    rng = np.random.default_rng(11)
    g = rng.integers(0, 256, (shape[0], shape[1] * 3), dtype=np.uint8).reshape(*shape, 3)
    want = cv2.Laplacian(g[:, :, 1], cv2.CV_32F)
    got = _laplacian(g[:, :, 1])
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, want)


def test_side_medians_from_one_keyed_sort_equal_each_sides_median() -> None:
    """The margin sides' middle positions in the (side, value) sort give np.median of each
    side's own pixels."""
    from vision.detect import DetectorSettings, _patch_geometry

    geo = _patch_geometry(48, DetectorSettings())
    rng = np.random.default_rng(5)
    margin = rng.integers(0, 256, (7, 3, len(geo.body_idx)), dtype=np.uint8)
    by_side = np.sort(np.add(margin, geo.side_key, dtype=np.uint16), axis=-1, kind="stable")
    for k, (lo, hi) in enumerate(zip(geo.side_middle_lo, geo.side_middle_hi, strict=True)):
        got = ((by_side[..., lo] & 255).astype(np.float64) + (by_side[..., hi] & 255)) / 2.0
        want = np.median(margin[:, :, geo.side_idx[k]], axis=-1)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("sigma", [0.576, 1.0, 1.68])
def test_bgra_gaussian_smooths_b_g_r_as_the_bgr_image(sigma: float) -> None:
    """OpenCV's 8-bit Gaussian is exact per channel: the BGRA stack smooths B, G, R to the
    same values as the BGR one (``_read_patches`` smooths the BGRA stack)."""
    rng = np.random.default_rng(2)
    bgra = rng.integers(0, 256, (960, 48, 4), dtype=np.uint8)
    bgr = cv2.cvtColor(bgra, cv2.COLOR_BGRA2BGR)
    np.testing.assert_array_equal(
        cv2.GaussianBlur(bgra, (0, 0), sigma)[:, :, :3], cv2.GaussianBlur(bgr, (0, 0), sigma)
    )


def test_shape_edge_blur_equals_the_filter2d_gradient() -> None:
    """vision.shapes.edge_blur's central differences (numpy slices) equal OpenCV's 3-tap
    filter with replicated borders, so the blur estimate is unchanged."""
    from vision.shapes import edge_blur

    rng = np.random.default_rng(4)
    score = (rng.random((9, 48, 48)) ** 3).astype(np.float32)
    g = score.reshape(-1, 48)
    kx = np.array([[-0.5, 0.0, 0.5]], np.float32)
    gx = cv2.filter2D(g, cv2.CV_32F, kx, borderType=cv2.BORDER_REPLICATE)
    gy = cv2.filter2D(g, cv2.CV_32F, kx.T, borderType=cv2.BORDER_REPLICATE)
    slope = np.sqrt(gx * gx + gy * gy).reshape(9, -1)
    band = (score.reshape(9, -1) > 0.3) & (score.reshape(9, -1) < 0.7)
    cnt = band.sum(axis=1)
    mean = (slope * band).sum(axis=1) / np.maximum(cnt, 1)
    sig = 1.0 / (np.sqrt(2 * np.pi) * np.maximum(mean, 1e-3))
    want = np.where(cnt > 0, sig / 48, 0.0)
    np.testing.assert_array_equal(edge_blur(score), want)


def _neutral_mask_by_float_planes(
    small: np.ndarray, gains: np.ndarray, s: DetectorSettings
) -> tuple[np.ndarray, np.ndarray]:
    """The neutral mask as it was computed before: a float32 limit plane, compared per pixel."""
    ramp = np.arange(256, dtype=np.float32)
    chans = [
        cv2.LUT(c, np.clip(ramp * g, 0, 255).astype(np.uint8))
        for c, g in zip(cv2.split(cv2.medianBlur(small, 3)), gains, strict=True)
    ]
    hi = cv2.max(cv2.max(chans[0], chans[1]), chans[2])
    lo = cv2.min(cv2.min(chans[0], chans[1]), chans[2])
    chroma = cv2.subtract(hi, lo)
    limit = cv2.multiply(hi, 1.0, scale=s.neutral_ratio, dtype=cv2.CV_32F)
    np.maximum(limit, s.neutral_min, out=limit)
    return np.less(chroma, limit).view(np.uint8) * np.uint8(255), chroma


@pytest.mark.parametrize(("ratio", "floor"), [(None, None), (0.17, 7.5), (0.3, 0.0), (1.5, -3.0)])
def test_neutral_mask_by_level_table_equals_the_float_limit(
    ratio: float | None, floor: float | None
) -> None:
    s = DetectorSettings()
    if ratio is not None and floor is not None:
        s = dataclasses.replace(s, neutral_ratio=ratio, neutral_min=floor)
    rng = np.random.default_rng(7)
    # a smooth colour field with noise: every level of V and chroma near the limits
    base = rng.integers(0, 256, (9, 13, 3)).astype(np.uint8)
    small = cv2.resize(base, (301, 207), interpolation=cv2.INTER_LINEAR)
    small = cv2.add(small, rng.integers(0, 12, small.shape).astype(np.uint8))
    for gains in (np.ones(3, np.float32), np.array([1 / 3, 3.0, 1.2], np.float32)):
        got, chroma = _neutral_mask(small[3:200, 5:290], gains, s)  # a strided box, as called
        want, want_chroma = _neutral_mask_by_float_planes(small[3:200, 5:290], gains, s)
        np.testing.assert_array_equal(chroma, want_chroma)
        np.testing.assert_array_equal(got, want)


def test_work_image_brightness_is_the_channels_maximum() -> None:
    rng = np.random.default_rng(3)
    img = rng.integers(0, 256, (120, 160, 3)).astype(np.uint8)
    small, v = _work_image(img, 0.5)
    assert small.shape == (60, 80, 3)
    np.testing.assert_array_equal(v, small.max(axis=2))
    _, v1 = _work_image(img, 1.0)
    np.testing.assert_array_equal(v1, img.max(axis=2))


def _cut_symbols_one_by_one(
    sym8: np.ndarray, ok: np.ndarray, p: int, s: DetectorSettings
) -> np.ndarray:
    """The chord test polygon by polygon, as it was written before the batched lengths."""
    import math

    cut = np.zeros(len(ok), bool)
    contours, _ = cv2.findContours(sym8, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    area = sym8.reshape(len(ok), -1).sum(axis=1, dtype=np.int64)
    for cnt in contours:
        k = int(cnt[0, 0, 1]) // p
        if not ok[k] or len(cnt) < 3:
            continue
        poly = cv2.approxPolyDP(cnt, s.cut_chord_eps * p, True).reshape(-1, 2).astype(float)
        step = np.roll(poly, -1, axis=0) - poly
        edges = np.sort(np.sqrt((step * step).sum(axis=1)))
        longest = float(edges[-1])
        second = float(edges[-2]) if len(edges) > 1 else 0.0
        if longest > s.cut_chord_max * math.sqrt(max(int(area[k]), 1)) and (
            longest > s.cut_chord_lead * second
        ):
            cut[k] = True
    return cut


def test_cut_symbols_batched_lengths_equal_the_polygon_by_polygon_test() -> None:
    """Every polygon's edge lengths taken at once flag the same cut symbols as the loop."""
    from vision.detect import _cut_symbols

    s = DetectorSettings()
    p = s.patch_px
    rng = np.random.default_rng(3)
    n = 60
    sym = np.zeros((n, p, p), np.uint8)
    for i in range(n):
        c = (int(rng.integers(14, 34)), int(rng.integers(14, 34)))
        kind = i % 4
        if kind == 0:  # a disc cut straight by an occluder's edge
            cv2.circle(sym[i], c, int(rng.integers(6, 12)), 1, -1)
            sym[i, : c[1] - int(rng.integers(0, 5))] = 0
        elif kind == 1:  # a square (straight, equal sides)
            r = int(rng.integers(4, 10))
            sym[i, c[1] - r : c[1] + r, c[0] - r : c[0] + r] = 1
        elif kind == 2:  # a random polygon, up to two blobs
            for _ in range(int(rng.integers(1, 3))):
                pts = rng.integers(8, 40, (int(rng.integers(3, 7)), 2)).astype(np.int32)
                cv2.fillPoly(sym[i], [pts], 1)
        else:  # specks of 1-2 pixels (polygons of one or two vertices)
            sym[i, c[1], c[0] : c[0] + int(rng.integers(1, 3))] = 1
    sym[:, :6] = sym[:, -6:] = 0  # a blob never leaves its patch
    sym8 = sym.reshape(n * p, p)
    ok = rng.random(n) < 0.85
    got = _cut_symbols(sym8, ok, p, s)
    want = _cut_symbols_one_by_one(sym8, ok, p, s)
    assert want.any() and not want.all()
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_chebyshev_planes_equal_the_reduction_over_the_last_axis(dtype: type) -> None:
    """The larger of the two coordinate planes gives the reduction's Chebyshev distances."""
    from vision.detect import _chebyshev

    rng = np.random.default_rng(8)
    a = (rng.normal(0, 6, (37, 2))).astype(dtype)
    b = (rng.normal(0, 6, (11, 2))).astype(dtype)
    np.testing.assert_array_equal(_chebyshev(a), np.abs(a[:, None] - a[None]).max(axis=2))
    np.testing.assert_array_equal(_chebyshev(a, b), np.abs(a[:, None] - b[None]).max(axis=2))
    assert _chebyshev(a[:0]).shape == (0, 0)


def _seen_side_deviation_by_loop(
    margin: np.ndarray, body_c: np.ndarray, seen: np.ndarray, side_idx: tuple, min_visible: float
) -> np.ndarray:
    """The patch-by-patch, side-by-side loop ``_seen_side_deviation`` replaced."""
    sdev = np.zeros(len(margin))
    for idx in side_idx:
        vis = seen[:, idx]
        for j in range(len(margin)):
            if vis[j].mean() < min_visible:
                continue
            px = margin[j][:, idx[vis[j]]].astype(np.float32)
            sk = np.median(px, axis=1)
            sdev[j] = max(sdev[j], float(np.sqrt(((sk - body_c[j]) ** 2).sum())))
    return sdev


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the loop's median of no pixels (NaN)
@pytest.mark.parametrize("min_visible", [0.0, 0.25, 0.6])
def test_seen_side_deviation_equals_the_side_by_side_medians(min_visible: float) -> None:
    s = DetectorSettings()
    geo = _patch_geometry(s.patch_px, s)
    rng = np.random.default_rng(11)
    m, r = 40, len(geo.body_idx)
    margin = rng.integers(0, 256, (m, 3, r)).astype(np.uint8)
    margin[:5] = rng.integers(20, 24, (5, 3, r))  # near-constant rows: ties in the sort
    body = rng.uniform(0, 255, (m, 3)).astype(np.float32)
    # occluders of every extent: none, a little, whole sides, all but a few pixels, all
    cover = rng.random((m, 1)) * np.linspace(0.0, 1.2, m)[:, None]
    seen = rng.random((m, r)) >= cover
    seen[-1] = False
    seen[-2, geo.side_idx[0]] = False
    got = _seen_side_deviation(margin, body, seen, geo.side_idx, min_visible)
    want = _seen_side_deviation_by_loop(margin, body, seen, geo.side_idx, min_visible)
    assert got.dtype == np.float64 and (want > 0).sum() > m // 2
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_homogeneous_rows_equal_np_c_and_map_the_same(dtype: type) -> None:
    """``lattice.homogeneous`` builds np.c_[pts, ones] (the same values, layout and
    product), so ``_apply_h`` and ``lattice._apply`` map points to the last bit as before."""
    from vision.detect import _apply_h
    from vision.lattice import _apply, homogeneous

    rng = np.random.default_rng(4)
    pts = (rng.random((37, 2)) * 900).astype(dtype)
    h = np.array([[55.0, -0.66, 607.4], [3.95, 56.3, 78.1], [2.9e-4, 3.3e-3, 1.0]])
    want_rows = np.c_[pts, np.ones(len(pts))]
    got_rows = homogeneous(pts)
    assert got_rows.dtype == want_rows.dtype and got_rows.flags.c_contiguous
    np.testing.assert_array_equal(got_rows, want_rows)
    want = want_rows @ h.T
    want = want[:, :2] / want[:, 2:3]
    np.testing.assert_array_equal(_apply_h(h, pts), want)
    np.testing.assert_array_equal(_apply(h, pts), want)
    assert _apply_h(h, pts[:0]).shape == (0, 2)


def test_side_neighbours_on_a_grid_count_as_the_set_lookups() -> None:
    """``_side_neighbours`` counts on a grid what a set of the held cells gives, for a
    cluster, cells repeated, negative rows and columns, none held and no cells at all."""
    from vision.detect import _side_neighbours

    rng = np.random.default_rng(8)
    cells = rng.integers(-6, 7, (150, 2)).astype(np.int64)
    for held in (rng.random(150) < 0.5, np.zeros(150, bool), np.ones(150, bool)):
        have = {(int(a), int(b)) for a, b in cells[held]}
        want = [
            sum((a + da, b + db) in have for da, db in ((0, 1), (1, 0), (0, -1), (-1, 0)))
            for a, b in cells.tolist()
        ]
        got = _side_neighbours(cells, held)
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got, want)
    assert _side_neighbours(np.zeros((0, 2), np.int64), np.zeros(0, bool)).shape == (0,)


def test_shape_polygon_is_drawn_once_and_handed_out_as_copies() -> None:
    """The prototypes' outlines are cached (the star8's took ~30 ms a call): each call gives
    the outline as computed, a writable copy that a caller may change without touching the
    next call's, and the grey prototypes drawn from the cache are the same."""
    from vision.shapes import (
        SHAPE_ORDER,
        _draw_shape_polygon,
        _polygon_fill,
        shape_polygon,
    )

    for sh in SHAPE_ORDER:
        want = _draw_shape_polygon(sh, 360)
        got = shape_polygon(sh)
        np.testing.assert_array_equal(got, want)
        got *= 0.0  # the caller's own copy
        np.testing.assert_array_equal(shape_polygon(sh), want)
        np.testing.assert_array_equal(shape_polygon(sh, 64), _draw_shape_polygon(sh, 64))
    # the fill from the cached outline equals one drawn from a fresh outline
    star8 = SHAPE_ORDER[-1]
    ss, p, scale, turn = 8, 48, 0.93, 22.5
    a = math.radians(turn)
    poly = (
        _draw_shape_polygon(star8, 360)
        @ np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]).T
    )
    big = np.zeros((p * ss, p * ss), np.uint8)
    pts = np.round((poly * scale + 0.5) * p * ss).astype(np.int32)
    cv2.fillPoly(big, [pts], 255, lineType=cv2.LINE_AA)
    want_fill = cv2.resize(big, (p, p), interpolation=cv2.INTER_AREA).astype(np.float32)
    np.testing.assert_array_equal(_polygon_fill(star8, p, scale, turn), want_fill)


def test_star_radius_all_rays_at_once_matches_ray_by_ray() -> None:
    """The star8's outline, every ray against every edge in one array expression, is the
    ray-by-ray intersection it replaced (30 ms -> under 1 ms), bit for bit; its points and
    notches lie at the printed radii."""
    from vision.shapes import _star_radius

    def ray_by_ray(t: np.ndarray, points: int, outer: float, inner: float, phase: float):
        radii = [(outer, inner)[k % 2] for k in range(2 * points)]
        angles = [phase + k * math.pi / points for k in range(2 * points)]
        poly = np.array(
            [(r * math.cos(a), r * math.sin(a)) for r, a in zip(radii, angles, strict=True)]
        )
        out = np.empty_like(t)
        for i, ang in enumerate(t):
            d = np.array([math.cos(ang), math.sin(ang)])
            best = 0.0
            for k in range(len(poly)):
                p, q = poly[k], poly[(k + 1) % len(poly)]
                e = q - p
                den = d[0] * (-e[1]) - d[1] * (-e[0])
                if abs(den) < 1e-12:
                    continue
                s = (p[0] * (-e[1]) - p[1] * (-e[0])) / den
                u = (d[0] * p[1] - d[1] * p[0]) / den
                if s > 0 and -1e-9 <= u <= 1 + 1e-9:
                    best = max(best, s)
            out[i] = best
        return out

    for n, points, outer, inner, phase in ((360, 8, 0.37, 0.20, 0.0), (97, 5, 0.4, 0.1, 0.3)):
        t = np.linspace(0.0, 2.0 * math.pi, n, endpoint=False)
        got = _star_radius(t, points=points, outer=outer, inner=inner, phase=phase)
        np.testing.assert_array_equal(got, ray_by_ray(t, points, outer, inner, phase))
    t = np.array([0.0, math.pi / 8, math.pi / 4])
    np.testing.assert_allclose(
        _star_radius(t, points=8, outer=0.37, inner=0.20, phase=0.0), [0.37, 0.20, 0.37]
    )
