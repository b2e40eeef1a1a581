"""After ``pip install``: the wheel carries the whole course and ``ltr-teach tutorial`` gives it to a student.

The test builds the wheel from a copy of the source (pip's ordinary build, in an isolated build
environment), installs it into a fresh virtual environment, copies the tutorial with the installed
``ltr-teach`` (``PYTHONPATH`` unset, so only the wheel is seen) and runs every copied notebook with
nbval in that environment. The new environment reads its dependencies (SymPy, JupyterLab, nbval
...) from this interpreter's site-packages through a ``.pth`` line, added after the wheel is
installed, so nothing is downloaded but the build backend, and the source checkout stays out of
sight (a plain path line does not run the editable install's import hook).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# every notebook of both editions and each edition folder's language file
TUTORIAL = sorted(p.relative_to(REPO).as_posix() for folder in ("notebooks", "exercises") for p in (REPO / folder).rglob("*")
                  if p.is_file() and (p.suffix == ".ipynb" or p.name == ".ltr-teach-language")
                  and ".ipynb_checkpoints" not in p.parts)
SKIP = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".ipynb_checkpoints",
                              ".hypothesis", ".pytest_cache", "tests", "benchmarks")


def run(command, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", errors="replace",
                          timeout=600, check=False, **kwargs)
    assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv's python, venv's ltr-teach, the wheel) with the freshly built wheel installed."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    shutil.copytree(REPO, source, ignore=SKIP)
    run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(root / "dist")])
    wheel = next((root / "dist").glob("ltr_teach-*.whl"))
    venv = root / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q", str(wheel)])
    site = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    (site / "zz_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return python, venv / "bin" / "ltr-teach", wheel


def clean_env() -> dict:
    # Neither this checkout (PYTHONPATH) nor this pytest run (PYTEST_CURRENT_TEST ...) reaches the new environment.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME") and not k.startswith("PYTEST")}
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    return env


def test_the_wheel_holds_every_tutorial_and_exercise_notebook(installed):
    _, _, wheel = installed
    with zipfile.ZipFile(wheel) as archive:
        shipped = {name.removeprefix("ltr_teach/tutorial/"): archive.read(name) for name in archive.namelist()
                   if name.startswith("ltr_teach/tutorial/")}
    assert sorted(shipped) == TUTORIAL
    assert all(shipped[name] == (REPO / name).read_bytes() for name in TUTORIAL)


def test_ltr_teach_tutorial_from_the_wheel_copies_a_course_that_runs(installed, tmp_path):
    python, command, _ = installed
    env = clean_env()
    where = run([str(python), "-c", "import ltr_teach; print(ltr_teach.__file__)"], env=env, cwd=tmp_path).stdout
    assert where.startswith(str(python.parents[1])), where  # the wheel's copy, not the source checkout
    course = tmp_path / "course"
    out = run([str(command), "tutorial", str(course), "--no-browser", "--copy-only"], env=env, cwd=tmp_path).stdout
    assert f"{len(TUTORIAL)} copied" in out
    copied = sorted(p.relative_to(course).as_posix() for p in course.rglob("*")
                    if p.is_file() and p.name != ".ltr_teach_tutorial.json")
    assert copied == TUTORIAL
    manifest = json.loads((course / ".ltr_teach_tutorial.json").read_text(encoding="utf-8"))["files"]
    assert manifest == {n: hashlib.sha256((REPO / n).read_bytes()).hexdigest() for n in TUTORIAL}
    # Every copied notebook runs top to bottom in the new environment and prints what it committed.
    # Nothing of the checkout on the command line either: a path argument inside it makes pytest take
    # the checkout's pyproject.toml as its configuration (and the checkout as its rootdir).
    shutil.copy(REPO / "tests" / "nbval_sanitize.cfg", tmp_path / "sanitize.cfg")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    nbval = subprocess.run([str(python), "-m", "pytest", "-c", str(tmp_path / "pytest.ini"), "--rootdir", str(course),
                            "--nbval", "--nbval-current-env", "-p", "no:cacheprovider",
                            "--nbval-sanitize-with", str(tmp_path / "sanitize.cfg"), "-q", "-rf", str(course)],
                           capture_output=True, text=True, encoding="utf-8", errors="replace", env=env, cwd=course,
                           timeout=900, check=False)
    assert nbval.returncode == 0, nbval.stdout[-4000:] + nbval.stderr[-2000:]
    assert " passed" in nbval.stdout and "failed" not in nbval.stdout and str(REPO) not in nbval.stdout
