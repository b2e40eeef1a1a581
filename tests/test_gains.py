"""Each gain and discount is one entry with two forms: the exact one (SymPy) and the NumPy one.

The exact library and the bulk evaluator each use one form; these tests check that they agree on
many values, so the two paths cannot drift apart.
"""

import math

import numpy as np
import pytest
import sympy

import ltr_teach as lt
from ltr_teach.metrics.gains import DISCOUNTS, GAINS, gain_table


@pytest.mark.parametrize("name", sorted(GAINS))
def test_gain_exact_and_array_forms_agree(name):
    gain = GAINS[name]
    grades = list(range(31)) if gain.integer_grades else [sympy.Rational(n, 4) for n in range(121)]
    exact = [float(gain.exact(sympy.sympify(g))) for g in grades]
    array = gain.array(np.array([float(g) for g in grades]))
    np.testing.assert_allclose(array, exact, rtol=1e-15, atol=0)


def test_gains_by_hand():
    # exp2: 2^3 - 1 = 7, 2^0 - 1 = 0; linear: the grade itself
    assert GAINS["exp2"].exact(sympy.Integer(3)) == 7 and GAINS["exp2"].array(np.array([3.0, 0.0])).tolist() == [7, 0]
    assert GAINS["linear"].exact(sympy.Rational(5, 2)) == sympy.Rational(5, 2)


@pytest.mark.parametrize("name", sorted(DISCOUNTS))
def test_discount_exact_and_array_forms_agree(name):
    discount = DISCOUNTS[name]
    ranks = np.arange(1, 2001)
    exact = [float(discount.exact(int(i))) for i in ranks]
    np.testing.assert_allclose(discount.array(ranks.astype(np.float64)), exact, rtol=1e-14, atol=0)


def test_discounts_by_hand():
    # log2(i + 1) at rank 3 is 2; ln(i + 1) at rank 1 is ln 2; Järvelin: rank 1 and 2 divide by 1, rank 4 by 2
    assert DISCOUNTS["log2"].exact(3) == 2
    assert DISCOUNTS["ln"].array(np.array([1.0]))[0] == pytest.approx(math.log(2), abs=1e-15)
    assert DISCOUNTS["jarvelin"].array(np.array([1.0, 2.0, 4.0])).tolist() == [1.0, 1.0, 2.0]


def test_gain_table_forms_agree_and_follow_trec_eval():
    # trec_eval's help: -m ndcg.1=3.5,2=9.0,4=7.0 gives gains 3.5, 9.0, 3.0, 7.0 for levels 1, 2, 3, 4
    table = gain_table("1=3.5,2=9.0,4=7.0")
    assert [float(table.exact(sympy.Integer(g))) for g in (0, 1, 2, 3, 4)] == [0.0, 3.5, 9.0, 3.0, 7.0]
    grades = np.arange(0, 12, dtype=np.float64)
    np.testing.assert_array_equal(table.array(grades), [float(table.exact(sympy.Integer(int(g)))) for g in grades])


def test_gain_table_ideal_sorts_by_gain_not_by_grade():
    # gains {1: 9, 2: 3}: the ideal order of grades 2, 1 puts the grade-1 item first (gain 9)
    ex = lt.ndcg([2, 1], gain={1: 9, 2: 3}, discount="log2")
    # DCG = 3/1 + 9/log2(3); IDCG = 9/1 + 3/log2(3)
    expected = (3 + 9 / math.log2(3)) / (9 + 3 / math.log2(3))
    assert ex.value == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize("bad, message", [
    ({-1: 3}, "grade -1 must be a whole number >= 0"),
    ({1: -2}, r"gains\[1\] = -2 must be >= 0"),
    ("1:3", "write grade=gain pairs"),
    ({}, "gains must map grades to gains"),
])
def test_gain_table_rejects_bad_tables(bad, message):
    with pytest.raises(ValueError, match=message):
        gain_table(bad)


def test_public_names_are_the_one_definition():
    from ltr_teach.metrics import graded

    assert lt.GAINS is GAINS is graded.GAINS and lt.DISCOUNTS is DISCOUNTS is graded.DISCOUNTS
    assert GAINS["exp2"].fn is GAINS["exp2"].exact  # the name the checker uses
