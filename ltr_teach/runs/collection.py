"""A test collection to rank and evaluate: documents, queries and judgments; tokens, an index, two rankers.

Notebook 17 builds two rankers on a real test collection, writes their run files and evaluates them.
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

import numpy as np

from ..core.files import NotARegularFile, read_bytes_at_most
from ..core.i18n import _

#: The largest file the loader reads (Cranfield's documents are 1.6 MB); a larger one is refused.
MAX_FILE_BYTES = 32 * 2**20

DATA = Path(__file__).parent / "data"

#: The Glasgow file names: documents, queries, judgments.
GLASGOW_FILES = ("cran.all.1400", "cran.qry", "cranqrel")

#: Words too common to say what a text is about; the tokeniser drops them (no stemming).
STOPWORDS = frozenset("""a an and are as at be been but by can do does for from has have how i if in into is it its
of on or so such that the their then there these they this to was were what when which while who why will with
you your""".split())

_TOKEN = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> list[str]:
    """The words of ``text``: lower case, runs of letters and digits, without :data:`STOPWORDS`.

    >>> tokens("What similarity laws must be obeyed?")
    ['similarity', 'laws', 'must', 'obeyed']
    """
    if not isinstance(text, str):
        raise ValueError(f"text must be a str; got {type(text).__name__}")
    return [t for t in _TOKEN.findall(text.lower()) if t not in STOPWORDS]


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


def _read_text(path, what: str) -> str:
    """The text of a regular file of at most :data:`MAX_FILE_BYTES`, a leading BOM dropped.

    Read through the library's one bounded reader (``core.files``): a FIFO or a device is never read
    (``/dev/zero`` would never end, a FIFO may wait for ever).
    """
    name = os.fspath(path)
    try:
        size = os.stat(path).st_size  # a file over the limit is refused before a byte of it is read
        if size > MAX_FILE_BYTES:
            raise ValueError(f"{what} = {name!r} has {size:,} bytes; at most {MAX_FILE_BYTES:,} are allowed")
        data = read_bytes_at_most(path, MAX_FILE_BYTES)  # bounded even if the file grew after the stat
    except NotARegularFile:
        raise ValueError(f"{what} = {name!r} is not a regular file (a directory, FIFO or device); "
                         f"give the path of a text file") from None
    except OSError as exc:
        raise ValueError(f"{what} = {name!r} cannot be read: {exc.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"{what} = {name!r} has more than {MAX_FILE_BYTES:,} bytes")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ValueError(f"{what} = {name!r} is not UTF-8 text (line {line})") from None


def read_records(path, what: str = "documents") -> dict:
    """``{number: text}`` from a file in the Glasgow layout: ``.I number`` starts a record, ``.W`` its text.

    The other fields (``.T`` title, ``.A`` author, ``.B`` bibliography) are skipped; Cranfield's ``.W``
    repeats the title. The numbers keep no leading zeros (``.I 001`` is ``"1"``).
    """
    records: dict = {}
    current, field = None, None
    for n, line in enumerate(_read_text(path, what).splitlines(), start=1):
        if line.startswith(".I"):
            number = line[2:].strip().lstrip("0") or "0"
            if not number.isdigit():
                raise ValueError(f"{what} = {os.fspath(path)!r}, line {n}: .I must be followed by a number; "
                                 f"got {line[:40]!r}")
            if number in records:
                raise ValueError(f"{what} = {os.fspath(path)!r}, line {n}: record {number} appears twice")
            current, field = number, None
            records[current] = []
        elif line[:2] in (".T", ".A", ".B", ".W") and line[2:].strip() == "":
            field = line[:2]
        elif current is None:
            if line.strip():
                raise ValueError(f"{what} = {os.fspath(path)!r}, line {n}: text before the first .I line")
        elif field == ".W":
            records[current].append(line.strip())
    if not records:
        raise ValueError(f"{what} = {os.fspath(path)!r} holds no .I record")
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
        where = f"qrels = {os.fspath(path)!r}, line {n}"
        if len(fields) != 3:
            raise ValueError(f"{where}: expected 3 columns (query, document, code); got {len(fields)}")
        qid, docid, code = fields
        qrels.setdefault(qid, {})[docid] = _grade(code, where)
    return qrels


def _by_position(queries: dict) -> dict:
    """Number the queries 1, 2, 3 ... in file order, as the judgments do."""
    return {str(i): text for i, text in enumerate(queries.values(), start=1)}


def _folder(folder) -> Collection:
    path = Path(folder)
    if not path.is_dir():
        raise ValueError(f"source = {os.fspath(folder)!r} is neither 'sample', 'clinical-trials', 'cranfield' nor a "
                         f"folder; a folder "
                         f"must hold {', '.join(GLASGOW_FILES)}")
    missing = [f for f in GLASGOW_FILES if not (path / f).exists()]
    if missing:
        raise ValueError(f"source = {os.fspath(folder)!r} lacks {', '.join(missing)}; a folder must hold "
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
                            "downloads 1.6 MB once), or give the folder of the Glasgow files cran.all.1400, cran.qry "
                            "and cranqrel; load('sample') works offline")) from None
    dataset = ir_datasets.load("cranfield")
    docs = {d.doc_id: d.text for d in dataset.docs_iter()}
    queries = _by_position({q.query_id: q.text for q in dataset.queries_iter()})
    qrels: dict = {}
    for j in dataset.qrels_iter():  # ir_datasets passes the Glasgow codes through
        qrels.setdefault(j.query_id, {})[j.doc_id] = _grade(str(j.relevance), "ir_datasets cranfield qrels")
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
        from .clinical_trials import load_clinical_trials  # the real collection, CC BY-NC 4.0: its own module

        return load_clinical_trials()
    if isinstance(source, str) and source.lower() == "cranfield":
        return _ir_datasets()
    if not isinstance(source, (str, os.PathLike)):
        raise ValueError(f"source must be 'sample', 'clinical-trials', 'cranfield' or a folder's path; got "
                         f"{type(source).__name__}")
    return _folder(source)


@dataclass(frozen=True)
class Index:
    """A term-document count matrix: ``counts[i, j]`` is how often term ``terms[j]`` occurs in ``doc_ids[i]``."""

    doc_ids: list
    terms: list
    counts: np.ndarray

    def vectors(self, texts) -> np.ndarray:
        """Each text's term counts over the index's terms (a words × terms matrix); unknown words are dropped.

        >>> ix = build_index({"d1": "red lipstick", "d2": "red red sunscreen"})
        >>> ix.terms, ix.vectors(["red lipstick red", "blue"]).tolist()
        (['lipstick', 'red', 'sunscreen'], [[1.0, 2.0, 0.0], [0.0, 0.0, 0.0]])
        """
        column = {t: j for j, t in enumerate(self.terms)}
        out = np.zeros((len(texts), len(self.terms)))
        for i, text in enumerate(texts):
            for t in tokens(text):
                if t in column:
                    out[i, column[t]] += 1
        return out


def build_index(docs: dict) -> Index:
    """The :class:`Index` of ``{docid: text}``: terms sorted, documents in the dict's order.

    >>> ix = build_index({"d1": "red lipstick", "d2": "red red sunscreen"})
    >>> ix.counts.tolist()
    [[1.0, 1.0, 0.0], [0.0, 2.0, 1.0]]
    """
    if not isinstance(docs, dict) or not docs:
        raise ValueError("docs must be a non-empty dict {docid: text}")
    words = [tokens(text) for text in docs.values()]
    terms = sorted({t for w in words for t in w})
    column = {t: j for j, t in enumerate(terms)}
    counts = np.zeros((len(docs), len(terms)))
    for i, w in enumerate(words):
        np.add.at(counts[i], [column[t] for t in w], 1)
    return Index(list(docs), terms, counts)


def tfidf_scores(index: Index, queries: np.ndarray) -> np.ndarray:
    """Cosine of TF-IDF vectors: queries × documents.

    A term's weight in a text is its count times ``idf = ln(N / df)`` (``N`` documents, ``df`` of them
    holding the term); the score is the cosine of the query's and the document's weight vectors, 0 when
    either is all zero.
    """
    n = index.counts.shape[0]
    idf = np.log(n / (index.counts > 0).sum(axis=0))
    d = index.counts * idf
    q = np.asarray(queries, dtype=float) * idf
    d_norm = np.linalg.norm(d, axis=1)
    q_norm = np.linalg.norm(q, axis=1)
    d = np.divide(d, d_norm[:, None], out=np.zeros_like(d), where=d_norm[:, None] > 0)
    q = np.divide(q, q_norm[:, None], out=np.zeros_like(q), where=q_norm[:, None] > 0)
    return q @ d.T


def bm25_scores(index: Index, queries: np.ndarray, k1: float = 1.2, b: float = 0.75) -> np.ndarray:
    """Okapi BM25: queries × documents.

    ``score(q, d) = sum over the query's words t of idf(t) * tf (k1 + 1) / (tf + k1 (1 - b + b dl / avgdl))``
    with ``tf`` the count of ``t`` in ``d``, ``dl`` the document's length in words, ``avgdl`` the mean
    length, and ``idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))`` (never negative). A word the query repeats
    counts again. ``k1 = 0`` gives the binary model (each query word present adds its idf); ``b = 0`` ignores
    the length.
    """
    if not (k1 >= 0 and 0 <= b <= 1):
        raise ValueError(f"k1 = {k1!r}, b = {b!r}: k1 must be at least 0 and b between 0 and 1")
    tf = index.counts
    n = tf.shape[0]
    df = (tf > 0).sum(axis=0)
    idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
    dl = tf.sum(axis=1)
    norm = k1 * (1 - b + b * dl / dl.mean())
    # where tf = 0 the weight is 0 (with k1 = 0 the fraction would be 0/0)
    weights = np.divide(tf * (k1 + 1), tf + norm[:, None], out=np.zeros_like(tf), where=tf > 0) * idf
    return np.asarray(queries, dtype=float) @ weights.T


def to_run(scores: np.ndarray, query_ids, doc_ids, depth: int = 100) -> dict:
    """``{qid: {docid: score}}``: each query's ``depth`` best documents with a score above 0.

    >>> to_run(np.array([[0.5, 0.0, 2.0]]), ["q1"], ["a", "b", "c"])
    {'q1': {'c': 2.0, 'a': 0.5}}
    """
    scores = np.asarray(scores, dtype=float)
    if scores.shape != (len(query_ids), len(doc_ids)):
        raise ValueError(f"scores has shape {scores.shape}; expected (queries, documents) = "
                         f"({len(query_ids)}, {len(doc_ids)})")
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"depth = {depth!r}; it must be a whole number, at least 1")
    run = {}
    for qid, row in zip(query_ids, scores):
        order = np.argsort(-row, kind="stable")[:depth]
        run[str(qid)] = {str(doc_ids[j]): float(row[j]) for j in order if row[j] > 0}
    return run


def ltr_teach_command(*args: str, cwd=None, timeout: float = 120) -> str:
    """Run ``ltr-teach ARGS`` in a new process (the course's command line) and return what it printed.

    Notebooks call it instead of ``!ltr-teach ...``, which needs the command on the shell's path. The
    command runs in ``cwd`` (so file names can be short) and speaks the kernel's language.
    """
    from ..core.i18n import get_language

    command = [sys.executable, "-m", "ltr_teach.cli", *map(str, args)]
    env = dict(os.environ, LTR_TEACH_LANG=get_language())
    shown = "$ ltr-teach " + " ".join(map(str, args)) + "\n"
    try:
        done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", timeout=timeout,
                              check=False, cwd=cwd, env=env)
    except OSError:  # JupyterLite (Pyodide) cannot start a process
        return shown + _("(this Python cannot start a process, as in the browser edition: type the command in a "
                         "terminal, or use lt.evaluate, which prints the same numbers)")
    return (shown + done.stdout + done.stderr).rstrip()


__all__ = ["Collection", "Index", "load", "read_records", "tokens", "build_index", "tfidf_scores", "bm25_scores",
           "to_run", "ltr_teach_command", "STOPWORDS", "MAX_FILE_BYTES", "GLASGOW_FILES"]
