"""The shipped real collection (issue 30): its files, its licence, its loader, and hostile copies of its files."""

from __future__ import annotations

import gzip
import os
from collections import Counter
from pathlib import Path

import pytest

from ltr_teach.runs import clinical_trials
from ltr_teach.runs.clinical_trials import FILES, FOLDER, read_clinical_trials, topic_year
from ltr_teach.runs.collection import load

ROOT = Path(__file__).resolve().parent.parent


def _plain_read():
    """The three files read with nothing but the standard library: the loader must agree with this."""
    topics = dict(line.split("\t", 1) for line in (FOLDER / "topics.tsv").read_text(encoding="utf-8").splitlines())
    with gzip.open(FOLDER / "trials.tsv.gz", "rt", encoding="utf-8") as packed:
        trials = dict(line.rstrip("\n").split("\t", 1) for line in packed)
    qrels: dict = {}
    for line in (FOLDER / "qrels.txt").read_text(encoding="utf-8").splitlines():
        qid, _, docid, grade = line.split()
        qrels.setdefault(qid, {})[docid] = int(grade)
    return topics, trials, qrels


def test_the_collection_is_what_the_licence_file_says():
    topics, trials, qrels = _plain_read()
    assert (len(topics), len(trials), sum(map(len, qrels.values()))) == (59, 3625, 3844)
    assert Counter(g for j in qrels.values() for g in j.values()) == {0: 2741, 1: 684, 2: 419}
    licence = (FOLDER / "LICENSE.md").read_text(encoding="utf-8")
    for fact in ("59 patient case reports", "3,625 clinical-trial", "3,844 relevance judgments", "2,741 × 0",
                 "684 × 1", "419 × 2", "CC BY-NC 4.0", "BIRCO", "Koopman", "ClinicalTrials.gov", "non-commercial"):
        assert fact in licence, fact


def test_the_loader_reads_exactly_the_files():
    topics, trials, qrels = _plain_read()
    collection = load("clinical-trials")
    assert collection.queries == topics and collection.docs == trials and collection.qrels == qrels
    assert list(collection.queries)[:2] == ["20141", "20142"]  # the file's order: by year, then topic number


def test_every_judgment_names_a_topic_and_a_trial_and_no_trial_is_unjudged_everywhere():
    topics, trials, qrels = _plain_read()
    assert set(qrels) == set(topics)
    judged = {d for j in qrels.values() for d in j}
    assert judged == set(trials)  # each trial was judged for some patient: the unjudged are another topic's
    assert all(1 in j.values() or 2 in j.values() for j in qrels.values())  # every topic has a relevant trial


def test_the_years_split_the_topics():
    years = Counter(topic_year(q) for q in load("clinical-trials").queries)
    assert years == {"2014": 29, "2015": 30}


@pytest.mark.parametrize("qid", ["2016", "20161", "2014x", "", None, 20141, "２０１４１", " 20141", "20141\n",
                                 "1e999999999"])
def test_topic_year_refuses_what_is_not_a_topic(qid):
    with pytest.raises(ValueError, match="qid = .* is not a topic"):
        topic_year(qid)


# -- hostile copies of the files: the loader reads a folder the course ships, but a damaged install must fail
# -- with a message, never hang or eat the memory
@pytest.fixture
def folder(tmp_path, monkeypatch):
    for name in FILES:
        (tmp_path / name).write_bytes((FOLDER / name).read_bytes())
    monkeypatch.setattr(clinical_trials, "FOLDER", tmp_path)
    return tmp_path


def test_a_missing_folder_says_how_to_go_on(folder):
    (folder / "trials.tsv.gz").unlink()
    with pytest.raises(ValueError, match=r"not installed.*CC BY-NC 4\.0.*load\('sample'\)"):
        read_clinical_trials()


def test_a_small_file_that_unpacks_huge_is_refused(folder, monkeypatch):
    monkeypatch.setattr(clinical_trials, "MAX_BYTES", 2**20)
    (folder / "trials.tsv.gz").write_bytes(gzip.compress(b"\0" * (8 * 2**20)))  # 8 kB packed, 8 MB unpacked
    with pytest.raises(ValueError, match="unpacks to more than"):
        read_clinical_trials()


@pytest.mark.parametrize("content, message", [
    (b"not gzip at all", "not a readable gzip file"),
    (gzip.compress(b"NCT1\ttext\nNCT1\tagain\n"), "NCT1 appears twice"),
    (gzip.compress(b"NCT1 text without a tab\n"), "expected an id, a tab and a text"),
    (gzip.compress(b"NCT1\t\xff\xfe text\n"), "not UTF-8"),
])
def test_a_damaged_trials_file_names_the_problem(folder, content, message):
    (folder / "trials.tsv.gz").write_bytes(content)
    with pytest.raises(ValueError, match=message):
        read_clinical_trials()


def test_judgments_of_unknown_trials_are_refused(folder):
    with open(folder / "qrels.txt", "a", encoding="utf-8") as qrels:
        qrels.write("20141 0 NCT99999999 2\n")
    with pytest.raises(ValueError, match="judges 1 ids the other files lack, e.g. NCT99999999"):
        read_clinical_trials()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs exist on POSIX only")
def test_a_fifo_in_place_of_a_file_does_not_hang(folder):
    (folder / "topics.tsv").unlink()
    os.mkfifo(folder / "topics.tsv")
    with pytest.raises(ValueError, match="not installed"):
        read_clinical_trials()


def test_the_package_data_ships_the_folder():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"runs/data/*/*"' in pyproject
