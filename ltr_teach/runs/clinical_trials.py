"""The real test collection notebook 17 evaluates: patients, the clinical trials they could join, and doctors' judgments.

59 patient case reports (the TREC Clinical Decision Support topics of 2014 and 2015), 3,625 trial descriptions
from ClinicalTrials.gov and 3,844 judgments graded 0 to 2 by medical professionals (Koopman & Zuccon, SIGIR
2016), as BIRCO's Clinical-Trial task packages them. The files are in ``runs/data/clinical_trials/``, licensed
CC BY-NC 4.0 (non-commercial; ``LICENSE.md`` beside them says what was changed). Every topic is searched against
all the trials, so a trial judged only for another patient is unjudged for this one.

A topic id is its year and number, ``"20141"`` to ``"201530"``: :func:`topic_year` reads the year, which splits
the topics into the 2014 ones (to tune a ranker on) and the 2015 ones (to report on).

>>> parts = read_clinical_trials()
>>> len(parts["queries"]), len(parts["docs"]), sum(len(j) for j in parts["qrels"].values())
(59, 3625, 3844)
>>> [topic_year(q) for q in ("20141", "201530")]
['2014', '2015']
"""

from __future__ import annotations

import gzip
import io
import os
from pathlib import Path

from ..core.files import NotARegularFile, read_bytes_at_most
from ..core.i18n import _

FOLDER = Path(__file__).parent / "data" / "clinical_trials"

#: The topics, the trials (gzip) and the judgments, in that order.
FILES = ("topics.tsv", "trials.tsv.gz", "qrels.txt")

#: The most bytes any of the files may hold, packed or unpacked (the trials unpack to 4.3 MB): a damaged or
#: replaced file that would unpack to more is refused rather than read into memory.
MAX_BYTES = 16 * 2**20

#: The years the topics come from: tune on the first, report on the second.
YEARS = ("2014", "2015")


def topic_year(qid: str) -> str:
    """The TREC year of topic ``qid`` (its first four digits).

    >>> topic_year("201415")
    '2014'
    """
    if not isinstance(qid, str) or len(qid) < 5 or not qid.isdigit() or qid[:4] not in YEARS:
        raise ValueError(f"qid = {qid!r} is not a topic of this collection; topics are 20141 to 201530")
    return qid[:4]


def _missing() -> ValueError:
    return ValueError(_("the clinical-trials collection is not installed here ({folder} lacks its files; the folder is "
                        "CC BY-NC 4.0 and may have been left out of a commercial copy); load('sample') works "
                        "everywhere").format(folder=os.fspath(FOLDER)))


def _bytes(name: str) -> bytes:
    try:
        data = read_bytes_at_most(FOLDER / name, MAX_BYTES)
    except (NotARegularFile, FileNotFoundError):
        raise _missing() from None
    if len(data) > MAX_BYTES:
        raise ValueError(f"{FOLDER / name} has more than {MAX_BYTES:,} bytes: it is not the shipped file")
    return data


def _unpacked(name: str) -> bytes:
    """A gzip file's content, read up to :data:`MAX_BYTES` (a small file that unpacks to gigabytes is refused)."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(_bytes(name))) as packed:
            data = packed.read(MAX_BYTES + 1)
    except (OSError, EOFError) as error:
        raise ValueError(f"{FOLDER / name} is not a readable gzip file: {error}") from None
    if len(data) > MAX_BYTES:
        raise ValueError(f"{FOLDER / name} unpacks to more than {MAX_BYTES:,} bytes: it is not the shipped file")
    return data


def _two_columns(data: bytes, name: str) -> dict:
    """``{id: text}`` from lines ``id <TAB> text`` (UTF-8)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{FOLDER / name} is not UTF-8 text (byte {error.start})") from None
    records: dict = {}
    for number, line in enumerate(text.splitlines(), start=1):
        key, tab, value = line.partition("\t")
        if not tab or not key or not value.strip():
            raise ValueError(f"{FOLDER / name}, line {number}: expected an id, a tab and a text")
        if key in records:
            raise ValueError(f"{FOLDER / name}, line {number}: {key} appears twice")
        records[key] = value
    return records


def read_clinical_trials() -> dict:
    """The collection's parts: ``name``, ``docs``, ``queries``, ``qrels`` and ``source``, the fields of the
    :class:`~ltr_teach.runs.collection.Collection` that ``load("clinical-trials")`` makes of them."""
    from .trec import read_qrels

    queries = _two_columns(_bytes(FILES[0]), FILES[0])
    docs = _two_columns(_unpacked(FILES[1]), FILES[1])
    if not (FOLDER / FILES[2]).is_file():
        raise _missing()
    qrels = {q: {d: int(g) for d, g in judged.items()} for q, judged in read_qrels(FOLDER / FILES[2]).items()}
    strays = sorted({q for q in qrels if q not in queries} | {d for j in qrels.values() for d in j if d not in docs})
    if strays:
        raise ValueError(f"{FOLDER / FILES[2]} judges {len(strays)} ids the other files lack, e.g. {strays[0]}")
    return {"name": _("clinical trials"), "docs": docs, "queries": queries, "qrels": qrels,
            "source": _("BIRCO's Clinical-Trial task from Koopman & Zuccon (SIGIR 2016): TREC CDS 2014-2015 patients, "
                        "ClinicalTrials.gov trials; CC BY-NC 4.0 (ltr_teach/runs/data/clinical_trials/LICENSE.md)")}


__all__ = ["read_clinical_trials", "topic_year", "FOLDER", "FILES", "YEARS", "MAX_BYTES"]
