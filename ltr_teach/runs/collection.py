"""A test collection to rank and evaluate: documents, queries and judgments; tokens, an index, two rankers.

The tokens, the sparse index and the rankers live in :mod:`ltr_teach.runs.ranking`; this module loads the
collections and shows both as ``lt.collection``. Notebook 17 builds two rankers on a real test collection, writes their run files and evaluates them.
:func:`load` reads one of three sources:

- ``"sample"``: the small collection the project wrote (63 documents on skin care, 14 queries, 78 graded
  judgments 0..3; ``runs/data/README.md``, MIT like the project). It ships in the package, so everything
  runs offline.
- ``"cranfield"``: the Cranfield collection (1,400 aeronautics abstracts, 225 queries, 1,837 judgments)
  through the optional ``ir_datasets`` package, which downloads it once. It is not shipped: its
  distributors state no licence that permits redistribution.
- the path of a folder with the University of Glasgow's files ``cran.all.1400``, ``cran.qry`` and
  ``cranqrel`` (http://ir.dcs.gla.ac.uk/resources/test_collections/cran/).

Two facts of the Glasgow files the loader takes care of: the query file numbers its queries 1, 2, 4, 8 ...
up to 365, while the judgments number them 1 to 225 in order, so a query is numbered by its position; and
the judgments' codes are 1 (a complete answer) to 4 (of minimum interest) with -1 for no interest, so the
grade is ``5 - code`` (4 = best) and -1 becomes 0.

>>> c = load("sample")
>>> len(c.docs), len(c.queries), sum(len(j) for j in c.qrels.values())
(63, 14, 78)
>>> tokens("Vitamin C serum, for dark spots!")
['vitamin', 'c', 'serum', 'dark', 'spots']
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ..core.files import NotARegularFile, read_bytes_at_most
from ..core.i18n import _
from .ranking import (
    MAX_DENSE_CELLS,
    MAX_K1,
    STOPWORDS,
    Index,
    TermCounts,
    bm25_scores,
    build_index,
    overlap_scores,
    tfidf_scores,
    to_run,
    tokens,
)

#: The largest file the loader reads (Cranfield's documents are 1.6 MB); a larger one is refused.
MAX_FILE_BYTES = 32 * 2**20

DATA = Path(__file__).parent / "data"

#: The Glasgow file names: documents, queries, judgments.
GLASGOW_FILES = ("cran.all.1400", "cran.qry", "cranqrel")

#: A record's number: ASCII digits only (str.isdigit also takes "²" and Arabic-Indic digits).
_RECORD_NUMBER = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class Collection:
    """Documents ``{docid: text}``, queries ``{qid: text}`` and judgments ``{qid: {docid: grade}}``."""

    name: str
    docs: dict
    queries: dict
    qrels: dict
    source: str

    def __str__(self) -> str:
        judged = sum(len(j) for j in self.qrels.values())
        relevant = sum(g > 0 for j in self.qrels.values() for g in j.values())
        return _("{name}: {docs} documents, {queries} queries, {judged} judgments ({relevant} relevant)\n"
                 "source: {source}").format(name=self.name, docs=len(self.docs), queries=len(self.queries),
                                            judged=judged, relevant=relevant, source=self.source)


def _path(path) -> str:
    """A path as a message shows it: its repr, the middle of a very long one left out (its end names the file)."""
    name = os.fspath(path)
    if len(name) <= 200:
        return repr(name)
    return f"{name[:60]!r}...{name[-120:]!r} ({len(name):,} characters)"


def _read_text(path, what: str) -> str:
    """The text of a regular file of at most :data:`MAX_FILE_BYTES`, a leading BOM dropped.

    Read through the library's one bounded reader (``core.files``): a FIFO or a device is never read
    (``/dev/zero`` would never end, a FIFO may wait for ever).
    """
    name = _path(path)
    try:
        try:
            size = os.stat(path).st_size  # a file over the limit is refused before a byte of it is read
        except ValueError as exc:  # a NUL in the path
            raise ValueError(f"{what} = {name} cannot be read: {exc}") from None
        if size > MAX_FILE_BYTES:
            raise ValueError(f"{what} = {name} has {size:,} bytes; at most {MAX_FILE_BYTES:,} are allowed")
        data = read_bytes_at_most(path, MAX_FILE_BYTES)  # bounded even if the file grew after the stat
    except NotARegularFile:
        raise ValueError(f"{what} = {name} is not a regular file (a directory, FIFO or device); "
                         f"give the path of a text file") from None
    except OSError as exc:
        raise ValueError(f"{what} = {name} cannot be read: {exc.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"{what} = {name} has more than {MAX_FILE_BYTES:,} bytes")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ValueError(f"{what} = {name} is not UTF-8 text (line {line})") from None


def read_records(path, what: str = "documents") -> dict:
    """``{number: text}`` from a file in the Glasgow layout: ``.I number`` starts a record, ``.W`` its text.

    The other fields (``.T`` title, ``.A`` author, ``.B`` bibliography) are skipped; Cranfield's ``.W``
    repeats the title. The numbers keep no leading zeros (``.I 001`` is ``"1"``).
    """
    records: dict = {}
    current, field = None, None
    for n, line in enumerate(_read_text(path, what).splitlines(), start=1):
        if line.startswith(".I"):
            if not _RECORD_NUMBER.fullmatch(line[2:].strip()):
                raise ValueError(f"{what} = {_path(path)}, line {n}: .I must be followed by a number "
                                 f"(digits 0 to 9); got {line[:40]!r}")
            number = line[2:].strip().lstrip("0") or "0"
            if number in records:
                raise ValueError(f"{what} = {_path(path)}, line {n}: record {number} appears twice")
            current, field = number, None
            records[current] = []
        elif line[:2] in (".T", ".A", ".B", ".W") and line[2:].strip() == "":
            field = line[:2]
        elif current is None:
            if line.strip():
                raise ValueError(f"{what} = {_path(path)}, line {n}: text before the first .I line")
        elif field == ".W":
            records[current].append(line.strip())
    if not records:
        raise ValueError(f"{what} = {_path(path)} holds no .I record")
    return {number: " ".join(lines) for number, lines in records.items()}


def _grade(code: str, where: str) -> int:
    """A Glasgow relevance code as a grade, larger = better: 1..4 -> 4..1, -1 (no interest) -> 0."""
    if code not in ("1", "2", "3", "4", "-1"):
        raise ValueError(f"{where}: a relevance code must be 1, 2, 3, 4 or -1; got {code[:20]!r}")
    return 0 if code == "-1" else 5 - int(code)


def _glasgow_qrels(path) -> dict:
    qrels: dict = {}
    for n, line in enumerate(_read_text(path, "qrels").splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        where = f"qrels = {_path(path)}, line {n}"
        if len(fields) != 3:
            raise ValueError(f"{where}: expected 3 columns (query, document, code); got {len(fields)}")
        qid, docid, code = fields
        _judge(qrels, qid, docid, _grade(code, where), where)
    return qrels


def _judge(qrels: dict, qid: str, docid: str, grade: int, where: str) -> None:
    """Record a judgment; the same document judged again with another grade is refused, not overwritten."""
    judged = qrels.setdefault(qid, {})
    if judged.get(docid, grade) != grade:
        raise ValueError(f"{where}: query {qid!r} judges document {docid!r} twice, grades {judged[docid]} and "
                         f"{grade}; a document has one judgment per query")
    judged[docid] = grade


def _by_position(queries: dict) -> dict:
    """Number the queries 1, 2, 3 ... in file order, as the judgments do."""
    return {str(i): text for i, text in enumerate(queries.values(), start=1)}


def _folder(folder) -> Collection:
    path = Path(folder)
    try:
        is_folder = path.is_dir()
    except (OSError, ValueError) as exc:  # a name too long for the system, a NUL in it
        raise ValueError(f"source = {_path(folder)} cannot be a folder: {getattr(exc, 'strerror', None) or exc}; "
                         f"give 'sample', 'cranfield' or a folder's path") from None
    if not is_folder:
        raise ValueError(f"source = {_path(folder)} is neither 'sample', 'cranfield' nor a folder; a folder "
                         f"must hold {', '.join(GLASGOW_FILES)}")
    missing = [f for f in GLASGOW_FILES if not (path / f).exists()]
    if missing:
        raise ValueError(f"source = {_path(folder)} lacks {', '.join(missing)}; a folder must hold "
                         f"{', '.join(GLASGOW_FILES)}")
    docs = read_records(path / GLASGOW_FILES[0], "documents")
    queries = _by_position(read_records(path / GLASGOW_FILES[1], "queries"))
    return Collection("Cranfield", docs, queries, _glasgow_qrels(path / GLASGOW_FILES[2]),
                      _("the Glasgow files in {folder}").format(folder=os.fspath(folder)))


def _sample() -> Collection:
    from .trec import read_qrels

    for name in ("skincare.all", "skincare.qry", "skincare.qrels"):
        _read_text(DATA / name, "sample")
    qrels = {q: {d: int(g) for d, g in judged.items()} for q, judged in read_qrels(DATA / "skincare.qrels").items()}
    return Collection(_("sample (skin care)"), read_records(DATA / "skincare.all", "documents"),
                      read_records(DATA / "skincare.qry", "queries"), qrels,
                      _("written for ltr_teach, MIT licence (ltr_teach/runs/data/README.md)"))


def _ir_datasets() -> Collection:
    try:
        import ir_datasets
    except ImportError:
        raise ImportError(_("source = 'cranfield' needs the ir_datasets package (pip install ir_datasets, then it "
                            "downloads a 0.5 MB archive once, 1.6 MB unpacked), or give the folder of the Glasgow files cran.all.1400, cran.qry "
                            "and cranqrel; load('sample') works offline")) from None
    dataset = ir_datasets.load("cranfield")
    docs = {d.doc_id: d.text for d in dataset.docs_iter()}
    queries = _by_position({q.query_id: q.text for q in dataset.queries_iter()})
    qrels: dict = {}
    for j in dataset.qrels_iter():  # ir_datasets passes the Glasgow codes through
        _judge(qrels, j.query_id, j.doc_id, _grade(str(j.relevance), "ir_datasets cranfield qrels"),
               "ir_datasets cranfield qrels")
    return Collection("Cranfield", docs, queries, qrels,
                      _("ir_datasets 'cranfield' (University of Glasgow IR group); not shipped with ltr_teach"))


def load(source="sample") -> Collection:
    """Load a test collection: ``"sample"``, ``"clinical-trials"``, ``"cranfield"`` (needs ``ir_datasets``) or a folder.

    Parameters
    ----------
    source : str or path
        ``"sample"`` (shipped, offline), ``"clinical-trials"`` (shipped: real patients, trials and doctors'
        judgments, CC BY-NC 4.0; :mod:`ltr_teach.runs.clinical_trials`), ``"cranfield"`` (through ``ir_datasets``,
        downloaded once), or the path of a folder holding ``cran.all.1400``, ``cran.qry`` and ``cranqrel``.

    Returns
    -------
    Collection

    Examples
    --------
    >>> c = load()
    >>> c.queries["1"], c.qrels["1"]["1"], c.docs["1"][:32]
    ('sunscreen for oily skin', 3, 'A lightweight gel sunscreen with')
    """
    if isinstance(source, str) and source == "sample":
        return _sample()
    if isinstance(source, str) and source == "clinical-trials":
        from .clinical_trials import read_clinical_trials  # the real collection, CC BY-NC 4.0: its own module

        return Collection(**read_clinical_trials())
    if isinstance(source, str) and source.lower() == "cranfield":
        return _ir_datasets()
    if not isinstance(source, (str, os.PathLike)):
        raise ValueError(f"source must be 'sample', 'clinical-trials', 'cranfield' or a folder's path; got "
                         f"{type(source).__name__}")
    return _folder(source)


def ltr_teach_command(*args: str, cwd=None, timeout: float = 120) -> str:
    """Run ``ltr-teach ARGS`` in a new process (the course's command line) and return what it printed.

    Notebooks call it instead of ``!ltr-teach ...``, which needs the command on the shell's path. The
    command runs in ``cwd`` (so file names can be short) and speaks the kernel's language.

    The child writes UTF-8 whatever its system's default: Python writes to a pipe in the locale's encoding
    (on Windows the ANSI code page, cp936 or cp1252), which would not decode as UTF-8 at its first "≈" or
    Chinese character, and a code page such as cp1252 cannot write Chinese at all. Bytes that still are not
    UTF-8 (from something other than Python) show as "\ufffd" rather than stopping the notebook.
    """
    from ..core.i18n import get_language

    command = [sys.executable, "-m", "ltr_teach.cli", *map(str, args)]
    env = dict(os.environ, LTR_TEACH_LANG=get_language(), PYTHONIOENCODING="utf-8")
    shown = "$ ltr-teach " + " ".join(map(str, args)) + "\n"
    try:
        done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", errors="replace",
                              timeout=timeout, check=False, cwd=cwd, env=env)
    except OSError:  # JupyterLite (Pyodide) cannot start a process
        return shown + _("(this Python cannot start a process, as in the browser edition: type the command in a "
                         "terminal, or use lt.evaluate, which prints the same numbers)")
    return (shown + done.stdout + done.stderr).rstrip()


__all__ = ["Collection", "Index", "TermCounts", "load", "read_records", "tokens", "build_index", "tfidf_scores",
           "overlap_scores", "bm25_scores", "to_run", "ltr_teach_command", "STOPWORDS", "MAX_FILE_BYTES", "MAX_DENSE_CELLS", "MAX_K1",
           "GLASGOW_FILES"]
