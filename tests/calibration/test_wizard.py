"""The calibration wizard: JSON endpoints on a real app, and the page in a real browser."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from calibration.profile import Palette, load_profile
from scorer.model import Board, Shape, Tile
from tests.vision.test_imagefile import heic_bytes

from .conftest import Client
from .synth import CASTS, paint_line

CLASSIC = Palette.classic()


def _png(img: np.ndarray) -> io.BytesIO:
    ok, buf = cv2.imencode(".png", img)
    assert ok
    return io.BytesIO(buf.tobytes())


def _line_png(missing_purple: bool = False, seed: int = 3) -> io.BytesIO:
    colours = [CLASSIC.rgb[n] for n in CLASSIC.names]
    if missing_purple:
        colours[5] = (27, 26, 28)
    img, _ = paint_line(colours, cast=CASTS["warm"], seed=seed)
    return _png(img)


def test_page_and_json_twin(client: Client) -> None:
    r = client.get("/calibrate")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "Learn colours" in html and "calibrate.js" in html and 'id="save" disabled' in html
    s = client.get("/calibrate/api/state").get_json()
    assert s["pending"] is None and s["saved"] is None
    assert s["profile_path"].endswith("profile.json")


def test_post_without_csrf_is_refused(app: Any) -> None:
    r = app.test_client().post("/calibrate/api/save", headers={"Accept": "application/json"})
    assert r.status_code == 400
    assert r.get_json()["error"] == "csrf"


def test_save_is_gated_on_coverage(client: Client, tmp_path: Path) -> None:
    r = client.post(
        "/calibrate/api/colours",
        data={"image": (_line_png(missing_purple=True), "line.png"), "order": "palette"},
    )
    assert r.status_code == 200
    body = r.get_json()
    assert body["complete"] is False and body["missing"] == ["purple"]
    assert body["coverage"]["purple"] is False and body["coverage"]["red"] is True
    r = client.post("/calibrate/api/save")
    assert r.status_code == 409
    assert r.get_json()["error"] == "coverage_incomplete"
    assert "no clean samples for 'purple'" in r.get_json()["message"]
    assert not (tmp_path / "profile.json").exists()
    # a complete line: saved, and the state shows it (sent as an iPhone's HEIC photo)
    img = cv2.imdecode(np.frombuffer(_line_png().getvalue(), np.uint8), cv2.IMREAD_COLOR)
    heic = io.BytesIO(heic_bytes(img, quality=95))
    r = client.post("/calibrate/api/colours", data={"image": (heic, "IMG_0001.HEIC")})
    assert r.get_json()["complete"] is True
    r = client.post("/calibrate/api/save")
    assert r.status_code == 200, r.get_json()
    prof = load_profile(tmp_path / "profile.json")
    assert prof.palette.calibrated and prof.white_balance is not None
    s = client.get("/calibrate/api/state").get_json()
    assert s["pending"] is None and s["saved"]["calibrated"] is True


def test_errors_are_json(client: Client) -> None:
    r = client.post("/calibrate/api/colours", data={"image": (io.BytesIO(b"nope"), "x.png")})
    assert r.status_code == 400 and r.get_json()["error"] == "bad_image"
    r = client.post("/calibrate/api/colours", data={})
    assert r.status_code == 400 and r.get_json()["error"] == "no_image"
    blank = np.full((360, 640, 3), (130, 170, 196), np.uint8)
    r = client.post("/calibrate/api/colours", data={"image": (_png(blank), "b.png")})
    assert r.status_code == 422 and "reference line not found" in r.get_json()["message"]
    r = client.post(
        "/calibrate/api/colours", data={"image": (_line_png(), "l.png"), "palette": "red,magenta"}
    )
    assert r.status_code == 400 and "magenta" in r.get_json()["message"]
    r = client.post("/calibrate/api/save")
    assert r.status_code == 409 and r.get_json()["error"] == "nothing_to_save"


def test_a_photo_the_browser_cannot_show_comes_back_as_an_upright_jpeg(client: Client) -> None:
    """``/calibrate/api/photo``: the page sends a photo its browser cannot decode (an iPhone's
    HEIC outside Safari) and gets it back as a JPEG it can show, upright and at most 1600 px
    on its longer side. It alone takes a phone's original file (over the 1 MiB limit)."""
    rng = np.random.default_rng(6)
    sensor = cv2.GaussianBlur(rng.integers(0, 256, (1800, 2400, 3), dtype=np.uint8), (0, 0), 2)
    sensor[:300, :500] = (0, 0, 255)  # red in the sensor's top-left corner
    heic = heic_bytes(sensor, quality=60, orientation=6)  # held turned: view it turned 90°
    r = client.post("/calibrate/api/photo", data={"image": (io.BytesIO(heic), "IMG_0003.HEIC")})
    assert r.status_code == 200 and r.mimetype == "image/jpeg", r.get_data()[:200]
    got = cv2.imdecode(np.frombuffer(r.get_data(), np.uint8), cv2.IMREAD_COLOR)
    assert got.shape == (1600, 1200, 3)  # 2400 x 1800 turned upright, then scaled by 2/3
    upright = cv2.resize(
        cv2.rotate(sensor, cv2.ROTATE_90_CLOCKWISE), (1200, 1600), interpolation=cv2.INTER_AREA
    )
    assert float(np.abs(got.astype(np.int16) - upright.astype(np.int16)).mean()) < 8.0
    # a phone's original size: over the app's 1 MiB limit, which the other uploads keep
    big = _png(rng.integers(0, 256, (1000, 1000, 3), dtype=np.uint8)).getvalue()
    assert 1024 * 1024 < len(big) < 32 * 1024 * 1024
    r = client.post("/calibrate/api/photo", data={"image": (io.BytesIO(big), "big.png")})
    assert r.status_code == 200 and r.mimetype == "image/jpeg"
    r = client.post("/calibrate/api/colours", data={"image": (io.BytesIO(big), "big.png")})
    assert r.status_code == 413 and r.get_json() == {
        "error": "too_large",
        "message": f"request body larger than {1024 * 1024} bytes",
    }
    huge = io.BytesIO(bytes(33 * 1024 * 1024))
    r = client.post("/calibrate/api/photo", data={"image": (huge, "huge.heic")})
    assert r.status_code == 413 and r.get_json() == {
        "error": "too_large",
        "message": f"request body larger than {32 * 1024 * 1024} bytes",
    }
    r = client.post("/calibrate/api/photo", data={"image": (io.BytesIO(heic[:500]), "cut.heic")})
    assert r.status_code == 400 and r.get_json()["error"] == "bad_image"


def test_uploads_are_checked_by_their_headers_before_decoding(client: Client) -> None:
    """A PNG of 20 kB declaring 30,000 x 30,000 pixels (2.7 GB decoded) is refused by its
    header, and a JPEG cut short is refused rather than read with its lower half grey; each
    answer names the file and the reason, which the page shows."""
    w = h = 30_000
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    idat = zlib.compress(bytes(100_000), 9)
    bomb = b"\x89PNG\r\n\x1a\n" + b"".join(
        struct.pack(">I", len(b)) + k + b + struct.pack(">I", zlib.crc32(k + b))
        for k, b in ((b"IHDR", ihdr), (b"IDAT", idat), (b"IEND", b""))
    )
    for url in ("/calibrate/api/photo", "/calibrate/api/colours"):
        r = client.post(url, data={"image": (io.BytesIO(bomb), "bomb.png")})
        assert r.status_code == 400 and r.get_json() == {
            "error": "bad_image",
            "message": "bomb.png: 30000 x 30000 pixels (900 MP) is more than the 268 MP "
            "tabletally decodes",
        }
    ok, jpg = cv2.imencode(".jpg", np.full((200, 300, 3), 128, np.uint8))
    assert ok
    cut = jpg.tobytes()[: len(jpg) * 2 // 3]
    r = client.post("/calibrate/api/colours", data={"image": (io.BytesIO(cut), "line.jpg")})
    assert r.status_code == 400 and r.get_json() == {
        "error": "bad_image",
        "message": "line.jpg: truncated JPEG (no end-of-image marker)",
    }


def test_clicked_corners_store_geometry(client: Client, tmp_path: Path) -> None:
    body = {
        "corners": [[10, 10], [600, 20], [620, 340], [5, 330]],
        "image_size": [640, 360],
        "table_mm": [900, 600],
        "tile_mm": 33,
    }
    r = client.post("/calibrate/api/geometry", json=body)
    assert r.status_code == 200, r.get_json()
    geo = load_profile(tmp_path / "profile.json").geometry
    assert geo is not None and geo.source == "corners" and geo.tile_pitch == 33.0
    tx, ty = geo.image_to_table(620, 340)
    assert abs(tx - 900) < 1e-6 and abs(ty - 600) < 1e-6
    # colours saved afterwards keep the geometry
    client.post("/calibrate/api/colours", data={"image": (_line_png(), "line.png")})
    assert client.post("/calibrate/api/save").status_code == 200
    assert load_profile(tmp_path / "profile.json").geometry == geo
    bad = client.post("/calibrate/api/geometry", json={**body, "corners": [[1, 2]]})
    assert bad.status_code == 400 and bad.get_json()["error"] == "bad_corners"
    r = client.post("/calibrate/api/geometry", data={"image": (_line_png(), "l.png")})
    assert r.status_code == 422 and "markers not found" in r.get_json()["message"]


def test_confirmed_moves_accumulate_until_saved(client: Client, tmp_path: Path) -> None:
    import json

    def post(colours: list[str], seed: int) -> Any:
        img, quads = paint_line([CLASSIC.rgb[c] for c in colours], cast=CASTS["cool"], seed=seed)
        tiles = [{"corners": q.tolist(), "color": c} for q, c in zip(quads, colours, strict=True)]
        return client.post(
            "/calibrate/api/confirm",
            data={"image": (_png(img), "move.png"), "tiles": json.dumps(tiles)},
        )

    r = post(["red", "orange", "yellow"], 1)
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["missing"] == ["green", "blue", "purple"] and r.get_json()["photos"] == 1
    assert client.post("/calibrate/api/save").status_code == 409
    r = post(["green", "blue", "purple"], 2)
    assert r.get_json()["complete"] is True and r.get_json()["photos"] == 2
    assert client.post("/calibrate/api/save").status_code == 200
    assert load_profile(tmp_path / "profile.json").palette.calibrated
    img, quads = paint_line([(236, 121, 176)], seed=3)
    bad = client.post(
        "/calibrate/api/confirm",
        data={
            "image": (_png(img), "m.png"),
            "tiles": json.dumps([{"corners": quads[0].tolist(), "color": "pink"}]),
        },
    )
    assert bad.status_code == 422 and "'pink' is not in the palette" in bad.get_json()["message"]
    r = client.post(
        "/calibrate/api/confirm", data={"image": (_line_png(), "l.png"), "tiles": "[{}]"}
    )
    assert r.status_code == 400 and r.get_json()["error"] == "bad_tiles"
    assert client.post("/calibrate/api/reset").get_json() == {"reset": True}
    assert client.get("/calibrate/api/state").get_json()["pending"] is None


def test_camera_frame_for_calibration(app: Any, client: Client) -> None:
    from webui.games import state

    r = client.get("/calibrate/camera.jpg")
    assert r.status_code == 404 and r.get_json()["error"] == "no_camera_frame"

    class Feed:  # the duck-typed part of a live feed the wizard uses
        game_id = 1
        latest_frame_bgr = paint_line([CLASSIC.rgb[n] for n in CLASSIC.names], seed=9)[0]

        def health(self) -> dict[str, Any]:
            return {"state": "ok"}

        def stop(self) -> None:
            pass

    state(app).live = Feed()  # type: ignore[assignment]
    assert "Use camera frame" in client.get("/calibrate").get_data(as_text=True)
    r = client.get("/calibrate/camera.jpg")
    assert r.status_code == 200 and r.mimetype == "image/jpeg"
    img = cv2.imdecode(np.frombuffer(r.data, np.uint8), cv2.IMREAD_COLOR)
    assert img.shape == Feed.latest_frame_bgr.shape
    r = client.post("/calibrate/api/colours", data={"image": (io.BytesIO(r.data), "cam.jpg")})
    assert r.get_json()["complete"] is True
    state(app).live = None


def test_marker_sheet_download(client: Client) -> None:
    r = client.get("/calibrate/markers.pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    assert r.data.startswith(b"%PDF")


def test_live_classification_with_the_learned_palette(client: Client) -> None:
    render = pytest.importorskip("vision.render")
    pytest.importorskip("vision.detect")
    shapes = list(Shape)
    order = [2, 0, 4, 1, 5, 3]
    line = Board(((0, i), Tile(CLASSIC.names[k], shapes[i])) for i, k in enumerate(order))
    scene = render.Scene(render.PRESETS["warm"], 5, size=(960, 540))
    client.post(
        "/calibrate/api/colours", data={"image": (_png(scene.frame(line).image_bgr), "line.png")}
    )
    board = Board(
        ((r, c), Tile(CLASSIC.names[(r * 3 + c) % 6], shapes[(r + c) % 6]))
        for r in range(2)
        for c in range(4)
    )
    frame = scene.frame(board, t=1.0)
    r = client.post("/calibrate/api/classify", data={"image": (_png(frame.image_bgr), "b.png")})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["profile"] == "pending"
    truth = {(round(t.center_xy[0]), round(t.center_xy[1])): t.tile.color for t in frame.truth}
    right = 0
    for t in body["tiles"]:
        near = min(truth, key=lambda p: (p[0] - t["x"]) ** 2 + (p[1] - t["y"]) ** 2)
        right += truth[near] == t["color"]
    assert len(body["tiles"]) >= 7 and right >= len(body["tiles"]) - 1


@pytest.mark.browser
def test_wizard_in_a_real_browser(page: Any, live_server: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    missing = tmp_path / "missing.png"
    missing.write_bytes(_line_png(missing_purple=True).getvalue())
    # the complete line as an iPhone's HEIC, which Chromium cannot decode: the page has the
    # server convert it
    good = tmp_path / "IMG_0004.HEIC"
    line = cv2.imdecode(np.frombuffer(_line_png().getvalue(), np.uint8), cv2.IMREAD_COLOR)
    good.write_bytes(heic_bytes(line, quality=95))
    page.goto(f"{live_server.url}/calibrate")
    expect(page.locator("#save")).to_be_disabled()
    page.select_option("#order", "palette")
    page.set_input_files("#photo", str(missing))
    expect(page.locator("#message")).to_contain_text("Photo ready")
    page.click("#learn")
    expect(page.locator("#message")).to_contain_text("no clean samples for 'purple'")
    expect(page.locator("#coverage li.missing")).to_have_count(1)
    expect(page.locator("#save")).to_be_disabled()
    with page.expect_response("**/calibrate/api/photo") as converted:
        page.set_input_files("#photo", str(good))
    assert converted.value.status == 200
    expect(page.locator("#message")).to_contain_text("Photo ready")
    page.click("#learn")
    expect(page.locator("#coverage li.ok")).to_have_count(6)
    expect(page.locator("#save")).to_be_enabled()
    page.click("#save")
    expect(page.locator("#message")).to_contain_text("Saved to")
    assert load_profile(tmp_path / "profile.json").palette.calibrated
