"""Assessor agreement: Cohen's kappa, exact (Manning, Raghavan & Schütze, *Introduction to Information
Retrieval*, section 8.5)."""

from __future__ import annotations

import numbers
from collections import Counter

from sympy import Rational

from ..core.exact import _brief
from ..core.explanation import Column, Explanation
from ..core.i18n import N_, Message
from ..core.validate import as_choice, as_sequence

#: How the chance agreement P(E) reads each judge's category shares: each judge's own (Cohen 1960,
#: scikit-learn's ``cohen_kappa_score``) or the two judges pooled (Manning et al., section 8.5).
MARGINALS = {
    "separate": N_("chance agreement from each judge's own shares (Cohen 1960, scikit-learn)"),
    "pooled": N_("chance agreement from the two judges' pooled shares (Manning et al. 2008, section 8.5)"),
}


#: The largest count of one cell of ``counts=`` (the table is read as it is, never expanded into labels).
MAX_CELL = 10**15


def _from_counts(counts):
    """Judge A's totals, judge B's, the diagonal and n from a square table, without expanding it into labels."""
    rows = as_sequence(counts, "counts", limit=100)
    size = len(rows)
    in_a, in_b, both = [0] * size, [0] * size, [0] * size
    for i, row in enumerate(rows):
        row = as_sequence(row, f"counts[{i}]", limit=100)
        if len(row) != size:
            raise ValueError(f"counts must be square (judge A's category by judge B's); counts[{i}] has {len(row)} "
                             f"cells, not {size}")
        for j, c in enumerate(row):
            if isinstance(c, bool) or not isinstance(c, numbers.Integral) or not 0 <= c <= MAX_CELL:
                raise ValueError(f"counts[{i}][{j}] = {_brief(c)} must be a whole number from 0 to {MAX_CELL} (how "
                                 "many items)")
            c = int(c)
            in_a[i] += c
            in_b[j] += c
            if i == j:
                both[i] = c
    return list(range(size)), in_a, in_b, both, sum(in_a)


def _label(x, name: str, i: int):
    """A hashable category label; a NumPy scalar as its Python value; NaN refused (NaN != NaN: it would never
    agree with itself)."""
    if hasattr(x, "item") and not isinstance(x, (list, tuple)) and getattr(x, "ndim", 0) == 0:
        x = x.item()
    try:
        hash(x)
    except TypeError:
        raise ValueError(f"{name}[{i}] = {_brief(x)} is not a category label (give numbers or text)") from None
    if x != x:  # noqa: PLR0124 - NaN
        raise ValueError(f"{name}[{i}] = {x!r} is not a category label: NaN never equals itself, so it could not "
                         "agree with anything (give numbers or text)")
    return x


def _sort_key(c):
    if isinstance(c, numbers.Real) and not isinstance(c, bool):
        return (0, "", c)
    return (1, str(type(c)), str(c))


def cohen_kappa(judge_a=None, judge_b=None, *, counts=None, marginals="separate") -> Explanation:
    """Cohen's kappa: how much two assessors agree beyond what chance would give.

    .. math:: \\kappa = \\frac{P(A) - P(E)}{1 - P(E)}

    :math:`P(A)` is the share of items both judges put in the same category; :math:`P(E)` the
    agreement expected by chance, :math:`\\sum_c p_A(c)\\,p_B(c)` with each judge's own shares, or
    :math:`\\sum_c p(c)^2` with the two judges' shares pooled, as Manning et al. compute it. 1 is
    perfect agreement, 0 what chance gives; Manning et al. call above 0.8 good, 0.67–0.8 fair.

    Parameters
    ----------
    judge_a, judge_b : sequences of labels
        Each judge's category for every item (0/1 relevance, grades, any hashable), one per item.
    counts : square table of int, optional
        Instead of the two lists: ``counts[i][j]`` items that judge A put in category i and judge B
        in category j (categories 0, 1, ...).
    marginals : {"separate", "pooled"}, default "separate"
        Cohen's chance agreement (each judge's own shares) or the textbook's pooled shares.

    Returns
    -------
    Explanation
        ``.exact`` is kappa, a fraction; ``.steps`` one row per category: the items each judge put
        there, those both did, and its chance term; ``.params`` has ``p_agree`` (P(A)) and
        ``p_chance`` (P(E)).

    Examples
    --------
    Manning et al.'s Table 8.2: 400 documents; both judges say relevant for 300, both say
    non-relevant for 70, judge 1 alone says relevant for 20, judge 2 alone for 10. P(A) = 370/400 =
    0.925. Pooled: P(relevant) = (320 + 310)/800 = 0.7875, P(E) = 0.7875² + 0.2125² = 0.6653125, which
    the book prints as 0.665, and kappa = 0.776.

    >>> import ltr_teach as lt
    >>> table = [[70, 10], [20, 300]]         # rows judge 1 (no, yes), columns judge 2 (no, yes)
    >>> ex = lt.cohen_kappa(counts=table, marginals="pooled")
    >>> ex.params["p_agree"], ex.params["p_chance"], round(ex.value, 3)
    (37/40, 2129/3200, 0.776)
    >>> lt.cohen_kappa(counts=table).exact    # Cohen: P(E) = 0.8·0.775 + 0.2·0.225 = 0.665
    52/67
    """
    marginals = as_choice(marginals, "marginals", tuple(MARGINALS))
    if counts is not None:
        if judge_a is not None or judge_b is not None:
            raise ValueError("give either judge_a and judge_b or counts, not both")
        categories, a_counts, b_counts, diagonal, n = _from_counts(counts)
        if not n:
            raise ValueError("counts holds no item (every cell is 0)")
    else:
        if judge_a is None or judge_b is None:
            raise ValueError("cohen_kappa needs judge_a and judge_b (each judge's label for every item), or counts=")
        a, b = as_sequence(judge_a, "judge_a", limit=100_000), as_sequence(judge_b, "judge_b", limit=100_000)
        if len(a) != len(b):
            raise ValueError(f"judge_a and judge_b must label the same items; got {len(a)} and {len(b)} labels")
        a = [_label(x, "judge_a", i) for i, x in enumerate(a)]
        b = [_label(y, "judge_b", i) for i, y in enumerate(b)]
        count_a, count_b = Counter(a), Counter(b)
        agree = Counter(x for x, y in zip(a, b) if x == y)
        categories = sorted(set(count_a) | set(count_b), key=_sort_key)
        a_counts = [count_a[c] for c in categories]
        b_counts = [count_b[c] for c in categories]
        diagonal = [agree[c] for c in categories]
        n = len(a)
    p_agree = Rational(sum(diagonal), n)
    rows, chance_sum = [], 0
    for c, in_a, in_b, both in zip(categories, a_counts, b_counts, diagonal):
        # the chance term as a whole number over n^2 (separate) or 4n^2 (pooled): one fraction per row
        term = in_a * in_b if marginals == "separate" else (in_a + in_b) ** 2
        chance_sum += term
        rows.append({"category": str(c), "a": in_a, "b": in_b, "both": both,
                     "chance": Rational(term, n * n if marginals == "separate" else 4 * n * n)})
    p_chance = Rational(chance_sum, n * n if marginals == "separate" else 4 * n * n)
    if p_chance == 1:
        raise ValueError("both judges put every item in one and the same category: chance agreement is 1 and "
                         "kappa is 0/0, undefined")
    kappa = (p_agree - p_chance) / (1 - p_chance)
    return Explanation(
        metric="cohen_kappa", name="κ", exact=kappa,
        columns=(Column("category", "category"), Column("a", "judge A"), Column("b", "judge B"),
                 Column("both", "both"), Column("chance", "chance term")),
        steps=tuple(rows), params={"n": n, "p_agree": p_agree, "p_chance": p_chance, "marginals": marginals},
        formula=r"\kappa = \frac{P(A) - P(E)}{1 - P(E)}",
        substitution=r"\frac{%s - %s}{1 - %s}" % (p_agree, p_chance, p_chance),
        notes=(Message(MARGINALS[marginals]),),
    )


__all__ = ["MARGINALS", "cohen_kappa"]
