"""Camera processing beyond the renderer's: detection after a phone's or webcam's steps.

The renderer models part of a camera's processing (saturation and a mild unsharp mask on the
gamma-encoded image, noise reduction, chromatic aberration, auto exposure and white balance;
:class:`vision.render.Conditions`). Real cameras do more: HSV saturation boosts, tone curves,
stronger sharpening, lifted shadows, local tone mapping (HDR), uncorrected white balance, a
second JPEG; and their lenses bend straight lines (an uncorrected webcam's barrel distortion).
This benchmark takes the hard benchmark's in-spec scenes
(:func:`benchmarks.bench_vision.hard_scene`) and applies one more processing step at a time
(:data:`PROCESSING`), or draws the scene again exposed more at the sensor (:data:`EXPOSURES`)
or through a distorting lens (:data:`LENSES`; the truth moves with the image), each at a
strength cameras commonly have, then scores detection as the vision benchmark does. A step
that costs much against ``none`` is a weakness the renderer's own numbers hide: the detector
was never tuned on these images.

    python -m benchmarks.bench_camera [--seed 13] [--scenes 60] [--legal] [--steps a,b]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]


def _clip(f: NDArray[np.floating[Any]]) -> Image:
    out: Image = np.clip(f, 0.0, 255.0).astype(np.uint8)
    return out


def _saturation(img: Image, factor: float) -> Image:
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 1] *= factor
    return np.asarray(cv2.cvtColor(_clip(hsv), cv2.COLOR_HSV2BGR), np.uint8)


def _s_curve(img: Image, amount: float) -> Image:
    x = img.astype(np.float32) / 255.0
    return _clip(255.0 * ((3 * x**2 - 2 * x**3) * amount + (1 - amount) * x))


def _sharpen(img: Image) -> Image:
    f = img.astype(np.float32)
    return _clip(f + 1.2 * (f - cv2.GaussianBlur(f, (0, 0), 1.5)))


def _exposure(img: Image, gain: float, gamma: float = 1.0) -> Image:
    return _clip(255.0 * (img.astype(np.float32) / 255.0 * gain) ** gamma)


def _vignette(img: Image) -> Image:
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    return _clip(img.astype(np.float32) * (1 - 0.45 * r2)[..., None])


def _jpeg420(img: Image) -> Image:
    params = [
        cv2.IMWRITE_JPEG_QUALITY,
        70,
        cv2.IMWRITE_JPEG_SAMPLING_FACTOR,
        cv2.IMWRITE_JPEG_SAMPLING_FACTOR_420,
    ]
    ok, buf = cv2.imencode(".jpg", img, params)
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert ok and decoded is not None
    return np.asarray(decoded, np.uint8)


def _chromatic_aberration(img: Image) -> Image:
    h, w = img.shape[:2]
    out = img.copy()
    for ch, scale in ((2, 1.003), (0, 0.997)):
        m = cv2.getRotationMatrix2D((w / 2, h / 2), 0, scale)
        out[..., ch] = cv2.warpAffine(img[..., ch], m, (w, h), borderMode=cv2.BORDER_REFLECT)
    return out


def _local_tone(img: Image, strength: float) -> Image:
    """Local tone mapping, as a phone's HDR mode or a webcam's "WDR" does.

    The log luminance is split into a base layer (a Gaussian over 3 % of the image diagonal:
    the scale of a few tiles, so a board of touching black tiles is one dark region) and
    detail; the base is compressed toward its mean by ``strength`` (0 = off, 1 = flat) and
    the colour follows the luminance's gain (Durand & Dorsey 2002, with the cheaper Gaussian
    base many camera pipelines use: halos at strong edges). Works in linear light (sRGB
    approximated by a 2.2 power). ``img`` BGR uint8 ``(H, W, 3)``; returns the same shape.
    Dark tile bodies are lifted toward grey and bright tables and glare pulled down: the
    body-symbol contrast the detector's dark mask relies on shrinks.
    """
    lin = (img.astype(np.float32) / 255.0) ** 2.2
    y = lin @ np.array([0.0722, 0.7152, 0.2126], np.float32) + 1e-4
    log_y = np.log(y)
    h, w = img.shape[:2]
    base = cv2.GaussianBlur(log_y, (0, 0), 0.03 * float(np.hypot(h, w)))
    mean = float(base.mean())
    gain = np.exp((mean - base) * strength)
    return _clip(255.0 * np.clip(lin * gain[..., None], 0.0, 1.0) ** (1 / 2.2))


def _tint(img: Image) -> Image:
    return _clip(img.astype(np.float32) * np.array([0.9, 1.12, 0.85], np.float32))


#: name -> (step, why). Strengths are those of common phone and webcam processing.
PROCESSING: dict[str, tuple[Callable[[Image], Image], str]] = {
    "none": (lambda img: img, "the rendered image as it is"),
    "saturation_1.2": (
        lambda img: _saturation(img, 1.2),
        "HSV saturation x1.2 (a phone's default look)",
    ),
    "saturation_1.35": (
        lambda img: _saturation(img, 1.35),
        "HSV saturation x1.35 (a phone's vivid mode)",
    ),
    "contrast_curve": (
        lambda img: _s_curve(img, 0.3),
        "per-channel S-shaped tone curve (30 % smoothstep blend)",
    ),
    "vivid": (
        lambda img: _s_curve(_saturation(img, 1.35), 0.5),
        "saturation x1.35, then a strong per-channel S-curve (50 %): an extreme look",
    ),
    "sharpen": (_sharpen, "unsharp mask, radius 1.5 px, amount 1.2 (halos at edges)"),
    "denoise": (
        lambda img: np.asarray(cv2.bilateralFilter(img, 7, 40, 5), np.uint8),
        "edge-preserving noise reduction (smears fine symbol detail)",
    ),
    "underexposed": (
        lambda img: _exposure(img, 0.5, 0.8),
        "one stop under, lifted by a 0.8 gamma (a dim room, auto exposure lagging)",
    ),
    "green_tint": (_tint, "uncorrected white balance under fluorescent light"),
    "local_tone_0.4": (
        lambda img: _local_tone(img, 0.4),
        "local tone mapping 40 % (a webcam's WDR, a phone's mild HDR): shadows lifted",
    ),
    "local_tone_0.7": (
        lambda img: _local_tone(img, 0.7),
        "local tone mapping 70 % (a phone's strong HDR look): black tile bodies turn grey",
    ),
    "vignetting": (_vignette, "corners 45 % darker (a wide phone lens)"),
    "jpeg_420_q70": (_jpeg420, "re-encoded as JPEG quality 70 with 4:2:0 chroma (messaging)"),
    "chromatic_aberration": (
        _chromatic_aberration,
        "lateral chromatic aberration: red and blue scaled +-0.3 % about the centre",
    ),
}


#: name -> (``Conditions.exposure_ev``, why): the scene drawn again with the camera's exposure
#: biased on top of its metering. Over-exposure happens at the sensor: linear light is
#: scaled and clips at the sensor's ceiling before the tone curve, the camera's saturation and
#: sharpening and the JPEG (:attr:`vision.render.Conditions.exposure_ev`). (Until 2026-11-22
#: this was an image step multiplying the finished JPEG's gamma-encoded values by 1.5: a
#: linear-light gain of 1.5 ** 2.2 = 2.44, 1.3 stops rather than the half stop it was
#: described as, clipped after the camera's processing and JPEG instead of before.)
EXPOSURES: dict[str, tuple[float, str]] = {
    "overexposed": (
        1.0,
        "one stop over at the sensor (a meter fooled by a dark table and black tiles): "
        "bright paints clip before the tone curve and the JPEG",
    ),
}


#: name -> (``Conditions.lens_k1``, why): the scene drawn again through a lens with radial
#: distortion. Webcam calibrations (OpenCV's model) give k1 about -0.1 to -0.35 for wide
#: lenses; phones correct theirs in the processor.
LENSES: dict[str, tuple[float, str]] = {
    "lens_barrel_0.12": (-0.12, "barrel distortion k1 = -0.12 (a webcam's lens, uncorrected)"),
    "lens_barrel_0.3": (-0.3, "barrel distortion k1 = -0.3 (a wide-angle webcam, uncorrected)"),
}


def _score_scene(job: tuple[int, int, bool, list[str]]) -> list[tuple[str, Any]]:
    from dataclasses import replace

    from benchmarks.bench_vision import hard_scene
    from scorer.model import Board
    from vision.detect import detect
    from vision.evaluate import legal_board, random_board, score_detection
    from vision.render import barrel_limit, render

    seed, k, legal, steps = job
    hard = hard_scene(seed, k, legal_board if legal else random_board)
    scene = hard.final
    out = []
    for name in steps:
        if name in EXPOSURES:  # drawn again (the same seed: the same scene), exposed more
            board = Board({t.pos: t.tile for t in scene.truth})
            cond = replace(hard.cond, exposure_ev=EXPOSURES[name][0])
            over = render(board, cond, seed=seed * 1000 + k, size=hard.size)
            out.append((name, score_detection(detect(over.image_bgr), over.truth, over.pitch_px)))
            continue
        if name in LENSES:  # drawn again (the same seed: the same scene) through the lens
            board = Board({t.pos: t.tile for t in scene.truth})
            # a lens this strong on a view this wide would fold the corners: capped where the
            # radial map's slope at the corner is 0.4 (the corners stretched 2.5x)
            cap = barrel_limit(hard.cond.fov_deg, hard.size, corner_slope=0.4)
            cond = replace(hard.cond, lens_k1=max(LENSES[name][0], cap))
            bent = render(board, cond, seed=seed * 1000 + k, size=hard.size)
            out.append((name, score_detection(detect(bent.image_bgr), bent.truth, bent.pitch_px)))
            continue
        img = PROCESSING[name][0](scene.image_bgr)
        out.append((name, score_detection(detect(img), scene.truth, scene.pitch_px)))
    return out


def main(argv: list[str]) -> dict[str, Any]:
    ap = argparse.ArgumentParser(prog="bench_camera", description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=13, help="hard benchmark seed (default 13)")
    ap.add_argument("--scenes", type=int, default=60, help="scenes (default 60)")
    ap.add_argument("--legal", action="store_true", help="legal boards instead of random ones")
    ap.add_argument(
        "--steps",
        default=",".join([*PROCESSING, *EXPOSURES, *LENSES]),
        help="comma-separated steps",
    )
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    args = ap.parse_args(argv)
    steps = [s for s in args.steps.split(",") if s]
    known = {**PROCESSING, **EXPOSURES, **LENSES}
    unknown = [s for s in steps if s not in known]
    if unknown:
        raise SystemExit(f"bench_camera: unknown step(s) {', '.join(unknown)}")
    t0 = time.perf_counter()
    jobs = [(args.seed, k, args.legal, steps) for k in range(args.scenes)]
    totals: dict[str, Any] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for scores in pool.map(_score_scene, jobs):
            for name, sc in scores:
                totals[name] = sc if name not in totals else totals[name] + sc
    results: dict[str, Any] = {
        "seed": args.seed,
        "scenes": args.scenes,
        "boards": "legal" if args.legal else "random",
    }
    for name in steps:
        sc = totals[name]
        results[name] = {
            "what": known[name][1],
            "recall_pct": round(100 * sc.recall, 2),
            "precision_pct": round(100 * sc.precision, 2),
            "identity_pct": round(100 * sc.identity, 2),
            "boards_exact_pct": round(100 * sc.exact / max(sc.images, 1), 1),
            "worst_confusions": [
                f"{a}->{b} {n}" for (a, b), n in sc.confusions.most_common(4) if a != b
            ],
        }
    results["wall_s"] = round(time.perf_counter() - t0, 1)
    return results


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(main(sys.argv[1:]), indent=2))
