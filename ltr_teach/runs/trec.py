"""Reading and writing TREC qrels and run files.

qrels: one judgment a line, ``qid iter docid grade`` (the ``iter`` column is ignored, as by
trec_eval). run: one retrieved document a line, ``qid Q0 docid rank score tag``; trec_eval ignores
the rank column and orders by score, and so does :func:`ltr_teach.runs.evaluate`.
"""

from __future__ import annotations

import math
import os


def _records(path, what: str, layout: str):
    """``(where, fields)`` for each non-blank line, ``where`` being ``file:line``; every line must have
    the fields of ``layout`` (``"qid iter docid grade"``)."""
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"{what} must be a dict or the path of a TREC {what} file; got {type(path).__name__}")
    try:
        handle = open(path, encoding="utf-8")  # noqa: SIM115 - closed by the with below; only open() is guarded
    except OSError as exc:
        raise ValueError(f"{what} = {os.fspath(path)!r} cannot be read: {exc.strerror}") from None
    n_fields = len(layout.split())
    with handle:
        for number, line in enumerate(handle, start=1):
            fields = line.split()
            if not fields:
                continue
            where = f"{os.fspath(path)}:{number}"
            if len(fields) != n_fields:
                raise ValueError(f"{where}: a {what} line has {n_fields} fields ({layout}); got {len(fields)}")
            yield where, fields


def _number(text: str, where: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{where}: {what} {text!r} is not a number") from None
    if math.isnan(value) or math.isinf(value):
        raise ValueError(f"{where}: {what} {text!r} must be a finite number")
    return value


def read_qrels(path) -> dict:
    """``{qid: {docid: grade}}`` from a qrels file (``qid iter docid grade``); grades are ints.

    A repeated (qid, docid) pair or a malformed line raises ``ValueError`` naming the file and line.
    """
    qrels: dict = {}
    for where, fields in _records(path, "qrels", "qid iter docid grade"):
        qid, _, docid, grade = fields
        try:
            value = int(grade)
        except ValueError:
            raise ValueError(f"{where}: grade {grade!r} is not a whole number") from None
        judged = qrels.setdefault(qid, {})
        if docid in judged:
            raise ValueError(f"{where}: document {docid!r} is judged twice for query {qid!r}")
        judged[docid] = value
    return qrels


def read_run(path) -> dict:
    """``{qid: {docid: score}}`` from a run file (``qid Q0 docid rank score tag``), in file order.

    A document retrieved twice for one query (trec_eval refuses it too) or a malformed line raises
    ``ValueError`` naming the file and line.
    """
    run: dict = {}
    for where, fields in _records(path, "run", "qid Q0 docid rank score tag"):
        qid, _, docid, _, score, _ = fields
        ranked = run.setdefault(qid, {})
        if docid in ranked:
            raise ValueError(f"{where}: document {docid!r} is retrieved twice for query {qid!r}")
        ranked[docid] = _number(score, where, "score")
    return run


def write_qrels(qrels: dict, path) -> None:
    """Write ``{qid: {docid: grade}}`` as a qrels file."""
    with open(path, "w", encoding="utf-8") as out:
        for qid, judged in qrels.items():
            for docid, grade in judged.items():
                out.write(f"{qid} 0 {docid} {grade}\n")


def write_run(run: dict, path, tag: str = "ltr_teach") -> None:
    """Write ``{qid: {docid: score}}`` as a run file, each query's documents by score descending."""
    with open(path, "w", encoding="utf-8") as out:
        for qid, scored in run.items():
            ranked = sorted(scored.items(), key=lambda item: -item[1])
            for rank, (docid, score) in enumerate(ranked, start=1):
                out.write(f"{qid} Q0 {docid} {rank} {score!r} {tag}\n")


__all__ = ["read_qrels", "read_run", "write_qrels", "write_run"]
