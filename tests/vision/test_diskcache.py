"""The shape templates kept on disk (``vision.diskcache``): read back equal to drawing them,
the same readings either way, and a broken or unwritable cache never in the way."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from vision import diskcache, shapes
from vision.detect import detect
from vision.evaluate import random_board
from vision.render import PRESETS, render

CACHED = (shapes._template_bank, shapes._prototypes)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty cache directory, and the in-process caches emptied before and after."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("TABLETALLY_CACHE", str(folder))
    for fn in CACHED:
        fn.cache_clear()
    yield folder
    for fn in CACHED:
        fn.cache_clear()


def _drawn(fn: object, *args: object) -> tuple[np.ndarray, ...]:
    raw = fn.__wrapped__.__wrapped__  # type: ignore[attr-defined]  # under lru_cache, disk
    return tuple(raw(*args))


def _args() -> dict[object, tuple[object, ...]]:
    s = shapes.ShapeSettings()
    return {
        shapes._template_bank: (
            24,  # half the detector's 48 px patch
            s.template_scales,
            s.template_turns_deg,
            s.template_blur,
            s.template_inset,
            s.star8_template_turns_deg,
            s.star4_wide,
        ),
        shapes._prototypes: (s.bins, s.proto_blur),
    }


def test_templates_read_back_equal_to_drawing_them(cache: Path) -> None:
    for fn, args in _args().items():
        first = fn(*args)  # type: ignore[operator]  # drawn, written
        fn.cache_clear()  # type: ignore[attr-defined]
        again = fn(*args)  # type: ignore[operator]  # read from the file
        drawn = _drawn(fn, *args)
        assert len(again) == len(drawn) == len(first)
        for a, b, c in zip(again, drawn, first, strict=True):
            assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
            assert np.array_equal(c, b)
            assert not a.flags.writeable and not c.flags.writeable  # nobody edits a shared value
    names = sorted(p.name.split("-")[0] for p in cache.iterdir())
    assert names == ["_prototypes", "_template_bank"]


def test_detect_reads_the_same_with_a_cold_and_a_warm_cache(cache: Path) -> None:
    r = render(random_board(np.random.default_rng(35), 40), PRESETS["tiny_tiles"], seed=35)
    cold = detect(r.image_bgr)
    assert any(cache.iterdir())
    for fn in CACHED:
        fn.cache_clear()
    warm = detect(r.image_bgr)
    key = [(t.pos, t.tile, round(t.shape_confidence, 9)) for t in cold.tiles]
    assert len(key) >= 30
    assert key == [(t.pos, t.tile, round(t.shape_confidence, 9)) for t in warm.tiles]


def test_a_broken_cache_file_is_drawn_again_and_replaced(cache: Path) -> None:
    args = _args()[shapes._prototypes]
    shapes._prototypes(*args)
    (path,) = cache.glob("_prototypes-*.npz")
    for junk in (b"", path.read_bytes()[:300], b"PK\x03\x04 not really a zip"):
        path.write_bytes(junk)
        shapes._prototypes.cache_clear()
        got = shapes._prototypes(*args)
        assert all(
            np.array_equal(a, b)
            for a, b in zip(got, _drawn(shapes._prototypes, *args), strict=True)
        )
        assert path.stat().st_size > 1000  # replaced by a whole file
    assert [p.name for p in cache.iterdir()] == [path.name]  # no temporary files left


def test_an_unwritable_cache_leaves_the_templates_drawn_per_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("TABLETALLY_CACHE", str(blocker / "tabletally"))
    shapes._prototypes.cache_clear()
    try:
        args = _args()[shapes._prototypes]
        got = shapes._prototypes(*args)
        assert all(
            np.array_equal(a, b)
            for a, b in zip(got, _drawn(shapes._prototypes, *args), strict=True)
        )
    finally:
        shapes._prototypes.cache_clear()


def test_the_key_follows_the_arguments_the_code_and_the_libraries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fn = shapes._prototypes.__wrapped__  # type: ignore[attr-defined]
    base = diskcache._key(fn, (64, (0.0, 0.02)), {})
    assert diskcache._key(fn, (64, (0.0, 0.02)), {}) == base
    assert diskcache._key(fn, (64, (0.0, 0.03)), {}) != base
    assert diskcache._module_digest("vision.shapes") != ""  # the source is hashed
    monkeypatch.setattr(diskcache, "_module_digest", lambda module: "edited")
    assert diskcache._key(fn, (64, (0.0, 0.02)), {}) != base
    monkeypatch.undo()
    monkeypatch.setattr(diskcache.cv2, "__version__", "99.0.0")
    assert diskcache._key(fn, (64, (0.0, 0.02)), {}) != base


def test_each_function_keeps_its_most_recently_used_files(cache: Path) -> None:
    """An upgrade (or another setting) makes a new file; the least recently used beyond
    ``KEEP`` go, and reading a file counts as using it."""
    bins = shapes.ShapeSettings().bins
    raw = shapes._prototypes.__wrapped__.__wrapped__  # type: ignore[attr-defined]
    blurs = [(0.0, 0.01 * k) for k in range(1, diskcache.KEEP + 3)]

    def file(b: tuple[float, float]) -> Path:
        return cache / f"_prototypes-{diskcache._key(raw, (bins, b), {})}.npz"

    for k, b in enumerate(blurs[: diskcache.KEEP]):
        shapes._prototypes(bins, b)
        os.utime(file(b), (1_000_000 + k, 1_000_000 + k))  # made in this order, long ago
    shapes._prototypes.cache_clear()
    shapes._prototypes(bins, blurs[0])  # read back: the oldest is now the newest
    for b in blurs[diskcache.KEEP :]:
        shapes._prototypes(bins, b)
    kept = set(cache.glob("_prototypes-*.npz"))
    assert kept == {file(b) for b in [blurs[0], *blurs[3:]]}
    shapes._template_bank(24, (1.0,), (0.0,), (0.02,), 0.05, None)  # its own count
    assert set(cache.glob("_prototypes-*.npz")) == kept


def test_the_cache_folder_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLETALLY_CACHE", str(tmp_path / "c"))
    assert diskcache.cache_dir() == tmp_path / "c"
    monkeypatch.delenv("TABLETALLY_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert diskcache.cache_dir() == tmp_path / "xdg" / "tabletally"
