"""The JupyterLite edition (``make lite``), tried offline: the site built, served on 127.0.0.1, a
notebook opened in Chromium, the Pyodide kernel started, ``ltr_teach`` installed from the site's own
wheel folder and imported.

A student online gets Pyodide and its packages from Pyodide's CDN (cdn.jsdelivr.net). This machine
cannot reach it, which is the classroom without internet ``make lite PYODIDE=FOLDER`` is for: the test
makes such a FOLDER, a local Pyodide distribution, from what the package registries give:

- Pyodide's core (``pyodide.mjs``, the WebAssembly interpreter, the standard library, the package
  lock) from the npm package ``pyodide`` at the version the site's kernel asks for, installed by
  ``npm install --prefix _build/pyodide-npm pyodide@VERSION`` (kept: a second run installs nothing);
- the pure-Python packages the kernel loads when it starts (micropip, IPython and its dependencies,
  Jedi, SymPy, mpmath) as PyPI's wheels of the versions Pyodide's lock names, downloaded by ``pip``
  into ``_build/pyodide-wheels``. Pyodide repacks its wheels, so their checksums differ from PyPI's:
  the folder's lock has the checksums of the files beside it (Pyodide checks them).

The site built with ``--pyodide`` that folder serves Pyodide itself; the kernel test refuses every
request to the CDN and the kernel starts. The site built without it (Pyodide from the CDN) is opened
with the CDN unreachable: the page says so within 30 s. Hence what is *not* tested here: the
notebooks' own first cell (``%pip install ltr_teach`` with its dependencies, NumPy and Matplotlib
among them: their WebAssembly wheels exist only in Pyodide's full distribution, not on npm or PyPI) and
every cell that computes with NumPy or draws a plot; the test installs the package without
dependencies (and SymPy, which it needs) and runs cells that need no NumPy.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
from lab_driver import LOOPBACK, UI_TIMEOUT_MS, free_port, wait_for_kernel_idle

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / "_build"
CDN = re.compile(r"^https://cdn\.jsdelivr\.net/pyodide/v(?P<version>[^/]+)/full/(?P<file>[^/?#]+)")
#: What the kernel loads from the CDN when it starts (micropip, then piplite installs IPython and
#: Jedi), and what ``ltr_teach`` imports besides the standard library without NumPy (SymPy).
KERNEL_PACKAGES = ("micropip", "ipython", "jedi", "sympy")
#: Pyodide's kernel takes long to start on two busy cores: the interpreter, then IPython installed.
KERNEL_TIMEOUT_MS = 240_000


def run(command: list, **kwargs) -> None:
    subprocess.run(list(map(str, command)), check=True, **kwargs)


@pytest.fixture(scope="module")
def lite_site(tmp_path_factory) -> Path:
    """The site ``make lite`` builds, built afresh by the same script into a temporary folder."""
    site = tmp_path_factory.mktemp("lite") / "site"
    run([sys.executable, REPO / "tools" / "build_lite.py", "--output-dir", site], cwd=REPO,
        stdout=subprocess.DEVNULL)
    return site


@pytest.fixture(scope="module")
def offline_lite_site(tmp_path_factory, pyodide_core, pyodide_wheels) -> Path:
    """The site ``make lite PYODIDE=FOLDER`` builds for a classroom without internet: FOLDER is a local Pyodide
    distribution made here from the npm package ``pyodide`` (the core) with PyPI's wheels of the packages the
    kernel loads beside it, and the lock holding their checksums."""
    wheels, lock = pyodide_wheels
    folder = tmp_path_factory.mktemp("pyodide") / "pyodide"
    shutil.copytree(pyodide_core, folder, ignore=shutil.ignore_patterns("node_modules", "*.d.ts"))
    for wheel in wheels.glob("*.whl"):
        shutil.copy2(wheel, folder / wheel.name)
    (folder / "pyodide-lock.json").write_bytes(lock)
    site = tmp_path_factory.mktemp("lite-offline") / "site"
    run([sys.executable, REPO / "tools" / "build_lite.py", "--output-dir", site, "--pyodide", folder], cwd=REPO,
        stdout=subprocess.DEVNULL)
    return site


def pyodide_url(site: Path) -> str:
    """The address of ``pyodide.mjs`` the site's kernel loads (the kernel extension's default)."""
    schema = next(site.glob("extensions/@jupyterlite/pyodide-kernel-extension/static/schema/kernel.v0.schema.json"))
    return json.loads(schema.read_text(encoding="utf-8"))["properties"]["pyodideUrl"]["default"]


@pytest.fixture(scope="module")
def pyodide_core(lite_site) -> Path:
    """The npm package ``pyodide`` of the version the site asks for (``node_modules/pyodide``)."""
    version = CDN.match(pyodide_url(lite_site))["version"]
    folder = CACHE / "pyodide-npm"
    package = folder / "node_modules" / "pyodide"
    installed = package / "package.json"
    if not installed.exists() or json.loads(installed.read_text(encoding="utf-8"))["version"] != version:
        folder.mkdir(parents=True, exist_ok=True)
        run(["npm", "install", "--prefix", folder, "--no-save", "--no-audit", "--no-fund", "--loglevel=error",
             f"pyodide@{version}"], stdout=subprocess.DEVNULL)
    assert json.loads(installed.read_text(encoding="utf-8"))["version"] == version
    return package


def lock_closure(packages: dict, names: tuple[str, ...]) -> list[str]:
    """``names`` and everything they depend on in Pyodide's lock, each once."""
    seen: list[str] = []
    todo = list(names)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.append(name)
            todo += [re.sub(r"[-_.]+", "-", dependency).lower() for dependency in packages[name]["depends"]]
    return sorted(seen)


@pytest.fixture(scope="module")
def pyodide_wheels(pyodide_core) -> tuple[Path, bytes]:
    """(folder of PyPI's wheels of :data:`KERNEL_PACKAGES` and their dependencies, the lock to serve)."""
    lock = json.loads((pyodide_core / "pyodide-lock.json").read_text(encoding="utf-8"))
    packages = lock["packages"]
    names = lock_closure(packages, KERNEL_PACKAGES)
    pure = [name for name in names if packages[name]["file_name"].endswith("-none-any.whl")]
    assert pure == names, f"not pure Python, so not on PyPI as Pyodide needs it: {sorted(set(names) - set(pure))}"
    folder = CACHE / "pyodide-wheels"
    missing = [name for name in names if not (folder / packages[name]["file_name"]).exists()]
    if missing:
        python = ".".join(lock["info"]["python"].split(".")[:2])
        run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--python-version", python,
             "-q", "-d", folder, *(f"{name}=={packages[name]['version']}" for name in missing)])
    for name in names:
        entry = packages[name]
        entry["sha256"] = hashlib.sha256((folder / entry["file_name"]).read_bytes()).hexdigest()
    return folder, json.dumps(lock).encode("utf-8")


@pytest.fixture(scope="module")
def lite_url(lite_site):
    """The site served by Python's own static file server on 127.0.0.1."""
    yield from _served(lite_site)


@pytest.fixture(scope="module")
def offline_lite_url(offline_lite_site):
    yield from _served(offline_lite_site)


def _served(lite_site: Path):
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", LOOPBACK,
                               "--directory", str(lite_site)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://{LOOPBACK}:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/jupyter-lite.json", timeout=5) as answer:
                    assert answer.status == 200
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "the static server did not answer"
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


def code_cell(page, index: int):
    return page.locator(".jp-NotebookPanel .jp-Notebook .jp-CodeCell").nth(index)


def run_code(page, index: int, code: str) -> str:
    """Replace the code of code cell ``index`` with ``code``, run it, and return its output's text."""
    cell = code_cell(page, index)
    editor = cell.locator(".jp-InputArea-editor .cm-content")
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(code)  # typed keys would have brackets closed twice by the editor
    prompt = cell.locator(".jp-InputPrompt")
    before = prompt.inner_text().strip()  # a saved notebook's prompt, or this test's earlier run: not this run
    page.keyboard.press("Control+Enter")
    page.wait_for_function("([el, before]) => /\\[\\d+\\]/.test(el.textContent) && el.textContent.trim() !== before",
                           arg=[prompt.element_handle(), before], timeout=KERNEL_TIMEOUT_MS)
    return cell.locator(".jp-OutputArea").inner_text()


def test_the_lite_site_holds_the_course_with_its_editions_and_the_wheel(lite_site):
    files = lite_site / "files"
    for folder in ("notebooks", "exercises"):
        for language in ("zh", "en"):
            edition = files / folder / language
            assert (edition / ".ltr-teach-language").read_text(encoding="utf-8").strip() == language
            listing = json.loads((lite_site / "api" / "contents" / folder / language / "all.json")
                                 .read_text(encoding="utf-8"))
            names = {item["name"] for item in listing["content"]}
            # the contents listing is what the kernel's drive sees: the edition file must be in it
            assert ".ltr-teach-language" in names
            expected = {p.name for p in (REPO / folder / language).glob("*.ipynb")}
            assert expected and expected <= names
    assert (files / "notebooks" / "start_here.ipynb").exists()
    # JupyterLab's zh-CN language pack (a dependency of the package) is in the site's translations
    translations = json.loads((lite_site / "api" / "translations" / "all.json").read_text(encoding="utf-8"))
    assert "zh_CN" in translations["data"]
    assert json.loads((lite_site / "api" / "translations" / "zh_CN.json").read_text(encoding="utf-8"))["data"]
    wheels = json.loads((lite_site / "pypi" / "all.json").read_text(encoding="utf-8"))
    assert "ltr-teach" in wheels
    notebook = json.loads((files / "notebooks" / "en" / "04_dcg_ndcg.ipynb").read_text(encoding="utf-8"))
    install = "".join(notebook["cells"][0]["source"]).splitlines()
    # not quiet, and the dependencies imported in the same cell: a failed download is named there
    assert install[0] == "%pip install ltr_teach"
    assert install[1] == "import ltr_teach, numpy, matplotlib, sympy, ipywidgets"
    original = json.loads((REPO / "notebooks" / "en" / "04_dcg_ndcg.ipynb").read_text(encoding="utf-8"))
    assert notebook["cells"][1:] == original["cells"]


#: Standard-library modules Pyodide lacks (measured in Pyodide 314.0.6: every name of
#: ``sys.stdlib_module_names`` imported in the kernel; the GUI and demo modules were not tried).
PYODIDE_LACKS = {"_curses", "_curses_panel", "_dbm", "_gdbm", "_hashlib", "_multiprocessing", "_posixshmem",
                 "_tkinter", "_uuid", "curses", "dbm", "ensurepip", "grp", "msvcrt", "nt", "pty", "pwd",
                 "pydoc_data", "readline", "syslog", "tkinter", "turtle", "venv", "winreg", "winsound"}


def module_level_imports(tree: ast.Module) -> set[str]:
    """The top-level names a module imports when it is imported (not inside functions or classes)."""
    names: set[str] = set()
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, (ast.If, ast.Try, ast.With)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                todo += getattr(node, field, [])
        elif isinstance(node, ast.ExceptHandler):
            todo += node.body
    return names


def test_no_module_imports_what_pyodide_lacks_when_it_is_imported():
    third_party = set()
    for path in sorted((REPO / "ltr_teach").rglob("*.py")):
        imported = module_level_imports(ast.parse(path.read_text(encoding="utf-8")))
        assert not imported & PYODIDE_LACKS, f"{path.relative_to(REPO)} imports {imported & PYODIDE_LACKS}"
        third_party |= {name for name in imported if name not in sys.stdlib_module_names} - {"ltr_teach"}
    # what the package imports at import time beyond the standard library: its dependencies under Pyodide
    assert third_party <= {"numpy", "sympy", "mpmath", "matplotlib", "ipywidgets", "traitlets", "IPython", "PIL"}, \
        third_party


def test_every_dependency_of_the_wheel_installs_under_pyodide(lite_site, pyodide_core):
    """Under Pyodide (``sys_platform == "emscripten"``) the wheel needs only what Pyodide's CDN (its lock)
    or the site's own wheel folder holds: not JupyterLab, whose pyzmq has no Pyodide build."""
    from packaging.markers import default_environment
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    lock = json.loads((pyodide_core / "pyodide-lock.json").read_text(encoding="utf-8"))
    python = lock["info"]["python"]
    pyodide = {**default_environment(), "sys_platform": "emscripten", "platform_system": "Emscripten",
               "python_version": ".".join(python.split(".")[:2]), "python_full_version": python}
    available = {canonicalize_name(name) for name in lock["packages"]}
    available |= set(json.loads((lite_site / "pypi" / "all.json").read_text(encoding="utf-8")))
    wheel = next((lite_site / "pypi").glob("ltr_teach-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA")))
    requirements = [Requirement(line.split(":", 1)[1].strip()) for line in metadata.decode("utf-8").splitlines()
                    if line.startswith("Requires-Dist:")]
    needed = {canonicalize_name(r.name) for r in requirements if r.marker is None or r.marker.evaluate(pyodide)}
    assert needed == {"sympy", "numpy", "matplotlib", "ipywidgets"}
    assert needed <= available
    # and the versions Pyodide offers satisfy the package's ranges (micropip takes the lock's version)
    versions = {canonicalize_name(name): entry["version"] for name, entry in lock["packages"].items()}
    for requirement in requirements:
        name = canonicalize_name(requirement.name)
        if name in needed and name in versions:
            assert requirement.specifier.contains(versions[name]), (requirement, versions[name])
    on_linux = {canonicalize_name(r.name) for r in requirements
                if r.marker is None or r.marker.evaluate({**pyodide, "sys_platform": "linux", "platform_system": "Linux"})}
    assert {"jupyterlab", "jupyterlab-language-pack-zh-cn"} <= on_linux


def test_the_offline_build_serves_pyodide_itself(offline_lite_site, pyodide_core):
    """``--pyodide FOLDER``: the distribution is in the site and the kernel's pyodideUrl points there."""
    config = json.loads((offline_lite_site / "jupyter-lite.json").read_text(encoding="utf-8"))
    settings = config["jupyter-config-data"]["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert settings["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    local = offline_lite_site / "static" / "pyodide"
    assert (local / "pyodide.mjs").read_bytes() == (pyodide_core / "pyodide.mjs").read_bytes()
    assert (local / "pyodide.asm.wasm").is_file() and (local / "pyodide-lock.json").is_file()
    assert '"./static/pyodide/pyodide.mjs"' in (offline_lite_site / "ltr-pyodide-check.js").read_text(encoding="utf-8")


def test_a_folder_that_is_no_pyodide_is_refused(tmp_path):
    (tmp_path / "pyodide.mjs").write_text("", encoding="utf-8")   # no lock beside it
    for folder in (tmp_path, tmp_path / "missing"):
        done = subprocess.run([sys.executable, REPO / "tools" / "build_lite.py", "--output-dir", tmp_path / "out",
                               "--pyodide", folder], cwd=REPO, capture_output=True, text=True, encoding="utf-8",
                              errors="replace", check=False)
        assert done.returncode == 1 and str(folder) in done.stderr and "pyodide" in done.stderr, done.stderr
        assert not (tmp_path / "out").exists()


def test_a_notebook_starts_the_pyodide_kernel_and_imports_ltr_teach(
        chromium, offline_lite_site, offline_lite_url, screenshot_dir, capsys):
    """The offline build (``--pyodide``): with every request to Pyodide's CDN refused, the kernel starts from
    the site's own copy of Pyodide and imports ltr_teach."""
    lite_url = offline_lite_url
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    context.set_default_timeout(UI_TIMEOUT_MS)
    refused: list[str] = []
    errors: list[str] = []
    context.route("https://cdn.jsdelivr.net/**", lambda route: (refused.append(route.request.url), route.abort()))
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{lite_url}/lab/index.html?path=notebooks/zh/00_start_here.ipynb", timeout=UI_TIMEOUT_MS)
        page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell").first.wait_for(timeout=UI_TIMEOUT_MS)
        page.set_default_timeout(KERNEL_TIMEOUT_MS)
        started = time.monotonic()
        wait_for_kernel_idle(page)
        with capsys.disabled():
            print(f"\nPyodide kernel idle after {time.monotonic() - started:.0f} s")
        first = code_cell(page, 0).locator(".jp-InputArea-editor").inner_text()
        assert "%pip install ltr_teach" in first
        # Offline the dependencies NumPy and Matplotlib cannot come from the CDN: the same %pip (piplite)
        # installs the package alone from the site's wheel folder, and SymPy and mpmath from Pyodide's lock.
        out = run_code(page, 0, "%pip install -q --no-deps mpmath sympy ltr_teach\n"
                                "import mpmath, sympy\nprint('sympy', sympy.__version__)")
        assert re.search(r"sympy \d", out), out
        out = run_code(page, 1, "import os, sys\nimport ltr_teach as lt\nfrom ltr_teach.core.i18n import _\n"
                                "print(sys.platform, os.getcwd())\n"
                                "print('ltr_teach', lt.__version__, lt.get_language(), _('hint'))")
        page.screenshot(path=str(screenshot_dir / "lite-notebook.png"))
        with capsys.disabled():
            print(f"JupyterLite notebook: {screenshot_dir / 'lite-notebook.png'}; refused CDN files: {refused}")
        assert "emscripten /drive/notebooks/zh" in out, out
        # this checkout's version, and the language of the edition the notebook is in (its edition file)
        version = re.search(r'(?m)^version = "(.+)"$', (REPO / "pyproject.toml").read_text(encoding="utf-8"))[1]
        assert f"ltr_teach {version} zh 提示" in out, out
        # the English exercises' folder, through the same drive: its edition file says en
        out = run_code(page, 1, "os.chdir('/drive/exercises/en')\nprint(lt.get_language(), _('hint'))")
        assert out.strip() == "en hint", out
        banner = page.locator("#ltr-pyodide-missing").count()
    except BaseException:
        page.screenshot(path=str(screenshot_dir / "FAILED-lite.png"))
        raise
    finally:
        context.close()
    assert not errors, errors
    assert refused == []   # nothing asked of the CDN: Pyodide and its packages came from the site
    assert not banner, "the page said Pyodide could not be loaded, but it was"


def test_the_lite_site_switches_jupyterlab_to_chinese(chromium, lite_url):
    """Settings › Language › 中文 turns JupyterLab itself Chinese: the site carries the zh-CN pack."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    context.set_default_timeout(UI_TIMEOUT_MS)
    context.route("https://cdn.jsdelivr.net/**", lambda route: route.abort())  # no kernel is needed here
    page = context.new_page()
    try:
        page.goto(f"{lite_url}/lab/index.html", timeout=UI_TIMEOUT_MS)
        page.locator(".lm-MenuBar-item", has_text="Settings").first.click()
        labels = page.locator(".lm-Menu-item .lm-Menu-itemLabel")
        labels.get_by_text("Language", exact=True).click()
        labels.filter(has_text="中文").first.click()
        page.locator(".jp-Dialog-button.jp-mod-accept").click()  # "change and reload"
        page.locator(".lm-MenuBar-item", has_text="文件").wait_for()
        assert page.locator(".lm-MenuBar-item").all_inner_texts()[:3] == ["文件", "编辑", "查看"]
    finally:
        context.close()


@pytest.mark.parametrize(("app", "lang", "message", "menu"), [
    ("lab-zh", "zh", "无法加载 Python（Pyodide）", "文件"), ("lab", "en", "Python (Pyodide) could not be loaded", "File")])
def test_without_pyodide_the_page_says_so_within_30_s(app, lang, message, menu, chromium, lite_site, lite_url):
    """Pyodide's CDN unreachable (no internet): the page opened from the site's link (the edition's start
    notebook, in the edition's JupyterLab) shows why no cell will run, in the notebook's language, within
    30 s of opening, instead of a silent [*]."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    context.set_default_timeout(UI_TIMEOUT_MS)
    context.route("https://cdn.jsdelivr.net/**", lambda route: route.abort("internetdisconnected"))
    page = context.new_page()
    try:
        started = time.monotonic()
        page.goto(f"{lite_url}/{app}/index.html?path=notebooks/{lang}/00_start_here.ipynb", timeout=UI_TIMEOUT_MS)
        alert = page.locator("#ltr-pyodide-missing[role=alert]")
        alert.wait_for(timeout=30_000 - (time.monotonic() - started) * 1000)
        assert message in alert.inner_text()
        assert alert.get_attribute("lang") == ("zh-CN" if lang == "zh" else "en")
        # the edition's start notebook is open, in the edition's JupyterLab
        page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell").first.wait_for(timeout=UI_TIMEOUT_MS)
        assert page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current").inner_text().strip() == \
            "00_start_here.ipynb"
        page.locator(".lm-MenuBar-item", has_text=menu).first.wait_for(timeout=UI_TIMEOUT_MS)
    finally:
        context.close()


def test_the_site_links_open_an_existing_lab_and_notebook(lite_site):
    """What the website's JupyterLite links name (site/conf.py: LITE_APPS and the start pages) exists here:
    both labs, and each edition's start notebook; served as the README says (``make serve``: _build holds
    site/ and lite/), a page's ``../lite/<lab>/index.html?path=...`` resolves."""
    sys.path.insert(0, str(REPO / "site"))
    try:
        import conf as site_conf
    finally:
        sys.path.remove(str(REPO / "site"))
    from ltr_teach.classroom import START_PAGES

    for app in set(site_conf.LITE_APPS.values()):
        assert (lite_site / app / "index.html").is_file()
        assert 'src="../ltr-pyodide-check.js"' in (lite_site / app / "index.html").read_text(encoding="utf-8")
    for page in START_PAGES.values():
        assert (lite_site / "files" / page).is_file()
    zh = json.loads((lite_site / "lab-zh" / "jupyter-lite.json").read_text(encoding="utf-8"))["jupyter-config-data"]
    assert zh["settingsOverrides"]["@jupyterlab/translation-extension:plugin"]["locale"] == "zh_CN"
