"""Every string a student reads in an edition is in that edition's language (issue 21).

The saved outputs of both editions are scanned, and so is every label of every editor the notebooks can
build, in each language. What may stay in the other language: item and query names (神仙水, MAC口红),
the documents and queries of the test collections notebook 17 evaluates (their data, written in English like
Cranfield's), text the course quotes from a document (inside “…”, 「…」 or "…"), code (``<code>``, keywords a sheet asks a
student to type) and formulas. The Chinese edition may name a metric by its English abbreviation or name in
parentheses (NDCG, "reciprocal rank" beside 倒数排名) where the glossary does; what it must not hold is an
English sentence: function words such as "the", "of", "is" outside code, quotes and formulas.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from ltr_teach.core.glossary import TERMS
from ltr_teach.core.i18n import using_language
from ltr_teach.interactive.plots import _PLOTTERS as PLOTTED
from ltr_teach.metrics.registry import METRICS
from ltr_teach.runs.collection import load as load_collection
from ltr_teach.teaching.examples import ERRATA, WORKED_EXAMPLES
from ltr_teach.widgets import RankingEditor

ROOT = Path(__file__).resolve().parent.parent

#: English words that only a sentence has: a metric's name or an item never contains them
FUNCTION_WORDS = re.compile(r"\b(the|of|and|is|are|to|in|for|with|not|which|this|that|or|from|by|as|at|be)\b",
                            re.IGNORECASE)
#: A keyword a student types or a preset's setting (from_zero, not-real, exp2): code, not a sentence
IDENTIFIER = re.compile(r"\b[A-Za-z]+(?:[_-][A-Za-z0-9]+)+\b")
#: The glossary's Chinese terms: an English edition that prints one glosses a term in the other language
GLOSSARY_ZH = sorted({t.zh for t in TERMS.values()} | {a for t in TERMS.values() for a in t.alternatives}, key=len,
                     reverse=True)
QUOTED = re.compile(r"“[^”]*”|「[^」]*」|\"[^\"]*\"|‘[^’]*’|'[^'\n]*'")
CODE_OR_FORMULA = re.compile(r"<code>.*?</code>|`[^`]*`|\$\$.*?\$\$|\$[^$]*\$|\\\(.*?\\\)", re.DOTALL)
#: The one output that lists the glossary itself in both languages (notebook 00's table of terms)
GLOSSARY_TABLE = "glossary_table()"


def _visible_text(output: dict) -> str:
    data = output.get("data", {})
    text = "".join(data["text/html"]) if "text/html" in data else "".join(data.get("text/plain", output.get("text",
                                                                                                          "")))
    text = re.sub(r"<style.*?</style>|<script.*?</script>", " ", text, flags=re.DOTALL)
    text = CODE_OR_FORMULA.sub(" ", text)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    return QUOTED.sub(" ", text)


def _outputs(language: str):
    for folder in ("notebooks", "exercises"):
        for path in sorted((ROOT / folder / language).glob("*.ipynb")):
            notebook = json.loads(path.read_text(encoding="utf-8"))
            for number, cell in enumerate(notebook["cells"]):
                if cell["cell_type"] != "code" or GLOSSARY_TABLE in "".join(cell["source"]):
                    continue
                for output in cell.get("outputs", ()):
                    yield f"{path.relative_to(ROOT)} cell {number}", _visible_text(output)


#: What the documents wrote, as the errata quote it: a Chinese edition quotes a document's English as it stands
DOCUMENT_TEXT = " ".join(f"{e.where} {e.printed}" for e in ERRATA)
#: The test collection's own text (notebook 17 prints its queries and a document): data, not the edition's words
_SAMPLE = load_collection("sample")
DOCUMENT_TEXT += " " + " ".join([*_SAMPLE.docs.values(), *_SAMPLE.queries.values()])
#: Notebook 17's real collection (English case reports and trials, in both editions) and its name and source line
_TRIALS = load_collection("clinical-trials")
DOCUMENT_TEXT += " " + " ".join([*_TRIALS.docs.values(), *_TRIALS.queries.values()])


def _english_sentences(text: str) -> list:
    """Runs of two or more Latin words holding a function word: an English phrase, not a name or a quotation."""
    found = []
    for run in re.finditer(r"[A-Za-z][A-Za-z']*(?:[ ,]+[A-Za-z][A-Za-z']*)+", IDENTIFIER.sub(" ", text)):
        if FUNCTION_WORDS.search(run.group(0)) and run.group(0) not in DOCUMENT_TEXT:
            found.append(run.group(0))
    return found


CJK_RUN = re.compile(r"[\u4e00-\u9fff][\u4e00-\u9fff0-9A-Za-z]*")
#: Chinese an English edition shows on purpose: the documents' words that the errata discuss, and the names
#: of the documents' queries and items (查询1 MAC口红)
QUOTED_CHINESE = {run for record in ERRATA for field in (record.where, record.printed, record.correct,
                                                         record.explanation)
                  for run in CJK_RUN.findall(str(field))} | \
                 {run for example in WORKED_EXAMPLES for field in (example.title, example.items, example.queries)
                  for run in CJK_RUN.findall(str(field))}


def _glossary_terms(text: str) -> list:
    """The glossary's Chinese terms in runs of Chinese that are neither a document's words nor a name."""
    return [term for run in CJK_RUN.findall(text) if run not in QUOTED_CHINESE
            for term in GLOSSARY_ZH if term in run]


def test_the_chinese_edition_prints_no_english_sentence():
    leaks = [(where, phrase) for where, text in _outputs("zh") for phrase in _english_sentences(text)]
    assert not leaks, leaks[:20]


def test_the_english_edition_prints_no_chinese_term():
    leaks = [(where, term) for where, text in _outputs("en") for term in _glossary_terms(text)]
    assert not leaks, leaks[:20]


def _editor_labels(editor) -> list:
    """Every text of an editor's widgets a student reads: descriptions, option labels, titles, tooltips."""
    import ipywidgets as W

    texts, todo = [], [editor.widget]
    while todo:
        widget = todo.pop()
        todo.extend(getattr(widget, "children", ()))
        for attribute in ("description", "tooltip", "placeholder"):
            texts.append(getattr(widget, attribute, "") or "")
        if isinstance(widget, W.HTML | W.Label):
            texts.append(_visible_text({"data": {"text/html": widget.value}}))
        texts.extend(getattr(widget, "_options_labels", ()))
    return texts


EDITED = sorted(name for name, info in METRICS.items() if info.takes in ("grades", "rels") and name in PLOTTED)
ITEMS = ["MAC口红", "神仙水", "兰蔻粉水", "面膜"]
GRADES = {name: [3, 2, 0, 1] if METRICS[name].takes == "grades" else [1, 0, 1, 0] for name in EDITED}


@pytest.mark.parametrize("metric", EDITED)
def test_every_editor_label_is_in_the_editions_language(metric):
    with using_language("zh"):
        zh_texts = _editor_labels(RankingEditor(ITEMS, GRADES[metric], metric))
    with using_language("en"):
        en_texts = _editor_labels(RankingEditor(ITEMS, GRADES[metric], metric))
    assert not [phrase for text in zh_texts for phrase in _english_sentences(QUOTED.sub(" ", text))]
    assert not [term for text in en_texts for term in _glossary_terms(text)]


@pytest.mark.parametrize("metric", sorted(name for name, info in METRICS.items() if info.takes in ("grades", "rels")))
def test_a_formula_reads_in_chinese(metric):
    from ltr_teach.core.explanation import formula_tex

    info = METRICS[metric]
    kwargs = {key: value for key, value in {"k": 2, "g_max": 3}.items() if key in info.options}  # some require them
    explanation = info.func([3, 2, 0, 1] if info.takes == "grades" else [1, 0, 1, 0], **kwargs)
    with using_language("zh"):
        words = re.findall(r"\\text\{([^{}]*)\}", formula_tex(explanation.formula))
    assert not [w for w in words if re.search(r"[A-Za-z]{3,}", w) and w != "interp"], words
