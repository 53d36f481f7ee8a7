"""``tabletally score`` through the real console script (subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parents[1] / "data" / "dutch-example.json"
EXE = Path(sys.executable).with_name("tabletally")


def score(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [str(EXE)] if EXE.exists() else [sys.executable, "-m", "webui.cli"]
    return subprocess.run([*cmd, "score", *args], capture_output=True, text=True, timeout=60)


def test_score_sheet_lists_turns_points_lines_totals_and_winner() -> None:
    r = score(str(DATA))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Rx@0,4 Bx@1,4 Px@-1,4" in out and "6+6 Qwirkle (row)" in out
    assert "Totals: Suzan 20, Chris 22, Lisanne 25, Bob 18" in out
    assert "Lisanne" in out.splitlines()[-1]
    assert r.stderr == ""


def test_json_output_shape(tmp_path: Path) -> None:
    second = tmp_path / "b.json"
    second.write_text(
        json.dumps(
            {
                "format": "tabletally-game/1",
                "players": ["A", "B"],
                "turns": [
                    {
                        "player": 0,
                        "place": [{"row": 0, "col": 0, "color": "red", "shape": "square"}],
                    },
                    {
                        "player": 1,
                        "place": [{"row": 0, "col": 1, "color": "blue", "shape": "circle"}],
                    },
                ],
            }
        )
    )
    r = score(str(DATA), str(second), "--json")
    assert r.returncode == 0, r.stderr
    objs = json.loads(r.stdout)
    assert isinstance(objs, list) and len(objs) == 2
    a, b = objs
    assert a["players"] == ["Suzan", "Chris", "Lisanne", "Bob"]
    assert [t["points"] for t in a["turns"]] == [3, 7, 4, 6, 7, 6, 3, 3, 10, 9, 18, 9]
    assert a["totals"] == [20, 22, 25, 18] and a["winners"] == [2]
    for t in a["turns"]:
        assert {"player", "points", "legal", "reason", "lines", "qwirkle"} <= set(t)
    illegal = b["turns"][1]
    assert illegal["legal"] is False and illegal["points"] == 0 and "neither" in illegal["reason"]


def test_malformed_record_one_line_error_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "game.json"
    bad.write_text(
        json.dumps(
            {
                "format": "tabletally-game/1",
                "players": ["A"],
                "turns": [
                    {"player": 0, "place": [{"row": 0, "col": 0, "color": "rd", "shape": "circle"}]}
                ],
            }
        )
    )
    r = score(str(bad))
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr
    assert "game.json: turns[0].place[0].color: unknown colour 'rd'" in lines[0]


def test_some_failed_others_scored_exit_1(tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text("{not json")
    r = score(str(bad), str(DATA), "--json")
    assert r.returncode == 1
    objs = json.loads(r.stdout)
    assert "error" in objs[0] and "malformed JSON" in objs[0]["error"]
    assert objs[1]["totals"] == [20, 22, 25, 18]
    assert "broken.json" in r.stderr and "Traceback" not in r.stderr


def test_missing_file_and_usage_errors() -> None:
    r = score("/nonexistent/game.json")
    assert r.returncode == 2 and "cannot read file" in r.stderr and "Traceback" not in r.stderr
    r = score()
    assert r.returncode == 2 and "Traceback" not in r.stderr  # argparse: RECORD required


def test_help() -> None:
    r = score("--help")
    assert r.returncode == 0 and "--json" in r.stdout
