"""``benchmarks.bench_surface`` reads boards on one named surface and reports their rates."""

from __future__ import annotations

import argparse

import pytest

from benchmarks.bench_surface import _ground, run


def test_one_light_ground_scene_is_read_and_reported() -> None:
    out = run("white", [(232, 230, 224)], first=100, scenes=1)
    row = out["ground=232,230,224"]
    assert out["surface"] == "white" and out["seeds"] == [100, 100]
    assert row["tiles"] >= 20  # a 30-tile legal board, nearly all in view
    assert row["recall"] >= 95.0 and row["precision"] >= 95.0
    assert 0.0 <= row["boards_exact"] <= 100.0 and row["false_tiles"] >= 0


def test_bad_grounds_and_surfaces_are_refused() -> None:
    assert _ground("drawn") is None
    assert _ground("1,2,3") == (1, 2, 3)
    for bad in ("1,2", "1,2,300", "red"):
        with pytest.raises((argparse.ArgumentTypeError, ValueError)):
            _ground(bad)
    with pytest.raises(ValueError, match="surface"):
        run("lava", [None], first=0, scenes=1)


def test_options_after_one_area_reach_its_main(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m benchmarks AREA --option ...`` (README's ``heldout --first``)."""
    from benchmarks.__main__ import run as run_areas  # (the command's own entry)

    assert (
        run_areas(["surface", "--surface", "white", "--grounds", "232,230,224", "--scenes", "1"])
        == 0
    )
    assert '"ground=232,230,224"' in capsys.readouterr().out
    assert run_areas(["--first", "3"]) == 2  # options for every area at once: refused
    assert run_areas(["surface", "scorer", "--first", "3"]) == 2
    assert "exactly one area" in capsys.readouterr().err
