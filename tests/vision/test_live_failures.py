"""A frame the detector fails on is skipped, counted and logged; tracking goes on."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from scorer.game import Game, Place
from vision.demo import DemoSettings, demo_game, script_game, truth_observations
from vision.live import FramePipeline
from vision.observation import Observation
from vision.sources import Frame
from vision.tracking import MemorySink, Tracker

SETTINGS = DemoSettings(
    seed=8, players=2, turns=3, size=(480, 270), bump_turn=1, nudge_turn=2, still_s=1.0,
    exchange_rate=0.0,
)  # fmt: skip


def test_detector_failures_skip_frames_and_the_game_is_tracked_exactly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = demo_game(SETTINGS)
    sink = MemorySink(Game(players=game.players))
    tracker = Tracker(sink, first_player=game.events[0].player)
    current: list[Observation] = []
    calls = [0]

    def flaky(image: np.ndarray) -> Observation:
        calls[0] += 1
        if calls[0] % 7 == 0:  # every 7th frame: as if the detector hit a bug
            raise ValueError("cannot read this frame")
        return current[-1]

    pipeline = FramePipeline(tracker, detector=flaky)
    image = np.zeros((36, 64, 3), np.uint8)
    moves, frames = 0, 0
    with caplog.at_level(logging.ERROR, logger="vision.live"):
        for shot, obs in truth_observations(script_game(game, SETTINGS), SETTINGS):
            current.append(obs)
            frame = Frame(index=shot.index, t=shot.t, image_bgr=image)
            moves += sum(e.kind == "move" for e in pipeline.process(frame, use_motion=False))
            frames += 1
    assert sink.game().events == game.events
    assert moves == sum(isinstance(e, Place) for e in game.events)
    assert frames > 50 and pipeline.failed_frames == frames // 7
    assert pipeline.last_error is not None and "cannot read this frame" in pipeline.last_error
    assert any("frame skipped" in r.getMessage() for r in caplog.records)
