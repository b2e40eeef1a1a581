"""Issue 11, widgets: a refused change leaves every editor as it was, integer query keys, a bounded
max_grade, and large editors that stay usable (their speed is measured in benchmarks/bench_widgets.py)."""

from __future__ import annotations

import pytest
import sympy
from matplotlib.figure import Figure

import ltr_teach as lt
from ltr_teach.interactive.plots import NAMED_TICKS_UP_TO, render_png
from ltr_teach.widgets import MultiQueryEditor, RankingEditor


def state(editor):
    return editor.items, editor.grades, editor.options, editor.explanation.exact, editor.table.value


def test_a_shared_option_another_query_refuses_changes_nothing():
    ed = MultiQueryEditor({"q1": (["a", "b"], [1, 0]), "q2": (["c", "d"], [0, 0])}, metric="ndcg")
    before = {q: state(e) for q, e in ed.editors.items()}, ed.explanation.exact
    # q2 has no relevant item, so zero='raise' makes its NDCG an error: the change must not happen anywhere
    with pytest.raises(ValueError, match=r"query 'q2' cannot take this change: IDCG is 0"):
        ed.editors["q1"].set_option("zero", "raise")
    assert ({q: state(e) for q, e in ed.editors.items()}, ed.explanation.exact) == before
    assert ed.explanation.exact == sympy.Rational(1, 2)       # (NDCG 1 + NDCG 0) / 2
    ed.editors["q1"].set_option("zero", "one")                 # an accepted change still reaches every tab
    assert ed.editors["q2"].options["zero"] == "one" and ed.explanation.exact == 1


def test_a_failing_listener_leaves_the_editor_as_it_was():
    ed = RankingEditor(["a", "b", "c"], [3, 2, 0])
    before = state(ed)

    def refuse(_editor):
        raise ValueError("refused by a listener")

    ed.on_change(refuse)
    with pytest.raises(ValueError, match="refused by a listener"):
        ed.move(2, 0)
    assert state(ed) == before


def test_integer_query_keys_work_like_lt_mrr():
    queries = {1: (["a", "b"], [0, 1]), 2: (["c", "d", "e"], [0, 0, 1])}
    ed = MultiQueryEditor(queries)
    assert ed.explanation.exact == lt.mrr({1: [0, 1], 2: [0, 0, 1]}).exact == sympy.Rational(5, 12)  # (1/2 + 1/3)/2
    ed.editors[2].move(2, 0)
    assert ed.explanation.exact == sympy.Rational(3, 4)                                            # (1/2 + 1)/2


def test_query_keys_alike_as_text_are_refused():
    with pytest.raises(ValueError, match=r"queries has two queries named '1'"):
        MultiQueryEditor({1: (["a"], [1]), "1": (["b"], [0])})


def test_max_grade_is_bounded_up_front():
    with pytest.raises(ValueError, match=r"max_grade = 1000000000 is above 1000"):
        RankingEditor(["a", "b"], [1, 0], max_grade=10**9)
    ed = RankingEditor(["a", "b"], [1, 0], max_grade=1000)
    ed.set_grade(1, 1000)      # now the top grade is accepted: grades 1 and 1000 in the wrong order
    assert ed.explanation.exact == (1 + (2**1000 - 1) / lt.log2(3)) / (2**1000 - 1 + 1 / lt.log2(3))
    with pytest.raises(ValueError, match=r"max_grade = 5 is above g_max = 3"):
        RankingEditor(["a", "b"], [1, 0], metric="err", g_max=3, max_grade=5)


def test_a_refused_grade_leaves_the_editor_as_it_was():
    ed = RankingEditor(["a", "b"], [1, 0], metric="err", g_max=2)
    before = state(ed)
    for bad in (3, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match=r"grade g = .* must be a whole number 0..2"):
            ed.set_grade(0, bad)
        assert state(ed) == before


def test_a_200_item_editor_labels_a_few_ranks():
    names = [f"item {i}" for i in range(200)]
    ed = RankingEditor(names, [i % 4 for i in range(200)])
    ed.set_grade(0, 0)
    ed.move(199, 0)
    ax = ed._figure.axes[0]
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert 2 <= len(labels) <= 12 and all(label.isdigit() for label in labels)
    assert ax.get_xlabel() == "rank"
    expected = [3] + [i % 4 for i in range(199)]     # item 199 (grade 199 % 4 = 3) moved to the top
    assert ed.grades == tuple(expected) and ed.items[0] == "item 199"
    assert ed.explanation.exact == lt.ndcg(expected).exact


@pytest.mark.parametrize("n", [NAMED_TICKS_UP_TO, NAMED_TICKS_UP_TO + 1])
def test_in_place_redraw_matches_a_fresh_drawing_also_for_long_rankings(n):
    import io

    import numpy as np
    from PIL import Image

    names = [f"n{i}" for i in range(n)]
    before = lt.average_precision([i % 2 for i in range(n)])
    after = lt.average_precision([(i // 2) % 2 for i in range(n)])    # other hits: bars change colour
    reused = Figure(figsize=(7, 3.6), dpi=80)
    render_png(before, names=names, figure=reused, legend=False)
    redrawn = render_png(after, names=names, figure=reused, legend=False)
    fresh = render_png(after, names=names, legend=False)
    pixels = [np.asarray(Image.open(io.BytesIO(png)).convert("RGB")) for png in (redrawn, fresh)]
    assert (pixels[0] != pixels[1]).any(axis=2).sum() == 0


@pytest.mark.parametrize("metric", ["ndcg", "average_precision", "err"])
def test_a_move_redraws_the_names_like_a_fresh_drawing(metric):
    # a move reuses the cached axes without the x axis and draws the new names over it
    import io

    import numpy as np
    from PIL import Image

    names = ["小棕瓶眼霜", "MAC口红", "神仙水", "兰蔻粉水", "芦荟霜"]
    grades = [1, 0, 1, 1, 0] if metric == "average_precision" else [3, 0, 2, 1, 0]
    ed = RankingEditor(names, grades, metric=metric)
    for i, j in ((4, 0), (1, 3), (0, 4), (2, 2)):
        ed.move(i, j)
        fresh = render_png(ed.explanation, names=list(ed.items), legend=False)
        pixels = [np.asarray(Image.open(io.BytesIO(png)).convert("RGB")) for png in (ed.plot.value, fresh)]
        assert (pixels[0] != pixels[1]).any(axis=2).sum() == 0


@pytest.mark.parametrize("explain", [
    lambda: lt.cg([1e308, 1e308]),                                  # a sum beyond the float range
    lambda: lt.dcg([1.7e308] * 2, gain="linear"),
    lambda: lt.ndcg([1.3e308, 0, 1.2e308], gain="linear", discount="ln"),
    lambda: lt.ndcg([5e-324, 0, 5e-324], gain="linear"),           # subnormal heights
    lambda: lt.err([1] * 15, g_max=1000),                          # probabilities near 1e-301
], ids=["cg-2e308", "dcg-huge", "ndcg-huge", "ndcg-subnormal", "err-tiny"])
def test_plots_of_extreme_values_render(explain):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # matplotlib warns about the clipped huge bars
        png = render_png(explain())
    assert png.startswith(b"\x89PNG")
