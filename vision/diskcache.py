"""Arrays the detector draws once per machine instead of once per process.

The shape templates (:func:`vision.shapes._template_bank`, :func:`vision.shapes._prototypes`,
``_grey_prototypes``, ``_apparent_blur``, :func:`vision.shapes.prototype_areas`) are drawn from
the prototype geometry, antialiased and blurred at every level the detector compares with:
about 120 ms of the first ``detect`` in a process (``tabletally detect photo.jpg`` pays it on
every call; a live camera or ``replay`` once). :func:`disk_cached` keeps them in ``.npz``
files, read back in about 12 ms.

A file's name is a hash of everything the arrays depend on: the function, its arguments, the
source of the module that draws them, and the OpenCV and NumPy versions (their antialiasing and
blur). Editing the module or upgrading either library makes new files, so a stale array is
never read. A file that cannot be read (cut short by a crash, another version's) is drawn again
and replaced; a cache directory that cannot be written leaves the arrays drawn per process.
Files are written to a temporary name and renamed, so two processes starting together do not
read each other's half-written file. Each function keeps its :data:`KEEP` most recently used
files (a read marks a file used), so upgrades do not pile up old templates.

The directory is :func:`cache_dir`, which the demo video shares: ``$TABLETALLY_CACHE``, else
``$XDG_CACHE_HOME/tabletally``, else ``~/.cache/tabletally``. The arrays take about 6 MB.

(A general caching library such as ``joblib.Memory`` takes longer to import than the ~90 ms
saved, and hashes only the decorated function's own code, not the helpers that draw with it.)
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import cv2
import numpy as np

__all__ = ["KEEP", "cache_dir", "disk_cached"]

#: Files kept per cached function: the settings in use, with room for a few others (tests and
#: benchmarks try other patch sizes).
KEEP = 8

F = TypeVar("F", bound=Callable[..., Any])


def cache_dir() -> Path:
    """``$TABLETALLY_CACHE``, else ``$XDG_CACHE_HOME/tabletally`` (default
    ``~/.cache/tabletally``): tabletally's files that can be made again (the demo video, the
    shape templates)."""
    env = os.environ.get("TABLETALLY_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tabletally"


@functools.cache
def _module_digest(module: str) -> str:
    """SHA-256 of a module's source file (``""`` when it has none, e.g. a frozen build)."""
    path = getattr(sys.modules.get(module), "__file__", None)
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest() if path else ""
    except OSError:
        return ""


def _key(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    text = repr(
        (
            fn.__module__,
            fn.__qualname__,
            args,
            sorted(kwargs.items()),
            _module_digest(fn.__module__),
            cv2.__version__,
            np.__version__,
        )
    )
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _read(path: Path) -> Any:
    with np.load(path, allow_pickle=False) as f:
        n = int(f["n"])
        arrays = [np.asarray(f[f"a{i}"]) for i in range(max(n, 1))]
    for a in arrays:
        a.setflags(write=False)
    return arrays[0] if n == 0 else tuple(arrays)


def _write(folder: Path, path: Path, value: Any) -> None:
    arrays = list(value) if isinstance(value, tuple) else [value]
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=path.stem, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            np.savez(
                out,
                n=np.int64(len(arrays) if isinstance(value, tuple) else 0),
                **{f"a{i}": a for i, a in enumerate(arrays)},
            )
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _prune(folder: Path, name: str) -> None:
    """Delete all but the :data:`KEEP` most recently used files of function ``name``."""
    files = []
    for f in folder.glob(f"{name}-*.npz"):
        with contextlib.suppress(OSError):  # another process may prune at the same time
            files.append((f.stat().st_mtime, f))
    for _, f in sorted(files, reverse=True)[KEEP:]:
        with contextlib.suppress(OSError):
            f.unlink()


def disk_cached(fn: F) -> F:
    """Keep ``fn``'s result on disk, keyed by its arguments and code (module docstring).

    ``fn`` must be deterministic and return an ndarray or a tuple of ndarrays; its arguments
    must have a stable ``repr`` (numbers, strings, tuples of them). Returned arrays are
    read-only, whether read from disk or just drawn, so a caller cannot change a cached value.
    """

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        folder = cache_dir()
        path = folder / f"{fn.__name__}-{_key(fn, args, kwargs)}.npz"
        if path.is_file():
            try:
                value = _read(path)
            except Exception:  # cut short, not a zip, a key missing: drawn again, replaced
                pass
            else:
                with contextlib.suppress(OSError):
                    os.utime(path)  # used now: the last to be pruned
                return value
        value = fn(*args, **kwargs)
        for a in value if isinstance(value, tuple) else (value,):
            a.setflags(write=False)
        with contextlib.suppress(OSError):  # a read-only or full disk: drawn per process
            _write(folder, path, value)
            _prune(folder, fn.__name__)
        return value

    return cast(F, wrapper)
