"""`ltr-teach check` and `ltr-teach exercises`: exit codes, sheets for a class, the key."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import ltr_teach as lt
from ltr_teach.cli import build_parser, main, parse_seeds


def test_check_exit_codes(capsys):
    assert main(["check", "ndcg-lipstick", "0.944"]) == 0
    assert capsys.readouterr().out.startswith("✓")
    assert main(["check", "ndcg-lipstick", "0.123"]) == 1
    assert main(["check", "ndcg-lipstick", "9^9^9^9"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ltr-teach: error: ndcg-lipstick: could not read that answer") and err.count("\n") == 1
    assert main(["check", "ndcg-lipstik", "0.944"]) == 2
    assert "did you mean ndcg-lipstick" in capsys.readouterr().err


def test_check_names_the_linear_gain_slip(capsys):
    # the lipstick ranking with linear gain: NDCG = 0.954812... (see test_checker for the hand computation)
    assert main(["check", "ndcg-lipstick", "0.9548"]) == 1
    assert "2^rel - 1" in capsys.readouterr().out


def test_check_with_a_seed_and_reveal(capsys):
    v = lt.exercises.variant("map-doc000", 4)
    assert main(["check", "map-doc000", str(v.answer), "--seed", "4"]) == 0
    assert main(["check", "map-doc000", "0.1", "--seed", "4", "--reveal"]) == 1
    assert f"expected: {v.answer}" in capsys.readouterr().out


def test_check_exit_codes_from_the_console(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    run = [sys.executable, "-m", "ltr_teach.cli", "check", "map-doc000"]
    codes = [subprocess.run(run + [answer], env=env, capture_output=True, check=False).returncode
             for answer in ("599/840", "0.5", "lambda: 1")]
    assert codes == [0, 1, 2]


def test_exercises_list_shows_every_id(capsys):
    assert main(["exercises", "list"]) == 0
    out = capsys.readouterr().out
    assert all(e.id in out for e in lt.exercises.all())
    assert main(["exercises", "list", "--family", "err"]) == 0
    out = capsys.readouterr().out
    assert "err-lipstick" in out and "ndcg-lipstick" not in out


def test_exercises_show(capsys):
    assert main(["exercises", "show", "ndcg-lipstick", "--seed", "3"]) == 0
    assert lt.exercises.variant("ndcg-lipstick", 3).prompt in capsys.readouterr().out


def test_thirty_sheets_and_a_key_with_one_command(tmp_path):
    out, key = tmp_path / "sheet-{seed}.md", tmp_path / "key.md"
    assert main(["exercises", "sheet", "--seeds", "1-30", "--out", str(out), "--key", str(key)]) == 0
    sheets = [(tmp_path / f"sheet-{seed}.md").read_text(encoding="utf-8") for seed in range(1, 31)]
    assert len(set(sheets)) == 30
    key_text = key.read_text(encoding="utf-8")
    assert key_text.count("## Seed ") == 30
    v = lt.exercises.variant("ap-lipstick", 17)
    assert v.prompt in sheets[16] and f"`{v.call}`" in key_text


def test_sheets_in_one_file_with_repeated_seeds(tmp_path):
    out = tmp_path / "sheet.md"
    assert main(["exercises", "sheet", "--seed", "1", "--seed", "2", "--out", str(out), "map-doc000"]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.count("## Sheet for seed") == 2 and "ndcg-lipstick" not in text


def test_sheet_usage_errors(capsys):
    assert main(["exercises", "sheet"]) == 2
    assert "--seeds 1-30" in capsys.readouterr().err
    assert main(["exercises", "sheet", "--seeds", "30-1"]) == 2
    assert main(["exercises", "sheet", "--seeds", "a"]) == 2
    assert main(["exercises", "sheet", "--seed", "1", "nope"]) == 2


@pytest.mark.parametrize("text, seeds", [("1-3", [1, 2, 3]), ("3,5,8", [3, 5, 8]), ("1-3,10,2", [1, 2, 3, 10])])
def test_parse_seeds(text, seeds):
    assert parse_seeds(text) == seeds


def test_help_documents_many_seeds():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    help_text = sub.choices["exercises"].format_help()
    assert "--seeds 1-30" in help_text and "{seed}" in help_text and "--key" in help_text


def test_check_joins_an_unquoted_answer_and_reads_input_method_text(capsys):
    # MAP = (13/15 + 47/84) / 2: typed unquoted with spaces, or with full-width digits
    assert main(["check", "map-doc000", "599", "/", "840"]) == 0
    assert main(["check", "map-doc000", "５９９／８４０"]) == 0
    assert main(["check", "map-doc000", "-0.5"]) == 1
