"""Build the course's two editions (Chinese and English) from its one source, and run them.

Every tutorial and exercise notebook is written once, in ``course/notebooks/NN_name.md`` or
``course/exercises/NN_name.md``: a sequence of blocks, each opened by a marker line

    <!-- zh -->       a Chinese markdown cell; the next block must be its English partner
    <!-- en -->       the English markdown cell at the same place in the English edition
    <!-- code -->     a code cell, the same in both editions
    <!-- exercises family=KEY -->   (exercise sheets) every exercise of that family in the registry:
                      a heading, the prompt, the answer cell and the hint cell of each

and, as a line of a zh or en block, a directive expanded from the course path
(``ltr_teach/teaching/course_path.py``, where prerequisites and times are stated once)

    <!-- header -->      the notebook's (or the sheet's) prerequisites-and-time line
    <!-- course-map -->  (notebook 00) the map of every notebook and exercise sheet

A notebook's or a sheet's first heading must be the course path's ``# NN · title``.
Built without paths (or with ``--guides``), the script also rewrites the course-path table and the lesson-plan
headings of the teacher guides (``docs/teacher_guide.md``, ``docs/teacher_guide.zh.md``) from the same data.

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
    python tools/build_course.py --keep-outputs     # only markdown changed: keep the committed outputs
    python tools/build_course.py --guides           # the teacher guides' course-path parts only
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
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
GUIDES = {"en": ROOT / "docs" / "teacher_guide.md", "zh": ROOT / "docs" / "teacher_guide.zh.md"}
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


@functools.cache
def course_path():
    """``ltr_teach/teaching/course_path.py`` of this checkout (plain data: loaded without the package)."""
    spec = importlib.util.spec_from_file_location("_course_path", ROOT / "ltr_teach" / "teaching" / "course_path.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


_DIRECTIVE = re.compile(r"^<!--[ \t]*(header|course-map)[ \t]*-->[ \t]*$", re.MULTILINE)


def _expand(text: str, path: Path, language: str, line: int) -> str:
    """A markdown block with its course-path directives expanded."""
    data = course_path()

    def replace(found):
        if found.group(1) == "course-map":
            return data.course_map(language, {source.stem for source in (COURSE / "notebooks").glob("*.md")})
        try:
            if path.parent.name == "exercises":
                return data.sheet_header(path.stem, language)
            return data.notebook_header(path.stem, language)
        except ValueError as error:
            raise SourceError(f"{path}:{line}: <!-- header -->: {error}") from None

    return _DIRECTIVE.sub(replace, text)


def _check_heading(path: Path, blocks) -> None:
    """The first heading of each edition is the course path's ``# NN · title`` (one title, shown everywhere)."""
    data = course_path()
    try:
        entry = data.sheet(path.stem) if path.parent.name == "exercises" else data.notebook(path.stem)
    except ValueError as error:
        raise SourceError(f"{path}: {error}; add it to ltr_teach/teaching/course_path.py") from None
    for language in LANGUAGES:
        block = next((b for b in blocks if b.kind == language), None)
        first = block.text.lstrip().splitlines()[0] if block else ""
        if first != f"# {entry.heading(language)}":
            raise SourceError(f"{path}:{block.line if block else 1}: the {language} edition must open with "
                              f"'# {entry.heading(language)}' (the title in ltr_teach/teaching/course_path.py), "
                              f"not {first!r}")


def build(path: Path, language: str):
    """The ``language`` edition of one source, without outputs."""
    cells = []
    blocks = parse(path)
    _check_heading(path, blocks)
    for block in blocks:
        if block.kind == "code":
            cells.append(nbformat.v4.new_code_cell(block.text))
        elif block.kind == language:
            cells.append(nbformat.v4.new_markdown_cell(_expand(block.text, path, language, block.line)))
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


def _outputs_kept(old, new) -> bool:
    """Give ``new`` the outputs of ``old`` (committed) when their code cells are the same; False when they differ."""
    old_code = [c for c in old.cells if c.cell_type == "code"]
    new_code = [c for c in new.cells if c.cell_type == "code"]
    if [c.source for c in old_code] != [c.source for c in new_code]:
        return False
    for before, after in zip(old_code, new_code):
        after.outputs, after.execution_count, after.metadata = before.outputs, before.execution_count, before.metadata
    if "language_info" in old.metadata:  # what the kernel reported when the outputs were made
        new.metadata["language_info"] = old.metadata["language_info"]
    return True


def write(source: Path, run: bool, keep_outputs: bool = False) -> list[tuple[Path, str]]:
    """Build both editions of ``source``; the files written, each with how ("ran", "kept outputs", "built")."""
    written = []
    for language in LANGUAGES:
        target = edition_path(source, language)
        target.parent.mkdir(parents=True, exist_ok=True)
        (target.parent / EDITION_FILE).write_text(language + "\n", encoding="utf-8")
        notebook = build(source, language)
        old = nbformat.read(target, as_version=4) if target.exists() else None
        how = "built"
        if keep_outputs and old is not None and _outputs_kept(old, notebook):
            if old == notebook:
                continue  # nothing changed; a markdown change runs nothing: the code, so its outputs, are the same
            how = "kept outputs"
        elif run:
            execute(notebook, target.parent)
            how = "ran"
        elif old is not None and _same_cells(old, notebook):  # keep the committed outputs: the cells did not change
            continue
        nbformat.write(notebook, target)
        written.append((target, how))
    return written


_GUIDE_REGION = re.compile(r"(<!-- course-path -->\n)(?:.*?\n)?(<!-- /course-path -->)", re.DOTALL)
_SEMESTER_REGION = re.compile(r"(<!-- semester -->\n)(?:.*?\n)?(<!-- /semester -->)", re.DOTALL)
_GUIDE_HEADING = re.compile(r"^### (\d{2}) · .*$", re.MULTILINE)


def guide_text(text: str, language: str) -> str:
    """A teacher guide with its course-path table, its 14-week plan and its lesson-plan headings made from the course
    path."""
    data = course_path()
    if not _GUIDE_REGION.search(text):
        raise SourceError(f"the {language} teacher guide has no <!-- course-path --> ... <!-- /course-path --> region")
    if not _SEMESTER_REGION.search(text):
        raise SourceError(f"the {language} teacher guide has no <!-- semester --> ... <!-- /semester --> region")
    text = _GUIDE_REGION.sub(lambda m: m.group(1) + data.guide_table(language) + "\n" + m.group(2), text)
    text = _SEMESTER_REGION.sub(lambda m: m.group(1) + data.semester_table(language) + "\n" + m.group(2), text)
    return _GUIDE_HEADING.sub(lambda m: data.guide_heading(int(m.group(1)), language), text)


def write_guides() -> list[Path]:
    written = []
    for language, path in GUIDES.items():
        old = path.read_text(encoding="utf-8")
        new = guide_text(old, language)
        if new != old:
            path.write_text(new, encoding="utf-8")
            written.append(path)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, help="sources to build (default: every one)")
    parser.add_argument("--no-execute", action="store_true", help="build without running the notebooks")
    parser.add_argument("--keep-outputs", action="store_true",
                        help="where the code cells did not change, keep the committed outputs instead of running")
    parser.add_argument("--guides", action="store_true",
                        help="rewrite the teacher guides' course-path parts (done anyway when no path is given)")
    args = parser.parse_args(argv)
    chosen = [path.resolve() for path in args.paths] or sources()
    for path in chosen:
        if path == START_SOURCE.resolve():
            continue
        if path.parent.parent != COURSE.resolve() or path.parent.name not in FOLDERS or path.suffix != ".md":
            parser.error(f"{path} is not a course source (course/notebooks/*.md or course/exercises/*.md)")
    try:
        if args.guides or not args.paths:
            for path in write_guides():
                print(f"wrote {path.relative_to(ROOT)}")
            if args.guides and not args.paths:
                return 0
        if START_SOURCE.exists() and (not args.paths or START_SOURCE.resolve() in chosen):
            nbformat.write(build_start_page(), START_PAGE)
            print(f"built {START_PAGE.relative_to(ROOT)}")
        for path in chosen:
            if path == START_SOURCE.resolve():
                continue
            for target, how in write(path, run=not args.no_execute, keep_outputs=args.keep_outputs):
                print(f"{how}: {target.relative_to(ROOT)}")
    except SourceError as error:
        print(f"build_course: error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
