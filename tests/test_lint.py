"""The whole tree (library, tests, tools, benchmarks and the built notebooks) passes ruff under pyproject's rules."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--output-format", "concise", "."],
                          capture_output=True, text=True, encoding="utf-8", cwd=ROOT, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
