"""Real browser (Debian chromium via Playwright) against a real server on 127.0.0.1."""

from __future__ import annotations

import csv
import io
import time
from typing import Any

import pytest
from conftest import XSS_NAME, Client, photos
from playwright.sync_api import Page, expect

from webui.demo import DemoSettings, LogReplayDemo, demo_record

pytestmark = pytest.mark.browser


def test_watch_a_game_score_itself(page: Page, live_server: Any, st: Any) -> None:
    demo = LogReplayDemo(
        st, demo_record(), DemoSettings(step_s=0.25, first_move_s=1.0), frames=False
    )
    st.live = demo
    page.goto(f"{live_server.url}/games/{demo.game_id}", wait_until="domcontentloaded")
    expect(page.locator("#last-move")).to_contain_text("No move yet")
    page.evaluate("window.__same_page = true")
    demo.start()
    board = page.locator("#scoreboard li .total")
    expect(board).to_have_text(["20", "22", "25", "18"], timeout=20_000)
    expect(page.locator("#last-move")).to_contain_text("Bob: 9 — row of 2 = 2, column of 2 = 2")
    expect(page.locator("#unseen-total")).to_have_text("83")
    assert page.evaluate("window.__same_page") is True  # updated by SSE, not by reloading
    assert "v=" in (page.locator("#board").get_attribute("src") or "")
    demo.stop()


def test_correct_a_tile_and_totals_change(
    page: Page, live_server: Any, client: Client, dutch_record: dict[str, Any]
) -> None:
    gid = client.post("/api/import", json=dutch_record).get_json()["id"]
    page.goto(f"{live_server.url}/games/{gid}/log")
    expect(page.locator("#totals .ptotal .total")).to_have_text(["20", "22", "25", "18"])
    turn = page.locator("#turn-11")  # Lisanne's Qwirkle: Rx@0,4 Bx@1,4 Px@-1,4
    turn.locator("summary").click()
    # The red star4 becomes a red square: the row of 6 loses its Qwirkle -> illegal duplicate.
    turn.locator("select[name=t0_shape]").select_option("circle")
    turn.get_by_role("button", name="Save").click()
    expect(page.locator("#turn-11 .pts")).to_have_text("0")
    expect(page.locator("#turn-11 .why")).to_contain_text("Not scored")
    expect(page.locator("#totals .ptotal .total")).to_have_text(["20", "22", "7", "18"])
    # Put it back: Lisanne's 18 returns.
    turn = page.locator("#turn-11")
    turn.locator("summary").click()
    turn.locator("select[name=t0_shape]").select_option("star4")
    turn.get_by_role("button", name="Save").click()
    expect(page.locator("#totals .ptotal .total")).to_have_text(["20", "22", "25", "18"])


def test_download_csv_and_pdf(
    page: Page, live_server: Any, client: Client, dutch_record: dict[str, Any]
) -> None:
    gid = client.post("/api/import", json=dutch_record).get_json()["id"]
    page.goto(f"{live_server.url}/games/{gid}/end")
    expect(page.locator("h1")).to_contain_text("Lisanne")
    with page.expect_download() as dl:
        page.get_by_role("link", name="CSV").click()
    rows = list(csv.reader(io.StringIO(dl.value.path().read_text(encoding="utf-8"))))
    assert rows[-2][4:8] == ["20", "22", "25", "18"] and rows[-1][1] == "Lisanne"
    with page.expect_download() as dl:
        page.get_by_role("link", name="Score sheet (PDF)").click()
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(dl.value.path())
    text = " ".join(pdf[0].get_textpage().get_text_range().split())
    pdf.close()
    assert "Lisanne with 25 points" in text and "Final board" in text


def test_xss_name_shows_as_text(page: Page, live_server: Any, client: Client) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    gid = client.post("/api/games", json={"players": [XSS_NAME, "Ben"]}).get_json()["id"]
    page.goto(f"{live_server.url}/games/{gid}")
    expect(page.locator("#scoreboard li .name").first).to_have_text(XSS_NAME)
    # A live update re-renders the scoreboard from JSON with text nodes.
    client.post(
        f"/api/games/{gid}/turns",
        json={"player": 0, "place": [{"row": 0, "col": 0, "color": "red", "shape": "circle"}]},
    )
    expect(page.locator("#last-move .who")).to_have_text(XSS_NAME)
    expect(page.locator("#scoreboard li .total").first).to_have_text("1")
    assert page.locator("#scoreboard img, #last-move img").count() == 0
    time.sleep(0.3)
    assert dialogs == []


def test_watch_the_camera_pipeline_score_photos(
    page: Page, live_server: Any, st: Any, tmp_path: Any, dutch_record: dict[str, Any]
) -> None:
    """Photos of three turns -> live pipeline -> store -> SSE -> the open page (the renderer's
    truth stands in for the detector so the test checks the web side, not vision)."""
    from vision.sources import SourceSettings, open_source
    from vision.tracking import TrackerSettings
    from webui.live import CameraFeed

    game, folder, truths = photos(tmp_path, dutch_record, 3)
    gid = st.store.create_game(game.players)
    feed = CameraFeed(
        st,
        gid,
        open_source(folder, SourceSettings(folder_fps=1.0, realtime=True)),
        label="photos",
        tracker_settings=TrackerSettings(stills=True),
        detector=lambda image: truths[image.tobytes()],
    )
    st.live = feed
    page.goto(f"{live_server.url}/games/{gid}", wait_until="domcontentloaded")
    expect(page.locator("#last-move")).to_contain_text("No move yet")
    feed.start()
    try:
        expect(page.locator("#scoreboard li .total")).to_have_text(
            ["3", "7", "4", "0"], timeout=20_000
        )
        expect(page.locator("#last-move")).to_contain_text("Lisanne: 4 — row of 2 = 2")
        expect(page.locator("#camera-health")).to_contain_text("photos")
    finally:
        feed.stop()
