"""Index and rank a collection with lt.collection vs scikit-learn + SciPy, in the same run: time and peak memory.

A synthetic collection (default 10,000 documents of 60 to 300 words, 100 queries of 2 to 8 words; words drawn
from a Zipf law over a 60,000-word vocabulary, as in text) or, with --chinese, Chinese text (characters drawn
from a Zipf law over 3,500 Han characters, sentences cut by "，" and "。"), which the tokeniser reads as
character pairs. Each tool goes from the texts to both rankers' scores and the 100 best documents per query:

- lt.collection: build_index, term_counts, bm25_scores, tfidf_scores, to_run (NumPy only);
- the peer: scikit-learn's CountVectorizer with the same tokeniser, then the same BM25 and TF-IDF cosine as
  SciPy sparse products, and the same top 100. Its scores are checked to equal ours.

The old dense index's size (documents × terms × 8 bytes) is printed beside them. Times are the median of
--repeat rounds, the tools taking turns; the peak memory is tracemalloc's (NumPy, SciPy and Python objects
alike), measured in a separate round because tracing slows Python down.

Run: PYTHONPATH=$PWD python benchmarks/bench_collection.py [--docs N] [--queries Q] [--repeat R] [--chinese]
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc

import numpy as np

from ltr_teach.runs import collection as col

DEPTH = 100


def make_collection(n_docs: int, n_queries: int, chinese: bool, seed: int = 0) -> tuple[dict, list]:
    rng = np.random.default_rng(seed)
    if chinese:
        alphabet = np.array([chr(0x4E00 + i) for i in rng.choice(20_000, 3_500, replace=False)] + ["，", "。"])
        weights = 1 / np.arange(1, 3_501) ** 1.05
        weights = np.r_[weights / weights.sum() * 0.9, 0.07, 0.03]
        separator = ""
    else:
        alphabet = np.array([f"w{i}" for i in range(60_000)])
        weights = 1 / np.arange(1, 60_001) ** 1.05
        weights /= weights.sum()
        separator = " "
    docs = {f"d{i}": separator.join(rng.choice(alphabet, size=rng.integers(60, 301), p=weights))
            for i in range(n_docs)}
    queries = [separator.join(rng.choice(alphabet[:-2] if chinese else alphabet, size=rng.integers(2, 9), p=None))
               for _ in range(n_queries)]
    return docs, queries


def ours(docs: dict, queries: list) -> tuple:
    index = col.build_index(docs)
    q = index.term_counts(queries)
    bm25, tfidf = col.bm25_scores(index, q), col.tfidf_scores(index, q)
    ids = [f"q{i}" for i in range(len(queries))]
    runs = [col.to_run(s, ids, index.doc_ids, depth=DEPTH) for s in (bm25, tfidf)]
    return bm25, tfidf, runs, index


def peer(docs: dict, queries: list) -> tuple:
    from scipy import sparse
    from sklearn.feature_extraction.text import CountVectorizer

    vectorizer = CountVectorizer(tokenizer=col.tokens, lowercase=False, token_pattern=None, dtype=np.float64)
    tf = vectorizer.fit_transform(docs.values()).tocsr()
    q = vectorizer.transform(queries)
    n = tf.shape[0]
    df = np.bincount(tf.indices, minlength=tf.shape[1])
    lengths = tf.sum(axis=1).A1
    coo = tf.tocoo()
    # BM25, k1 = 1.2, b = 0.75
    idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
    k = 1.2 * (0.25 + 0.75 * lengths / lengths.mean())
    weights = sparse.csr_matrix((coo.data * 2.2 / (coo.data + k[coo.row]) * idf[coo.col], (coo.row, coo.col)),
                                shape=tf.shape)
    bm25 = (q @ weights.T).toarray()
    # TF-IDF cosine
    idf = np.log(n / df)
    d = tf @ sparse.diags(idf)
    d_norm = np.sqrt(d.multiply(d).sum(axis=1)).A1
    d = sparse.diags(np.divide(1, d_norm, out=np.zeros(n), where=d_norm > 0)) @ d
    qw = q @ sparse.diags(idf)
    q_norm = np.sqrt(qw.multiply(qw).sum(axis=1)).A1
    qw = sparse.diags(np.divide(1, q_norm, out=np.zeros(len(q_norm)), where=q_norm > 0)) @ qw
    tfidf = (qw @ d.T).toarray()
    doc_ids = list(docs)
    runs = []
    for scores in (bm25, tfidf):
        run = {}
        for i, row in enumerate(scores):
            above = np.flatnonzero(row > 0)
            best = above[np.argsort(-row[above], kind="stable")[:DEPTH]]
            run[f"q{i}"] = {doc_ids[j]: float(row[j]) for j in best}
        runs.append(run)
    return bm25, tfidf, runs, None


def peak_bytes(fn, *args) -> int:
    tracemalloc.start()
    try:
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--chinese", action="store_true")
    args = parser.parse_args()
    docs, queries = make_collection(args.docs, args.queries, args.chinese)
    tools = {"lt.collection": ours, "scikit-learn + SciPy": peer}
    times = {name: [] for name in tools}
    for _ in range(args.repeat):
        for name, fn in tools.items():
            start = time.perf_counter()
            results = fn(docs, queries)
            times[name].append(time.perf_counter() - start)
            if name == "lt.collection":
                mine = results
            else:
                for a, b in zip(mine[:2], results[:2]):
                    assert np.allclose(a, b, rtol=1e-10, atol=1e-12), "the scores differ"
    index = mine[3]
    peaks = {name: peak_bytes(fn, docs, queries) for name, fn in tools.items()}
    words = int(index.lengths.sum())
    print(f"{len(docs):,} documents ({'Chinese' if args.chinese else 'Latin'} text, {words:,} words, "
          f"{len(index.terms):,} terms, {len(index.posting_docs):,} postings), {len(queries):,} queries; "
          f"index + BM25 + TF-IDF + top {DEPTH}")
    print(f"the old dense index alone would need {len(docs) * len(index.terms) * 8 / 2**30:,.1f} GiB")
    print(f"{'tool':<22}{'median s':>10}{'best s':>10}{'peak MiB':>10}")
    for name in tools:
        print(f"{name:<22}{statistics.median(times[name]):>10.2f}{min(times[name]):>10.2f}"
              f"{peaks[name] / 2**20:>10.1f}")
    base, other = tools
    print(f"ratio {base} / {other}: time {statistics.median(times[base]) / statistics.median(times[other]):.2f}, "
          f"peak memory {peaks[base] / peaks[other]:.2f} (below 1: {base} is faster / smaller)")


if __name__ == "__main__":
    main()
