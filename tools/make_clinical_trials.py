"""Build ``ltr_teach/runs/data/clinical_trials/`` from BIRCO's Clinical-Trial task (how the shipped files were made).

Usage::

    python tools/make_clinical_trials.py dev_set.pickle test_set.pickle

The two files are ``datasets/clinical-trial/dev_set.pickle`` and ``test_set.pickle`` of the BIRCO repository
(github.com/BIRCO-benchmark/BIRCO, dataset licence CC BY-NC 4.0; see the LICENSE.md this writes). A pickle can
run code when it is loaded, so this reads them with an unpickler that refuses every class and function: BIRCO's
files hold only dicts and strings. Both sets are merged (59 topics, 3,625 trials, every judgment kept); the
texts are written unchanged, one trial per line.
"""

import gzip
import pickle
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "ltr_teach" / "runs" / "data" / "clinical_trials"


class _OnlyData(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refused {module}.{name}: the file must hold plain data only")


def _topic_order(qid: str):
    """TREC CDS topics are ids like 20151 (year 2015, topic 1): year first, then the topic number."""
    return qid[:4], int(qid[4:])


def main(paths):
    queries, corpus, qrels = {}, {}, {}
    for path in paths:
        with open(path, "rb") as file:
            data = _OnlyData(file).load()
        for qid, text in data["query"].items():
            if qid in queries:
                raise SystemExit(f"{path}: topic {qid} is in two sets")
            queries[qid] = text
        for docid, text in data["corpus"].items():
            if corpus.get(docid, text) != text:
                raise SystemExit(f"{path}: trial {docid} has two different texts")
            corpus[docid] = text
        qrels.update({qid: dict(judged) for qid, judged in data["qrel"].items()})
    for text in [*queries.values(), *corpus.values()]:
        if "\t" in text or "\n" in text:
            raise SystemExit("a text holds a tab or a newline: the one-line layout would change it")
    OUT.mkdir(parents=True, exist_ok=True)
    order = sorted(queries, key=_topic_order)
    (OUT / "topics.tsv").write_text("".join(f"{q}\t{queries[q]}\n" for q in order), encoding="utf-8")
    (OUT / "qrels.txt").write_text("".join(f"{q} 0 {d} {g}\n" for q in order for d, g in sorted(qrels[q].items())),
                                   encoding="utf-8")
    lines = "".join(f"{d}\t{corpus[d]}\n" for d in sorted(corpus)).encode("utf-8")
    with open(OUT / "trials.tsv.gz", "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9,
                                                                   mtime=0, filename="") as out:
        out.write(lines)  # mtime 0 and no file name: the same input gives the same bytes
    print(f"{len(queries)} topics, {len(corpus)} trials, {sum(map(len, qrels.values()))} judgments -> {OUT}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["dev_set.pickle", "test_set.pickle"])
