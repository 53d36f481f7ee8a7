"""``tabletally calibrate ...`` end to end through the real console entry point."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from calibration.profile import PROFILE_FORMAT, Palette, load_profile
from tests.vision.test_imagefile import heic_bytes
from webui.cli import main

from .synth import CASTS, paint_line

CLASSIC = Palette.classic()


def _line_file(
    tmp_path: Path, colours: list[tuple[int, int, int]], name: str = "line.png", **kw: object
) -> Path:
    img, _ = paint_line(colours, **kw)  # type: ignore[arg-type]
    path = tmp_path / name
    cv2.imwrite(str(path), img)
    return path


def test_colours_writes_a_versioned_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    img = _line_file(
        tmp_path, [CLASSIC.rgb[n] for n in reversed(CLASSIC.names)], cast=CASTS["warm"], seed=3
    )
    out = tmp_path / "profile.json"
    assert main(["calibrate", "colours", str(img), "--out", str(out)]) == 0
    assert "6 colours calibrated" in capsys.readouterr().out
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == PROFILE_FORMAT
    prof = load_profile(out)
    assert prof.palette.calibrated and prof.white_balance is not None
    # --json reports per tile, in line order (purple was laid first)
    assert main(["calibrate", "colours", str(img), "--out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["complete"] is True
    assert [t["color"] for t in report["tiles"]] == list(reversed(CLASSIC.names))


def test_colours_from_an_iphone_heic_photo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    img, _ = paint_line([CLASSIC.rgb[n] for n in CLASSIC.names], cast=CASTS["cool"], seed=5)
    photo = tmp_path / "IMG_0002.HEIC"
    photo.write_bytes(heic_bytes(img, quality=95))
    out = tmp_path / "profile.json"
    assert main(["calibrate", "colours", str(photo), "--out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["complete"] is True
    assert [t["color"] for t in report["tiles"]] == list(CLASSIC.names)
    assert load_profile(out).palette.calibrated


def test_missing_colour_exits_1_and_keeps_the_old_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "profile.json"
    out.write_text(
        '{"palette": ["red", "orange", "yellow", "green", "blue", "purple"]}\n', encoding="utf-8"
    )
    before = out.read_bytes()
    colours = [CLASSIC.rgb[n] for n in CLASSIC.names]
    colours[5] = (27, 26, 28)  # no purple symbol visible
    img = _line_file(tmp_path, colours, seed=4)
    code = main(["calibrate", "colours", str(img), "--out", str(out), "--order", "palette"])
    err = capsys.readouterr().err
    assert code == 1
    assert "no clean samples for 'purple'" in err and "profile not saved" in err
    assert err.count("\n") == 1  # one line, no traceback
    assert out.read_bytes() == before
    # the debug picture is written even for a refused calibration, at the photo's size
    dbg = tmp_path / "debug.png"
    assert (
        main(
            [
                "calibrate",
                "colours",
                str(img),
                "--out",
                str(out),
                "--order",
                "palette",
                "--debug-png",
                str(dbg),
            ]
        )
        == 1
    )
    picture = cv2.imread(str(dbg))
    assert picture is not None and picture.shape == cv2.imread(str(img)).shape


def test_line_not_found_and_bad_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img = _line_file(tmp_path, [CLASSIC.rgb[n] for n in CLASSIC.names[:3]], seed=5)
    out = tmp_path / "p.json"
    assert main(["calibrate", "colours", str(img), "--out", str(out)]) == 1
    assert "reference line not found" in capsys.readouterr().err
    assert not out.exists()
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not an image")
    assert main(["calibrate", "colours", str(junk), "--out", str(out)]) == 2
    assert "cannot read image" in capsys.readouterr().err
    cut = tmp_path / "cut.jpg"  # a copy interrupted: decoders would fill its rest with grey
    whole = _line_file(tmp_path, [CLASSIC.rgb[n] for n in CLASSIC.names], "whole.jpg", seed=5)
    cut.write_bytes(whole.read_bytes()[:-200])
    assert main(["calibrate", "colours", str(cut), "--out", str(out)]) == 2
    assert f"{cut}: cannot read image: truncated JPEG" in capsys.readouterr().err
    assert not out.exists()
    assert (
        main(["calibrate", "colours", str(img), "--out", str(out), "--palette", "red,magenta"]) == 2
    )
    assert "unknown colour name 'magenta'" in capsys.readouterr().err


def test_white_for_purple_palette_from_the_command_line(tmp_path: Path) -> None:
    connect = Palette.from_names(["red", "orange", "yellow", "green", "blue", "white"])
    img = _line_file(tmp_path, [connect.rgb[n] for n in connect.names], cast=CASTS["cool"], seed=6)
    out = tmp_path / "connect.json"
    assert (
        main(
            [
                "calibrate",
                "colours",
                str(img),
                "--out",
                str(out),
                "--palette",
                ",".join(connect.names),
            ]
        )
        == 0
    )
    assert load_profile(out).palette.names == connect.names


def test_markers_geometry_and_show(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdf = tmp_path / "markers.pdf"
    assert main(["calibrate", "markers", str(pdf)]) == 0
    assert pdf.read_bytes().startswith(b"%PDF")
    img = _line_file(tmp_path, [CLASSIC.rgb[n] for n in CLASSIC.names], seed=7)
    out = tmp_path / "p.json"
    # no markers in this photo: exit 1 naming them, nothing written
    assert main(["calibrate", "geometry", str(img), "--out", str(out)]) == 1
    assert "markers not found: top-left (id 0)" in capsys.readouterr().err
    assert not out.exists()
    # four clicked corners instead, then colours into the same profile: both kept
    assert (
        main(
            [
                "calibrate",
                "geometry",
                str(img),
                "--out",
                str(out),
                "--table-mm",
                "800",
                "500",
                "--corners",
                "10,10",
                "630,12",
                "628,350",
                "12,348",
            ]
        )
        == 0
    )
    assert main(["calibrate", "colours", str(img), "--out", str(out)]) == 0
    prof = load_profile(out)
    assert prof.geometry is not None and prof.geometry.units == "mm"
    assert prof.palette.calibrated
    capsys.readouterr()
    assert main(["calibrate", "show", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "(calibrated)" in shown and "geometry: corners" in shown
    assert (
        main(
            [
                "calibrate",
                "geometry",
                str(img),
                "--out",
                str(out),
                "--corners",
                "1,2",
                "3",
                "4,5",
                "6,7",
            ]
        )
        == 2
    )
