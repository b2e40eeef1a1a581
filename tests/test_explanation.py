"""The explanation object: text table, HTML, LaTeX, dict, result line, float and parts."""

import json
import math
import unicodedata
import xml.etree.ElementTree as ET

import pytest
import sympy

import ltr_teach as lt
from ltr_teach.core.explanation import Explanation

MAC = [1, 1, 0, 0, 1, 0, 0]
SHENXIANSHUI = [0, 1, 1, 0, 0, 1, 1]

# One call of every metric, with settings that exercise notes, parts and exact logs.
EVERY_METRIC = {
    "cg": lambda: lt.cg([3, 2, 3, 0, 1, 2, 2], k=3),
    "dcg": lambda: lt.dcg([3, 2, 3, 0, 1, 2, 2], discount="ln"),
    "idcg": lambda: lt.idcg([3, 2, 0], ideal=[3, 2, 0, 3], gain="linear"),
    "ndcg": lambda: lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7),
    "ndcg_nan": lambda: lt.ndcg([0, 0], zero="nan"),
    "err": lambda: lt.err([3, 2, 3, 1], g_max=3),
    "reciprocal_rank": lambda: lt.reciprocal_rank([0, 0, 0]),
    "mrr": lambda: lt.mrr({"眼霜": [0, 1, 0], "神仙水": [1, 0, 0], "面膜": [0, 0, 1]}),
    "precision_at_k": lambda: lt.precision_at_k([1, 0], k=4),
    "recall_at_k": lambda: lt.recall_at_k([1, 0, 1], k=2, n_relevant=5),
    "f_beta": lambda: lt.f_beta([1, 0, 1, 1], k=4, beta=0.5, n_relevant=5),
    "average_precision": lambda: lt.average_precision([1, 0, 1, 0, 1], n_relevant=5),
    "mean_average_precision": lambda: lt.mean_average_precision([MAC, SHENXIANSHUI]),
    "interpolated_precision": lambda: lt.interpolated_precision(MAC, recall=0.5),
    "eleven_point_ap": lambda: lt.eleven_point_ap([1, 0, 1, 0, 0, 1], n_relevant=4),
    "roc_curve": lambda: lt.roc_curve([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1]),
    "auc": lambda: lt.auc([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1]),
}
each_metric = pytest.mark.parametrize("call", EVERY_METRIC.values(), ids=EVERY_METRIC.keys())


def width(text):
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def table_lines(ex):
    """Header, rule and one line per step: the lines between the title and the first blank line."""
    lines = str(ex).split("\n")
    assert lines[0] == ex.name and lines[1] == ""
    end = lines.index("", 2)
    return lines[2:end]


class TestText:
    @each_metric
    def test_table_shape(self, call):
        ex = call()
        lines = table_lines(ex)
        assert len(lines) == 2 + len(ex.steps)
        assert set(lines[1].replace(" ", "")) == {"-"}
        for col in ex.columns:
            assert col.header in lines[0]
        assert str(ex).split("\n")[-1] == ex.result_line()

    @each_metric
    def test_columns_line_up(self, call):
        lines = table_lines(call())
        assert len({width(line) for line in lines}) == 1, lines

    def test_chinese_query_names_line_up(self):
        ex = EVERY_METRIC["mrr"]()
        lines = table_lines(ex)
        assert len({width(line) for line in lines}) == 1
        # right-aligned: every name ends where the header "query" ends
        query_end = width(lines[0].split("query")[0] + "query")
        for line, name in zip(lines[2:], ["眼霜", "神仙水", "面膜"]):
            assert name in line
            assert width(line[: line.index(name) + len(name)]) == query_end

    def test_exact_and_decimal_side_by_side(self):
        text = str(lt.mean_average_precision([MAC, SHENXIANSHUI]))
        assert "13/15 ≈ 0.866667" in text
        assert "47/84 ≈ 0.559524" in text
        # the queries' APs in query order, then their mean: 13/15 + 47/84 = (364 + 235)/420
        assert text.endswith("MAP = (13/15 + 47/84)/2 = 599/840 ≈ 0.713095")

    def test_notes_and_parts_are_printed(self):
        text = str(lt.ndcg([0, 1], gain="linear", ideal=[0, 1, 2]))
        assert "note: the ideal order comes from the judged pool" in text
        assert "\nDCG = " in text and "\nIDCG = " in text  # each part names its own metric, no key before it

    def test_repr_is_one_line(self):
        assert repr(lt.precision_at_k([1, 0], k=2)) == "<Explanation P@2 = 1/2 = 0.5>"


class TestResultLine:
    @pytest.mark.parametrize("ex, line", [
        (lambda: lt.mean_average_precision([MAC, SHENXIANSHUI]), "MAP = (13/15 + 47/84)/2 = 599/840 ≈ 0.713095"),
        (lambda: lt.precision_at_k([1, 0], k=2), "P@2 = 1/2 = 0.5"),           # 0.5 is exact: "="
        (lambda: lt.err([3, 2], g_max=3, k=1), "ERR@1 = 7/8 = 0.875"),
        # gains 7, 3, 1 over discounts 1, log2(3), 2; the list is already ideal, so the ratio is 1 exactly
        (lambda: lt.ndcg([3, 2, 1]), "NDCG = (7 + 3/log2(3) + 1/2)/(7 + 3/log2(3) + 1/2) = 1"),
        (lambda: lt.cg([2, 1]), "CG = 2 + 1 = 3"),                               # integers print alone
        (lambda: lt.ndcg([0], zero="nan"), "NDCG = nan"),
        # rank order, then SymPy's simplified form; 1 + 0.630930 (zeros trimmed)
        (lambda: lt.dcg([1, 1]), "DCG = 1 + 1/log2(3) = 1/log2(3) + 1 ≈ 1.63093"),
        # hits at ranks 1 and 16: (1 + 2/16) / 2
        # every rank's counted precision, 0 at each of the 14 misses, 2/16 = 1/8 at rank 16
        (lambda: lt.average_precision([1] + [0] * 14 + [1]), "AP = (1 + " + "0 + " * 14 + "1/8)/2 = 9/16 = 0.5625"),
    ])
    def test_lines(self, ex, line):
        assert ex().result_line() == line


class TestNumbers:
    @each_metric
    def test_float_is_the_exact_value(self, call):
        ex = call()
        if ex.exact is sympy.nan:
            assert math.isnan(float(ex))
            return
        reference = float(sympy.N(ex.exact, 30))
        assert abs(float(ex) - reference) <= 1e-12 * max(1.0, abs(reference))
        assert ex.value == float(ex)

    @pytest.mark.parametrize("metric, key", [
        ("cg", "cumulative"), ("dcg", "cumulative"), ("idcg", "cumulative"), ("err", "cumulative"),
        ("reciprocal_rank", "result"), ("precision_at_k", "result"), ("recall_at_k", "recall"), ("f_beta", "f"),
        ("roc_curve", "total"),
    ])
    def test_value_is_the_last_step(self, metric, key):
        ex = EVERY_METRIC[metric]()
        assert ex.steps[-1][key] == ex.exact

    @pytest.mark.parametrize("metric", ["mrr", "mean_average_precision", "eleven_point_ap", "average_precision"])
    def test_mean_is_the_last_running_sum_over_its_count(self, metric):
        ex = EVERY_METRIC[metric]()
        count = {"mrr": 3, "mean_average_precision": 2, "eleven_point_ap": 11, "average_precision": 5}[metric]
        assert ex.steps[-1]["sum"] / count == ex.exact

    def test_ndcg_parts(self):
        ex = lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7)
        assert set(ex.parts) == {"dcg", "idcg"}
        assert isinstance(ex.parts["dcg"], Explanation)
        assert sympy.simplify(ex.exact - ex.parts["dcg"].exact / ex.parts["idcg"].exact) == 0

    def test_map_parts_per_query(self):
        ex = lt.mean_average_precision({"MAC口红": MAC, "神仙水": SHENXIANSHUI})
        assert list(ex.parts) == ["MAC口红", "神仙水"]
        assert sum(p.exact for p in ex.parts.values()) / 2 == ex.exact

    def test_frozen(self):
        ex = lt.cg([1])
        with pytest.raises(AttributeError):
            ex.exact = 2


class TestHTML:
    @each_metric
    def test_well_formed(self, call):
        ex = call()
        root = ET.fromstring(ex._repr_html_())  # raises on unbalanced or unescaped markup
        assert root.tag == "div"
        table = root.find("table")
        assert len(table.find("thead/tr")) == len(ex.columns)
        assert len(table.find("tbody")) == len(ex.steps)
        assert ex.result_line() in "".join(root.itertext())

    def test_formula_for_mathjax(self):
        text = lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7)._repr_html_()
        assert r"$$\mathrm{NDCG@7} = \frac{\mathrm{DCG@7}}{\mathrm{IDCG@7}}$$" in text

    def test_formula_markup_is_escaped(self):
        ex = Explanation(metric="demo", name="demo", exact=sympy.Integer(1), columns=(), steps=(),
                         formula=r"\begin{aligned} a &< b \end{aligned}")
        root = ET.fromstring(ex._repr_html_())
        assert r"$$\begin{aligned} a &< b \end{aligned}$$" in "".join(root.itertext())

    def test_query_names_are_escaped(self):
        text = lt.mrr({"<b>&": [1, 0]})._repr_html_()
        assert "<b>&" not in text
        assert "&lt;b&gt;&amp;" in text
        ET.fromstring(text)


class TestLatex:
    def test_ndcg(self):
        tex = lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7).latex()
        # gains 7 3 7 0 1 3 3 over discounts 1, log2 3, 2, log2 5, log2 6, log2 7, 3, in rank order; the
        # ideal grades 3 3 2 2 2 1 0 give 7 7 3 3 3 1 0
        assert tex.startswith(r"\mathrm{NDCG@7} = \frac{\mathrm{DCG@7}}{\mathrm{IDCG@7}} = "
                              r"\frac{7 + \frac{3}{\log_2 3} + \frac{7}{2} + 0 + \frac{1}{\log_2 6} + \frac{3}{\log_2 7} + 1}"
                              r"{7 + \frac{7}{\log_2 3} + \frac{3}{2} + \frac{3}{\log_2 5} + \frac{3}{\log_2 6} + "
                              r"\frac{1}{\log_2 7} + 0} = ")
        assert tex.endswith(r"\approx 0.944227")

    def test_exact_decimal_uses_equals(self):
        assert lt.precision_at_k([1, 0, 1], k=2).latex().endswith(r"= \frac{1}{2} = 0.5")

    def test_map(self):
        tex = lt.mean_average_precision([MAC, SHENXIANSHUI]).latex()
        assert r"\frac{\frac{13}{15} + \frac{47}{84}}{2}" in tex
        assert tex.endswith(r"= \frac{599}{840} \approx 0.713095")

    def test_dcg_substitution(self):
        # rank 1: 7/1, rank 2: 3/log2(3), rank 3: 7/2
        assert r"\frac{7}{1} + \frac{3}{\log_2 3} + \frac{7}{2}" in lt.dcg([3, 2, 3]).latex()

    def test_nan(self):
        tex = lt.ndcg([0], zero="nan").latex()
        assert tex.endswith(r"\mathrm{NaN}") and "approx" not in tex


class TestDict:
    @each_metric
    def test_json_serialisable(self, call):
        ex = call()
        d = ex.to_dict()
        text = json.dumps(d, ensure_ascii=False, allow_nan=False)  # strict JSON, even for zero="nan"
        back = json.loads(text)
        assert back["metric"] == ex.metric
        assert back["exact"] == ex.exact_str
        assert len(back["steps"]) == len(ex.steps)
        assert set(back["parts"]) == set(ex.parts)

    def test_exact_beside_float(self):
        d = lt.mean_average_precision([MAC, SHENXIANSHUI]).to_dict()
        assert d["exact"] == "599/840"
        assert d["value"] == pytest.approx(599 / 840, abs=1e-15)
        assert d["steps"][0]["ap"] == {"exact": "13/15", "value": pytest.approx(13 / 15, abs=1e-15)}
        assert d["parts"]["q2"]["exact"] == "47/84"

    def test_nan_value_is_null(self):
        # IDCG of [0, 0] is 0 and zero="nan" asks for NaN: JSON has no NaN, so the float is null
        d = lt.ndcg([0, 0], zero="nan").to_dict()
        assert (d["exact"], d["value"]) == ("nan", None)
        assert json.loads(json.dumps(d, allow_nan=False))["value"] is None
        d = lt.mean_average_precision([[0, 0]]).to_dict()  # a defined value stays a number
        assert (d["exact"], d["value"]) == ("0", 0.0)

    def test_numpy_params(self):
        import numpy as np

        d = lt.precision_at_k([3, 0, 1], k=np.int64(2), threshold=np.int64(2)).to_dict()
        assert json.loads(json.dumps(d))["params"] == {"k": 2, "threshold": 2}

    def test_exact_params(self):
        d = lt.f_beta([1, 0, 1, 1], k=4, beta=0.5, n_relevant=5).to_dict()
        assert d["params"]["beta"] == {"exact": "1/2", "value": 0.5}
        assert lt.idcg([3, 2], ideal=[3, 2, 1]).to_dict()["params"]["ideal"] == [
            {"exact": "3", "value": 3.0}, {"exact": "2", "value": 2.0}, {"exact": "1", "value": 1.0}]
