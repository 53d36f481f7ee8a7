"""The symbol blobs' statistics summed in numpy and growth's reads beyond the board's BGRA
copy give what OpenCV's labelling statistics and a read with its own copy give (the
speed-ups of the thirteenth session; speed itself is measured by ``python -m benchmarks``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detect import DetectorSettings, _blob_sums, _read_patches, _TileSource


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_blob_sums_equal_opencv_statistics(seed: int) -> None:
    """Area, patch, column mean and row sum within the patch of every blob of a stack of
    48 px patches with discs, specks and noise (blobs kept off the patches' borders)."""
    rng = np.random.default_rng(seed)
    n, p = 40, 48
    stack = np.zeros((n * p, p), np.uint8)
    for k in range(n):
        cy = k * p + int(rng.integers(14, 34))
        cv2.circle(stack, (int(rng.integers(14, 34)), cy), int(rng.integers(2, 12)), 1, -1)
        speck = (rng.random((12, 30)) > 0.6).astype(np.uint8)
        stack[k * p + 3 : k * p + 15, 4:34] |= speck * (k % 3 > 0)
    n_lab, lab, stats, cent = cv2.connectedComponentsWithStatsWithAlgorithm(
        stack, 8, cv2.CV_32S, cv2.CCL_BBDT
    )
    assert n_lab > 2 * n  # discs and specks: several blobs in most patches
    area, tile, col_sum, row_sum = _blob_sums(lab, stack, n_lab, p)
    np.testing.assert_array_equal(area, stats[1:, cv2.CC_STAT_AREA])
    np.testing.assert_array_equal(tile, stats[1:, cv2.CC_STAT_TOP] // p)
    np.testing.assert_array_equal(col_sum / area, cent[1:, 0])  # OpenCV's own quotient
    rows = np.round(cent[1:, 1] * area) - tile * p * area
    np.testing.assert_array_equal(row_sum, rows)


def test_a_read_beyond_the_bgra_copy_reads_as_a_fresh_one() -> None:
    """Patches outside the region a ``_TileSource`` copied for an earlier read are resampled
    from the image itself, to the values a read with its own BGRA copy gives."""
    from vision.evaluate import random_board
    from vision.render import PRESETS, render

    board = random_board(np.random.default_rng(4), 30)
    r = render(board, PRESETS["glare"], seed=4, size=(1280, 720))
    s = DetectorSettings()
    corners = np.array([t.corners_xy for t in r.truth if t.visible], np.float64)
    left = corners[:, :, 0].mean(axis=1) < np.median(corners[:, :, 0])
    source = _TileSource(r.image_bgr)  # no margin: the copy holds the left half's tiles
    _read_patches(source, corners[left], s, False)
    assert source._copy is not None
    beyond = _read_patches(source, corners[~left], s, False)
    assert source._copy is not None and source.bgra((0, 0, 1280, 720), 1.0)[0] is None
    fresh = _read_patches(r.image_bgr, corners[~left], s, False)
    assert beyond.ok.sum() >= 0.8 * (~left).sum()
    for name in ("ok", "profile", "symbol_rgb", "body_rgb", "score", "mix", "blur", "sharpness"):
        np.testing.assert_array_equal(getattr(beyond, name), getattr(fresh, name))
