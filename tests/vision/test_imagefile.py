"""Image files: iPhones' HEIC read like JPEGs everywhere tabletally reads a still (``detect``,
``calibrate``, image folders), upright, with the same per-file errors; files are real HEIF
encoded by libheif (x265) and decoded back by libheif, not mocked."""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
import numpy as np
import pillow_heif
import pytest
from PIL import Image as PILImage

from vision.evaluate import random_board
from vision.imagefile import ImageError, decode_image, is_heif
from vision.render import PRESETS, render
from vision.sources import FrameSource, SourceSettings
from webui.cli import main


def heic_bytes(bgr: np.ndarray, *, quality: int = 90, orientation: int | None = None) -> bytes:
    """``bgr`` ``(H, W, 3) uint8`` as a HEIC file; ``orientation`` is the EXIF tag a phone
    writes for how it was held (libheif stores it as the file's rotation)."""
    h, w = bgr.shape[:2]
    heif = pillow_heif.from_bytes(mode="BGR", size=(w, h), data=np.ascontiguousarray(bgr).tobytes())
    kw = {}
    if orientation is not None:
        exif = PILImage.Exif()
        exif[0x0112] = orientation
        kw["exif"] = exif.tobytes()
    out = io.BytesIO()
    heif.save(out, quality=quality, **kw)
    return out.getvalue()


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    d = tmp_path_factory.mktemp("heic")
    r = render(random_board(np.random.default_rng(34), 14), PRESETS["easy"], seed=34)
    png = d / "board.png"
    assert cv2.imwrite(str(png), r.image_bgr)
    heic = d / "IMG_0034.HEIC"
    heic.write_bytes(heic_bytes(r.image_bgr))
    return {"dir": d, "image": r.image_bgr, "png": png, "heic": heic}


def test_heic_decodes_to_the_same_picture_as_the_original(scene: dict[str, object]) -> None:
    original = scene["image"]
    assert isinstance(original, np.ndarray) and isinstance(scene["heic"], Path)
    data = scene["heic"].read_bytes()
    assert is_heif(data) and not is_heif(Path(str(scene["png"])).read_bytes())
    img = decode_image(data)
    assert img.dtype == np.uint8 and img.shape == original.shape
    # HEVC at quality 90 and 4:2:0 chroma: close to the original, not equal to it
    diff = np.abs(img.astype(np.int16) - original.astype(np.int16))
    assert float(diff.mean()) < 4.0 and float(np.percentile(diff, 99)) < 40
    # the channels are in BGR order, as OpenCV's decoders give them
    for c in range(3):
        assert np.corrcoef(img[..., c].ravel(), original[..., c].ravel())[0, 1] > 0.97


def test_detect_reads_a_heic_photo_as_its_png(
    scene: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["detect", str(scene["png"]), str(scene["heic"]), "--json"])
    assert code == 0
    png, heic = json.loads(capsys.readouterr().out)
    assert len(png["tiles"]) >= 13 and len(heic["tiles"]) == len(png["tiles"])
    for t in heic["tiles"]:  # each tile where the PNG has it, read the same
        near = [u for u in png["tiles"] if abs(u["x"] - t["x"]) < 3 and abs(u["y"] - t["y"]) < 3]
        assert len(near) == 1, (t, png["tiles"])
        assert (near[0]["color"], near[0]["shape"]) == (t["color"], t["shape"])


@pytest.mark.parametrize(
    ("orientation", "turn"),
    [(6, cv2.ROTATE_90_CLOCKWISE), (3, cv2.ROTATE_180), (8, cv2.ROTATE_90_COUNTERCLOCKWISE)],
)
def test_a_photo_taken_with_the_phone_turned_comes_out_upright(orientation: int, turn: int) -> None:
    """An iPhone stores the sensor's picture and how the phone was held; the decoded image is
    the picture as the user saw it (EXIF orientation 6: turn 90° clockwise to view)."""
    rng = np.random.default_rng(orientation)
    sensor = cv2.GaussianBlur(rng.integers(0, 256, (120, 200, 3), dtype=np.uint8), (0, 0), 3)
    sensor[:30, :50] = (0, 0, 255)  # a red block in the sensor's top-left corner
    img = decode_image(heic_bytes(sensor, orientation=orientation))
    upright = cv2.rotate(sensor, turn)
    assert img.shape == upright.shape
    assert float(np.abs(img.astype(np.int16) - upright.astype(np.int16)).mean()) < 6.0


def test_broken_heic_files_are_one_line_errors_and_the_others_still_read(
    scene: dict[str, object], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = Path(str(scene["heic"])).read_bytes()
    cut = tmp_path / "cut.heic"
    cut.write_bytes(data[: len(data) // 2])
    head = tmp_path / "head.heic"
    head.write_bytes(data[:16])  # a HEIF signature and nothing more
    mp4 = tmp_path / "clip.heic"  # an ISO BMFF file that is no HEIF (an MP4's ftyp)
    mp4.write_bytes(b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2" + bytes(64))
    for broken in (cut, mp4):
        with pytest.raises(ImageError, match="not a readable image") as e:
            decode_image(broken.read_bytes())
        assert e.value.problem == "unreadable"
    code = main(["detect", str(cut), str(scene["heic"]), str(head), str(mp4), "--json"])
    assert code == 1
    out = json.loads(capsys.readouterr().out)
    assert [o["image"] for o in out] == [str(cut), str(scene["heic"]), str(head), str(mp4)]
    for o in (out[0], out[2], out[3]):
        assert o["error"] == "not a readable image (unknown format or corrupt data)"
    assert len(out[1]["tiles"]) >= 13


def test_a_folder_of_heic_photos_is_a_frame_source(
    scene: dict[str, object], tmp_path: Path
) -> None:
    heic = Path(str(scene["heic"])).read_bytes()
    (tmp_path / "a.heic").write_bytes(heic)
    (tmp_path / "b.HEIF").write_bytes(heic)
    (tmp_path / "c.jpg").write_bytes(heic)  # renamed on the way; the content decides
    (tmp_path / "d.heic").write_bytes(heic[:100])  # cut short: skipped, counted
    src = FrameSource(tmp_path, SourceSettings())
    try:
        frames = list(src)  # every frame until the folder ends
    finally:
        src.close()
    assert [f.name for f in frames] == ["a.heic", "b.HEIF", "c.jpg"]
    assert all(f.image_bgr.shape == np.asarray(scene["image"]).shape for f in frames)
    assert src.health().skipped == {"unreadable": 1}
