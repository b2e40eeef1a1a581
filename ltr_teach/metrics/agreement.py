"""Assessor agreement: Cohen's kappa, exact (Manning, Raghavan & Schütze, *Introduction to Information
Retrieval*, section 8.5)."""

from __future__ import annotations

from sympy import Integer, Rational

from ..core.explanation import Column, Explanation
from ..core.i18n import N_, Message
from ..core.validate import as_choice, as_sequence

#: How the chance agreement P(E) reads each judge's category shares: each judge's own (Cohen 1960,
#: scikit-learn's ``cohen_kappa_score``) or the two judges pooled (Manning et al., section 8.5).
MARGINALS = {
    "separate": N_("chance agreement from each judge's own shares (Cohen 1960, scikit-learn)"),
    "pooled": N_("chance agreement from the two judges' pooled shares (Manning et al. 2008, section 8.5)"),
}


def _from_counts(counts):
    rows = as_sequence(counts, "counts", limit=100)
    size = len(rows)
    a, b = [], []
    for i, row in enumerate(rows):
        row = as_sequence(row, f"counts[{i}]", limit=100)
        if len(row) != size:
            raise ValueError(f"counts must be square (judge A's category by judge B's); counts[{i}] has {len(row)} "
                             f"cells, not {size}")
        for j, c in enumerate(row):
            if isinstance(c, bool) or not isinstance(c, int) or c < 0:
                raise ValueError(f"counts[{i}][{j}] = {c!r} must be a whole number >= 0 (how many items)")
            a += [i] * c
            b += [j] * c
    return a, b, list(range(size))


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
        a, b, categories = _from_counts(counts)
        if not a:
            raise ValueError("counts holds no item (every cell is 0)")
    else:
        if judge_a is None or judge_b is None:
            raise ValueError("cohen_kappa needs judge_a and judge_b (each judge's label for every item), or counts=")
        a, b = as_sequence(judge_a, "judge_a", limit=100_000), as_sequence(judge_b, "judge_b", limit=100_000)
        if len(a) != len(b):
            raise ValueError(f"judge_a and judge_b must label the same items; got {len(a)} and {len(b)} labels")
        for name, labels in (("judge_a", a), ("judge_b", b)):
            for i, x in enumerate(labels):
                try:
                    hash(x)
                except TypeError:
                    raise ValueError(f"{name}[{i}] = {x!r} is not a category label (give numbers or text)") from None
        categories = sorted(set(a) | set(b), key=lambda c: (str(type(c)), c) if isinstance(c, (int, float, str)) else str(c))
    n = len(a)
    p_agree = Rational(sum(1 for x, y in zip(a, b) if x == y), n)
    rows, p_chance = [], Integer(0)
    for c in categories:
        in_a, in_b = sum(1 for x in a if x == c), sum(1 for y in b if y == c)
        both = sum(1 for x, y in zip(a, b) if x == y == c)
        chance = Rational(in_a, n) * Rational(in_b, n) if marginals == "separate" else Rational(in_a + in_b, 2 * n) ** 2
        p_chance += chance
        rows.append({"category": str(c), "a": in_a, "b": in_b, "both": both, "chance": chance})
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
