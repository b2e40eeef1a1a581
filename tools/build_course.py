"""Build the course's two editions (Chinese and English) from its one source, and run them.

Every tutorial and exercise notebook is written once, in ``course/notebooks/NN_name.md`` or
``course/exercises/NN_name.md``: a sequence of blocks, each opened by a marker line

    <!-- zh -->       a Chinese markdown cell; the next block must be its English partner
    <!-- en -->       the English markdown cell at the same place in the English edition
    <!-- code -->     a code cell, the same in both editions
    <!-- exercises family=KEY -->   (exercise sheets) every exercise of that family in the registry:
                      a heading, the prompt, the answer cell and the hint cell of each

This script writes ``notebooks/zh/NN_name.ipynb`` and ``notebooks/en/NN_name.ipynb`` (exercises
likewise), each edition folder with its language file (:data:`ltr_teach.core.i18n.EDITION_FILE`), so
the identical code cells print in the edition's language, and executes them on a fresh kernel started
in the edition's folder, as JupyterLab and nbval do. ``course/start_here.md`` (bilingual markdown)
becomes ``notebooks/start_here.ipynb``, the page that lets a reader choose an edition.

``tests/test_course.py`` rebuilds every source in memory and fails when a committed edition differs
from it (so an edit to a built notebook, not to its source, is caught), when the editions' code cells
differ, or when a Chinese edition's prose is not Chinese.

Usage::

    python tools/build_course.py                     # every source, built and executed
    python tools/build_course.py course/notebooks/04_dcg_ndcg.md --no-execute
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
COURSE = ROOT / "course"
LANGUAGES = ("zh", "en")
#: Source folder -> the folder its editions are built into (``<folder>/<lang>/``).
FOLDERS = {"notebooks": ROOT / "notebooks", "exercises": ROOT / "exercises"}
START_SOURCE = COURSE / "start_here.md"
START_PAGE = ROOT / "notebooks" / "start_here.ipynb"
EDITION_FILE = ".ltr-teach-language"  # ltr_teach.core.i18n.EDITION_FILE; the tool must not import the package to build

_MARKER = re.compile(r"^<!--\s*(zh|en|code|exercises)((?:\s+[a-z_]+=[^\s>]+)*)\s*-->\s*$")
#: The display name ipykernel's own kernelspec gives: JupyterLab writes the running kernel's into the notebook when it
#: opens, and a different one would mark every notebook modified (●) as soon as it opens (issue 21).
_KERNEL = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


@dataclass(frozen=True)
class Block:
    kind: str           # "zh", "en", "code" or "exercises"
    text: str
    options: dict
    line: int           # where the block's marker is, for error messages


class SourceError(ValueError):
    """A course source that does not follow the format (the message names the file and the line)."""


def parse(path: Path) -> list[Block]:
    """The blocks of one source file, checked: every zh block is followed by its en partner."""
    blocks, current, body = [], None, []

    def close():
        if current is not None:
            blocks.append(Block(current[0], "\n".join(body).strip("\n"), current[1], current[2]))

    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        found = _MARKER.match(line)
        if found:
            close()
            options = dict(item.split("=", 1) for item in found.group(2).split())
            current, body = (found.group(1), options, number), []
        elif current is None:
            if line.strip():
                raise SourceError(f"{path}:{number}: text before the first marker (<!-- zh -->, <!-- en -->, <!-- code -->)")
        else:
            body.append(line)
    close()
    for index, block in enumerate(blocks):
        following = blocks[index + 1] if index + 1 < len(blocks) else None
        previous = blocks[index - 1] if index else None
        if block.kind == "zh" and (following is None or following.kind != "en"):
            raise SourceError(f"{path}:{block.line}: a <!-- zh --> block must be followed by its <!-- en --> partner")
        if block.kind == "en" and (previous is None or previous.kind != "zh"):
            raise SourceError(f"{path}:{block.line}: an <!-- en --> block must follow its <!-- zh --> partner")
        if block.kind in ("zh", "en", "code") and not block.text.strip():
            raise SourceError(f"{path}:{block.line}: an empty <!-- {block.kind} --> block")
        if block.kind == "exercises" and set(block.options) != {"family"}:
            raise SourceError(f"{path}:{block.line}: write <!-- exercises family=KEY -->")
    return blocks


def _answer_example(exercise) -> str:
    """The language-neutral comment of an answer cell: what an answer looks like for this kind."""
    kind = getattr(exercise, "kind", "compute")
    options = getattr(exercise, "options", None)
    if options:
        return " / ".join(f'"{key}"' for key in options)
    if kind == "create":
        return '"[3, 0, 2]"'
    if kind == "written":
        return '"a few sentences (your teacher marks them)"'
    return '"2/7", "0.286", "28.6%"'


def exercise_cells(family: str, language: str) -> list:
    """Heading, prompt, answer and hint cells for every exercise of ``family``, in ``language``."""
    import ltr_teach as lt
    from ltr_teach.core.i18n import using_language

    chosen = [ex for ex in lt.exercises.all() if ex.family == family]
    if not chosen:
        raise SourceError(f"no exercise has the family {family!r}; families: {sorted(lt.exercises.FAMILIES)}")
    cells = []
    with using_language(language):
        for number, ex in enumerate(chosen, start=1):
            cells.append(nbformat.v4.new_markdown_cell(f"## {number}. {ex.title} · `{ex.id}` · {ex.level_text}"))
            cells.append(nbformat.v4.new_code_cell(f'lt.exercises.variant("{ex.id}", seed)'))
            cells.append(nbformat.v4.new_code_cell(
                f'answer = None  # {_answer_example(ex)}\nlt.check("{ex.id}", answer, seed=seed)'))
            cells.append(nbformat.v4.new_code_cell(f'lt.exercises.variant("{ex.id}", seed).hint_box()'))
    return cells


def build(path: Path, language: str):
    """The ``language`` edition of one source, without outputs."""
    cells = []
    for block in parse(path):
        if block.kind == "code":
            cells.append(nbformat.v4.new_code_cell(block.text))
        elif block.kind == language:
            cells.append(nbformat.v4.new_markdown_cell(block.text))
        elif block.kind == "exercises":
            cells.extend(exercise_cells(block.options["family"], language))
    return _notebook(cells, path, language)


def build_start_page():
    """``notebooks/start_here.ipynb``: the bilingual page where a reader picks an edition."""
    text = START_SOURCE.read_text(encoding="utf-8").strip("\n")
    return _notebook([nbformat.v4.new_markdown_cell(text)], START_SOURCE, None)


def _notebook(cells, source: Path, language: str | None):
    for index, cell in enumerate(cells):
        cell["id"] = f"cell-{index:03d}"  # stable ids: a rebuild changes no line it need not change
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = dict(_KERNEL)
    notebook.metadata["language_info"] = {"name": "python"}
    notebook.metadata["ltr_teach"] = {"source": source.relative_to(ROOT).as_posix(), "language": language or "zh+en"}
    return notebook


_NOT_PROSE = re.compile(
    r"```.*?```"                      # fenced code
    r"|`[^`\n]*`"                     # inline code
    r"|\$\$.*?\$\$|\$[^$\n]+\$"        # LaTeX formulas
    r"|\]\([^)]*\)"                   # link targets (the link's text stays)
    r"|https?://\S+"                  # bare addresses
    r"|<[^>\n]+>",                    # HTML tags
    re.DOTALL)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ0-9_.@'-]*")


def chinese_share(markdown: str, proper_names=frozenset()) -> float:
    """The share of Chinese in ``markdown``'s prose: CJK characters / (CJK characters + Latin letters).

    Code, formulas, link targets and HTML are not prose; nor are names (``proper_names``, lower-case),
    abbreviations (a word without a lower-case letter: NDCG, P@k) and one-letter symbols (k, i).
    Every other Latin letter counts against the share, so an English sentence weighs what it reads.
    """
    prose = _NOT_PROSE.sub(" ", markdown)
    cjk = len(_CJK.findall(prose))
    latin = 0
    for word in _LATIN_WORD.findall(prose):
        bare = word.strip(".-'@_")
        if len(bare) <= 1 or not any(c.islower() for c in bare) or bare.lower() in proper_names:
            continue
        latin += sum(c.isalpha() for c in bare)
    return cjk / (cjk + latin) if cjk + latin else 1.0


def sources() -> list[Path]:
    """Every two-edition source, tutorials first."""
    return [path for folder in FOLDERS for path in sorted((COURSE / folder).glob("*.md"))]


def edition_path(source: Path, language: str) -> Path:
    return FOLDERS[source.parent.name] / language / (source.stem + ".ipynb")


def _same_cells(old, new) -> bool:
    """True when ``old`` (committed) has ``new``'s cells: same kinds and sources (outputs aside)."""
    return [(c.cell_type, c.source) for c in old.cells] == [(c.cell_type, c.source) for c in new.cells]


def execute(notebook, folder: Path) -> None:
    """Run ``notebook`` top to bottom on a fresh kernel started in ``folder`` (its edition's folder)."""
    from nbconvert.preprocessors import ExecutePreprocessor

    # The widgets' saved state would only differ between runs (model ids); nbval compares outputs.
    runner = ExecutePreprocessor(timeout=900, kernel_name="python3", store_widget_state=False)
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if str(ROOT) not in paths:  # the kernel imports this checkout's ltr_teach (once, not once per notebook)
        os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *paths])
    runner.preprocess(notebook, {"metadata": {"path": str(folder)}})


def write(source: Path, run: bool) -> list[Path]:
    written = []
    for language in LANGUAGES:
        target = edition_path(source, language)
        target.parent.mkdir(parents=True, exist_ok=True)
        (target.parent / EDITION_FILE).write_text(language + "\n", encoding="utf-8")
        notebook = build(source, language)
        if run:
            execute(notebook, target.parent)
        elif target.exists():  # keep the committed outputs when the cells did not change
            old = nbformat.read(target, as_version=4)
            if _same_cells(old, notebook):
                continue
        nbformat.write(notebook, target)
        written.append(target)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, help="sources to build (default: every one)")
    parser.add_argument("--no-execute", action="store_true", help="build without running the notebooks")
    args = parser.parse_args(argv)
    chosen = [path.resolve() for path in args.paths] or sources()
    for path in chosen:
        if path == START_SOURCE.resolve():
            continue
        if path.parent.parent != COURSE.resolve() or path.parent.name not in FOLDERS or path.suffix != ".md":
            parser.error(f"{path} is not a course source (course/notebooks/*.md or course/exercises/*.md)")
    try:
        if START_SOURCE.exists() and (not args.paths or START_SOURCE.resolve() in chosen):
            nbformat.write(build_start_page(), START_PAGE)
            print(f"built {START_PAGE.relative_to(ROOT)}")
        for path in chosen:
            if path == START_SOURCE.resolve():
                continue
            for target in write(path, run=not args.no_execute):
                print(f"{'ran' if not args.no_execute else 'built'} {target.relative_to(ROOT)}")
    except SourceError as error:
        print(f"build_course: error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
