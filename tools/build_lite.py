"""Build the JupyterLite edition of the course (both editions, in the browser, nothing installed).

``make lite`` runs this script. It writes a static site into ``_build/lite`` (any web server, or
``python -m http.server -d _build/lite``) holding

- the course as the repository lays it out: ``notebooks/start_here.ipynb``, ``notebooks/zh|en/``,
  ``exercises/zh|en/``, each edition folder with its language file, so the links between the
  notebooks and each kernel's language work as in the local tutorial;
- a first code cell ``%pip install ltr_teach`` (and the imports that name a dependency that did not come)
  added to each notebook's copy (the repository's
  notebooks are not changed): in JupyterLite that is piplite, which finds the package in the site's
  own wheel folder (``pypi/``), where this script puts the wheel built from this checkout, with the
  pure-Python wheels of ipywidgets, comm and jupyterlab_widgets at the versions installed here (the
  widget manager the site ships is the one of this environment's ``jupyterlab_widgets``);
- JupyterLab and the Pyodide kernel (jupyterlite-core, jupyterlite-pyodide-kernel). Pyodide itself
  and its packages (NumPy, Matplotlib, SymPy) come from Pyodide's CDN when a student opens the site, or,
  with ``--pyodide FOLDER`` (``make lite PYODIDE=FOLDER``), from a local Pyodide distribution copied into
  the site (``static/pyodide``: the kernel's ``pyodideUrl`` points there), so a lab without internet can
  serve the whole course;
- a check in the lab page (``tools/lite/pyodide-check.js``) that shows a message, in the notebook's
  language, when Pyodide does not load within 20 s (no internet), instead of cells that stay busy.

The JupyterLite tools run in a virtual environment of their own, ``_build/lite-env`` (made on the first
build; the versions are the ``lite`` extra of pyproject.toml, with this environment's jupyterlab_widgets and
zh-CN language pack, whose front ends the site ships). Installed beside the tutorial's JupyterLab, the Pyodide
kernel's JupyterLab extension would load into the local JupyterLab too, which has no JupyterLite services to
give it, and log an error on every page.

Usage::

    python tools/build_lite.py                 # into _build/lite
    python tools/build_lite.py --output-dir /tmp/site
    python tools/build_lite.py --pyodide ~/pyodide-0.29.0   # Pyodide from a local folder (offline classroom)
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
#: The cell put first in every notebook's copy in the site. Not quiet (``-q`` hid a failed download, which then
#: surfaced a cell later as a Matplotlib traceback); the imports name, in this cell, a dependency that did not come.
INSTALL_CELL = "%pip install ltr_teach\nimport ltr_teach, numpy, matplotlib, sympy, ipywidgets\nltr_teach.__version__"
#: The script that tells the student when Pyodide cannot be loaded (see its comment), put into the lab page.
PYODIDE_CHECK = Path(__file__).resolve().parent / "lite" / "pyodide-check.js"
#: The kernel extension's setting that says where Pyodide comes from.
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
#: Where a local Pyodide distribution (``--pyodide FOLDER``) is put in the site.
LOCAL_PYODIDE = "static/pyodide"


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


def default_pyodide_url(output: Path) -> str:
    """The address the kernel extension loads Pyodide from unless told otherwise (its schema's default)."""
    schema = next(output.glob("extensions/@jupyterlite/pyodide-kernel-extension/static/schema/kernel.v0.schema.json"))
    return json.loads(schema.read_text(encoding="utf-8"))["properties"]["pyodideUrl"]["default"]


def check_pyodide_folder(folder: Path) -> str:
    """The name of the Pyodide loader in a local distribution ``folder``; a clear error if it is not one."""
    if not folder.is_dir():
        raise SystemExit(f"build_lite: --pyodide {folder} is not a folder (unpack Pyodide's release archive, or use "
                         "the npm package pyodide's folder, node_modules/pyodide)")
    loaders = [name for name in ("pyodide.mjs", "pyodide.js") if (folder / name).is_file()]
    if not loaders or not (folder / "pyodide-lock.json").is_file():
        raise SystemExit(f"build_lite: --pyodide {folder} holds no pyodide.mjs (or pyodide.js) with its pyodide-lock.json")
    return loaders[0]


def add_pyodide_check(output: Path, pyodide_url: str) -> None:
    """Put :data:`PYODIDE_CHECK` into the lab page, with the address the kernel loads Pyodide from."""
    script = PYODIDE_CHECK.read_text(encoding="utf-8").replace("PYODIDE_URL", pyodide_url)
    (output / "ltr-pyodide-check.js").write_text(script, encoding="utf-8")
    page = output / "lab" / "index.html"
    html = page.read_text(encoding="utf-8")
    if "</body>" not in html:
        raise SystemExit(f"build_lite: {page} has no </body> to put the Pyodide check before")
    page.write_text(html.replace("</body>", '<script src="../ltr-pyodide-check.js"></script></body>', 1),
                    encoding="utf-8")


#: The JupyterLab of each edition: the site's links open a Chinese notebook in ``lab-zh``, a copy of the lab app
#: whose default interface language is JupyterLab's zh-CN pack (a student's own choice in Settings › Language,
#: kept in the browser, still wins). site/conf.py links to these folders.
LAB_APPS = {"en": "lab", "zh": "lab-zh"}
TRANSLATION_PLUGIN = "@jupyterlab/translation-extension:plugin"


def add_chinese_lab(output: Path) -> None:
    """``lab-zh``: the lab app again, its interface in Chinese unless the student chose otherwise."""
    app = output / LAB_APPS["zh"]
    shutil.copytree(output / "lab", app)
    config_file = app / "jupyter-lite.json"
    config = json.loads(config_file.read_text(encoding="utf-8"))
    data = config["jupyter-config-data"]
    data["appUrl"] = f"/{LAB_APPS['zh']}"
    data.setdefault("settingsOverrides", {}).setdefault(TRANSLATION_PLUGIN, {})["locale"] = "zh_CN"
    config_file.write_text(json.dumps(config, indent=2), encoding="utf-8")


def build(output: Path, pyodide: Path | None = None) -> None:
    loader = check_pyodide_folder(pyodide) if pyodide is not None else None
    with tempfile.TemporaryDirectory(prefix="ltr_teach_lite_") as scratch:
        scratch = Path(scratch)
        contents, wheels, lite_dir = scratch / "contents", scratch / "wheels", scratch / "lite"
        count = stage_course(contents)
        found = build_wheels(wheels)
        lite_dir.mkdir()
        # Hidden files are left out of the contents listing unless allowed: the edition files are.
        (lite_dir / "jupyter_lite_config.json").write_text(
            json.dumps({"ContentsManager": {"allow_hidden": True}}, indent=1), encoding="utf-8")
        if loader is not None:
            # Pyodide from the site itself: its address relative to the site's root, as the kernel reads it
            settings = {"litePluginSettings": {KERNEL_PLUGIN: {"pyodideUrl": f"./{LOCAL_PYODIDE}/{loader}"}}}
            (lite_dir / "jupyter-lite.json").write_text(json.dumps(
                {"jupyter-lite-schema-version": 0, "jupyter-config-data": settings}, indent=1), encoding="utf-8")
        if output.exists():
            shutil.rmtree(output)
        command = [lite_python(), "-m", "jupyterlite_core", "build", "--lite-dir", lite_dir,
                   "--output-dir", output, "--contents", contents, "--no-sourcemaps"]
        for wheel in found:
            command += ["--piplite-wheels", wheel]
        run(command, cwd=lite_dir)
    if loader is not None:
        shutil.copytree(pyodide, output / LOCAL_PYODIDE, ignore=shutil.ignore_patterns("node_modules", "*.d.ts"))
    add_pyodide_check(output, f"./{LOCAL_PYODIDE}/{loader}" if loader else default_pyodide_url(output))
    add_chinese_lab(output)   # after the check: the copy has it too
    where = f"Pyodide from {pyodide}" if pyodide else "Pyodide from its CDN"
    print(f"build_lite: {count} notebooks and {len(found)} wheels in {output} ({where})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", type=Path, default=OUTPUT, help=f"where to write the site (default {OUTPUT})")
    parser.add_argument("--pyodide", type=Path, metavar="FOLDER",
                        help="a local Pyodide distribution (its pyodide.mjs, pyodide-lock.json and the packages the "
                             f"lock names), copied into the site ({LOCAL_PYODIDE}) and loaded from there instead of "
                             "Pyodide's CDN: a classroom without internet")
    args = parser.parse_args(argv)
    build(args.output_dir.resolve(), args.pyodide.resolve() if args.pyodide else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
