"""Profiles: the simple INTERFACES.md forms, the versioned form, exact round-trips, errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calibration.profile import (
    NAMED_COLORS,
    PROFILE_FORMAT,
    Geometry,
    Lens,
    Palette,
    Profile,
    ProfileError,
    WhiteBalance,
    lab_to_srgb,
    load_profile,
    save_profile,
    srgb_to_lab,
)

# ------------------------------------------------------------------------ simple forms still work


def test_names_form_white_instead_of_purple() -> None:
    p = Profile.from_dict({"palette": ["red", "orange", "yellow", "green", "blue", "white"]})
    assert p.palette.names == ("red", "orange", "yellow", "green", "blue", "white")
    assert p.palette.lab["white"][0] > 90
    assert p.white_balance is None and p.geometry is None and p.lens is None
    assert not p.palette.calibrated


def test_hex_form_custom_paints() -> None:
    p = Profile.from_dict({"palette": {"teal": "#1f9e9a", "crimson": "#a3123a"}, "note": 1})
    assert p.palette.names == ("teal", "crimson")
    assert p.palette.rgb["teal"] == (0x1F, 0x9E, 0x9A)
    assert p.extra == {"note": 1}


def test_default_is_classic() -> None:
    assert Profile().palette.names == ("red", "orange", "yellow", "green", "blue", "purple")
    assert load_profile(None) == Profile()


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"palette": ["red", "red"]}, "duplicate colour 'red'"),
        ({"palette": ["red", "magenta"]}, "unknown colour name 'magenta'"),
        ({"palette": {"red": "#12"}}, "invalid colour '#12'"),
        ({"palette": 3}, "palette: expected"),
        ({"format": "tabletally-profile/9"}, "format: unsupported"),
        ({"palette": [{"name": "red", "lab": [1, 2]}]}, "palette[0].lab"),
        (
            {"palette": [{"name": "red", "lab": [1, 2, 3], "spread": [1, -1, 1]}]},
            "palette[0].spread",
        ),
        ({"white_balance": {"gains": [1, 0, 1]}}, "white_balance.gains"),
        ({"geometry": {"table_from_image": [[1, 0, 0], [0, 1, 0]]}}, "geometry.table_from_image"),
        ({"geometry": {"table_from_image": [[0, 0, 0], [0, 0, 0], [0, 0, 0]]}}, "singular"),
        (
            {"geometry": {"table_from_image": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "tile_pitch": -3}},
            "geometry.tile_pitch",
        ),
        (
            {
                "lens": {
                    "camera_matrix": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
                    "distortion": [0, 0],
                    "image_size": [10, 10],
                }
            },
            "lens.distortion",
        ),
    ],
)
def test_errors_name_the_field(data: dict[str, object], fragment: str) -> None:
    with pytest.raises(ProfileError) as e:
        Profile.from_dict(data, source="p.json")
    assert str(e.value).startswith("p.json: ")
    assert fragment in str(e.value)


def test_load_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ProfileError, match=r"bad\.json: malformed JSON"):
        load_profile(bad)
    with pytest.raises(ProfileError, match=r"missing\.json: cannot read"):
        load_profile(tmp_path / "missing.json")


# ---------------------------------------------------------------------------- versioned form


def _calibrated_profile() -> Profile:
    pal = Palette.from_lab(
        {"red": (44.1, 55.0, 38.2), "teal": (57.0, -33.5, -5.25)},
        spread={"red": (2.1, 3.0, 2.7), "teal": (1.0, 1.5, 0.5)},
        samples={"red": 812, "teal": 640},
    )
    geo = Geometry(
        table_from_image=((1.5, 0.1, -20.0), (0.02, 1.4, -30.0), (1e-5, 2e-4, 1.0)),
        units="mm",
        table_size=(600.0, 400.0),
        tile_pitch=33.0,
        image_size=(1280, 720),
    )
    lens = Lens(
        camera_matrix=((900.0, 0.0, 640.0), (0.0, 900.0, 360.0), (0.0, 0.0, 1.0)),
        distortion=(-0.1, 0.02, 0.0, 0.0, 0.0),
        image_size=(1280, 720),
        rms_px=0.3,
    )
    return Profile(
        palette=pal,
        extra={"name": "kitchen"},
        white_balance=WhiteBalance((0.6, 1.1, 2.4), "tile-bodies"),
        geometry=geo,
        lens=lens,
    )


def test_versioned_form_round_trips_through_a_file(tmp_path: Path) -> None:
    prof = _calibrated_profile()
    path = save_profile(prof, tmp_path / "profile.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == PROFILE_FORMAT
    assert data["palette"][0]["name"] == "red" and data["palette"][0]["samples"] == 812
    assert data["name"] == "kitchen"
    back = load_profile(path)
    assert back == prof
    assert back.palette.calibrated
    assert back.geometry is not None and back.geometry.tile_pitch == 33.0


def test_save_is_atomic_and_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "p.json"
    save_profile(Profile(), target)
    save_profile(_calibrated_profile(), target)
    assert [f.name for f in tmp_path.iterdir()] == ["p.json"]
    with pytest.raises(ProfileError, match="cannot write"):
        save_profile(Profile(), tmp_path / "no" / "such" / "dir.json")


def test_versioned_palette_as_object_and_bare_names() -> None:
    p = Profile.from_dict(
        {
            "format": PROFILE_FORMAT,
            "palette": {"red": {"lab": [40, 50, 30]}, "blue": {"rgb": "#2a6fc4"}},
        }
    )
    assert p.palette.names == ("red", "blue")
    assert p.palette.lab["red"] == (40.0, 50.0, 30.0)
    q = Profile.from_dict({"format": PROFILE_FORMAT, "palette": [{"name": "red"}, "blue"]})
    assert q.palette.rgb["blue"] == (0x2A, 0x6F, 0xC4)


_finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)
_pos = st.floats(min_value=1e-3, max_value=1e4, allow_nan=False, allow_infinity=False)
_name = st.sampled_from([*sorted(NAMED_COLORS), "teal", "gold-2", "x_9"])


@st.composite
def profiles(draw: st.DrawFn) -> Profile:
    names = draw(st.lists(_name, min_size=1, max_size=8, unique=True))
    lab = {
        n: (draw(st.floats(0, 100)), draw(st.floats(-128, 127)), draw(st.floats(-128, 127)))
        for n in names
    }
    spread = {n: (draw(_pos), draw(_pos), draw(_pos)) for n in names if draw(st.booleans())}
    samples = {n: draw(st.integers(0, 10**6)) for n in names if draw(st.booleans())}
    pal = Palette.from_lab(lab, spread=spread, samples=samples)
    wb = draw(st.none() | st.tuples(_pos, _pos, _pos).map(lambda g: WhiteBalance(g, "fit")))
    geo = None
    if draw(st.booleans()):
        rows = (
            (draw(_pos), draw(_finite), draw(_finite)),
            (draw(_finite), draw(_pos), draw(_finite)),
            (0.0, 0.0, 1.0),
        )
        if abs(rows[0][0] * rows[1][1] - rows[0][1] * rows[1][0]) > 1e-6:
            geo = Geometry(
                rows,
                units=draw(st.sampled_from(["mm", "table"])),
                table_size=draw(st.none() | st.tuples(_pos, _pos)),
                tile_pitch=draw(st.none() | _pos),
                image_size=draw(st.none() | st.tuples(st.integers(1, 9999), st.integers(1, 9999))),
                source=draw(st.sampled_from(["markers", "corners"])),
            )
    lens = None
    if draw(st.booleans()):
        k = ((draw(_pos), 0.0, draw(_pos)), (0.0, draw(_pos), draw(_pos)), (0.0, 0.0, 1.0))
        d = tuple(draw(st.lists(_finite, min_size=5, max_size=5)))
        lens = Lens(k, d, (draw(st.integers(1, 9999)), draw(st.integers(1, 9999))), draw(_pos))
    extra = draw(
        st.dictionaries(
            st.sampled_from(["name", "created", "camera"]), st.text(max_size=5) | st.integers()
        )
    )
    return Profile(palette=pal, extra=extra, white_balance=wb, geometry=geo, lens=lens)


@given(profiles())
def test_round_trip_is_exact(prof: Profile) -> None:
    text = json.dumps(prof.to_dict())
    back = Profile.from_dict(json.loads(text))
    assert back == prof
    assert back.to_dict() == prof.to_dict()


@given(st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)))
def test_lab_to_srgb_inverts_srgb_to_lab(rgb: tuple[int, int, int]) -> None:
    back = lab_to_srgb(srgb_to_lab(tuple(float(v) for v in rgb)))  # type: ignore[arg-type]
    assert max(abs(a - b) for a, b in zip(back, rgb, strict=True)) <= 1


def test_white_balance_apply_is_the_per_pixel_formula() -> None:
    wb = WhiteBalance((0.5, 1.0, 2.0))
    img = np.array([[[40, 120, 200], [0, 0, 0]]], dtype=np.uint8)  # BGR
    out = wb.apply(img)
    assert img[0, 0, 0] == 40  # input untouched
    r, g, b = wb.apply_rgb((200, 120, 40))
    assert abs(out[0, 0, 2] - r) <= 1 and abs(out[0, 0, 1] - g) <= 1
    assert abs(out[0, 0, 0] - b) <= 1
    assert out[0, 0, 0] > 40 and out[0, 0, 2] < 200  # blue raised, red lowered
    assert Profile().correct_colours(img) is img


def test_geometry_maps_points_both_ways() -> None:
    geo = _calibrated_profile().geometry
    assert geo is not None
    tx, ty = geo.image_to_table(300.0, 200.0)
    x, y = geo.table_to_image(tx, ty)
    assert math.isclose(x, 300.0, abs_tol=1e-6) and math.isclose(y, 200.0, abs_tol=1e-6)


def test_palette_nearest() -> None:
    pal = Palette.classic()
    name, de, margin = pal.nearest(srgb_to_lab((200, 50, 45)))
    assert name == "red" and de < 10 and margin > 10


def test_a_path_no_file_can_have_is_a_profile_error() -> None:
    with pytest.raises(ProfileError, match=r"cannot read profile.*null byte"):
        load_profile("bad\x00name.json")
