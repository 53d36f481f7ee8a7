"""Misreads split by what was wrong (:meth:`DetectionScore.misread_kinds`), and the hard
benchmark's scores by tile pitch (``benchmarks.bench_vision``)."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest

from benchmarks.bench_vision import PITCH_BANDS, SPEC_MIN_PITCH_PX, _accuracy_hard, pitch_band
from vision.evaluate import DetectionScore


def test_misreads_split_into_colour_shape_and_both() -> None:
    sc = DetectionScore(
        confusions=Counter(
            {
                ("Rd", "Rk"): 3,  # red diamond read as red clover: shape
                ("Bk", "Bd"): 2,  # the other way round: the same unordered pair
                ("{teal}s", "{teal}d"): 1,  # a colour of another palette: shape
                ("Ox", "Rx"): 4,  # colour
                ("Gc", "Y*"): 1,  # both
                ("not a tile", "Rs"): 2,  # unparsed: counted, not split
            }
        )
    )
    out = sc.misread_kinds()
    assert out["misreads"] == 13
    assert (out["colour"], out["shape"], out["both"]) == (4, 6, 1)
    assert out["shape_pairs"] == {"clover/diamond": 5, "diamond/square": 1}
    assert list(out["shape_pairs"]) == ["clover/diamond", "diamond/square"]  # most first
    assert out["colour_pairs"] == {"orange/red": 4}


def test_misread_kinds_add_up_over_scores() -> None:
    a = DetectionScore(confusions=Counter({("Pd", "Pk"): 1}))
    b = DetectionScore(confusions=Counter({("Pk", "Pd"): 2, ("Gs", "Bs"): 1}))
    out = (a + b).misread_kinds()
    assert out["misreads"] == out["colour"] + out["shape"] + out["both"] == 4
    assert out["shape_pairs"] == {"clover/diamond": 3}
    assert DetectionScore().misread_kinds() == {
        "misreads": 0, "colour": 0, "shape": 0, "both": 0, "shape_pairs": {}, "colour_pairs": {}
    }  # fmt: skip


def test_pitch_bands_cover_the_spec_without_gaps() -> None:
    assert PITCH_BANDS[0][1] == SPEC_MIN_PITCH_PX
    for (_, _, hi), (_, lo, _) in pairwise(PITCH_BANDS):
        assert hi == lo
    assert pitch_band(SPEC_MIN_PITCH_PX) == "25-35"
    assert pitch_band(34.99) == "25-35"
    assert pitch_band(35.0) == "35-50"
    assert pitch_band(200.0) == "100+"
    with pytest.raises(ValueError, match="below the spec"):
        pitch_band(24.9)


def test_the_hard_section_is_scored_by_pitch_and_misread_kind() -> None:
    out = _accuracy_hard(3, 2026)
    bands = out["by_pitch_px"]
    assert set(bands) <= {label for label, _, _ in PITCH_BANDS}
    assert out["overall"]["images"] >= 1  # scenes still under 25 px are scored apart
    assert sum(b["images"] for b in bands.values()) == out["overall"]["images"]
    assert sum(b["tiles"] for b in bands.values()) == out["overall"]["tiles"]
    m = out["misreads"]
    assert m["misreads"] == m["colour"] + m["shape"] + m["both"]
    # every misread of an in-spec scene is in the split (the failures list every scene
    # that is not exact, with its confusions)
    listed = sum(
        sum(f["confusions"].values()) for f in out["failures"] if "below_25px" not in f["tags"]
    )
    assert m["misreads"] == listed
