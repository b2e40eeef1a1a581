"""Is run B better than run A, and how sure are we? Paired significance tests over queries.

:func:`compare_runs` scores every run on the same queries (:func:`~ltr_teach.runs.evaluate.evaluate`),
takes each query's difference from the baseline, and reports wins, ties and losses, the mean
difference with a bootstrap confidence interval, the effect size, and three paired tests. The
statistics are computed here with NumPy and mpmath (which ships with SymPy); SciPy is not needed, and
the test suite checks every value against it:

================  ==========================================================================  =====================
test              what it asks, and how it is computed                                        equals
================  ==========================================================================  =====================
paired t          is the mean difference 0? t = mean(d) / (sd(d) / sqrt(n)), n - 1 degrees   ``scipy.stats.ttest_rel(run, baseline)``
                  of freedom; p from the regularized incomplete beta function
Wilcoxon          is the median difference 0? signed ranks of the non-zero differences;       ``scipy.stats.wilcoxon(d)``
signed-rank       exact distribution (by dynamic programming) without ties or zeros,          (``zero_method="wilcox"``,
                  an exact sign-flip test of the rank sum with ties or zeros and n <= 13,     ``correction=False``,
                  else the normal approximation with the tie correction                       ``method="auto"``)
randomisation     could the signs of the differences be chance? every one of the 2^n sign     ``scipy.stats.permutation_test((d,), mean,
(permutation)     flips enumerated up to ``exact_up_to`` queries (p = count / 2^n, an exact   permutation_type="samples")``
                  fraction); beyond, ``n_resamples`` seeded random flips, p = (count+1)/(N+1)
================  ==========================================================================  =====================

The differences ``d`` are read exactly first (:func:`exact_differences`: 0.6 − 0.4 is 1/5), so differences equal
but for float noise are ties and a noise difference is 0; SciPy given the raw floats ``wilcoxon(run, baseline)``
ranks them apart and can answer differently. The permutation test counts a flip within SciPy's tolerance (100
machine epsilons relative) of the observed mean as equal to it, as ``permutation_test`` does.

All three are two-sided by default (``alternative="greater"`` asks whether the run beats the
baseline). With several runs against one baseline the p-values of each test are adjusted across the
runs by Holm's step-down method (default) or Bonferroni's. The bootstrap interval is the percentile
interval of ``n_resamples`` resampled mean differences, seeded, the same draws as
``scipy.stats.bootstrap((d,), np.mean, method="percentile", rng=np.random.default_rng(seed))``.
The effect size is Cohen's d for paired data, d_z = mean(d) / sd(d).

Each result's ``method`` says which way its p-value was computed; an exact one is also given as a
fraction (``exact``), shown as ``17/128 ≈ 0.1328``.
"""

from __future__ import annotations

import bisect
import html
import math
import numbers
import os
import sys
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import numpy as np

from ..core import webfont
from ..core.exact import _brief, to_exact
from ..core.i18n import N_, Message, _, translate
from ..core.table import Table, aligned_lines, html_table
from ..core.validate import as_choice
from .choices import ALTERNATIVES, CORRECTIONS
from .evaluate import evaluate, parse_metric
from .tables import as_mapping

TESTS = ("t-test", "wilcoxon", "permutation")
#: How each test, alternative and correction is named in a table (the keys stay the API's names).
TEST_NAMES = {"t-test": N_("t-test"), "wilcoxon": N_("wilcoxon"), "permutation": N_("permutation")}
#: Each test's full name, where a table lists the tests one per row (a message: translated when shown).
TEST_FULL_NAMES = {"t-test": N_("paired t-test"), "wilcoxon": N_("Wilcoxon signed-rank test"),
                   "permutation": N_("randomisation test (sign flips)")}
ALTERNATIVE_NAMES = {"two-sided": N_("two-sided"), "greater": N_("greater"), "less": N_("less")}
CORRECTION_NAMES = {"holm": N_("holm"), "bonferroni": N_("bonferroni"), "none": N_("none")}
#: SciPy's rule: up to this many differences, none 0 and no ties, Wilcoxon's p is exact.
WILCOXON_EXACT_UP_TO = 50
#: SciPy's rule: with ties or zeros, up to this many differences Wilcoxon's p comes from all sign flips.
_WILCOXON_FLIPS_UP_TO = 13


@dataclass(frozen=True)
class SignificanceTest:
    """One paired test of one run against the baseline.

    Attributes
    ----------
    test : str
        ``"t-test"``, ``"wilcoxon"`` or ``"permutation"``.
    statistic : float
        t; the smaller signed-rank sum (two-sided, as SciPy) or W+; the mean difference.
    p_value : float
    exact : fractions.Fraction or None
        The p-value as an exact fraction where the test is exact (counts over 2^n), else None.
    adjusted : float
        The p-value after the correction for several runs (equal to ``p_value`` for one run).
    method : str
        How the p-value was obtained, in words.
    """

    test: str
    statistic: float
    p_value: float
    exact: Fraction | None
    adjusted: float
    method: str

    def p_text(self) -> str:
        """``3/64 = 0.046875`` for an exact p, else the decimal."""
        if self.exact is None or self.exact.denominator == 1:
            return _p(self.p_value)
        shown = _p(self.p_value)
        sign = "=" if _terminates(self.exact) and Fraction(shown) == self.exact else "≈"
        return f"{self.exact} {sign} {shown}"


@dataclass(frozen=True)
class PairComparison:
    """One run against the baseline on one metric, query by query.

    Attributes
    ----------
    run, baseline : str
    queries : tuple of str
        The queries both were scored on, sorted.
    baseline_values, run_values, differences : tuple of float
        Per query (run minus baseline).
    wins, ties, losses : int
        Queries where the run scores higher, the same, lower.
    mean_difference : float
    ci : tuple of float
        The bootstrap percentile interval of the mean difference.
    effect_size : float
        Cohen's d_z = mean(d) / sd(d) (NaN when every difference is the same).
    tests : dict
        ``{name: SignificanceTest}``.
    """

    run: str
    baseline: str
    queries: tuple
    baseline_values: tuple
    run_values: tuple
    differences: tuple
    wins: int
    ties: int
    losses: int
    mean_difference: float
    ci: tuple
    effect_size: float
    tests: dict


@dataclass(frozen=True, eq=False)
class RunComparison:
    """The result of :func:`compare_runs`: one :class:`PairComparison` per run against the baseline.

    ``str()`` gives a text table, ``_repr_html_`` the same in Jupyter, ``to_dict()`` plain data.
    """

    metric: str
    baseline: str
    convention: str
    alternative: str
    correction: str
    confidence: float
    n_resamples: int
    seed: int
    pairs: dict
    notes: tuple = field(default=())

    def __getitem__(self, run: str) -> PairComparison:
        return self.pairs[run]

    def rows(self) -> list[list[str]]:
        """The table's rows as display strings (header first)."""
        test_names = {t: _(TEST_NAMES[t]) for t in TESTS}
        head = [_("run"), _("mean"), _("Δ mean"), _("{confidence} CI").format(confidence=f"{self.confidence:.0%}"),
                _("W/T/L"), "d_z"]
        head += [_("p {test}").format(test=test_names[t]) for t in TESTS]
        if len(self.pairs) > 1 and self.correction != "none":
            head += [_("{correction} p {test}").format(correction=_(CORRECTION_NAMES[self.correction]),
                                                      test=test_names[t]) for t in TESTS]
        rows = [head]
        first = next(iter(self.pairs.values()))
        base_mean = float(np.mean(first.baseline_values))
        rows.append([_("{run} (baseline)").format(run=self.baseline), _f(base_mean), "", "", "", ""]
                    + [""] * (len(head) - 6))
        for pair in self.pairs.values():
            row = [pair.run, _f(float(np.mean(pair.run_values))), _signed(pair.mean_difference),
                   f"[{_signed(pair.ci[0])}, {_signed(pair.ci[1])}]", f"{pair.wins}/{pair.ties}/{pair.losses}",
                   _f(pair.effect_size, 3)]
            row += [pair.tests[t].p_text() for t in TESTS]
            if len(head) > 6 + len(TESTS):
                row += [_p(pair.tests[t].adjusted) for t in TESTS]
            rows.append(row)
        return rows

    def per_query(self, run: str | None = None) -> Table:
        """One row per query: the baseline's value, the run's, and the difference (run minus baseline).

        Examples
        --------
        >>> import ltr_teach as lt
        >>> qrels = {q: {"good": 1} for q in "xy"}
        >>> a = {q: {"bad": 2.0, "good": 1.0} for q in "xy"}                 # RR 1/2 on both
        >>> b = {"x": {"good": 2.0}, "y": {"bad": 3.0, "bad2": 2.0, "good": 1.0}}  # RR 1, then 1/3
        >>> print(lt.compare_runs(qrels, {"A": a, "B": b}, "mrr").per_query())
        query  A (baseline)       B  B − A
        -----  ------------  ------  -------
        x            0.5000  1.0000  +0.5000
        y            0.5000  0.3333  -0.1667
        """
        pair = self._pair(run)
        header = ("query", _("{name} (baseline)").format(name=self.baseline), pair.run, f"{pair.run} − {self.baseline}")
        rows = tuple((q, _f(b), _f(r), _signed(d)) for q, b, r, d in
                     zip(pair.queries, pair.baseline_values, pair.run_values, pair.differences))
        return Table(header, rows)

    def summary(self, test: str = "permutation") -> Table:
        """One row per run: mean, mean difference, bootstrap interval, wins/ties/losses, effect size, one
        test's p-value, and (with several runs) that p-value adjusted: a table narrow enough for a page."""
        test = as_choice(test, "test", TESTS)
        head = [_("run"), _("mean"), _("Δ mean"), _("{level} CI").format(level=f"{self.confidence:.0%}"), _("W/T/L"),
                "d_z", _("p ({test})").format(test=translate(TEST_NAMES[test]))]
        several = len(self.pairs) > 1 and self.correction != "none"
        if several:
            head.append(_("{correction} p").format(correction=self.correction.capitalize()))
        first = next(iter(self.pairs.values()))
        rows = [[_("{name} (baseline)").format(name=self.baseline), _f(float(np.mean(first.baseline_values))),
                 "", "", "", "", ""] + ([""] if several else [])]
        for pair in self.pairs.values():
            result = pair.tests[test]
            row = [pair.run, _f(float(np.mean(pair.run_values))), _signed(pair.mean_difference),
                   f"[{_signed(pair.ci[0])}, {_signed(pair.ci[1])}]", f"{pair.wins}/{pair.ties}/{pair.losses}",
                   _f(pair.effect_size, 3), result.p_text()]
            if several:
                row.append(_p(result.adjusted))
            rows.append(row)
        return Table(tuple(head), tuple(tuple(r) for r in rows))

    def tests_table(self, run: str | None = None) -> Table:
        """The three paired tests of one run against the baseline: statistic and p-value, one row each.

        The statistic is t for the t-test, the smaller signed-rank sum (two-sided; W+ one-sided) for
        Wilcoxon, and the mean difference for the randomisation test.
        """
        pair = self._pair(run)
        rows = tuple((translate(TEST_FULL_NAMES[t]), f"{pair.tests[t].statistic:.4g}", pair.tests[t].p_text())
                     for t in TESTS)
        return Table((N_("test"), N_("statistic"), "p"), rows)

    def _pair(self, run) -> PairComparison:
        if run is None:
            return next(iter(self.pairs.values()))
        if run not in self.pairs:
            raise ValueError(f"run = {run!r} is not one of the compared runs: {', '.join(map(repr, self.pairs))}")
        return self.pairs[run]

    def details(self) -> list[str]:
        """One line per run and test: the statistic and how its p-value was obtained."""
        lines = []
        for pair in self.pairs.values():
            for t in TESTS:
                r = pair.tests[t]
                lines.append(_("{run}, {test}: statistic {statistic}, p = {p} ({method})").format(
                    run=pair.run, test=_(TEST_NAMES[t]),
                    statistic=UNDEFINED if math.isnan(r.statistic) else f"{r.statistic:.6g}", p=r.p_text(),
                    method=translate(r.method)))
        return lines

    def __str__(self) -> str:
        rows = self.rows()
        n = len(next(iter(self.pairs.values())).queries)
        title = _("{metric} over {n} queries, convention {convention}, {alternative} tests (H1: {h1})").format(
            metric=self.metric, n=n, convention=self.convention, alternative=_(ALTERNATIVE_NAMES[self.alternative]),
            h1=translate(ALTERNATIVES[self.alternative]))
        lines = [title, ""]
        lines += aligned_lines(rows[0], rows[1:], left=len(rows[0]))
        lines.append("")
        lines += self.details()
        lines += [_("note: {note}").format(note=translate(note)) for note in self.notes]
        return "\n".join(lines)

    def __repr__(self) -> str:
        runs = ", ".join(self.pairs)
        return f"<RunComparison {self.metric}: {runs} vs {self.baseline}>"

    def _repr_html_(self) -> str:
        esc = html.escape
        rows = self.rows()
        table = html_table(rows[0], rows[1:], left=0, align_header=False)
        details = "".join(f"<li>{esc(line)}</li>" for line in self.details())
        notes = "".join(f"<p style='margin:2px 0'><i>{esc(_('note:'))}</i> {esc(translate(n))}</p>" for n in self.notes)
        heading = _("{metric}, {alternative} tests against {baseline}").format(
            metric=self.metric, alternative=_(ALTERNATIVE_NAMES[self.alternative]), baseline=self.baseline)
        return webfont.serve(f"<div class='ltr-teach-comparison'><b>{esc(heading)}</b>{table}"
                             f"<ul style='margin:4px 0'>{details}</ul>{notes}</div>")

    def to_dict(self) -> dict:
        """Plain data (exact p-values as ``"3/64"`` strings beside their floats); NaN becomes None."""
        def num(x):
            return None if x is None or (isinstance(x, float) and math.isnan(x)) else x

        return {
            "metric": self.metric, "baseline": self.baseline, "convention": self.convention,
            "alternative": self.alternative, "correction": self.correction, "confidence": self.confidence,
            "n_resamples": self.n_resamples, "seed": self.seed, "notes": list(self.notes),
            "runs": {name: {
                "queries": list(p.queries), "differences": [num(d) for d in p.differences],
                "wins": p.wins, "ties": p.ties, "losses": p.losses, "mean_difference": num(p.mean_difference),
                "ci": [num(p.ci[0]), num(p.ci[1])], "effect_size": num(p.effect_size),
                "tests": {t: {"statistic": num(r.statistic), "p_value": num(r.p_value),
                              "exact": None if r.exact is None else str(r.exact), "adjusted": num(r.adjusted),
                              "method": r.method} for t, r in p.tests.items()},
            } for name, p in self.pairs.items()},
        }


#: How an undefined value (a t statistic or effect size over a standard deviation of 0) is shown; the test's
#: method says why.
UNDEFINED = "—"


def _f(x: float, digits: int = 4) -> str:
    return UNDEFINED if math.isnan(x) else f"{x:.{digits}f}"


def _signed(x: float) -> str:
    return UNDEFINED if math.isnan(x) else f"{x:+.4f}"


def _p(x: float) -> str:
    if math.isnan(x):
        return UNDEFINED
    return f"{x:.4g}" if x >= 1e-4 else f"{x:.2e}"


#: Float differences are compared as fractions: a float within _SNAP_ULPS units in the last place (of its operands'
#: size) of a fraction whose denominator is at most _SNAP_DENOMINATOR is read as that fraction (0.6 - 0.4 =
#: 0.19999999999999996 is 1/5, 2/3 - 1/3 = 0.33333333333333337 is 1/3: a metric of a ranking of up to 1,000 items
#: is such a fraction, and so is the difference of two); any other float is read through its shortest decimal.
_SNAP_DENOMINATOR = 10**6
_SNAP_ULPS = 64


def exact_differences(d, scale=None) -> list:
    """Each difference as a Fraction by the rule of :data:`_SNAP_DENOMINATOR` (``scale``: the size of the two
    values each difference was taken from; default the difference itself).

    >>> exact_differences([0.6 - 0.4, -(0.3 - 0.1), 0.1 + 0.2])
    [Fraction(1, 5), Fraction(-1, 5), Fraction(3, 10)]
    >>> exact_differences([0.3 - (0.1 + 0.2)], scale=[0.3])    # float noise of 0.3 - 0.3
    [Fraction(0, 1)]
    """
    out, seen = [], {}  # a metric takes few distinct values: each (difference, size) is read once
    for i, x in enumerate(d):
        if isinstance(x, (Fraction, numbers.Integral)):
            out.append(Fraction(x))
            continue
        x = float(x)
        size = abs(x) if scale is None else max(abs(x), abs(float(scale[i])))
        if (x, size) not in seen:
            f = Fraction(x)
            r = f.limit_denominator(_SNAP_DENOMINATOR)
            seen[x, size] = r if abs(f - r) <= _SNAP_ULPS * sys.float_info.epsilon * size else Fraction(repr(x))
        out.append(seen[x, size])
    return out


def _float_noise(total: int) -> int:
    """SciPy's tolerance for "as extreme" (``permutation_test``: 100 machine epsilons relative to the observed
    statistic), on whole-number sums: a sum within this of the observed one counts as equal to it, so two sums that
    differ only by the float noise of the differences they came from (1.0000000000000002 against 1) count alike."""
    return (100 * abs(total)) >> 52  # floor(100 · 2^-52 · |total|): the sums are integers


def _exact_flip_counts(exact: list) -> tuple:
    """How many of the 2^n sign flips of ``exact`` have a sum <= and >= the observed sum (ties within SciPy's
    relative tolerance, :func:`_float_noise`), counted exactly: the differences as integers over a common
    denominator, the sums of one half's flips against the other's."""
    common = math.lcm(*(e.denominator for e in exact)) if exact else 1
    ints = [int(e * common) for e in exact]
    observed = sum(ints)
    noise = _float_noise(observed)

    def sums(values):
        out = [0]
        for v in values:
            out = [t + v for t in out] + [t - v for t in out]
        return out

    half = len(ints) // 2
    left, right = sums(ints[:half]), sorted(sums(ints[half:]))
    less = sum(bisect.bisect_right(right, observed + noise - t) for t in left)
    greater = sum(len(right) - bisect.bisect_left(right, observed - noise - t) for t in left)
    return less, greater


def _terminates(q: Fraction) -> bool:
    d = q.denominator
    for prime in (2, 5):
        while d % prime == 0:
            d //= prime
    return d == 1


# -- the statistics ----------------------------------------------------------------------------------------

def _student_t_sf(t: float, df: int) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom, via I_x(df/2, 1/2) with x = df/(df + t^2)."""
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    tail = float(mpmath.betainc(df / 2, 0.5, 0, df / (df + t * t), regularized=True)) / 2
    return tail if t >= 0 else 1.0 - tail


def _normal_sf(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2))


def _tail_p(less: float, greater: float, alternative: str) -> float:
    if alternative == "less":
        return less
    if alternative == "greater":
        return greater
    return min(1.0, 2 * min(less, greater))


def paired_t(d: np.ndarray, alternative: str = "two-sided") -> SignificanceTest:
    """The paired t-test of the differences ``d`` (SciPy's ``ttest_rel``)."""
    n = len(d)
    mean = float(np.mean(d))
    sd = float(np.std(d, ddof=1)) if n > 1 else math.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        t = float(np.divide(mean, sd / math.sqrt(n))) if n > 1 else math.nan
    greater = _student_t_sf(t, n - 1) if n > 1 else math.nan
    p = _tail_p(1.0 - greater, greater, alternative) if not math.isnan(greater) else math.nan
    if math.isnan(t) and n > 1:  # 0/0: every difference the same and their mean 0 (SciPy's ttest_rel: nan)
        return SignificanceTest("t-test", t, p, None, p, Message(N_(
            "undefined: every difference is 0, so t is 0 divided by a standard deviation of 0 (SciPy: nan)")))
    return SignificanceTest("t-test", t, p, None, p, Message(N_("Student's t with {df} degrees of freedom"), df=n - 1))


def _ranks(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Average ranks (1-based) of ``values`` and the size of each tie group."""
    order = np.argsort(values, kind="stable")
    sorted_values = values[order]
    new = np.ones(len(values), dtype=bool)
    new[1:] = sorted_values[1:] != sorted_values[:-1]
    group = np.cumsum(new) - 1
    sizes = np.bincount(group)
    first = np.flatnonzero(new)
    average = first + (sizes + 1) / 2.0  # ranks first+1 .. first+size, averaged
    ranks = np.empty(len(values))
    ranks[order] = average[group]
    return ranks, sizes


def _signed_rank_counts(n: int) -> np.ndarray:
    """How many of the 2^n sign patterns give each W+ = 0 .. n(n+1)/2 (exact integers, n <= 62)."""
    counts = np.ones(1, dtype=np.int64)
    for k in range(1, n + 1):  # rank k is either positive (adds k) or not
        grown = np.zeros(len(counts) + k, dtype=np.int64)
        grown[:len(counts)] += counts
        grown[k:] += counts
        counts = grown
    return counts


def _flip_statistics(d: np.ndarray, statistic) -> np.ndarray:
    """``statistic`` of every one of the 2^n sign flips of ``d`` (rows: patterns, bit i flips d[i])."""
    n = len(d)
    patterns = np.arange(2 ** n, dtype=np.int64)[:, None] >> np.arange(n) & 1
    return statistic(np.where(patterns == 1, -d, d))


def wilcoxon(d: np.ndarray, alternative: str = "two-sided") -> SignificanceTest:
    """Wilcoxon's signed-rank test of the differences ``d``, as ``scipy.stats.wilcoxon(d)`` decides it
    (``zero_method="wilcox"``, ``correction=False``, ``method="auto"``)."""
    nonzero = d[d != 0]
    count = len(nonzero)
    if count == 0:  # SciPy (zero_method="wilcox"): W = 0 and p = 1, no evidence either way
        return SignificanceTest("wilcoxon", 0.0, 1.0, Fraction(1), 1.0, Message(N_("every difference is 0")))
    ranks, sizes = _ranks(np.abs(nonzero))
    r_plus = float(ranks[nonzero > 0].sum())
    r_minus = float(ranks[nonzero < 0].sum())
    statistic = min(r_plus, r_minus) if alternative == "two-sided" else r_plus
    has_ties, has_zeros = bool((sizes > 1).any()), count < len(d)
    if not (has_ties or has_zeros) and len(d) <= WILCOXON_EXACT_UP_TO:
        counts = _signed_rank_counts(count)
        total = 2 ** count
        w = round(r_plus)
        less, greater = Fraction(int(counts[:w + 1].sum()), total), Fraction(int(counts[w:].sum()), total)
        exact = {"less": less, "greater": greater}.get(alternative, min(Fraction(1), 2 * min(less, greater)))
        return SignificanceTest("wilcoxon", statistic, float(exact), exact, float(exact),
                                Message(N_("exact distribution of W+ over the 2^{n} sign patterns"), n=count))
    if (has_ties or has_zeros) and len(d) <= _WILCOXON_FLIPS_UP_TO:
        def rank_sum(flipped):
            out = np.empty(len(flipped))
            for i, row in enumerate(flipped):
                row = row[row != 0]
                r, _ = _ranks(np.abs(row))
                out[i] = r[row > 0].sum()
            return out

        null = _flip_statistics(d, rank_sum)
        less, greater = _flip_counts(null, r_plus)
        total = len(null)
        exact = {"less": Fraction(less, total), "greater": Fraction(greater, total)}.get(
            alternative, min(Fraction(1), 2 * Fraction(min(less, greater), total)))
        why = Message(N_("tied differences") if has_ties else N_("zero differences"))
        return SignificanceTest("wilcoxon", statistic, float(exact), exact, float(exact),
                                Message(N_("{why}: W+ over all 2^{n} sign flips of the differences"), why=why, n=len(d)))
    mean = count * (count + 1) / 4
    tie_term = float((sizes.astype(np.float64) ** 3 - sizes).sum())
    se = math.sqrt((count * (count + 1) * (2 * count + 1) - tie_term / 2) / 24)
    z = (r_plus - mean) / se
    p = _tail_p(1 - _normal_sf(z), _normal_sf(z), alternative)
    reason = (Message(N_("ties or zero differences")) if (has_ties or has_zeros)
              else Message(N_("{n} differences"), n=count))
    return SignificanceTest("wilcoxon", statistic, p, None, p,
                            Message(N_("normal approximation ({reason}; z = {z}, tie-corrected, no continuity correction)"),
                                    reason=reason, z=f"{z:.4f}"))


def _flip_counts(null: np.ndarray, observed: float) -> tuple[int, int]:
    """How many null values are <= and >= the observed one, with SciPy's relative tolerance (100 eps)."""
    gamma = abs(np.finfo(np.float64).eps * 100 * observed)
    return int(np.count_nonzero(null <= observed + gamma)), int(np.count_nonzero(null >= observed - gamma))


def permutation(d: np.ndarray, alternative: str = "two-sided", exact_up_to: int = 20, n_resamples: int = 9999,
                seed: int = 0, exact=None) -> SignificanceTest:
    """The randomisation test of the mean difference: the signs of the differences flipped.

    Up to ``exact_up_to`` differences every flip is counted exactly, on the differences as fractions
    (``exact``, default :func:`exact_differences` of ``d``): the p-value equals :func:`sign_flips`'.
    """
    n = len(d)
    observed = float(np.mean(d))
    if n <= exact_up_to:
        # every sign pattern, as the sum of one half's patterns and the other half's, compared exactly
        less, greater = _exact_flip_counts(exact_differences(d) if exact is None else list(exact))
        total = 2 ** n
        exact = {"less": Fraction(less, total), "greater": Fraction(greater, total)}.get(
            alternative, min(Fraction(1), 2 * Fraction(min(less, greater), total)))
        return SignificanceTest("permutation", observed, float(exact), exact, float(exact),
                                Message(N_("exact: all 2^{n} = {total} sign flips"), n=n, total=total))
    null = _sampled_flip_means(d, n_resamples, seed)
    less, greater = _flip_counts(null, observed)
    p = _tail_p((less + 1) / (n_resamples + 1), (greater + 1) / (n_resamples + 1), alternative)
    return SignificanceTest("permutation", observed, p, None, p,
                            Message(N_("sampled: {n} random sign flips (seed {seed}), p = (count + 1)/({n} + 1)"),
                                    n=n_resamples, seed=seed))


#: The most work one comparison's resampling may do, in table look-ups or random draws (a few seconds):
#: beyond it the answer would take minutes, and the call is refused with the n_resamples that fits.
RESAMPLING_LIMIT = 2 * 10**8
#: Up to this many draws (resamples × queries) the bootstrap draws exactly what scipy.stats.bootstrap draws.
_SCIPY_DRAWS_UP_TO = 5 * 10**7
#: The sign patterns of 8 differences: row b holds -1 where bit j of b is set (np.unpackbits' order), else +1.
_BYTE_SIGNS = 1 - 2 * np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).astype(np.float64)


def _sampled_flip_means(d: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    """The means of ``n_resamples`` random sign flips of ``d`` (seeded): one random byte flips 8 differences, whose
    256 possible signed sums are tabulated once, so a flip costs n/8 look-ups instead of n random draws."""
    n = len(d)
    groups = -(-n // 8)
    padded = np.zeros(groups * 8)
    padded[:n] = d
    table = padded.reshape(groups, 8) @ _BYTE_SIGNS.T        # table[g, b]: group g's sum under byte b's signs
    rng = np.random.default_rng(seed)
    null = np.empty(n_resamples)
    batch = max(1, 4_000_000 // groups)
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        flips = rng.integers(0, 256, (groups, size), dtype=np.uint8)
        sums = np.zeros(size)
        for g in range(groups):
            sums += table[g][flips[g]]
        null[start:start + size] = sums / n
    return null


def resampling_cost(d: np.ndarray, n_resamples: int, exact_up_to: int = 20, bootstrap: bool = True) -> int:
    """The look-ups and draws that the sampled permutation test and the bootstrap of ``d`` will make."""
    n = len(d)
    cost = n_resamples * -(-n // 8) if n > exact_up_to else 0
    if bootstrap:
        cost += n * n_resamples if n * n_resamples <= _SCIPY_DRAWS_UP_TO else len(np.unique(d)) * n_resamples
    return cost


def check_resampling(cost: int, n_resamples: int, what: str) -> None:
    """Refuse resampling that costs more than :data:`RESAMPLING_LIMIT`, naming the n_resamples that fits."""
    if cost > RESAMPLING_LIMIT:
        fits = max(1, n_resamples * RESAMPLING_LIMIT // cost)
        raise ValueError(f"n_resamples = {n_resamples:,} on {what} needs about {cost:.2g} random draws and look-ups, "
                         f"more than the {RESAMPLING_LIMIT:.0e} this does in seconds; give n_resamples = {fits:,} or "
                         "fewer (9,999 random flips already put a p-value near 0.05 within about ±0.005)")


def bootstrap_ci(d: np.ndarray, confidence: float = 0.95, n_resamples: int = 9999, seed: int = 0) -> tuple:
    """The percentile bootstrap interval of the mean of ``d``: resample the queries with replacement.

    Up to :data:`_SCIPY_DRAWS_UP_TO` draws these are scipy.stats.bootstrap's draws (the same seed, the same
    numbers). Beyond, a resample is drawn as how many times it takes each distinct difference (a multinomial over
    the distinct values: the same distribution of resampled means, other draws), which costs as many draws as there
    are distinct differences: 30,000 queries of a metric with a few hundred distinct values take a second.
    """
    rng = np.random.default_rng(seed)
    n = len(d)
    if n * n_resamples <= _SCIPY_DRAWS_UP_TO:
        means = d[rng.integers(0, n, (n_resamples, n))].mean(axis=-1)  # one call, SciPy's shape: SciPy's numbers
    else:
        values, counts = np.unique(d, return_counts=True)
        batch = max(1, 4_000_000 // len(values))
        means = np.concatenate([rng.multinomial(n, counts / n, size=size) @ values / n
                                for size in _batches(n_resamples, batch)])
    alpha = (1 - confidence) / 2
    low, high = np.percentile(means, [alpha * 100, (1 - alpha) * 100])
    return float(low), float(high)


def _batches(total: int, size: int):
    for start in range(0, total, size):
        yield min(size, total - start)


def adjust(p_values: list, correction: str) -> list:
    """Holm's or Bonferroni's adjustment of the p-values of several runs against one baseline."""
    m = len(p_values)
    if correction == "none" or m <= 1:
        return list(p_values)
    if correction == "bonferroni":
        return [math.nan if math.isnan(p) else min(1.0, m * p) for p in p_values]
    order = sorted(range(m), key=lambda i: (math.isnan(p_values[i]), p_values[i]))
    adjusted, running = [math.nan] * m, 0.0
    for step, i in enumerate(order):
        if math.isnan(p_values[i]):
            continue
        running = max(running, min(1.0, (m - step) * p_values[i]))  # step-down: never below an earlier one
        adjusted[i] = running
    return adjusted


# -- every sign flip, for teaching ----------------------------------------------------------------------------

#: :func:`sign_flips` lists every pattern: 2^12 = 4096 rows is the most a table should hold.
SIGN_FLIPS_UP_TO = 12


@dataclass(frozen=True)
class SignFlips:
    """Every sign flip of a few per-query differences, with its mean, exactly: the randomisation test laid out.

    Attributes
    ----------
    differences : tuple of fractions.Fraction
        The observed differences (run minus baseline), one per query.
    queries : tuple of str
        The queries' names, for the table's header.
    alternative : str
        ``"two-sided"``, ``"greater"`` or ``"less"``.
    patterns : tuple of tuple of int
        One row per pattern, ``+1`` (sign kept) or ``-1`` (flipped) per query; the observed pattern
        (all ``+1``) first.
    means : tuple of fractions.Fraction
        The mean of each pattern's flipped differences.
    extreme : tuple of bool
        Whether each pattern's mean is at least as extreme as the observed one (two-sided: as far from
        0 or farther; ``"greater"``: as high or higher; ``"less"``: as low or lower).
    places : int or None
        The decimals the differences were rounded to, if they were.
    """

    differences: tuple
    queries: tuple
    alternative: str
    patterns: tuple
    means: tuple
    extreme: tuple
    places: int | None = None
    #: each pattern's sum over a common denominator (whole numbers: exact comparisons without fractions)
    sums: tuple = field(default=(), repr=False, compare=False)

    @property
    def observed(self) -> Fraction:
        """The observed mean difference."""
        return self.means[0]

    @property
    def count(self) -> int:
        """How many patterns are at least as extreme as the observed one (the observed one included)."""
        return sum(self.extreme)

    @property
    def total(self) -> int:
        """2^n, the number of patterns."""
        return len(self.patterns)

    @property
    def p_value(self) -> Fraction:
        """count / 2^n, exactly: the exact randomisation test's p-value."""
        return Fraction(self.count, self.total)

    def p_text(self) -> str:
        """``3/16 = 0.1875``, the fraction and its decimal."""
        return SignificanceTest("permutation", float(self.observed), float(self.p_value), self.p_value,
                                float(self.p_value), "").p_text()

    def table(self) -> Table:
        """Every pattern as a row, highest mean first: which queries it flips, the differences, their mean,
        and whether it counts towards the p-value."""
        header = (N_("flipped"), *self.queries, N_("mean"), N_("as extreme?"))
        keys = self.sums or self.means
        order = sorted(range(self.total), key=lambda j: -keys[j])  # stable: ties keep pattern order
        rows = []
        for j in order:
            signs = self.patterns[j]
            flipped = [q for q, s in zip(self.queries, signs) if s < 0]
            label = _(", ").join(flipped) if flipped else _("none (observed)")
            cells = [_signed_decimal(s * d) for s, d in zip(signs, self.differences)]
            rows.append((label, *cells, _signed_decimal(self.means[j]), _("yes") if self.extreme[j] else ""))
        note = Message(N_("{count} of {total} patterns are at least as extreme as the observed mean {mean}: "
                          "p = {p}"), count=self.count, total=self.total, mean=_signed_decimal(self.observed),
                       p=self.p_text())
        notes = (note,) if self.places is None else (
            Message(N_("the differences are rounded to {places} decimals"), places=self.places), note)
        return Table(header, tuple(rows), notes=notes, left=1)

    def __str__(self) -> str:
        return str(self.table())

    def __repr__(self) -> str:
        return f"<SignFlips: {len(self.differences)} queries, {self.count} of {self.total} patterns as extreme, " \
               f"p = {self.p_text()}>"

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def _signed_decimal(x: Fraction) -> str:
    """``+0.25``, ``-1/3 ≈ -0.3333``: a terminating fraction as its decimal, else the fraction and a decimal
    (a fraction of more than 30 digits by its decimal only: ``≈ +0.1234``)."""
    if x == 0:
        return "0"
    text = f"{float(x):+.4f}".rstrip("0").rstrip(".")
    if max(abs(x.numerator), x.denominator).bit_length() > 100:
        return f"≈ {float(x):+.4f}"
    return text if _terminates(x) and Fraction(text) == x else f"{x} ≈ {float(x):+.4f}"


def sign_flips(differences, alternative: str = "two-sided", queries=None, places=None) -> SignFlips:
    """Every one of the 2^n sign flips of n per-query differences, with its mean: the exact randomisation test.

    If the run and the baseline were equally good, each query's difference would be as likely to have
    come out with the other sign: flipping the signs in every way gives all the mean differences that
    chance alone could have produced. The p-value is the share of them at least as extreme as the
    observed mean. The arithmetic is exact (a float difference within 64 ulps of a fraction with a denominator of
    at most 10^6 is read as that fraction, so 0.6 - 0.4 = 0.19999999999999996 is 1/5; any other float through its
    shortest decimal, so 0.1 is 1/10: :func:`exact_differences`), and the p-value equals :func:`permutation`'s.

    Parameters
    ----------
    differences : sequence of numbers
        Run minus baseline, one per query (at most :data:`SIGN_FLIPS_UP_TO`; ints, floats, fractions).
    alternative : {"two-sided", "greater", "less"}
        Two-sided counts the patterns whose mean is as far from 0 as the observed one, or farther.
    queries : sequence of str, optional
        The queries' names (default ``q1``, ``q2`` ...).
    places : int, optional
        Round each difference to this many decimals first (half to even), so a table can be added up
        by hand; the table says so. ``None`` (default) keeps every difference as read (float noise such as
        0.6 - 0.4 = 0.19999999999999996, a P@5 difference of exactly 1/5, is read away either way).

    Returns
    -------
    SignFlips
        ``.patterns``, ``.means``, ``.extreme``, ``.p_value`` (a Fraction); ``.table()`` lays them out.

    Examples
    --------
    Three queries, differences +0.2, +0.1 and -0.05: the observed mean is 0.25/3 = 1/12. Pattern j flips
    query i when bit i of j is set, so the eight sums are .25, -.15 (q1 flipped), .05 (q2), -.35 (q1, q2),
    .35 (q3), -.05, .15 and -.25 (all three), each divided by 3. As far from 0 as 1/12 or farther: the
    observed .25, the .35 of flipping q3, and their mirror images -.35 and -.25. Four of eight: p = 1/2.

    >>> import ltr_teach as lt
    >>> flips = lt.sign_flips([0.2, 0.1, -0.05])
    >>> flips.observed, flips.count, flips.total, flips.p_value
    (Fraction(1, 12), 4, 8, Fraction(1, 2))
    >>> [str(m) for m in flips.means]
    ['1/12', '-1/20', '1/60', '-7/60', '7/60', '-1/60', '1/20', '-1/12']
    >>> print(flips)
    flipped          q1    q2     q3             mean  as extreme?
    ---------------  ----  ----  -----  ---------------  -----------
    q3               +0.2  +0.1  +0.05   7/60 ≈ +0.1167          yes
    none (observed)  +0.2  +0.1  -0.05   1/12 ≈ +0.0833          yes
    q2, q3           +0.2  -0.1  +0.05            +0.05
    q2               +0.2  -0.1  -0.05   1/60 ≈ +0.0167
    q1, q3           -0.2  +0.1  +0.05  -1/60 ≈ -0.0167
    q1               -0.2  +0.1  -0.05            -0.05
    q1, q2, q3       -0.2  -0.1  +0.05  -1/12 ≈ -0.0833          yes
    q1, q2           -0.2  -0.1  -0.05  -7/60 ≈ -0.1167          yes
    4 of 8 patterns are at least as extreme as the observed mean 1/12 ≈ +0.0833: p = 1/2 = 0.5

    One-sided (``"greater"``): only the means of 1/12 or more count, the observed one and 7/60.

    >>> lt.sign_flips([0.2, 0.1, -0.05], alternative="greater").p_value
    Fraction(1, 4)
    """
    alternative = as_choice(alternative, "alternative", ALTERNATIVES)
    if hasattr(differences, "tolist") and getattr(differences, "ndim", 1) != 1:
        raise ValueError(f"differences must be a list of numbers, one per query; got an array of shape "
                         f"{getattr(differences, 'shape', '?')}")
    if isinstance(differences, (str, bytes, dict, set, frozenset)) or not hasattr(differences, "__len__") or \
            not hasattr(differences, "__getitem__"):
        raise ValueError(f"differences must be a list of numbers, one per query (in the queries' order); got "
                         f"{_brief(differences)}")
    if hasattr(differences, "tolist"):
        differences = differences.tolist()
    n = len(differences)
    if not 1 <= n <= SIGN_FLIPS_UP_TO:
        raise ValueError(f"differences holds {n} values; sign_flips lists every pattern of 1 to {SIGN_FLIPS_UP_TO} "
                         "queries (use lt.compare_runs for more: it counts the patterns without listing them)")
    if places is not None and (isinstance(places, bool) or not isinstance(places, int) or not 0 <= places <= 12):
        raise ValueError(f"places = {places!r} must be a whole number of decimals from 0 to 12, or None")
    exact = []
    for i, d in enumerate(differences):
        r = to_exact(d, f"differences[{i}]")
        value = Fraction(int(r.p), int(r.q))
        if places is None and isinstance(d, float):
            value = exact_differences([d])[0]  # float noise read away, as permutation() and compare_runs read it
        exact.append(value if places is None else round(value, places))
    if queries is None:
        queries = tuple(f"q{i}" for i in range(1, n + 1))
    else:
        if isinstance(queries, (str, bytes, dict, set, frozenset)) or not hasattr(queries, "__iter__"):
            raise ValueError(f"queries must be a list of query names, one per difference; got {_brief(queries)}")
        queries = tuple(str(q) for q in queries)
        if len(queries) != n:
            raise ValueError(f"queries names {len(queries)} queries but differences holds {n} values")
    # pattern j flips query i when bit i of j is set: pattern 0 is the observed one, 2^n - 1 its mirror
    patterns = tuple(tuple(-1 if j >> i & 1 else 1 for i in range(n)) for j in range(2 ** n))
    # whole numbers over one common denominator: 4,096 patterns of 300-digit fractions add and compare fast
    common = math.lcm(*(e.denominator for e in exact))
    ints = [int(e * common) for e in exact]
    sums = tuple(sum(s * v for s, v in zip(signs, ints)) for signs in patterns)
    means = tuple(Fraction(t, n * common) for t in sums)
    observed = sums[0]
    noise = _float_noise(observed)  # as permutation() and SciPy count: within 100 epsilons relative is as extreme
    if alternative == "greater":
        extreme = tuple(t >= observed - noise for t in sums)
    elif alternative == "less":
        extreme = tuple(t <= observed + noise for t in sums)
    else:
        extreme = tuple(abs(t) >= abs(observed) - noise for t in sums)
    return SignFlips(differences=tuple(exact), queries=queries, alternative=alternative, patterns=patterns,
                     means=means, extreme=extreme, places=places, sums=sums)


def adjustment_steps(p_values, correction: str = "holm", names=None, level=0.05) -> Table:
    """Holm's or Bonferroni's correction step by step: each p-value, its multiplier, the adjusted value.

    Bonferroni multiplies every p-value by m, the number of comparisons. Holm sorts them, multiplies the
    smallest by m, the next by m - 1, ... the largest by 1, and never lets an adjusted value fall below
    the one before it (step-down); it rejects at least as much as Bonferroni and still keeps the chance
    of any false alarm below the level. The arithmetic is exact (0.01 is 1/100); the adjusted values
    equal :func:`adjust`'s.

    Parameters
    ----------
    p_values : sequence of numbers in [0, 1]
        One per comparison (at least 1, at most 50).
    correction : {"holm", "bonferroni"}
    names : sequence of str, optional
        The comparisons' names (default ``1``, ``2`` ...).
    level : number in (0, 1)
        The significance level that the last column compares with.

    Returns
    -------
    Table
        One row per comparison, smallest p first: name, p, multiplier, p × multiplier, the adjusted p
        (capped at 1; for Holm the running maximum), and whether it is below the level.

    Examples
    --------
    Four comparisons with p = 0.01, 0.04, 0.03, 0.20. Holm: 4 × 0.01 = 0.04, 3 × 0.03 = 0.09,
    2 × 0.04 = 0.08 (raised to 0.09, the step before), 1 × 0.20 = 0.20. Only the first stays below 0.05.

    >>> print(adjustment_steps([0.01, 0.04, 0.03, 0.20]))
    comparison     p  multiplier  p × multiplier  adjusted p  below 0.05?
    ----------  ----  ----------  --------------  ----------  -----------
    1           0.01           4            0.04        0.04          yes
    3           0.03           3            0.09        0.09
    2           0.04           2            0.08        0.09
    4           0.2            1             0.2         0.2
    """
    correction = as_choice(correction, "correction", {k: v for k, v in CORRECTIONS.items() if k != "none"})
    if isinstance(p_values, (str, bytes)) or not hasattr(p_values, "__len__") or not 1 <= len(p_values) <= 50:
        raise ValueError(f"p_values must be a list of 1 to 50 p-values; got {p_values!r}")
    exact = []
    for i, p in enumerate(p_values):
        r = to_exact(p, f"p_values[{i}]")
        if not 0 <= r <= 1:
            raise ValueError(f"p_values[{i}] = {p!r} is not a probability; p-values lie between 0 and 1")
        exact.append(Fraction(int(r.p), int(r.q)))
    cut = to_exact(level, "level")
    if not 0 < cut < 1:
        raise ValueError(f"level = {level!r} must lie strictly between 0 and 1, e.g. 0.05")
    names = [str(i) for i in range(1, len(exact) + 1)] if names is None else [str(n) for n in names]
    if len(names) != len(exact):
        raise ValueError(f"names names {len(names)} comparisons but p_values holds {len(exact)}")
    m = len(exact)
    order = sorted(range(m), key=lambda i: exact[i])
    rows, running = [], Fraction(0)
    for step, i in enumerate(order):
        multiplier = m if correction == "bonferroni" else m - step
        product = exact[i] * multiplier
        adjusted = min(Fraction(1), product)
        if correction == "holm":
            running = max(running, adjusted)
            adjusted = running
        rows.append((names[i], _decimal(exact[i]), str(multiplier), _decimal(product), _decimal(adjusted),
                     _("yes") if adjusted < cut else ""))
    header = (N_("comparison"), "p", N_("multiplier"), N_("p × multiplier"), N_("adjusted p"),
              _("below {level}?").format(level=_decimal(Fraction(int(cut.p), int(cut.q)))))
    return Table(header, tuple(rows))


def _decimal(x: Fraction) -> str:
    """A probability as a short decimal: exact when it terminates within 6 places, else 4 significant digits."""
    text = f"{float(x):.6f}".rstrip("0").rstrip(".")
    return text if Fraction(text) == x else f"{float(x):.4g}"


# -- the front door ----------------------------------------------------------------------------------------

def qrels_mapping(qrels) -> dict:
    """``qrels`` as ``{qid: {docid: grade}}``: a dict as it is, a table or table file read, a TREC file read;
    anything else refused in one message."""
    qrels = as_mapping(qrels, "qrels")
    if isinstance(qrels, dict):
        return qrels
    if not isinstance(qrels, (str, os.PathLike)):
        raise ValueError(f"qrels must be a dict {{qid: {{docid: grade}}}}, a table or the path of a qrels file; got "
                         f"{_brief(qrels)}")
    from .trec import read_qrels

    return read_qrels(qrels)


def _named_runs(runs) -> dict:
    if isinstance(runs, dict):
        if all(isinstance(v, dict) for v in runs.values()) and any(
                not isinstance(v, dict) for inner in runs.values() for v in list(inner.values())[:1]):
            raise ValueError("runs must be several runs: a dict {name: run} or a list of runs; got a single run "
                             "{qid: {docid: score}}")
        named, original = {}, {}
        for key, value in runs.items():
            if str(key) in named:
                raise ValueError(f"runs has two runs named {str(key)!r} ({original[str(key)]!r} and {key!r}); run names "
                                 "must differ as text")
            named[str(key)], original[str(key)] = value, key
    elif isinstance(runs, (list, tuple)):
        named = {}
        for i, run in enumerate(runs, start=1):
            name = os.path.basename(os.fspath(run)) if isinstance(run, (str, os.PathLike)) else f"run {i}"
            while name in named:
                name += f" ({i})"
            named[name] = run
    else:
        raise ValueError(f"runs must be a dict {{name: run}} or a list of runs (dicts or paths); got "
                         f"{type(runs).__name__}")
    if len(named) < 2:
        raise ValueError(f"runs must hold at least two runs (a baseline and one to compare); got {len(named)}")
    return named


def compare_runs(qrels, runs, metric: str = "ndcg@10", baseline=None, convention: str = "trec_eval",
                 missing=None, alternative: str = "two-sided", correction: str = "holm", confidence: float = 0.95,
                 n_resamples: int = 9999, seed: int = 0, exact_up_to: int = 20) -> RunComparison:
    """Compare runs query by query against a baseline, with paired significance tests.

    Parameters
    ----------
    qrels : dict or path
        ``{qid: {docid: grade}}`` or a TREC qrels file.
    runs : dict or list
        ``{name: run}`` or a list of runs (dicts ``{qid: {docid: score}}`` or run files, named by their
        file name, else ``run 1``, ``run 2`` ...).
    metric : str
        One metric of :func:`~ltr_teach.runs.evaluate.evaluate` (``"ndcg@10"``, ``"map"`` ...).
    baseline : str, optional
        The name of the run the others are compared with; default the first.
    convention, missing :
        As in :func:`~ltr_teach.runs.evaluate.evaluate`. The tests use the queries that the baseline
        and the run were both scored on (``missing="zero"`` scores every judged query, absent ones 0).
    alternative : {"two-sided", "greater", "less"}
        The alternative hypothesis about run minus baseline.
    correction : {"holm", "bonferroni", "none"}
        How the p-values are adjusted when several runs face the baseline.
    confidence : float
        Of the bootstrap interval, between 0 and 1.
    n_resamples : int
        Bootstrap resamples, and random sign flips of the permutation test past ``exact_up_to`` queries.
    seed : int
        Seeds the bootstrap and the sampled permutation test: the same call gives the same numbers.
    exact_up_to : int
        Up to this many queries the permutation test enumerates all 2^n sign flips (at most 24).

    Returns
    -------
    RunComparison

    Examples
    --------
    Four queries; run B beats A on three of them by 0.25 and loses one by 0.25:

    >>> import ltr_teach as lt
    >>> qrels = {q: {"good": 1} for q in "wxyz"}
    >>> a = {q: {"bad": 2.0, "good": 1.0} for q in "wxyz"}          # good at rank 2 everywhere: RR 1/2
    >>> b = {"w": {"good": 2.0}, "x": {"good": 2.0}, "y": {"good": 2.0},
    ...      "z": {"bad": 3.0, "bad2": 2.0, "good": 1.0}}             # RR 1, 1, 1, 1/3
    >>> result = lt.compare_runs(qrels, {"A": a, "B": b}, "mrr")
    >>> pair = result["B"]
    >>> pair.differences, (pair.wins, pair.ties, pair.losses)
    ((0.5, 0.5, 0.5, -0.16666666666666666), (3, 0, 1))

    The exact permutation test flips the signs of the four differences in all 2^4 = 16 ways; the
    observed mean (1/3) is reached or passed by 2 patterns (the observed one and one more, flipping
    only the -1/6): p = 2 · 2/16 = 1/4.

    >>> pair.tests["permutation"].exact
    Fraction(1, 4)
    """
    alternative = as_choice(alternative, "alternative", ALTERNATIVES)
    correction = as_choice(correction, "correction", CORRECTIONS)
    if not isinstance(confidence, numbers.Real) or isinstance(confidence, bool) or not 0 < confidence < 1:
        raise ValueError(f"confidence = {confidence!r} is not allowed; it must be a number between 0 and 1, e.g. 0.95")
    for name, value, low, high in (("n_resamples", n_resamples, 1, 10**7), ("exact_up_to", exact_up_to, 0, 24),
                                   ("seed", seed, 0, 2**63)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= value <= high:
            raise ValueError(f"{name} = {_brief(value)} is not allowed; it must be a whole number from {low} to {high}")
    n_resamples, exact_up_to, seed, confidence = int(n_resamples), int(exact_up_to), int(seed), float(confidence)
    if not isinstance(metric, str):
        raise ValueError(f"metric must be one metric name such as 'ndcg@10'; got {type(metric).__name__}")
    parse_metric(metric)
    metric = metric.strip().lower()
    named = _named_runs(runs)
    if baseline is None:
        baseline = next(iter(named))
    if not isinstance(baseline, (str, numbers.Integral)) or isinstance(baseline, bool):
        raise ValueError(f"baseline must be the name of one of the runs ({', '.join(map(repr, named))}); got "
                         f"{_brief(baseline)}")
    baseline = str(baseline)
    if baseline not in named:
        raise ValueError(f"baseline = {baseline!r} is not one of the runs: {', '.join(map(repr, named))}")
    qrels = qrels_mapping(qrels)
    scored = {name: evaluate(qrels, run, metric, convention=convention, missing=missing, progress=False)
              for name, run in named.items()}
    base = scored[baseline].per_query
    pairs, notes = {}, []
    for name, result in scored.items():
        if name == baseline:
            continue
        queries = sorted(q for q in result.per_query if q in base)
        dropped = len(base) + len(result.per_query) - 2 * len(queries)
        if dropped:
            notes.append(Message(N_("{name}: {dropped} queries scored in only one of {name} and {baseline} are left "
                                    "out (missing='zero' scores absent queries 0)"), name=name, dropped=dropped,
                                 baseline=baseline))
        if len(queries) < 2:
            raise ValueError(f"{name} and {baseline} share {len(queries)} scored queries; a paired test needs at least 2")
        b = np.array([base[q][metric] for q in queries])
        r = np.array([result.per_query[q][metric] for q in queries])
        if np.isnan(b).any() or np.isnan(r).any():
            keep = ~(np.isnan(b) | np.isnan(r))
            notes.append(Message(N_("{name}: {n} queries where {metric} is undefined are left out"), name=name,
                                 n=int((~keep).sum()), metric=metric))
            b, r, queries = b[keep], r[keep], [q for q, k in zip(queries, keep) if k]
        check_resampling(resampling_cost(r - b, n_resamples, exact_up_to), n_resamples,
                         f"{len(queries):,} queries ({name} against {baseline})")
        exact = exact_differences(r - b, scale=np.maximum(np.abs(r), np.abs(b)))
        d = np.array([float(e) for e in exact])  # float noise (0.6 - 0.4 = 0.19999999999999996) removed
        sd = float(np.std(d, ddof=1)) if len(d) > 1 else math.nan
        tests = {"t-test": paired_t(d, alternative), "wilcoxon": wilcoxon(d, alternative),
                 "permutation": permutation(d, alternative, exact_up_to, n_resamples, seed, exact=exact)}
        pairs[name] = PairComparison(
            run=name, baseline=baseline, queries=tuple(queries), baseline_values=tuple(b.tolist()),
            run_values=tuple(r.tolist()), differences=tuple(d.tolist()), wins=int((d > 0).sum()),
            ties=int((d == 0).sum()), losses=int((d < 0).sum()), mean_difference=float(np.mean(d)),
            ci=bootstrap_ci(d, confidence, n_resamples, seed),
            effect_size=float(np.mean(d) / sd) if sd > 0 else math.nan, tests=tests)
    for t in TESTS:
        adjusted = adjust([p.tests[t].p_value for p in pairs.values()], correction)
        for pair, value in zip(pairs.values(), adjusted):
            old = pair.tests[t]
            pair.tests[t] = SignificanceTest(old.test, old.statistic, old.p_value, old.exact, value, old.method)
    if len(pairs) > 1 and correction != "none":
        notes.append(Message(N_("{n} runs against one baseline: p-values adjusted by {correction}"), n=len(pairs),
                             correction=Message(CORRECTIONS[correction])))
    return RunComparison(metric=metric, baseline=baseline, convention=scored[baseline].convention,
                         alternative=alternative, correction=correction, confidence=confidence,
                         n_resamples=n_resamples, seed=seed, pairs=pairs, notes=tuple(notes))


__all__ = ["compare_runs", "RunComparison", "PairComparison", "SignificanceTest", "paired_t", "wilcoxon", "permutation",
           "bootstrap_ci", "adjust", "adjustment_steps", "sign_flips", "SignFlips", "TEST_NAMES", "SIGN_FLIPS_UP_TO", "ALTERNATIVES", "CORRECTIONS",
           "TESTS"]
