"""Properties that hold for every input, checked by hypothesis against slow, obviously right oracles."""

from fractions import Fraction

import sympy
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import ltr_teach as lt

FEW = settings(max_examples=120, deadline=None)

grades = st.lists(st.integers(0, 4), min_size=1, max_size=10)
rels = st.lists(st.integers(0, 1), min_size=1, max_size=12)
gains = st.sampled_from(["exp2", "linear"])
discounts = st.sampled_from(["log2", "ln", "jarvelin"])
cutoffs = st.one_of(st.none(), st.integers(1, 12))
TOLERANCE = sympy.Float("1e-25", 40)


def n30(e):
    return sympy.N(e, 40)


@st.composite
def labelled_scores(draw):
    """Labels with both classes and scores drawn from a few values, so that ties are common."""
    labels = draw(st.lists(st.integers(0, 1), min_size=2, max_size=12))
    assume(0 < sum(labels) < len(labels))
    values = st.one_of(st.integers(0, 4), st.fractions(0, 1, max_denominator=4), st.sampled_from([0.1, 0.25, 0.3]))
    scores = draw(st.lists(values, min_size=len(labels), max_size=len(labels)))
    return labels, scores


def mann_whitney(labels, scores):
    """AUC the slow way: every (positive, negative) pair, a win counts 1, a tie 1/2."""
    pairs, won = 0, Fraction(0)
    for y_p, s_p in zip(labels, scores):
        for y_n, s_n in zip(labels, scores):
            if y_p == 1 and y_n == 0:
                pairs += 1
                if Fraction(s_p) > Fraction(s_n):
                    won += 1
                elif Fraction(s_p) == Fraction(s_n):
                    won += Fraction(1, 2)
    return won / pairs


def average_precision_slow(rels, n_relevant):
    """AP the slow way: for each relevant rank, count the hits at or above it."""
    total = Fraction(0)
    for i, r in enumerate(rels, start=1):
        if r:
            total += Fraction(sum(rels[:i]), i)
    return total / n_relevant if n_relevant else Fraction(0)


@FEW
@given(grades, gains, discounts, cutoffs, st.lists(st.integers(0, 4), max_size=4))
def test_ndcg_lies_in_unit_interval(g, gain, discount, k, unretrieved):
    value = n30(lt.ndcg(g, k=k, gain=gain, discount=discount, ideal=g + unretrieved).exact)
    assert -TOLERANCE <= value <= 1 + TOLERANCE


@FEW
@given(grades, gains, discounts, cutoffs)
def test_ideal_order_gives_exactly_one(g, gain, discount, k):
    assume(any(g))
    assert lt.ndcg(sorted(g, reverse=True), k=k, gain=gain, discount=discount).exact == 1


@FEW
@given(st.lists(st.integers(0, 4), min_size=2, max_size=10), gains, discounts, cutoffs, st.data())
def test_moving_a_better_item_up_never_lowers_dcg(g, gain, discount, k, data):
    i = data.draw(st.integers(0, len(g) - 2))
    j = data.draw(st.integers(i + 1, len(g) - 1))
    assume(g[i] != g[j])
    worse_first = list(g)
    worse_first[i], worse_first[j] = min(g[i], g[j]), max(g[i], g[j])
    better_first = list(worse_first)
    better_first[i], better_first[j] = worse_first[j], worse_first[i]
    before = n30(lt.dcg(worse_first, k=k, gain=gain, discount=discount).exact)
    after = n30(lt.dcg(better_first, k=k, gain=gain, discount=discount).exact)
    assert after >= before - TOLERANCE


@FEW
@given(grades, gains)
def test_log_base_cancels_in_ndcg(g, gain):
    assume(any(g))
    log2 = n30(lt.ndcg(g, gain=gain).exact)
    ln = n30(lt.ndcg(g, gain=gain, discount="ln").exact)
    assert abs(log2 - ln) <= TOLERANCE


@FEW
@given(labelled_scores())
def test_auc_is_the_mann_whitney_count(data):
    labels, scores = data
    expected = mann_whitney(labels, scores)
    assert lt.auc(labels, scores).exact == sympy.Rational(expected.numerator, expected.denominator)


@FEW
@given(labelled_scores())
def test_roc_area_equals_auc(data):
    labels, scores = data
    assert lt.roc_curve(labels, scores).exact == lt.auc(labels, scores).exact


@FEW
@given(rels, st.integers(0, 5))
def test_average_precision_matches_the_slow_oracle_and_lies_in_unit_interval(r, missed):
    n_relevant = sum(r) + missed
    ex = lt.average_precision(r, n_relevant=n_relevant)
    expected = average_precision_slow(r, n_relevant)
    assert ex.exact == sympy.Rational(expected.numerator, expected.denominator)
    assert 0 <= ex.exact <= 1


@FEW
@given(st.lists(st.integers(0, 4), min_size=1, max_size=10), st.integers(4, 6), cutoffs)
def test_err_lies_in_unit_interval(g, g_max, k):
    value = lt.err(g, g_max=g_max, k=k).exact
    assert 0 <= value < 1  # R_i < 1 for every grade, so the user may always read on


@FEW
@given(st.lists(rels, min_size=1, max_size=5))
def test_mrr_is_the_mean_of_the_reciprocal_ranks(queries):
    rrs = [lt.reciprocal_rank(r).exact for r in queries]
    assert lt.mrr(queries).exact == sum(rrs) / len(rrs)


@FEW
@given(st.lists(rels, min_size=1, max_size=5))
def test_map_is_the_mean_of_the_average_precisions(queries):
    aps = [lt.average_precision(r).exact for r in queries]
    assert lt.mean_average_precision(queries).exact == sum(aps) / len(aps)


@FEW
@given(rels, st.integers(1, 15))
def test_precision_times_k_counts_the_hits(r, k):
    assert lt.precision_at_k(r, k=k).exact * k == sum(r[:k])


@FEW
@given(grades, gains, discounts, cutoffs)
def test_float_is_the_exact_value(g, gain, discount, k):
    for ex in (lt.dcg(g, k=k, gain=gain, discount=discount), lt.ndcg(g, k=k, gain=gain, discount=discount)):
        reference = float(n30(ex.exact))
        assert abs(float(ex) - reference) <= 1e-12 * max(1.0, abs(reference))


@FEW
@given(st.lists(st.integers(0, 4), min_size=1, max_size=10), cutoffs)
def test_err_float_is_the_exact_value(g, k):
    ex = lt.err(g, g_max=4, k=k)
    assert abs(float(ex) - float(n30(ex.exact))) <= 1e-12


def dcg_slow(g, k, gain, discount):
    """DCG in floats, straight from the definitions."""
    import math

    total = 0.0
    for i, grade in enumerate(g[:k] if k else g, start=1):
        numerator = 2.0**grade - 1 if gain == "exp2" else float(grade)
        if discount == "log2":
            divisor = math.log2(i + 1)
        elif discount == "ln":
            divisor = math.log(i + 1)
        else:
            divisor = 1.0 if i == 1 else math.log2(i)
        total += numerator / divisor
    return total


def err_slow(g, g_max, k):
    """ERR with fractions: P(stop at i) = R_i times the chance of passing every earlier rank."""
    total = Fraction(0)
    for i, grade in enumerate(g[:k] if k else g, start=1):
        passed = Fraction(1)
        for earlier in g[: i - 1]:
            passed *= 1 - Fraction(2**earlier - 1, 2**g_max)
        total += passed * Fraction(2**grade - 1, 2**g_max) / i
    return total


def p_interp_slow(r, n_relevant, level):
    """Best precision over every rank whose recall reaches ``level``; 0 if none does."""
    best = Fraction(0)
    for i in range(1, len(r) + 1):
        if Fraction(sum(r[:i]), n_relevant) >= level:
            best = max(best, Fraction(sum(r[:i]), i))
    return best


def as_rational(f):
    return sympy.Rational(f.numerator, f.denominator)


@FEW
@given(grades, gains, discounts, cutoffs)
def test_dcg_matches_the_float_definition(g, gain, discount, k):
    expected = dcg_slow(g, k, gain, discount)
    assert abs(float(lt.dcg(g, k=k, gain=gain, discount=discount)) - expected) <= 1e-9 * max(1.0, expected)


@FEW
@given(st.lists(st.integers(0, 4), min_size=1, max_size=8), st.integers(4, 5), cutoffs)
def test_err_matches_the_cascade_oracle(g, g_max, k):
    assert lt.err(g, g_max=g_max, k=k).exact == as_rational(err_slow(g, g_max, k))


@FEW
@given(rels, st.integers(0, 3))
def test_interpolated_precision_matches_its_definition(r, missed):
    n_relevant = sum(r) + missed
    assume(n_relevant > 0)
    ex = lt.interpolated_precision(r, n_relevant=n_relevant)
    for row in ex.steps:
        assert row["interpolated"] == as_rational(p_interp_slow(r, n_relevant, Fraction(row["hits"], n_relevant)))
    levels = [Fraction(j, 10) for j in range(11)]
    expected = sum(p_interp_slow(r, n_relevant, level) for level in levels) / 11
    assert lt.eleven_point_ap(r, n_relevant=n_relevant).exact == as_rational(expected)


@FEW
@given(labelled_scores())
def test_roc_points_count_the_items_at_or_above_each_threshold(data):
    labels, scores = data
    n_pos = sum(labels)
    n_neg = len(labels) - n_pos
    for row in lt.roc_curve(labels, scores).steps[1:]:
        t = Fraction(str(row["threshold"]))
        # floats are read as their shortest decimal, as the library reads them
        above = [y for y, s in zip(labels, scores) if Fraction(str(s)) >= t]
        assert row["tpr"] == as_rational(Fraction(sum(above), n_pos))
        assert row["fpr"] == as_rational(Fraction(len(above) - sum(above), n_neg))
