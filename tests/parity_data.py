"""Seeded random qrels and runs for the parity tests: ties, unjudged documents, relevant documents
never retrieved, all-zero queries and short lists (so that k runs beyond the list)."""

import random


def random_collection(seed: int, n_queries: int = 300, max_grade: int = 4, tie_prone: bool = True):
    """``(qrels, run)`` as dicts with numeric-string query ids (gdeval via ir_measures needs them).

    Scores take few distinct values when ``tie_prone`` (many ties), else distinct random floats.
    Document ids mix lengths ("d7", "d12", "d100") so that string order differs from numeric order.
    """
    rng = random.Random(seed)
    qrels, run = {}, {}
    for q in range(1, n_queries + 1):
        qid = str(q)
        docs = [f"d{n}" for n in rng.sample(range(1, 200), 30)]
        judged = docs[: rng.randint(1, 12)]
        kind = rng.random()
        if kind < 0.1:
            grades = [0] * len(judged)                   # a query with no relevant document
        else:
            grades = [rng.randint(0, max_grade) for _ in judged]
        qrels[qid] = dict(zip(judged, grades))
        retrieved = rng.sample(docs, rng.randint(1, 15))  # unjudged docs, some judged never retrieved
        if tie_prone:
            scores = [rng.randint(0, 6) / 4 for _ in retrieved]
        else:
            scores = [rng.random() for _ in retrieved]
        run[qid] = dict(zip(retrieved, scores))
    return qrels, run


def split(qrels, run, qid):
    """One query's retrieved docids, scores, grades (0 if unjudged) and judged pool."""
    docids = list(run[qid])
    scores = [run[qid][d] for d in docids]
    grades = [qrels[qid].get(d, 0) for d in docids]
    return docids, scores, grades, list(qrels[qid].values())
