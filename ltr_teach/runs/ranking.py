"""Tokens, a sparse index of term counts, two rankers (TF-IDF cosine and BM25) and runs from their scores.

Notebook 17's rankers, shown through ``lt.collection``. The index keeps, for each term, the documents that
hold it and how often (its *postings*, Manning et al. 2008, section 1.2), never a documents × terms matrix:
a real collection has hundreds of thousands of terms and each document uses a few hundred, so the dense
matrix is almost all zeros (100,000 passages would ask for tens of gigabytes). The rankers add up each
query word's postings, so their cost follows the postings they read, not the collection's size squared.
Only NumPy is needed, so this runs wherever ltr_teach does (the browser edition included).

>>> ix = build_index({"d1": "red lipstick", "d2": "red red sunscreen"})
>>> ix.terms, ix.df.tolist(), ix.lengths.tolist()
(['lipstick', 'red', 'sunscreen'], [1, 2, 1], [2, 3])
>>> [c.tolist() for c in ix.postings("red")]
[[0, 1], [1, 2]]
"""

from __future__ import annotations

import itertools
import math
import numbers
import re
import unicodedata
from array import array
from collections.abc import Sized
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..core.plain import _brief

#: Words too common to say what a text is about; the tokeniser drops them (no stemming).
STOPWORDS = frozenset("""a an and are as at be been but by can do does for from has have how i if in into is it its
of on or so such that the their then there these they this to was were what when which while who why will with
you your""".split())

#: The scripts written without spaces between words, whose runs become overlapping character pairs: Han
#: (the CJK ideograph blocks and their extensions), Hiragana, Katakana and Hangul syllables, the scripts
#: Lucene's CJKBigramFilter pairs.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f"
_TOKEN = re.compile(f"([a-z0-9]+)|([{_CJK}]+)")
_LATIN = re.compile("[a-z0-9]+")

#: The most cells a dense matrix here may have (512 MiB of floats): ``Index.counts``, ``Index.vectors`` and
#: the rankers' queries × documents scores. A larger one is refused with what to do instead.
MAX_DENSE_CELLS = 2**26

#: How many words :func:`build_index` reads before it counts them into postings (8 bytes a word meanwhile).
_CHUNK_WORDS = 2**20

#: The largest BM25 ``k1`` taken: far past any tuned value (0.5 to 2 in practice), small enough that
#: ``tf * (k1 + 1)`` never overflows.
MAX_K1 = 1e6


def tokens(text: str) -> list[str]:
    """The words of ``text``: lower case, runs of Latin letters and digits without :data:`STOPWORDS`, and
    Chinese, Japanese or Korean text as overlapping pairs of characters.

    Chinese has no spaces between words, and finding the words needs a dictionary; indexing every pair of
    neighbouring characters instead ("防晒霜" → "防晒", "晒霜") finds most words without one, which is what
    Lucene's ``CJKBigramFilter`` does. A character standing alone (between punctuation or Latin text) is
    kept as it is. Full-width letters, digits and punctuation read as their ASCII forms (Unicode NFKC), so
    "ＳＰＦ５０" is "spf50".

    >>> tokens("What similarity laws must be obeyed?")
    ['similarity', 'laws', 'must', 'obeyed']
    >>> tokens("油性皮肤用的SPF50防晒霜，好")
    ['油性', '性皮', '皮肤', '肤用', '用的', 'spf50', '防晒', '晒霜', '好']
    """
    if not isinstance(text, str):
        raise ValueError(f"text must be a str; got {type(text).__name__}")
    if text.isascii():  # the common case, twice as fast: ASCII is its own NFKC form and holds no CJK
        return [w for w in _LATIN.findall(text.lower()) if w not in STOPWORDS]
    words = []
    for latin, cjk in _TOKEN.findall(unicodedata.normalize("NFKC", text).lower()):
        if latin:
            if latin not in STOPWORDS:
                words.append(latin)
        elif len(cjk) == 1:
            words.append(cjk)
        else:
            words.extend(cjk[i:i + 2] for i in range(len(cjk) - 1))
    return words


def _dense(what: str, rows: int, columns: int, instead: str) -> np.ndarray:
    """A zero matrix of ``rows`` × ``columns`` floats, refused above :data:`MAX_DENSE_CELLS` cells."""
    if rows * columns > MAX_DENSE_CELLS:
        raise ValueError(f"{what} would be a dense {rows:,} × {columns:,} matrix ({rows * columns * 8 / 2**30:,.1f} "
                         f"GiB); at most {MAX_DENSE_CELLS:,} cells are built: {instead}")
    return np.zeros((rows, columns))


def _texts(texts, name: str) -> list:
    """``texts`` as a list of str: a list, a tuple or dict values; one str is refused (not read letter by letter)."""
    if isinstance(texts, (str, bytes)):
        raise ValueError(f"{name} must be a list of texts; got one {type(texts).__name__} ({_brief(texts)}): "
                         f"put it in a list, [text]")
    if not isinstance(texts, Sized) or isinstance(texts, dict):
        raise ValueError(f"{name} must be a list of texts (a list, a tuple or dict.values()); "
                         f"got {type(texts).__name__}")
    texts = list(texts)
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise ValueError(f"{name}[{i}] must be a str; got {type(text).__name__} ({_brief(text)})")
    return texts


@dataclass(frozen=True, eq=False, repr=False)
class TermCounts:
    """Some texts' term counts over an index's terms, sparse: row ``i`` holds ``counts[starts[i]:starts[i + 1]]``
    of the terms ``term_ids[starts[i]:starts[i + 1]]`` (increasing). :meth:`Index.term_counts` makes one.

    >>> ix = build_index({"d1": "red lipstick", "d2": "red red sunscreen"})
    >>> q = ix.term_counts(["red lipstick red", "blue"])
    >>> q
    TermCounts(2 texts × 3 terms, 2 counts)
    >>> q.shape, q.starts.tolist(), q.term_ids.tolist(), q.counts.tolist()
    ((2, 3), [0, 2, 2], [0, 1], [1.0, 2.0])
    """

    starts: np.ndarray
    term_ids: np.ndarray
    counts: np.ndarray
    n_terms: int

    @property
    def shape(self) -> tuple:
        return (len(self.starts) - 1, self.n_terms)

    def __repr__(self) -> str:
        return f"TermCounts({self.shape[0]:,} texts × {self.n_terms:,} terms, {len(self.term_ids):,} counts)"

    def toarray(self) -> np.ndarray:
        """The dense texts × terms matrix (at most :data:`MAX_DENSE_CELLS` cells)."""
        out = _dense("the texts' term counts", *self.shape, "use index.term_counts(texts), which the rankers take as they are")
        rows = np.repeat(np.arange(self.shape[0]), np.diff(self.starts))
        out[rows, self.term_ids] = self.counts
        return out


@dataclass(frozen=True, eq=False, repr=False)
class Index:
    """Postings of a collection: term ``terms[j]`` occurs in the documents ``doc_ids[posting_docs[p]]``,
    ``posting_counts[p]`` times each, for ``p`` from ``term_starts[j]`` to ``term_starts[j + 1]`` (documents in
    increasing position); ``lengths[i]`` is the number of words of ``doc_ids[i]``. :func:`build_index` makes one.
    """

    doc_ids: list
    terms: list
    term_starts: np.ndarray
    posting_docs: np.ndarray
    posting_counts: np.ndarray
    lengths: np.ndarray

    def __repr__(self) -> str:  # the arrays and the lists of a real collection would fill the screen
        return (f"Index({len(self.doc_ids):,} documents, {len(self.terms):,} terms, "
                f"{len(self.posting_docs):,} postings)")

    @cached_property
    def _column(self) -> dict:
        return {t: j for j, t in enumerate(self.terms)}

    @property
    def df(self) -> np.ndarray:
        """Each term's document frequency: how many documents hold it (at least 1)."""
        return np.diff(self.term_starts)

    def postings(self, term: str) -> tuple:
        """``(documents, counts)`` of ``term``: the positions in :attr:`doc_ids` of the documents that hold it and
        how often; two empty arrays for a term no document holds."""
        j = self._column.get(term)
        if j is None:
            return self.posting_docs[:0], self.posting_counts[:0]
        return (self.posting_docs[self.term_starts[j]:self.term_starts[j + 1]],
                self.posting_counts[self.term_starts[j]:self.term_starts[j + 1]])

    @property
    def counts(self) -> np.ndarray:
        """The dense documents × terms count matrix, for a collection small enough to look at whole.

        >>> build_index({"d1": "red lipstick", "d2": "red red sunscreen"}).counts.tolist()
        [[1.0, 1.0, 0.0], [0.0, 2.0, 1.0]]
        """
        out = _dense("index.counts", len(self.doc_ids), len(self.terms),
                     "use index.postings(term), index.df and index.lengths, which the rankers use")
        out[self.posting_docs, np.repeat(np.arange(len(self.terms)), self.df)] = self.posting_counts
        return out

    def term_counts(self, texts) -> TermCounts:
        """Each text's counts of the index's terms, sparse; words the index does not hold are dropped."""
        texts = _texts(texts, "texts")
        starts, term_ids, counts = [0], [], []
        for text in texts:
            found: dict = {}
            for word in tokens(text):
                j = self._column.get(word)
                if j is not None:
                    found[j] = found.get(j, 0) + 1
            for j in sorted(found):
                term_ids.append(j)
                counts.append(found[j])
            starts.append(len(term_ids))
        return TermCounts(np.array(starts, dtype=np.int64), np.array(term_ids, dtype=np.int64),
                          np.array(counts, dtype=float), len(self.terms))

    def vectors(self, texts) -> np.ndarray:
        """Each text's term counts over the index's terms (a texts × terms matrix); unknown words are dropped.

        >>> ix = build_index({"d1": "red lipstick", "d2": "red red sunscreen"})
        >>> ix.terms, ix.vectors(["red lipstick red", "blue"]).tolist()
        (['lipstick', 'red', 'sunscreen'], [[1.0, 2.0, 0.0], [0.0, 0.0, 0.0]])
        """
        return self.term_counts(texts).toarray()


def build_index(docs: dict) -> Index:
    """The :class:`Index` of ``{docid: text}``: terms sorted, documents in the dict's order.

    Each document's words become term numbers as it is read (only the distinct words are kept as text).
    Every :data:`_CHUNK_WORDS` words, the (document, term) pairs read so far are counted into postings, so
    the memory follows the postings, not the words; one stable sort by term then lists every term's
    postings, documents in order.

    >>> ix = build_index({"d1": "red lipstick", "d2": "red red sunscreen"})
    >>> ix
    Index(2 documents, 3 terms, 4 postings)
    >>> ix.term_starts.tolist(), ix.posting_docs.tolist(), ix.posting_counts.tolist()
    ([0, 1, 3, 4], [0, 0, 1, 1], [1, 1, 2, 1])
    """
    if not isinstance(docs, dict) or not docs:
        raise ValueError(f"docs must be a non-empty dict {{docid: text}}; got {_brief(docs)}")
    n = len(docs)
    seen: dict = {}  # term -> its number in order of first appearance
    lengths = np.zeros(n, dtype=np.int64)
    chunk_terms, chunk_start = array("i"), 0
    parts: tuple = ([], [], [])  # each chunk's postings: documents, terms (first-appearance numbers), counts
    for i, (docid, text) in enumerate(docs.items()):
        if not isinstance(text, str):
            raise ValueError(f"docs[{_brief(docid)}] must be a str; got {type(text).__name__} ({_brief(text)})")
        words = tokens(text)
        chunk_terms.extend([seen.setdefault(w, len(seen)) for w in words])
        lengths[i] = len(words)
        if len(chunk_terms) >= _CHUNK_WORDS or i == n - 1:
            # one key per word read, document-major: the distinct keys are the chunk's postings
            keys = np.repeat(np.arange(chunk_start, i + 1, dtype=np.int64), lengths[chunk_start:i + 1]) << 32
            keys |= np.frombuffer(chunk_terms, dtype=np.intc)
            keys, counts = np.unique(keys, return_counts=True)
            for part, values in zip(parts, (keys >> 32, keys & 0xFFFFFFFF, counts)):
                part.append(values.astype(np.int32))
            chunk_terms, chunk_start = array("i"), i + 1
    terms = sorted(seen)
    sorted_number = np.empty(len(terms), dtype=np.int32)
    sorted_number[[seen[t] for t in terms]] = np.arange(len(terms))
    posting_docs, posting_terms, posting_counts = (np.concatenate(part) for part in parts)
    posting_terms = sorted_number[posting_terms]
    by_term = np.argsort(posting_terms, kind="stable")  # stable: documents stay in increasing order
    term_starts = np.zeros(len(terms) + 1, dtype=np.int64)
    np.cumsum(np.bincount(posting_terms, minlength=len(terms)), out=term_starts[1:])
    return Index(list(docs), terms, term_starts, posting_docs[by_term], posting_counts[by_term], lengths)


def _query_terms(index: Index, queries) -> TermCounts:
    """``queries`` (a queries × terms matrix or a :class:`TermCounts`) as checked sparse rows."""
    if not isinstance(index, Index):
        raise ValueError(f"index must be an Index (build_index(docs) makes one); got {type(index).__name__}")
    width = len(index.terms)
    if isinstance(queries, TermCounts):
        if queries.n_terms != width:
            raise ValueError(f"queries counts {queries.n_terms:,} terms; this index has {width:,}: make them with "
                             f"this index's term_counts(texts)")
        return _checked(queries)
    try:
        matrix = np.asarray(queries)
    except (ValueError, TypeError):
        matrix = None
    if matrix is None or matrix.dtype.kind not in "biuf" or matrix.ndim != 2:
        shown = "" if matrix is None else f" of {matrix.ndim} dimension(s) and type {matrix.dtype}"
        raise ValueError(f"queries must be a queries × terms matrix of counts (index.vectors(texts)) or "
                         f"index.term_counts(texts); got {type(queries).__name__}{shown}")
    if matrix.shape[1] != width:
        raise ValueError(f"queries has {matrix.shape[1]:,} columns; this index has {width:,} terms, one column each: "
                         f"make the queries with this index's vectors(texts)")
    matrix = matrix.astype(float)
    bad = ~np.isfinite(matrix) | (matrix < 0)
    if bad.any():
        i, j = (int(x) for x in np.argwhere(bad)[0])
        raise ValueError(f"queries[{i}, {j}] = {float(matrix[i, j])!r}; a query's term counts are finite numbers >= 0")
    rows, columns = np.nonzero(matrix)
    starts = np.zeros(matrix.shape[0] + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=matrix.shape[0]), out=starts[1:])
    return TermCounts(starts, columns, matrix[rows, columns], width)


def _checked(queries: TermCounts) -> TermCounts:
    """A :class:`TermCounts` made by hand, checked as :meth:`Index.term_counts` would have made it."""
    starts, term_ids, counts = (np.asarray(a) for a in (queries.starts, queries.term_ids, queries.counts))
    rows_ok = (starts.ndim == 1 and len(starts) >= 1 and starts.dtype.kind in "iu" and starts[0] == 0
               and bool(np.all(np.diff(starts) >= 0)))
    if not rows_ok or term_ids.shape != counts.shape or term_ids.ndim != 1 or starts[-1] != len(term_ids):
        raise ValueError("queries is a TermCounts whose starts do not cut its term_ids and counts into rows "
                         "(starts: 0, then increasing up to their length); make it with index.term_counts(texts)")
    if term_ids.dtype.kind not in "iu" or counts.dtype.kind not in "biuf":
        raise ValueError("queries is a TermCounts whose term_ids are not integers or counts not numbers; "
                         "make it with index.term_counts(texts)")
    if len(term_ids) and (term_ids.min() < 0 or term_ids.max() >= queries.n_terms):
        raise ValueError(f"queries holds a term id outside 0 to {queries.n_terms - 1:,}; "
                         f"make it with index.term_counts(texts)")
    if not np.all(np.isfinite(counts) & (counts >= 0)):
        raise ValueError("queries holds a count that is not a finite number >= 0")
    for lo, hi in itertools.pairwise(starts):
        if np.any(np.diff(term_ids[lo:hi]) <= 0):
            raise ValueError("queries holds a row whose term ids do not increase (a term twice in one query); "
                             "make it with index.term_counts(texts)")
    return TermCounts(starts.astype(np.int64), term_ids.astype(np.int64), counts.astype(float), queries.n_terms)


def _by_term(queries: TermCounts):
    """``(term, query rows, counts)`` for each term some query holds: a term's postings are then read once."""
    rows = np.repeat(np.arange(queries.shape[0]), np.diff(queries.starts))
    order = np.argsort(queries.term_ids, kind="stable")
    terms, rows, counts = queries.term_ids[order], rows[order], queries.counts[order]
    cuts = np.flatnonzero(np.diff(terms)) + 1
    for lo, hi in zip(np.r_[0, cuts], np.r_[cuts, len(terms)]) if len(terms) else ():
        yield int(terms[lo]), rows[lo:hi], counts[lo:hi]


def _scores_matrix(index: Index, queries: TermCounts) -> np.ndarray:
    return _dense("the scores", queries.shape[0], len(index.doc_ids), "score fewer queries at a time")


def tfidf_scores(index: Index, queries) -> np.ndarray:
    """Cosine of TF-IDF vectors: queries × documents.

    A term's weight in a text is its count times ``idf = ln(N / df)`` (``N`` documents, ``df`` of them
    holding the term); the score is the cosine of the query's and the document's weight vectors, 0 when
    either is all zero. ``queries`` is ``index.vectors(texts)`` or, without a dense matrix,
    ``index.term_counts(texts)``.
    """
    queries = _query_terms(index, queries)
    scores = _scores_matrix(index, queries)
    n = len(index.doc_ids)
    idf = np.log(n / index.df)
    posting_weights = index.posting_counts * np.repeat(idf, index.df)
    doc_norms = np.sqrt(np.bincount(index.posting_docs, weights=posting_weights**2, minlength=n))
    inverse_doc_norms = np.divide(1, doc_norms, out=np.zeros(n), where=doc_norms > 0)
    query_weights = queries.counts * idf[queries.term_ids]
    query_rows = np.repeat(np.arange(queries.shape[0]), np.diff(queries.starts))
    query_norms = np.sqrt(np.bincount(query_rows, weights=query_weights**2, minlength=queries.shape[0]))
    inverse_query_norms = np.divide(1, query_norms, out=np.zeros(len(query_norms)), where=query_norms > 0)
    for term, rows, counts in _by_term(queries):
        lo, hi = index.term_starts[term], index.term_starts[term + 1]
        docs = index.posting_docs[lo:hi]
        weights = index.posting_counts[lo:hi] * idf[term] * inverse_doc_norms[docs]
        scores[np.ix_(rows, docs)] += (counts * idf[term] * inverse_query_norms[rows])[:, None] * weights
    return scores


def overlap_scores(index: Index, queries) -> np.ndarray:
    """The overlap score measure (Manning, Raghavan & Schütze 2008, section 6.2.2): queries × documents.

    A document scores the sum, over the query's distinct words, of how often each occurs in it: no idf, no
    length normalisation, and a word the query repeats counts once. The weakest sensible ranker, a baseline for
    TF-IDF and BM25 (notebook 17). ``queries`` as for :func:`tfidf_scores`.

    >>> ix = build_index({"d1": "red lipstick", "d2": "red red sunscreen"})
    >>> overlap_scores(ix, ix.vectors(["red red lipstick", "blue"])).tolist()
    [[2.0, 2.0], [0.0, 0.0]]
    """
    queries = _query_terms(index, queries)
    scores = _scores_matrix(index, queries)
    for term, rows, _counts in _by_term(queries):
        lo, hi = index.term_starts[term], index.term_starts[term + 1]
        scores[np.ix_(rows, index.posting_docs[lo:hi])] += index.posting_counts[lo:hi]
    return scores


def _parameter(name: str, value, low: float, high: float, usual: str) -> float:
    """A finite real number between ``low`` and ``high``, or a ValueError naming it."""
    allowed = f"{name} must be a number from {low:g} to {high:,.0f} ({usual})"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} = {_brief(value)}; {allowed}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not low <= number <= high:  # NaN fails too
        raise ValueError(f"{name} = {_brief(value)}; {allowed}")
    return number


def bm25_scores(index: Index, queries, k1: float = 1.2, b: float = 0.75) -> np.ndarray:
    """Okapi BM25: queries × documents.

    ``score(q, d) = sum over the query's words t of idf(t) * tf (k1 + 1) / (tf + k1 (1 - b + b dl / avgdl))``
    with ``tf`` the count of ``t`` in ``d``, ``dl`` the document's length in words, ``avgdl`` the mean
    length, and ``idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))`` (never negative). A word the query repeats
    counts again. ``k1 = 0`` gives the binary model (each query word present adds its idf); ``b = 0`` ignores
    the length. ``queries`` is ``index.vectors(texts)`` or, without a dense matrix, ``index.term_counts(texts)``.
    """
    k1 = _parameter("k1", k1, 0, MAX_K1, "usually 1.2")
    b = _parameter("b", b, 0, 1, "usually 0.75")
    queries = _query_terms(index, queries)
    scores = _scores_matrix(index, queries)
    n = len(index.doc_ids)
    df = index.df
    idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
    mean_length = index.lengths.mean() or 1.0  # all documents empty: no postings to weigh
    norm = k1 * (1 - b + b * index.lengths / mean_length)
    for term, rows, counts in _by_term(queries):
        lo, hi = index.term_starts[term], index.term_starts[term + 1]
        docs, tf = index.posting_docs[lo:hi], index.posting_counts[lo:hi]
        weights = tf * (k1 + 1) / (tf + norm[docs]) * idf[term]  # tf >= 1 here, so never 0/0 (k1 = 0)
        scores[np.ix_(rows, docs)] += counts[:, None] * weights
    return scores


def _ids(ids, name: str, expected: int) -> list:
    """``ids`` as their text, refused when two differ but read the same (``1`` and ``'1'``)."""
    if isinstance(ids, (str, bytes)) or not isinstance(ids, Sized):
        raise ValueError(f"{name} must be a list of ids; got {type(ids).__name__} ({_brief(ids)})")
    ids = list(ids)
    if len(ids) != expected:
        raise ValueError(f"{name} has {len(ids):,} ids; the scores have {expected:,} (one id each)")
    written: dict = {}
    for value in ids:
        text = str(value)
        if text in written:
            raise ValueError(f"{name} holds {_brief(written[text])} and {_brief(value)}, both written as {text!r}: "
                             f"a run file could not tell them apart; give each a different id")
        written[text] = value
    return list(written)


def to_run(scores: np.ndarray, query_ids, doc_ids, depth: int = 100) -> dict:
    """``{qid: {docid: score}}``: each query's ``depth`` best documents with a score above 0.

    Equal scores keep the documents' order. Ids are written as text, as in a run file.

    >>> to_run(np.array([[0.5, 0.0, 2.0]]), ["q1"], ["a", "b", "c"])
    {'q1': {'c': 2.0, 'a': 0.5}}
    """
    try:
        matrix = np.asarray(scores)
    except (ValueError, TypeError):
        matrix = None
    if matrix is None or matrix.dtype.kind not in "biuf" or matrix.ndim != 2:
        raise ValueError(f"scores must be a queries × documents matrix of numbers; got {_brief(scores)}")
    matrix = matrix.astype(float)
    query_ids = _ids(query_ids, "query_ids", matrix.shape[0])
    doc_ids = _ids(doc_ids, "doc_ids", matrix.shape[1])
    bad = ~np.isfinite(matrix)
    if bad.any():
        i, j = (int(x) for x in np.argwhere(bad)[0])
        raise ValueError(f"scores[{i}, {j}] = {float(matrix[i, j])!r} (query {query_ids[i]!r}, document {doc_ids[j]!r}); "
                         f"a run file holds finite scores only")
    if isinstance(depth, bool) or not isinstance(depth, numbers.Integral) or depth < 1:
        raise ValueError(f"depth = {_brief(depth)}; it must be a whole number, at least 1")
    run = {}
    for qid, row in zip(query_ids, matrix):
        above = np.flatnonzero(row > 0)
        best = above[np.argsort(-row[above], kind="stable")[:depth]]
        run[qid] = {doc_ids[j]: float(row[j]) for j in best}
    return run


__all__ = ["Index", "TermCounts", "tokens", "build_index", "tfidf_scores", "overlap_scores", "bm25_scores", "to_run",
           "STOPWORDS", "MAX_DENSE_CELLS", "MAX_K1"]
