"""Decode an image file's bytes into a BGR array: every still image tabletally reads (``detect``,
``calibrate``, image-folder sources, the calibration page's upload) goes through
:func:`decode_image`.

OpenCV decodes JPEG, PNG, BMP, WebP and TIFF, and turns a JPEG by its EXIF orientation. HEIC
(HEIF with HEVC), the default photo format of iPhones since iOS 11, OpenCV cannot read; it is
decoded by libheif through ``pillow-heif``, which applies the file's rotation and mirroring
(``irot`` / ``imir``, where iPhones record how the phone was held) and brings 10-bit photos to 8
bits.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

__all__ = ["HEIF_BRANDS", "IMAGE_SUFFIXES", "decode_image", "is_heif"]

Image = np.ndarray[Any, np.dtype[np.uint8]]

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


def is_heif(data: bytes) -> bool:
    """True when ``data`` starts like a HEIF file: a ``ftyp`` box whose major brand is one of
    :data:`HEIF_BRANDS` (the file name is not trusted: phones and messengers rename files)."""
    return len(data) >= 12 and data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS


def decode_image(data: bytes) -> Image | None:
    """The image in ``data`` (a whole file's bytes) as ``(H, W, 3) uint8`` BGR, upright.

    Grey and 16-bit files are converted to 8-bit BGR; an alpha channel is dropped. Returns
    ``None`` when the bytes are no image either decoder can read (unknown format, corrupt or
    truncated data, empty input): the caller says which file and goes on with the others.
    """
    if not data:
        return None
    if is_heif(data):
        return _decode_heif(data)
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
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
