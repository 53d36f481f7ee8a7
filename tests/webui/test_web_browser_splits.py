"""Real browser: a review with two-turn readings arrives by SSE on an open Live page (rendered
by live.js with text nodes) and one click accepts it as two turns."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorer.game import Place, Review
from scorer.model import Placement

pytestmark = pytest.mark.browser


def test_accept_as_two_moves_from_the_live_page(page: Page, live_server: Any, st: Any) -> None:
    gid = st.store.create_game(["Ann", "Ben", "Cleo"])
    st.store.append(gid, Place(0, Placement.parse("Rs@0,0 Rc@0,1 Rd@0,2")))
    page.goto(f"{live_server.url}/games/{gid}", wait_until="domcontentloaded")
    expect(page.locator("#scoreboard li .total")).to_have_text(["3", "0", "0"])
    first, second = Placement.parse("Bs@1,0 Gs@2,0"), Placement.parse("Gc@2,1 Gd@2,2")
    seen = Placement((*first.tiles, *second.tiles))
    st.store.append(gid, Review(1, "two moves?", seen, (), 9, ((first, second),)))
    st.hub.bump(gid)  # what CameraFeed does for a tracker's review
    button = page.get_by_role("button", name="Accept as two moves: Ben Bs@1,0 Gs@2,0")
    expect(button).to_contain_text("then Cleo Gc@2,1 Gd@2,2", timeout=10_000)
    button.click()
    expect(page.locator("#scoreboard li .total")).to_have_text(["3", "3", "3"])
    expect(page.locator("#review-count")).to_have_text("0")
    assert st.store.game(gid).events[1:] == (Place(1, first), Place(2, second))
