"""The classroom: the tutorial in a student's folder, one assignment per student, grading a class.

Three jobs, each a function here and a command of ``ltr-teach``:

- :func:`copy_tutorial` (``ltr-teach tutorial``) copies the tutorial and exercise notebooks that
  ship with the package into a working folder, both editions with the layout of the repository
  (``notebooks/zh/``, ``notebooks/en/``, ``exercises/zh/`` ..., so the links between them work, and each
  edition's language file, so its kernels speak its language), and never overwrites a file the student
  has changed: the folder keeps a manifest of the SHA-256 of every file it was given.
- :func:`assign` (``ltr-teach assign``) writes one exercise notebook per student of a roster, each
  with the student's own numbers (:func:`ltr_teach.exercises.variant` with the student's seed), and
  the teacher's key and assignment record in a separate folder.
- :func:`grade` (``ltr-teach grade``) reads the returned notebooks as JSON (it never runs them),
  rechecks every answer with :func:`ltr_teach.check` from the seed in the teacher's record, and
  returns a :class:`Gradebook` that writes the gradebook CSV and a self-contained HTML report of
  the class's most common slips.

Seeds
-----
A student's seed is the roster's ``seed`` column when the roster has one, otherwise
:func:`student_seed`: ``int(sha256(f"{course}/{student_id}"), 16) % 1_000_000``, where ``course``
is a salt the teacher chooses per course and term (``--course``). The same roster and salt always
give the same seeds; a new salt gives every student new numbers.

>>> student_seed("s01", course="IR-2026")
458105
"""

from __future__ import annotations

import ast
import base64
import csv
import hashlib
import html
import io
import json
import os
import re
import shutil
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ..core.files import NotARegularFile, read_bytes_at_most
from ..core.i18n import EDITION_FILE, N_, _, get_language, using_language
from ..core.palette import COLORS, PALETTE
from . import exercises
from .answers import RANKING_EXAMPLES
from .checker import check
from .kinds import CHOICE_KINDS

# -- reading files that may be anything ---------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _shown(name) -> str:
    """A file name or id as it may be printed on a terminal: control characters, newlines and bidi marks escaped.

    >>> _shown("2026022.ipynb\\n2026022: graded, 8 of 8 points")
    '2026022.ipynb\\\\n2026022: graded, 8 of 8 points'
    """
    text = str(name)
    return _CONTROL.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"), text)


# -- the tutorial ----------------------------------------------------------------------------------

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
        if _through_link(folder, name):  # a link (even a dangling one) would write outside the folder
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


def _through_link(folder: Path, name: str) -> bool:
    """Whether ``folder / name`` or a folder on the way to it (inside ``folder``) is a symbolic link."""
    path = folder
    for part in Path(name).parts:
        path = path / part
        if path.is_symlink():
            return True
    return False


# -- rosters and seeds -------------------------------------------------------------------------------

#: A student id is used as a file name: letters, digits, ``.``, ``_`` and ``-``, not starting with ``.``.
STUDENT_ID = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}")

DEFAULT_COURSE = "ltr_teach"


def student_seed(student_id: str, course: str = DEFAULT_COURSE) -> int:
    """The seed of a student without a ``seed`` column: a hash of the course salt and the id.

    Parameters
    ----------
    student_id : str
        The roster's id.
    course : str
        The teacher's salt for this course and term.

    Returns
    -------
    int
        ``int(sha256(f"{course}/{student_id}").hexdigest(), 16) % 1_000_000``.

    Examples
    --------
    >>> import hashlib
    >>> student_seed("s01", "IR-2026") == int(hashlib.sha256(b"IR-2026/s01").hexdigest(), 16) % 1_000_000
    True
    """
    return int(hashlib.sha256(f"{course}/{student_id}".encode()).hexdigest(), 16) % 1_000_000


@dataclass(frozen=True)
class Student:
    """One roster line: the id (also the notebook's file name), the name and the seed.

    ``seed_given`` says whether the seed came from the roster's ``seed`` column (``False``: derived
    by :func:`student_seed`).
    """

    id: str
    name: str
    seed: int
    seed_given: bool = field(default=False, compare=False)


_ID_COLUMNS = ("id", "student", "student_id")

#: The largest seed a roster or record may give (18 digits: ``exercises.variant`` takes any int, but a
#: seed is a number to copy, not a data store).
MAX_SEED = 10**18 - 1
SEED_TEXT = re.compile(r"[0-9]{1,18}")

#: A roster or an assignment record larger than this is refused (100,000 students take about 4 MB).
MAX_ROSTER_BYTES = 50_000_000


def _read_text(path, what: str, limit: int) -> str:
    """A teacher's text file (roster, record, overrides): a regular file of at most ``limit`` bytes, UTF-8."""
    data = _read_teacher_bytes(path, what, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{what} = '{_shown(path)}' is not UTF-8 text ({exc.reason} at byte {exc.start}); "
                         "save it as UTF-8 CSV") from None


def read_roster(path, course: str = DEFAULT_COURSE) -> list[Student]:
    """The students of a roster CSV: an ``id`` column, optional ``name`` and ``seed`` columns.

    Parameters
    ----------
    path : str or Path
        A CSV file (UTF-8, a spreadsheet's byte-order mark allowed) with a header row.
    course : str
        The salt for :func:`student_seed`, used where the ``seed`` column is absent or empty.

    Returns
    -------
    list of Student
        In the roster's order.
    """
    text = _read_text(path, "roster", MAX_ROSTER_BYTES)
    reader = csv.DictReader(io.StringIO(text))
    try:
        fieldnames = reader.fieldnames
    except csv.Error as exc:
        raise ValueError(f"roster = '{_shown(path)}' line 1 is not CSV: {exc}") from None
    columns = {(c or "").strip().lower(): c for c in fieldnames or []}
    id_column = next((columns[c] for c in _ID_COLUMNS if c in columns), None)
    if id_column is None:
        raise ValueError(f"roster = '{_shown(path)}' has no id column (its header is {_shown(_short(str(list(columns)), 200))}); "
                         "the first line must name the columns: id,name[,seed]")
    seed_column = columns.get("seed")
    name_column = columns.get("name")
    students, seen = [], set()
    rows = iter(reader)
    while True:
        line = reader.line_num + 1
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as exc:
            raise ValueError(f"roster = '{_shown(path)}' line {line} is not CSV ({exc}): a roster line holds an id, "
                             "a name and a seed, each under 131,072 characters") from None
        values = [v for v in row.values() if isinstance(v, str)] + [v for v in row.get(None) or [] if isinstance(v, str)]
        if any("\n" in v or "\r" in v for v in values):
            raise ValueError(f"roster = '{_shown(path)}' line {line}: a quote (\") opened on this line runs on to "
                             f"line {reader.line_num}, so those lines would become one student; close the quote or "
                             "remove it")
        student_id = (row.get(id_column) or "").strip()
        if not student_id and not any(v.strip() for v in values):
            continue  # a blank line
        if not STUDENT_ID.fullmatch(student_id):
            raise ValueError(f"roster = '{_shown(path)}' line {line}: id = {_shown(repr(_short(student_id, 80)))} must "
                             "be 1 to 64 letters, digits, '.', '_' or '-' (it becomes the notebook's file name)")
        if student_id in seen:
            raise ValueError(f"roster = '{_shown(path)}' line {line}: id = {student_id!r} appears twice")
        seen.add(student_id)
        raw_seed = (row.get(seed_column) or "").strip() if seed_column else ""
        if raw_seed and not SEED_TEXT.fullmatch(raw_seed):
            raise ValueError(f"roster = '{_shown(path)}' line {line}: seed = {_shown(repr(_short(raw_seed, 40)))} must "
                             f"be a whole number from 0 to {MAX_SEED:,}")
        seed = int(raw_seed) if raw_seed else student_seed(student_id, course)
        name = (row.get(name_column) or "").strip() if name_column else ""
        students.append(Student(student_id, name, seed, seed_given=bool(raw_seed)))
    if not students:
        raise ValueError(f"roster = '{path}' lists no students")
    return students


# -- assignments ---------------------------------------------------------------------------------------

#: The assignment record's format name, checked when grading.
RECORD_FORMAT = "ltr_teach-assignment-1"

#: The tag of an answer cell; its metadata ``ltr_teach`` holds the exercise id and points.
ANSWER_TAG = "ltr-teach-answer"


def parse_exercise_list(text) -> list[tuple[str, int]]:
    """Exercise ids and families (``ndcg-lipstick,map-doc000:2,err``) as ``(id, points)`` pairs.

    A family name (``dcg_ndcg``) stands for all its exercises; ``:N`` after an id or a family gives
    the points (default 1).

    Examples
    --------
    The family ``err`` expands to its exercises in the sheet's order, each worth 1 point:

    >>> pairs = parse_exercise_list("map-doc000:2,err")
    >>> pairs[:3], all(points == 1 for _, points in pairs[1:])
    ([('map-doc000', 2), ('err-lipstick', 1), ('err-doc003', 1)], True)
    """
    pieces = text.split(",") if isinstance(text, str) else list(text)
    chosen: dict[str, int] = {}
    for piece in pieces:
        piece = str(piece).strip()
        if not piece:
            continue
        name, _, points_text = piece.partition(":")
        name = name.strip()
        points = 1
        if points_text:
            if not points_text.strip().isdigit() or not 0 < int(points_text) <= 1000:
                raise ValueError(f"exercises: points {points_text!r} for {name!r} must be a whole number from 1 to 1000")
            points = int(points_text)
        if name in exercises.FAMILIES:
            ids = [e.id for e in exercises.all() if e.family == name]
        else:
            ids = [exercises.get(name).id]
        for exercise_id in ids:
            chosen[exercise_id] = points
    if not chosen:
        raise ValueError(f"exercises = {text!r} names no exercise; give ids or families "
                         f"({', '.join(exercises.FAMILIES)})")
    return list(chosen.items())


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _cell(kind: str, cell_id: str, source: str, metadata: dict | None = None) -> dict:
    cell = {"cell_type": kind, "id": cell_id, "metadata": metadata or {}, "source": _lines(source)}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _notebook(cells: list, metadata: dict) -> dict:
    # the display name ipykernel gives its kernel: JupyterLab rewrites any other and marks the notebook modified
    return {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                                                        "name": "python3"},
                                         "language_info": {"name": "python"}, "ltr_teach": metadata},
            "nbformat": 4, "nbformat_minor": 5}


def _other_kinds_note(chosen) -> str:
    """How to answer a question with options or a ranking to build, when the assignment has one."""
    kinds = {exercises.get(exercise_id).kind for exercise_id, _points in chosen}
    note = ""
    if kinds & set(CHOICE_KINDS):
        note += _("For a question with options, replace None by the name of one option, in quotes. ")
    if "create" in kinds:
        note += _("For a ranking to build, type its grades between the quotes, rank 1 first, as in [3, 0, 2]. ")
    if "written" in kinds:
        note += _("For a written answer, write a few sentences between the triple quotes; your teacher marks it. ")
    return note


def _options_markdown(ex) -> str:
    """A choice exercise's options under its prompt (the key to answer with, then the text); none marked right."""
    if ex.kind not in CHOICE_KINDS:
        return ""
    return "\n\n" + "\n".join(f"- `{key}`: {ex.option_text(key)}" for key in ex.options)


def answer_cell_source(ex, number: int) -> str:
    """The empty answer cell of an exercise: a string for a number or a ranking, ``None`` for a choice, with a
    comment saying what to write (every option's key for a choice, so the comment never points at one).

    Examples
    --------
    >>> import ltr_teach as lt
    >>> print(answer_cell_source(lt.exercises.get("dcg-append-item"), 3))
    answer_3 = None  # one of "rise", "fall", "same", "depends"
    >>> print(answer_cell_source(lt.exercises.get("ndcg-perfect-with-a-zero"), 4))
    answer_4 = ""  # a ranking, as in [3, 0, 2]
    """
    if ex.kind in CHOICE_KINDS:
        return f"answer_{number} = None  # one of " + ", ".join(f'"{key}"' for key in ex.options)
    if ex.kind == "create":
        return f'answer_{number} = ""  # {"a ranking" if ex.shape == "ranking" else "two rankings"}, as in ' \
               f"{RANKING_EXAMPLES[ex.shape]}"
    if ex.kind == "written":
        return f'answer_{number} = """\n"""  # a few sentences, marked by the teacher'
    return f'answer_{number} = ""'


def student_notebook(student: Student, chosen: list[tuple[str, int]], assignment: str, checks: bool = True) -> dict:
    """One student's exercise notebook (nbformat 4 as a dict): prompts with the student's numbers, answer cells.

    Nothing in it is an answer: the prompts state the data, the answer cells are empty and the
    optional check cells call :func:`ltr_teach.check` with the student's seed.
    """
    total = sum(points for _, points in chosen)
    name_part = f" ({student.name})" if student.name else ""
    intro = (f"# {assignment}\n\n"
             + _("Student: **{id}**{name} · seed **{seed}** · {n} exercise(s), {total} point(s)").format(
                 id=student.id, name=name_part, seed=student.seed, n=len(chosen), total=total) + "\n\n"
             + _("These are your own numbers: another student's notebook has different ones. Write each answer "
                 "between the quotes of its answer cell: a fraction (p/q), a decimal with at least three significant "
                 "digits, a percentage, or a small expression with log2. ")
             + _other_kinds_note(chosen)
             + (_("Run the cell below it to see whether it is right. ") if checks else "")
             + _("Save the notebook and hand it in under the same file name; do not change the notebook's "
                 "metadata (it holds your id and seed)."))
    if get_language() != "zh":
        intro += ("\n\n这些是你自己的题目数据。在每个答案单元格的引号中写答案（分数、至少三位有效数字的小数、百分数或含 log2 "
                  "的简单表达式），保存后以原文件名提交，不要修改笔记本的元数据。")
    cells = [_cell("markdown", "intro", intro),
             _cell("code", "setup", f"import ltr_teach as lt\n\nSEED = {student.seed}  # "
                   + _("your seed: do not change it"))]
    for number, (exercise_id, points) in enumerate(chosen, start=1):
        ex = exercises.variant(exercise_id, student.seed)
        cells.append(_cell("markdown", f"prompt-{number}",
                           f"## {number}. {ex.title} · `{ex.id}` · " + _("{n} point(s)").format(n=points) + "\n\n"
                           f"{ex.prompt}{_options_markdown(ex)}"))
        cells.append(_cell("code", f"answer-{number}", answer_cell_source(ex, number),
                           {"tags": [ANSWER_TAG], "ltr_teach": {"exercise": ex.id, "points": points}}))
        if checks:
            cells.append(_cell("code", f"check-{number}", f'lt.check("{ex.id}", answer_{number}, seed=SEED)'))
    metadata = {"assignment": assignment, "student": student.id, "seed": student.seed}
    return _notebook(cells, metadata)


@dataclass
class Assignment:
    """What :func:`assign` wrote: the students' notebooks and the key's files."""

    folder: Path
    students: dict
    record: Path
    key: Path


#: The title of an assignment not given one (in the sheets' language).
DEFAULT_TITLE = N_("Ranking evaluation exercises")


def assign(exercise_list, roster, out, course: str = DEFAULT_COURSE, name: str = DEFAULT_TITLE,
           checks: bool = True, lang: str | None = None, partial=None) -> Assignment:
    """Write one exercise notebook per student and the teacher's key, kept apart.

    ``out/students/<id>.ipynb`` go to the students; ``out/key/`` stays with the teacher: the
    assignment record ``assignment.json`` (exercises, points, each student's seed; :func:`grade`
    reads it) and ``key.md`` / ``key.csv`` (every student's answers and the library calls).

    Parameters
    ----------
    exercise_list : str or list
        Ids and families as :func:`parse_exercise_list` reads them.
    roster : str, Path or list of Student
        The roster CSV (see :func:`read_roster`) or the students.
    out : str or Path
        The output folder.
    course : str
        The seed salt for students without a ``seed`` column.
    name : str
        The assignment's title.
    checks : bool
        Put a ``lt.check`` cell under every answer cell, so students see at once whether an answer
        is right (formative work); ``False`` for a test.
    lang : {"en", "zh"} or None
        The language of the sheets (introduction, headings, prompts) and of the feedback pages; None: the
        current language.
    partial : str or dict, optional
        The partial-credit rule (see :func:`parse_partial`), kept in the record and applied by :func:`grade`.

    Returns
    -------
    Assignment
    """
    if lang not in (None, *LANGUAGES):
        raise ValueError(f"lang = {lang!r} is not a course language; choose one of {', '.join(LANGUAGES)}")
    partial = parse_partial(partial or {})
    with using_language(lang):
        return _assign(exercise_list, roster, out, course, name, checks, lang, partial)


def _assign(exercise_list, roster, out, course, name, checks, lang, partial) -> Assignment:
    if name == DEFAULT_TITLE:
        name = _(DEFAULT_TITLE)  # the default title in the sheets' language
    chosen = parse_exercise_list(exercise_list)
    students = roster if isinstance(roster, list) else read_roster(roster, course)
    out = Path(out)
    student_dir, key_dir = out / "students", out / "key"
    for folder in (student_dir, key_dir):
        folder.mkdir(parents=True, exist_ok=True)
    written = {}
    key_md = [f"# Answer key: {name}", "", f"Exercises: {', '.join(f'{i} ({p} pt)' for i, p in chosen)}", ""]
    key_rows = [["student", "name", "seed", "exercise", "points", "answer", "call"]]
    for student in students:
        notebook = student_notebook(student, chosen, name, checks)
        path = student_dir / f"{student.id}.ipynb"
        path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written[student.id] = path
        key_md += [f"## {student.id} {student.name} (seed {student.seed})".rstrip(), "",
                   "| exercise | points | answer | library call |", "|---|---|---|---|"]
        for exercise_id, points in chosen:
            ex = exercises.variant(exercise_id, student.seed)
            key_md.append(f"| {exercise_id} | {points} | {exercises.answer_text(ex)} | {exercises.call_text(ex)} |")
            key_rows.append([student.id, student.name, student.seed, exercise_id, points, exercises.answer_text(ex),
                             exercises.call_text(ex).strip("`")])
        key_md.append("")
    record = {"format": RECORD_FORMAT, "assignment": name, "course": course, "checks": checks, "lang": lang,
              "partial": partial,
              "exercises": [{"id": i, "points": p} for i, p in chosen],
              "students": [{"id": s.id, "name": s.name, "seed": s.seed, "file": f"students/{s.id}.ipynb"}
                           for s in students]}
    record_path = key_dir / "assignment.json"
    record_path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (key_dir / "key.md").write_text("\n".join(key_md) + "\n", encoding="utf-8")
    with open(key_dir / "key.csv", "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([[_csv_safe(v) for v in row] for row in key_rows])
    return Assignment(folder=out, students=written, record=record_path, key=key_dir / "key.md")


def read_record(path) -> dict:
    """The assignment record written by :func:`assign`, checked for shape."""
    text = _read_text(path, "assignment", MAX_ROSTER_BYTES)
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else _short(str(exc), 120)
        raise ValueError(f"assignment = '{_shown(path)}' cannot be read as an assignment record: "
                         f"{_shown(reason)}") from None
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise ValueError(f"assignment = '{_shown(path)}' is not an assignment record of `ltr-teach assign` "
                         f"(format {RECORD_FORMAT})")
    try:
        for entry in record["exercises"]:
            exercises.get(entry["id"])
            if type(entry["points"]) is not int or not 0 < entry["points"] <= 1000:
                raise ValueError(f"points {_short(str(entry['points']), 40)!r} of {entry['id']!r}")
        for entry in record["students"]:
            if not isinstance(entry["id"], str) or not STUDENT_ID.fullmatch(entry["id"]):
                raise ValueError(f"student id {_short(str(entry['id']), 80)!r}")
            if type(entry["seed"]) is not int or not 0 <= entry["seed"] <= MAX_SEED:
                raise ValueError(f"seed {_short(str(entry['seed']), 40)!r} of student {entry['id']!r} (a whole number "
                                 f"from 0 to {MAX_SEED:,})")
        if not isinstance(record["assignment"], str):
            raise ValueError("assignment title")
        if record.get("lang") not in (None, *LANGUAGES):
            raise ValueError(f"lang {_short(str(record.get('lang')), 20)!r}")
        parse_partial(record.get("partial") or {})
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"assignment = '{_shown(path)}' is not an assignment record of `ltr-teach assign`: "
                         f"{type(exc).__name__} {_shown(_short(str(exc), 160))}") from None
    return record


# -- grading ----------------------------------------------------------------------------------------------

#: A submission larger than this is reported, not read (an exercise notebook is a few tens of kB).
MAX_SUBMISSION_BYTES = 5_000_000

#: Answer text longer than this is not passed to the checker (which reads at most 200 characters).
MAX_ANSWER_CELL = 2_000

#: What an answer's ``status`` can be, in the order the report lists them.
STATUSES = ("right", "wrong", "too coarse", "unreadable", "not answered", "not graded", "to mark")


def _csv_safe(value) -> str:
    """A spreadsheet reads a cell starting with = + - @ (or a tab / carriage return) as a formula: quote it."""
    text = "" if value is None else str(value)
    if _PLAIN_NUMBER.fullmatch(text):  # +0.2937 or -3 is a number to a spreadsheet, not a formula: keep it
        return text
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]{1,15}(?:\.[0-9]{1,15})?|\.[0-9]{1,15})")


#: Quotes an input method types, read as ASCII quotes when the cell is not Python as typed.
_IME_QUOTES = str.maketrans({c: '"' for c in "“”„‟＂「」『』〝〞"} | {c: "'" for c in "‘’‚‛＇"})


def answer_from_cell(source: str) -> str:
    """What a student answered in an answer cell, read without running it.

    The cell holds ``answer_3 = "..."``: a string literal gives its text, any other expression its
    source text (``599/840`` written without quotes); a cell that is not an assignment gives its
    whole text, which the checker then reports as unreadable.

    Examples
    --------
    >>> answer_from_cell('answer_1 = "599/840"'), answer_from_cell("answer_1 = 0.713"), answer_from_cell('answer_1 = ""')
    ('599/840', '0.713', '')
    >>> answer_from_cell('answer_5 = “0.4444”'), answer_from_cell('answer_2 = ＂rise＂')
    ('0.4444', 'rise')
    >>> answer_from_cell("import os; os.system('rm -rf ~')")
    "import os; os.system('rm -rf ~')"
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        # a Chinese input method types “0.4444” or ＂rise＂ where Python wants "...": read them as quotes
        source = source.translate(_IME_QUOTES)
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return source.strip()
    for node in reversed(tree.body):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id.startswith("answer"):
            value = node.value
            if isinstance(value, ast.Constant) and value.value is None:  # a choice's answer cell left as it came
                return ""
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value.strip()
            return (ast.get_source_segment(source, value) or "").strip()
    return source.strip()


@dataclass(frozen=True)
class GradeRow:
    """One line of the gradebook: one student's answer to one exercise.

    ``points`` is an int, or a :class:`~fractions.Fraction` when the assignment's partial-credit rule gave
    part of the points; ``override`` holds the teacher's note when an overrides file set the points.
    """

    student: str
    name: str
    exercise: str
    max_points: int
    answer: str = ""
    status: str = "not graded"
    slip: str = ""
    diagnosis: str = ""
    hint: str = ""
    points: object = 0
    file: str = ""
    problem: str = ""
    override: str = ""

    @property
    def right(self) -> bool:
        return self.status == "right"


CSV_COLUMNS = ("student", "name", "exercise", "answer", "status", "right", "slip", "diagnosis", "points",
               "max_points", "problem", "file", "override")


def points_text(points) -> str:
    """Points as a spreadsheet reads them: ``2``, ``0.5``, ``0.33`` (two decimals when the fraction does not end).

    >>> from fractions import Fraction
    >>> points_text(2), points_text(Fraction(1, 2)), points_text(Fraction(2, 3))
    ('2', '0.5', '0.67')
    """
    value = Fraction(points)
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.6f}".rstrip("0").rstrip(".")
    return text if Fraction(text) == value else f"{float(value):.2f}"


#: The near misses a partial-credit rule can give points for: a too coarse decimal, and a wrong answer whose
#: slip the checker names.
PARTIAL_KINDS = ("too coarse", "slip")


def parse_partial(text) -> dict:
    """A partial-credit rule, ``"too coarse=1/2,slip=1/4"``: the share of an exercise's points each near miss gets.

    Examples
    --------
    >>> parse_partial("too coarse=1/2, slip=0.25")
    {'too coarse': '1/2', 'slip': '1/4'}
    >>> parse_partial("")
    {}
    """
    if isinstance(text, dict):
        pieces = [f"{k}={v}" for k, v in text.items()]
    else:
        pieces = [p for p in str(text or "").split(",") if p.strip()]
    rule = {}
    for piece in pieces:
        kind, _sep, share = piece.partition("=")
        kind = " ".join(kind.split()).lower()
        if kind not in PARTIAL_KINDS:
            raise ValueError(f"partial = {_short(str(text), 80)!r}: {_short(kind, 40)!r} is not a near miss; "
                             f"give {' and/or '.join(PARTIAL_KINDS)}, as in \"too coarse=1/2,slip=1/4\"")
        share = share.strip()
        if not re.fullmatch(r"[0-9]{1,6}(?:\.[0-9]{1,6})?(?:/[0-9]{1,6})?", share):
            raise ValueError(f"partial = {_short(str(text), 80)!r}: the share of {kind!r} must be a fraction from 0 "
                             "to 1, such as 1/2 or 0.25")
        try:
            value = Fraction(share)
        except ZeroDivisionError:
            raise ValueError(f"partial = {_short(str(text), 80)!r}: the share of {kind!r} divides by zero") from None
        if not 0 <= value <= 1:
            raise ValueError(f"partial = {_short(str(text), 80)!r}: the share of {kind!r} is {share}; it must be "
                             "from 0 to 1")
        rule[kind] = str(value)
    return rule


def _csv_writer(handle):
    return csv.writer(handle, lineterminator="\r\n")


@dataclass
class Gradebook:
    """The graded class: one :class:`GradeRow` per student and exercise, and the submission problems."""

    assignment: str
    exercises: list
    rows: list
    problems: list  # (student or file, what is wrong)
    partial: dict = field(default_factory=dict)
    lang: str | None = None

    def to_csv(self, path, bom: bool = False) -> None:
        """The gradebook as CSV, one row per student and exercise; formula-like text is quoted with '.

        ``bom=True`` writes UTF-8 with a byte-order mark, so that Excel reads Chinese names right.
        """
        with open(path, "w", newline="", encoding="utf-8-sig" if bom else "utf-8") as handle:
            writer = _csv_writer(handle)
            writer.writerow(CSV_COLUMNS)
            for row in self.rows:
                values = {**row.__dict__, "right": "yes" if row.right else "no", "points": points_text(row.points)}
                writer.writerow([_csv_safe(values[c]) for c in CSV_COLUMNS])

    def totals(self) -> list[tuple[str, str, object, int]]:
        """``(student, name, points, max points)`` per student, in the roster's order."""
        found: dict[str, list] = {}
        for row in self.rows:
            entry = found.setdefault(row.student, [row.student, row.name, Fraction(0), 0])
            entry[2] += Fraction(row.points)
            entry[3] += row.max_points
        return [(s, n, p.numerator if p.denominator == 1 else p, m) for s, n, p, m in found.values()]

    def export(self, path, lms: str, bom: bool = False) -> None:
        """The total per student in an LMS's grade-import CSV: ``canvas`` or ``moodle`` (see :data:`EXPORTS`)."""
        if lms not in EXPORTS:
            raise ValueError(f"export = {lms!r} is not a supported LMS; choose one of {', '.join(EXPORTS)}")
        column = _csv_safe(_short(self.assignment, 100))
        with open(path, "w", newline="", encoding="utf-8-sig" if bom else "utf-8") as handle:
            writer = _csv_writer(handle)
            if lms == "canvas":
                # Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID, Section, then one column
                # per assignment; the "Points Possible" row is optional. Rows are matched by SIS User ID here.
                writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", column])
                writer.writerow(["    Points Possible", "", "", "", "", points_text(sum(p for _, p in self.exercises))])
                for student, name, points, _most in self.totals():
                    writer.writerow([_csv_safe(name), "", student, "", "", points_text(points)])
            else:
                # Moodle's "Import grades from CSV file": a column identifying the user (mapped to "ID number"
                # at import) and one column per grade item (mapped to the item), optional feedback column.
                writer.writerow(["ID number", "Full name", column, f"{column} (feedback)"])
                overridden = self.override_notes()
                for student, name, points, _most in self.totals():
                    notes = "; ".join(overridden.get(student, []))
                    writer.writerow([student, _csv_safe(name), points_text(points), _csv_safe(notes)])

    def override_notes(self) -> dict[str, list[str]]:
        """``"exercise: note"`` of every overridden answer, by student."""
        notes: dict[str, list[str]] = defaultdict(list)
        for row in self.rows:
            if row.override:
                notes[row.student].append(f"{row.exercise}: {row.override}")
        return notes

    def slip_counts(self, exercise_id: str) -> Counter:
        """How many students made each diagnosed slip on one exercise (key: the slip's keys, joined by +)."""
        return Counter(r.slip for r in self.rows if r.exercise == exercise_id and r.slip)

    def share_right(self, exercise_id: str) -> float:
        """The share of the roster's students whose answer is right."""
        rows = [r for r in self.rows if r.exercise == exercise_id]
        return sum(r.right for r in rows) / len(rows) if rows else 0.0

    def report_html(self) -> str:
        """The class report, one self-contained HTML page (plots inline as PNG)."""
        return _report(self)

    def write_report(self, path) -> None:
        Path(path).write_text(self.report_html(), encoding="utf-8")

    def write_feedback(self, folder) -> dict:
        """One self-contained HTML page per graded or listed student in ``folder`` (``<id>.html``), in the
        assignment's language: each question, the answer, the verdict, the diagnosis and the first hint.

        A page holds only its student's rows; an unanswered question shows no key; no script.

        Returns
        -------
        dict of str to Path
        """
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        written = {}
        by_student: dict[str, list] = defaultdict(list)
        for row in self.rows:
            by_student[row.student].append(row)
        with using_language(self.lang):
            # the first step of each exercise's hint ladder (the metric's concept): it never gives the answer
            first_hints = {i: _(exercises.get(i).hints[0]) for i, _points in self.exercises}
            for student, rows in by_student.items():
                path = folder / f"{student}.html"
                path.write_text(_feedback_page(self, rows, first_hints), encoding="utf-8")
                written[student] = path
        return written


#: The LMS grade-import formats :meth:`Gradebook.export` writes.
EXPORTS = ("canvas", "moodle")


# -- collecting the submissions ---------------------------------------------------------------------------

#: A zip of submissions (an LMS download) larger than this is refused; its members are read in memory.
MAX_ZIP_BYTES = 500_000_000
#: At most this many members and this many bytes, all members unpacked, are read from one zip.
MAX_ZIP_MEMBERS = 20_000
MAX_ZIP_UNPACKED = 2_000_000_000


@dataclass
class _Item:
    """One submitted file: where it was (shown, relative), its file name, its bytes or what is wrong."""

    shown: str
    name: str
    data: bytes | None = None
    trouble: str = ""


def _is_notebook_name(name: str) -> bool:
    return name.lower().endswith(".ipynb")


def _read_item(path: Path, shown: str) -> _Item:
    try:
        data = read_bytes_at_most(path, MAX_SUBMISSION_BYTES, follow_links=False)
    except NotARegularFile as exc:
        kind = str(exc).rpartition(" is ")[2]
        return _Item(shown, path.name, trouble=f"is {kind}: not read")
    except OSError as exc:
        return _Item(shown, path.name, trouble=f"cannot be read ({_shown(exc.strerror or exc)})")
    if len(data) > MAX_SUBMISSION_BYTES:
        return _Item(shown, path.name, trouble=f"is over the {MAX_SUBMISSION_BYTES:,}-byte limit: not read")
    return _Item(shown, path.name, data)


def _zip_items(path: Path) -> list[_Item]:
    """The notebooks of an LMS download (a .zip), read in memory with limits; never extracted."""
    import zipfile

    data = _read_teacher_bytes(path, "submissions", MAX_ZIP_BYTES)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise ValueError(f"submissions = '{_shown(path)}' is not a readable zip file: {_shown(exc)}") from None
    if len(members) > MAX_ZIP_MEMBERS:
        raise ValueError(f"submissions = '{_shown(path)}' holds {len(members):,} files; at most "
                         f"{MAX_ZIP_MEMBERS:,} are read")
    items, unpacked = [], 0
    for info in members:
        name = info.filename
        if info.is_dir() or ".ipynb_checkpoints" in name or "__MACOSX" in name:
            continue
        shown = f"{path.name}:{name}"
        base = name.replace("\\", "/").rsplit("/", 1)[-1]
        if not _is_notebook_name(name):  # a PDF or a screenshot handed in instead: said, under the student's id
            items.append(_Item(shown, base, trouble="is not a notebook (.ipynb): not read"))
            continue
        parts = name.replace("\\", "/").split("/")
        if name.startswith(("/", "\\")) or ".." in parts or re.match(r"[A-Za-z]:", name):
            items.append(_Item(shown, base, trouble="has an unsafe path in the zip (absolute or with ..): not read"))
            continue
        if info.file_size > MAX_SUBMISSION_BYTES:
            items.append(_Item(shown, base, trouble=f"is over the {MAX_SUBMISSION_BYTES:,}-byte limit: not read"))
            continue
        if unpacked > MAX_ZIP_UNPACKED:
            items.append(_Item(shown, base, trouble="not read: the zip unpacks to more than "
                                                    f"{MAX_ZIP_UNPACKED:,} bytes (a zip bomb?)"))
            continue
        try:
            with archive.open(info) as handle:
                content = handle.read(MAX_SUBMISSION_BYTES + 1)  # the header's size may lie: read at most this
        except (zipfile.BadZipFile, RuntimeError, OSError, ValueError, EOFError, NotImplementedError) as exc:
            items.append(_Item(shown, base, trouble=f"cannot be unpacked ({_shown(_short(str(exc), 80))})"))
            continue
        unpacked += len(content)
        if len(content) > MAX_SUBMISSION_BYTES:
            items.append(_Item(shown, base, trouble=f"unpacks to over {MAX_SUBMISSION_BYTES:,} bytes (a zip bomb?): "
                                                    "not read"))
            continue
        items.append(_Item(shown, base, content))
    return items


def _read_teacher_bytes(path, what: str, limit: int) -> bytes:
    """A teacher's file (roster, record, overrides, an LMS zip): a regular file of at most ``limit`` bytes."""
    try:
        data = read_bytes_at_most(path, limit)
    except OSError as exc:
        raise ValueError(f"{what} = '{_shown(path)}' cannot be read: {_shown(exc.strerror or exc)}") from None
    if len(data) > limit:
        raise ValueError(f"{what} = '{_shown(path)}' is over {limit:,} bytes: not read")
    return data


def _collect(submissions) -> list[_Item]:
    """Every submitted notebook: the ``.ipynb`` files of folders (not following links), notebook files, zips."""
    if isinstance(submissions, (str, Path)):
        submissions = [submissions]
    items = []
    for item in submissions:
        path = Path(item)
        if path.is_dir():
            found = []
            for folder, subfolders, names in os.walk(path, followlinks=False):
                subfolders[:] = sorted(d for d in subfolders if d != ".ipynb_checkpoints")
                found += [Path(folder) / n for n in names if _is_notebook_name(n)]
            for file in sorted(found):
                items.append(_read_item(file, file.relative_to(path).as_posix()))
        elif path.suffix.lower() == ".zip":
            items += _zip_items(path)
        elif path.exists() or path.is_symlink():
            items.append(_read_item(path, path.name))
        else:
            raise ValueError(f"submissions: '{_shown(path)}' is neither a notebook, a zip nor a folder")
    return items


def find_record(submissions) -> Path | None:
    """``key/assignment.json`` in a submissions folder or its parent (the folder ``assign`` wrote)."""
    items = [submissions] if isinstance(submissions, (str, Path)) else list(submissions)
    for item in items:
        path = Path(item)
        folder = path if path.is_dir() else path.parent
        for candidate in (folder / "key" / "assignment.json", folder.parent / "key" / "assignment.json"):
            if candidate.is_file():
                return candidate
    return None


def _read_submission(data: bytes) -> tuple[dict | None, str]:
    """The notebook's JSON and ``""``, or ``None`` and what is wrong with the file."""
    try:
        notebook = json.loads(data.decode("utf-8-sig"))  # a byte-order mark is how some editors save UTF-8
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)[:80]
        return None, f"is not a notebook (not JSON: {_shown(reason)})"
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        return None, "is not a notebook (no list of cells)"
    return notebook, ""


def _claim(notebook: dict) -> tuple[dict | None, str]:
    metadata = notebook.get("metadata")
    meta = metadata.get("ltr_teach") if isinstance(metadata, dict) else None
    if not isinstance(meta, dict):
        return None, "has no ltr_teach metadata (student id and seed): was it written by `ltr-teach assign`?"
    if not isinstance(meta.get("student"), str):
        return None, "has no student id in its metadata"
    if "seed" not in meta:
        return None, "has no seed in its metadata"
    return meta, ""


def _answer_cells(notebook: dict) -> dict[str, list[str]]:
    found = defaultdict(list)
    for cell in notebook["cells"]:
        if not isinstance(cell, dict) or not isinstance(cell.get("metadata"), dict):
            continue
        tags = cell["metadata"].get("tags")
        meta = cell["metadata"].get("ltr_teach")
        if not (isinstance(tags, list) and ANSWER_TAG in tags and isinstance(meta, dict)):
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(s, str) for s in source):
            source = "".join(source)
        if not isinstance(source, str):
            source = ""
        if isinstance(meta.get("exercise"), str):
            found[meta["exercise"]].append(source)
    return found


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


def _grade_answer(student, exercise_id: str, points: int, source: str, file: str, partial: dict) -> GradeRow:
    base = {"student": student.id, "name": student.name, "exercise": exercise_id, "max_points": points, "file": file}
    if len(source) > MAX_ANSWER_CELL:
        return GradeRow(**base, answer=_short(source), status="unreadable",
                        diagnosis=f"the answer cell holds {len(source)} characters; an answer has at most 200")
    answer = answer_from_cell(source)
    feedback = check(exercise_id, answer, seed=student.seed)
    diagnosis = feedback.diagnosis or (feedback.message if feedback.status in ("wrong", "too coarse", "unreadable")
                                       else "")
    slip = "+".join(feedback.mistakes)
    earned = points if feedback.correct else 0
    if feedback.status == "too coarse" and "too coarse" in partial:
        earned = _whole(points * Fraction(partial["too coarse"]))
    elif feedback.status == "wrong" and slip and "slip" in partial and exercises.get(exercise_id).kind == "compute":
        earned = _whole(points * Fraction(partial["slip"]))
    if feedback.status == "to mark":  # a written answer: the teacher reads all of it (overrides give the points)
        return GradeRow(**base, answer=_short(answer, MAX_ANSWER_CELL), status="to mark", points=0)
    return GradeRow(**base, answer=_short(answer), status=feedback.status, slip=slip,
                    diagnosis=diagnosis, hint=feedback.hint or "", points=earned)


def _whole(value: Fraction):
    return value.numerator if value.denominator == 1 else value


#: The default way to find a student id in an LMS file name: an id of the record standing alone
#: between separators (``li_lei_12345_67890_2026001.ipynb``, ``2026001-Copy1.ipynb``).
_SEPARATOR = re.compile(r"[^A-Za-z0-9]+")


def _ids_in_name(shown: str, ids, pattern) -> list[str]:
    """The record's student ids the file's name (and folders inside a zip or folder) names."""
    stem = shown.replace("\\", "/").rsplit("/", 1)[-1]
    stem = stem[: -len(".ipynb")] if stem.lower().endswith(".ipynb") else stem
    if pattern is not None:
        match = pattern.search(shown)
        if not match:
            return []
        found = match.group("id") if "id" in pattern.groupindex else match.group(1 if pattern.groups else 0)
        return [found] if found else []
    if stem in ids:
        return [stem]
    found = []
    for text in [stem] + shown.replace("\\", "/").split("/")[:-1][-2:]:  # the name, then its folder (Moodle)
        tokens = [t for t in _SEPARATOR.split(text) if t]
        seps = list(_SEPARATOR.finditer(text))
        # every run of whole tokens with the separators between them, as written
        starts = [0] + [m.end() for m in seps]
        ends = [m.start() for m in seps] + [len(text)]
        spans = [(a, b) for a, b in zip(starts, ends) if b > a]
        for i in range(len(spans)):
            for j in range(i, min(len(spans), i + 6)):
                piece = text[spans[i][0]:spans[j][1]]
                if piece in ids and piece not in found:
                    found.append(piece)
        if found or not tokens:
            break
    return found


def grade(submissions, roster, assignment=None, id_pattern=None, overrides=None) -> Gradebook:
    """Grade the returned notebooks of a class without running them.

    Each notebook is read as JSON; its metadata names the student, and the student's seed comes
    from the teacher's record (never from the notebook). A submission is not graded, and the
    problem is reported, when it is too large, not a regular file (a FIFO, a device, a link), not a
    notebook, without the metadata, renamed or copied (the file's name does not name the student id it
    holds), one of two for the same student, for a student not in the record, or tampered with (its
    seed or assignment differs from the record).

    A file's name names a student when it is the id (``2026001.ipynb``) or, as an LMS names downloads,
    holds the id between separators (``li_lei_12345_67890_2026001.ipynb``, ``2026001-Copy1.ipynb``);
    ``id_pattern`` (a regular expression whose group ``id``, or first group, is the id) replaces that rule.

    Parameters
    ----------
    submissions : str, Path or list of them
        A folder (searched recursively for ``*.ipynb``), notebook files, or a ``.zip`` as an LMS
        (Canvas, Moodle, Blackboard) downloads it (read in memory, never extracted).
    roster : str, Path or list of Student
        Who should have handed in (names; seeds must agree with the record).
    assignment : str or Path, optional
        The record ``key/assignment.json``; by default looked for in the submissions folder and its
        parent.
    id_pattern : str, optional
        The teacher's regular expression for the student id in a file's path.
    overrides : str or Path, optional
        A CSV ``student,exercise,points,note`` whose points replace the graded ones (see :func:`read_overrides`).

    Returns
    -------
    Gradebook
    """
    record_path = Path(assignment) if assignment else find_record(submissions)
    if record_path is None:
        raise ValueError("grade needs the assignment record (--assignment DIR/key/assignment.json, written by "
                         "`ltr-teach assign`): it holds the exercises, the points and every student's seed")
    record = read_record(record_path)
    pattern = None
    if id_pattern is not None:
        try:
            pattern = re.compile(id_pattern)
        except (re.error, RecursionError, OverflowError) as exc:
            raise ValueError(f"id_pattern = {_shown(_short(repr(id_pattern), 80))} is not a regular expression: "
                             f"{_shown(exc)}") from None
    partial = parse_partial(record.get("partial") or {})
    chosen = [(e["id"], int(e["points"])) for e in record["exercises"]]
    assigned = {s["id"]: Student(s["id"], s.get("name", ""), int(s["seed"])) for s in record["students"]}
    students = read_roster(roster, record.get("course", DEFAULT_COURSE)) if not isinstance(roster, list) else roster
    changes = read_overrides(overrides, {s.id for s in students}, dict(chosen)) if overrides else {}
    problems: list[tuple[str, str]] = []
    trouble_of: dict[str, list[str]] = defaultdict(list)

    def problem(who: str, text: str) -> None:
        problems.append((_shown(who), text))
        trouble_of[who].append(text)

    items = _collect(submissions)
    named = {id(item): _ids_in_name(item.shown, assigned, pattern) for item in items}
    handed: dict[str, list[_Item]] = defaultdict(list)  # who a file's name says handed it in
    for item in items:
        for who in named[id(item)]:
            handed[who].append(item)
    by_student: dict[str, list[tuple[_Item, dict]]] = defaultdict(list)
    with using_language(record.get("lang")):
        for item in items:
            shown = _shown(item.shown)
            who_named = named[id(item)]
            label = who_named[0] if len(who_named) == 1 else item.name
            if item.trouble:
                problem(label, f"{shown} {item.trouble}")
                continue
            notebook, trouble = _read_submission(item.data)
            if trouble:
                problem(label, f"{shown} {trouble}")
                continue
            meta, trouble = _claim(notebook)
            if trouble:
                problem(label, f"{shown} {trouble}")
                continue
            claimed = meta["student"]
            claimed_shown = _shown(_short(claimed, 64))
            if claimed not in who_named:
                others = [i for i in handed.get(claimed, []) if i is not item]
                if others:
                    problem(label, (f"{shown} holds the notebook of student {claimed_shown!r}, who handed in "
                                    f"{', '.join(_shown(i.shown) for i in others)} too: a copy; not graded "
                                    "(talk to both students before renaming anything)"))
                elif not who_named:
                    problem(label, (f"{shown}: its name holds no student id; it holds the notebook of student "
                                    f"{claimed_shown!r}; not graded (name it {claimed_shown}.ipynb if that is right, "
                                    "or give --id-pattern)"))
                else:
                    problem(label, (f"{shown} is renamed: it holds the notebook of student {claimed_shown!r}; not "
                                    f"graded (rename it back to {claimed_shown}.ipynb if that is right)"))
                continue
            if claimed not in assigned:
                problem(claimed, f"{shown}: student {claimed_shown!r} is not in the assignment record")
                continue
            if meta["seed"] != assigned[claimed].seed:
                problem(claimed, (f"{shown} is tampered with: its seed {_shown(_short(str(meta['seed']), 40))} is "
                                  f"not the seed {assigned[claimed].seed} the record gave {claimed}; not graded"))
                continue
            if meta.get("assignment") != record["assignment"]:
                problem(claimed, (f"{shown} belongs to another assignment "
                                  f"({_shown(_short(str(meta.get('assignment')), 60))!r}); not graded"))
                continue
            by_student[claimed].append((item, notebook))
        rows = []
        on_roster = {s.id for s in students}
        for claimed, handed_in in by_student.items():
            if claimed not in on_roster:
                problem(claimed, (f"{', '.join(_shown(i.shown) for i, _ in handed_in)}: {claimed} is in the "
                                  "assignment record but not on the roster; not graded"))
        for student in students:
            record_student = assigned.get(student.id)
            if record_student is None:
                problem(student.id, "is on the roster but not in the assignment record: assign them first")
                continue
            if student.seed_given and student.seed != record_student.seed:
                raise ValueError(f"roster: student {student.id!r} has seed {student.seed} but the assignment record "
                                 f"gave seed {record_student.seed}: use the roster and course the assignment was "
                                 "made with")
            student = Student(student.id, student.name or record_student.name, record_student.seed)
            handed_in = by_student.get(student.id, [])
            if len(handed_in) != 1:
                if handed_in:
                    problem(student.id, "several submissions (" + ", ".join(_shown(i.shown) for i, _ in handed_in)
                            + "): none graded")
                elif student.id not in trouble_of:
                    problem(student.id, "no submission")
                reported = "; ".join(trouble_of[student.id])
                student_rows = [GradeRow(student.id, student.name, i, p, problem=reported) for i, p in chosen]
            else:
                item, notebook = handed_in[0]
                cells = _answer_cells(notebook)
                student_rows = []
                for exercise_id, points in chosen:
                    sources = cells.get(exercise_id, [])
                    if not sources:
                        student_rows.append(GradeRow(student.id, student.name, exercise_id, points,
                                                     status="not answered", file=item.shown,
                                                     problem="the answer cell is missing"))
                    elif len(sources) > 1:
                        student_rows.append(GradeRow(student.id, student.name, exercise_id, points,
                                                     status="unreadable", file=item.shown,
                                                     problem=f"{len(sources)} answer cells for this exercise"))
                    else:
                        student_rows.append(_grade_answer(student, exercise_id, points, sources[0], item.shown,
                                                          partial))
            for row in student_rows:
                change = changes.get((row.student, row.exercise))
                rows.append(row if change is None else
                            GradeRow(**{**row.__dict__, "points": change[0], "override": change[1] or "override"}))
    return Gradebook(assignment=record["assignment"], exercises=chosen, rows=rows, problems=problems,
                     partial=partial, lang=record.get("lang"))


def read_overrides(path, students, points: dict) -> dict:
    """The teacher's overrides: a CSV ``student,exercise,points,note``, by (student, exercise).

    Applied on every regrade: the points replace the graded ones and the row is marked with the note.
    """
    text = _read_text(path, "overrides", MAX_ROSTER_BYTES)
    reader = csv.reader(io.StringIO(text))
    changes = {}
    try:
        for number, row in enumerate(reader, start=1):
            if not any(v.strip() for v in row):
                continue
            cells = [v.strip() for v in row] + ["", "", "", ""]
            if number == 1 and cells[0].lower() in ("student", "id", "student_id"):
                continue
            student, exercise_id, given, note = cells[:4]
            where = f"overrides = '{_shown(path)}' line {reader.line_num}"
            if student not in students:
                raise ValueError(f"{where}: student {_shown(_short(student, 64))!r} is not on the roster")
            if exercise_id not in points:
                raise ValueError(f"{where}: exercise {_shown(_short(exercise_id, 64))!r} is not in the assignment "
                                 f"({', '.join(points)})")
            if not re.fullmatch(r"[0-9]{1,4}(?:\.[0-9]{1,4})?(?:/[0-9]{1,4})?", given):
                raise ValueError(f"{where}: points = {_shown(_short(given, 40))!r} must be a number from 0 to "
                                 f"{points[exercise_id]}")
            try:
                value = Fraction(given)
            except ZeroDivisionError:
                raise ValueError(f"{where}: points = {given!r} divides by zero") from None
            if not 0 <= value <= points[exercise_id]:
                raise ValueError(f"{where}: points = {given} must be from 0 to {points[exercise_id]}, the "
                                 "exercise's points")
            changes[(student, exercise_id)] = (_whole(value), _short(note, 200))
    except csv.Error as exc:
        raise ValueError(f"overrides = '{_shown(path)}' line {reader.line_num} is not CSV: {exc}") from None
    return changes


# -- the report ---------------------------------------------------------------------------------------------

def _png(figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _plots(book: Gradebook) -> list[tuple[str, str]]:
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    ids = [i for i, _ in book.exercises]
    plots = []
    figure = Figure(figsize=(7, 0.45 * len(ids) + 1.2))
    axes = figure.subplots()
    shares = [100 * book.share_right(i) for i in ids]
    axes.barh(ids[::-1], shares[::-1], color=COLORS["bar"])
    axes.set_xlim(0, 100)
    axes.set_xlabel("students right (%)")
    axes.set_title("Share right per exercise")
    plots.append(("Share right per exercise", _png(figure)))
    figure = Figure(figsize=(7, 0.45 * len(ids) + 1.4))
    axes = figure.subplots()
    # the palette of every plot, and a hatch per status: right and wrong differ in more than colour
    styles = {"right": (PALETTE["blue"], ""), "wrong": (PALETTE["vermillion"], "\\\\"),
              "too coarse": (PALETTE["orange"], ".."), "unreadable": (PALETTE["reddish_purple"], "xx"),
              "not answered": (PALETTE["grey"], "//"), "not graded": (PALETTE["black"], ""),
              "to mark": (PALETTE["sky_blue"], "--")}
    left = [0] * len(ids)
    for status in STATUSES:
        counts = [sum(r.status == status for r in book.rows if r.exercise == i) for i in ids]
        colour, hatch = styles[status]
        axes.barh(ids[::-1], counts[::-1], left=left[::-1], color=colour, hatch=hatch, edgecolor="white",
                  label=status)
        left = [a + b for a, b in zip(left, counts)]
    axes.set_xlabel("students")
    axes.set_title("Answers per exercise")
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    plots.append(("Answers per exercise", _png(figure)))
    return plots


_STYLE = """
body{font-family:system-ui,"Noto Sans CJK SC",sans-serif;margin:2em;max-width:72em;color:#222}
table{border-collapse:collapse;margin:0.5em 0 1.5em}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;
vertical-align:top}th{background:#f3f3f3}td.n{text-align:right}code{background:#f6f6f6;padding:0 3px}
.bar{display:inline-block;height:0.8em;background:#2e7d32}.problem{color:#b71c1c}img{max-width:100%}
"""


def _report(book: Gradebook) -> str:
    esc = html.escape
    students = sorted({r.student for r in book.rows})
    graded = {r.student for r in book.rows if r.status != "not graded"}
    out = ["<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
           f"<title>Class report: {esc(book.assignment)}</title><style>{_STYLE}</style></head><body>",
           f"<h1>Class report: {esc(book.assignment)}</h1>",
           (f"<p>{len(students)} students on the roster, {len(graded)} graded, {len(book.problems)} "
            f"submission problem{'s' if len(book.problems) != 1 else ''}. Every answer was rechecked from the "
            "student's seed in the assignment record; no notebook was run.</p>")]
    out.append("<h2>Per exercise</h2><table id='summary'><tr><th>exercise</th><th>points</th><th>right</th>"
               "<th>share right</th><th>wrong</th><th>too coarse</th><th>unreadable</th><th>not answered</th>"
               "<th>not graded</th><th>to mark</th></tr>")
    for exercise_id, points in book.exercises:
        rows = [r for r in book.rows if r.exercise == exercise_id]
        count = Counter(r.status for r in rows)
        share = book.share_right(exercise_id)
        out.append(f"<tr data-exercise='{esc(exercise_id)}'><td><code>{esc(exercise_id)}</code></td>"
                   f"<td class='n'>{points}</td><td class='n'>{count['right']}</td>"
                   f"<td>{share:.0%} <span class='bar' style='width:{share * 6:.2f}em'></span></td>"
                   + "".join(f"<td class='n'>{count[s]}</td>" for s in STATUSES[1:]) + "</tr>")
    out.append("</table>")
    for title, image in _plots(book):
        out.append(f"<figure><img alt='{esc(title)}' src='{image}'><figcaption>{esc(title)}</figcaption></figure>")
    out.append("<h2>The most common slips</h2>")
    for exercise_id, _points in book.exercises:
        rows = [r for r in book.rows if r.exercise == exercise_id and r.slip]
        if not rows:
            continue
        out.append(f"<h3><code>{esc(exercise_id)}</code></h3><table class='slips' data-exercise='{esc(exercise_id)}'>"
                   "<tr><th>slip</th><th>students</th><th>what it is</th><th>an example</th></tr>")
        for slip, n in book.slip_counts(exercise_id).most_common():
            example = next(r for r in rows if r.slip == slip)
            out.append(f"<tr data-slip='{esc(slip)}'><td><code>{esc(slip)}</code></td><td class='n'>{n}</td>"
                       f"<td>{esc(example.diagnosis)}</td><td>{esc(example.student)} wrote "
                       f"<code>{esc(example.answer)}</code></td></tr>")
        out.append("</table>")
    out.append("<h2>Who needs which hint</h2><table id='hints'><tr><th>exercise</th><th>students</th>"
               "<th>tell them</th><th>what they wrote (up to 3)</th></tr>")
    for exercise_id, _points in book.exercises:
        groups = defaultdict(list)
        for r in book.rows:
            if r.exercise == exercise_id and r.status in ("wrong", "too coarse", "unreadable"):
                groups[r.diagnosis if r.slip else (r.hint or r.diagnosis)].append(r)
        for advice, rows in sorted(groups.items(), key=lambda item: -len(item[1])):
            answers = list(dict.fromkeys(r.answer for r in rows))[:3]
            shown = " ".join(f"<code>{esc(_short(a, 80))}</code>" for a in answers)
            who = ", ".join(f"{r.student} ({r.name})" if r.name else r.student for r in rows)
            out.append(f"<tr><td><code>{esc(exercise_id)}</code></td><td>{esc(who)}</td>"
                       f"<td>{esc(advice)}</td><td>{shown}</td></tr>")
    out.append("</table>")
    to_mark = [(i, exercises.get(i)) for i, _points in book.exercises
               if any(r.exercise == i and r.status == "to mark" for r in book.rows)]
    if to_mark:
        out.append("<h2>To mark by hand</h2><p id='to-mark-note'>Written answers are never graded by the checker: "
                   "read each against the model answer and give the points in an overrides file "
                   "(<code>student,exercise,points,note</code>; <code>ltr-teach grade --overrides</code>).</p>")
        with using_language(book.lang):
            for exercise_id, ex in to_mark:
                model = ex.model if hasattr(ex, "model") else ""
                out.append(f"<h3><code>{esc(exercise_id)}</code> · {esc(ex.title)}</h3>"
                           f"<p><b>Question:</b> {esc(ex.prompt)}</p>"
                           f"<p class='model'><b>Model answer:</b> {esc(model)}</p>"
                           f"<table class='to-mark' data-exercise='{esc(exercise_id)}'><tr><th>student</th>"
                           "<th>answer</th></tr>")
                out += [f"<tr data-student='{esc(r.student)}'><td>{esc(r.student)}</td><td>{esc(r.answer)}</td></tr>"
                        for r in book.rows if r.exercise == exercise_id and r.status == "to mark"]
                out.append("</table>")
    out.append("<h2>Points per student</h2>")
    if book.partial:
        rule = ", ".join(f"{kind}: {Fraction(share)} of the points" for kind, share in book.partial.items())
        out.append(f"<p id='partial'>Partial credit, as the assignment states: {esc(rule)} "
                   "(a slip is a wrong number whose mistake the checker names; a wrong option gets nothing).</p>")
    out.append("<table id='totals'><tr><th>student</th><th>name</th><th>points</th><th>of</th><th>overridden</th></tr>")
    overridden = book.override_notes()
    for student, name, points, most in book.totals():
        notes = overridden.get(student, [])
        out.append(f"<tr data-student='{esc(student)}'><td>{esc(student)}</td><td>{esc(name)}</td>"
                   f"<td class='n'>{points_text(points)}</td><td class='n'>{most}</td>"
                   f"<td>{esc('; '.join(notes))}</td></tr>")
    out.append("</table>")
    out.append("<h2>Submission problems</h2>")
    if book.problems:
        out.append("<table id='problems'><tr><th>student or file</th><th>problem</th></tr>")
        out += [f"<tr class='problem'><td>{esc(who)}</td><td>{esc(text)}</td></tr>" for who, text in book.problems]
        out.append("</table>")
    else:
        out.append("<p>None: every student handed in one readable notebook.</p>")
    out.append("</body></html>")
    return "\n".join(out)


_VERDICTS = {"right": N_("right"), "wrong": N_("wrong"), "too coarse": N_("too coarse"),
             "unreadable": N_("unreadable"), "not answered": N_("not answered"), "not graded": N_("not graded"),
             "to mark": N_("marked by your teacher")}


def _feedback_page(book: Gradebook, rows: list, first_hints: dict) -> str:
    """One student's feedback: only their rows; no key; no script; every text escaped."""
    esc = html.escape
    first = rows[0]
    total = sum(Fraction(r.points) for r in rows)
    most = sum(r.max_points for r in rows)
    title = _("Feedback: {assignment}").format(assignment=book.assignment)
    who = f"{first.student} ({first.name})" if first.name else first.student
    out = ["<!DOCTYPE html>", f"<html lang='{'zh-CN' if book.lang == 'zh' else 'en'}'><head><meta charset='utf-8'>",
           "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'\">",
           f"<title>{esc(title)}</title><style>{_STYLE}</style></head><body>",
           f"<h1>{esc(title)}</h1>",
           f"<p id='student'>{esc(_('Student: {who}').format(who=who))}</p>",
           "<p id='total'>" + esc(_("Points: {points} of {most}").format(points=points_text(_whole(total)), most=most))
           + "</p>"]
    if first.status == "not graded":  # the reason may name another student's file: not shown here
        reason = (_("no notebook of yours was found among the submissions") if first.problem == "no submission"
                  else _("your notebook could not be graded as handed in; your teacher will tell you why"))
        out.append(f"<p class='problem'>{esc(reason)}</p>")
    out.append(f"<table id='answers'><tr><th>{esc(_('question'))}</th><th>{esc(_('your answer'))}</th>"
               f"<th>{esc(_('verdict'))}</th><th>{esc(_('points'))}</th><th>{esc(_('what went wrong'))}</th>"
               f"<th>{esc(_('a first hint'))}</th></tr>")
    for number, row in enumerate(rows, start=1):
        try:
            ex = exercises.get(row.exercise)
            question = f"{number}. {ex.title}"
        except (KeyError, ValueError):
            question = f"{number}. {row.exercise}"
        shown = row.status in ("wrong", "too coarse", "unreadable")
        points = f"{points_text(row.points)} / {row.max_points}"
        if row.override:
            points += " · " + _("changed by your teacher: {note}").format(note=row.override)
        out.append(f"<tr data-exercise='{esc(row.exercise)}'><td>{esc(question)} <code>{esc(row.exercise)}</code></td>"
                   f"<td><code>{esc(_short(row.answer, 200))}</code></td><td>{esc(_(_VERDICTS[row.status]))}</td>"
                   f"<td>{esc(points)}</td><td>{esc(_(row.diagnosis) if shown else '')}</td>"
                   f"<td>{esc(first_hints.get(row.exercise, '') if row.status != 'right' else '')}</td></tr>")
    out.append("</table></body></html>")
    return "\n".join(out)


__all__ = [
    "TUTORIAL_FOLDERS", "START_PAGE", "START_PAGES", "start_page", "LANGUAGES", "MANIFEST", "tutorial_source",
    "tutorial_files", "copy_tutorial", "lab_settings", "LAB_LOCALES",
    "TutorialCopy", "Student", "student_seed", "read_roster", "parse_exercise_list", "student_notebook", "assign",
    "Assignment", "read_record", "answer_from_cell", "GradeRow", "Gradebook", "grade", "find_record",
    "STATUSES", "CSV_COLUMNS", "read_bytes_at_most", "NotARegularFile", "points_text", "parse_partial",
    "read_overrides", "EXPORTS", "PARTIAL_KINDS",
]
