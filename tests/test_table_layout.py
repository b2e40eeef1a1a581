"""The one aligned text layout (core.table.aligned_lines) that every text table prints through."""

import ltr_teach as lt
from ltr_teach.core.table import Table, aligned_lines, display_width


def test_cjk_cells_take_two_columns_and_stay_aligned():
    # 眼霜 is 4 columns wide, 神仙水 6: the query column is 6 wide (眼霜 gets 2 spaces of padding, query 1);
    # RR is 3 wide (1/2), right-aligned: " RR", "  1". Every line is 6 + 2 + 3 = 11 columns.
    lines = aligned_lines(("query", "RR"), (("眼霜", "1/2"), ("神仙水", "1")))
    assert lines == ["query    RR", "------  ---", "眼霜    1/2", "神仙水    1"]
    assert {display_width(line) for line in lines} == {11}


def test_left_sets_how_many_columns_are_left_aligned():
    rows = (("a", "1"), ("bbb", "22"))
    assert aligned_lines(("x", "y"), rows, left=0) == ["  x   y", "---  --", "  a   1", "bbb  22"]
    assert aligned_lines(("x", "y"), rows, left=2) == ["x    y", "---  --", "a    1", "bbb  22"]


def test_explanations_and_tables_print_through_it():
    ex = lt.mrr({"眼霜": [0, 1, 0], "神仙水": [1, 0, 0]})
    body = str(ex).splitlines()[2:6]  # the name, a blank line, then header, rule and two rows
    assert body == aligned_lines([c.header for c in ex.columns], ex.table_rows(), left=0)
    table = Table(("metric", "value"), (("P@2", "1/2"),), title="t", notes=("n",))
    assert str(table).splitlines() == ["t", *aligned_lines(("metric", "value"), (("P@2", "1/2"),)), "n"]
