"""The discount curves of notebook 04: each metric's weight of rank i, exact, and the plot that draws them."""

import math

import pytest
from matplotlib.figure import Figure
from sympy import N, Rational, log

from ltr_teach.core import i18n
from ltr_teach.interactive.plots import RANK_WEIGHT_STYLES, plot_rank_weights, rank_weights_alt, rank_weights_figure
from ltr_teach.metrics.gains import RANK_WEIGHTS, rank_weights


def _same(a, b) -> bool:
    """Equal to 60 significant digits (two forms of one logarithm that SymPy does not simplify to each other)."""
    return abs(N(a - b, 60)) < Rational(1, 10**50)


def test_exact_weights_by_hand():
    w = rank_weights(4, p=Rational(1, 2))
    # DCG: 1/log2(i + 1) = 1, 1/log2 3, 1/2, 1/log2 5
    assert w["log2"][0] == 1 and w["log2"][2] == Rational(1, 2)
    assert _same(w["log2"][1], log(2) / log(3)) and _same(w["log2"][3], log(2) / log(5))
    # Järvelin: ranks 1 and 2 both divide by 1, then log2 3, log2 4 = 2
    assert w["jarvelin"][:2] == (1, 1) and w["jarvelin"][3] == Rational(1, 2)
    assert _same(w["jarvelin"][2], log(2) / log(3))
    # 1/i
    assert w["reciprocal"] == (1, Rational(1, 2), Rational(1, 3), Rational(1, 4))
    # p^(i-1) with p = 1/2
    assert w["geometric"] == (1, Rational(1, 2), Rational(1, 4), Rational(1, 8))


def test_weights_are_one_over_what_dcg_divides_by():
    import ltr_teach as lt

    for name in ("log2", "jarvelin"):
        # DCG of a single grade-1 item at rank i (exp2 gain 1) is exactly the weight of rank i
        for i in range(1, 9):
            assert lt.dcg([0] * (i - 1) + [1], discount=name).exact == rank_weights(i, p=0.8)[name][-1]


def test_decimal_p_is_read_exactly():
    assert rank_weights(3, p=0.8)["geometric"] == (1, Rational(4, 5), Rational(16, 25))


@pytest.mark.parametrize("n", [0, -1, 2.5, True, "3"])
def test_bad_n(n):
    with pytest.raises(ValueError, match="n must be a whole number of ranks"):
        rank_weights(n, p=0.5)


@pytest.mark.parametrize("p", [0, 1, 1.5, -0.2])
def test_bad_p(p):
    with pytest.raises(ValueError, match=r"p = .* must lie strictly between 0 and 1"):
        rank_weights(3, p=p)


def test_plot_draws_every_curve_with_its_own_marker_and_style():
    ax = plot_rank_weights(n=6, p=Rational(1, 2), ax=Figure().add_subplot())
    lines = ax.get_lines()
    assert len(lines) == len(RANK_WEIGHTS) == 4
    assert len({(line.get_marker(), line.get_linestyle()) for line in lines}) == 4  # never colour alone
    assert [(line.get_color(), line.get_marker()) for line in lines] == [s[:2] for s in RANK_WEIGHT_STYLES.values()]
    by_label = {line.get_label(): line.get_ydata() for line in lines}
    reciprocal = next(v for k, v in by_label.items() if "1/i" in k)
    assert list(reciprocal) == pytest.approx([1, 1 / 2, 1 / 3, 1 / 4, 1 / 5, 1 / 6])
    dcg = next(v for k, v in by_label.items() if "log2(i + 1)" in k)
    assert dcg[5] == pytest.approx(1 / math.log2(7))


def test_alt_text_names_every_curve_and_its_last_value():
    text = rank_weights_alt(n=10)
    # rank 10: 1/log2 11 ≈ 0.289, 1/log2 10 ≈ 0.301, 1/10, (4/5)^9 ≈ 0.134
    for piece in ("≈ 0.289", "≈ 0.301", "= 0.1;", "≈ 0.134", "ranks 1 to 10"):
        assert piece in text


def test_figure_with_alt_in_chinese():
    i18n.set_language("zh")
    shown = rank_weights_figure(n=5)
    data, metadata = shown._repr_mimebundle_()
    assert data["text/plain"] == str(shown) and str(shown).split() == metadata["image/png"]["alt"].split()
    assert "折线图" in str(shown)
    from ltr_teach.core.table import display_width

    assert max(display_width(line) for line in str(shown).splitlines()) <= 96 < display_width(shown.alt)
    assert shown.png.startswith(b"\x89PNG")


def test_decimal_first_keeps_the_page_width_and_the_exact_form_on_demand():
    import ltr_teach as lt
    from ltr_teach.widgets import decimal_first

    ex = lt.ndcg([5, 1, 3, 2, 4])  # document 002's algorithm A: the exact NDCG line is over 100 characters
    assert len(ex.result_line()) > 100
    panel = decimal_first(ex)
    assert max(len(line) for line in str(panel).splitlines()) <= 101
    assert str(panel).splitlines()[-1] == "NDCG ≈ 0.925134"
    # the exact result lines only in the closed box of the HTML
    assert "<details>" in panel._repr_html_() and ex.result_line().replace("/", "/") in panel._repr_html_()
    assert ex.exact_str not in str(panel)
    # rank 3 of A: grade 3, gain 7, discount log2 4 = 2 exactly, so 7/2 = 3.5 prints without "≈"
    row = str(panel).splitlines()[6].split()
    assert row[:5] == ["3", "3", "7", "2", "3.5"]
