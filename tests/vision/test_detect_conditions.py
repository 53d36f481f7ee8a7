"""Golden rendered scenes named for what they stress (issue 3): rates per condition.

Each condition renders two fixed boards with fixed seeds through :mod:`vision.render` and
checks recall, precision, colour+shape identity and cell agreement against the truth, with
tolerances. The floors are what the detector reliably reaches on these scenes, less one tile
(measured 2026-11-21, see docs/benchmarks.md); the issue's targets (99.5 %) are tracked by
``benchmarks/bench_vision.py`` on many more scenes, not here.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.detect import detect
from vision.evaluate import DetectionScore, random_board, score_detection
from vision.render import PRESETS, render

#: condition -> (min recall, min precision, min identity)
FLOORS: dict[str, tuple[float, float, float]] = {
    # raised 2026-11-21 (second session) to what the detector now reads (100 % on all but
    # hand 88.9 % and tiny tiles 95.8 % recall), leaving one tile of slack per condition
    "glare": (0.97, 0.98, 0.97),
    "dim": (0.97, 0.98, 0.97),
    "warm": (0.97, 0.98, 0.97),
    "cool": (0.97, 0.98, 0.97),
    "oblique": (0.97, 0.98, 0.97),
    "patterned_cloth": (0.97, 0.98, 0.97),
    "dark_table": (0.97, 0.98, 0.97),
    "tiny_tiles": (0.93, 0.98, 0.95),
    "hand": (0.85, 0.98, 0.95),
    "printed_grid": (0.97, 0.98, 0.97),
}


def _score(name: str, seeds: tuple[int, ...] = (1, 2)) -> tuple[DetectionScore, list]:  # type: ignore[type-arg]
    total = DetectionScore()
    obs_list = []
    for seed in seeds:
        board = random_board(np.random.default_rng(100 + seed), 24)
        r = render(board, PRESETS[name], seed=seed)
        obs = detect(r.image_bgr)
        total = total + score_detection(obs, r.truth, r.pitch_px)
        obs_list.append((obs, r))
    return total, obs_list


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_condition_rates(name: str) -> None:
    sc, _ = _score(name)
    recall, precision, identity = FLOORS[name]
    detail = f"{name}: {sc.summary()} confusions={dict(sc.confusions)}"
    assert sc.recall >= recall, detail
    assert sc.precision >= precision, detail
    assert sc.identity >= identity, detail
    assert sc.cells >= 0.97, detail


def test_hand_covered_tiles_are_unseen_not_guessed() -> None:
    # arms in a sleeve or darker than the table; a bare hand over light wood of the same tone
    # is a known miss (docs/benchmarks.md)
    _, runs = _score("hand", seeds=(3, 5))
    hidden_total = 0
    flagged = 0
    for obs, r in runs:
        hidden = {t.pos for t in r.truth if not t.visible}
        hidden_total += len(hidden)
        assert 0.0 <= obs.occluded_fraction <= 1.0
        flagged += int(len(obs.unseen) >= 1 and obs.occluded_fraction > 0.0)
        # no tile is reported where the truth says it is hidden unless it is read right
        truth = {t.center_xy: t for t in r.truth}
        centres = np.array(list(truth))
        for t in obs.tiles:
            j = int(np.argmin(np.hypot(*(centres - t.center_xy).T)))
            tt = truth[tuple(centres[j])]
            if not tt.visible:
                assert tt.tile == t.tile
    assert hidden_total >= 1  # the scenes do hide something
    assert flagged == 2


def test_golden_scenes_on_disk() -> None:
    """The stored golden JPEGs (tests/data/golden, made by benchmarks/make_golden.py)."""
    from calibration.profile import Profile
    from vision.render import load_golden

    try:
        scenes = load_golden()
    except FileNotFoundError:
        pytest.skip("no golden scenes generated")
    total = DetectionScore()
    for g in scenes:
        sc = score_detection(
            detect(g.image_bgr, profile=Profile(palette=g.palette)), g.truth, g.pitch_px
        )
        total = total + sc
        if g.name in ("connect_white", "custom_paints"):  # palettes other than the classic
            assert sc.identity >= 0.9, (g.name, dict(sc.confusions))
    assert total.recall >= 0.95, total.summary()
    assert total.precision >= 0.97, total.summary()
    assert total.identity >= 0.9, total.summary()
    assert total.cells >= 0.98, total.summary()


@pytest.mark.parametrize("name", ["patterned_cloth", "dark_table", "printed_grid", "green_felt"])
def test_empty_tables_give_no_tiles(name: str) -> None:
    from scorer.model import Board

    for seed in (1, 2, 3):
        obs = detect(render(Board(), PRESETS[name], seed=seed).image_bgr)
        assert obs.tiles == (), (name, seed, [str(t.tile) for t in obs.tiles])


def test_calibrated_profile_under_dim_light_is_not_worse() -> None:
    """A profile calibrated under dim light (its white balance also lifts the exposure) reads
    colours at least as well as the uncalibrated one: tiles are found on the raw image and
    only the measured colours are corrected (calibration rows of docs/ARCHITECTURE.md)."""
    from calibration.colour import calibrate_colours
    from calibration.profile import Palette, Profile
    from scorer.model import Board, Shape, Tile
    from vision.render import Scene

    palette = Palette.classic()
    scene = Scene(PRESETS["dim"], 1, size=(1280, 720), palette=palette)
    line = Board(
        ((0, i - 2), Tile(name, list(Shape)[i % 6])) for i, name in enumerate(palette.names)
    )
    cal = calibrate_colours(scene.frame(line, t=0.0).image_bgr, palette)
    assert cal.complete, cal.problems()
    assert cal.profile.white_balance is not None
    right = {"plain": 0, "calibrated": 0}
    seen = {"plain": 0, "calibrated": 0}
    total = 0
    for k in range(2):
        rng = np.random.default_rng([4, k])
        r = scene.frame(random_board(rng, 24), t=1.0 + k)
        truth = [t for t in r.truth if t.visible]
        total += len(truth)
        tc = np.array([t.center_xy for t in truth])
        for name, prof in (("plain", Profile(palette=palette)), ("calibrated", cal.profile)):
            for t in detect(r.image_bgr, profile=prof).tiles:
                d = np.hypot(*(tc - t.center_xy).T)
                j = int(np.argmin(d))
                if d[j] < 0.4 * r.pitch_px:
                    seen[name] += 1
                    right[name] += t.tile.color == truth[j].tile.color
    assert seen["calibrated"] >= 0.9 * total, (seen, total)
    assert seen["calibrated"] >= seen["plain"] - 1, seen
    assert right["calibrated"] >= right["plain"] - 1, (right, seen)
    assert right["calibrated"] >= 0.85 * seen["calibrated"], (right, seen)
