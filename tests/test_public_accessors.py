"""Issue 22: the public names notebooks use instead of internals, each equal to the old attribute it replaces
and to a value computed by hand; the old attributes keep working."""

from fractions import Fraction

import pytest
import sympy

import ltr_teach as lt


def test_row_and_column_read_the_steps_table():
    ex = lt.err([3, 2, 0], g_max=3)
    # R_i = (2^g - 1) / 2^3: 7/8, 3/8, 0
    assert [Fraction(str(r)) for r in ex.column("R")] == [Fraction(7, 8), Fraction(3, 8), Fraction(0)]
    assert ex.row(1)["R"] == sympy.Rational(7, 8) and ex.row(-1)["R"] == 0
    assert ex.row(2) == dict(ex.steps[1]) and ex.row(-1) == dict(ex.steps[-1])   # the old attribute agrees
    ex.row(1)["R"] = 5                                                            # a copy: the table is untouched
    assert ex.steps[0]["R"] == sympy.Rational(7, 8)


@pytest.mark.parametrize("n", [0, 4, -4, 1.0, True, "1"])
def test_row_refuses_what_is_not_a_row(n):
    with pytest.raises(ValueError, match=r"^n = .* is not a row of ERR's table; use 1 to 3"):
        lt.err([3, 2, 0], g_max=3).row(n)


def test_column_and_param_name_what_is_allowed():
    ex = lt.ndcg([3, 2, 3], k=2)
    with pytest.raises(ValueError, match="key = 'gian' is not a column"):
        ex.column("gian")
    assert ex.param("k") == ex.params["k"] == 2
    with pytest.raises(ValueError, match=r"name = 'full' is not a setting of NDCG@2; use one of \["):
        ex.param("full")


def test_sampled_metric_full_value_by_its_public_name():
    ex = lt.sampled_metric([1] * 4 + [5000] * 6, n_items=10_000, n_negatives=100, k=10)
    assert ex.param("full") == ex.params["full"] == sympy.Rational(4, 10)   # 4 of 10 users hit in the top 10


def test_gain_and_discount_are_callable_by_name():
    assert [lt.gain("exp2")(g) for g in (0, 1, 2, 3)] == [0, 1, 3, 7]          # 2^g - 1
    assert lt.gain("exp2")(3) == lt.GAINS["exp2"].fn(3)                         # the old attribute agrees
    assert lt.gain("linear")(Fraction(1, 2)) == sympy.Rational(1, 2)
    assert lt.gain({3: 10})(3) == 10 and lt.gain({3: 10})(2) == 2               # a table; other grades keep theirs
    assert lt.discount("log2")(7) == 3 and lt.discount("jarvelin")(2) == 1       # log2(8); max(1, log2 2)
    with pytest.raises(ValueError, match="gain must be one of 'exp2', 'linear', 'binary'; got 'exp'"):
        lt.gain("exp")
    with pytest.raises(ValueError, match="rank = 0 is not a rank"):
        lt.discount("log2")(0)


def test_a_worked_example_gives_its_rankings():
    mac = lt.examples.by_id("000-ap-mac-lipstick")
    assert mac.ranking == [1, 1, 0, 0, 1, 0, 0] == list(mac.call.args[0])
    three = lt.examples.by_id("000-mrr-three-queries")
    assert three.rankings == {"眼霜": [0, 1, 0], "神仙水": [1, 0, 0], "面膜": [0, 0, 1]}
    with pytest.raises(ValueError, match="has 3 queries; use .rankings"):
        _ = three.ranking
    assert list(mac.rankings.values()) == [mac.ranking]


def test_rank_weights_table_by_hand():
    table = lt.rank_weights_table(ranks=(1, 3, 7), p=0.5)
    # 1/log2(i + 1): 1, 1/2, 1/3; 1/i: 1, 1/3, 1/7; 0.5^(i - 1): 1, 1/4, 1/64
    rows = {row[0].msgid if hasattr(row[0], "msgid") else str(row[0]): row[2:] for row in table.rows}
    assert rows["1/log2(i + 1)"] == ("1.000", "0.500", "0.333")
    assert rows["1/i"] == ("1.000", "0.333", "0.143")
    assert rows["p^(i − 1)"] == ("1.000", "0.250", "0.016")
    with pytest.raises(ValueError, match=r"ranks\[1\] = 1 does not follow"):
        lt.rank_weights_table(ranks=(2, 1))
