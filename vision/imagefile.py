"""Decode an image file's bytes into a BGR array: every still image tabletally reads (``detect``,
``calibrate``, image folders and single-image sources, the calibration page's upload) goes
through :func:`decode_image`, so all of them refuse the same broken files with the same words.

OpenCV decodes JPEG, PNG, BMP, WebP and TIFF, and turns a JPEG by its EXIF orientation. HEIC
(HEIF with HEVC), the default photo format of iPhones since iOS 11, OpenCV cannot read; it is
decoded by libheif through ``pillow-heif``, which applies the file's rotation and mirroring
(``irot`` / ``imir``, where iPhones record how the phone was held) and brings 10-bit photos to 8
bits.

Before anything is decoded, the file's own header is read:

- **Truncated files.** A JPEG or PNG cut short (a copy interrupted, a phone's upload stopped)
  decodes "successfully" with the missing part grey, which would be read as a table with half a
  board. The JPEG's markers and the PNG's chunks are walked to the end of the image; data after
  it is allowed (Google and Samsung "motion photos" append a video after the JPEG's end, and
  an EXIF thumbnail has an end marker of its own, which the walk steps over).
- **Decompression bombs.** A PNG is small when its pixels are alike: 1.2 MB of zeros declaring
  20,000 x 20,000 pixels took 7.4 s and 2.3 GB of memory to decode (measured here). The
  declared size (JPEG ``SOFn``, PNG ``IHDR``, HEIF's ``ispe`` through libheif, Pillow's lazy
  header parsers for the other formats) is checked against :data:`MAX_PIXELS` first, and a
  JPEG above :data:`REDUCE_JPEG_ABOVE` is decoded at 1/2, 1/4 or 1/8 scale by libjpeg itself
  (OpenCV's ``IMREAD_REDUCED_COLOR_*``): a 200 MP phone photo decodes to 150 MB, not 600 MB.
"""

from __future__ import annotations

import re
import struct
import warnings
from io import BytesIO
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np

__all__ = [
    "HEIF_BRANDS",
    "IMAGE_SUFFIXES",
    "MAX_PIXELS",
    "REDUCE_JPEG_ABOVE",
    "ImageError",
    "decode_image",
    "is_heif",
    "read_image",
]

Image = np.ndarray[Any, np.dtype[np.uint8]]
ImageProblem = Literal["empty", "truncated", "too_large", "unreadable"]

#: File name endings of the still images tabletally reads (an image folder's frames).
IMAGE_SUFFIXES: tuple[str, ...] = (
    ".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff", ".heic", ".heif",
)  # fmt: skip

#: ISO BMFF major brands of HEIF files with HEVC-coded images (ISO/IEC 23008-12, annex B):
#: still images (``heic``, ``heix``, ``heim``, ``heis``), image sequences (``hevc``, ``hevx``,
#: ``hevm``, ``hevs``) and the structural brands (``mif1``, ``msf1``) some encoders write first.
HEIF_BRANDS: frozenset[bytes] = frozenset(
    {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs", b"mif1", b"msf1"}
)

#: Largest picture decoded, pixels (2^28, 268 MP: 805 MB as BGR). The largest phone sensors
#: take 200 MP photos (16,320 x 12,240, Samsung's HP2 sensor); OpenCV's own limit is 2^30.
MAX_PIXELS = 1 << 28

#: JPEGs with more pixels are decoded at a reduced scale (the smallest of 1/2, 1/4, 1/8 that
#: brings them under it). 64 MP keeps a 48 MP phone photo at full size; tiles in a photo
#: above it are larger than the detector needs (the issue's range ends at 200 px).
REDUCE_JPEG_ABOVE = 64_000_000

_JPEG_SOI = b"\xff\xd8"
_PNG_SIG = b"\x89PNG\r\n\x1a\n"
#: 0xFF then a marker byte: not a stuffed zero, a restart marker (D0-D7) or more fill (FF)
_JPEG_MARKER = re.compile(rb"\xff[\x01-\xcf\xd8-\xfe]")
#: start-of-frame markers carrying the image size (C4 DHT, C8 JPG and CC DAC are not frames)
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_REDUCED = ((2, cv2.IMREAD_REDUCED_COLOR_2), (4, cv2.IMREAD_REDUCED_COLOR_4),
            (8, cv2.IMREAD_REDUCED_COLOR_8))  # fmt: skip


class ImageError(ValueError):
    """Image bytes that cannot be used. ``str(e)`` is a one-line reason for the user;
    ``problem`` is one of ``empty``, ``truncated``, ``too_large``, ``unreadable`` (the names a
    frame source counts its skipped frames under)."""

    def __init__(self, problem: ImageProblem, message: str):
        super().__init__(message)
        self.problem: ImageProblem = problem


def is_heif(data: bytes) -> bool:
    """True when ``data`` starts like a HEIF file: a ``ftyp`` box whose major brand is one of
    :data:`HEIF_BRANDS` (the file name is not trusted: phones and messengers rename files)."""
    return len(data) >= 12 and data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS


def decode_image(
    data: bytes, *, max_pixels: int = MAX_PIXELS, reduce_jpeg_above: int = REDUCE_JPEG_ABOVE
) -> Image:
    """The image in ``data`` (a whole file's bytes) as ``(H, W, 3) uint8`` BGR, upright.

    Grey and 16-bit files are converted to 8-bit BGR; an alpha channel is dropped. A JPEG over
    ``reduce_jpeg_above`` pixels comes back at the largest of 1/2, 1/4 or 1/8 of its width and
    height that is not over it (1/8 at most).

    Raises:
        ImageError: empty input; a JPEG or PNG cut short; a declared size over ``max_pixels``
            (or a zero one); bytes no decoder reads (unknown format, corrupt data). The caller
            says which file and goes on with the others.
    """
    if not data:
        raise ImageError("empty", "empty file")
    size: tuple[int, int] | None
    if data.startswith(_JPEG_SOI):
        size, complete = _jpeg_walk(data)
        if complete is False:
            raise ImageError("truncated", "truncated JPEG (no end-of-image marker)")
    elif data.startswith(_PNG_SIG):
        size, complete = _png_walk(data)
        if complete is False:
            raise ImageError("truncated", "truncated PNG (no IEND chunk)")
    elif is_heif(data):
        size = _heif_size(data)
    else:
        size = _pillow_size(data, max_pixels)
    if size is not None:
        w, h = size
        if w <= 0 or h <= 0:
            raise ImageError("unreadable", f"the file declares an empty {w} x {h} picture")
        if w * h > max_pixels:
            raise ImageError(
                "too_large",
                f"{w} x {h} pixels ({w * h / 1e6:.0f} MP) is more than the "
                f"{max_pixels / 1e6:.0f} MP tabletally decodes",
            )
    img = _decode_heif(data) if is_heif(data) else _decode_opencv(data, size, reduce_jpeg_above)
    if img is None:
        raise ImageError("unreadable", "not a readable image (unknown format or corrupt data)")
    return img


def read_image(path: str | Path) -> Image:
    """Read an image file as :func:`decode_image` decodes its bytes: ``(H, W, 3)`` uint8 BGR,
    upright (``detect``, ``calibrate``, a single-photo source and an image folder's frames).

    Raises:
        ImageError: the file is missing, a directory or unreadable (problem ``unreadable``),
            or :func:`decode_image` refuses its bytes.
    """
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise ImageError("unreadable", "no such file") from None
    except IsADirectoryError:
        raise ImageError("unreadable", "is a directory, not an image") from None
    except OSError as e:
        raise ImageError("unreadable", f"cannot read ({e.strerror or e})") from None
    except ValueError as e:  # a name no file can have (an embedded NUL byte)
        raise ImageError("unreadable", f"cannot read ({e})") from None
    return decode_image(data)


def _decode_opencv(data: bytes, size: tuple[int, int] | None, reduce_above: int) -> Image | None:
    flags = cv2.IMREAD_COLOR
    if size is not None and data.startswith(_JPEG_SOI) and size[0] * size[1] > reduce_above:
        pixels = size[0] * size[1]
        fits = [f for k, f in _REDUCED if pixels / (k * k) <= reduce_above]
        flags = fits[0] if fits else _REDUCED[-1][1]
    img = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if img is None or img.size == 0:
        return None
    return np.asarray(img, np.uint8)


def _decode_heif(data: bytes) -> Image | None:
    import pillow_heif  # about 0.1 s to import; only when a HEIF file comes

    try:
        heif = pillow_heif.open_heif(data, convert_hdr_to_8bit=True, bgr_mode=True)
        img = np.asarray(heif)
    except (ValueError, RuntimeError, OSError):  # libheif: "Invalid input: ..." and kin
        return None
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    elif img.shape[2] == 4:  # BGRA
        img = img[:, :, :3]
    if img.dtype != np.uint8 or img.size == 0:
        return None
    return np.ascontiguousarray(img)


def _jpeg_walk(data: bytes) -> tuple[tuple[int, int] | None, bool | None]:
    """Walk a JPEG's marker segments and entropy-coded scans (ITU-T T.81, annex B) from SOI
    to the main image's EOI: ``(size from the first SOFn, complete)``. ``complete`` is False
    when the data ends before the EOI, None when the structure is not one this walk
    understands (left to the decoder)."""
    n = len(data)
    pos = 2
    size: tuple[int, int] | None = None
    while True:
        while pos < n and data[pos] == 0xFF and pos + 1 < n and data[pos + 1] == 0xFF:
            pos += 1  # fill bytes before a marker
        if pos + 2 > n:
            return size, False
        if data[pos] != 0xFF:
            return size, None
        marker = data[pos + 1]
        if marker == 0xD9:  # EOI
            return size, True
        if 0xD0 <= marker <= 0xD7 or marker == 0x01:  # standalone markers
            pos += 2
            continue
        if marker in (0x00, 0xD8):
            return size, None
        if pos + 4 > n:
            return size, False
        (length,) = struct.unpack_from(">H", data, pos + 2)
        end = pos + 2 + length
        if length < 2:
            return size, None
        if end > n:
            return size, False
        if marker in _JPEG_SOF and size is None and length >= 7:
            h, w = struct.unpack_from(">HH", data, pos + 5)
            size = (w, h) if h else None  # height 0: given later by a DNL segment
        pos = end
        if marker == 0xDA:  # start of scan: entropy-coded data up to the next marker
            m = _JPEG_MARKER.search(data, pos)
            if m is None:
                return size, False
            pos = m.start()


def _png_walk(data: bytes) -> tuple[tuple[int, int] | None, bool | None]:
    """Walk a PNG's chunks (ISO/IEC 15948, section 5) to ``IEND``: ``(size from IHDR,
    complete)``, ``complete`` as in :func:`_jpeg_walk`."""
    n = len(data)
    pos = len(_PNG_SIG)
    size: tuple[int, int] | None = None
    while True:
        if pos + 8 > n:
            return size, False
        length, kind = struct.unpack_from(">I4s", data, pos)
        if length > 0x7FFFFFFF:
            return size, None
        if size is None:  # the first chunk
            if kind != b"IHDR" or length < 8 or pos + 16 > n:
                return size, None if kind != b"IHDR" else False
            w, h = struct.unpack_from(">II", data, pos + 8)
            size = (w, h)
        if kind == b"IEND":
            return size, pos + 12 <= n  # with its CRC
        pos += 12 + length


def _heif_size(data: bytes) -> tuple[int, int] | None:
    import pillow_heif

    try:  # reads the container's boxes only; the picture is decoded on first access
        w, h = pillow_heif.open_heif(data).size
    except (ValueError, RuntimeError, OSError):
        return None
    return int(w), int(h)


def _pillow_size(data: bytes, max_pixels: int) -> tuple[int, int] | None:
    """The size in the header of a BMP, WebP, TIFF, ... (Pillow parses it lazily, without
    decoding); ``None`` when Pillow cannot parse it. Raises :class:`ImageError` when Pillow
    finds it over twice its own bomb limit (179 MP, below ``max_pixels``: such files are no
    phone's)."""
    from PIL import Image as PILImage

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PILImage.DecompressionBombWarning)
            with PILImage.open(BytesIO(data)) as im:
                w, h = im.size
    except PILImage.DecompressionBombError as e:
        raise ImageError("too_large", f"more pixels than tabletally decodes ({e})") from None
    except Exception:  # any header Pillow cannot parse: OpenCV has the last word
        return None
    return int(w), int(h)
