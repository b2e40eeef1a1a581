"""The five source posts as data: their worked examples and their errata.

Every worked example of the posts (``../shared/seeds/000_...txt`` to ``004_...txt``) is a
:class:`WorkedExample`: where it is, what the post prints, and the library :class:`Call` that
recomputes it exactly. Every place where a document is wrong (arithmetic, a formula, a claim, code
that does not do what it claims), chose a convention without saying so, misnames a term or has a
typo is an :class:`Erratum` of that ``kind`` (:data:`KINDS`); only the errors say the post is
wrong. Nothing here is typed twice: exact values and the ``matches`` flag are computed by the library.

In an erratum's ``where``, text inside “ ” or backquotes is quoted verbatim from the post;
formulas, which the documents typeset in LaTeX, are paraphrased and marked ``(formula)``.

>>> import ltr_teach as lt
>>> ex = lt.examples.by_id("000-map-two-queries")
>>> ex.printed, ex.exact, ex.matches
('599/420', 599/840, False)
>>> lt.examples.by_id("000-map-value").correct
'599/840 ≈ 0.713095: (13/15 + 47/84) / 2'
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import sympy

from ..core.deferred import ComputedField, Deferred
from ..core.exact import fmt_decimal, fmt_exact, log2, terminates, to_float
from ..core.explanation import Column, Explanation
from ..core.glossary import TERMS, zh, zh_all
from ..core.i18n import N_, Message, _
from ..core.table import aligned_lines, display_width
from ..core.validate import as_queries
from ..metrics import binary, graded, roc

__all__ = [
    "Call", "Post", "WorkedExample", "Erratum", "POSTS", "WORKED_EXAMPLES", "ERRATA", "DOCUMENTS",
    "mean_ndcg", "by_id", "format_examples", "format_errata", "printed_agrees", "KINDS", "wrong_code_outputs",
]

@dataclass(frozen=True)
class Post:
    """One of the five source posts: what a student reads it by, and where the seeds keep it.

    Attributes
    ----------
    number : str
        ``"000"`` to ``"004"``: what every record's id starts with.
    title : str
        The post's title as the post writes it (its first line; ``#`` heading marks dropped). Post 000 has no
        title line: its opening sentence stands for one, without its full stop. The titles are catalogue
        messages only so that the Chinese edition spaces them by its house style (“使用 NDCG 评估”,
        docs/zh_style.md: a quote keeps its words, spaces between Chinese and Latin are the edition's).
    file : str
        The post's file name in ``shared/seeds``: data for the tests that read the seeds, never shown to a
        student (a hashed name says nothing and cannot be opened from the course).

    >>> print(POSTS["002"].label)
    post 002 · Ranking算法评估指标:NDCG
    """

    number: str
    title: str
    file: str

    @property
    def label(self) -> Message:
        """``post 002 · <title>`` (zh ``博文 002 · <title>``), translated when shown."""
        return Message(N_("post {number} · {title}"), number=self.number, title=Message(self.title))


POSTS = {post.number: post for post in (
    Post("000", N_("最近想要总结一下 LTR的算法"), "000_b1a303f0d127bb54.txt"),
    Post("001", N_("使用NDCG评估关键词推荐系统的相关性"), "001_f62375b9f13c28c0.txt"),
    Post("002", N_("Ranking算法评估指标:NDCG"), "002_49b5566977780c7f.txt"),
    Post("003", N_("排序学习评价指标解析"), "003_fe5496d0a2b52eda.txt"),
    Post("004", N_("IR的评价指标-MAP,MRR和NDCG的形象理解"), "004_3f068810c7945fd7.txt"),
)}

#: Each post's file name in ``shared/seeds`` by its number (data for the seeds' tests; shown nowhere).
DOCUMENTS = {number: post.file for number, post in POSTS.items()}


def mean_ndcg(queries, **kwargs) -> Explanation:
    """The mean of the queries' NDCG values, post 000's NDCG(Q, k).

    Parameters
    ----------
    queries : list of rankings, or dict ``{query: grades}``
        Each ranking is graded relevance in ranked order.
    **kwargs
        Passed to :func:`ltr_teach.ndcg` for every query (``k``, ``gain``, ``discount`` ...).

    Examples
    --------
    Post 000, MAC口红 and 神仙水 at k = 7: (0.944227 + 0.797752) / 2 ≈ 0.870990.

    >>> import ltr_teach as lt
    >>> ex = lt.examples.mean_ndcg({"MAC口红": [3, 2, 3, 0, 1, 2, 2], "神仙水": [2, 2, 3, 1, 2, 3, 1]}, k=7)
    >>> round(float(ex), 6)
    0.87099
    """
    parts = {q: graded.ndcg(grades, **kwargs) for q, grades in as_queries(queries)}
    rows, exact = binary._mean_over_queries(parts, "ndcg")
    k = kwargs.get("k")
    return Explanation(
        metric="mean_ndcg", name="mean NDCG" if k is None else f"mean NDCG@{k}", exact=exact,
        columns=(Column("query", "query"), Column("ndcg", "NDCG", exact=False), Column("sum", "sum so far", exact=False)),
        steps=rows, parts=parts, params={**kwargs, "n_queries": len(parts)},
        formula=r"\mathrm{NDCG}(Q, k) = \frac{1}{|Q|}\sum_{j=1}^{|Q|} \frac{\mathrm{DCG}_k}{\mathrm{IDCG}_k}",
    )


_FUNCTIONS = {
    "cg": graded.cg, "dcg": graded.dcg, "idcg": graded.idcg, "ndcg": graded.ndcg, "err": graded.err,
    "reciprocal_rank": binary.reciprocal_rank, "mrr": binary.mrr, "precision_at_k": binary.precision_at_k,
    "recall_at_k": binary.recall_at_k, "f_beta": binary.f_beta, "average_precision": binary.average_precision,
    "mean_average_precision": binary.mean_average_precision, "auc": roc.auc,
    "mean_ndcg": mean_ndcg,
}


@dataclass(frozen=True)
class Call:
    """A library call that recomputes a number of the posts: ``Call("ndcg", ([3, 2],), {"k": 2})``.

    ``part`` picks a named sub-explanation (``"dcg"`` of an NDCG). Calling the object runs it.

    >>> c = Call("ndcg", ([3, 2, 3, 0, 1, 2, 2],), {"k": 7, "discount": "ln"}, part="dcg")
    >>> print(c)
    lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7, discount='ln').parts['dcg']
    >>> round(float(c()), 6)
    21.421516
    """

    function: str
    args: tuple
    kwargs: dict = field(default_factory=dict)
    part: str | None = None

    def __post_init__(self):
        if self.function not in _FUNCTIONS:
            raise ValueError(f"function = {self.function!r} is not a library function; use one of {sorted(_FUNCTIONS)}")

    def __call__(self) -> Explanation:
        return self._result

    @functools.cached_property
    def _result(self) -> Explanation:  # explanations are immutable, so one run serves every caller
        ex = _FUNCTIONS[self.function](*self.args, **self.kwargs)
        return ex.parts[self.part] if self.part else ex

    def __str__(self) -> str:
        prefix = "lt.examples." if self.function == "mean_ndcg" else "lt."
        pieces = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs.items()]
        text = f"{prefix}{self.function}({', '.join(pieces)})"
        return text + (f".parts[{self.part!r}]" if self.part else "")


_FRACTION = re.compile(r"^\d+/\d+$")
_DECIMAL = re.compile(r"^\d+(\.(\d+))?$")
_FLOAT64_ULPS = 4 * 2.0**-52


def printed_agrees(printed: str, exact) -> bool:
    """Whether a printed number agrees with an exact value at the precision printed.

    A fraction must equal the exact value. A decimal agrees when the exact value rounds to it at
    the places printed, or lies within four float64 ulps of it (some documents print 17-digit
    float reprs whose last digit is float noise). ``"11/18 = 0.61"`` agrees when every form does.

    >>> import sympy
    >>> printed_agrees("0.64", sympy.Rational(10783, 16800))    # 0.64185... rounds to 0.64
    True
    >>> printed_agrees("0.827", sympy.Rational(8296, 10000))    # 0.8296 rounds to 0.830
    False
    >>> printed_agrees("599/420", sympy.Rational(599, 840))
    False
    """
    forms = [p.strip() for p in printed.split("=")]
    if not forms or not all(_FRACTION.match(f) or _DECIMAL.match(f) for f in forms):
        raise ValueError(f"printed = {printed!r} is not a number; write 0.944227, 599/420 or 11/18 = 0.61")
    for form in forms:
        if _FRACTION.match(form):
            if sympy.Rational(form) != exact:
                return False
            continue
        places = len(_DECIMAL.match(form).group(2) or "")
        shown = Fraction(form)
        value = Fraction(str(sympy.N(exact, 40)))
        tolerance = max(Fraction(1, 2 * 10**places), Fraction(_FLOAT64_ULPS) * abs(shown))
        if abs(value - shown) > tolerance:
            return False
    return True


@dataclass(frozen=True)
class WorkedExample:
    """One worked example of a document: where it is, what it prints, and the call that recomputes it.

    Attributes
    ----------
    id : str
        Short slug, ``"000-ndcg-mac-lipstick"``.
    document : str
        File name of the post in ``shared/seeds`` (data; a student reads :attr:`post`'s label).
    section : str
        The post's section (``"1.3 NDCG"``).
    title : str
        The example's name as the post gives it (``"查询1 MAC口红"``) with an English gloss.
    quantity : str
        What the printed number is (``"NDCG@7"``, ``"DCG_7"``).
    call : Call
        The library call that recomputes the number exactly.
    printed : str
        The number as the post prints it (``"0.944227"``, ``"599/420"``).
    items : tuple
        Item names in ranked order where the post names them; for a multi-query example one
        tuple of names per query, in the order of ``queries``.
    queries : tuple of str
        Query names of a multi-query example.
    note : str
        What to notice (the convention used, a rounding, a slip).
    """

    id: str
    document: str
    section: str
    title: str
    quantity: str
    call: Call
    printed: str
    items: tuple = ()
    queries: tuple = ()
    note: str = ""

    def explanation(self) -> Explanation:
        """Run :attr:`call`: the full explanation (steps, parts, exact value)."""
        return self.call()

    @property
    def ranking(self) -> list:
        """The one query's grades (or 0/1 relevance) in ranked order, as the post gives them.

        >>> import ltr_teach as lt
        >>> lt.examples.by_id("000-ap-mac-lipstick").ranking
        [1, 1, 0, 0, 1, 0, 0]
        >>> lt.examples.by_id("000-mrr-three-queries").ranking
        Traceback (most recent call last):
        ...
        ValueError: example 000-mrr-three-queries has 3 queries; use .rankings, a {query: ranking} dict
        """
        data = self.call.args[0]
        if isinstance(data, dict):
            raise ValueError(f"example {self.id} has {len(data)} queries; use .rankings, a {{query: ranking}} dict")
        return list(data)

    @property
    def rankings(self) -> dict:
        """Every query's ranking, ``{query: grades in ranked order}`` (one entry for a one-query example).

        >>> import ltr_teach as lt
        >>> lt.examples.by_id("000-mrr-three-queries").rankings
        {'眼霜': [0, 1, 0], '神仙水': [1, 0, 0], '面膜': [0, 0, 1]}
        """
        data = self.call.args[0]
        if isinstance(data, dict):
            return {query: list(grades) for query, grades in data.items()}
        return {self.queries[0] if self.queries else self.id: list(data)}

    @property
    def exact(self):
        """The exact value (SymPy)."""
        return self.call().exact

    @property
    def value(self) -> float:
        """The float of :attr:`exact`."""
        return to_float(self.exact)

    @property
    def matches(self) -> bool:
        """Whether :attr:`printed` agrees with :attr:`exact` at the precision printed."""
        return printed_agrees(self.printed, self.exact)

    @property
    def post(self) -> Post:
        """The post this record is from (:data:`POSTS`): its number, title and :attr:`Post.label`."""
        return POSTS[self.id[:3]]


#: What an erratum record is, and the verdict its card and ``ltr-teach errata`` print.
KINDS = {
    N_("error"): N_("the post is wrong here; the correct version is above"),
    N_("convention"): N_("a convention the post chose without saying so: not an error, a note"),
    N_("misleading"): N_("true in part but misleading; the fuller statement is above"),
    N_("terminology"): N_("a wrong or misleading term; the usual one is above"),
    N_("typo"): N_("a typo; the intended text is above"),
}


@dataclass(frozen=True)
class Erratum:
    """One place where a document is wrong, chose a convention silently, misnames a term, or has a typo.

    Attributes
    ----------
    id : str
        Short slug, ``"000-map-value"``.
    document : str
        File name of the post in ``shared/seeds`` (data; a student reads :attr:`post`'s label).
    where : str
        Section and a quote of the wrong line.
    printed : str
        What the post prints or says.
    correct : str
        The correct value or statement; a value's exact form comes from :attr:`call`.
    explanation : str
        Short plain-English reason, with the Chinese term where it helps.
    call : Call or None
        The library call whose exact value is the correct one (None for statements).
    kind : str
        One of :data:`KINDS`: ``"error"`` (a wrong number, formula, claim or code output: the
        post is wrong), ``"convention"`` (a choice the post made without saying so: a
        note, not an error), ``"misleading"`` (true in part, but a reader would draw a wrong
        conclusion), ``"terminology"`` (a wrong, misleading or ambiguous term), ``"typo"``.
    """

    id: str
    document: str
    where: str
    printed: str
    correct: str = ComputedField()  # a value quoting the library's numbers is computed when first read
    explanation: str
    call: Call | None = None
    kind: str = "error"

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind = {self.kind!r} is not an erratum kind; use one of {sorted(KINDS)}")

    @property
    def is_error(self) -> bool:
        """Whether the post is wrong here (a note on a convention is not an error)."""
        return self.kind == "error"

    @property
    def correct_label(self) -> str:
        """How :attr:`correct` is labelled: ``"usual"`` for a convention (the post is not wrong)."""
        return N_("usual") if self.kind == "convention" else N_("correct")  # English message ids

    @property
    def verdict(self) -> str:
        """One line saying what kind of record this is: only a real error says the post is wrong."""
        return KINDS[self.kind]

    @property
    def exact(self):
        """The exact correct value (SymPy), or None when the erratum is a statement."""
        return None if self.call is None else self.call().exact

    @property
    def post(self) -> Post:
        """The post this record is from (:data:`POSTS`): its number, title and :attr:`Post.label`."""
        return POSTS[self.id[:3]]


def _text(value):
    """A record's prose as a :class:`~ltr_teach.core.i18n.Message`: English as a ``str``, translated when shown."""
    return value if isinstance(value, (Message, Deferred)) or not value else Message(value)


def _ex(doc, slug, section, title, quantity, call, printed, **extra) -> WorkedExample:
    if "note" in extra:
        extra["note"] = _text(extra["note"])
    return WorkedExample(f"{doc}-{slug}", DOCUMENTS[doc], section, _text(title), quantity, call, printed, **extra)


_MAC = [3, 2, 3, 0, 1, 2, 2]
_SXS = [2, 2, 3, 1, 2, 3, 1]
_LN7 = {"k": 7, "discount": "ln"}
_LIP_A, _LIP_B = [5, 1, 3, 2, 4], [5, 3, 4, 2, 1]
_MOVIES, _MOVIE_POOL = [5, 3, 2, 1, 2], [5, 3, 2, 1, 2, 4, 0]
_LN_NOTE = N_("the post writes log without a base; its numbers are natural-log values (discount='ln'); "
            "with log2 every DCG and IDCG is ln 2 ≈ 0.693 times as large and NDCG is unchanged")

WORKED_EXAMPLES = (
    _ex("000", "mrr-three-queries", "1.1 MRR", N_("眼霜, 神仙水, 面膜 (eye cream, essence water, face mask)"), "MRR(Q)",
        Call("mrr", ({"眼霜": [0, 1, 0], "神仙水": [1, 0, 0], "面膜": [0, 0, 1]},)), "11/18",
        queries=("眼霜", "神仙水", "面膜"),
        items=(("小棕瓶精华", "小棕瓶眼霜", "面霜"), ("skII 神仙水", "兰蔻粉水", "菌菇水"), ("芦荟霜", "高保湿面霜", "skii面膜")),
        note=N_("first correct result at ranks 2, 1, 3: (1/2 + 1 + 1/3) / 3")),
    _ex("000", "ap-mac-lipstick", "1.2 MAP", N_("查询1 MAC 口红 (query 1, MAC lipstick)"), "AP(1)",
        Call("average_precision", ([1, 1, 0, 0, 1, 0, 0],)), "13/15", note=N_("relevant at ranks 1, 2, 5")),
    _ex("000", "ap-shenxianshui", "1.2 MAP", N_("查询2 神仙水 (query 2, SK-II essence)"), "AP(2)",
        Call("average_precision", ([0, 1, 1, 0, 0, 1, 1],)), "47/84", note=N_("relevant at ranks 2, 3, 6, 7")),
    _ex("000", "map-two-queries", "1.2 MAP", "查询1 MAC 口红 + 查询2 神仙水", "MAP(Q)",
        Call("mean_average_precision", ({"MAC 口红": [1, 1, 0, 0, 1, 0, 0], "神仙水": [0, 1, 1, 0, 0, 1, 1]},)),
        "599/420", queries=("MAC 口红", "神仙水"),
        note=N_("599/420 is AP(1) + AP(2); the mean divides by 2: 599/840")),
    _ex("000", "dcg-mac-lipstick", "1.3 NDCG", N_("查询1 MAC口红 (query 1, MAC lipstick)"), "DCG_7",
        Call("ndcg", (_MAC,), _LN7, part="dcg"), "21.421516", note=_LN_NOTE),
    _ex("000", "idcg-mac-lipstick", "1.3 NDCG", N_("查询1 MAC口红 (query 1, MAC lipstick)"), "IDCG_7",
        Call("ndcg", (_MAC,), _LN7, part="idcg"), "22.686817", note=Message(N_("ideal order {order}; {log_note}"), order="3, 3, 2, 2, 2, 1, 0", log_note=Message(_LN_NOTE))),
    _ex("000", "ndcg-mac-lipstick", "1.3 NDCG", N_("查询1 MAC口红 (query 1, MAC lipstick)"), "NDCG_7",
        Call("ndcg", (_MAC,), _LN7), "0.944227", note=N_("the log base cancels in NDCG")),
    _ex("000", "dcg-shenxianshui", "1.3 NDCG", N_("查询2 神仙水 (query 2, SK-II essence)"), "DCG_7",
        Call("ndcg", (_SXS,), _LN7, part="dcg"), "18.482089", note=_LN_NOTE),
    _ex("000", "idcg-shenxianshui", "1.3 NDCG", N_("查询2 神仙水 (query 2, SK-II essence)"), "IDCG_7",
        Call("ndcg", (_SXS,), _LN7, part="idcg"), "23.167716", note=Message(N_("ideal order {order}; {log_note}"), order="3, 3, 2, 2, 2, 1, 1", log_note=Message(_LN_NOTE))),
    _ex("000", "ndcg-shenxianshui", "1.3 NDCG", N_("查询2 神仙水 (query 2, SK-II essence)"), "NDCG_7",
        Call("ndcg", (_SXS,), _LN7), "0.797752", note=N_("the log base cancels in NDCG")),
    _ex("000", "ndcg-mean-two-queries", "1.3 NDCG", "查询1 MAC口红 + 查询2 神仙水", "NDCG(Q,7)",
        Call("mean_ndcg", ({"MAC口红": _MAC, "神仙水": _SXS},), _LN7), "0.870990",
        queries=("MAC口红", "神仙水"), note=N_("the mean of the two queries' NDCG")),
    _ex("000", "err-lipstick", "1.4 ERR", N_("查询 口红 (lipstick), g_max = 3"), "ERR",
        Call("err", ([3, 2, 3, 1],), {"g_max": 3}), "0.913391",
        note=N_("R = 7/8, 3/8, 7/8, 1/8 are right, and so is the expanded sum the post writes; "
             "that sum is 45295/49152 ≈ 0.921529; 0.913391 is 14965/16384, the sum with R_i in place of "
             "1 − R_i in the reach product from rank 2 on")),
    _ex("001", "precision-at-2", "Mean Average Precision (MAP): P@K", "l(1) = 1, l(2) = 0", "P@2",
        Call("precision_at_k", ([1, 0], 2)), "1/2", note="(1 + 0) / 2"),
    _ex("002", "cg-lipstick-a", "2.1 Cumulative Gain", N_("算法A 口红排序 (algorithm A's lipstick ranking)"),
        "Cumulative Gain_A", Call("cg", (_LIP_A,)), "15"),
    _ex("002", "cg-lipstick-b", "2.1 Cumulative Gain", N_("算法B 口红排序 (algorithm B's lipstick ranking)"),
        "Cumulative Gain_B", Call("cg", (_LIP_B,)), "15", note=N_("CG ignores the order: A and B tie")),
    _ex("002", "dcg-lipstick-a", "2.2 Discounted Cumulative Gain", "算法A [5,1,3,2,4]", "DCG_A",
        Call("dcg", (_LIP_A,)), "42.225751536309765", note=N_("2^score - 1 gain, log2(i+1) discount")),
    _ex("002", "dcg-lipstick-b", "2.2 Discounted Cumulative Gain", "算法B [5,3,4,2,1]", "DCG_B",
        Call("dcg", (_LIP_B,)), "44.595390756454925"),
    _ex("002", "idcg-lipstick", "2.3 Ideal Discounted Cumulative Gain", N_("最理想的排序 [5,4,3,2,1] (ideal order)"),
        "DCG_ideal", Call("idcg", (_LIP_A,)), "45.64282878502658"),
    _ex("002", "ndcg-lipstick-a", "2.4 Normalized Discounted Cumulative Gain", "算法A [5,1,3,2,4]", "NDCG@5_A",
        Call("ndcg", (_LIP_A,), {"k": 5}), "0.9251"),
    _ex("002", "ndcg-lipstick-b", "2.4 Normalized Discounted Cumulative Gain", "算法B [5,3,4,2,1]", "NDCG@5_B",
        Call("ndcg", (_LIP_B,), {"k": 5}), "0.9771", note=N_("B > A, as the eye expects")),
    _ex("004", "ap-topic1", "一、MAP", N_("主题1 (topic 1): 4 relevant, retrieved at ranks 1, 2, 4, 7"), "AP",
        Call("average_precision", ([1, 1, 0, 1, 0, 0, 1],), {"n_relevant": 4}), "0.83",
        note="(1/1 + 2/2 + 3/4 + 4/7) / 4 = 93/112"),
    _ex("004", "ap-topic2", "一、MAP", N_("主题2 (topic 2): 5 relevant, 3 retrieved at ranks 1, 3, 5"), "AP",
        Call("average_precision", ([1, 0, 1, 0, 1],), {"n_relevant": 5}), "0.45",
        note=N_("the two relevant pages never retrieved count 0: (1/1 + 2/3 + 3/5 + 0 + 0) / 5 = 34/75")),
    _ex("004", "map-two-topics", "一、MAP", N_("主题1 + 主题2 (topics 1 and 2)"), "MAP",
        Call("mean_average_precision", ({"主题1": [1, 1, 0, 1, 0, 0, 1], "主题2": [1, 0, 1, 0, 1]},),
             {"n_relevant": {"主题1": 4, "主题2": 5}}), "0.64", queries=("主题1", "主题2"),
        note=N_("exact 10783/16800 ≈ 0.641845; averaging the rounded 0.83 and 0.45 happens to give 0.64 too")),
    _ex("004", "mrr-three-queries", "二、MRR", N_("3 queries, best answer at ranks 3, 2, 1"), "MRR",
        Call("mrr", ([[0, 0, 1], [0, 1, 0], [1, 0, 0]],)), "11/18 = 0.61",
        note=N_("the post's figure is missing; only the ranks 3, 2, 1 survive in the text")),
    _ex("004", "cg-movies", "3.1 DG和DCG", N_("豆瓣 五部电影 M_1..M_5 (five recommended films)"), "CG_5",
        Call("cg", (_MOVIES,)), "13", items=("M_1", "M_2", "M_3", "M_4", "M_5")),
    _ex("004", "cg-movies-swapped", "3.1 DG和DCG", N_("调换第二个和第三个结果 (ranks 2 and 3 swapped)"), "CG",
        Call("cg", ([5, 2, 3, 1, 2],)), "13", items=("M_1", "M_3", "M_2", "M_4", "M_5"),
        note=N_("CG ignores the order")),
    _ex("004", "dcg-movies", "3.1 DG和DCG", N_("豆瓣 五部电影 M_1..M_5 (five recommended films)"), "DCG_5",
        Call("dcg", (_MOVIES,), {"k": 5}), "38.5", items=("M_1", "M_2", "M_3", "M_4", "M_5"),
        note=N_("31 + 4.4 + 1.5 + 0.4 + 1.2 = 38.5: terms rounded to one decimal; exact ≈ 38.5077")),
    _ex("004", "idcg-movies", "3.2 NDCG", N_("7 部电影的理想排序 5, 4, 3, 2, 2 (ideal top 5 of the 7 judged films)"),
        "IDCG_5", Call("idcg", (_MOVIES,), {"k": 5, "ideal": _MOVIE_POOL}), "46.5",
        items=("M_1", "M_6", "M_2", "M_3", "M_5"),
        note=N_("31 + 9.5 + 3.5 + 1.3 + 1.2: exactly three terms rounded up (15/log2 3 ≈ 9.464, 3/log2 5 ≈ 1.292, "
             "3/log2 6 ≈ 1.161); 31 and 7/2 are exact; exact sum ≈ 46.4165")),
    _ex("004", "ndcg-movies", "3.2 NDCG", N_("豆瓣 五部电影, ideal from all 7 judged films"), "NDCG_5",
        Call("ndcg", (_MOVIES,), {"k": 5, "ideal": _MOVIE_POOL}), "0.827", items=("M_1", "M_2", "M_3", "M_4", "M_5"),
        note=N_("38.5 / 46.5 = 0.82796 (truncated to 0.827); the exact value is ≈ 0.829613")),
)


def _er(doc, slug, kind, where, printed, correct, explanation, call=None) -> Erratum:
    return Erratum(f"{doc}-{slug}", DOCUMENTS[doc], _text(where), _text(printed), _text(correct), _text(explanation),
                   call, kind)


def _value_text(call: Call, reason) -> Deferred:
    """``599/840 ≈ 0.713095: reason``; long exact forms (sums of logs) show only the decimal. Computed when the
    erratum's ``correct`` is first read (importing this module computes no metric: issue 21); ``reason`` is a
    text, or a module function giving one when it quotes values too."""
    return Deferred(_value_text_now, call, reason)


def _value_text_now(call: Call, reason) -> Message:
    exact = call().exact
    reason = _text(reason() if callable(reason) else reason)
    if isinstance(exact, sympy.Integer):
        return Message(N_("{value}: {reason}"), value=str(exact), reason=reason)
    text = fmt_exact(exact)
    shown = f"{text} ≈ " if len(text) <= 24 else "≈ "
    return Message(N_("{value}: {reason}"), value=f"{shown}{fmt_decimal(to_float(exact))}", reason=reason)


_MRR_000 = Call("mrr", ({"眼霜": [0, 1, 0], "神仙水": [1, 0, 0], "面膜": [0, 0, 1]},))
_MAP_000 = WORKED_EXAMPLES[3].call
_F2_EXAMPLE = Call("f_beta", ([1, 1, 0, 0], 4), {"beta": 2, "n_relevant": 3})
_TORCH_DEMO = Call("ndcg", ([2, 1, 0],))
_ERR_LIP = Call("err", ([3, 2, 3, 1],), {"g_max": 3})


def _QUOTED_DISCOUNT(r):
    """Post 003's replacement for ERR's 1/r, as quoted: 1/(log2 r + 1)."""
    return 1 / (log2(r) + 1)


def _err_with_discount(grades, g_max, discount):
    """ERR's cascade sum with ``discount(r)`` in place of 1/r: Σ reach_r · R_r · discount(r)."""
    total, reach = sympy.Integer(0), sympy.Integer(1)
    for r, g in enumerate(grades, start=1):
        stop = sympy.Rational(2**g - 1, 2**g_max)
        total += reach * stop * discount(r)
        reach *= 1 - stop
    return total

def _err_to_dcg_reason() -> Message:
    """Erratum 003-err-to-dcg's reason, with the two values it compares (computed when first read)."""
    return Message(
        N_("DCG of 3, 2, 3, 1 (g_max = 3). On ERR's scale (DCG / 2^3) it is ≈ {scaled}, while the ERR changed as "
           "quoted, with 1/(log2 r + 1), is ≈ {changed}"),
        scaled=fmt_decimal(to_float(Call("dcg", ([3, 2, 3, 1],))().exact / 8)),
        changed=fmt_decimal(to_float(_err_with_discount([3, 2, 3, 1], 3, _QUOTED_DISCOUNT))))


ERRATA = (
    _er("000", "mrr-sum", "error", "1.1 MRR: “最终的分数为所有得分之和”", N_("MRR is the sum of the reciprocal ranks"),
        _value_text(_MRR_000, N_("the mean (1/|Q|) Σ 1/rank_i, as the post's own formula and example say")),
        N_("MRR (平均倒数排名) averages the queries' reciprocal ranks; the sum 11/6 would grow with the number of "
        "queries and exceed 1."), _MRR_000),
    _er("000", "mrr-single-result", "error", "1.1 MRR: “MRR只能度量检索结果只有一个并且相关性等级只有相关和不相关两种的情况”",
        N_("MRR can only measure results with a single correct answer"),
        N_("MRR applies to any number of relevant results; it only looks at the first relevant one"),
        N_("Binary relevance is required, but a query may have many relevant results; the reciprocal rank "
        "(倒数排名) simply ignores all but the first of them.")),
    _er("000", "map-footnote", "typo", N_("1.2 MAP: 则定义 MAP(Q)^2 如下 (formula)"), "MAP(Q)^2", "MAP(Q)",
        N_("The superscript 2 is a footnote mark that leaked into the formula; MAP is not squared.")),
    _er("000", "mpp-typo", "typo", "1.2 MAP: “其实有两种计算MPP的方法”", "MPP", "MAP", N_("Typo for MAP (平均正确率均值).")),
    _er("000", "map-value", "error", N_("1.2 MAP: MAP(Q) = (13/15 + 47/84) / 2 = 599/420 (formula)"), "599/420",
        _value_text(_MAP_000, "(13/15 + 47/84) / 2"),
        N_("599/420 is AP(1) + AP(2), the sum before dividing by 2; a MAP above 1 (599/420 ≈ 1.426) is impossible."),
        _MAP_000),
    _er("000", "dcg-formula", "error", N_("1.3 NDCG: Gain = r(i) and DCG@K = Σ 2^{r(i)} / log(1+i) (formulas)"),
        N_("gain r(i), then 2^{r(i)} in DCG"),
        N_("DCG@K = Σ (2^{r(i)} − 1) / log(1+i), with the −1, as the post's later NDCG formula has it "
        "(the post states no base; see 000-ndcg-log-base)"),
        N_("Without the −1 an irrelevant item (r = 0) still gains 1; the section also calls the gain r(i) and "
        "then uses the exponential gain 2^r − 1 (增益) in every computation.")),
    _er("000", "ndcg-log-base", "convention", N_("1.3 NDCG: DCG_7 = Σ (2^{R(j,m)} − 1) / log(1+m) = 21.421516 (formula)"),
        N_("21.421516, 22.686817 (查询1); 18.482089, 23.167716 (查询2), with log written without a base"),
        _value_text(Call("dcg", (_MAC,), {"k": 7}), N_("DCG_7 of 查询1 with the usual log2; the printed "
                    "numbers are natural-log values (discount='ln')")),
        N_("Not an error: the post writes log(1+m) without a base, and its four DCG and IDCG values are "
        "exact with the natural log ln. The usual base is 2; log2 DCGs are the ln ones times ln 2 ≈ 0.693 "
        "(14.848264 and 15.725304 for 查询1). NDCG does not depend on the base."),
        Call("dcg", (_MAC,), {"k": 7})),
    _er("000", "z-normalises", "error", N_("1.3 NDCG: 用于保证对于查询 j 最完美系统的 DCG_k 得分是1 (formula)"),
        N_("the perfect system's DCG_k is 1"), N_("the perfect system's Z_{j,k}·DCG_k (its NDCG) is 1; its DCG_k is IDCG_k"),
        N_("Z_{j,k} = 1/IDCG_k normalises (归一化) DCG; DCG itself is not 1 for the ideal order.")),
    _er("000", "err-value", "error", N_("1.4 ERR: ERR = 0.875 + 1/2·0.125·0.375 + ... = 0.913391 (formula)"), "0.913391",
        _value_text(_ERR_LIP, "0.875 + 3/128 + 35/1536 + 5/16384"),
        N_("R_i and the expanded sum are right, but the sum evaluates to 45295/49152 ≈ 0.921529. 0.913391 is "
        "what the reach product gives with R_i in place of 1 − R_i from rank 2 on: 7/8 + 3/128 + 7/512 + "
        "21/16384 = 14965/16384 ≈ 0.913391."), _ERR_LIP),
    _er("000", "grade-set-braces", "typo", N_("1.4 ERR: R(g) = (2^g − 1)/2^{g_max}, g\\in{0,1,....g_{max}} (formula)"),
        N_("g ∈ 0, 1, ..., g_max (the braces of the set are lost)"), "g ∈ {0, 1, ..., g_max}",
        N_("In LaTeX bare braces only group, so the set braces vanish from the rendered formula; write \\{ \\}.")),
    _er("000", "precision-recall-names", "terminology", N_("1.5 AUC: 查全率 precision = TP/(TP+FP), 召回率(查准率) recall = TP/(TP+FN) (formulas)"),
        N_("precision called 查全率, recall called 查准率"),
        Message(N_("precision = {precision} = TP/(TP+FP); recall = {recall} = TP/(TP+FN)"), precision=zh_all("precision"),
                recall=zh_all("recall")),
        N_("The Chinese names are swapped: 查准率 (how accurate the retrieved set is) is precision, 查全率 (how "
        "complete) is recall; the section's own earlier sentence pairs them correctly.")),
    _er("000", "f-beta-formula", "error", N_("1.5 AUC: F_β = (1+β²)(Precision+Recall) / (β²·Precision + Recall) (formula)"),
        "(1+β²)(P+R) / (β²P+R)", _value_text(_F2_EXAMPLE, N_("F_2 with P = 1/2, R = 2/3, from (1+β²)PR/(β²P+R)")),
        N_("The numerator is the product P·R, not the sum: with β = 1 the printed formula is always 2, and with "
        "P = 1/2, R = 2/3, β = 2 it gives 35/16 > 1."), _F2_EXAMPLE),
    _er("000", "tpf-typo", "typo", N_("1.5 AUC: TPF = TP/(TP+FN) (formula)"), "TPF", "TPR = TP/(TP+FN)",
        N_("Typo: the true positive rate (真正例率) is TPR, as the sentence before says.")),
    _er("000", "auc-minimum", "misleading", "1.5 AUC: “一般来说我们认为AUC的最小值为0.5(当然也存在预测相反这种极端的情况,AUC小于0.5”",
        N_("in general the minimum of AUC is taken to be 0.5, granting that a reversed classifier goes below it"),
        _value_text(Call("auc", ([1, 0], [0, 1])), N_("AUC ranges over [0, 1]; a reversed ranking gives 0, "
                    "0.5 is random guessing")),
        N_("Misleading rather than wrong: the post itself says AUC below 0.5 exists and that flipping the "
        "predictions then gives AUC above 0.5, but calling 0.5 the minimum hides that a ranking worse than "
        "random is possible and informative. AUC ranges over [0, 1]; 0.5 is random guessing."),
        Call("auc", ([1, 0], [0, 1]))),
    _er("000", "metric-count", "error", "排序指标：“信息检索和推荐系统常用排序质量评分有4种:”", N_("4 metrics"),
        N_("5 metrics: the list that follows names MRR, MAP, ERR, NDCG and AUC"),
        N_("The count disagrees with the post's own list of five (AUC is the fifth).")),
    _er("000", "only-ndcg-err-top", "misleading", "排序指标：“NDCG和ERR的另外一个优点是更关注排名靠前的文档”",
        N_("favouring the top of the list is an advantage of NDCG and ERR (over MRR and MAP)"),
        _value_text(Call("average_precision", ([0, 1],)), N_("AP of 0, 1, against 1 for 1, 0: MRR (1/rank) and "
                    "MAP (precision at each hit) weigh the top too")),
        N_("True of NDCG and ERR, but misleading as an advantage over the others: every metric of the list "
        "except AUC rewards relevant items near the top, since moving the one relevant item from rank 1 to "
        "rank 2 halves its reciprocal rank and its AP. What NDCG and ERR add is graded relevance."), Call("average_precision", ([0, 1],))),
    _er("000", "shortcoming-typo", "typo", "排序指标：“但是这两种评分方式的缺点时函数不连续”", "缺点时", "缺点是",
        N_("Typo: 时 (time) for 是 (is).")),
    _er("000", "suppose-typo", "typo", "1.3 NDCG: “加上长度为K”", "加上", N_("假设 (suppose)"),
        N_("Typo (a homophone from the input method): post 003 has the same sentence with 假设列表长度为K.")),
    _er("000", "top-typo", "typo", N_("1.3 NDCG: “使得排名考前的item的增益更高”"), "考前", N_("靠前 (near the top)"),
        N_("Typo: 考前 (before an exam) for 靠前, which the post writes correctly elsewhere.")),
    _er("000", "z-index-typo", "typo", N_("1.3 NDCG: Z_{j.k} 也可以用 1/IDCG_k 表示 (formula)"), "Z_{j.k}", "Z_{j,k}",
        N_("Typo: a full stop where the subscript of Z_{j,k} has a comma.")),
    _er("000", "f1-name-typo", "typo", N_("1.5 AUC: “也成为F1score”"), "也成为", N_("也称为 (is also called)"),
        N_("Typo: 成为 (become) for 称为 (be called).")),
    _er("000", "imbalance-precision-recall", "error",
        N_("1.5 AUC: “Precision和Recall和ACC有个缺陷就是当正负样本不平衡时,很难表征结果”"),
        N_("precision, recall and accuracy all fail to describe results under class imbalance"),
        N_("accuracy and precision change with the class ratio; recall does not"),
        N_("Right for accuracy and precision, wrong for recall. Recall TP/(TP+FN) is computed inside the positive "
        "class alone, so adding negatives cannot change it; precision TP/(TP+FP) counts the negatives wrongly "
        "predicted positive, so it falls as negatives grow (Fawcett 2006), and accuracy is dominated by them: in "
        "the post's click example, predicting every ad as not clicked scores accuracy above 99% while its "
        "recall is 0.")),
    _er("000", "ndcg-users-reason", "error",
        "1.3 NDCG: “而不同用户之间的DCG相比没有意义(不同用户的兴趣不同,对同样的item排名前后不同)”",
        N_("DCGs of different users cannot be compared because their interests differ and they would order the "
        "same items differently"),
        N_("DCGs of different queries cannot be compared because their ideal DCGs differ: the largest DCG a "
        "query allows depends on how many relevant items it has and how relevant they are; dividing by each "
        "query's IDCG puts every query on [0, 1] before averaging"),
        N_("Different interests are already in the grades; what breaks the comparison is the bound. Two queries "
        "whose judged grades are the same multiset, in whatever order a user prefers them, have the same IDCG and "
        "comparable DCGs; a query with one relevant item cannot reach the DCG of a query with five.")),
    _er("000", "rank-m-document", "typo", N_("1.3 NDCG: 设R(j, m)是评价人员给出的文档 d 对查询 j 的相关性得分 (formula)"),
        N_("R(j, m) is the grade of document d for query j"), N_("R(j, m) is the grade of the document at rank m for query j"),
        N_("Index slip: the formula sums R(j, m) over the ranks m = 1..k, so m, not a document d, is the index.")),
    _er("001", "ndcg-range", "error", "NDCG: “因DCG的值介于 (0,IDCG],故NDCG的值介于(0,1]”", "DCG in (0, IDCG], NDCG in (0, 1]",
        _value_text(Call("ndcg", ([0, 0, 0],), {"ideal": [1, 0, 0]}),
                    N_("DCG is 0 when no returned item is relevant, so NDCG lies in [0, 1]")),
        N_("DCG can be 0; then NDCG is 0 (with the ideal from the judged pool) or 0/0 (with the ideal from the "
        "returned list, which libraries set to 0 or 1)."), Call("ndcg", ([0, 0, 0],), {"ideal": [1, 0, 0]})),
    _er("001", "relevance-labels", "error", "具体操作方式: “可以使用 0,1分别表示相关或不相关”", N_("0 = relevant, 1 = not relevant"),
        N_("1 = relevant (相关), 0 = not relevant (不相关)"),
        N_("The order is reversed: with 0 for relevant, every gain in DCG would reward the irrelevant items.")),
    _er("001", "ap-equals-one", "error", N_("Average Precision: “仅当所有位置的P@k为1, 即所有位置及之前的文档均为相关时, AP才会为1”"),
        N_("AP is 1 only when every position is relevant"),
        _value_text(Call("average_precision", ([1, 1, 0, 0],)),
                    N_("AP of 1, 1, 0, 0: AP is 1 whenever every relevant document comes before every irrelevant one")),
        N_("AP averages P@k only at the relevant positions; irrelevant documents after the last relevant one do "
        "not lower it (here P@3 = 2/3 but AP = 1)."), Call("average_precision", ([1, 1, 0, 0],))),
    _er("001", "mrr-single-query", "terminology", N_("Mean Reciprocal Rank: “如首次出现相关文档的位置为r1,则定义MRR为1/r1”"), "MRR = 1/r1",
        N_("1/r1 is the reciprocal rank (RR) of one query; MRR is its mean over the queries"),
        N_("The 'mean' in MRR (平均倒数排名) is over queries; for one query the value is the reciprocal rank.")),
    _er("001", "cumulative-spelling", "typo", N_("CG: “CG(Cummulative Gain)”"), N_("Cummulative"), N_("Cumulative"),
        N_("Spelling, repeated in “Normalized Discount Cummulative Gain” and “Discounted Cummulative Gain”.")),
    _er("001", "scene-typo", "typo", "“最真实的尝尽”", "尝尽", N_("场景 (scenario)"), N_("Typo from the input method.")),
    _er("001", "pros-cons-typo", "typo", "“选择判定算法/交互方案的优略”", "优略", N_("优劣 (merits)"), "Typo: 略 for 劣."),
    _er("001", "missing-word", "typo", "DCG: “即相同的相关性rel,排在对整次检索结果的正向影响,相较于放在后边更大”",
        "排在对整次检索结果的正向影响", "排在前面对整次检索结果的正向影响",
        N_("A word is missing: the sentence compares an item placed near the top (前面) with one placed below (后边).")),
    _er("001", "doubled-shi", "typo", N_("NDCG: “一般都是是使用一批query及结果进行评估”"), "都是是", "都是",
        N_("A doubled character.")),
    _er("001", "relevance-grading-typo", "typo", N_("具体操作方式: “事先确定query和结果的相关系分级”"), "相关系",
        N_("相关性 (relevance)"), "Typo: 系 for 性."),
    _er("001", "set-typo", "typo", "具体操作方式: “或是这是0~5分别表示严重不相关到非常相关”", "这是", "设置 (set)",
        N_("Typo from the input method: 这是 (this is) for 设置 (set).")),
    _er("001", "doubled-character", "typo", "具体操作方式: “使用DCG的计算公式计计算出返回结果的DCG值”", "计计算", "计算",
        N_("A doubled character.")),
    _er("001", "particle-typo", "typo", N_("具体操作方式: “使用根据sort后的rel值得序列计算IDCG值”"), "值得", "值的",
        N_("Typo: 得 for the particle 的.")),
    _er("001", "dcg-jarvelin", "convention", N_("DCG: DCG_p = rel_1 + Σ_{i=2}^{p} rel_i / log2(i) (formula)"),
        N_("rank 1 undiscounted, rank i ≥ 2 divided by log2(i), linear gain"),
        N_("the original DCG of Järvelin and Kekäläinen (discount='jarvelin', gain='linear'); most libraries "
        "divide rank i by log2(i + 1)"),
        N_("Not an error, a note: ranks 1 and 2 both divide by 1 here, so the values differ from the log2(i + 1) "
        "DCG of the other posts; NDCG differs too, since the two discounts are not proportional.")),
    _er("001", "ap-every-position", "error", "Average Precision: “AP相当于对每个位置计算P@k”",
        N_("AP computes P@k at every position"),
        _value_text(Call("average_precision", ([1, 0, 1],)),
                    N_("AP of 1, 0, 1: P@k is taken only at the ranks of the relevant documents, 1 and 3")),
        N_("At every position the mean of P@1, P@2, P@3 would be (1 + 1/2 + 2/3)/3 = 13/18; AP skips the "
        "irrelevant rank 2 and averages P@1 and P@3: (1 + 2/3)/2 = 5/6."), Call("average_precision", ([1, 0, 1],))),
    _er("002", "rank-for-evaluate", "typo", "1 为什么要评估排序: “就需要一个标准来对排序的效果进行排序”", N_("a standard to rank (排序) the effect of the ranking"),
        N_("a standard to evaluate (评估) the effect of the ranking"),
        N_("Word slip: the sentence is about evaluating (评估) the ranking algorithm after the fact, as its first half "
        "says (事后评估排序算法); 排序 repeats the word before it.")),
    _er("003", "precision-spelling", "typo", N_("简介: “准确率(Precesion, P)”"), N_("Precesion"), N_("Precision"), N_("Spelling.")),
    _er("003", "recall-label", "typo", N_("Recall(召回率,R): precision = |retrieved ∩ relevant| / |relevant| (formula)"),
        N_("the recall formula is labelled precision="), N_("recall = |retrieved ∩ relevant| / |relevant documents|"),
        N_("Copy-paste slip: the left-hand side of the recall (召回率) formula still says precision.")),
    _er("003", "f-measure-formula", "error", N_("综合评价指标: F = (a²+1)P·R / (a²(P+R)) (formula)"), "(a²+1)PR / (a²(P+R))",
        _value_text(_F2_EXAMPLE, N_("F with a = 2, P = 1/2, R = 2/3, from (a²+1)PR/(a²P+R)")),
        N_("a² multiplies only P in the denominator; the printed formula agrees with F1 at a = 1 but gives 5/14 "
        "instead of 5/8 for a = 2, P = 1/2, R = 2/3."), _F2_EXAMPLE),
    _er("003", "code-dcg-gain", "convention", N_("NDCG: DCG_p = Σ rel_i / log2(i+1) (formula) beside `def ndcg_score(y_true, y_score, k=10, gains=\"exponential\"):`"),
        N_("the text defines the linear gain rel_i, the code defaults to 2^rel − 1"),
        N_("both are DCG conventions; the code offers the text's linear gain with gains=\"linear\""),
        N_("Not an error, a note: the text and the code's default use different gains (增益), and the code can "
        "do either; say which one a number uses, since the values differ.")),
    _er("003", "code-ideal-unsorted", "error", N_("NDCG code: `best = dcg_score(y_true, k, gains)`"),
        N_("the ideal DCG is the DCG of y_true in the given order"),
        N_("the ideal DCG is the DCG of y_true sorted in decreasing order"),
        N_("IDCG (理想DCG) needs the best possible order; unsorted y_true makes `best` too small, so the "
        "'NDCG' can exceed 1.")),
    _er("003", "code-scores-as-gains", "error", N_("NDCG code: `actual = dcg_score(y_score, k, gains)`"),
        N_("DCG of the predicted scores themselves"),
        _value_text(_TORCH_DEMO, N_("for grades 0, 1, 2 scored 0.1, 0.5, 0.9 the model's order is perfect; "
                    "called with k=3 the code returns ≈ 0.3595 (with its default k=10 it fails on these "
                    "3 items, see 003-code-short-list)")),
        N_("DCG must sum the true grades in the order the scores give (sort y_true by y_score); the code "
        "uses the scores as if they were grades."), _TORCH_DEMO),
    _er("003", "code-short-list", "error", N_("NDCG code: `discounts = torch.log2(torch.arange(k) ... + 2)`, default k=10"),
        N_("k discounts for a list of any length"), N_("min(k, len(list)) discounts"),
        N_("With fewer than k items (e.g. 3 items, k = 10) gains and discounts have different lengths and "
        "`gains / discounts` fails with a shape error.")),
    _er("003", "mrr-cascade", "error", N_("ERR: “但是MRR不可导，无法作为梯度改进模型。因此Cascade Model（瀑布模型）出现”"),
        N_("the cascade model appeared because MRR is not differentiable"),
        N_("the cascade model is a click model (Craswell et al. 2008) that explains position bias in clicks; "
        "ERR (Chapelle et al. 2009) builds on it and is no more differentiable than MRR"),
        N_("Not differentiable (不可导) is true of MRR, ERR and NDCG alike; it is not why the cascade model exists.")),
    _er("003", "err-to-dcg", "error", N_("ERR: “若将$\\frac {1}{r}$换为$\\frac{1}{log_2r+1}$此时与DCG相同”"),
        N_("ERR with 1/(log2 r + 1) instead of 1/r is DCG"),
        _value_text(Call("dcg", ([3, 2, 3, 1],)), _err_to_dcg_reason),
        N_("The cascade factor Π(1 − R_i) stays, so the result is not DCG; only dropping it and using "
        "R_r = (2^l − 1)/2^{l_m} with 1/log2(r+1) gives DCG / 2^{l_m}. (log2 r + 1 also differs from "
        "log2(r+1) from rank 2 on.)"), Call("dcg", ([3, 2, 3, 1],))),
    _er("003", "precision-term", "terminology", N_("简介: “准确率(Precesion, P)”; Average precision: “将准确率与召回率联立”"),
        N_("准确率 for precision"),
        Message(N_("{precision} or {alternative} for precision, which cannot be read as {accuracy}"),
                precision=zh("precision"), alternative=TERMS["precision"].alternatives[0], accuracy=zh("accuracy")),
        N_("An ambiguity, not an error: some Chinese texts use 准确率 for precision, as this one does, and others "
        "for accuracy, (TP+TN)/all. The unambiguous name of precision, TP/(TP+FP), is 精确率/查准率, as "
        "the post itself writes in “Precision(精确度,P)” and “召回率和精确率”.")),
    _er("003", "err-name", "terminology", N_("简介: “期望倒数排序(Expected reciprocal rank, ERR)”"), "期望倒数排序",
        Message(N_("{term} (rank, not sorting)"), term=TERMS["err"].alternatives[0]), N_("排序 is sorting or ranking as a process; the reciprocal rank is 倒数排名, "
        "as the post writes later (“预期的倒数排名”).")),
    _er("003", "cascade-name", "terminology", N_("ERR: “Cascade Model（瀑布模型）”"), "瀑布模型", Message(N_("{term} (cascade model)"), term=zh("cascade_model")),
        N_("瀑布模型 is the waterfall model of software engineering; the click model of Craswell et al. (2008) is "
        "the cascade model, 级联模型, as post 000 calls it.")),
    _er("003", "intersection-of-sizes", "error",
        N_("Precision and Recall: |retrieved documents| ∩ |relevant documents| (formulas)"),
        N_("|retrieved| ∩ |relevant|: an intersection of two numbers"),
        N_("|retrieved ∩ relevant|: the size of the intersection of the two sets"),
        N_("∩ applies to sets, not to their sizes (numbers); the numerator counts the documents both retrieved "
        "and relevant.")),
    _er("003", "doubled-formulas", "typo", N_("Average precision: “那么就可以对函数P=f(R)P=f(R)在RR上进行积分，可以求PP的期望均值”"),
        "P=f(R)P=f(R), RR, PP", "P=f(R), R, P",
        N_("Each formula was pasted twice (its rendered and its source text).")),
    _er("003", "converted-words", "typo", "ERR: “则操做结束；不然跳过该项继续日后查看” and “表示用户的需求被知足时中止的位置的倒数的期望”",
        "操做、日后、知足", "操作、往后、满足",
        N_("Three wrong words, as an automatic synonym replacement leaves them: 操做 is not a word (操作, "
        "operation); 日后 means “some day in the future”, not 往后 (further down the list); 知足 means “content "
        "with one's lot”, which changes the meaning of 满足 (the need is satisfied). 中止 (stop) in the same "
        "sentence is correct.")),
    _er("003", "click-probability", "error", "Cascade Model: “其中 $r_i$ 表示第 i 个文档被点击的几率”",
        N_("r_i is the probability that document i is clicked"),
        N_("r_i is the probability that document i is clicked once the user examines it, that is, given that the "
        "user reached rank i; its click probability is P(C_i) = r_i Π_{j<i} (1 − r_j)"),
        N_("The post's own formula shows the difference: with r_1 = r_2 = 1/2 the second document is clicked "
        "with probability 1/2 · 1/2 = 1/4, not r_2 = 1/2. Only the first document's click probability is r_1.")),
    _er("003", "ap-sum", "error", "Average precision: “AveP意义是在召回率从0到1逐步提高的同时，对每个R位置上的P进行相加”",
        N_("AveP adds up P at every recall level"),
        _value_text(Call("average_precision", ([1, 1],)),
                    N_("AP of 1, 1: the mean of P over the recall levels, each weighted by its step ΔR")),
        N_("The integral just before is Σ P·ΔR, and each relevant document raises R by ΔR = 1/R: AP is the mean of "
        "P at the recall levels, never above 1. Adding the P values without the ΔR gives 1 + 1 = 2 here."),
        Call("average_precision", ([1, 1],))),
    _er("003", "extra-de", "typo", N_("F-Measure: “P和R指标有时候会出现的矛盾的情况”"), "会出现的矛盾的情况", "会出现矛盾的情况",
        N_("A stray 的 after 出现 makes the clause ungrammatical.")),
    _er("004", "dg-heading", "typo", N_("3.1 heading: “3.1 DG和DCG”"), "DG", "CG", N_("Typo: the section introduces CG (累计增益).")),
    _er("004", "rel-index", "typo", N_("3.1: “\\text{rel}_i表示第k个物品的相关性或者评分”"), N_("rel_i is the k-th item's grade"),
        N_("rel_i is the i-th item's grade"), N_("Index slip: i runs over 1..k.")),
    _er("004", "p-for-k", "terminology", "3.2: “因为不同搜索模型给出的结果有多有少(P的大小不同)”", "P", N_("k (the list length)"),
        N_("The post calls the cut-off k everywhere else; P is borrowed from another text's CG_p.")),
    _er("004", "idcg-value", "error", N_("3.2: IDCG_5 = ... = 31+9.5+3.5+1.3+1.2 = 46.5 (formula)"), "46.5",
        _value_text(WORKED_EXAMPLES[-2].call, N_("ideal top 5 of the 7 judged films: 5, 4, 3, 2, 2")),
        N_("Each term was rounded to one decimal and exactly three were rounded up (15/log2 3 ≈ 9.464 → 9.5, "
        "3/log2 5 ≈ 1.292 → 1.3, 3/log2 6 ≈ 1.161 → 1.2); 31 and 3.5 are exact; the exact sum is ≈ 46.4165."),
        WORKED_EXAMPLES[-2].call),
    _er("004", "ndcg-value", "error", N_("3.2: NDCG_5 = DCG_5/IDCG_5 = 38.5/46.5 = 0.827 (formula)"), "0.827",
        _value_text(WORKED_EXAMPLES[-1].call, N_("exact DCG / exact IDCG")),
        N_("38.5/46.5 = 0.82796 would round to 0.828, and with unrounded DCG and IDCG the value is ≈ 0.8296."),
        WORKED_EXAMPLES[-1].call),
    _er("004", "dcg-compare-reason", "error",
        "3.2: “因为不同搜索模型给出的结果有多有少(P的大小不同),仍然会造成无法对比两个模型的效果”",
        N_("DCG cannot compare two models because they return different numbers of results"),
        N_("on one query at a fixed k, NDCG = DCG / IDCG divides both models by the same IDCG, so NDCG orders them "
        "exactly as DCG does; normalising is needed to average over queries, whose IDCGs differ"),
        N_("A model that returns fewer results simply gains nothing at the empty ranks, and DCG@k already counts "
        "that. Across queries the bound differs: a query with many highly relevant films has a large IDCG and would "
        "dominate a mean of DCGs, so each query's DCG is divided by its own IDCG first.")),
    _er("004", "judged-not-relevant", "terminology", "3.2: “如果相关电影一共有7部 ... 评分分别是 5, 3, 2, 1, 2, 4, 0”",
        N_("7 relevant films"), N_("7 judged films, 6 of them relevant (one is rated 0)"),
        N_("A film rated 0 is judged but not relevant; the ideal list comes from all judged films.")),
    _er("004", "mar-typo", "typo", "3.3: “NDCG相对于MAR和MRR指标公式会更复杂”", "MAR", "MAP", N_("Typo for MAP.")),
    _er("004", "rel-as-set", "typo", "3.3: “相同的是相关度得分都是rel = {0,1,2......}”", "rel = {0,1,2......}",
        "rel ∈ {0, 1, 2, ...}", N_("rel is one number; it belongs to the set of grades rather than equals it.")),
    _er("004", "code-mrr", "error", N_("code 1 at the end of the page, relevant_docs = [1, 3, 5], results = [3, 4, 2, 1, 5]: `print(mean_reciprocal_rank(results, relevant_docs)) # 输出 0.3333`"),
        "0.3333",
        _value_text(Call("reciprocal_rank", ([1, 0, 0, 1, 1],)), N_("the first result, 3, is relevant; the "
                    "code returns 1.0")),
        N_("The claimed output is wrong, and the function returns one query's reciprocal rank, not a mean, "
        "despite its name."), Call("reciprocal_rank", ([1, 0, 0, 1, 1],))),
    _er("004", "code-map", "error", N_("code 2 at the end of the page: `print(mean_average_precision(results_list, relevant_docs_list)) # 输出 0.5`"),
        "0.5",
        _value_text(Call("mean_average_precision", ([[1, 0, 0, 1, 1], [0, 1, 1, 0, 0], [1, 0, 1, 0, 1]],),
                         {"n_relevant": [3, 3, 3]}), N_("APs 7/10, 7/18, 34/45; the code returns this too")),
        N_("The code is right; its printed output is not."),
        Call("mean_average_precision", ([[1, 0, 0, 1, 1], [0, 1, 1, 0, 0], [1, 0, 1, 0, 1]],),
             {"n_relevant": [3, 3, 3]})),
    _er("004", "code-ndcg", "error", N_("code 3 at the end of the page, recommended_items = [1, 2, 3, 4, 5], relevant_items = [1, 3, 5]: `print(ndcg(recommended_items, relevant_items, 5)) # 输出 0.6244`"), "0.6244",
        _value_text(Call("ndcg", ([1, 0, 1, 0, 1],), {"k": 5}),
                    N_("NDCG@5 with 3 relevant items; the code returns ≈ 0.639945")),
        N_("The claimed output matches nothing; the code itself computes IDCG as if all k = 5 positions could "
        "be relevant (IDCG = Σ 1/log2(i+1) for i ≤ k), but only 3 items are relevant."),
        Call("ndcg", ([1, 0, 1, 0, 1],), {"k": 5})),
)


def _index():
    table = {}
    for record in WORKED_EXAMPLES + ERRATA:
        if record.id in table:
            raise RuntimeError(f"duplicate id {record.id!r} in ltr_teach.teaching.examples")
        table[record.id] = record
    return table


_BY_ID = _index()


def by_id(id: str):  # the records' field is called id
    """The worked example or erratum with this id.

    >>> by_id("002-ndcg-lipstick-b").printed
    '0.9771'
    >>> by_id("nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: id = 'nope' is not a worked example or erratum; valid ids: 000-mrr-three-queries, ...
    """
    if id not in _BY_ID:
        raise ValueError(f"id = {id!r} is not a worked example or erratum; valid ids: {', '.join(_BY_ID)}")
    return _BY_ID[id]


def _decimal(exact, places: int) -> str:
    """The exact value rounded half-even at ``places`` decimals, from 40 significant digits."""
    return str(Decimal(str(sympy.N(exact, 40))).quantize(Decimal(1).scaleb(-places)))


def _exact_and_decimal(ex: WorkedExample) -> str:
    exact = ex.exact
    if isinstance(exact, sympy.Integer):
        return fmt_exact(exact)
    places = max([6] + [len(p.split(".")[1]) for p in ex.printed.split("=") if "." in p])
    decimal = _decimal(exact, places)
    if isinstance(exact, sympy.Rational):
        if terminates(exact, places):
            return f"{fmt_exact(exact)} = {fmt_decimal(to_float(exact), places)}"
        return f"{fmt_exact(exact)} ≈ {decimal}"
    return f"≈ {decimal}"


def format_examples() -> str:
    """The worked examples as an aligned text table, one line each, mismatches flagged.

    >>> text = format_examples()
    >>> print(text.splitlines()[0])  # doctest: +NORMALIZE_WHITESPACE
    id  post  quantity  printed  exact  agrees
    >>> [line.split()[0] for line in text.splitlines() if line.endswith("MISMATCH")]
    ['000-map-two-queries', '000-err-lipstick', '004-idcg-movies', '004-ndcg-movies']
    """
    rows = [[ex.id, _(ex.post.label), ex.quantity, ex.printed, _exact_and_decimal(ex), _("yes") if ex.matches else
             _("MISMATCH")] for ex in WORKED_EXAMPLES]
    head = ["id", _("post"), _("quantity"), _("printed"), _("exact"), _("agrees")]
    mismatches = sum(not ex.matches for ex in WORKED_EXAMPLES)
    code = wrong_code_outputs()
    summary = _("{n} worked examples, {mismatches} printed values disagree with the exact value; post 004's code "
                "comments print {n_code} more wrong outputs ({outputs}): {total} printed values disagree in all (see "
                "`ltr-teach errata`)").format(n=len(WORKED_EXAMPLES), mismatches=mismatches, n_code=len(code),
                                              outputs=", ".join(e.printed for e in code), total=mismatches + len(code))
    return "\n".join(aligned_lines(head, rows, left=len(head))) + "\n\n" + summary


def wrong_code_outputs() -> list:
    """The errata whose printed number is a code comment's claimed output that the code does not give.

    >>> [e.printed for e in wrong_code_outputs()]
    ['0.3333', '0.5', '0.6244']
    """
    worked = {ex.printed for ex in WORKED_EXAMPLES}
    return [e for e in ERRATA if e.kind == "error" and e.call is not None and "code" in e.id
            and e.printed not in worked and _is_number(e.printed) and not printed_agrees(e.printed, e.exact)]


def _is_number(text: str) -> bool:
    return all(_FRACTION.match(f.strip()) or _DECIMAL.match(f.strip()) for f in text.split("="))


def format_errata() -> str:
    """Every erratum as an aligned text block: where, what is printed, what is correct, and why.

    >>> print(format_errata().splitlines()[0])
    000-mrr-sum  post 000 · 最近想要总结一下 LTR的算法
    """
    labels = [N_("kind"), N_("where"), N_("printed"), N_("correct"), N_("usual"), N_("why")]
    label = max(display_width(_(w)) for w in labels)
    blocks = []
    for e in ERRATA:
        lines = [f"{e.id}  {_(e.post.label)}"]
        for name, text in (("kind", f"{_(e.kind)}: {_(e.verdict)}"), ("where", e.where), ("printed", e.printed),
                           (e.correct_label, e.correct), ("why", e.explanation)):
            shown = _(name)
            lines.append(f"  {shown}{' ' * (label - display_width(shown))}  {_(text)}")
        blocks.append("\n".join(lines))
    counts = _(", ").join(_("{n} {kind}").format(n=sum(e.kind == kind for e in ERRATA), kind=_(kind)) for kind in KINDS)
    return "\n\n".join(blocks) + "\n\n" + _("{n} records in {n_documents} posts ({counts}); only the errors say "
                                             "the post is wrong").format(
        n=len(ERRATA), n_documents=len({e.document for e in ERRATA}), counts=counts)
