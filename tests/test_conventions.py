"""lt.CONVENTIONS: each preset's fields, the documents' own conventions, and compare_conventions."""

from dataclasses import fields
from importlib.metadata import version

import pytest
import sympy
from sympy import Rational

import ltr_teach as lt
from ltr_teach.core.exact import ln, log2
from ltr_teach.metrics.conventions import IDEAL_SOURCES, Convention
from ltr_teach.metrics.ordering import TIE_RULES

TOOL_PACKAGES = {"trec_eval": "pytrec-eval-terrier", "ir_measures": "ir-measures", "ranx": "ranx",
                 "ranx_burges": "ranx", "gdeval": "ir-measures", "ir_measures_gdeval": "ir-measures", "msmarco": "ir-measures", "sklearn": "scikit-learn",
                 "lightgbm": "lightgbm", "xgboost": "xgboost"}


def test_required_presets_exist():
    required = {"sklearn", "trec_eval", "ir_measures", "ranx", "ranx_burges", "gdeval", "lightgbm", "xgboost",
                "doc000", "doc001", "doc002", "doc003", "doc004"}
    assert required <= set(lt.CONVENTIONS)


@pytest.mark.parametrize("name", sorted(lt.CONVENTIONS))
def test_each_preset_is_complete_and_uses_registered_names(name):
    conv = lt.CONVENTIONS[name]
    assert isinstance(conv, Convention) and conv.name == name
    assert conv.gain in lt.GAINS and conv.discount in lt.DISCOUNTS and conv.zero in lt.ZERO_RULES
    assert conv.ties in TIE_RULES and conv.ideal in IDEAL_SOURCES
    optional = ("g_max", "binary_ties")  # no ERR scale; no separate tie rule for the binary metrics
    assert all(getattr(conv, f.name) not in ("", None) for f in fields(conv) if f.name not in optional)
    with pytest.raises(AttributeError):
        conv.gain = "linear"  # frozen


@pytest.mark.parametrize("name, package", sorted(TOOL_PACKAGES.items()))
def test_tool_presets_name_the_installed_version_the_parity_tests_ran_against(name, package):
    assert version(package) in lt.CONVENTIONS[name].version


def test_doc000_natural_log_reproduces_its_dcg():
    # 口红 query 1: grades 3, 2, 3, 0, 1, 2, 2; gains 7, 3, 7, 0, 1, 3, 3 over ln(2) ... ln(8)
    ex = lt.dcg([3, 2, 3, 0, 1, 2, 2], convention="doc000")
    by_hand = 7 / ln(2) + 3 / ln(3) + 7 / ln(4) + 0 + 1 / ln(6) + 3 / ln(7) + 3 / ln(8)
    assert float(ex.exact) == pytest.approx(float(by_hand), abs=1e-12)
    assert round(ex.value, 6) == 21.421516
    assert round(lt.ndcg([3, 2, 3, 0, 1, 2, 2], convention="doc000").value, 6) == 0.944227


def test_doc001_jarvelin_linear():
    # DCG_p = rel_1 + sum_{i>=2} rel_i / log2(i): 3 + 2/1 + 3/log2(3) + 0/2 + 1/log2(5)
    ex = lt.dcg([3, 2, 3, 0, 1], convention="doc001")
    assert sympy.simplify(ex.exact - (3 + 2 + 3 / log2(3) + 1 / log2(5))) == 0


def test_doc002_exponential_gain():
    # algorithm A: 5, 1, 3, 2, 4 -> 31/1 + 1/log2(3) + 7/2 + 3/log2(5) + 15/log2(6)
    ex = lt.dcg([5, 1, 3, 2, 4], convention="doc002")
    assert sympy.simplify(ex.exact - (31 + 1 / log2(3) + Rational(7, 2) + 3 / log2(5) + 15 / log2(6))) == 0


def test_doc004_ideal_from_every_rated_film():
    # five films shown (5, 3, 2, 1, 2), seven rated: ideal top 5 = 5, 4, 3, 2, 2
    ex = lt.ndcg([5, 3, 2, 1, 2], k=5, ideal=[5, 3, 2, 1, 2, 4, 0], convention="doc004")
    idcg = 31 + 15 / log2(3) + Rational(7, 2) + 3 / log2(5) + 3 / log2(6)
    dcg = 31 + 7 / log2(3) + Rational(3, 2) + 1 / log2(5) + 3 / log2(6)
    assert float(ex.exact) == pytest.approx(float(dcg / idcg), abs=1e-12)


EXAMPLE = {"grades": [0, 3, 2, 1, 0], "scores": [1.0, 0.8, 0.8, 0.5, 0.4],
           "docids": ["d3", "d1", "d2", "d4", "d9"], "ideal": [3, 2, 0, 1, 2]}


def test_compare_conventions_reproduces_conventions_md():
    table = lt.compare_conventions(**EXAMPLE, k=10)
    # numbers printed in conventions.md, each checked against the real tool in tests/test_parity_*.py
    printed = {"trec_eval": 0.5608, "ir_measures": 0.5608, "ranx": 0.5838, "sklearn": 0.6842,
               "lightgbm": 0.6758, "xgboost": 0.6758, "gdeval": 0.5380}
    for name, value in printed.items():
        assert round(table.value(name), 4) == value, name
    assert [r["name"] for r in table.rows] == list(lt.CONVENTIONS)


def test_compare_conventions_names_the_setting_behind_each_difference():
    table = lt.compare_conventions(**EXAMPLE, conventions=["trec_eval", "ranx", "sklearn", "gdeval"])
    differs = {r["name"]: r["differs"] for r in table.rows}
    assert differs == {"trec_eval": "–", "ranx": "ties: stable", "sklearn": "ideal: list, ties: average",
                       "gdeval": "gain: exp2, discount: ln"}
    text = str(table)
    assert "ideal: list, ties: average" in text and "trec_eval" in text
    assert "<table" in table._repr_html_() and "gdeval" in table._repr_html_()
    # without scores the grades are in ranked order and the tie rule is not a difference
    plain = lt.compare_conventions([3, 2, 0], conventions=["trec_eval", "ranx"])
    assert [r["differs"] for r in plain.rows] == ["–", "–"]


def test_compare_conventions_rejects_unknown_names():
    with pytest.raises(ValueError, match="convention must be one of"):
        lt.compare_conventions([1, 0], conventions=["trec"])
    with pytest.raises(ValueError, match="metric must be one of"):
        lt.compare_conventions([1, 0], metric="map")
