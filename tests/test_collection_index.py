"""The sparse index and the rankers of ``lt.collection`` (``runs/ranking.py``) against independent oracles.

Oracles: the dense formulas the library used before its index became sparse (copied here as they were),
scikit-learn's ``CountVectorizer`` for the counts, SciPy's sparse matrices for a collection too big for the
dense formulas, and scores worked out by hand, in Chinese too. Then each way in which bad input once broke
(issue 32) with its reproduction.
"""

from __future__ import annotations

import itertools
import math
import re
import tracemalloc
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ltr_teach.runs import collection as col
from ltr_teach.runs import ranking


def _dense_counts(docs: dict) -> tuple[list, np.ndarray]:
    """The index as it was: every document's counts over the sorted terms, a dense matrix."""
    words = [col.tokens(text) for text in docs.values()]
    terms = sorted({t for w in words for t in w})
    column = {t: j for j, t in enumerate(terms)}
    counts = np.zeros((len(docs), len(terms)))
    for i, w in enumerate(words):
        np.add.at(counts[i], [column[t] for t in w], 1)
    return terms, counts


def _dense_tfidf(counts, queries):
    """tfidf_scores as it was, on dense matrices."""
    n = counts.shape[0]
    idf = np.log(n / (counts > 0).sum(axis=0))
    d = counts * idf
    q = np.asarray(queries, dtype=float) * idf
    d_norm = np.linalg.norm(d, axis=1)
    q_norm = np.linalg.norm(q, axis=1)
    d = np.divide(d, d_norm[:, None], out=np.zeros_like(d), where=d_norm[:, None] > 0)
    q = np.divide(q, q_norm[:, None], out=np.zeros_like(q), where=q_norm[:, None] > 0)
    return q @ d.T


def _dense_bm25(tf, queries, k1=1.2, b=0.75):
    """bm25_scores as it was, on dense matrices."""
    n = tf.shape[0]
    df = (tf > 0).sum(axis=0)
    idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
    dl = tf.sum(axis=1)
    with np.errstate(invalid="ignore"):  # all documents empty: 0/0, never used (no tf > 0)
        norm = k1 * (1 - b + b * dl / dl.mean())
    weights = np.divide(tf * (k1 + 1), tf + norm[:, None], out=np.zeros_like(tf), where=tf > 0) * idf
    return np.asarray(queries, dtype=float) @ weights.T


# --- tokens -----------------------------------------------------------------------------------------------

_OLD_TOKEN = re.compile(r"[a-z0-9]+")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_latin_tokens_are_what_they_were(text):
    # on ASCII text the tokeniser is the old one: runs of [a-z0-9] in lower case without the stop words
    assert col.tokens(text) == [t for t in _OLD_TOKEN.findall(text.lower()) if t not in col.STOPWORDS]
    assert col.tokens(text + " é") == col.tokens(text)  # the general path (not ASCII) reads the same words


@pytest.mark.parametrize(("text", "expected"), [
    ("防晒霜", ["防晒", "晒霜"]),                                   # a run of n characters gives n - 1 pairs
    ("油性皮肤，防晒", ["油性", "性皮", "皮肤", "防晒"]),             # punctuation ends a run
    ("好", ["好"]),                                               # a character alone is kept alone
    ("SPF50防晒霜 for oily skin", ["spf50", "防晒", "晒霜", "oily", "skin"]),
    ("ＳＰＦ５０　防晒", ["spf50", "防晒"]),                        # full width reads as ASCII (NFKC)
    ("日焼け止め", ["日焼", "焼け", "け止", "止め"]),                  # Japanese: Han and Hiragana together
    ("선크림", ["선크", "크림"]),                                    # Korean Hangul syllables
    ("𠀀𠀁", ["𠀀𠀁"]),                                             # CJK Extension B, outside the BMP
    ("the 的 of", ["的"]),
    ("", []),
])
def test_cjk_text_becomes_character_pairs(text, expected):
    assert col.tokens(text) == expected


def test_a_chinese_collection_ranks_by_hand():
    # three documents; the query "防晒霜" has the pairs 防晒 and 晒霜
    docs = {"a": "清爽防晒霜", "b": "防晒喷雾", "c": "保湿面霜"}
    index = col.build_index(docs)
    # a: 清爽 爽防 防晒 晒霜 (4 words); b: 防晒 晒喷 喷雾 (3); c: 保湿 湿面 面霜 (3); avgdl = 10/3
    assert index.lengths.tolist() == [4, 3, 3]
    assert index.terms == sorted(["清爽", "爽防", "防晒", "晒霜", "晒喷", "喷雾", "保湿", "湿面", "面霜"])
    assert [p.tolist() for p in index.postings("防晒")] == [[0, 1], [1, 1]]
    scores = col.bm25_scores(index, index.term_counts(["防晒霜"]), k1=1.2, b=0.75)
    # idf(防晒) = ln(1 + 1.5/2.5) = ln(8/5); idf(晒霜) = ln(1 + 2.5/1.5) = ln(8/3)
    # a: K = 1.2 (1/4 + 3/4 * 4 / (10/3)) = 1.2 * 1.15 = 1.38; each tf = 1: 2.2 / 2.38 = 110/119
    # b: K = 1.2 (1/4 + 3/4 * 3 / (10/3)) = 1.2 * 0.925 = 1.11; 2.2 / 2.11 = 220/211
    expected = [float(Fraction(110, 119)) * (math.log(8 / 5) + math.log(8 / 3)),
                float(Fraction(220, 211)) * math.log(8 / 5), 0.0]
    assert scores[0].tolist() == pytest.approx(expected, rel=1e-12, abs=0)
    assert col.to_run(scores, ["q"], index.doc_ids) == {"q": {"a": scores[0, 0], "b": scores[0, 1]}}


# --- the index ----------------------------------------------------------------------------------------------

def test_the_sample_index_counts_equal_scikit_learns():
    from sklearn.feature_extraction.text import CountVectorizer

    c = col.load("sample")
    index = col.build_index(c.docs)
    peer = CountVectorizer(tokenizer=col.tokens, lowercase=False, token_pattern=None)
    matrix = peer.fit_transform(list(c.docs.values()))
    assert index.terms == list(peer.get_feature_names_out())
    assert np.array_equal(index.counts, matrix.toarray())
    assert index.df.tolist() == (matrix > 0).sum(axis=0).A1.tolist()
    assert index.lengths.tolist() == matrix.sum(axis=1).A1.tolist()


@pytest.mark.parametrize("chunk", [1, 7, 1000])
def test_the_index_is_the_same_whatever_the_chunks_it_is_counted_in(monkeypatch, chunk):
    c = col.load("sample")
    terms, counts = _dense_counts(c.docs)
    monkeypatch.setattr(ranking, "_CHUNK_WORDS", chunk)  # 1: every document its own chunk
    index = col.build_index(c.docs)
    assert index.terms == terms and np.array_equal(index.counts, counts)
    assert all(np.all(np.diff(index.postings(t)[0]) > 0) for t in terms)  # documents increase in every postings list


def test_postings_are_the_counts_columns():
    index = col.build_index({"d1": "Red lipstick.", "d2": "red RED sunscreen", "d3": "the sunscreen"})
    assert index.term_starts.tolist() == [0, 1, 3, 5]
    assert index.posting_docs.tolist() == [0, 0, 1, 1, 2]
    assert index.posting_counts.tolist() == [1, 1, 2, 1, 1]
    docs, counts = index.postings("blue")
    assert docs.tolist() == counts.tolist() == []


def _sample_queries():
    c = col.load("sample")
    return c, col.build_index(c.docs), list(c.queries.values())


@pytest.mark.parametrize(("k1", "b"), [(1.2, 0.75), (0, 0.75), (2.0, 0), (0.5, 1), (col.MAX_K1, 0.3)])
def test_bm25_equals_the_old_dense_formula_on_the_sample(k1, b):
    c, index, texts = _sample_queries()
    terms, counts = _dense_counts(c.docs)
    dense_queries = index.vectors(texts)
    expected = _dense_bm25(counts, dense_queries, k1, b)
    assert terms == index.terms and np.isfinite(expected).all()
    for queries in (dense_queries, index.term_counts(texts)):
        assert np.allclose(col.bm25_scores(index, queries, k1=k1, b=b), expected, rtol=1e-12, atol=1e-13)


def test_tfidf_equals_the_old_dense_formula_on_the_sample():
    c, index, texts = _sample_queries()
    _terms, counts = _dense_counts(c.docs)
    expected = _dense_tfidf(counts, index.vectors(texts))
    for queries in (index.vectors(texts), index.term_counts(texts)):
        assert np.allclose(col.tfidf_scores(index, queries), expected, rtol=1e-12, atol=1e-14)


def test_the_sample_runs_are_what_they_were():
    c, index, texts = _sample_queries()
    _terms, counts = _dense_counts(c.docs)
    q = index.vectors(texts)
    for ours, theirs in ((col.bm25_scores(index, q), _dense_bm25(counts, q)),
                         (col.tfidf_scores(index, q), _dense_tfidf(counts, q))):
        run = col.to_run(ours, list(c.queries), index.doc_ids)
        old = col.to_run(theirs, list(c.queries), index.doc_ids)
        assert {q: list(r) for q, r in run.items()} == {q: list(r) for q, r in old.items()}  # same order


_WORDS = st.sampled_from(["red", "lipstick", "sunscreen", "oily", "skin", "the", "spf50", "防晒", "霜"])


@settings(max_examples=150, deadline=None)
@given(docs=st.lists(st.lists(_WORDS, max_size=8).map(" ".join), min_size=1, max_size=8),
       data=st.data(), k1=st.floats(0, 5), b=st.floats(0, 1))
def test_any_small_collection_scores_as_the_dense_formulas(docs, data, k1, b):
    docs = {f"d{i}": text for i, text in enumerate(docs)}
    index = col.build_index(docs)
    terms, counts = _dense_counts(docs)
    assert index.terms == terms and np.array_equal(index.counts, counts)
    width = len(terms)
    rows = data.draw(st.lists(st.lists(st.sampled_from([0, 0, 1, 2, 0.5]), min_size=width, max_size=width),
                              min_size=1, max_size=4))
    queries = np.array(rows, dtype=float).reshape(len(rows), width)
    assert np.allclose(col.bm25_scores(index, queries, k1=k1, b=b), _dense_bm25(counts, queries, k1, b),
                       rtol=1e-12, atol=1e-12)
    assert np.allclose(col.tfidf_scores(index, queries), _dense_tfidf(counts, queries), rtol=1e-12, atol=1e-12)


def _random_collection(n_docs: int, vocabulary: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    words = np.array([f"w{i}" for i in range(vocabulary)])
    lengths = rng.integers(0, 40, n_docs)
    zipf = rng.zipf(1.3, lengths.sum()) % vocabulary  # a few common words, many rare ones, as in text
    cuts = np.cumsum(lengths)[:-1]
    return {f"d{i}": " ".join(words[part]) for i, part in enumerate(np.split(zipf, cuts))}


def test_a_collection_too_big_for_the_dense_formulas_equals_scipys_sparse_product():
    scipy_sparse = pytest.importorskip("scipy.sparse")  # a test extra; the library itself needs NumPy only
    docs = _random_collection(20_000, 30_000, seed=7)
    index = col.build_index(docs)
    texts = [docs[f"d{i}"][:60] for i in range(0, 2_000, 20)] + ["w1 w1 w2", "nothing known", ""]
    queries = index.term_counts(texts)
    n = len(docs)
    matrix = scipy_sparse.csc_matrix((index.posting_counts.astype(float), index.posting_docs, index.term_starts),
                                     shape=(n, len(index.terms)))
    q = scipy_sparse.csr_matrix((queries.counts, queries.term_ids, queries.starts), shape=queries.shape)
    # BM25 through SciPy: the weight matrix, then one sparse product
    df = np.diff(matrix.indptr)
    idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
    coo = matrix.tocoo()
    k = 1.2 * (0.25 + 0.75 * index.lengths / index.lengths.mean())
    w = coo.data * 2.2 / (coo.data + k[coo.row]) * idf[coo.col]
    weights = scipy_sparse.csr_matrix((w, (coo.row, coo.col)), shape=matrix.shape)
    assert np.allclose(col.bm25_scores(index, queries), (q @ weights.T).toarray(), rtol=1e-12, atol=1e-12)
    # TF-IDF cosine through SciPy
    idf = np.log(n / df)
    d = scipy_sparse.csr_matrix((coo.data * idf[coo.col], (coo.row, coo.col)), shape=matrix.shape)
    d_norm = np.sqrt(d.multiply(d).sum(axis=1)).A1
    d = scipy_sparse.diags(np.divide(1, d_norm, out=np.zeros(n), where=d_norm > 0)) @ d
    qw = q @ scipy_sparse.diags(idf)
    q_norm = np.sqrt(qw.multiply(qw).sum(axis=1)).A1
    qw = scipy_sparse.diags(np.divide(1, q_norm, out=np.zeros(len(q_norm)), where=q_norm > 0)) @ qw
    assert np.allclose(col.tfidf_scores(index, queries), (qw @ d.T).toarray(), rtol=1e-12, atol=1e-12)


def test_the_index_memory_follows_the_postings_not_documents_times_terms():
    # 5,000 documents of 20 words drawn from 50,000: a dense index would be about 1.7 GB of floats
    rng = np.random.default_rng(3)
    docs = {f"d{i}": " ".join(f"w{j}" for j in row) for i, row in enumerate(rng.integers(0, 50_000, (5_000, 20)))}
    tracemalloc.start()
    try:
        index = col.build_index(docs)
        scores = col.bm25_scores(index, index.term_counts(["w5 w17 w123"] * 10))
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    dense = len(index.doc_ids) * len(index.terms) * 8
    assert dense > 1.5e9 and peak < dense / 100, (peak, dense)
    assert scores.shape == (10, 5_000)


def test_empty_documents_and_an_index_without_terms_score_zero():
    index = col.build_index({"a": "the of and", "b": ""})
    assert index.terms == [] and index.lengths.tolist() == [0, 0]
    for scores in (col.bm25_scores(index, index.vectors(["red"])), col.tfidf_scores(index, index.vectors(["red"]))):
        assert scores.tolist() == [[0.0, 0.0]]
    assert col.bm25_scores(index, index.term_counts([])).shape == (0, 2)


def test_a_word_in_every_document_has_tfidf_zero_and_no_nan():
    index = col.build_index({"a": "red", "b": "red red"})  # idf(red) = ln(2/2) = 0: every vector is zero
    assert col.tfidf_scores(index, index.vectors(["red"])).tolist() == [[0.0, 0.0]]


def test_dense_views_past_the_bound_are_refused_with_what_to_use(monkeypatch):
    index = col.build_index({"a": "red lipstick", "b": "red sunscreen"})
    monkeypatch.setattr(ranking, "MAX_DENSE_CELLS", 5)
    with pytest.raises(ValueError, match=r"index\.counts would be a dense 2 × 3 matrix .* at most 5 cells are built: "
                                         r"use index\.postings\(term\)"):
        index.counts  # noqa: B018 - the property is what is tested
    with pytest.raises(ValueError, match=r"dense 2 × 3 matrix .* use index\.term_counts\(texts\)"):
        index.vectors(["red", "blue"])
    with pytest.raises(ValueError, match=r"the scores would be a dense 3 × 2 matrix .* score fewer queries at a time"):
        col.bm25_scores(index, index.term_counts(["red", "blue", "lipstick"]))
    assert col.bm25_scores(index, index.term_counts(["red", "blue"])).shape == (2, 2)


# --- hostile input (issue 32): each a ValueError naming the argument, the value and what is allowed ----------

@pytest.fixture
def index():
    return col.build_index({"d1": "Red lipstick.", "d2": "red RED sunscreen", "d3": "the sunscreen"})


def test_one_text_is_not_read_letter_by_letter(index):
    with pytest.raises(ValueError, match=r"texts must be a list of texts; got one str \('a text'\): put it in a list"):
        index.vectors("a text")
    with pytest.raises(ValueError, match="got one bytes"):
        index.term_counts(b"red")
    with pytest.raises(ValueError, match="texts must be a list of texts .*; got count"):
        index.vectors(itertools.count())  # endless: refused before a word is read
    with pytest.raises(ValueError, match=r"texts\[1\] must be a str; got int \(3\)"):
        index.vectors(["red", 3])
    assert index.vectors(("red",)).tolist() == index.vectors({"q": "red"}.values()).tolist() == [[0, 1, 0]]


@pytest.mark.parametrize(("queries", "message"), [
    (np.ones((1, 5)), r"queries has 5 columns; this index has 3 terms, one column each"),
    (np.ones(3), r"queries must be a queries × terms matrix .*got ndarray of 1 dimension\(s\)"),
    ([["a", "b", "c"]], r"queries must be a queries × terms matrix .*type <U1"),
    ([[1, 2], [3]], r"queries must be a queries × terms matrix"),
    (np.array([[0, np.nan, 1]]), r"queries\[0, 1\] = nan; a query's term counts are finite numbers >= 0"),
    (np.array([[0, 0, np.inf]]), r"queries\[0, 2\] = inf"),
    (np.array([[0, -1, 0]]), r"queries\[0, 1\] = -1.0"),
])
def test_a_bad_query_matrix_is_named(index, queries, message):
    for ranker in (col.bm25_scores, col.tfidf_scores):
        with pytest.raises(ValueError, match=message):
            ranker(index, queries)


@pytest.mark.parametrize(("parts", "message"), [
    (([0, 2], [0], [1.0]), "starts do not cut its term_ids and counts into rows"),
    (([1, 1], [], []), "starts do not cut"),
    (([0, 1], [0], [1.0, 2.0]), "starts do not cut"),
    (([0, 1], [3], [1.0]), "a term id outside 0 to 2"),
    (([0, 1], [-1], [1.0]), "a term id outside 0 to 2"),
    (([0, 1], [0.5], [1.0]), "term_ids are not integers"),
    (([0, 1], [0], [np.inf]), "a count that is not a finite number >= 0"),
    (([0, 2], [1, 1], [1.0, 1.0]), "term ids do not increase"),
])
def test_a_hand_made_term_counts_is_checked(index, parts, message):
    queries = col.TermCounts(*(np.array(p) for p in parts), 3)
    with pytest.raises(ValueError, match=message):
        col.bm25_scores(index, queries)


def test_a_hand_made_term_counts_scores_as_the_dense_matrix(index):
    queries = col.TermCounts(np.array([0, 2, 2]), np.array([0, 1]), np.array([1, 2]), 3)
    assert col.bm25_scores(index, queries).tolist() == col.bm25_scores(index, queries.toarray()).tolist()


def test_term_counts_of_another_index_are_refused(index):
    other = col.build_index({"x": "blue moon"})
    with pytest.raises(ValueError, match="queries counts 2 terms; this index has 3"):
        col.bm25_scores(index, other.term_counts(["blue"]))
    with pytest.raises(ValueError, match="index must be an Index"):
        col.tfidf_scores("index", index.vectors(["red"]))


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"k1": math.inf}, r"k1 = inf; k1 must be a number from 0 to 1,000,000 \(usually 1.2\)"),
    ({"k1": math.nan}, r"k1 = nan;"),
    ({"k1": -0.1}, r"k1 = -0.1;"),
    ({"k1": 10**400}, r"k1 = an integer of about 400 digits;"),
    ({"k1": "1.2"}, r"k1 = '1.2';"),
    ({"k1": True}, r"k1 = True;"),
    ({"b": 1e999999999}, r"b = inf; b must be a number from 0 to 1 \(usually 0.75\)"),
    ({"b": None}, r"b = None;"),
])
def test_bm25_parameters_are_checked(index, kwargs, message):
    with pytest.raises(ValueError, match=message):
        col.bm25_scores(index, index.vectors(["red"]), **kwargs)


def test_numpy_parameters_and_the_largest_k1_give_finite_scores(index):
    q = index.vectors(["red red lipstick"])
    assert np.allclose(col.bm25_scores(index, q, k1=np.float32(1.2), b=np.float64(0.75)), col.bm25_scores(index, q))
    assert np.isfinite(col.bm25_scores(index, q, k1=col.MAX_K1, b=1)).all()


def test_to_run_refuses_ids_that_read_the_same():
    scores = np.array([[1.0, 2.0], [3.0, 4.0]])
    # before, both queries were written as '1' and the second overwrote the first: a score lost
    with pytest.raises(ValueError, match=r"query_ids holds 1 and '1', both written as '1'"):
        col.to_run(scores, [1, "1"], ["a", "b"])
    with pytest.raises(ValueError, match=r"doc_ids holds 'a' and 'a', both written as 'a'"):
        col.to_run(scores, ["q1", "q2"], ["a", "a"])
    assert col.to_run(scores, [1, 2], [10, 20]) == {"1": {"20": 2.0, "10": 1.0}, "2": {"20": 4.0, "10": 3.0}}


@pytest.mark.parametrize("bad", [math.inf, -math.inf, math.nan])
def test_to_run_refuses_scores_a_run_file_cannot_hold(bad):
    with pytest.raises(ValueError, match=rf"scores\[0, 1\] = {bad!r} \(query 'q', document 'b'\); a run file holds "
                                         r"finite scores only"):
        col.to_run(np.array([[1.0, bad]]), ["q"], ["a", "b"])


@pytest.mark.parametrize(("args", "message"), [
    (("text", ["q"], ["a"]), r"scores must be a queries × documents matrix of numbers; got 'text'"),
    (([1.0, 2.0], ["q"], ["a", "b"]), r"scores must be a queries × documents matrix"),
    (([[1.0]], "q", ["a"]), r"query_ids must be a list of ids; got str"),
    (([[1.0]], ["q"], iter(["a"])), r"doc_ids must be a list of ids; got list_iterator"),
    (([[1.0]], ["q"], ["a", "b"]), r"doc_ids has 2 ids; the scores have 1"),
])
def test_to_run_names_bad_arguments(args, message):
    with pytest.raises(ValueError, match=message):
        col.to_run(*args)


def test_to_run_depth_takes_numpy_integers_only_as_whole_numbers():
    scores = np.array([[3.0, 2.0, 1.0]])
    assert col.to_run(scores, ["q"], list("abc"), depth=np.int64(2)) == {"q": {"a": 3.0, "b": 2.0}}
    assert col.to_run(scores, ["q"], list("abc"), depth=10**100) == {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    for depth in (True, 2.0, "2", 0):
        with pytest.raises(ValueError, match=r"depth = .*; it must be a whole number, at least 1"):
            col.to_run(scores, ["q"], list("abc"), depth=depth)


def test_build_index_names_a_document_that_is_not_text():
    with pytest.raises(ValueError, match=r"docs\['d2'\] must be a str; got bytes \(b'red'\)"):
        col.build_index({"d1": "red", "d2": b"red"})
    for docs in ({}, [("d1", "red")], None):
        with pytest.raises(ValueError, match=r"docs must be a non-empty dict \{docid: text\}"):
            col.build_index(docs)
