"""Growth's glared test lets a symbol read darker than its strongly glared margin
(``grow_glare_min_symbol_lift``).

Printed paint is less glossy than a tile's black top: under a strong highlight the top
reflects more of the lamp than the symbol does, so the symbol reads darker than its margin
in every channel (``max_c symbol_c / margin_c`` 0.85-0.88 here) while its paint still shows
over the margin (chroma and saturation). Beside a glared tile of the board (growth's glared
test asks for one), on a margin lifted to the local light envelope
(``grow_glare_low_lift_margin``), it is taken at a lower lift than ``glare_min_symbol_lift``.
"""

from __future__ import annotations

from dataclasses import replace

from hard_scenes import false_tiles, score_hard_scene

from vision.detect import DetectorSettings
from vision.evaluate import legal_board


def test_symbols_darker_than_their_glared_margin_are_grown() -> None:
    """Seed 137 legal scene 55 (gamma ISP; light wood, glare, big tiles): a green star8 and a
    purple diamond on near-white glared margins beside glared tiles of the board are
    missed at the shared bound and read at growth's own; nothing false, nothing more read
    wrong."""
    s = DetectorSettings()
    shared = replace(s, grow_glare_min_symbol_lift=s.glare_min_symbol_lift)
    off = score_hard_scene(137, 55, legal_board, shared)
    on = score_hard_scene(137, 55, legal_board, s)
    assert off.visible - off.matched_visible >= 2
    assert on.visible - on.matched_visible <= off.visible - off.matched_visible - 2
    assert false_tiles(on) <= false_tiles(off)
    assert on.matched - on.identity_ok <= off.matched - off.identity_ok


def test_a_glared_ginghams_checks_do_not_grow_at_the_lower_lift() -> None:
    """Seed 97 legal scene 59 (gamma ISP; teal gingham, big tiles): the cloth's checks on
    their cream read 0.83-0.90 of it, like glared symbols, but the cream stays under the
    light envelope; with the margin bound off they grow as a glared patch (tiles lost, false
    ones read), with it the board reads as at the shared bound."""
    s = DetectorSettings()
    shared = score_hard_scene(
        97, 59, legal_board, replace(s, grow_glare_min_symbol_lift=s.glare_min_symbol_lift)
    )
    unbound = score_hard_scene(97, 59, legal_board, replace(s, grow_glare_low_lift_margin=0.0))
    on = score_hard_scene(97, 59, legal_board, s)
    assert unbound.matched_visible <= shared.matched_visible - 5
    assert on.matched_visible == shared.matched_visible
    assert false_tiles(on) <= false_tiles(shared)
