"""Symbol shapes: canonical prototypes and a rotation-aware radial-profile classifier.

A Qwirkle symbol is read in the *tile's own frame*: the tile top is rectified to a square patch
(edges horizontal and vertical), so square vs diamond and clover vs star4 - which differ only by
45 degrees - are told apart by where the symbol's extremities point relative to the tile edges.

The feature is the symbol's **radial profile**: the outline's distance from the symbol centroid
sampled in ``bins`` equal angle sectors, divided by its mean (so it does not depend on the
symbol's size or on how much the threshold grew or shrank it). It is compared with the profiles
of analytic prototypes drawn from the physical tile design, each at a few blur levels so
soft, small or defocused symbols still match (the radial-signature / "centroid distance" shape
descriptor, e.g. Zhang & Lu, "Review of shape representation and description techniques",
Pattern Recognition 37 (2004), section 3.1).

Blur (defocus, motion, small tiles) rounds a diamond's tips and fills a clover's notches and a
star8's valleys, so the binary outline alone confuses those pairs. The classifier therefore
also reads the grey symbol - in linear light (:func:`linear_light_scores`: blur mixes light
before the camera's sRGB encoding bends it) - by correlation with blurred grey prototypes
(:func:`template_scores`), by its threshold-free radial profile (:func:`integrated_profiles`)
and by that profile's 8th angular harmonic in the symbol's own 4-fold frame
(:func:`notch_harmonic`), whose sign tells straight flanks (diamond, square) from lobes and
notches (clover) and which blur shrinks without flipping while anything is left of it.
Cameras keep colour at a lower resolution than brightness, so the detector sharpens that share
of light with the patch's luma as guide (:func:`luma_guided_mix`) before the grey terms read it.

Prototype geometry (fractions of the tile side, measured on a classic set: symbol about 60-70 %
of a 30 mm tile): circle radius 0.30; square half-side 0.25, edges parallel to the tile's;
diamond the square turned 45 degrees; clover four lobes pointing at the tile edges (the "+"-like
shape of RULES.md); star4 four points towards the tile corners with inward-curving flanks (the
"criss-cross"; its grey templates also come in a wider printing, ``ShapeSettings.star4_wide``);
star8 eight points, one towards each edge and corner.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

import cv2
import numpy as np
from numpy.typing import NDArray

from scorer.model import Shape
from vision.diskcache import disk_cached
from vision.scratch import scratch

__all__ = [
    "SHAPE_ORDER",
    "ShapeSettings",
    "classify_profile",
    "classify_profiles",
    "edge_blur",
    "integrated_distances",
    "integrated_profiles",
    "linear_light_mix",
    "linear_light_scores",
    "luma_detail_mix",
    "luma_guided_mix",
    "notch_distances",
    "notch_harmonic",
    "outline_distances",
    "prototype_areas",
    "prototype_mask",
    "prototype_perimeters",
    "radial_profile",
    "radial_profiles",
    "shape_confidences",
    "shape_polygon",
    "single_thread_matmul",
    "size_consistency",
    "template_scores",
]

#: Order of shapes in score vectors.
SHAPE_ORDER: tuple[Shape, ...] = (
    Shape.CIRCLE,
    Shape.SQUARE,
    Shape.DIAMOND,
    Shape.CLOVER,
    Shape.STAR4,
    Shape.STAR8,
)


@dataclass(frozen=True)
class ShapeSettings:
    """Thresholds of the shape classifier.

    Attributes:
        bins: angular sectors of the radial profile. 72 (5 degrees) resolves the 8 points of a
            star8 (45 degrees apart) with margin; more bins only add noise on small symbols.
        max_shift_bins: the profile may be turned by up to this many sectors against a
            prototype (tiles are laid a few degrees off their neighbours and the rectification
            is not perfect): 2 x 5 = 10 degrees, far below the 45 degrees that separate
            square/diamond and clover/star4.
        star8_shift_bins: the same for the star8 prototype (sectors). Its points repeat every
            45 degrees (9 sectors), so 4 sectors either side reach every turn to within half
            a sector, and no turn makes a star8 look like another symbol. The patch is turned
            with the tile's measured edges (``DetectorSettings.max_tile_turn_deg``), which on
            small or blurred tiles leaves symbols up to about 15 degrees off the patch's axes
            (5-95 % of clean star8s on the cached hard renders: -11 .. +10 degrees); a star8
            15 degrees off reads as a circle against a prototype allowed only 10 (two crisp
            yellow star8s of the random-board set did).
        proto_blur: Gaussian blur sigmas (fractions of the tile side) at which prototypes are
            drawn and re-thresholded at half height, as the detector does with the image's
            symbols (blurred by optics, motion and down-scaling). Blur rounds a diamond's
            points and fills a clover's notches, so a blurred symbol is compared with
            prototypes blurred about as much (``blur_window``).
        blur_window: when the symbol's own blur is measured, only prototypes whose blur is
            within this of it (fraction of the tile side) are compared (at least the nearest
            level).
        blur_gate_apparent: for these shapes that window is taken around the blur the
            detector's edge estimator (:func:`edge_blur`) reads on the prototype at each
            level, not around the level's sigma (:func:`_apparent_blur`). The estimator reads
            thin points as blurrier than they are (at sigma 0.04 and 0.06 a star4 reads
            0.059 and 0.092, a star8 0.054 and 0.081, the other four 0.044-0.045 and
            0.065-0.067), so a cross measured at 0.09 was compared only with the 0.08
            prototype, rounded to a solidity of 0.975 against its own 0.55, and failed the
            outline bound: on the 29 cached sets (2026-11-22, ninth session), 52 of the
            missed tiles not under a hand were crosses that failed only the outline test
            even read at their true corners. With the star4 gated so: missed tiles on the 25
            tuning sets 553 -> 530, false 257 -> 252, misread 720 -> 721 (seed 31: 112 ->
            105, 90 -> 92, 171 -> 167). The star8 too gained no tile and cost 10 misreads
            (star8 read as circle 31 -> 40: its eight points fill in under blur, so the
            sharper prototypes the gate then allows are too pointed), so it keeps its sigma.
        solidity_weight: weight of the solidity difference (area / convex-hull area) added
            to the profile distance; solidity separates convex shapes (circle, square,
            diamond: ~1) from lobed or pointed ones (clover ~0.85, star8 ~0.75, star4 ~0.5)
            whose profiles blur towards a convex one on small symbols.
        peak_weight: weight of the difference in :func:`axis_peakedness` (pointed diamond
            tips against round clover lobes, the pair blur confuses most).
        sigma: scale of the combined distance in the softmax that turns distances into
            confidences; measured spread of the distance of correctly read symbols on
            rendered scenes is about 0.02-0.05. The grey terms' weights scale the combined
            distance, so this follows them: with ``template_weight`` 4-5 (from 3) at 0.035
            the rule check (:mod:`vision.rulecheck`), which weighs confidences against the
            lines' legality, settled fewer unsure tiles (identity errors on the ten cached
            legal-board sets 126 -> 135 at 5); at 0.045 / 0.05 with 4 / 5, 115 / 118. It
            also sets how much ``size_consistency`` weighs against the shape terms.
        template_weight: weight of ``1 - correlation`` of the grey symbol with blurred grey
            prototypes (:func:`template_scores`), added in quadrature to the outline
            distance for the confidences. Blur moves the half-height outline of a clover
            towards a diamond's while the grey levels keep part of the difference: measured
            on rendered hard scenes, the correlation alone tells clover from diamond in
            88 / 92 % of tiles, the outline in 81 / 94 %, but the correlation's gaps are
            small (about 0.003), so it needs a larger weight than the outline's to count.
            Identity on the hard benchmark with weights 0 / 1 / 2 / 3 / 5: 88.4 / 90.9 /
            91.0 / 91.2 / 91.0 %, recall and precision unchanged. Measured again after the
            linear-light mix, the luma guide and the notch term (2026-11-22, the shape read
            after ``size_consistency`` from the classifier's captured inputs on seven cached
            random-board sets, 18,600 tiles): misreads 366 at 3, 342 / 332 / 336 / 347 at
            4 / 5 / 6 / 8 (``integral_weight`` 1), 337 / 322 / 318 at 4 / 5 / 6 with
            ``integral_weight`` 0.5; each set gained. Detection on the 21 cached sets, 4
            (``integral_weight`` 0.5, ``sigma`` 0.045): identity errors on the eleven
            random-board sets 510 -> 470, on the ten legal-board sets 126 -> 115 (three sets
            worse by 2-9, rule-check chains), boards exact about the same; under
            ``bench_camera``'s "overexposed" look 123 -> 128, "vivid" 80 -> 73. 5 (``sigma``
            0.05): 455 / 118, "overexposed" 143 (clipped star8s read as circles: a clipped
            channel's mix reaches 1 on the edge before the light does, which fills a star8's
            valleys in the grey symbol), and a blue clover under a hand of
            ``test_detect_conditions`` read as a diamond. 0 turns the term off.
        template_scales: prototype sizes (printed symbols differ between sets by about
            +-15 %, and the tile-corner estimate scales the patch by a few per cent more).
        template_scale_window: blur spreads grey level but keeps its integral, so the
            symbol's summed score is its printed area and fixes each prototype's size; only
            the ``template_scales`` within this many steps of that size are tried (-1: all).
        template_turns_deg: prototype turns tried (tiles lie a few degrees askew, and the
            patch follows the tile's measured edges, which on small, blurred, oblique tiles
            are off by more: on one cached hard scene (R37 #33, 27 px pitch) the patch's
            turn against the true tile top was 8.5 degrees at the median, 20 at the 90th
            percentile, and its diamonds and clovers were misread). Within 12 degrees a
            diamond or clover keeps its correlation with its own prototype; +-6 lost 0.003
            at 12 degrees and 0.008 at 14 (``tests/vision/test_shapes_turned_pair.py``).
            Detection on the 24 tuning sets (2026-11-22, thirteenth session), +-12 against
            +-6: misread tiles 724 -> 698 (purple / orange clovers read as star8 or circle
            20 / 10 -> 13 / 5; diamond <-> clover only 379 -> 373), false 207 -> 202, missed
            638 -> 638, boards exact 977 -> 982; the seed 73 probe unchanged (95 / 35 / 66 /
            178). +-18 or steps of 5 or 8 degrees read the same (offline, eight
            sets). :func:`template_scores` took about 8 % of ``detect``'s CPU time on 40
            cached scenes (1.03 s of 13 s at +-6, 1.10 s at +-12: the product's columns
            grow by a third, its other costs do not).
        star8_template_turns_deg: the star8 prototype's turns (empty: ``template_turns_deg``),
            across its 45 degree period like ``star8_shift_bins``; every 6 degrees, so the
            nearest is at most 3 degrees off (its 8-fold pattern then keeps 91 % of its
            correlation). Adds 22 columns to the 330 of the template product.
        star4_wide: (notch radius, flank bow) of a second, wider criss-cross (the classic
            one, :data:`STAR4_CLASSIC`, is (0.11, 0.15); both with points at 0.41 of the
            side), whose templates also count for the star4 (the better of the two), at the
            sizes its own area gives; None: the classic one only. Printings differ in how
            deep the criss-cross's flanks curve in, and a shallow one correlates better with
            the square's template than with the thin classic one: on an independently
            written renderer (``benchmarks/independent_render.py``, 120 scenes, session 38)
            star4s read as squares were 210 of about 230 misreads, at full confidence and
            at every tile size; with this, identity went from 93.6 / 92.9 % to 99.4 / 99.0 %
            (seeds 0-59 / 60-119). It only arbitrates between a square and a star4: it
            lifts the star4 of a symbol the classic templates call a square. Let loose on
            every symbol it also took flowers' centres and symbols half under a hand as
            star4s (tuning sets: false 130 -> 143; three scene tests). So limited, on the 52
            tuning sets of the classic art: missed 607 -> 595, false 130 -> 135, misread
            1,434 -> 1,425, boards exact 2,361 -> 2,360. Adds 55 columns.
        template_blur: Gaussian blur levels of the grey prototypes (sigma as a fraction of
            the tile side, including the patch smoothing); each symbol uses the level nearest
            its measured edge blur (``_edge_blur`` in :mod:`vision.detect`: median 0.06 on
            the hard benchmark).
        template_blur_pooled: share of the image's blur in the blur at which the grey
            prototypes of :func:`template_scores` weigh a diamond against a clover, when the
            caller weighs one image's symbols together (``pooled`` in
            :func:`shape_confidences`): the two correlations' difference is read at the level
            nearest ``(1 - share) * own + share * median`` of the symbols' edge blurs, their
            mean (what they weigh against the other kinds) stays at the symbol's own blur (0:
            off). One camera blurs a board alike, and one symbol's edge blur read on a worn,
            noisy or small symbol scatters; the pair blur confuses most is told apart by
            detail the blur level decides. Measured (branch ``dk20``) on the classifier
            inputs captured from detection on eight tuning sets (19,300 tiles, all six shapes,
            the shape read by :func:`shape_confidences` alone; median per scene), share 0 /
            1: errors 295 / 288, diamond <-> clover 210 / 203, the other kinds' 85 / 85.
            Detection on the 84 tuning sets (5,022 in-spec scenes), 0 / 1: missed 1,402 /
            1,401, false 255 / 257, misread 2,370 / 2,344, boards exact 3,677 / 3,683
            (diamond <-> clover 1,433 -> 1,400, other shape pairs 852 -> 858); the seed 151
            probe 100 / 12 / 82 / 173 -> 100 / 12 / 82 / 174. About 3 % more CPU in
            ``detect`` (30 cached scenes; the symbols whose level moves are correlated
            again). With all six kinds' correlations at the pooled level: offline 289, 199,
            90; detection on the 84 sets missed 1,405, false 261, misread 2,374, exact 3,661
            (diamond <-> clover 1,386, other shape pairs 903). The same median for the notch
            harmonic's prototypes added errors offline (322).
        template_inset: fraction of the patch (each side) left out of the correlation, as
            ``DetectorSettings.patch_inset`` (neighbours' edges and the table).
        integral_weight: weight of the RMS difference of the threshold-free radial profile
            (:func:`integrated_distances`: the grey score summed along rays, sub-pixel and
            not moved in at points / out at notches as the half-height outline is), added in
            quadrature for the confidences. 1.0 weighs it like the outline profile (same
            units); on the cached hard set it cut star8 -> circle misreads by half (identity
            90.3 -> 90.9 %), 3.0 was worse (89.9 %: at strong blur it cannot tell clover
            from diamond and drowns the outline's evidence). With ``template_weight`` 4-5,
            0.5 (misreads as measured there, at 5: 332 at 1.0, 322 at 0.5, 322 / 323 at
            0.25 / 0, 352 at 1.5; at 4: 342 -> 337): the correlation already carries most
            of what the profile adds.
        linear_light: read the grey-level terms (template correlation, integrated profile,
            notch harmonic) on :func:`linear_light_scores` - the share of symbol radiance at
            each pixel - rather than on the detector's sRGB-encoded score, when the body and
            symbol colours are given. Optical and motion blur mix *light*; the camera encodes
            it afterwards (sRGB, IEC 61966-2-1), which for a bright symbol on a dark body
            lifts a 20 % mix to about half the score, so blurred notches and the gaps between
            points read as filled in (a clover drifts towards a diamond, a star8 towards a
            circle). On held-out renders (seeds 7 and 11, not the benchmark's) the template
            correlation alone told blurred clovers from diamonds in 79 % of tiles instead of
            69-72 %. Where the detector passes the patch's own share of light
            (:func:`linear_light_mix`, projected in linear RGB), that is read instead.
        notch_weight: weight of :func:`notch_distances` (the signed 8th harmonic of the
            integrated radial profile in the frame of the symbol's own 4-fold axes, in units
            of the mean radius), added in quadrature for the confidences. The scale is the
            outline's: ``sigma`` (0.035) over the spread of that harmonic about the
            prototype's on correct reads (RMS 0.005-0.008 of the mean radius for circles,
            squares, diamonds and clovers on held-out renders, seeds 7 and 11), so 4 weighs
            one spread like about one ``sigma``. Shape identity on those renders (2608 tiles)
            with weights 3 / 4 / 6: 96.6 / 96.6 / 96.3 % (with the other weights varied too,
            all within 95.9-96.8 %); 0 (the term off): 93.3 %.
        notch_cap: largest :func:`notch_distances` (units of the mean radius): about three
            times the harmonic's spread on correct reads, so a prototype whose proportions
            differ from the printed symbol's (a star4's flanks) is not pushed away by this
            term alone.
        notch_smooth: Gaussian sigma (fraction of the tile side) by which the grey symbol is
            smoothed before its notch harmonic is read (and its blur measured again, so the
            prototypes are taken at the smoothed symbol's blur). The harmonic is read along
            rays from single samples, so detail finer than the notch pattern that the
            Gaussian-blurred prototypes do not have - sensor and JPEG noise, sharpening
            halos, glare specks on the paint - enters it; the notch pattern itself is coarse
            (half a period of the 8th harmonic is about 0.1 of the side at the flanks), and a
            sigma of 0.03 keeps about 60 % of a blurred symbol's harmonic. Measured on the
            cached hard renders (detected tiles, shape read by the classifier alone):
            diamonds and clovers told apart by the harmonic alone (sign against the
            prototypes' midpoint) with 51 / 51 / 38 errors unsmoothed, 42 / 46 / 33 at 0.03,
            39 / 43 / 33 at 0.04 (sets M2026 / ML2026 / s99); all shapes by the whole
            classifier 72 / 68 / 43 -> 60 / 58 / 42 at 0.03. Smoothing the other grey
            terms' input instead costs (the template correlation and the integrated
            profile already average over the symbol). 0 turns it off. Measured again
            (2026-11-22, the shape read after ``size_consistency`` from the classifier's
            captured inputs on 15 cached random-board sets, 40,562 tiles): misreads 653 /
            628 / 610 / 649 at 0.02 / 0.03 / 0.04 / 0.05, so 0.04: on small symbols the
            noise (correlated over 3-4 patch pixels after the camera's and the patch's
            resampling: 0.5 at 3 px on the symbols' own noise) outweighs the signal the
            wider kernel takes. Chosen per tile by its measured noise (0.025-0.05 in three
            noise bands) it did no better (612-630).
        outline_weight: factor on :func:`outline_distances` where it is combined with the
            grey terms for the confidences (not where it decides whether a blob is a symbol,
            nor in the outline-only confidences). The outline is read from the thresholded
            sRGB score, whose noise moves a small symbol's half-height edge, while the grey
            terms read the linear-light share of light. Measured as for ``notch_smooth`` (15
            random-board sets, 40,562 tiles, ``notch_smooth`` 0.04): misreads 610 at 1, 594
            at 0.85; in detection on the 29 cached sets, misread tiles on the 15 random-board
            sets 695 -> 666, on the 14 legal-board sets 196 -> 202 (one scene's rule-check
            chain +14, the others -8). Left at 1: at 0.85 (and at 0.9) the blue clover under
            the hand of ``test_detect_conditions`` (random board, seed 2) falls from 3.03 to
            2.90 nats of clover over diamond, under the rule check's ``line_penalty`` of 3,
            which then reads it as the diamond that makes its line legal.
        luma_guide_radius: window radius (fraction of the tile side, at least one patch
            pixel; 0 turns it off) of the luma-guided filter (:func:`luma_guided_mix`) that
            gives the grey terms back the detail the camera kept in brightness but not in
            colour. 0.04 is 2 pixels of the 48 px patch, about one image pixel of a 27 px
            tile: the scale of JPEG's 2 x 2 chroma blocks. Shapes read by the classifier
            alone on the cached hard renders (M2026 / ML2026 / s99), with ``luma_guide_eps``
            3e-5 and every tile trusted (no ``luma_guide_monotone``): 61 / 21 / 44 misreads
            off, 51 / 23 / 39 at 0.02, 42 / 23 / 40 at 0.04, 45 / 24 / 42 at 0.06.
        luma_guide_eps: the guided filter's regulariser, in squared luma (0..1): a window
            whose luma varies by less than its square root (0.0055, about 1.4 of 255 codes:
            sensor and JPEG noise) keeps the mix's local mean rather than follow the luma.
            Same measurement, at radius 0.04: 43 / 23 / 42 at 1e-5, 42 / 23 / 40 at 3e-5,
            44 / 28 / 39 at 1e-4.
        luma_guide_monotone: the guide is trusted not at all below the first and fully above
            the second value of ``|Y'(symbol) - Y'(body)| / (range of Y' along the mix)``
            (1 when the luma rises or falls steadily from body to symbol; a saturated red on
            a body lit to the same luma has a ring of brighter luma at its edge, which the
            guide would copy into the mix). About 1 % of the tiles of the cached hard renders
            are below 0.9; misreads (as above, guided; 60 / 21 / 43 unguided) 41 / 23 / 41
            trusting every tile, 42 / 21 / 41 with (0.8, 0.95).
        luma_detail_share: share of the luma's own fine detail given to the mix where the
            guided filter left the colour's blur in it (:func:`luma_detail_mix`; 0 turns it
            off): the mix's band finer than ``luma_detail_sigma`` becomes this blend of the
            luma-read mix's band and its own. Measured (branch ``dk19``) on the diamonds and
            clovers of 22 tuning sets (18,200 tiles, their classifier inputs captured from
            detection, the shape read by :func:`shape_confidences` alone): the guided mix of
            red, purple and blue symbols reads an edge blur of 0.051-0.053 of the side where
            their luma alone reads 0.038-0.043 (green, orange, yellow: 0.045-0.046 against
            0.040-0.042), and below a luma blur of 0.05 they are misread 48-64 times per
            1,000 against 4 for green. Diamond <-> clover errors at shares 0 / 0.35 / 0.5 /
            0.65 / 0.8: 225 / 204 / 199 / 204 / 200 (six sets) and 455 / 416 / 413 / 424 /
            427 (16 others). All six shapes on eight sets (19,300 tiles), d/k errors and
            other misreads: 230 + 86 at 0, 210 + 85 at 0.25, 205 + 100 at 0.5. Detection on
            the 76 tuning sets (4,544 in-spec scenes), 0 / 0.25 / 0.5: missed 1,221 / 1,231 /
            1,245, false 289 / 285 / 279, misread 2,171 / 2,123 / 2,143, boards exact 3,314
            / 3,335 / 3,321 (diamond <-> clover 1,338 -> 1,280 at 0.25: purple 422 -> 408,
            red 350 -> 335, blue 303 -> 276); the seed 139 probe 62 / 64 / 63, 13 / 13 / 14,
            93 / 84 / 81, 173 / 172 / 171. A luma-only mix (share 1 with no coarse band from
            the colour) was worse for purple and red; a projection weighted by the channels'
            noise (measured on the body ring) and ramping the share with the luma contrast
            both added errors.
        luma_detail_sigma: Gaussian sigma (fraction of the tile side) splitting the coarse
            band, kept from the colour, from the fine band blended with the luma's: 0.04 is
            2 pixels of the 48 px patch, the guided filter's radius. Same measurement as
            ``luma_detail_share`` (six sets) with the fine band taken from the luma alone:
            1.5 / 2 / 3 px: 219 / 211 / 215 errors.
        size_sigma: scale (natural log of the symbol's summed share of light, see
            :func:`size_consistency`) of the penalty on a symbol whose size departs from the
            size of the other symbols read as the same kind in the image: one printed set puts
            every symbol of a kind on its tiles at the same size, and the summed share keeps
            that size through blur. Measured on the cached hard renders (nine sets, 26,000
            tiles): the spread of that log size about the median of the tiles of the same
            kind and image is 0.05 (MAD-based; 0.14 for the thin star4s). 0 turns the
            penalty off.
        size_tolerance: departure (natural log of the size) within which the penalty is 0,
            beyond which it grows as ``((|departure| - size_tolerance) / size_sigma)^2 / 2``
            nats. Only departures far beyond the spread count: the size of a clover and a
            diamond differ by about twice the spread (0.11 in the log) and so do not tell
            them apart on their own (a penalty at every departure, measured: 387 -> 379 / 381 /
            523 wrong shapes on the nine sets at 4 / 3 / 0 spreads), but a blurred star4 read
            as a square is 40-90 % larger (in summed share) than the image's squares.
            0.2 = 4 spreads.
        size_min_tiles: a kind's size is the median over the image's symbols read as that
            kind when at least this many are; otherwise it is the image's scale (median over
            all symbols of their size over their read kind's prototype area,
            :func:`prototype_areas`) times the prototype's area, with
            ``size_prior_tolerance``.
        size_prior_tolerance: ``size_tolerance`` for a kind whose size comes from the
            prototype areas: printed designs differ in their symbols' relative sizes (on the
            renders the kinds' median sizes depart from the prototypes' ratios by up to 0.3 in
            the log), so only a departure beyond that counts.
        size_max_penalty: the penalty's ceiling (nats): some symbols are sized wrong whatever
            their kind (a spot of glare on one, a finger's shadow), so a size far off lowers
            a kind's confidence by at most this factor (e^4, about 55) and does not overturn
            a confident reading.
    """

    bins: int = 72
    max_shift_bins: int = 2
    star8_shift_bins: int = 4
    proto_blur: tuple[float, ...] = (0.0, 0.02, 0.04, 0.06, 0.08)
    blur_window: float = 0.025
    blur_gate_apparent: tuple[Shape, ...] = (Shape.STAR4,)
    solidity_weight: float = 0.5
    peak_weight: float = 0.5
    sigma: float = 0.045
    template_weight: float = 4.0
    template_scales: tuple[float, ...] = (
        0.8,
        0.85,
        0.9,
        0.95,
        1.0,
        1.05,
        1.1,
        1.15,
        1.2,
        1.25,
        1.3,
    )
    template_scale_window: int = 1
    template_turns_deg: tuple[float, ...] = (-12.0, -6.0, 0.0, 6.0, 12.0)
    star8_template_turns_deg: tuple[float, ...] = (-18.0, -12.0, -6.0, 0.0, 6.0, 12.0, 18.0)
    star4_wide: tuple[float, float] | None = (0.17, 0.10)
    template_blur: tuple[float, ...] = (0.015, 0.025, 0.035, 0.05, 0.065, 0.08, 0.1)
    template_blur_pooled: float = 1.0
    template_inset: float = 0.08
    integral_weight: float = 0.5
    linear_light: bool = True
    notch_weight: float = 4.0
    notch_cap: float = 0.02
    notch_smooth: float = 0.04
    outline_weight: float = 1.0
    luma_guide_radius: float = 0.04
    luma_guide_eps: float = 3e-5
    luma_guide_monotone: tuple[float, float] = (0.8, 0.95)
    luma_detail_share: float = 0.25
    luma_detail_sigma: float = 0.04
    size_sigma: float = 0.05
    size_tolerance: float = 0.2
    size_min_tiles: int = 3
    size_prior_tolerance: float = 0.6
    size_max_penalty: float = 4.0


#: OpenBLAS multiplies on one thread up to this many multiply-adds (its
#: ``SMP_THRESHOLD_MIN * GEMM_MULTITHREAD_THRESHOLD`` = 65536 * 4).
_BLAS_ONE_THREAD_MNK = 65536 * 4


def single_thread_matmul(a: NDArray[np.floating], b: NDArray[np.floating]) -> NDArray[np.floating]:
    """``a @ b`` of two 2-D float arrays, kept on OpenBLAS's single-threaded path.

    numpy hands products above about 2.6e5 multiply-adds to OpenBLAS's worker threads, which
    busy-wait after each call and then compete with OpenCV's thread pool for the same cores:
    measured on the 2-core benchmark machine under load, a (100, 576) x (576, 198) product
    took 0.2 ms alone and up to 40 ms inside ``detect`` (``cv2.gemm`` is no way out: below
    100 rows it is a plain loop, 10x slower). So the rows of ``a`` are multiplied in blocks
    small enough for OpenBLAS to stay on the calling thread (one row at least).

    Args:
        a: ``(m, k)``; b: ``(k, n)``.

    Returns:
        ``(m, n)`` in numpy's result type.
    """
    m, k = a.shape
    n = b.shape[1]
    rows = max(1, _BLAS_ONE_THREAD_MNK // max(1, k * n))
    if rows >= m:
        whole: NDArray[np.floating] = a @ b
        return whole
    out: NDArray[np.floating] = np.empty((m, n), np.result_type(a, b))
    for i in range(0, m, rows):
        np.matmul(a[i : i + rows], b, out=out[i : i + rows])
    return out


def rowwise_matmul(a: NDArray[np.floating], b: NDArray[np.floating]) -> NDArray[np.floating]:
    """:func:`single_thread_matmul` whose every row is computed by the same BLAS call shape.

    OpenBLAS picks its kernels by the product's shape (numpy even hands a one-row product to
    ``gemv``), and their sums round differently, so a row's result may depend on how many
    rows it was multiplied with. Here the rows go in blocks of exactly the single-thread
    block size (the last one padded with zeros), so each row reads the same whatever batch it
    is in: a symbol's shape confidences do not depend on the tiles classified with it.

    Args:
        a: ``(m, k)``; b: ``(k, n)``.

    Returns:
        ``(m, n)`` in numpy's result type.
    """
    m, k = a.shape
    n = b.shape[1]
    # (one row per call where a two-row product would leave the single-thread path: every
    # row then goes through the same matrix-vector kernel)
    rows = max(1, _BLAS_ONE_THREAD_MNK // max(1, k * n))
    dt = np.result_type(a, b)
    out: NDArray[np.floating] = np.empty((m, n), dt)
    block = np.zeros((rows, k), a.dtype)
    for i in range(0, m, rows):
        j = min(m, i + rows)
        if j - i == rows:
            np.matmul(a[i:j], b, out=out[i:j])
        else:  # the last, short block: padded to the same shape
            block[: j - i] = a[i:j]
            block[j - i :] = 0
            out[i:j] = np.matmul(block, b)[: j - i]
    return out


def shape_polygon(shape: Shape, n: int = 360) -> NDArray[np.float64]:
    """Outline of a prototype symbol as ``(n, 2)`` ``(x, y)`` points, tile side = 1, centre 0.

    ``y`` grows downwards (image convention); the tile's edges are the axes. (A copy of the
    outline drawn once per shape and ``n``: the star8's ray-by-ray intersection takes about
    30 ms, and every grey prototype drawn for a new blur or size needed it again.)
    """
    return _shape_polygon(shape, n).copy()


@lru_cache(maxsize=32)
def _shape_polygon(shape: Shape, n: int) -> NDArray[np.float64]:
    """:func:`shape_polygon`, drawn once per ``(shape, n)`` (read-only: it is shared)."""
    out = _draw_shape_polygon(shape, n)
    out.flags.writeable = False
    return out


def _draw_shape_polygon(shape: Shape, n: int) -> NDArray[np.float64]:
    """The outline of :func:`shape_polygon`, computed."""
    t = np.linspace(0.0, 2.0 * math.pi, n, endpoint=False)
    if shape is Shape.CIRCLE:
        r = np.full_like(t, 0.30)
    elif shape is Shape.SQUARE:
        h = 0.25
        r = h / np.maximum(np.abs(np.cos(t)), np.abs(np.sin(t)))
    elif shape is Shape.DIAMOND:
        h = 0.34
        r = h / (np.abs(np.cos(t)) + np.abs(np.sin(t)))
    elif shape is Shape.CLOVER:
        return _clover_outline(n)
    elif shape is Shape.STAR4:
        return _star4_outline(STAR4_CLASSIC)
    elif shape is Shape.STAR8:
        r = _star_radius(t, points=8, outer=0.37, inner=0.20, phase=0.0)
    else:  # pragma: no cover - exhaustive enum
        raise ValueError(f"unknown shape {shape!r}")
    return np.stack([r * np.cos(t), r * np.sin(t)], axis=1)


#: The criss-cross of a classic set: (notch radius, flank bow) of :func:`_bowed_star`, its
#: four points at radius 0.41 towards the tile corners (fractions of the tile side).
STAR4_CLASSIC = (0.11, 0.15)


@lru_cache(maxsize=8)
def _star4_outline(notch_bow: tuple[float, float]) -> NDArray[np.float64]:
    """The criss-cross's outline ``(m, 2)`` with notch radius and flank bow ``notch_bow``
    (read-only: it is shared)."""
    inner, bow = notch_bow
    out = _bowed_star(points=4, outer=0.41, inner=inner, phase=math.pi / 4, bow=bow)
    out.flags.writeable = False
    return out


def _outline_area(poly: NDArray[np.float64]) -> float:
    """Area enclosed by the outline ``(m, 2)`` (shoelace formula), in its units squared."""
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def _star_radius(
    t: NDArray[np.float64], *, points: int, outer: float, inner: float, phase: float
) -> NDArray[np.float64]:
    """Radius of a straight-edged star polygon along directions ``t``."""
    verts = []
    for k in range(2 * points):
        a = phase + k * math.pi / points
        rr = outer if k % 2 == 0 else inner
        verts.append((rr * math.cos(a), rr * math.sin(a)))
    poly = np.array(verts)
    # ray-polygon intersection, every direction against every edge at once (the farthest
    # crossing of each ray; the directions' cosines and sines from ``math``, as drawn before)
    d = np.array([[math.cos(a), math.sin(a)] for a in t.tolist()]).reshape(-1, 1, 2)
    p, e = poly[None], (np.roll(poly, -1, axis=0) - poly)[None]
    with np.errstate(divide="ignore", invalid="ignore"):
        den = d[..., 0] * (-e[..., 1]) - d[..., 1] * (-e[..., 0])
        s = (p[..., 0] * (-e[..., 1]) - p[..., 1] * (-e[..., 0])) / den
        u = (d[..., 0] * p[..., 1] - d[..., 1] * p[..., 0]) / den
        hit = (np.abs(den) >= 1e-12) & (s > 0) & (u >= -1e-9) & (u <= 1 + 1e-9)
    out: NDArray[np.float64] = np.where(hit, s, 0.0).max(axis=1, initial=0.0)
    return out


def _bowed_star(
    *, points: int, outer: float, inner: float, phase: float, bow: float, steps: int = 12
) -> NDArray[np.float64]:
    """Outline of a star whose flanks curve inwards (the printed criss-cross), ``(m, 2)``.

    Each flank runs from a point (radius ``outer``) to a notch (radius ``inner``); its middle
    is pulled towards the centre by ``bow`` of its distance (a parabolic bow).
    """
    out = []
    for k in range(points):
        tip_a = phase + 2 * math.pi * k / points
        for a0, r0, a1, r1 in (
            (tip_a, outer, tip_a + math.pi / points, inner),
            (tip_a + math.pi / points, inner, tip_a + 2 * math.pi / points, outer),
        ):
            p0 = np.array([r0 * math.cos(a0), r0 * math.sin(a0)])
            p1 = np.array([r1 * math.cos(a1), r1 * math.sin(a1)])
            for j in range(steps):
                u = j / steps
                out.append((p0 * (1 - u) + p1 * u) * (1 - bow * 4 * u * (1 - u)))
    return np.array(out)


def _clover_outline(n: int) -> NDArray[np.float64]:
    """Clover: union of four lobes (discs) on the axes and a centre disc, as a radial outline."""
    t = np.linspace(0.0, 2.0 * math.pi, n, endpoint=False)
    lobe_r, lobe_d, centre_r = 0.15, 0.17, 0.14
    r = np.full_like(t, centre_r)
    for k in range(4):
        a = k * math.pi / 2
        cx, cy = lobe_d * math.cos(a), lobe_d * math.sin(a)
        # farthest intersection of the ray with the lobe disc
        b = cx * np.cos(t) + cy * np.sin(t)
        disc = b * b - (cx * cx + cy * cy - lobe_r * lobe_r)
        far = np.where(disc >= 0, b + np.sqrt(np.maximum(disc, 0.0)), 0.0)
        r = np.maximum(r, far)
    return np.stack([r * np.cos(t), r * np.sin(t)], axis=1)


def _polygon_fill(
    shape: Shape, p: int, scale: float = 1.0, turn_deg: float = 0.0
) -> NDArray[np.float32]:
    """``(p, p)`` float32 0..255 antialiased fill of ``shape``'s prototype on a tile filling
    the patch, at ``scale`` x its printed size, turned by ``turn_deg`` (drawn 8x larger and
    area-averaged down: the shared drawing of every prototype image and template)."""
    return _outline_fill(_shape_polygon(shape, 360), p, scale, turn_deg)


def _outline_fill(
    poly: NDArray[np.float64], p: int, scale: float = 1.0, turn_deg: float = 0.0
) -> NDArray[np.float32]:
    """:func:`_polygon_fill` of the outline ``poly`` (``(m, 2)``, fractions of the tile side
    about its centre; not modified)."""
    ss = 8
    if turn_deg:
        a = math.radians(turn_deg)
        poly = poly @ np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]).T
    if scale != 1.0:
        poly = poly * scale
    pts = (poly + 0.5) * p * ss
    big = np.zeros((p * ss, p * ss), np.uint8)
    cv2.fillPoly(big, [np.round(pts).astype(np.int32)], 255, lineType=cv2.LINE_AA)
    out: NDArray[np.float32] = cv2.resize(big, (p, p), interpolation=cv2.INTER_AREA).astype(
        np.float32
    )
    return out


def prototype_mask(shape: Shape, size: int, blur: float = 0.0) -> NDArray[np.uint8]:
    """A ``(size, size)`` uint8 mask (0/255) of the prototype on a tile filling the patch.

    ``blur`` is a Gaussian sigma as a fraction of the tile side; the blurred symbol is
    re-thresholded at half height, as the detector does with real symbols.
    """
    img = _polygon_fill(shape, size)
    if blur > 0:
        img = cast(NDArray[np.float32], cv2.GaussianBlur(img, (0, 0), blur * size))
    return np.where(img >= 127.5, 255, 0).astype(np.uint8)


@lru_cache(maxsize=8)
def _ray_table(bins: int, n_r: int, step: float) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """``(bins, n_r)`` x and y offsets of ray samples (directions by rows, radii by columns)."""
    r = (np.arange(n_r) + 0.5) * step
    th = np.arange(bins) * (2 * math.pi / bins)
    return (
        (np.cos(th)[:, None] * r[None, :]).astype(np.float32),
        (np.sin(th)[:, None] * r[None, :]).astype(np.float32),
    )


@lru_cache(maxsize=8)
def _ray_ranks(n_r: int) -> NDArray[np.uint8]:
    """``(n_r,)`` uint8 ``1 .. n_r`` (``n_r`` below 256)."""
    return np.arange(1, n_r + 1, dtype=np.uint8)


def radial_profiles(
    masks: NDArray[np.bool_], bins: int
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.bool_]]:
    """Normalised radial profiles and solidities of N symbol masks at once.

    Args:
        masks: ``(N, p, p)`` bool, True = symbol (one blob per mask), in the tile's frame.
        bins: number of directions; direction ``k`` is ``k * 360/bins`` degrees from +x
            towards +y (image convention).

    Returns:
        ``(profiles, solidity, ok)``: ``(N, bins)`` outermost radius of the blob along each
        direction from its centroid, divided by the mean; ``(N,)`` blob area over the area of
        the convex hull of its profile points; ``(N,)`` False for empty masks.
    """
    n, p, _ = masks.shape
    prof = np.zeros((n, bins))
    sol = np.zeros(n)
    if n == 0:
        return prof, sol, np.zeros(0, bool)
    m8 = (
        masks.reshape(n, p, p).view(np.uint8)
        if masks.dtype == np.bool_
        else (masks > 0).view(np.uint8)
    )
    # column and row counts (n, p) once: the area, the centroid and the bounding box follow
    # (byte sums: at most p < 256 pixels per row or column, so no wider type is needed)
    acc = np.uint8 if p < 256 else np.int64
    col_n = m8.sum(axis=1, dtype=acc).astype(np.int64)
    row_n = m8.sum(axis=2, dtype=acc).astype(np.int64)
    area = col_n.sum(axis=1).astype(np.float64)
    ok = area > 0
    safe = np.maximum(area, 1.0)
    coord = np.arange(p, dtype=np.float64) + 0.5
    cx = (col_n @ coord) / safe
    cy = (row_n @ coord) / safe
    # rays from each centroid, read from a mosaic of the masks each centred in a 2p x 2p
    # canvas, so no ray (at most 0.75 p long) reaches a neighbour's mask. The canvas is 0/255
    # uint8: OpenCV's bilinear weights are multiples of 1/1024 either way, so "interpolated
    # uint8 >= 128" is exactly "interpolated 0/1 >= 0.5", at a fraction of the float cost
    n_r = p + p // 2
    step = 0.75 * p / n_r
    ray_x, ray_y = _ray_table(bins, n_r, step)
    # samples farther from the centroid than every mask pixel plus the bilinear footprint
    # (sqrt 2, plus OpenCV's 1/32 px map quantisation) read 0 and are not sampled at all; the
    # farthest pixel is bounded by the farthest corner of the masks' bounding boxes
    rows_in, cols_in = row_n > 0, col_n > 0  # (n, p) each
    if ok.any():
        r0 = np.argmax(rows_in, axis=1)
        r1 = p - 1 - np.argmax(rows_in[:, ::-1], axis=1)
        c0 = np.argmax(cols_in, axis=1)
        c1 = p - 1 - np.argmax(cols_in[:, ::-1], axis=1)
        ix, iy = cx - 0.5, cy - 0.5  # centroids in pixel-index coordinates
        far_x = np.maximum(np.abs(c0 - ix), np.abs(c1 - ix))[ok]
        far_y = np.maximum(np.abs(r0 - iy), np.abs(r1 - iy))[ok]
        reach_px = float(np.hypot(far_x, far_y).max())
        n_used = min(n_r, max(1, math.floor((reach_px + 1.6) / step - 0.5) + 1))
        ray_x, ray_y = ray_x[:, :n_used], ray_y[:, :n_used]
    n_r = ray_x.shape[1]
    off = p // 2  # canvas offset of the mask
    # large temporaries in this thread's scratch buffers (no page faults on every call)
    # (each centroid plus the rays laid flat: one long inner loop per mask, not per ray)
    mx = np.add(
        (cx.astype(np.float32) + np.float32(off - 0.5))[:, None],
        np.ascontiguousarray(ray_x).reshape(1, -1),
        out=scratch("radial.mx", (n, bins * n_r), np.float32),
    ).reshape(n, bins, n_r)
    my = np.add(
        (cy.astype(np.float32) + np.float32(off - 0.5))[:, None],
        np.ascontiguousarray(ray_y).reshape(1, -1),
        out=scratch("radial.my", (n, bins * n_r), np.float32),
    ).reshape(n, bins, n_r)
    vals = scratch("radial.vals", (n, bins, n_r), np.uint8)
    side = 2 * p
    # (cv2.remap sizes stay below 32767; the canvases' offsets within _GRID_SPAN rows)
    chunk = max(1, min(32000 // bins, (_GRID_SPAN - 4 * p) // side))
    for a in range(0, n, chunk):
        b = min(n, a + chunk)
        canvas = scratch("radial.canvas", (b - a, side, side), np.uint8)
        canvas.fill(0)
        np.multiply(m8[a:b], np.uint8(255), out=canvas[:, off : off + p, off : off + p])
        my_c = _on_grid_at(my[a:b], np.arange(b - a, dtype=np.float32) * side)  # in place
        cv2.remap(
            canvas.reshape((b - a) * side, side),
            mx[a:b].reshape((b - a) * bins, n_r),
            my_c.reshape((b - a) * bins, n_r),
            cv2.INTER_LINEAR,
            dst=vals[a:b].reshape((b - a) * bins, n_r),  # written in place
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=0,
        )
    th = np.arange(bins) * (2 * math.pi / bins)
    # 1 + index of the outermost sample inside (0: none): the largest of (1 + index) over the
    # samples inside, in uint8 when it fits (contiguous byte passes, no casts)
    if n_r < 256:
        inside = np.right_shift(vals, 7, out=scratch("radial.inside", vals.shape, np.uint8))
        inside *= _ray_ranks(n_r)  # (>= 128 is the top bit; 1 + index where inside, else 0)
        reach = inside.max(axis=2)
    else:
        reach = ((vals >= 128) * np.arange(1, n_r + 1)).max(axis=2)
    any_in = reach > 0
    prof = reach * step
    for i in np.nonzero(ok & ~any_in.all(axis=1))[0]:  # rare: fill gaps circularly
        good = np.nonzero(any_in[i])[0]
        if len(good) == 0:
            ok[i] = False
            continue
        bad = np.nonzero(~any_in[i])[0]
        prof[i, bad] = np.interp(bad, good, prof[i, good], period=bins)
    mean = prof.mean(axis=1)
    ok &= mean > 0
    prof = prof / np.where(mean > 0, mean, 1.0)[:, None]
    # solidity: pixel area over the convex hull of the outline points
    pts = np.stack(
        [
            cx[:, None] + prof * mean[:, None] * np.cos(th),
            cy[:, None] + prof * mean[:, None] * np.sin(th),
        ],
        axis=2,
    ).astype(np.float32)
    for i in np.nonzero(ok)[0]:
        hull = cv2.contourArea(cv2.convexHull(pts[i]))
        sol[i] = min(1.0, area[i] / hull) if hull > 0 else 0.0
    return prof, sol, ok


def radial_profile(mask: NDArray[np.uint8], bins: int) -> tuple[NDArray[np.float64], float] | None:
    """:func:`radial_profiles` of one ``(p, p)`` mask (its largest blob); None if empty."""
    n, lab, stats, _ = cv2.connectedComponentsWithStats((mask > 0).astype(np.uint8), connectivity=8)
    if n <= 1:
        return None
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    m = (lab == best)[None]
    if m.shape[1] != m.shape[2]:
        raise ValueError("radial_profile needs a square mask")
    prof, sol, ok = radial_profiles(m, bins)
    return (prof[0], float(sol[0])) if ok[0] else None


def axis_peakedness(profiles: NDArray[np.float64], max_shift: int = 2) -> NDArray[np.float64]:
    """How pointed the outline is where it meets the tile's axes, ``(N,)``.

    Mean over the four axis directions of ``(r(a - 10) + r(a + 10)) / (2 r(a))`` (degrees, at
    the best-aligned turn within ``max_shift`` sectors). A diamond's points give about 0.88
    (a straight-edged corner), a clover's round lobes about 0.98-1.0; blur lifts the diamond
    towards 1, so it is compared at the symbol's own blur like the profile.
    """
    n, bins = profiles.shape
    step = max(1, round(10 * bins / 360))
    axes = np.arange(4) * (bins // 4)
    best = np.full(n, -np.inf)
    for sh in range(-max_shift, max_shift + 1):
        k = (axes + sh) % bins
        val = (profiles[:, (k - step) % bins] + profiles[:, (k + step) % bins]) / (
            2 * np.maximum(profiles[:, k], 1e-6)
        )
        best = np.maximum(best, val.mean(axis=1))
    return best


@lru_cache(maxsize=8)
@disk_cached
def _prototypes(
    bins: int, blurs: tuple[float, ...]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``(n_shapes, n_blurs, bins)`` prototype profiles and ``(n_shapes, n_blurs)`` solidities."""
    size = 96
    masks = np.stack([prototype_mask(sh, size, b) > 0 for sh in SHAPE_ORDER for b in blurs])
    prof, sol, ok = radial_profiles(masks, bins)
    assert ok.all()
    return prof.reshape(len(SHAPE_ORDER), len(blurs), bins), sol.reshape(
        len(SHAPE_ORDER), len(blurs)
    )


@lru_cache(maxsize=8)
@disk_cached
def _apparent_blur(blurs: tuple[float, ...], size: int = 48) -> NDArray[np.float64]:
    """``(n_shapes, n_blurs)``: the edge blur :func:`edge_blur` reads on each prototype's grey
    symbol blurred by each of ``blurs`` (sigmas, fractions of the tile side), on a patch of
    ``size`` px (the detector's ``patch_px``).

    The estimator takes the mean slope where the score crosses 0.3..0.7; along a thin point
    the score falls slowly (the point narrows under the blur), so it reads a star4 about 1.5x
    and a star8 1.3x blurrier than a circle, square, diamond or clover of the same sigma
    (0.04: star4 0.059, star8 0.054, the others 0.044-0.045).
    """
    scale = 8
    out = np.zeros((len(SHAPE_ORDER), len(blurs)))
    for i, sh in enumerate(SHAPE_ORDER):
        big = np.zeros((size * scale, size * scale), np.uint8)
        pts = (shape_polygon(sh) + 0.5) * size * scale
        cv2.fillPoly(big, [np.round(pts).astype(np.int32)], 255, lineType=cv2.LINE_AA)
        img = cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)
        img /= 255.0
        for j, b in enumerate(blurs):
            g = cast(NDArray[np.float32], cv2.GaussianBlur(img, (0, 0), b * size)) if b > 0 else img
            out[i, j] = float(edge_blur(g[None])[0])
    out.setflags(write=False)
    return out


@lru_cache(maxsize=8)
def _gate_levels(blurs: tuple[float, ...], apparent: tuple[Shape, ...]) -> NDArray[np.float64]:
    """``(n_shapes, n_blurs)`` blur of each prototype level as the blur gate compares it: the
    sigma, or for the shapes in ``apparent`` what the edge estimator reads on the prototype
    (:func:`_apparent_blur`)."""
    out = np.tile(np.asarray(blurs, np.float64), (len(SHAPE_ORDER), 1))
    seen = _apparent_blur(blurs)
    for i, sh in enumerate(SHAPE_ORDER):
        if sh in apparent:
            out[i] = seen[i]
    out.setflags(write=False)
    return out


@lru_cache(maxsize=8)
def _prototype_peakedness(
    bins: int, blurs: tuple[float, ...], max_shift: int
) -> NDArray[np.float64]:
    """``(n_shapes, n_blurs)`` :func:`axis_peakedness` of the :func:`_prototypes` profiles."""
    protos, _ = _prototypes(bins, blurs)
    pk: NDArray[np.float64] = axis_peakedness(protos.reshape(-1, bins), max_shift)
    return pk.reshape(protos.shape[0], protos.shape[1])


@lru_cache(maxsize=4)
@disk_cached
def _template_bank(
    p: int,
    scales: tuple[float, ...],
    turns_deg: tuple[float, ...],
    blurs: tuple[float, ...],
    inset: float,
    star8_turns_deg: tuple[float, ...] | None = None,
    star4_wide: tuple[float, float] | None = None,
) -> tuple[NDArray[np.float32], NDArray[np.bool_]]:
    """Grey prototype templates, zero-mean and unit-norm over the searched region.

    Returns ``(bank, inner)``: ``bank`` is ``(n_blurs, p * p, n_columns)`` float32, columns
    shape-major, then scale, then turn (``turns_deg``; the star8's ``star8_turns_deg`` when
    given), then, with ``star4_wide`` (notch radius, bow), the wide criss-cross's columns by
    scale and turn; ``inner`` the ``(p * p,)`` region.
    """
    yy, xx = np.mgrid[0:p, 0:p]
    inner = (
        np.maximum(np.abs((xx + 0.5) / p - 0.5), np.abs((yy + 0.5) / p - 0.5)) <= 0.5 - inset
    ).reshape(-1)
    per_blur: list[list[NDArray[np.float32]]] = [[] for _ in blurs]
    outlines: list[tuple[NDArray[np.float64], tuple[float, ...]]] = [
        (
            _shape_polygon(sh, 360),
            star8_turns_deg if sh is Shape.STAR8 and star8_turns_deg else turns_deg,
        )
        for sh in SHAPE_ORDER
    ]
    if star4_wide is not None:
        outlines.append((_star4_outline(star4_wide), turns_deg))
    for poly, turns in outlines:
        for sc in scales:
            for turn in turns:
                img = _outline_fill(poly, p, sc, turn)
                img /= 255.0
                for bi, b in enumerate(blurs):
                    t = cv2.GaussianBlur(img, (0, 0), b * p).reshape(-1)[inner]
                    t = t - t.mean()
                    full = np.zeros(p * p, np.float32)
                    full[inner] = t / max(float(np.linalg.norm(t)), 1e-6)
                    per_blur[bi].append(full)
    bank = np.stack([np.stack(v, axis=1) for v in per_blur]).astype(np.float32)
    return bank, inner


def _blur_level(blur: NDArray[np.floating], settings: ShapeSettings) -> NDArray[np.intp]:
    """Index ``(N,)`` of the ``template_blur`` level nearest each measured blur (``(N,)``,
    fraction of the tile side): the level the grey prototypes of :func:`template_scores`
    and :func:`integrated_distances` are drawn at."""
    levels = np.asarray(settings.template_blur)
    lvl: NDArray[np.intp] = np.argmin(np.abs(levels[None, :] - np.asarray(blur)[:, None]), axis=1)
    return lvl


def template_scores(
    score: NDArray[np.float32],
    blur: NDArray[np.float64],
    settings: ShapeSettings = ShapeSettings(),
) -> NDArray[np.float64]:
    """Best normalised cross-correlation of each symbol with each grey prototype, ``(N, 6)``.

    The binarised outline loses what blur leaves of a symbol's shape (a clover's notches
    fill in, a diamond's tips round off, a star8's points merge into a disc); the grey
    symbol score keeps it as intensity. Each ``(p, p)`` score patch (0 = body, 1 = symbol,
    in the tile's frame) is re-centred on its intensity centroid and correlated (zero-mean,
    unit-norm over the patch less ``template_inset``) with the analytic prototypes drawn
    at a few sizes (``template_scales``: printed symbols and the tile-corner estimate vary)
    and turns (``template_turns_deg``), each blurred by the Gaussian nearest to the
    symbol's own measured edge blur ``blur`` (``(N,)``, fraction of the side): the
    matched-filter view of a blurred symbol (template matching, e.g. Brunelli, "Template
    Matching Techniques in Computer Vision", Wiley 2009, ch. 2-3).

    The correlation runs at half the patch resolution (2 x 2 means; a blurred symbol has no
    finer detail left, and it quarters the cost).

    With ``star4_wide`` the wider criss-cross's templates join them: a symbol whose best
    classic template is the square's takes the better of the two star4 correlations.

    Returns:
        ``(N, 6)`` correlations in -1..1 in :data:`SHAPE_ORDER` (best size and turn).
    """
    n, p, _ = score.shape
    if n == 0:
        return np.zeros((0, len(SHAPE_ORDER)))
    half = p // 2  # correlated at half resolution: blurred symbols keep no finer detail
    bank, inner = _template_bank(
        half,
        settings.template_scales,
        settings.template_turns_deg,
        settings.template_blur,
        settings.template_inset,
        settings.star8_template_turns_deg,
        settings.star4_wide,
    )
    full_inner = np.zeros((p, p), np.float32)
    k0 = round(settings.template_inset * p)
    full_inner[k0 : p - k0, k0 : p - k0] = 1.0
    s = np.multiply(score, full_inner[None], dtype=np.float32)
    mass = s.sum(axis=(1, 2))
    coord = np.arange(p, dtype=np.float32) + 0.5
    # (row sums, not a matrix-vector product: BLAS's result for a row may depend on the others)
    cx = (s.sum(axis=1) * coord).sum(axis=1) / np.maximum(mass, 1e-6)
    cy = (s.sum(axis=2) * coord).sum(axis=1) / np.maximum(mass, 1e-6)
    dx = np.clip(np.round(cx - p / 2), -p // 8, p // 8).astype(np.int64)
    dy = np.clip(np.round(cy - p / 2), -p // 8, p // 8).astype(np.int64)
    # the shifted patches (indices clipped to each patch, i.e. its edge replicated): each a
    # window of the patch padded by its own edge as far as a shift reaches, picked by one
    # gather of whole windows; then 2 x 2 means
    q = p // 8
    padded = np.pad(np.asarray(score, dtype=np.float32), ((0, 0), (q, q), (q, q)), mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(padded, (2 * half, 2 * half), axis=(1, 2))
    sh = windows[np.arange(n), dy + q, dx + q]  # (n, 2h, 2h)
    sh = 0.25 * (sh[:, 0::2, 0::2] + sh[:, 1::2, 0::2] + sh[:, 0::2, 1::2] + sh[:, 1::2, 1::2])
    v = sh.reshape(n, -1)
    v = np.where(inner[None], v, np.float32(0.0))
    m = v.sum(axis=1, keepdims=True) / float(inner.sum())
    v = np.where(inner[None], v - m, np.float32(0.0))
    v /= np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-6)
    lvl = _blur_level(blur, settings)
    out = np.zeros((n, len(SHAPE_ORDER)))
    n_sc = len(settings.template_scales)
    turns = [len(settings.template_turns_deg)] * len(SHAPE_ORDER)
    if settings.star8_template_turns_deg:
        turns[_STAR8] = len(settings.star8_template_turns_deg)
    starts = np.concatenate([[0], np.cumsum(np.asarray(turns) * n_sc)])
    allowed = np.ones((n, len(SHAPE_ORDER), n_sc), bool)
    if settings.template_scale_window >= 0:
        # blur moves grey level around but keeps its integral: the symbol's score summed
        # over the patch is its printed area, which fixes each prototype's size
        area = mass / float(p * p)  # (n,) fraction of the tile
        want = np.sqrt(np.maximum(area, 1e-6)[:, None] / prototype_areas()[None, :])  # (n, 6)
        scales = np.log(np.asarray(settings.template_scales))
        near = np.argmin(np.abs(scales[None, None, :] - np.log(want)[:, :, None]), axis=2)
        gap = np.abs(np.arange(n_sc)[None, None, :] - near[:, :, None])
        allowed = gap <= settings.template_scale_window
    wide = settings.star4_wide is not None
    if wide:  # the wide criss-cross's columns, after the six shapes', at its own sizes
        n_t = len(settings.template_turns_deg)
        if settings.template_scale_window >= 0:
            a_wide = _outline_area(_star4_outline(settings.star4_wide))
            w_want = np.log(np.sqrt(np.maximum(area, 1e-6) / a_wide))
            w_near = np.argmin(np.abs(scales[None, :] - w_want[:, None]), axis=1)
            w_allowed = (
                np.abs(np.arange(n_sc)[None, :] - w_near[:, None]) <= settings.template_scale_window
            )
        else:
            w_allowed = np.ones((n, n_sc), bool)
    for b in np.unique(lvl):
        sel = np.nonzero(lvl == b)[0]
        corr = rowwise_matmul(v[sel], bank[b])  # (M, columns)
        c = np.stack(
            [
                corr[:, starts[k] : starts[k + 1]].reshape(len(sel), n_sc, turns[k]).max(axis=2)
                for k in range(len(SHAPE_ORDER))
            ],
            axis=1,
        )  # (M, 6, n_sc)
        out[sel] = np.where(allowed[sel], c, -1.0).max(axis=2)
        if wide:
            cw = corr[:, starts[-1] :].reshape(len(sel), n_sc, n_t).max(axis=2)
            cw = np.where(w_allowed[sel], cw, -1.0).max(axis=1)
            # it only arbitrates between a square and a star4 (four corner points, straight
            # or inward-curving flanks): a symbol the classic templates call anything else
            # keeps their reading
            sq = np.argmax(out[sel], axis=1) == _SQUARE
            out[sel[sq], _STAR4] = np.maximum(out[sel[sq], _STAR4], cw[sq])
    return out


#: Rows of a stack of patches within which :func:`_on_grid_at` places samples exactly.
_GRID_SPAN = 2**14
#: 3 * 2^14: a float32 in [2^15, 2^16) is a multiple of 1/256, its ulp there.
_GRID_SHIFT = np.float32(3 * 2**14)


def _on_grid_at(rows: NDArray[np.float32], offsets: NDArray[np.float32]) -> NDArray[np.float32]:
    """Sample rows ``(M, ...)`` (float32, relative to their patch) moved to their patches'
    rows in a stack, ``offsets`` ``(M,)`` (whole rows; every sum within 0 .. ``_GRID_SPAN``),
    each rounded to a multiple of 1/256 px (ties to even, as ``np.round``); in place.

    OpenCV 5 interpolates at the maps' exact coordinates, so a sample's position in the stack
    must not round differently with its patch's offset: on the 1/256 grid, adding the offset
    is exact in float32, and a symbol reads the same wherever it lies in the stack. Adding
    ``_GRID_SHIFT`` puts every sum in [2^15, 2^16), where float32 rounds to that grid (the
    offset rides along), and taking it off again is exact.
    """
    rows += (offsets.astype(np.float32) + _GRID_SHIFT).reshape((-1,) + (1,) * (rows.ndim - 1))
    rows -= _GRID_SHIFT
    return rows


def integrated_profiles(score: NDArray[np.float32], bins: int) -> NDArray[np.float64]:
    """Threshold-free radial profiles of N grey symbols, ``(N, bins)``, normalised to mean 1.

    Along each ray from the symbol's intensity centroid the 0..1 symbol score is summed:
    for a symbol edge blurred by a symmetric point-spread function the sum is the edge's
    radius whatever the blur (the blurred step's integral is unchanged), where the
    half-height outline moves in at points and out at notches. Sub-pixel by construction.

    Args:
        score: ``(N, p, p)`` symbol score, 0 = body, 1 = symbol, in the tile's frame.
        bins: directions, ``k * 360 / bins`` degrees from +x towards +y.
    """
    n, p, _ = score.shape
    if n == 0:
        return np.zeros((0, bins))
    # (clipped into a scratch buffer by two bounds: the values of np.clip, without its copies)
    s = np.maximum(score, np.float32(0.0), out=scratch("intprof.s", score.shape, np.float32))
    np.minimum(s, np.float32(1.0), out=s)
    mass = s.sum(axis=(1, 2))
    coord = np.arange(p, dtype=np.float32) + 0.5
    # (row sums, not a matrix-vector product: BLAS's result for a row may depend on the others)
    cx = (s.sum(axis=1) * coord).sum(axis=1) / np.maximum(mass, 1e-6)
    cy = (s.sum(axis=2) * coord).sum(axis=1) / np.maximum(mass, 1e-6)
    n_r = p // 2
    step = 0.5 * p / n_r
    ray_x, ray_y = _ray_table(bins, n_r, step)
    mx = np.add((cx - 0.5)[:, None, None], ray_x[None], dtype=np.float32)
    my = np.add((cy - 0.5)[:, None, None], ray_y[None], dtype=np.float32)
    # each symbol reads the same whatever it is stacked with: every patch sits in a block of
    # zero rows (``pad`` above and below, as far as its rays and their bilinear footprint
    # reach beyond it), so a ray leaving its patch reads 0 as it does across the columns,
    # not the next patch; and the rows lie on the grid of :func:`_on_grid_at`
    reach = max(-float(my.min()), float(my.max()) - (p - 1), 0.0)
    pad = min(p, math.ceil(reach) + 1)
    rows = p + 2 * pad
    chunk = max(1, min(32000 // max(bins, rows), (_GRID_SPAN - 2 * p) // rows))
    m = min(n, chunk)
    blocks = scratch("intprof.blocks", (m, rows, p), np.float32)
    blocks[:, :pad] = 0.0
    blocks[:, pad + p :] = 0.0
    offsets = np.arange(m, dtype=np.float32) * rows + pad
    vals = np.empty((n, bins, n_r), np.float32)
    for a in range(0, n, chunk):
        b = min(n, a + chunk)
        blocks[: b - a, pad : pad + p] = s[a:b]
        vals[a:b] = cv2.remap(
            blocks[: b - a].reshape((b - a) * rows, p),
            mx[a:b].reshape((b - a) * bins, n_r),
            _on_grid_at(my[a:b], offsets[: b - a]).reshape((b - a) * bins, n_r),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=0.0,
        ).reshape(b - a, bins, n_r)
    prof = vals.sum(axis=2).astype(np.float64) * step
    mean = prof.mean(axis=1, keepdims=True)
    out: NDArray[np.float64] = prof / np.maximum(mean, 1e-6)
    return out


def _srgb_to_linear(c: NDArray[np.float64]) -> NDArray[np.float64]:
    """sRGB-encoded values 0..255 to linear light 0..1 (IEC 61966-2-1 decoding curve)."""
    v = np.asarray(c, np.float64) / 255.0
    out: NDArray[np.float64] = np.where(
        v > 0.04045, ((np.maximum(v, 0.04045) + 0.055) / 1.055) ** 2.4, v / 12.92
    )
    return out


@lru_cache(maxsize=1)
def _srgb_lut() -> NDArray[np.float32]:
    """``(256,)`` linear light of each 8-bit sRGB code."""
    lut: NDArray[np.float32] = _srgb_to_linear(np.arange(256.0)).astype(np.float32)
    return lut


def linear_light_axis(
    body_rgb: NDArray[np.floating[Any]],
    symbol_rgb: NDArray[np.floating[Any]],
    channels: NDArray[np.bool_] | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The body -> symbol axis :func:`linear_light_mix` projects on: ``(lin_b, w)``, both
    ``(N, 3)``, with a pixel's share of symbol light ``(lin(x) - lin_b) . w`` (unclipped).

    Args:
        body_rgb, symbol_rgb: ``(N, 3)`` body and symbol colours, sRGB 0..255 (any channel
            order, the pixels' the same).
        channels: ``(N, 3)`` the channels projected (default all).
    """
    n = len(body_rgb)
    lin_b = _srgb_to_linear(np.asarray(body_rgb, np.float64).reshape(n, 3))
    lin_f = _srgb_to_linear(np.asarray(symbol_rgb, np.float64).reshape(n, 3))
    diff = lin_f - lin_b
    if channels is not None:
        diff = diff * np.asarray(channels, np.float64).reshape(n, 3)
    w = diff / np.maximum((diff * diff).sum(axis=1), 1e-12)[:, None]
    return lin_b, w


def linear_light_mix(
    planes: NDArray[Any],
    body_rgb: NDArray[np.floating[Any]],
    symbol_rgb: NDArray[np.floating[Any]],
    channels: NDArray[np.bool_] | None = None,
) -> NDArray[np.float32]:
    """The share of symbol light at each pixel, from the pixels' own colours, ``(N, P)``.

    Blur mixes light, so a pixel ``x`` where a fraction ``m`` of the light comes from the
    symbol has the *linear* colour ``lin(x) = lin(b) + m (lin(f) - lin(b))`` (body ``b``,
    symbol ``f``): ``m`` is the projection of ``lin(x) - lin(b)`` on ``lin(f) - lin(b)``,
    exact for every channel mix. :func:`linear_light_scores` gets ``m`` back from the
    projection of the *encoded* colours, which assumes that a blurred pixel lies on the
    straight sRGB line between body and symbol; it does not (each channel's curve bends
    its own way, so a saturated symbol's mixes bow off that line), nor do pixels that chroma
    aberration, the camera's coarser colour (Bayer demosaicing, 4:2:0 JPEG, chroma noise
    reduction) or noise move off it - those are mapped through the wrong part of the curve.
    On the cached hard renders (detected tiles, shape read by the classifier alone)
    shape misreads 76 / 79 / 45 with the re-mapped score, 72 / 68 / 43 with this (sets
    M2026 / ML2026 / s99).

    Args:
        planes: ``(N, 3, P)`` uint8 sRGB channel planes (any channel order, the colours'
            the same).
        body_rgb, symbol_rgb: ``(N, 3)`` body and symbol colours, sRGB 0..255.
        channels: ``(N, 3)`` the channels projected (default all). A channel the camera
            clipped at white reaches its ceiling part-way along the mix, so its projection
            reads a blurred edge's partial mixes as the full symbol (a clipped star8's valleys
            fill in); the caller leaves such a channel out where the others carry contrast.

    Returns:
        ``(N, P)`` float32, clipped to 0..1 (no contrast: 0).
    """
    n = len(planes)
    if n == 0:
        return np.zeros((0, planes.shape[-1]), np.float32)
    lin_b, w = linear_light_axis(body_rgb, symbol_rgb, channels)
    lut = cv2.LUT(np.ascontiguousarray(planes).reshape(n, -1), _srgb_lut())  # (N, 3 P) float32
    lin = np.asarray(lut, np.float32).reshape(planes.shape)  # (no copy: typed for mypy)
    mix = lin[:, 0] * w[:, 0:1].astype(np.float32)
    mix += lin[:, 1] * w[:, 1:2].astype(np.float32)
    mix += lin[:, 2] * w[:, 2:3].astype(np.float32)
    mix -= (lin_b * w).sum(axis=1).astype(np.float32)[:, None]
    out: NDArray[np.float32] = np.clip(mix, 0.0, 1.0, out=mix)
    return out


#: Rec. 601 luma weights of B, G and R (the luma that JPEG keeps at full resolution).
_LUMA_BGR = (0.114, 0.587, 0.299)


def _box_means(
    stack: NDArray[np.float32], p: int, r: int, out: NDArray[np.float32]
) -> NDArray[np.float32]:
    """Means over ``(2 r + 1)`` square windows of stacked ``(p, p)`` patches, into ``out``.

    ``stack``, ``out``: ``(..., p * p)`` float32, C-contiguous, distinct; the stack is
    filtered as one tall image, so a window within ``r`` rows of a patch's top or bottom
    edge reaches into its neighbour in the stack: callers read only pixels far enough from
    those edges. Each mean is the window's own weighted sum (a separable filter), not a
    running sum down the stack as ``cv2.boxFilter`` keeps, whose rounding carries the rows of
    every patch above: a patch's means do not depend on what it is stacked with.
    Returns ``out``.
    """
    k = 2 * r + 1
    w = _box_kernel(k)
    cv2.sepFilter2D(
        stack.reshape(-1, p), -1, w, w, dst=out.reshape(-1, p), borderType=cv2.BORDER_REFLECT_101
    )
    return out


_BOX_KERNELS: dict[int, NDArray[np.float32]] = {}


def _box_kernel(k: int) -> NDArray[np.float32]:
    """``(k, 1)`` float32 taps of a ``k``-wide mean."""
    w = _BOX_KERNELS.get(k)
    if w is None:
        w = np.full((k, 1), 1.0 / k, np.float32)
        _BOX_KERNELS[k] = w
    return w


def luma_guided_mix(
    mix: NDArray[np.float32],
    planes_bgr: NDArray[Any],
    body_bgr: NDArray[np.floating[Any]],
    symbol_bgr: NDArray[np.floating[Any]],
    p: int,
    settings: ShapeSettings = ShapeSettings(),
) -> NDArray[np.float32]:
    """The symbol's share of light sharpened where the camera kept detail: in its luma.

    Cameras keep colour at a lower resolution than brightness: Bayer demosaicing, JPEG's
    4:2:0 chroma (half resolution each way, and coarser quantisation) and phones' chroma
    noise reduction. A red, purple or blue symbol on a black body differs from it mostly in
    colour, so :func:`linear_light_mix` - a projection on the body -> symbol colour line -
    inherits the colour's blur: notches and the gaps between points fill in beyond what
    the optics did. The luma ``Y' = 0.299 R' + 0.587 G' + 0.114 B'`` (Rec. 601, as JPEG
    codes it) keeps the full resolution, and within a few pixels it is about a linear
    function of the same mix. So the mix is filtered with the luma as guide (the guided
    filter: K. He, J. Sun, X. Tang, "Guided image filtering", IEEE PAMI 35 (2013), eq.
    1-8): in each window the mix is fitted as ``a Y' + b`` (least squares, ``a`` damped by
    ``luma_guide_eps``) and the averaged fit is applied to the luma. Where luma shows no
    contrast against noise, ``a`` falls to 0 and the mix keeps its local mean. A tile whose
    luma is not monotone along the body -> symbol mix (a saturated red as bright as its lit
    body: the sRGB curve lifts the luma of their blend above both, a ring at the edge) is
    guided only in part or not at all (``luma_guide_monotone``). On the cached hard renders
    (shape read by the classifier alone) diamond <-> clover misreads went 40 / 15 / 37 ->
    23 / 12 / 34 (sets M2026 / ML2026 / s99).

    Args:
        mix: ``(N, p * p)`` share of symbol light, 0..1.
        planes_bgr: ``(N, 3, p * p)`` the patches' B, G, R planes (0..255), as the mix was
            read from.
        body_bgr, symbol_bgr: ``(N, 3)`` body and symbol colours (sRGB 0..255, B, G, R).
        p: patch side, pixels.

    Returns:
        ``(N, p * p)`` float32 in 0..1 (``mix`` itself when ``luma_guide_radius`` is 0).
    """
    r = round(settings.luma_guide_radius * p)
    n = len(mix)
    if r < 1 or n == 0:
        return mix
    # the two window passes reach 2 r pixels: the patches are filtered as one stack, so rows
    # within 2 r of a patch's top or bottom read its neighbours; the mix is 0 there anyway
    # (outside the searched region), and the result is kept only where the mix is not
    edge = 2 * r
    weights = np.asarray(_LUMA_BGR)
    # how monotone the luma is along the mix: |Y'(symbol) - Y'(body)| over its whole range
    knots = np.linspace(0.0, 1.0, 17)
    lin_b = _srgb_to_linear(np.asarray(body_bgr, np.float64).reshape(n, 3))
    lin_f = _srgb_to_linear(np.asarray(symbol_bgr, np.float64).reshape(n, 3))
    lin = lin_b[:, None, :] + knots[None, :, None] * (lin_f - lin_b)[:, None, :]
    y_k = _linear_to_srgb(lin) @ weights  # (N, knots)
    share = np.abs(y_k[:, -1] - y_k[:, 0]) / np.maximum(np.ptp(y_k, axis=1), 1e-6)
    lo, hi = settings.luma_guide_monotone
    trust = np.clip((share - lo) / max(hi - lo, 1e-6), 0.0, 1.0).astype(np.float32)
    pl = np.asarray(planes_bgr)
    pp = p * p
    # the guided filter's inputs (luma, mix, their product, luma squared), their window means
    # and the temporaries in this thread's scratch buffers (no page faults on every call)
    buf = scratch("guide.in", (4, n, pp), np.float32)
    mean = scratch("guide.mean", (4, n, pp), np.float32)
    tmp = scratch("guide.tmp", (n, pp), np.float32)
    luma = np.multiply(pl[:, 0], np.float32(weights[0] / 255.0), out=buf[0])
    luma += np.multiply(pl[:, 1], np.float32(weights[1] / 255.0), out=tmp)
    luma += np.multiply(pl[:, 2], np.float32(weights[2] / 255.0), out=tmp)
    m = np.asarray(mix, np.float32)
    buf[1] = m
    np.multiply(luma, m, out=buf[2])
    np.multiply(luma, luma, out=buf[3])
    mean_y, mean_m, cov, var = _box_means(buf, p, r, mean)
    cov -= np.multiply(mean_y, mean_m, out=tmp)  # cov(Y', mix)
    var -= np.multiply(mean_y, mean_y, out=tmp)  # var(Y')
    var += np.float32(settings.luma_guide_eps)
    # a = cov / (var + eps), b = mean(mix) - a mean(Y'), then their own window means
    ab = scratch("guide.ab", (2, n, pp), np.float32)
    np.divide(cov, var, out=ab[0])
    np.subtract(mean_m, np.multiply(ab[0], mean_y, out=tmp), out=ab[1])
    mean_a, mean_b = _box_means(ab, p, r, mean[:2])
    out = np.multiply(mean_a, luma, out=tmp)
    out += mean_b
    np.clip(out, 0.0, 1.0, out=out)
    out -= m
    out *= trust[:, None]
    res: NDArray[np.float32] = m + out
    # (the rows within ``edge`` of the top and bottom: the first and last ``edge * p`` of
    # each flat patch, copied as two slices)
    band = min(edge, p) * p
    res[:, :band] = m[:, :band]
    res[:, pp - band :] = m[:, pp - band :]
    return res


def luma_detail_mix(
    mix: NDArray[np.float32],
    planes_bgr: NDArray[Any],
    body_bgr: NDArray[np.floating[Any]],
    symbol_bgr: NDArray[np.floating[Any]],
    inner: NDArray[np.bool_],
    p: int,
    settings: ShapeSettings = ShapeSettings(),
) -> NDArray[np.float32]:
    """The mix's fine detail blended with the detail the luma alone reads, ``(N, p * p)``.

    The guided filter (:func:`luma_guided_mix`) fits the mix as a linear function of the
    luma in small windows; where the mix is blurred (a red, purple or blue symbol's mix
    comes from its colour, which JPEG's 4:2:0 chroma and noise reduction blur) the fitted
    slope is too small and much of the colour's blur stays. The luma gives its own reading
    of the mix: along the tile's body -> symbol mix (linear light) the luma ``Y'`` runs a
    curve fixed by the two colours, whose inverse (a least-squares quartic in the luma's
    share of its range) maps each pixel's luma to a mix at the luma's full resolution but
    with the noise of the luma's smaller contrast. So the band finer than
    ``luma_detail_sigma`` (a Gaussian's complement) is ``luma_detail_share`` of the luma's
    reading and the rest the mix's own; the coarser band stays the colour's. Tiles whose luma
    does not rise or fall steadily along the mix are left alone, as in the guided filter
    (``luma_guide_monotone``).

    Args:
        mix: ``(N, p * p)`` share of symbol light (0 outside ``inner``), 0..1.
        planes_bgr: ``(N, 3, p * p)`` the patches' B, G, R planes (0..255).
        body_bgr, symbol_bgr: ``(N, 3)`` body and symbol colours (sRGB 0..255, B, G, R).
        inner: ``(p * p,)`` the region the mix is read in.
        p: patch side, pixels.

    Returns:
        ``(N, p * p)`` float32 in 0..1, 0 outside ``inner`` (``mix`` itself when the share
        is 0).
    """
    n = len(mix)
    share = settings.luma_detail_share
    if share <= 0 or n == 0:
        return mix
    weights = np.asarray(_LUMA_BGR)
    knots = np.linspace(0.0, 1.0, 17)
    lin_b = _srgb_to_linear(np.asarray(body_bgr, np.float64).reshape(n, 3))
    lin_f = _srgb_to_linear(np.asarray(symbol_bgr, np.float64).reshape(n, 3))
    lin = lin_b[:, None, :] + knots[None, :, None] * (lin_f - lin_b)[:, None, :]
    y_k = _linear_to_srgb(lin) @ weights  # (N, knots) luma 0..1 along the mix
    span = y_k[:, -1] - y_k[:, 0]
    monotone = np.abs(span) / np.maximum(np.ptp(y_k, axis=1), 1e-6)
    lo, hi = settings.luma_guide_monotone
    trust = np.clip((monotone - lo) / max(hi - lo, 1e-6), 0.0, 1.0)
    trust[np.abs(span) < 1e-6] = 0.0
    safe = np.where(np.abs(span) < 1e-6, 1.0, span)
    u_k = (y_k - y_k[:, :1]) / safe[:, None]  # the luma's share of its range, 0..1
    coef = np.linalg.pinv(np.vander(u_k.reshape(-1), 5).reshape(n, len(knots), 5)) @ knots
    pl = np.asarray(planes_bgr, np.float32)
    luma = pl[:, 0] * np.float32(weights[0] / 255.0)
    luma += pl[:, 1] * np.float32(weights[1] / 255.0)
    luma += pl[:, 2] * np.float32(weights[2] / 255.0)
    u = np.clip((luma - y_k[:, :1].astype(np.float32)) / safe[:, None].astype(np.float32), 0, 1)
    c = coef.astype(np.float32)
    m_y = np.broadcast_to(c[:, :1], u.shape).copy()
    for k in range(1, 5):  # Horner
        m_y *= u
        m_y += c[:, k : k + 1]
    np.clip(m_y, 0.0, 1.0, out=m_y)
    m_y *= inner[None, :]
    m = np.asarray(mix, np.float32)
    sigma = settings.luma_detail_sigma * p
    # fine band of each: x - G * x; the blend adds share x (fine(m_y) - fine(m))
    fine = m_y - m
    fine -= _smooth_patches(fine.reshape(n, p, p), sigma).reshape(n, -1)
    fine *= (share * trust).astype(np.float32)[:, None]
    out: NDArray[np.float32] = np.clip(m + fine, 0.0, 1.0)
    out *= inner[None, :]
    return out


def _linear_to_srgb(lin: NDArray[np.float64]) -> NDArray[np.float64]:
    """Linear light 0..1 to sRGB-encoded values 0..1 (IEC 61966-2-1 encoding curve)."""
    v = np.clip(lin, 0.0, 1.0)
    out: NDArray[np.float64] = np.where(
        v > 0.0031308, 1.055 * np.maximum(v, 0.0031308) ** (1 / 2.4) - 0.055, 12.92 * v
    )
    return out


def linear_light_scores(
    score: NDArray[np.float32],
    body_rgb: NDArray[np.float64],
    symbol_rgb: NDArray[np.float64],
    knots: int = 17,
) -> NDArray[np.float32]:
    """The share of symbol *light* at each pixel, from the detector's sRGB score, ``(N, p, p)``.

    Blur (defocus, motion, the lens) mixes radiance, i.e. linear light; the camera then
    encodes the image non-linearly (sRGB, IEC 61966-2-1; phone tone curves are close to it).
    The detector's score is a projection of sRGB colours on the body -> symbol line, so a
    blurred edge's score is a bent function of the true mix: for a bright symbol on a black
    body a 20 % mix already reads about 0.5, and blur fills notches and the gaps between
    points in the score more than in the light. Here the colour at score ``s`` on that line,
    ``body + s (symbol - body)``, is decoded to linear light and projected on the linear
    ``symbol - body`` difference, which recovers the mix (0 = body, 1 = symbol) whatever
    the colours; a tile whose body and symbol have the same linear colour keeps its score.
    The per-tile curve is sampled at ``knots`` scores and applied as its least-squares
    quartic (the curve is smooth: on held-out renders within 1e-4 of the exact decoding).

    Args:
        score: ``(N, p, p)`` detector score (0 = body, 1 = symbol), clipped to 0..1 here.
        body_rgb: ``(N, 3)`` body colour, sRGB 0..255 (any channel order, the same for both).
        symbol_rgb: ``(N, 3)`` symbol colour, same encoding.
        knots: samples of the per-tile score -> mix curve.

    Returns:
        ``(N, p, p)`` float32 mix of symbol light in 0..1.
    """
    n = len(score)
    if n == 0:
        return np.zeros(score.shape, np.float32)
    body = np.asarray(body_rgb, np.float64).reshape(n, 3)
    sym = np.asarray(symbol_rgb, np.float64).reshape(n, 3)
    grid = np.linspace(0.0, 1.0, knots)
    colours = body[:, None, :] + grid[None, :, None] * (sym - body)[:, None, :]  # (N, K, 3)
    lin_c = _srgb_to_linear(colours)
    lin_b, lin_s = _srgb_to_linear(body), _srgb_to_linear(sym)
    diff = lin_s - lin_b
    norm2 = (diff * diff).sum(axis=1)
    curve = ((lin_c - lin_b[:, None, :]) * diff[:, None, :]).sum(axis=2) / np.maximum(norm2, 1e-12)[
        :, None
    ]
    curve = np.where((norm2 > 1e-9)[:, None], curve, grid[None, :])  # no contrast: unchanged
    coef = (curve @ _quartic_fit(knots).T).astype(np.float32)  # (N, 5), highest power first
    s = np.clip(score.reshape(n, -1), 0.0, 1.0).astype(np.float32)
    mix = np.broadcast_to(coef[:, :1], s.shape).copy()
    for k in range(1, 5):  # Horner
        mix *= s
        mix += coef[:, k : k + 1]
    return np.clip(mix, 0.0, 1.0).reshape(score.shape)


@lru_cache(maxsize=4)
def _quartic_fit(knots: int) -> NDArray[np.float64]:
    """``(5, knots)`` least-squares map from curve samples on 0..1 to quartic coefficients."""
    grid = np.linspace(0.0, 1.0, knots)
    fit = cast(NDArray[np.float64], np.linalg.pinv(np.vander(grid, 5)))
    return fit


def edge_blur(score: NDArray[np.float32]) -> NDArray[np.float64]:
    """Blur sigma of each symbol's edge, ``(N,)``, as a fraction of the ``(N, p, p)`` patch side.

    A step blurred by a Gaussian of sigma ``s`` has a largest slope of ``1 / (s sqrt(2 pi))``
    per unit of step height at its half-way point, so ``s`` follows from the mean slope of
    the 0..1 score where it crosses the band 0.3..0.7 (the estimator of
    ``vision.detect._edge_blur``, here for scores the classifier re-maps, e.g.
    :func:`linear_light_scores`). 0 where no pixel is in the band.
    """
    n, p, _ = score.shape
    if n == 0:
        return np.zeros(0)
    g = np.ascontiguousarray(score, dtype=np.float32).reshape(n * p, p)
    # central differences over the stacked patches (a difference across two patches falls in
    # their borders, where the score is 0 outside the searched region, outside the band)
    # (0.5 (right - left): the value the 3-tap kernel (-0.5, 0, 0.5) gives, one rounding
    # either way since halving is exact; the stack's own edges replicated)
    gx = scratch("edge_blur.gx", g.shape, np.float32)
    gy = scratch("edge_blur.gy", g.shape, np.float32)
    np.subtract(g[:, 2:], g[:, :-2], out=gx[:, 1:-1])
    np.subtract(g[:, 1:2], g[:, :1], out=gx[:, :1])
    np.subtract(g[:, -1:], g[:, -2:-1], out=gx[:, -1:])
    np.subtract(g[2:], g[:-2], out=gy[1:-1])
    np.subtract(g[1:2], g[:1], out=gy[:1])
    np.subtract(g[-1:], g[-2:-1], out=gy[-1:])
    gx *= np.float32(0.5)
    gy *= np.float32(0.5)
    # (numpy's square root of the sum of squares, rounded the same at every element; OpenCV's
    # magnitude rounds its vector body and its scalar ends differently, so a patch's slope
    # would depend on where it lies in the stack)
    gx *= gx
    gy *= gy
    gx += gy
    slope = np.sqrt(gx, out=gx).reshape(n, p * p)
    flat = g.reshape(n, p * p)
    band = (flat > 0.3) & (flat < 0.7)
    cnt = np.count_nonzero(band, axis=1)
    slope *= band
    mean = slope.sum(axis=1) / np.maximum(cnt, 1)
    sig = 1.0 / (np.sqrt(2 * np.pi) * np.maximum(mean, 1e-3))
    out: NDArray[np.float64] = np.where(cnt > 0, sig / p, 0.0).astype(np.float64)
    return out


@lru_cache(maxsize=4)
def _integrated_prototypes(p: int, bins: int, blurs: tuple[float, ...]) -> NDArray[np.float64]:
    """``(n_blurs, 6, bins)`` :func:`integrated_profiles` of the grey prototypes."""
    imgs = _grey_prototypes(p, blurs)
    prof = integrated_profiles(imgs.reshape(-1, p, p), bins)
    return prof.reshape(len(blurs), len(SHAPE_ORDER), bins)


@lru_cache(maxsize=4)
@disk_cached
def _grey_prototypes(p: int, blurs: tuple[float, ...]) -> NDArray[np.float32]:
    """``(n_blurs, 6, p, p)`` grey prototypes (0..1, tile = patch), Gaussian-blurred."""
    imgs = []
    for b in blurs:
        for sh in SHAPE_ORDER:
            img = _polygon_fill(sh, p) / 255
            imgs.append(cv2.GaussianBlur(img, (0, 0), b * p))
    return cast(NDArray[np.float32], np.stack(imgs).reshape(len(blurs), len(SHAPE_ORDER), p, p))


def integrated_distances(
    score: NDArray[np.float32],
    blur: NDArray[np.float64],
    settings: ShapeSettings = ShapeSettings(),
) -> NDArray[np.float64]:
    """RMS difference of :func:`integrated_profiles` from the prototypes', ``(N, 6)``.

    Best turn within ``max_shift_bins``; prototypes at the ``template_blur`` level nearest
    each symbol's measured blur (the integral is blur-invariant only up to the edges'
    curvature, so the small remaining effect is matched too).
    """
    n, p, _ = score.shape
    if n == 0:
        return np.zeros((0, len(SHAPE_ORDER)))
    return _integrated_distances(integrated_profiles(score, settings.bins), p, blur, settings)


def _integrated_distances(
    prof: NDArray[np.float64], p: int, blur: NDArray[np.float64], settings: ShapeSettings
) -> NDArray[np.float64]:
    """:func:`integrated_distances` of ``(N, bins)`` integrated profiles of ``(p, p)`` patches."""
    protos = _integrated_prototypes(p, settings.bins, settings.template_blur)
    lvl = _blur_level(blur, settings)
    pr = protos[lvl]  # (N, 6, bins)
    rolled = prof[:, _roll_index(settings.bins, _turn_window(settings))]  # (N, S, bins)
    # (one product per symbol, all of one shape: each symbol's sums are the same whatever
    # it is batched with, which einsum's loops over the whole batch do not promise)
    best = _turn_peak(np.matmul(rolled, pr.transpose(0, 2, 1)), settings)  # (N, 6)
    own = (prof * prof).sum(axis=1)[:, None]
    ms = np.maximum((pr * pr).sum(axis=2) + own - 2.0 * best, 0.0) / settings.bins
    dist: NDArray[np.float64] = np.sqrt(ms)
    return dist


def _turn_window(settings: ShapeSettings) -> int:
    """Whole sectors either side at which profiles are correlated with the prototypes: the
    widest turn any prototype may take."""
    return max(settings.max_shift_bins, settings.star8_shift_bins)


def _turn_peak(cross: NDArray[np.float64], settings: ShapeSettings) -> NDArray[np.float64]:
    """Largest correlation of each prototype with a profile over the turns it may take.

    ``cross``: ``(N, S, 6, ...)`` ``sum_b proto(b) profile(b - s)`` at the whole-sector turns
    ``s = -w .. w`` (``w`` = :func:`_turn_window`), prototypes in :data:`SHAPE_ORDER`. Each
    prototype may turn by ``max_shift_bins``, the star8 by ``star8_shift_bins``.

    Returns:
        ``(N, 6, ...)``.
    """
    w = _turn_window(settings)
    steps = np.abs(np.arange(-w, w + 1))
    lim = np.full(len(SHAPE_ORDER), settings.max_shift_bins)
    lim[_STAR8] = settings.star8_shift_bins
    allowed = steps[:, None] <= lim[None, :]  # (S, 6)
    allowed = allowed.reshape(allowed.shape + (1,) * (cross.ndim - 3))
    out: NDArray[np.float64] = np.where(allowed[None], cross, -np.inf).max(axis=1)
    return out


#: Symbols with four-fold but not eight-fold symmetry: their 4th harmonic fixes their axes.
_FOUR_FOLD = np.array(
    [sh in (Shape.SQUARE, Shape.DIAMOND, Shape.CLOVER, Shape.STAR4) for sh in SHAPE_ORDER]
)


_STAR8 = SHAPE_ORDER.index(Shape.STAR8)
_STAR4 = SHAPE_ORDER.index(Shape.STAR4)
_SQUARE = SHAPE_ORDER.index(Shape.SQUARE)


def notch_harmonic(
    profiles: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Signed 8th harmonic of radial profiles in the frame of their own 4-fold axes.

    With ``c_m = mean(r(t) exp(-i m t))``, the 4th harmonic's phase gives the symbol's turn
    ``d`` (``c_4 = |c_4| exp(-4 i d)``) and ``a_8 = 2 Re(c_8 exp(8 i d))`` is the part of
    ``r(t)`` going as ``cos 8 (t - d)``: positive when the outline is pointed where it is
    longest and flat between (straight flanks: a diamond's tips, a square's corners, a star4's
    points), negative when it is round where it is longest and pinched between (a clover's
    lobes and notches). An isotropic blur commutes with rotations, so it acts on each angular
    harmonic of the image separately, and damps the fine ones most; measured, it shrinks
    ``a_8`` and keeps its sign while anything is left: on the Gaussian-blurred grey
    prototypes the clover's ``a_8`` goes -0.031, -0.017, -0.002 at blurs of 0.015, 0.035,
    0.065 of the side and only crosses zero near 0.08 (the diamond's +0.039, +0.028, +0.010).
    It depends neither on the symbol's size nor on how far the tile is turned.

    Args:
        profiles: ``(..., bins)`` radial profiles (e.g. :func:`integrated_profiles`, mean 1).

    Returns:
        ``(a8, m8)``: ``(...,)`` the signed harmonic and ``2 |c_8|`` (its largest possible
        value, reached when the 8-fold pattern is aligned with the 4-fold axes), both in units
        of the profile's mean.
    """
    bins = profiles.shape[-1]
    t = np.arange(bins) * (2 * math.pi / bins)
    c4 = (profiles * np.exp(-4j * t)).mean(axis=-1)
    c8 = (profiles * np.exp(-8j * t)).mean(axis=-1)
    a4 = np.abs(c4)
    rot = np.where(a4 > 1e-12, np.conj(c4) ** 2 / np.maximum(a4, 1e-12) ** 2, 1.0)
    return 2.0 * np.real(c8 * rot), 2.0 * np.abs(c8)


@lru_cache(maxsize=4)
def _notch_prototypes(
    p: int, bins: int, blurs: tuple[float, ...]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``(n_blurs, 6)`` :func:`notch_harmonic` ``(a8, m8)`` of the blurred grey prototypes."""
    a8, m8 = notch_harmonic(_integrated_prototypes(p, bins, blurs))
    return a8, m8


def notch_distances(
    prof: NDArray[np.float64],
    p: int,
    blur: NDArray[np.float64],
    settings: ShapeSettings = ShapeSettings(),
) -> NDArray[np.float64]:
    """How far each symbol's :func:`notch_harmonic` is from each prototype's, ``(N, 6)``.

    The prototypes' harmonic is taken at the symbol's measured blur (interpolated between the
    ``template_blur`` levels), since blur shrinks it. For the 4-fold symbols (square, diamond,
    clover, star4) the distance is the difference of the signed ``a8``: it separates straight
    flanks from lobes and notches (diamond vs clover), the pair blur confuses most, by a sign
    that blur keeps. A circle or a star8 has no 4-fold axes, so the phase used to
    align ``a8`` is noise there: the distance is the difference of the 8-fold amplitude
    ``m8`` from the prototype's (about 0 for a circle), for a star8 only a shortfall: its
    many close edges make the measured blur read high (:func:`edge_blur` reads 0.103 on the
    grey star8 prototype blurred by 0.08, 0.086 on the circle), so the prototype blurred as
    much as measured is, up to noise, a lower bound of a real star8's 8-fold amplitude.
    Each distance is capped at ``notch_cap``: the printed proportions differ between sets
    (a star4's ``a8`` moves a lot with the depth of its flanks), so a mismatch far beyond the
    harmonic's noise says no more than one just beyond it (bounded influence).

    Args:
        prof: ``(N, bins)`` :func:`integrated_profiles` of ``(p, p)`` patches.
        p: the patches' side, pixels (prototypes are drawn at that size).
        blur: ``(N,)`` edge blur sigma, fraction of the tile side.

    Returns:
        ``(N, 6)`` distances in units of the mean radius, in :data:`SHAPE_ORDER`.
    """
    n = len(prof)
    if n == 0:
        return np.zeros((0, len(SHAPE_ORDER)))
    pa8, pm8 = _notch_prototypes(p, settings.bins, settings.template_blur)
    levels = np.asarray(settings.template_blur)
    b = np.asarray(blur, np.float64)
    want_a = np.stack([np.interp(b, levels, pa8[:, k]) for k in range(len(SHAPE_ORDER))], axis=1)
    want_m = np.stack([np.interp(b, levels, pm8[:, k]) for k in range(len(SHAPE_ORDER))], axis=1)
    a8, m8 = notch_harmonic(prof)
    signed = np.abs(a8[:, None] - want_a)
    # no 4-fold axes: only the 8-fold amplitude counts; for a star8 the prototype blurred as
    # much as the estimate says is the least it keeps (the estimate reads high on its many
    # close edges), so only a shortfall counts
    unsigned = np.abs(m8[:, None] - want_m)
    unsigned[:, _STAR8] = np.maximum(0.0, want_m[:, _STAR8] - m8)
    out: NDArray[np.float64] = np.minimum(
        np.where(_FOUR_FOLD[None, :], signed, unsigned), settings.notch_cap
    )
    return out


@lru_cache(maxsize=8)
def _roll_index(bins: int, max_shift: int) -> NDArray[np.int64]:
    """``(2 * max_shift + 1, bins)`` indices: row ``k`` is ``np.roll`` by ``k - max_shift``."""
    base = np.arange(bins)
    return np.stack([(base - sh) % bins for sh in range(-max_shift, max_shift + 1)])


def outline_distances(
    profiles: NDArray[np.float64],
    solidity: NDArray[np.float64],
    settings: ShapeSettings = ShapeSettings(),
    blur: NDArray[np.float64] | None = None,
) -> NDArray[np.float64]:
    """The outline's distances of ``(N, bins)`` profiles from the six prototypes, ``(N, 6)``.

    RMS difference of normalised radii (best turn within ``max_shift_bins``), the weighted
    solidity and axis-peakedness differences, added in quadrature, at the best prototype
    blur level (only levels within ``blur_window`` of the measured ``blur``, ``(N,)``
    fraction of the tile side, when given). These decide whether a blob is a symbol at all
    (:func:`classify_profiles` returns them as its distances); :func:`shape_confidences`
    turns them into confidences with the grey-level terms.
    """
    if len(profiles) == 0:
        return np.zeros((0, len(SHAPE_ORDER)))
    protos, sols = _prototypes(settings.bins, settings.proto_blur)
    rolled = profiles[:, _roll_index(settings.bins, _turn_window(settings))]  # (N, S, bins)
    # mean over bins of (proto - turned profile)^2, min over turns, as |P|^2 + |R|^2 - 2 P.R
    # (a turn permutes the bins, so |R| is the profile's own): one (N S, bins) x (bins, 6 B)
    # product instead of an (N, 6, B, S, bins) difference array
    n_p, n_b = protos.shape[0], protos.shape[1]
    pflat = protos.reshape(n_p * n_b, settings.bins)
    cross = single_thread_matmul(rolled.reshape(-1, settings.bins), pflat.T).reshape(
        len(profiles), -1, n_p, n_b
    )
    sq = (pflat * pflat).sum(axis=1).reshape(n_p, n_b)
    own = (profiles * profiles).sum(axis=1)
    best = _turn_peak(cast(NDArray[np.float64], cross), settings)  # (N, 6, B)
    dp = np.maximum(sq[None] + own[:, None, None] - 2.0 * best, 0.0) / settings.bins  # (N, 6, B)
    ds = (settings.solidity_weight * (sols[None] - solidity[:, None, None])) ** 2
    pk_proto = _prototype_peakedness(settings.bins, settings.proto_blur, settings.max_shift_bins)
    pk = axis_peakedness(profiles, settings.max_shift_bins)
    dk = (settings.peak_weight * (pk_proto[None] - pk[:, None, None])) ** 2
    dall = np.sqrt(dp + ds + dk)  # (N, 6, B)
    if blur is not None:
        levels = _gate_levels(settings.proto_blur, settings.blur_gate_apparent)  # (6, B)
        gap = np.abs(levels[None] - np.asarray(blur)[:, None, None])  # (N, 6, B)
        allowed = (gap <= settings.blur_window) | (gap <= gap.min(axis=2, keepdims=True))
        dall = np.where(allowed, dall, np.inf)
    d: NDArray[np.float64] = dall.min(axis=2)  # (N, 6)
    return d


_PAIR = np.array([SHAPE_ORDER.index(Shape.DIAMOND), SHAPE_ORDER.index(Shape.CLOVER)])


def _pooled_pair(
    ncc: NDArray[np.float64],
    grey: NDArray[np.float32],
    blur: NDArray[np.float64],
    settings: ShapeSettings,
) -> NDArray[np.float64]:
    """:func:`template_scores` ``ncc`` ``(N, 6)`` of one image's ``(N, p, p)`` symbols with
    the diamond's and the clover's difference read at the blur leaning towards the image's
    median (``template_blur_pooled``) and their mean kept (each symbol's own ``blur``,
    ``(N,)``); only the symbols whose template level that moves are correlated again."""
    share = settings.template_blur_pooled
    want = (1.0 - share) * blur + share * float(np.median(blur))
    moved = np.nonzero(_blur_level(blur, settings) != _blur_level(want, settings))[0]
    if not len(moved):
        return ncc
    again = template_scores(grey[moved], want[moved], settings)[:, _PAIR]  # (M, 2)
    out = ncc.copy()
    mean = ncc[moved][:, _PAIR].mean(axis=1, keepdims=True)
    out[moved[:, None], _PAIR[None, :]] = again - again.mean(axis=1, keepdims=True) + mean
    return out


def shape_confidences(
    outline: NDArray[np.float64],
    settings: ShapeSettings = ShapeSettings(),
    blur: NDArray[np.float64] | None = None,
    score: NDArray[np.float32] | None = None,
    body_rgb: NDArray[np.float64] | None = None,
    symbol_rgb: NDArray[np.float64] | None = None,
    mix: NDArray[np.float32] | None = None,
    pooled: bool = False,
) -> NDArray[np.float64]:
    """Confidences ``(N, 6)`` (rows sum to 1) from :func:`outline_distances` ``outline``
    and, with ``score`` and ``blur``, the grey-level terms (see :func:`classify_profiles`,
    whose confidences these are for the same arguments; each row depends on its own
    symbol only, so a caller may ask for them later, and for fewer symbols, than for the
    outline's distances). ``pooled``: the rows are one image's symbols, and the templates
    weigh diamond against clover at a blur leaning towards their median edge blur
    (``template_blur_pooled``); each row then depends on the others through that median."""
    dc = outline
    if score is not None and blur is not None and len(score):
        dc = outline * settings.outline_weight
        grey, grey_blur = score, np.asarray(blur, np.float64)
        if settings.linear_light and mix is not None:
            grey = mix
            grey_blur = edge_blur(grey)
        elif settings.linear_light and body_rgb is not None and symbol_rgb is not None:
            grey = linear_light_scores(score, body_rgb, symbol_rgb)
            grey_blur = edge_blur(grey)
        p = grey.shape[1]
        if settings.template_weight > 0:
            ncc = template_scores(grey, grey_blur, settings)
            if pooled and settings.template_blur_pooled > 0 and len(grey) > 1:
                ncc = _pooled_pair(ncc, grey, grey_blur, settings)
            dc = np.sqrt(dc * dc + (settings.template_weight * (1.0 - ncc)) ** 2)
        if settings.integral_weight > 0 or settings.notch_weight > 0:
            iprof = integrated_profiles(grey, settings.bins)
            if settings.integral_weight > 0:
                di = _integrated_distances(iprof, p, grey_blur, settings)
                dc = np.sqrt(dc * dc + (settings.integral_weight * di) ** 2)
            if settings.notch_weight > 0:
                nprof, nblur = iprof, grey_blur
                if settings.notch_smooth > 0:
                    sm = _smooth_patches(grey, settings.notch_smooth * p)
                    nprof, nblur = integrated_profiles(sm, settings.bins), edge_blur(sm)
                dn = notch_distances(nprof, p, nblur, settings)
                dc = np.sqrt(dc * dc + (settings.notch_weight * dn) ** 2)
    if len(dc) == 0:
        return np.zeros((0, len(SHAPE_ORDER)))
    z = -0.5 * (dc / settings.sigma) ** 2
    z -= z.max(axis=1, keepdims=True)
    pr = np.exp(z)
    out: NDArray[np.float64] = pr / pr.sum(axis=1, keepdims=True)
    return out


def size_consistency(
    confidences: NDArray[np.float64],
    size: NDArray[np.float64],
    settings: ShapeSettings = ShapeSettings(),
) -> NDArray[np.float64]:
    """Shape confidences of the symbols of one image, weighed by how well each symbol's size
    fits the size of the other symbols of each kind there.

    Every tile of a set carries its kind of symbol at the same printed size, and in linear
    light a symbol's summed share of symbol light over its tile (``size``: the mean of
    :func:`linear_light_mix` over the patch, a fraction of the tile's area) is that printed
    area whatever the blur. The kinds' sizes are read from the image itself (the median
    ``log size`` of the symbols read as each kind, ``settings.size_min_tiles`` or more of
    them; else the image's scale times the prototype's area, :func:`prototype_areas`), so
    no printed design is assumed. A symbol whose size departs from a kind's by more than
    ``size_tolerance`` (``size_prior_tolerance`` for a kind sized from the prototypes) has
    that kind's confidence lowered by ``exp(-((|departure| - tolerance) / size_sigma)^2 /
    2)``, at most by ``exp(-size_max_penalty)``; the rows are normalised again. A symbol
    whose size fits no kind sized from the image (within ``size_tolerance``) is left as it
    is: part of it may be hidden (a hand, the picture's edge), which shrinks it whatever its
    kind. Unlike :func:`shape_confidences`, each row depends on the whole image's symbols.

    Args:
        confidences: ``(N, 6)`` shape confidences (rows sum to 1), :data:`SHAPE_ORDER`.
        size: ``(N,)`` each symbol's summed share of symbol light over its tile (0..1).

    Returns:
        ``(N, 6)`` confidences (rows sum to 1); ``confidences`` itself when the penalty is off
        (``size_sigma`` 0) or there are fewer than ``size_min_tiles`` symbols.
    """
    n = len(confidences)
    if settings.size_sigma <= 0 or n < max(1, settings.size_min_tiles):
        return confidences
    log_size = np.log(np.maximum(np.asarray(size, np.float64), 1e-6))
    read = np.argmax(confidences, axis=1)
    proto = np.log(prototype_areas())
    scale = float(np.median(log_size - proto[read]))
    ref = scale + proto
    tol = np.full(len(SHAPE_ORDER), settings.size_prior_tolerance)
    for k in range(len(SHAPE_ORDER)):
        mine = log_size[read == k]
        if len(mine) >= settings.size_min_tiles:
            ref[k] = float(np.median(mine))
            tol[k] = settings.size_tolerance
    excess = np.maximum(np.abs(log_size[:, None] - ref[None, :]) - tol[None, :], 0.0)
    # a symbol that fits none of the sizes the image shows (part of it hidden under a hand
    # or beyond the picture's edge, a glare spot on it) says nothing about its kind
    sized = tol == settings.size_tolerance
    fits = ((excess == 0.0) & sized[None, :]).any(axis=1)
    excess[~fits] = 0.0
    penalty = np.minimum(0.5 * (excess / settings.size_sigma) ** 2, settings.size_max_penalty)
    z = np.log(np.maximum(confidences, 1e-300)) - penalty
    z -= z.max(axis=1, keepdims=True)
    pr = np.exp(z)
    out: NDArray[np.float64] = pr / pr.sum(axis=1, keepdims=True)
    return out


def _smooth_patches(patches: NDArray[np.float32], sigma: float) -> NDArray[np.float32]:
    """Each ``(N, p, p)`` float32 patch smoothed by a Gaussian of ``sigma`` px on its own (zero
    beyond its edges): the patches are stacked with zero rows between them as wide as the
    kernel's reach, so none spills into another (a patch's margin of zeros, e.g.
    ``template_inset`` 0.08 of 48 px, is narrower than the reach of a sigma of 1.4 px)."""
    n, p, _ = patches.shape
    ksize = round(sigma * 8 + 1) | 1  # OpenCV's kernel size for float images
    pad = ksize // 2
    rows = p + pad
    stack = np.zeros((n * rows + pad, p), np.float32)
    stack[pad:].reshape(n, rows, p)[:, :p] = patches
    sm = cv2.GaussianBlur(stack, (ksize, ksize), sigma, borderType=cv2.BORDER_CONSTANT)
    out: NDArray[np.float32] = np.ascontiguousarray(sm[pad:].reshape(n, rows, p)[:, :p])
    return out


def classify_profiles(
    profiles: NDArray[np.float64],
    solidity: NDArray[np.float64],
    settings: ShapeSettings = ShapeSettings(),
    blur: NDArray[np.float64] | None = None,
    score: NDArray[np.float32] | None = None,
    body_rgb: NDArray[np.float64] | None = None,
    symbol_rgb: NDArray[np.float64] | None = None,
    mix: NDArray[np.float32] | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """:func:`classify_profile` of ``(N, bins)`` profiles: ``(N, 6)`` distances, confidences.

    ``blur``: ``(N,)`` measured blur sigma of each symbol (fraction of the tile side), or
    None to allow every prototype blur level. ``score``: ``(N, p, p)`` grey symbol scores
    (0 body .. 1 symbol) in the tile's frame; with ``blur``, the confidences also weigh
    ``template_weight * (1 - correlation)`` from :func:`template_scores`,
    ``integral_weight`` times :func:`integrated_distances` and ``notch_weight`` times
    :func:`notch_distances` (all added in quadrature to the outline distance); the returned
    distances stay the outline's (they decide whether a blob is a symbol at all).
    ``body_rgb``, ``symbol_rgb``: ``(N, 3)`` sRGB colours (0..255) the score was projected
    between; with ``settings.linear_light`` the grey terms read :func:`linear_light_scores`
    and their own :func:`edge_blur` instead of the sRGB score and ``blur``. ``mix``: ``(N, p,
    p)`` share of symbol light from :func:`linear_light_mix`, read by the grey terms (with
    ``settings.linear_light``) instead of the score re-mapped by :func:`linear_light_scores`
    (the detector passes it sharpened by :func:`luma_guided_mix`). The two halves are
    :func:`outline_distances` and :func:`shape_confidences`.
    """
    if len(profiles) == 0:  # nothing to classify
        return np.zeros((0, len(SHAPE_ORDER))), np.zeros((0, len(SHAPE_ORDER)))
    d = outline_distances(profiles, solidity, settings, blur)
    return d, shape_confidences(d, settings, blur, score, body_rgb, symbol_rgb, mix)


def classify_profile(
    profile: NDArray[np.float64], solidity: float, settings: ShapeSettings = ShapeSettings()
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Distances and confidences of a symbol against the six prototypes.

    Args:
        profile: ``(settings.bins,)`` from :func:`radial_profile`, in the tile's frame.
        solidity: the blob's solidity from :func:`radial_profile`.

    Returns:
        ``(distances, confidences)``, each ``(6,)`` in :data:`SHAPE_ORDER`; distances combine
        the RMS difference of normalised radii (best turn within ``max_shift_bins``) and the
        weighted solidity difference, at the best blur level; confidences are a softmax of
        ``-(d / sigma)^2 / 2`` (sum 1).
    """
    protos, sols = _prototypes(settings.bins, settings.proto_blur)
    rolled = profile[_roll_index(settings.bins, settings.max_shift_bins)]  # (S, bins)
    diff = protos[:, :, None, :] - rolled[None, None, :, :]  # (6, B, S, bins)
    dp = (diff * diff).mean(axis=3).min(axis=2)  # (6, B)
    ds = (settings.solidity_weight * (sols - solidity)) ** 2  # (6, B)
    d = np.sqrt(dp + ds).min(axis=1)
    z = -0.5 * (d / settings.sigma) ** 2
    z -= z.max()
    p = np.exp(z)
    return d, p / p.sum()


@lru_cache(maxsize=1)
def prototype_perimeters() -> NDArray[np.float64]:
    """``(6,)`` outline length of each prototype symbol in tile sides, in :data:`SHAPE_ORDER`
    (blur moves a segmented edge, so the area a symbol may gain grows with it)."""
    out = []
    for sh in SHAPE_ORDER:
        pts = shape_polygon(sh)
        out.append(float(np.hypot(*(np.roll(pts, -1, axis=0) - pts).T).sum()))
    return np.array(out, np.float64)


@lru_cache(maxsize=1)
@disk_cached
def prototype_areas() -> NDArray[np.float64]:
    """``(6,)`` area of each prototype symbol as a fraction of the tile's area, in
    :data:`SHAPE_ORDER` (the printed symbols' size, used to reject look-alikes of the wrong
    size)."""
    size = 256
    return np.array(
        [cv2.countNonZero(prototype_mask(sh, size)) / size**2 for sh in SHAPE_ORDER], np.float64
    )


@lru_cache(maxsize=64)
def _grey_prototype(shape: Shape, p: int, scale: float, turn_deg: float, blur: float) -> Any:
    """``(p, p)`` float32 grey prototype 0..1 of ``shape`` at ``scale`` x its printed size,
    turned by ``turn_deg``, blurred by a Gaussian of ``blur`` x ``p`` (antialiased fill)."""
    img = _polygon_fill(shape, p, scale, turn_deg) / 255.0
    if blur > 0:
        img = cast(NDArray[np.floating], cv2.GaussianBlur(img, (0, 0), blur * p))
    return img


def visible_mismatch(
    score: NDArray[np.float32],
    visible: NDArray[np.bool_],
    blur: NDArray[np.float64],
    scale: float,
    settings: ShapeSettings = ShapeSettings(),
    max_shift: float = 0.06,
) -> NDArray[np.float64]:
    """How far each symbol's visible part is from each prototype, ``(N, 6)``.

    A symbol a hand covers part of has an outline only where it is seen: its centroid and
    radial profile move with the cover, and the classifier reads a covered diamond or clover
    as a circle with full confidence. Here each grey prototype (at the board's printed size
    ``scale``, the turns of ``template_turns_deg`` / ``star8_template_turns_deg``, blurred as
    the symbol's edge ``blur``, shifted by up to ``max_shift`` of the tile side either way)
    is compared with the symbol score over the ``visible`` pixels only: the mismatch is
    ``sum |score - prototype|`` over ``sum max(score, prototype)`` there (0 = the visible part
    is that prototype's, 1 = nothing in common), the best over turns and shifts. A symbol
    whose seen part fits one prototype and no other is that shape; one whose seen part fits
    two (a clover and a circle agree wherever a notch is hidden) is decided by nothing.

    Args:
        score: ``(N, p, p)`` float32 symbol score 0 (body) .. 1 (symbol), tile frame.
        visible: ``(N, p, p)`` bool, pixels not under an occluder.
        blur: ``(N,)`` edge blur sigma, fraction of the tile side.
        scale: the printed symbols' size over the prototypes' (1 = :func:`shape_polygon`).
        settings: the turns tried.
        max_shift: the largest shift tried, fraction of the tile side (whole pixels).

    Returns:
        ``(N, 6)`` mismatches 0..1 in :data:`SHAPE_ORDER`.
    """
    n, p, _ = score.shape
    out = np.ones((n, len(SHAPE_ORDER)))
    q = max(0, round(max_shift * p))
    for i in range(n):
        sw, vw = _shifted_windows(score[i], visible[i], q)
        b = float(np.asarray(blur)[i])
        for k, sh in enumerate(SHAPE_ORDER):
            turns = (
                settings.star8_template_turns_deg
                if sh is Shape.STAR8 and settings.star8_template_turns_deg
                else settings.template_turns_deg
            )
            best = 1.0
            for turn in turns:
                t = _grey_prototype(sh, p, round(scale, 2), turn, round(b, 3))[None]
                diff = (np.abs(sw - t) * vw).sum(axis=(1, 2))
                union = (np.maximum(sw, t) * vw).sum(axis=(1, 2))
                best = min(best, float((diff / np.maximum(union, 1e-6)).min()))
            out[i, k] = best
    return out


def _shifted_windows(
    grey: NDArray[np.floating[Any]], visible: NDArray[np.bool_], q: int
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Every shift of a ``(p, p)`` patch ``grey`` and its ``visible`` mask by up to ``q``
    pixels either way (zero-padded): ``(shifts, p, p)`` float32 windows of each, alike."""
    p = grey.shape[0]
    g = np.pad(np.asarray(grey, np.float32), q)
    v = np.pad(visible, q).astype(np.float32)
    gw = np.lib.stride_tricks.sliding_window_view(g, (p, p)).reshape(-1, p, p)
    vw = np.lib.stride_tricks.sliding_window_view(v, (p, p)).reshape(-1, p, p)
    return gw, vw


def visible_separation(
    first: NDArray[np.int64],
    second: NDArray[np.int64],
    visible: NDArray[np.bool_],
    blur: NDArray[np.float64],
    scale: float,
) -> NDArray[np.float64]:
    """How much two prototypes differ over the visible pixels, ``(N,)``.

    The mismatch (as :func:`visible_mismatch`: ``sum |a - b|`` over ``sum max(a, b)``)
    between prototype ``first[i]`` and ``second[i]`` (indices in :data:`SHAPE_ORDER`), both
    centred and unturned at ``scale``, blurred by ``blur[i]`` (fraction of the side), over
    ``visible[i]`` (``(N, p, p)`` bool). Two prototypes that differ little where the symbol
    is seen (a diamond and a clover, whose tips and lobes reach as far, by 0.08-0.10 in
    the hand scenes' cells, 0.10-0.16 drawn sharp) cannot be told apart by the seen part,
    whatever it fits best.
    """
    n, p, _ = visible.shape
    out = np.zeros(n)
    for i in range(n):
        b = round(float(blur[i]), 3)
        a = _grey_prototype(SHAPE_ORDER[int(first[i])], p, round(scale, 2), 0.0, b)
        c = _grey_prototype(SHAPE_ORDER[int(second[i])], p, round(scale, 2), 0.0, b)
        v = visible[i].astype(np.float32)
        out[i] = float((np.abs(a - c) * v).sum() / max(float((np.maximum(a, c) * v).sum()), 1e-6))
    return out


def scene_templates(
    mix: NDArray[np.floating[Any]], confidences: NDArray[np.float64], min_confidence: float
) -> dict[int, NDArray[np.float32]]:
    """One image's own templates of its symbols: for each shape some symbol is read as with
    at least ``min_confidence``, the mean of those symbols' grey patches, averaged over the
    square's eight symmetries (every Qwirkle symbol has them in the tile frame: the square's
    edges, the diamond's tips and the clover's lobes align with the tile's edges, the
    criss-cross points to its corners, the starburst's eight points lie on its axes and
    diagonals - photos of the classic set, :func:`vision.render._symbol_polys`; a few
    degrees of askew print average out).

    The tiles of one image share its set's art (editions and 3D-printed sets print their
    own proportions: a clover's lobes, a diamond's aspect), its light and its blur, which
    fixed prototypes do not.

    Args:
        mix: ``(M, p, p)`` grey patches 0 (body) .. 1 (symbol), tile frame (the share of
            symbol light, or the symbol score).
        confidences: ``(M, 6)`` shape confidences in :data:`SHAPE_ORDER`.
        min_confidence: the least confidence of a symbol taken into its shape's template.

    Returns:
        ``{shape index in SHAPE_ORDER: (p, p) float32 template}``, only shapes with a
        symbol read so.
    """
    out: dict[int, NDArray[np.float32]] = {}
    if not len(mix):
        return out
    grey = np.asarray(mix, np.float32)
    best = np.argmax(confidences, axis=1)
    sure = confidences[np.arange(len(best)), best] >= min_confidence
    for k in np.unique(best[sure]).tolist():
        mean = grey[sure & (best == k)].mean(axis=0)
        turns = [np.rot90(mean, q) for q in range(4)]
        out[int(k)] = np.mean(turns + [t.T for t in turns], axis=0).astype(np.float32)
    return out


def visible_template_fit(
    mix: NDArray[np.floating[Any]],
    visible: NDArray[np.bool_],
    template: NDArray[np.floating[Any]],
    max_shift: float = 0.06,
) -> float:
    """Mean ``|mix - template|`` over the ``visible`` pixels (``(p, p)`` each; ``mix`` and
    ``template`` 0..1), the best over shifts of up to ``max_shift`` of the tile side either
    way (whole pixels), as :func:`visible_mismatch` shifts. 0 = the visible part is the
    template's; inf when nothing is visible."""
    sw, vw = _shifted_windows(mix, visible, max(0, round(max_shift * mix.shape[0])))
    n = vw.sum(axis=(1, 2))
    err = (np.abs(sw - template[None]) * vw).sum(axis=(1, 2)) / np.maximum(n, 1e-6)
    err[n <= 0] = np.inf
    return float(err.min())
