"""The demo video cache keeps the most recently used videos only (each is 60-80 MB)."""

from __future__ import annotations

import os
from pathlib import Path

from vision.demo import prune_demo_cache


def _pair(folder: Path, name: str, mtime: float) -> Path:
    video, meta = folder / f"demo-{name}.avi", folder / f"demo-{name}.json"
    video.write_bytes(b"\0" * 16)
    meta.write_text("{}")
    for f in (video, meta):
        os.utime(f, (mtime, mtime))
    return video


def test_prune_keeps_the_most_recently_used(tmp_path: Path) -> None:
    old = _pair(tmp_path, "aaa", 1_000)
    newer = _pair(tmp_path, "bbb", 2_000)
    newest = _pair(tmp_path, "ccc", 3_000)
    unfinished = tmp_path / ".demo-ddd.123.avi"  # another process still rendering
    unfinished.write_bytes(b"x")
    lone = tmp_path / "demo-eee.avi"  # no JSON: not a complete pair, not ours to judge
    lone.write_bytes(b"x")

    gone = prune_demo_cache(tmp_path, keep=2)

    assert sorted(p.name for p in gone) == ["demo-aaa.avi", "demo-aaa.json"]
    assert not old.exists() and not old.with_suffix(".json").exists()
    assert newer.exists() and newest.exists()
    assert unfinished.exists() and lone.exists()
    assert prune_demo_cache(tmp_path, keep=2) == []  # nothing more to do
