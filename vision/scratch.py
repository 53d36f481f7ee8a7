"""Per-thread scratch arrays for the detector's large temporaries.

Why: a 1080p ``detect`` allocated about 30 MB of short-lived arrays (ray maps, canvases,
masks). glibc hands blocks of that size back to the kernel when they are freed (``mmap``
above its threshold, heap trimming below it), so every call faulted the same pages in again:
about 7600 minor page faults per call, measured at roughly 2 us each on the 2-core benchmark
machine, i.e. a sixth of the call. Arrays taken from here are allocated once per thread
and name, grown when a larger one is asked for, and reused after.

Rules for callers: a scratch array is only valid until the same thread asks for the same
name again, so it must never escape the function that took it (return copies or derived
arrays, never the buffer itself); its contents are undefined (fill what you read).

Memory: a buffer is kept only up to :data:`MAX_KEEP_BYTES` (larger requests get a fresh
array, as before). Measured per thread that ran ``detect``: 32 MB after a 1080p frame with
100 tiles (33 names, the largest 3.6 MB), 90 MB after 240 hard rendered scenes (640x480 to
1080p) and a 12 MP photo, at most 33 x 6 MB by construction.
"""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np
from numpy.typing import DTypeLike, NDArray

__all__ = ["MAX_KEEP_BYTES", "scratch"]

_LOCAL = threading.local()

#: Largest buffer kept between calls (bytes): a 1080p board's largest temporary fits.
MAX_KEEP_BYTES = 6 * 2**20


def scratch(name: str, shape: tuple[int, ...], dtype: DTypeLike) -> NDArray[Any]:
    """A C-contiguous array of ``shape`` and ``dtype`` backed by this thread's buffer ``name``.

    Args:
        name: the caller's key (one per temporary that is alive at the same time).
        shape: wanted shape.
        dtype: wanted dtype.

    Returns:
        An uninitialised array view; valid until this thread asks for ``name`` again.
    """
    dt = np.dtype(dtype)
    # (math.prod: numpy's reduction costs a few microseconds per call, and a detect asks
    # for over a hundred buffers)
    nbytes = math.prod(int(k) for k in shape) * dt.itemsize
    if nbytes > MAX_KEEP_BYTES:
        return np.empty(shape, dt)
    pool: dict[str, NDArray[np.uint8]] | None = getattr(_LOCAL, "pool", None)
    if pool is None:
        pool = {}
        _LOCAL.pool = pool
    buf = pool.get(name)
    if buf is None or buf.nbytes < nbytes:
        buf = np.empty(max(nbytes, 1), np.uint8)
        pool[name] = buf
    return buf[:nbytes].view(dt).reshape(shape)
