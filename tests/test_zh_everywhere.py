"""Under ``lt.set_language("zh")`` nothing the library shows is an English sentence: every erratum card, every
worked-example card, every teaching table, the run comparison (``lt.compare_runs`` and ``ltr-teach compare``),
``ltr-teach eval``'s warnings and every plot's texts. English is allowed only as code, names and metric
abbreviations (:func:`ltr_teach.core.glossary.english_sentences`, whose names list is
:data:`ltr_teach.core.glossary.NAMES_IN_ENGLISH`).

Each surface is also rendered in English and must contain English there (so a test that finds nothing in
Chinese is not a test that could never find anything)."""

import matplotlib

matplotlib.use("Agg")

import pytest
from matplotlib.figure import Figure

import ltr_teach as lt
from ltr_teach.core.glossary import english_sentences
from ltr_teach.core.i18n import using_language
from ltr_teach.interactive import panels, plots
from ltr_teach.interactive.widgets import erratum_card, example_card
from ltr_teach.teaching import examples, tables

QRELS = {"q1": {"a": 1, "b": 0}, "q2": {"a": 1, "b": 1}, "q3": {"b": 1}, "q4": {"a": 2, "c": 1}}
RUNS = {"A": {"q1": {"a": 1.0, "b": 2.0}, "q2": {"a": 2.0, "b": 1.0}, "q3": {"a": 1.0, "b": 0.5},
              "q4": {"c": 2.0, "a": 1.0}},
        "B": {"q1": {"a": 2.0, "b": 1.0}, "q2": {"a": 2.0, "b": 1.0}, "q3": {"b": 1.0, "a": 0.5},
              "q4": {"a": 2.0, "c": 1.0}},
        "C": {"q1": {"a": 2.0, "b": 1.0}, "q2": {"a": 2.0, "b": 1.0}, "q4": {"a": 2.0}}}


def _html_text(markup: str) -> str:
    import html
    import re
    markup = re.sub(r"<code>.*?</code>", " ", markup, flags=re.DOTALL)  # code stays code
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def _card_text(card) -> str:
    """A card's text without its "computed by" row (that row is a line of code)."""
    title, rows, verdict = card._shown()
    return "\n".join([title, *(v for k, v in rows if k not in ("computed by", "计算方式")), verdict,
                      *(k for k, _ in rows)])


def _figure_texts(ax) -> str:
    texts = [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
    texts += [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
    texts += [label for label in ax.get_legend_handles_labels()[1]]
    texts += [getattr(ax.figure, "ltr_alt_text", "")]
    return "\n".join(texts)


def _plot(ex, names=None):
    return lambda: _figure_texts(plots.plot_explanation(ex, ax=Figure().add_subplot(), names=names))


PLOTTED = {
    "ndcg": lambda: lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7), "dcg": lambda: lt.dcg([3, 2, 3]),
    "cg": lambda: lt.cg([3, 2, 3]), "err": lambda: lt.err([3, 2, 3, 1], g_max=3),
    "ap": lambda: lt.average_precision([1, 0, 1, 0]), "rr": lambda: lt.reciprocal_rank([0, 1, 0]),
    "p": lambda: lt.precision_at_k([1, 0, 1], k=3), "r": lambda: lt.recall_at_k([1, 0, 1], k=3, n_relevant=3),
    "mrr": lambda: lt.mrr([[0, 1], [1, 0]]), "map": lambda: lt.mean_average_precision([[0, 1], [1, 0]]),
    "auc": lambda: lt.auc([1, 0, 1, 0], [0.9, 0.8, 0.4, 0.2]),
    "pr": lambda: lt.interpolated_precision([1, 0, 1, 0], n_relevant=2),
}


def _surfaces():
    """(name, function returning the text shown) for every surface the test reads."""
    for e in examples.ERRATA:
        yield f"erratum card {e.id}", lambda e=e: _card_text(erratum_card(e))
        yield f"erratum html {e.id}", lambda e=e: _html_text(panels.erratum_html(e))
    for ex in examples.WORKED_EXAMPLES:
        yield f"example card {ex.id}", lambda ex=ex: _card_text(example_card(ex))
    yield "errata text (ltr-teach errata)", examples.format_errata
    yield "examples text", examples.format_examples
    for doc in examples.DOCUMENTS:
        yield f"errata panel {doc}", lambda doc=doc: _html_text(panels.errata_panel(doc)._repr_html_())
    ids = [ex.id for ex in examples.WORKED_EXAMPLES]
    yield "examples_table", lambda: str(tables.examples_table(*ids))
    yield "ndcg_cutoffs", lambda: str(tables.ndcg_cutoffs([3, 2, 3, 0, 1, 2, 2, 0]))
    yield "ndcg_cutoffs html", lambda: _html_text(tables.ndcg_cutoffs([0, 0, 1, 2])._repr_html_())
    yield "documents_table", lambda: str(tables.documents_table())
    comparison = lambda: lt.compare_runs(QRELS, RUNS, "ndcg@10")
    yield "compare_runs", lambda: str(comparison())
    yield "compare_runs html", lambda: _html_text(comparison()._repr_html_())
    for name, make in PLOTTED.items():
        yield f"plot {name}", lambda make=make: _plot(make())()
    yield "plot run differences", lambda: _figure_texts(plots.plot_run_differences(comparison(),
                                                                                   ax=Figure().add_subplot()))


def _cli(*args) -> str:
    """What ``ltr-teach --lang LANG ARGS`` prints in the current language, stdout then stderr."""
    import contextlib
    import io

    from ltr_teach import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        cli.main(["--lang", lt.get_language(), *args])
    return out.getvalue() + err.getvalue()


def _trec_files(folder):
    """QRELS and RUNS as TREC files; run C lacks q3 (a warning of eval, a note of compare)."""
    qrels = folder / "qrels.txt"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items()), encoding="utf-8")
    runs = []
    for name, run in RUNS.items():
        path = folder / f"{name}.run"
        path.write_text("".join(f"{q} Q0 {d} {r} {s} {name}\n" for q, docs in run.items()
                                for r, (d, s) in enumerate(sorted(docs.items(), key=lambda x: -x[1]), 1)),
                        encoding="utf-8")
        runs.append(str(path))
    return str(qrels), runs


def _cli_surfaces():
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp(prefix="ltr-zh-"))
    qrels, runs = _trec_files(folder)
    yield "ltr-teach errata", lambda: _cli("errata")
    yield "ltr-teach conventions", lambda: _cli("conventions")
    yield "ltr-teach examples", lambda: _cli("examples")
    yield "ltr-teach compare", lambda: _cli("compare", qrels, *runs, "-m", "ndcg@10", "-m", "mrr", "--per-query")
    yield "ltr-teach eval (warnings)", lambda: _cli("eval", qrels, runs[2], "-m", "ndcg@10").split("all")[-1]


SURFACES = dict(_surfaces())
SURFACES.update(_cli_surfaces())


@pytest.mark.parametrize("name", list(SURFACES))
def test_no_english_sentence_under_zh(name):
    with using_language("zh"):
        text = SURFACES[name]()
    assert not english_sentences(text), f"{name} shows English under zh: {english_sentences(text)}\n{text}"



@pytest.mark.parametrize("name", [n for n in SURFACES if n.startswith(("erratum card", "compare_runs", "ltr-teach e"))])
def test_the_same_surface_is_english_under_en(name):
    # the detector finds what is there: in English each of these shows English sentences
    with using_language("en"):
        text = SURFACES[name]()
    assert english_sentences(text), name
