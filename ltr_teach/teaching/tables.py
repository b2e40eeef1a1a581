"""Teaching tables the notebooks print: the posts' numbers beside the library's, and NDCG@k cut by cut.

- :func:`examples_table`: worked examples of :mod:`.examples`, what the post prints against the
  exact value written to the post's precision, and whether they agree;
- :func:`ndcg_cutoffs`: NDCG@k for k = 1, 2, ... with the rule that decides whether each new rank
  raises or lowers it;
- :func:`documents_table`: per source document, its erratum records by kind, worked examples and wrong
  printed numbers;
- :func:`glossary_table`: the field's terms in Chinese and English, from the one glossary;
- :func:`rank_weights_table`: each metric's weight of a few ranks, the reader it models.
"""

from __future__ import annotations

from decimal import Decimal

import sympy

from ..core.exact import to_float
from ..core.glossary import TERMS
from ..core.i18n import N_, Message
from ..core.table import Table
from ..core.validate import as_grades
from ..metrics.gains import RANK_WEIGHTS, rank_weights
from ..metrics.graded import ndcg
from . import examples

#: A difference this small between two floats counts as "no change" (they come from exact values
#: whose equality SymPy cannot always decide: sums of logarithms).
_SAME = 1e-12


def _places(printed: str) -> int:
    """Decimals to show: those the post printed (in any '='-separated part), at least 6."""
    return max([6] + [len(part.split(".")[1]) for part in printed.split("=") if "." in part])


def library_value(exact, printed: str) -> str:
    """The exact value as the post would compare it: the fraction where it is one, and its decimal
    written to the post's precision (at least 6 places).

    Examples
    --------
    Post 000's MAP is 599/840 = 0.71309523...; the post prints 599/420 (no decimals), so
    six places are shown:

    >>> library_value(sympy.Rational(599, 840), "599/420")
    '599/840 ≈ 0.713095'

    An integer prints alone, an irrational value as its decimal only:

    >>> library_value(sympy.Integer(15), "15"), library_value(7 + 3 / sympy.log(3, 2), "8.892789")
    ('15', '≈ 8.892789')
    """
    if isinstance(exact, sympy.Integer):
        return str(exact)
    places = _places(printed)
    decimal = str(Decimal(str(sympy.N(exact, 40))).quantize(Decimal(1).scaleb(-places)))
    if isinstance(exact, sympy.Rational) and exact.q != 1:
        return f"{exact} ≈ {decimal}"
    return f"≈ {decimal}"


def examples_table(*ids) -> Table:
    """Worked examples side by side: what the post prints, the library's value, whether they agree.

    Parameters
    ----------
    *ids : str
        Ids of :data:`ltr_teach.teaching.examples.WORKED_EXAMPLES` records.

    Returns
    -------
    Table
        One row per example: the quantity, the printed number, the exact value with its decimal
        to the printed precision, and ``yes`` / ``NO``.

    Examples
    --------
    Post 002's lipstick A: CG = 5 + 1 + 3 + 2 + 4 = 15, printed as 15.

    >>> print(examples_table("002-cg-lipstick-a"))
    quantity           post prints  library (exact ≈ decimal)  agrees
    -----------------  -----------  -------------------------  ------
    Cumulative Gain_A           15                         15     yes
    """
    if not ids:
        raise ValueError("ids must name at least one worked example (see lt.examples.WORKED_EXAMPLES)")
    rows = []
    for id_ in ids:
        ex = examples.by_id(id_)
        if not isinstance(ex, examples.WorkedExample):
            raise ValueError(f"ids: {id_!r} is an erratum, not a worked example; use erratum_card for errata")
        rows.append((ex.quantity, ex.printed, library_value(ex.exact, ex.printed),
                     Message(N_("yes")) if ex.matches else Message(N_("NO"))))
    return Table((N_("quantity"), N_("post prints"), N_("library (exact ≈ decimal)"), N_("agrees")), tuple(rows))


def ndcg_cutoffs(grades, **ndcg_kwargs) -> Table:
    """NDCG@k for every k, and why each new rank raises or lowers it.

    NDCG@k = DCG@k / IDCG@k. Going from k − 1 to k adds a / d to DCG and b / d to IDCG, where a is
    the ranking's gain at rank k, b the ideal's and d the common discount of rank k. Then

        (D + a/d) / (I + b/d) − D / I = b · (a/b − D/I) / (d · (I + b/d))

    so (for b > 0 and I > 0) NDCG@k > NDCG@(k − 1) exactly when a / b > NDCG@(k − 1): the new
    rank's gain over the ideal's gain must beat the NDCG so far (a mediant). When b = 0 the ideal
    adds nothing and NDCG@k rises exactly when a > 0.

    Parameters
    ----------
    grades : sequence of int
        Grades in ranked order.
    **ndcg_kwargs
        Passed to :func:`ltr_teach.metrics.graded.ndcg` (``gain``, ``discount``, ``ideal``, ``zero``);
        ``k`` is set by the table.

    Returns
    -------
    Table
        Columns: k, the grade at rank k and the ideal's, the ratio gain / ideal gain, NDCG@k, and
        whether NDCG rose or fell, with the rule's prediction beside it.

    Examples
    --------
    Grades 3, 2, 3 (ideal 3, 3, 2; exponential gains 7, 3, 7 against 7, 7, 3). At k = 2 the ratio
    3/7 ≈ 0.43 is below NDCG@1 = 1, so NDCG falls to (7 + 3/log2 3) / (7 + 7/log2 3) ≈ 0.778941; at
    k = 3 the ratio 7/3 is above that, so it rises.

    >>> print(ndcg_cutoffs([3, 2, 3]))
    k  grade  ideal grade  gain / ideal gain      NDCG@k  change  rule: ratio vs NDCG@(k−1)
    -  -----  -----------  -----------------  ----------  ------  -------------------------
    1      3            3                  1           1       –                          –
    2      2            3       3/7 ≈ 0.4286  ≈ 0.778941   falls               below: falls
    3      3            2       7/3 ≈ 2.3333  ≈ 0.959454   rises               above: rises
    """
    grades = [int(g) for g in as_grades(grades, "grades", integer=True)]
    if "k" in ndcg_kwargs:
        raise ValueError("ndcg_cutoffs sets k itself (1 to len(grades)); do not pass k")
    rows = []
    previous = None
    for k in range(1, len(grades) + 1):
        ex = ndcg(grades, k=k, **ndcg_kwargs)
        step = ex.steps[k - 1]
        a, b = step["contribution"], step["ideal_contribution"]   # gain / d and ideal gain / d, same d
        value = to_float(ex.exact)
        if b == 0:
            ratio_text, ratio = (Message(N_("– (ideal gain 0)")), None)
        else:
            ratio = sympy.simplify(a / b)   # the discounts cancel: g_k / g*_k, a fraction
            ratio_text = str(ratio) if ratio.is_Integer else f"{ratio} ≈ {to_float(ratio):.4f}"
        if previous is None:
            change = rule = "–"
        else:
            change = Message(N_("same") if abs(value - previous) <= _SAME else
                             (N_("rises") if value > previous else N_("falls")))
            if to_float(ex.steps[k - 2]["idcg"]) == 0:
                rule = "– (IDCG@(k−1) = 0)"
            elif ratio is None:
                rule = Message(N_("gain > 0: rises") if a > 0 else N_("gain 0: same"))
            else:
                gap = to_float(ratio) - previous
                rule = Message(N_("equal: same") if abs(gap) <= _SAME else
                               N_("above: rises") if gap > 0 else N_("below: falls"))
        shown = ex.exact_str if ex.exact.is_Integer else f"≈ {value:.6f}"
        rows.append((str(k), str(step["grade"]), str(step["ideal_grade"]), ratio_text, shown, change, rule))
        previous = value
    return Table(("k", N_("grade"), N_("ideal grade"), N_("gain / ideal gain"), "NDCG@k", N_("change"),
                  N_("rule: ratio vs NDCG@(k−1)")),
                 tuple(rows))


def documents_table() -> Table:
    """Per source document: its erratum records by kind, its worked examples, and the printed numbers that
    disagree with the exact value (worked examples and code comments' claimed outputs); the last row adds
    them up.

    The counts are read from :data:`~ltr_teach.teaching.examples.ERRATA` (with their ``kind``),
    :data:`~ltr_teach.teaching.examples.WORKED_EXAMPLES` and
    :func:`~ltr_teach.teaching.examples.wrong_code_outputs`, so they follow every record added.

    Examples
    --------
    Post 002 (the lipstick example) prints seven numbers and gets all of them right:

    >>> table = documents_table()
    >>> row = [row for row in table.rows if row[0].startswith("post 002 · Ranking")][0]
    >>> dict(zip(table.header, row))["worked examples"], dict(zip(table.header, row))["printed numbers wrong"]
    ('7', '0')
    """
    kinds = list(examples.KINDS)
    code_outputs = examples.wrong_code_outputs()
    rows = []
    totals = [0] * (len(kinds) + 2)
    for post in examples.POSTS.values():
        counts = [sum(1 for e in examples.ERRATA if e.post == post and e.kind == kind) for kind in kinds]
        counts.append(sum(1 for ex in examples.WORKED_EXAMPLES if ex.post == post))
        counts.append(sum(1 for ex in examples.WORKED_EXAMPLES if ex.post == post and not ex.matches)
                      + sum(1 for e in code_outputs if e.post == post))
        totals = [t + c for t, c in zip(totals, counts)]
        rows.append((post.label, *(str(c) for c in counts)))
    rows.append((Message(N_("total")), *(str(t) for t in totals)))
    header = (N_("post"), *(_KIND_COLUMNS[kind] for kind in kinds),
              N_("worked examples"), N_("printed numbers wrong"))
    return Table(header, tuple(rows))


#: The column title of each kind of erratum (``examples.KINDS``'s keys; a new kind fails here until it has one).
_KIND_COLUMNS = {"error": N_("errors"), "convention": N_("conventions"), "misleading": N_("misleading"),
                 "terminology": N_("terminology"), "typo": N_("typos")}


def glossary_table() -> Table:
    """The field's terms from :data:`~ltr_teach.core.glossary.TERMS`: the Chinese term the course uses, the
    accepted alternatives, the English term, and the wrong names the documents give it.

    One row per term, in the glossary's order; a term added to the glossary appears here without a second list.

    Examples
    --------
    Precision is 精确率, also 查准率; post 003 calls it 准确率 and post 000 查全率:

    >>> table = glossary_table()
    >>> row = [row for row in table.rows if row[2] == "precision"][0]
    >>> row
    ('精确率', '查准率', 'precision', '准确率、查全率')
    """
    rows = tuple((term.zh, "、".join(term.alternatives) or "–", term.en,
                  "、".join(m.wrong for m in term.wrong) or "–") for term in TERMS.values())
    return Table((N_("Chinese term"), N_("also accepted"), N_("English term"), N_("wrong names in the posts")),
                 rows, left=4)



def rank_weights_table(ranks=(1, 2, 3, 5, 10, 20), p=0.8) -> Table:
    """What one unit of gain is worth at a few ranks under each metric's reader (rank 1 worth 1), to 3 decimals.

    The rows are :data:`~ltr_teach.metrics.gains.RANK_WEIGHTS` (DCG's 1/log2(i + 1), Järvelin & Kekäläinen's
    1/max(1, log2 i), the reciprocal rank's 1/i, RBP's p^(i − 1)); the values are their exact weights rounded.

    Parameters
    ----------
    ranks : sequence of int >= 1
        The ranks to show, increasing.
    p : number in (0, 1)
        RBP's persistence; a decimal is read exactly (0.8 is 4/5).

    Examples
    --------
    Rank 10: 1/log2(11) ≈ 0.289, 1/max(1, log2 10) ≈ 0.301, 1/10, and 0.8^9 ≈ 0.134.

    >>> print(rank_weights_table(ranks=(1, 2, 10)))
    weight            used by                      i = 1  i = 2  i = 10
    ----------------  ---------------------------  -----  -----  ------
    1/log2(i + 1)     DCG, NDCG                    1.000  0.631   0.289
    1/max(1, log2 i)  Järvelin & Kekäläinen's DCG  1.000  1.000   0.301
    1/i               reciprocal rank; ERR's 1/r   1.000  0.500   0.100
    p^(i − 1)         RBP                          1.000  0.800   0.134
    """
    ranks = tuple(ranks)
    for i, r in enumerate(ranks):
        if isinstance(r, bool) or not isinstance(r, int) or r < 1:
            raise ValueError(f"ranks[{i}] = {r!r} is not a rank; ranks are whole numbers 1, 2, ...")
        if i and r <= ranks[i - 1]:
            raise ValueError(f"ranks[{i}] = {r} does not follow ranks[{i - 1}] = {ranks[i - 1]}; give them increasing")
    if not ranks:
        raise ValueError("ranks must name at least one rank")
    weights = rank_weights(ranks[-1], p)
    rows = tuple((Message(w.label), Message(w.metrics), *(f"{to_float(weights[name][r - 1]):.3f}" for r in ranks))
                 for name, w in RANK_WEIGHTS.items())
    return Table((N_("weight"), N_("used by"), *(f"i = {r}" for r in ranks)), rows, left=2)


__all__ = ["documents_table", "examples_table", "glossary_table", "library_value", "ndcg_cutoffs", "rank_weights_table"]
