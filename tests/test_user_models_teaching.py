"""The teaching pieces of notebook 12: each metric's user (lt.browsing_model), its plots and the
persistence explorer."""

import math
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import ltr_teach as lt
from ltr_teach.widgets import PersistenceExplorer, plot_reach


def floats(ex, key):
    return [float(row[key]) for row in ex.steps]


def test_rbp_user_by_hand():
    # p = 4/5: reach 1, 4/5, 16/25, 64/125; expected ranks within 4 = (1 - (4/5)^4) / (1 - 4/5) = 369/125
    ex = lt.browsing_model("rbp", 4)
    assert [row["reach"] for row in ex.steps] == [1, sympy.Rational(4, 5), sympy.Rational(16, 25),
                                                   sympy.Rational(64, 125)]
    assert ex.exact == sympy.Rational(369, 125)
    assert ex.params["beyond"] == sympy.Rational(256, 625)
    # each rank is the last one read with probability reach·(1 - p): 1/5, 4/25, ...
    assert ex.steps[0]["last"] == sympy.Rational(1, 5) and ex.steps[1]["last"] == sympy.Rational(4, 25)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 19), st.integers(1, 30))
def test_rbp_depth_closed_form(twentieths, n):
    p = Fraction(twentieths, 20)
    ex = lt.browsing_model("rbp", n, p=p)
    assert ex.exact == sympy.Rational((1 - p ** n) / (1 - p))   # geometric series
    # the user stops somewhere in the first n ranks or reads on: the chances add up to 1
    assert sum(row["last"] for row in ex.steps) + ex.params["beyond"] == 1
    assert sum(row["weight"] for row in ex.steps) == 1


def test_dcg_user_reads_with_the_discount():
    ex = lt.browsing_model("dcg", 6)
    assert floats(ex, "reach") == pytest.approx([1 / math.log2(i + 1) for i in range(1, 7)])
    # going on after rank i: log2(i+1)/log2(i+2), rising with depth (ever more patient)
    go_on = floats(ex, "continue")
    assert go_on == pytest.approx([math.log2(i + 1) / math.log2(i + 2) for i in range(1, 7)])
    assert go_on == sorted(go_on)
    assert float(ex.exact) == pytest.approx(sum(1 / math.log2(i + 1) for i in range(1, 7)))
    # the reach column is DCG's discount: DCG of all-ones grades (gain 1 each) is the sum of the reaches
    assert float(ex.exact) == pytest.approx(float(lt.dcg([1] * 6)))


def test_precision_user_reads_exactly_k():
    ex = lt.browsing_model("precision", 6, k=3)
    assert [row["reach"] for row in ex.steps] == [1, 1, 1, 0, 0, 0]
    assert ex.exact == 3 and [row["last"] for row in ex.steps] == [0, 0, 1, 0, 0, 0]
    assert lt.browsing_model("precision", 4).exact == 4     # k defaults to n


def test_cascade_users_stop_on_what_they_read():
    # RR: reads down to the first relevant document (rank 3)
    rr = lt.browsing_model("rr", grades=[0, 0, 2, 1])
    assert [row["reach"] for row in rr.steps] == [1, 1, 1, 0] and rr.exact == 3
    # ERR on document 000's lipstick grades: the reach and stop columns are ERR's own
    err = lt.err([3, 2, 3, 1], g_max=3)
    user = lt.browsing_model("err", grades=[3, 2, 3, 1], g_max=3)
    assert [row["reach"] for row in user.steps] == [row["reach"] for row in err.steps]
    assert [row["last"] for row in user.steps] == [row["stop"] for row in err.steps]
    # R = 7/8, 3/8, 7/8, 1/8: reach 1, 1/8, (1/8)(5/8) = 5/64, (5/64)(1/8) = 5/512
    # -> E = 1 + 1/8 + 5/64 + 5/512 = (512 + 64 + 40 + 5)/512 = 621/512
    assert user.exact == sympy.Rational(621, 512)
    # past rank 4 unsatisfied: (5/512)(1 - 1/8) = 35/4096, notebook 06's "P(leave unsatisfied)"
    assert user.params["beyond"] == sympy.Rational(35, 4096)


@pytest.mark.parametrize("kwargs, match", [
    ({"model": "ndcg"}, "model must be one of"),
    ({"model": "rr"}, "give grades"),
    ({"model": "rbp", "n": 0}, "n"),
    ({"model": "rbp", "n": 3, "p": 1}, "p = 1 must lie strictly between 0 and 1"),
    ({"model": "dcg", "n": 5, "grades": [1, 0]}, "n = 5 is beyond the 2 grades"),
    ({"model": "err", "grades": [3, 1], "g_max": 2}, "g_max = 2 is below the highest grade"),
    ({"model": "rr", "grades": [1, -1]}, r"grades\[1\]"),
])
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        lt.browsing_model(**kwargs)


def test_names_say_which_user():
    assert lt.browsing_model("rbp", 10).name == "RBP(p=4/5): E[min(L, 10)]"
    assert lt.browsing_model("err", grades=[1, 0]).params["user"] == "ERR(g_max=1)"


def test_plot_reach_draws_one_line_per_user():
    from matplotlib.figure import Figure

    users = [lt.browsing_model(m, 5) for m in ("rbp", "dcg", "precision")]
    ax = plot_reach(users, ax=Figure().add_subplot())
    assert len(ax.get_lines()) == 3
    assert list(ax.get_lines()[2].get_ydata()) == [1, 1, 1, 1, 1]
    assert len({line.get_marker() for line in ax.get_lines()}) == 3    # told apart without colour
    with pytest.raises(TypeError):
        plot_reach([lt.rbp([1, 0])])


def test_persistence_explorer_follows_its_slider():
    explorer = PersistenceExplorer([1, 0, 1, 0, 0], names=["口红 A", "口红 B", "口红 C", "口红 D", "口红 E"])
    # p = 4/5: (1/5)(1 + 16/25) = 41/125
    assert explorer.explanation.exact == sympy.Rational(41, 125)
    assert "41/125" in explorer._result.value
    before = explorer.plot.value
    explorer._slider.value = 0.30000000000000004    # what the browser sends for 0.3
    # p = 3/10: (7/10)(1 + 9/100) = 763/1000
    assert explorer.explanation.exact == sympy.Rational(763, 1000)
    assert "763/1000" in explorer._result.value and explorer.plot.value != before
    # the endless list's depth 1/(1 - p) = 10/7 ≈ 1.429 is in the line
    assert "1.429" in explorer._result.value
    explorer.set_p(0.55)    # (9/20)(1 + 121/400) = (9/20)(521/400) = 4689/8000: short, shown exactly
    assert "RBP(p=11/20) = 4689/8000 = 0.586125" in explorer._result.value
    # document 000's lipstick at p = 11/20 sums seven powers of 11/20: a fraction over 1.28e9, shown as its decimal
    lipstick = PersistenceExplorer([3, 2, 3, 0, 1, 2, 2], p=0.55)
    assert lipstick.explanation.exact.q == 1_280_000_000
    assert f"RBP(p=11/20) ≈ {lipstick.explanation.decimal_str} ·" in lipstick._result.value


def test_persistence_explorer_refuses_values_off_the_slider():
    with pytest.raises(ValueError, match="0.05, 0.10, ..., 0.95"):
        PersistenceExplorer([1, 0], p=0.81)
    explorer = PersistenceExplorer([1, 0])
    with pytest.raises(ValueError, match="0.05, 0.10, ..., 0.95"):
        explorer.set_p(0.99)
    assert explorer.explanation.exact == sympy.Rational(1, 5)      # unchanged: (1 - 4/5)·1
    with pytest.raises(ValueError, match="same length"):
        PersistenceExplorer([1, 0], names=["a"])
