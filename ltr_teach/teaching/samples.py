"""A small made-up test collection for the notebooks: ten skincare queries, four rankers.

The documents' examples have one or two queries each; comparing two rankers needs many. This
collection is invented (the query names follow post 000's 口红 and 面霜 queries), small enough to
read whole: each query has eight judged documents ``a`` .. ``h`` with grades 0..3, and each run ranks
all eight. ``base`` is the baseline; ``A`` is a new ranker that helps on most queries and hurts on two;
``B`` swaps the baseline's first two and its fourth and fifth documents; ``C`` is ``A`` with one
neighbouring pair of its top five swapped. Notebook 11 compares them.

>>> qrels, runs = skincare_collection()
>>> len(qrels), sorted(runs)
(10, ['A', 'B', 'C', 'base'])
>>> qrels["口红"]["口红-a"], runs["base"]["口红"]["口红-a"]   # grade 3, ranked first (the highest score)
(3, 8.0)
"""

from __future__ import annotations

#: query: (grades of documents a..h, then each run's order of the eight documents, rank 1 first)
SKINCARE = {
    "口红": ("3 0 2 0 1 0 0 2", {"base": "abdfhceg", "A": "acbhdefg", "B": "badhfceg", "C": "acbdhefg"}),
    "面霜": ("2 1 0 3 0 1 0 0", {"base": "abcfeghd", "A": "adbfcegh", "B": "bacefghd", "C": "adbcfegh"}),
    "眼霜": ("0 0 3 0 1 0 2 0", {"base": "abcdefgh", "A": "acgebdfh", "B": "bacedfgh", "C": "acgbedfh"}),
    "粉底液": ("1 2 0 1 3 0 0 1", {"base": "abdehcfg", "A": "cbaedfgh", "B": "badhecfg", "C": "cabedfgh"}),
    "防晒霜": ("2 0 0 1 0 0 0 0", {"base": "adbcefgh", "A": "dabcefgh", "B": "dabecfgh", "C": "dbacefgh"}),
    "香水": ("0 0 0 0 1 0 2 0", {"base": "eabcdfgh", "A": "aegbcdfh", "B": "aebdcfgh", "C": "aegcbdfh"}),
    "洗面奶": ("1 0 2 1 0 2 1 0", {"base": "acbdefgh", "A": "bcfadgeh", "B": "cabedfgh", "C": "bfcadgeh"}),
    "精华液": ("0 2 0 0 1 0 0 0", {"base": "aebdcfgh", "A": "bacdefgh", "B": "eabcdfgh", "C": "abcdefgh"}),
    "面膜": ("0 0 0 0 0 0 0 1", {"base": "abcdefgh", "A": "abhcdefg", "B": "bacedfgh", "C": "abhdcefg"}),
    "卸妆水": ("1 0 1 0 2 0 0 0", {"base": "acebdfgh", "A": "aecbdfgh", "B": "caedbfgh", "C": "aebcdfgh"}),
}


def skincare_collection(runs=("base", "A", "B", "C")) -> tuple[dict, dict]:
    """The collection as ``qrels`` and ``{run name: run}``, ready for ``lt.compare_runs`` or ``lt.evaluate``.

    Parameters
    ----------
    runs : sequence of str
        Which runs, in this order (the first is the baseline of ``lt.compare_runs``).

    Returns
    -------
    qrels : dict
        ``{query: {docid: grade}}``; document ``x`` of query 口红 is ``"口红-x"``.
    runs : dict
        ``{name: {query: {docid: score}}}``: rank 1 scores 8, rank 8 scores 1 (no ties).

    Examples
    --------
    The baseline ranks 口红's documents a, b, d, f, h: grades 3, 0, 0, 0, 2 in its top five.

    >>> qrels, runs = skincare_collection(["base"])
    >>> top = sorted(runs["base"]["口红"], key=runs["base"]["口红"].get, reverse=True)[:5]
    >>> [qrels["口红"][d] for d in top]
    [3, 0, 0, 0, 2]
    """
    names = list(runs)
    unknown = [n for n in names if n not in SKINCARE["口红"][1]]
    if unknown or not names:
        raise ValueError(f"runs must name some of 'base', 'A', 'B', 'C'; got {runs!r}")
    qrels = {}
    out = {name: {} for name in names}
    for query, (grades, orders) in SKINCARE.items():
        qrels[query] = {f"{query}-{doc}": int(g) for doc, g in zip("abcdefgh", grades.split())}
        for name in names:
            order = orders[name]
            out[name][query] = {f"{query}-{doc}": float(len(order) - i) for i, doc in enumerate(order)}
    return qrels, out


__all__ = ["SKINCARE", "skincare_collection"]
