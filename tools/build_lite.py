"""Build the JupyterLite edition of the course (both editions, in the browser, nothing installed).

``make lite`` runs this script. It writes a static site into ``_build/lite`` (any web server, or
``python -m http.server -d _build/lite``) holding

- the course as the repository lays it out: ``notebooks/start_here.ipynb``, ``notebooks/zh|en/``,
  ``exercises/zh|en/``, each edition folder with its language file, so the links between the
  notebooks and each kernel's language work as in the local tutorial;
- a first code cell ``%pip install -q ltr_teach`` added to each notebook's copy (the repository's
  notebooks are not changed): in JupyterLite that is piplite, which finds the package in the site's
  own wheel folder (``pypi/``), where this script puts the wheel built from this checkout, with the
  pure-Python wheels of ipywidgets, comm and jupyterlab_widgets at the versions installed here (the
  widget manager the site ships is the one of this environment's ``jupyterlab_widgets``);
- JupyterLab and the Pyodide kernel (jupyterlite-core, jupyterlite-pyodide-kernel). Pyodide itself
  and its packages (NumPy, Matplotlib, SymPy) come from Pyodide's CDN when a student opens the site.

The JupyterLite tools run in a virtual environment of their own, ``_build/lite-env`` (made on the first
build; the versions are the ``lite`` extra of pyproject.toml, with this environment's jupyterlab_widgets and
zh-CN language pack, whose front ends the site ships). Installed beside the tutorial's JupyterLab, the Pyodide
kernel's JupyterLab extension would load into the local JupyterLab too, which has no JupyterLite services to
give it, and log an error on every page.

Usage::

    python tools/build_lite.py                 # into _build/lite
    python tools/build_lite.py --output-dir /tmp/site
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import venv
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "_build" / "lite"
#: The JupyterLite tools' own environment (see the module's docstring).
LITE_ENV = ROOT / "_build" / "lite-env"
#: What the lite tools take from this environment, at the versions installed here: the front ends the site ships,
#: jupyter_server, with which JupyterLite indexes the course's files, and jupyterlab_server, which reads the translations.
FROM_HERE = ("jupyter_server", "jupyterlab_server", "jupyterlab_widgets", "jupyterlab-language-pack-zh-CN")
#: The course's folders, copied with their layout (the notebooks link to each other by relative paths).
COURSE_FOLDERS = ("notebooks", "exercises")
EDITION_FILE = ".ltr-teach-language"  # ltr_teach.core.i18n.EDITION_FILE; the tool must not import the package
#: Pure-Python wheels the site carries besides ltr_teach: not in Pyodide's own package set, so without
#: them piplite would ask PyPI (pinned to this environment's versions, to match the widget front end).
EXTRA_WHEELS = ("ipywidgets", "comm", "jupyterlab_widgets")
#: The cell put first in every notebook's copy in the site.
INSTALL_CELL = "%pip install -q ltr_teach"


def run(command: list[str], **kwargs) -> None:
    print("+", " ".join(map(str, command)), flush=True)
    subprocess.run(list(map(str, command)), check=True, **kwargs)


def install_cell() -> dict:
    """The code cell that installs the package in the browser's kernel (piplite)."""
    return {"cell_type": "code", "execution_count": None, "id": "lite-install",
            "metadata": {"tags": ["jupyterlite-install"]}, "outputs": [], "source": INSTALL_CELL}


def stage_course(contents: Path) -> int:
    """Copy the course's notebooks into ``contents`` with :func:`install_cell` first; return how many."""
    count = 0
    for folder in COURSE_FOLDERS:
        shutil.copytree(ROOT / folder, contents / folder,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        for notebook in sorted((contents / folder).rglob("*.ipynb")):
            data = json.loads(notebook.read_text(encoding="utf-8"))
            if any(cell["cell_type"] == "code" for cell in data["cells"]):
                data["cells"].insert(0, install_cell())
            notebook.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
            count += 1
    editions = sorted(contents.rglob(EDITION_FILE))
    if len(editions) != 2 * len(COURSE_FOLDERS):
        raise SystemExit(f"build_lite: expected an {EDITION_FILE} in each edition folder, found {editions}")
    return count


#: Left out of the copy the wheel is built from (a stale ``build/`` would put old files in the wheel).
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "_build", "*.egg-info", "__pycache__",
                                    ".ipynb_checkpoints", ".hypothesis", ".pytest_cache", "tests", "benchmarks")


def build_wheels(wheels: Path) -> list[Path]:
    """The wheel of this checkout (built from a clean copy), and the :data:`EXTRA_WHEELS` at this
    environment's versions."""
    source = wheels.parent / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheels, source])
    pins = [f"{name}=={version(name)}" for name in EXTRA_WHEELS]
    run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q", "-d", wheels, *pins])
    return sorted(wheels.glob("*.whl"))


def lite_python() -> Path:
    """The JupyterLite tools' Python, in :data:`LITE_ENV`, made and filled on first use."""
    python = LITE_ENV / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    # the lite extra's list, read as text (tomllib is Python 3.11+; the course runs on 3.10)
    extra = re.search(r"^lite = \[(.*?)\]", (ROOT / "pyproject.toml").read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)
    tools = re.findall(r'"([^"]+)"', extra.group(1))
    wanted = [*tools, *(f"{name}=={version(name)}" for name in FROM_HERE)]
    stamp = LITE_ENV / "installed.json"
    if not python.exists() or not stamp.exists() or json.loads(stamp.read_text(encoding="utf-8")) != wanted:
        venv.create(LITE_ENV, with_pip=True, clear=True)
        run([python, "-m", "pip", "install", "--quiet", *wanted])
        stamp.write_text(json.dumps(wanted), encoding="utf-8")
    return python


def build(output: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="ltr_teach_lite_") as scratch:
        scratch = Path(scratch)
        contents, wheels, lite_dir = scratch / "contents", scratch / "wheels", scratch / "lite"
        count = stage_course(contents)
        found = build_wheels(wheels)
        lite_dir.mkdir()
        # Hidden files are left out of the contents listing unless allowed: the edition files are.
        (lite_dir / "jupyter_lite_config.json").write_text(
            json.dumps({"ContentsManager": {"allow_hidden": True}}, indent=1), encoding="utf-8")
        if output.exists():
            shutil.rmtree(output)
        command = [lite_python(), "-m", "jupyterlite_core", "build", "--lite-dir", lite_dir,
                   "--output-dir", output, "--contents", contents, "--no-sourcemaps"]
        for wheel in found:
            command += ["--piplite-wheels", wheel]
        run(command, cwd=lite_dir)
    print(f"build_lite: {count} notebooks and {len(found)} wheels in {output}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", type=Path, default=OUTPUT, help=f"where to write the site (default {OUTPUT})")
    args = parser.parse_args(argv)
    build(args.output_dir.resolve())
    return 0


if __name__ == "__main__":
    sys.exit(main())
