"""The tutorial in a student's folder (``ltr-teach tutorial``): both editions copied, a student's change never
overwritten (a manifest of SHA-256), JupyterLab's own language per edition."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ..core.i18n import EDITION_FILE, _
from .files import _shown, through_link

#: The repository's folders that make up the tutorial, in the order a student meets them. The
#: wheel ships them under ``ltr_teach/tutorial/`` (``setup.py`` reads this tuple); a source
#: checkout (editable install, or ``PYTHONPATH``) reads them in place: one source of truth.
TUTORIAL_FOLDERS = ("notebooks", "exercises")


#: The page a reader starts from, relative to the tutorial folder: the bilingual page that offers
#: both editions, or an edition's own first notebook (``notebooks/<lang>/``).
START_PAGES = {None: "notebooks/start_here.ipynb",
               "zh": "notebooks/zh/00_start_here.ipynb",
               "en": "notebooks/en/00_start_here.ipynb"}


START_PAGE = START_PAGES[None]


#: The languages of the course's editions: ``notebooks/<lang>/`` and ``exercises/<lang>/``, each with
#: its language file (:data:`ltr_teach.core.i18n.EDITION_FILE`), so a kernel started there speaks it.
LANGUAGES = ("en", "zh")


#: The file in a copied tutorial that records the SHA-256 of every file the copy was given.
MANIFEST = ".ltr_teach_tutorial.json"


_PACKAGE = Path(__file__).resolve().parents[1]


def tutorial_source() -> Path:
    """The folder holding ``notebooks/`` and ``exercises/``: inside the package, or the source checkout.

    Returns
    -------
    Path
        ``ltr_teach/tutorial`` in an installed wheel, else the repository root of a source checkout.

    Raises
    ------
    FileNotFoundError
        When neither holds the notebooks (a broken install).
    """
    for root in (_PACKAGE / "tutorial", _PACKAGE.parent):
        if all((root / folder).is_dir() for folder in TUTORIAL_FOLDERS):
            return root
    raise FileNotFoundError(f"the tutorial notebooks are not in {_PACKAGE / 'tutorial'} nor beside the package in "
                            f"{_PACKAGE.parent}; reinstall ltr_teach")


def _is_tutorial_file(path: Path) -> bool:
    return (path.is_file() and (path.suffix == ".ipynb" or path.name == EDITION_FILE)
            and ".ipynb_checkpoints" not in path.parts)


def tutorial_files() -> dict[str, Path]:
    """Every shipped file of the tutorial (both editions), by its path in a copy.

    Returns
    -------
    dict of str to Path
        ``"exercises/zh/03_dcg_ndcg.ipynb"`` -> the shipped file, for every notebook and every
        edition's language file.

    Examples
    --------
    >>> files = tutorial_files()
    >>> "exercises/zh/01_precision_recall_f.ipynb" in files, "exercises/zh/.ltr-teach-language" in files
    (True, True)
    """
    root = tutorial_source()
    return {path.relative_to(root).as_posix(): path
            for folder in TUTORIAL_FOLDERS for path in sorted((root / folder).rglob("*")) if _is_tutorial_file(path)}


def start_page(lang: str | None = None, root: Path | None = None) -> str:
    """The page to open first: ``lang``'s first notebook, or (None) the page offering both editions.

    Parameters
    ----------
    lang : {"en", "zh"} or None
        The edition; None for the bilingual page.
    root : Path, optional
        The tutorial's folder (default: the shipped one).

    Examples
    --------
    >>> start_page("zh").endswith(".ipynb")
    True
    """
    if lang not in START_PAGES:
        raise ValueError(f"lang = {lang!r} is not a tutorial language; choose one of {', '.join(LANGUAGES)} (or None)")
    root = tutorial_source() if root is None else Path(root)
    for page in (START_PAGES[lang], START_PAGES[None]):
        if (root / page).is_file():
            return page
    raise FileNotFoundError(f"the tutorial in {root} has no start page ({START_PAGES[lang]})")


#: JupyterLab's own language per edition: the locale of the translation plugin (zh_CN comes from the
#: jupyterlab-language-pack-zh-CN package, a dependency of ltr_teach).
LAB_LOCALES = {"zh": "zh_CN", "en": "en"}


def lab_settings(folder, lang: str) -> Path:
    """A JupyterLab settings folder inside the tutorial ``folder`` that shows JupyterLab in ``lang``.

    Its own folder (``.jupyterlab-settings-<lang>``), so the student's other JupyterLab settings are
    not changed; ``make tutorial TUTORIAL_LANG=zh`` writes the same setting.

    Examples
    --------
    >>> import tempfile, json
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     settings = lab_settings(folder, "zh")
    ...     json.loads((settings / "@jupyterlab/translation-extension/plugin.jupyterlab-settings").read_text())
    {'locale': 'zh_CN'}
    """
    if lang not in LAB_LOCALES:
        raise ValueError(f"lang = {lang!r} is not a tutorial language; choose one of {', '.join(LANGUAGES)}")
    settings = Path(folder) / f".jupyterlab-settings-{lang}"
    plugin = settings / "@jupyterlab" / "translation-extension" / "plugin.jupyterlab-settings"
    plugin.parent.mkdir(parents=True, exist_ok=True)
    plugin.write_text(json.dumps({"locale": LAB_LOCALES[lang]}) + "\n", encoding="utf-8")
    return settings.resolve()


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass
class TutorialCopy:
    """What :func:`copy_tutorial` did, file by file (paths relative to ``folder``)."""

    folder: Path
    copied: list = field(default_factory=list)
    updated: list = field(default_factory=list)
    unchanged: list = field(default_factory=list)
    kept: list = field(default_factory=list)
    links: list = field(default_factory=list)

    def summary(self) -> str:
        """A few lines for the terminal: what was copied and which changed files were kept."""
        lines = [(f"tutorial in {self.folder}: {len(self.copied)} copied, {len(self.updated)} updated, "
                  f"{len(self.unchanged)} already up to date, {len(self.kept)} kept")]
        lines += [f"  kept {name}: you changed it, so it was not overwritten (delete it to get the shipped one)"
                  for name in self.kept]
        lines += [_("  not written {name}: it is a symbolic link in your folder, which ltr-teach does not follow "
                    "(delete the link to get the shipped file)").format(name=_shown(name)) for name in self.links]
        return "\n".join(lines)


def copy_tutorial(folder) -> TutorialCopy:
    """Copy the tutorial and exercise notebooks into ``folder``, never overwriting a student's change.

    A file is written when it is missing, or when it is exactly what an earlier copy gave (its
    SHA-256 is the one in the folder's manifest ``.ltr_teach_tutorial.json``) and the package now
    ships a newer version. A file the student changed, or one the manifest does not know, is kept.

    Parameters
    ----------
    folder : str or Path
        The working folder (created if needed); it gets ``notebooks/`` and ``exercises/``.

    Returns
    -------
    TutorialCopy
        The files copied, updated, already up to date and kept.
    """
    files = tutorial_files()
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"folder = '{folder}' is a file; give a folder for the tutorial")
    folder.mkdir(parents=True, exist_ok=True)
    manifest_path = folder / MANIFEST
    try:
        given = json.loads(manifest_path.read_text(encoding="utf-8"))["files"]
        given = {k: v for k, v in given.items() if isinstance(k, str) and isinstance(v, str)}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        given = {}  # no manifest (or a broken one): only missing files are written
    result = TutorialCopy(folder=folder)
    for name, source in files.items():
        target = folder / name
        shipped = _sha256(source)
        if through_link(folder, name):  # a link (even a dangling one) would write outside the folder
            result.links.append(name)
            continue
        if not target.exists():
            result.copied.append(name)
        else:
            present = _sha256(target)
            if present == shipped:
                result.unchanged.append(name)
                given[name] = shipped
                continue
            if given.get(name) != present:
                result.kept.append(name)
                continue
            result.updated.append(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        given[name] = shipped
    if not manifest_path.is_symlink():
        manifest_path.write_text(json.dumps({"files": given}, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return result


#: How long JupyterLab gets to shut down after Ctrl+C (stop its kernels, remove its ``jpserver-PID.json``).
SHUTDOWN_SECONDS = 15.0


def run_until_interrupted(command: list, grace: float = SHUTDOWN_SECONDS, windows: bool | None = None,
                          popen=None) -> int:
    """Run JupyterLab (``command``) until it ends or Ctrl+C, and let it shut down cleanly on Ctrl+C.

    ``subprocess.call`` kills its child at once on Ctrl+C (SIGKILL), which leaves JupyterLab's
    ``jpserver-PID.json`` behind and its kernels running. Here the child is asked to stop and waited for:
    on Linux and macOS with SIGTERM, which jupyter_server answers with a clean stop (``ServerApp._signal_stop``);
    on Windows the console gives the child the same Ctrl+C, which ends its loop and runs its cleanup
    (``ServerApp.start_ioloop``), so it is only waited for. Only a child still running after ``grace`` seconds (or
    a second Ctrl+C) is terminated.

    Returns
    -------
    int
        The child's exit code, or 0 after Ctrl+C.
    """
    import signal
    import subprocess

    windows = os.name == "nt" if windows is None else windows
    process = (popen or subprocess.Popen)(command)
    try:
        return process.wait()
    except KeyboardInterrupt:
        pass
    if not windows:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=grace)
    except (subprocess.TimeoutExpired, KeyboardInterrupt):
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return 0
