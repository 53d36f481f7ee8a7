"""Image files checked by their own headers before decoding (``vision.imagefile``): files cut
short are refused wherever they are cut, data after the image (motion photos) is not, and a
declared size over the limit is refused without being decoded. Files are real encoder output
(OpenCV's libjpeg and libpng, Pillow), cut or extended byte by byte."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image as PILImage

from tests.vision.test_imagefile import heic_bytes
from vision.imagefile import MAX_PIXELS, ImageError, decode_image
from vision.sources import FrameSource, SourceError, SourceSettings, source_kind


def _picture(seed: int, h: int = 96, w: int = 128) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = cv2.GaussianBlur(rng.integers(0, 256, (h, w, 3), dtype=np.uint8), (0, 0), 2)
    img[: h // 3, : w // 3] = (0, 0, 255)  # a red block top-left, to see orientation
    return img


def _jpeg(img: np.ndarray, *params: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90, *params])
    assert ok
    return buf.tobytes()


def _with_exif_thumbnail(main: bytes, thumb: bytes) -> bytes:
    """``main`` with an APP1 segment after its SOI that holds a whole JPEG (as an EXIF
    thumbnail does): its own SOI ... EOI sits near the start of the file."""
    payload = b"Exif\x00\x00" + thumb
    return main[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + main[2:]


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _bomb_png(w: int, h: int) -> bytes:
    """A small PNG whose IHDR declares ``w`` x ``h`` RGB pixels (100 kB of zeros, compressed:
    far fewer than declared, so no decoder could finish it anyway)."""
    rows = zlib.compress(bytes(100_000), 9)
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", ihdr)
        + _png_chunk(b"IDAT", rows)
        + _png_chunk(b"IEND", b"")
    )


JPEG_KINDS = {
    "baseline": lambda img: _jpeg(img),
    "progressive": lambda img: _jpeg(img, cv2.IMWRITE_JPEG_PROGRESSIVE, 1),
    "restart markers": lambda img: _jpeg(img, cv2.IMWRITE_JPEG_RST_INTERVAL, 2),
    "exif thumbnail": lambda img: _with_exif_thumbnail(_jpeg(img), _jpeg(img[::8, ::8])),
}


@pytest.mark.parametrize("kind", list(JPEG_KINDS))
def test_a_jpeg_cut_anywhere_is_truncated_and_whole_it_decodes(kind: str) -> None:
    img = _picture(1)
    data = JPEG_KINDS[kind](img)
    whole = decode_image(data)
    assert whole.shape == img.shape
    assert float(np.abs(whole.astype(int) - img.astype(int)).mean()) < 6
    # every cut from just after the headers to one byte short of the end; the old check (an
    # end marker in the second half) let a cut inside the last half through when the cut
    # happened to follow an FF D9 pair, and the thumbnail's end marker fooled the folder's
    for cut in range(40, len(data) - 1, 7):
        with pytest.raises(ImageError, match="truncated JPEG") as e:
            decode_image(data[:cut])
        assert e.value.problem == "truncated", cut
    with pytest.raises(ImageError, match="truncated JPEG"):
        decode_image(data[:-1])


def test_data_after_a_jpeg_is_allowed_as_in_motion_photos() -> None:
    """Google's and Samsung's motion photos are a JPEG with an MP4 appended after its end
    marker; the MP4 may be larger than the photo and end in any bytes."""
    img = _picture(2)
    clip = b"\x00\x00\x00\x18ftypmp42" + np.random.default_rng(2).bytes(40_000)
    got = decode_image(_jpeg(img) + clip)
    assert got.shape == img.shape
    assert decode_image(_jpeg(img) + b"\x00" * 300).shape == img.shape  # padding, too


def test_a_png_cut_anywhere_is_truncated_and_data_after_it_is_allowed() -> None:
    img = _picture(3)
    ok, buf = cv2.imencode(".png", img)
    assert ok
    data = buf.tobytes()
    assert np.array_equal(decode_image(data), img)
    assert np.array_equal(decode_image(data + b"trailing bytes"), img)
    for cut in [*range(9, 60), *range(60, len(data), 97), len(data) - 1]:
        with pytest.raises(ImageError, match="truncated PNG") as e:
            decode_image(data[:cut])
        assert e.value.problem == "truncated", cut


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("PNG 30,000 x 30,000", _bomb_png(30_000, 30_000)),
        ("PNG 2^31-1 x 2", _bomb_png(2**31 - 1, 2)),
    ],
)
def test_a_declared_size_over_the_limit_is_refused_before_decoding(name: str, data: bytes) -> None:
    """A PNG of a few kB declaring 900 MP (2.7 GB as BGR): refused by its IHDR. Its picture
    data is cut short, so a decoder reaching it would have said "not a readable image"."""
    assert len(data) < 200_000, name
    with pytest.raises(ImageError, match=r"pixels \(\d+ MP\) is more than the 268 MP") as e:
        decode_image(data)
    assert e.value.problem == "too_large"


def test_the_limit_applies_to_every_format() -> None:
    img = _picture(4)
    for ext in (".jpg", ".png", ".bmp", ".webp", ".tiff"):
        ok, buf = cv2.imencode(ext, img)
        assert ok
        with pytest.raises(ImageError, match="more than the 0 MP") as e:
            decode_image(buf.tobytes(), max_pixels=img.shape[0] * img.shape[1] - 1)
        assert e.value.problem == "too_large", ext
        assert decode_image(buf.tobytes(), max_pixels=img.shape[0] * img.shape[1]).shape == (
            img.shape
        )
    heic = heic_bytes(img)
    with pytest.raises(ImageError, match=r"^128 x 96 pixels \(0 MP\) is more than") as e:
        decode_image(heic, max_pixels=1000)
    assert e.value.problem == "too_large"
    # a BMP whose header declares 20,000 x 20,000 (Pillow's parser refuses it as a bomb)
    header = b"BM" + struct.pack("<IHHI", 54, 0, 0, 54)
    header += struct.pack("<IiiHHIIiiII", 40, 20_000, 20_000, 1, 24, 0, 0, 0, 0, 0, 0)
    with pytest.raises(ImageError) as e:
        decode_image(header + bytes(64))
    assert e.value.problem == "too_large"
    assert MAX_PIXELS >= 16_320 * 12_240  # a 200 MP phone photo is not refused


def test_a_very_large_jpeg_is_decoded_reduced_and_upright() -> None:
    """Over ``reduce_jpeg_above`` pixels, libjpeg decodes at 1/2, 1/4 or 1/8 scale (the limit
    is 64 MP; a small one here keeps the test's memory small). EXIF orientation still holds."""
    img = _picture(5, 240, 320)
    data = _jpeg(img)
    px = 240 * 320
    assert decode_image(data, reduce_jpeg_above=px).shape == (240, 320, 3)
    assert decode_image(data, reduce_jpeg_above=px - 1).shape == (120, 160, 3)
    assert decode_image(data, reduce_jpeg_above=px // 4 - 1).shape == (60, 80, 3)
    assert decode_image(data, reduce_jpeg_above=10).shape == (30, 40, 3)  # 1/8 at most
    half = decode_image(data, reduce_jpeg_above=px // 2)
    want = cv2.resize(img, (160, 120), interpolation=cv2.INTER_AREA)
    assert float(np.abs(half.astype(int) - want.astype(int)).mean()) < 8
    # turned by its EXIF orientation (6: the phone held upright) after reducing
    exif = PILImage.Exif()
    exif[0x0112] = 6
    out = io.BytesIO()
    PILImage.fromarray(img[:, :, ::-1]).save(out, "JPEG", quality=90, exif=exif)
    turned = decode_image(out.getvalue(), reduce_jpeg_above=px // 2)
    assert turned.shape == (160, 120, 3)
    red = (turned[..., 2] > 180) & (turned[..., 0] < 80)
    ys, xs = np.nonzero(red)
    assert xs.mean() > 80 and ys.mean() < 40  # the sensor's top-left is now top-right


def test_a_single_photo_is_a_source_of_one_upright_frame(tmp_path: Path) -> None:
    """``serve --camera IMG_0042.HEIC`` or ``replay photo.jpg``: one frame, read like a folder's
    (FFmpeg opened a lone JPEG as a video, sideways, and could not open HEIC at all)."""
    img = _picture(6, 120, 160)
    sensor = cv2.rotate(img, cv2.ROTATE_90_COUNTERCLOCKWISE)  # a phone held upright
    exif = PILImage.Exif()
    exif[0x0112] = 6
    jpg = tmp_path / "portrait.JPG"
    PILImage.fromarray(sensor[:, :, ::-1]).save(jpg, "JPEG", quality=92, exif=exif)
    heic = tmp_path / "IMG_0042.HEIC"
    heic.write_bytes(heic_bytes(sensor, orientation=6))
    for path in (jpg, heic):
        assert source_kind(path) == "image"
        with FrameSource(path, SourceSettings()) as src:
            frames = list(src)
            health = src.health()
        assert [f.name for f in frames] == [path.name] and src.frame_count == 1
        assert frames[0].image_bgr.shape == img.shape
        assert float(np.abs(frames[0].image_bgr.astype(int) - img.astype(int)).mean()) < 8
        assert health.state == "ended" and health.frames == 1 and not health.skipped
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(jpg.read_bytes()[:500])
    with pytest.raises(SourceError, match=r"cut\.jpg: truncated JPEG"):
        FrameSource(cut, SourceSettings())
    with pytest.raises(SourceError, match="no such file"):
        FrameSource(tmp_path / "missing.jpg", SourceSettings())


def test_a_folder_reads_motion_photos_and_counts_oversized_files(tmp_path: Path) -> None:
    img = _picture(7, 120, 160)
    (tmp_path / "a.jpg").write_bytes(_jpeg(img) + b"\x00\x00\x00\x18ftypmp42" + bytes(5000))
    (tmp_path / "b.png").write_bytes(_bomb_png(30_000, 30_000))
    (tmp_path / "c.jpg").write_bytes(JPEG_KINDS["exif thumbnail"](img)[:-300])
    (tmp_path / "d.png").write_bytes(b"")
    with FrameSource(tmp_path, SourceSettings()) as src:
        frames = list(src)
        health = src.health()
    assert [f.name for f in frames] == ["a.jpg"]
    assert health.skipped == {"too_large": 1, "truncated": 1, "unreadable": 1}
