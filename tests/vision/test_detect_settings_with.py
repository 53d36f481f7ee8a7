"""``_settings_with``: the detector's settings variants, kept per settings.

The reads of one detect ask for the same few variants of their settings several times (the
partly-covered look's occluder bounds, the foreign-chroma test without ``clip_low_level``);
a ``dataclasses.replace`` copies every field each time. These tests pin that the kept
variant is the replaced settings, that it is kept, and that settings which cannot be hashed
still get it.
"""

from __future__ import annotations

import dataclasses

from vision.detect import DetectorSettings, _settings_with


def test_a_variant_equals_the_replaced_settings_and_is_kept() -> None:
    s = DetectorSettings()
    got = _settings_with(s, clip_low_level=0.0)
    assert got == dataclasses.replace(s, clip_low_level=0.0)
    assert got.clip_low_level == 0.0 and s.clip_low_level > 0
    assert _settings_with(s, clip_low_level=0.0) is got
    # the changes are one key whatever their order
    a = _settings_with(s, occluder_max_touch=1.0, occluder_max_share=0.5)
    b = _settings_with(s, occluder_max_share=0.5, occluder_max_touch=1.0)
    assert a is b and a.occluder_max_touch == 1.0 and a.occluder_max_share == 0.5
    # other settings get their own variant
    other = dataclasses.replace(s, clip_low_level=5.0)
    assert _settings_with(other, occluder_max_touch=1.0).clip_low_level == 5.0


def test_settings_with_an_unhashable_field_are_replaced_afresh() -> None:
    s = dataclasses.replace(DetectorSettings(), rescue_dark_ratios=[0.5])  # type: ignore[arg-type]
    got = _settings_with(s, clip_low_level=0.0)
    assert got.clip_low_level == 0.0 and got.rescue_dark_ratios == [0.5]
