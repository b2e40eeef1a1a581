"""Many systems at once: every pair compared, the p-values corrected together, Tukey's HSD, a report table.

:func:`compare_runs` asks whether each run beats one baseline. With several systems (runs, folds, seeds)
the question is which beats which: :func:`compare_systems` takes every pair, runs one paired test per pair
(the randomisation test by default, or the t-test or Wilcoxon's, as :mod:`ltr_teach.runs.compare` computes
them), adjusts the k(k − 1)/2 p-values together by Holm's step-down method, and adds Tukey's honestly
significant difference test. The report table gives each system a letter and marks, beside its mean, the
letters of the systems it beats significantly (as ranx's ``Report`` does); it is exported as Markdown and
LaTeX.

Tukey's HSD is computed as ``scipy.stats.tukey_hsd(*scores)`` computes it (the tests check every value
against it): the systems' per-query scores as k independent samples, the pooled within-system variance
(one-way ANOVA), and p-values from the studentized range distribution (:mod:`.studentized`). It ignores
that every system was scored on the same queries, so it is conservative next to the paired tests: a
difference that is consistent across queries but small next to the spread between queries is often
significant for the paired tests and not for the HSD. The two-way ANOVA form of the HSD used in IR
(Carterette 2012) removes the queries' effect first; that is not what SciPy computes, and not what this
module computes.

References: Holm (1979), "A simple sequentially rejective multiple test procedure"; Tukey (1949);
Carterette (2012), "Multiple testing in statistical analysis of systems-based information retrieval
experiments", ACM TOIS 30(1).
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from ..core import webfont
from ..core.i18n import N_, Message, _, translate
from ..core.plain import _brief
from ..core.table import aligned_lines, html_table
from ..core.validate import as_choice
from .compare import (
    TEST_FULL_NAMES,
    TESTS,
    UNDEFINED,
    _named_runs,
    adjust,
    check_resampling,
    paired_t,
    permutation,
    qrels_mapping,
    resampling_cost,
    wilcoxon,
)
from .evaluate import evaluate, parse_metric
from .studentized import studentized_range_ppf, studentized_range_sf

#: How a pair's p-values are corrected together.
SYSTEM_CORRECTIONS = {
    "holm": N_("Holm's step-down adjustment across all pairs of systems"),
    "bonferroni": N_("Bonferroni: each p-value times the number of pairs"),
    "none": N_("no adjustment"),
}
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True, eq=False)
class TukeyHSD:
    """Tukey's HSD over k samples, as ``scipy.stats.tukey_hsd``: ``statistic[i, j]`` = mean i − mean j.

    Attributes
    ----------
    names : tuple of str
    means : tuple of float
    statistic, pvalue : numpy.ndarray
        k × k; the p-value of a pair from the studentized range with k means and ``df`` degrees of freedom.
    df : int
        N − k, N the number of scores in all.
    mse : float
        The pooled within-sample variance.
    sizes : tuple of int
    """

    names: tuple
    means: tuple
    statistic: np.ndarray
    pvalue: np.ndarray
    df: int
    mse: float
    sizes: tuple

    def standard_errors(self) -> np.ndarray:
        n = np.asarray(self.sizes, dtype=float)
        return np.sqrt(self.mse / 2 * (1 / n[:, None] + 1 / n[None, :]))

    def confidence_interval(self, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """The simultaneous intervals of every difference of means: statistic ∓ q_crit · standard error."""
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
            raise ValueError(f"confidence = {confidence!r} is not allowed; it must be a number between 0 and 1")
        critical = studentized_range_ppf(confidence, len(self.names), self.df)
        half = critical * self.standard_errors()
        return self.statistic - half, self.statistic + half


def tukey_hsd(samples, names=None) -> TukeyHSD:
    """Tukey's honestly significant difference test of k samples (equal or unequal sizes: Tukey–Kramer).

    Examples
    --------
    Three groups of three; the means are 2, 5 and 8, and every group's variance is 1, so MSE = 1 and the
    standard error of a difference is sqrt(1/2 · (1/3 + 1/3)) = 0.5774:

    >>> result = tukey_hsd([[1, 2, 3], [4, 5, 6], [7, 8, 9]], names=["A", "B", "C"])
    >>> result.statistic[2, 0], result.df, result.mse
    (np.float64(6.0), 6, 1.0)
    >>> round(float(result.pvalue[2, 0]), 6)   # q = 6 / 0.5774 = 10.39 with 3 means and 6 df (SciPy: 0.000794)
    0.000794

    When no sample varies at all (every value of each sample equal, up to float noise such as the mean of
    [0.1, 0.1, 0.1] being 0.10000000000000002), the pooled variance is 0 and the test degenerates: any
    difference of means is certain (p = 0), equal means are a tie (p = 1):

    >>> tukey_hsd([[0.1] * 3, [0.7] * 3]).pvalue.tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    arrays = _samples(samples)
    names = tuple(names) if names is not None else tuple(f"sample {i + 1}" for i in range(len(arrays)))
    sizes = np.array([len(a) for a in arrays])
    means = np.array([a.mean() for a in arrays])
    df = int(sizes.sum() - len(arrays))
    mse = float(sum(((a - a.mean()) ** 2).sum() for a in arrays) / df)
    # the mean of [0.1, 0.1, 0.1] is 0.10000000000000002: the squares of such residues (1e-33) are no spread
    noise = sum(len(a) * (4 * len(a) * _EPS * float(np.abs(a).max())) ** 2 for a in arrays) / df
    if mse <= noise:
        mse = 0.0
    statistic = means[:, None] - means[None, :]
    scale = np.maximum(np.abs(means)[:, None], np.abs(means)[None, :])
    tied = np.abs(statistic) <= 4 * _EPS * scale
    pvalue = np.ones_like(statistic)
    if mse > 0:
        errors = np.sqrt(mse / 2 * (1 / sizes[:, None] + 1 / sizes[None, :]))
        q = np.abs(statistic) / errors
        upper = np.triu_indices(len(arrays), 1)
        values = studentized_range_sf(q[upper], len(arrays), df)
        pvalue[upper] = values
        pvalue[upper[1], upper[0]] = values
    else:  # no spread inside any sample: a difference of means is certain (p = 0), equal means are a tie (p = 1)
        pvalue = np.where(tied, 1.0, 0.0)
    return TukeyHSD(names=names, means=tuple(means.tolist()), statistic=statistic, pvalue=pvalue, df=df, mse=mse,
                    sizes=tuple(sizes.tolist()))


_EPS = float(np.finfo(float).eps)
#: The largest size of a score: the squares of the deviations must stay finite floats.
SCORE_LIMIT = 1e100


def _samples(samples) -> list[np.ndarray]:
    """``samples`` as 1-d float arrays, refused in one message when a value is not a real number of sane size."""
    if isinstance(samples, (str, bytes, dict)) or not hasattr(samples, "__iter__"):
        raise ValueError(f"samples must be a list of samples (lists of numbers); got {type(samples).__name__}")
    arrays = []
    for i, sample in enumerate(samples):
        if len(arrays) >= 1000:
            raise ValueError("samples holds more than 1000 samples; Tukey's HSD here compares at most 1000")
        if isinstance(sample, (str, bytes, dict)) or not hasattr(sample, "__len__"):
            raise ValueError(f"sample {i + 1} must be a list of numbers; got {_brief(sample)}")
        values = list(sample.tolist() if hasattr(sample, "tolist") else sample)
        for j, v in enumerate(values):
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise ValueError(f"sample {i + 1}, value {j + 1} = {_brief(v)} is not a number; scores are numbers")
            if isinstance(v, (np.integer, np.floating)):
                v = v.item()  # a float32 cannot be compared with the limit without overflowing
            if abs(v) > SCORE_LIMIT or not math.isfinite(v):  # abs first: 10**400 has no float
                raise ValueError(f"sample {i + 1}, value {j + 1} = {_brief(v)} is not allowed; scores are finite "
                                 f"numbers of size at most {SCORE_LIMIT:g} (their squares must stay finite)")
        if len(values) < 2:
            raise ValueError(f"sample {i + 1} must hold at least two numbers; got {len(values)}")
        arrays.append(np.array(values, dtype=float))
    if len(arrays) < 2:
        raise ValueError(f"samples must hold at least two samples; got {len(arrays)}")
    return arrays


@dataclass(frozen=True)
class SystemPair:
    """Two systems on the same queries: ``second`` minus ``first``, one paired test, its corrected p."""

    first: str
    second: str
    mean_difference: float
    wins: int
    ties: int
    losses: int
    p_value: float
    adjusted: float
    tukey_p: float


@dataclass(frozen=True, eq=False)
class SystemsComparison:
    """The result of :func:`compare_systems`: every pair, Tukey's HSD, and the report table."""

    metric: str
    convention: str
    test: str
    correction: str
    level: float
    names: tuple
    queries: tuple
    scores: np.ndarray          # one row per system, one column per query
    pairs: tuple
    tukey: TukeyHSD
    notes: tuple = field(default=())

    @property
    def means(self) -> dict:
        return dict(zip(self.names, self.scores.mean(axis=1).tolist()))

    def letters(self) -> dict:
        return {name: _LETTERS[i] if i < len(_LETTERS) else str(i + 1) for i, name in enumerate(self.names)}

    def beats(self) -> dict:
        """``{system: [systems it beats]}``: the mean is higher and the corrected p-value below ``level``."""
        out = {name: [] for name in self.names}
        for pair in self.pairs:
            if pair.adjusted < self.level and pair.mean_difference != 0:
                winner, loser = (pair.second, pair.first) if pair.mean_difference > 0 else (pair.first, pair.second)
                out[winner].append(loser)
        return out

    # -- tables ------------------------------------------------------------------------------------------
    def report_rows(self) -> list[list[str]]:
        """Header and one row per system: letter, name, mean, and the letters of the systems it beats."""
        letters, beats, means = self.letters(), self.beats(), self.means
        rows = [[_("letter"), _("system"), self.metric, _("beats (corrected p < {level})").format(level=self.level)]]
        for name in self.names:
            marks = "".join(sorted(letters[other] for other in beats[name]))
            rows.append([letters[name], name, f"{means[name]:.4f}", marks])
        return rows

    def pair_rows(self) -> list[list[str]]:
        """Header and one row per pair: mean difference, W/T/L, the test's p, the corrected p, Tukey's p."""
        rows = [[_("pair"), _("Δ mean"), _("W/T/L"), _("p ({test})").format(test=translate(TEST_FULL_NAMES[self.test])),
                 _("{correction} p").format(correction=self.correction.capitalize()), _("Tukey HSD p")]]
        for p in self.pairs:
            rows.append([f"{p.second} − {p.first}", f"{p.mean_difference:+.4f}", f"{p.wins}/{p.ties}/{p.losses}",
                         _p(p.p_value), _p(p.adjusted), _p(p.tukey_p)])
        return rows

    def title(self) -> str:
        return _("{metric} of {k} systems over {n} queries, convention {convention}: every pair compared").format(
            metric=self.metric, k=len(self.names), n=len(self.queries), convention=self.convention)

    def __str__(self) -> str:
        report, pairs = self.report_rows(), self.pair_rows()
        lines = [self.title(), ""] + aligned_lines(report[0], report[1:], left=2) + [""]
        lines += aligned_lines(pairs[0], pairs[1:], left=1)
        lines.append("")
        lines += [_("note: {note}").format(note=translate(note)) for note in self.notes]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<SystemsComparison {self.metric}: {', '.join(self.names)}>"

    def _repr_html_(self) -> str:
        report, pairs = self.report_rows(), self.pair_rows()
        notes = "".join(f"<p style='margin:2px 0'><i>{html.escape(_('note:'))}</i> {html.escape(translate(n))}</p>"
                        for n in self.notes)
        return webfont.serve(f"<div class='ltr-teach-comparison'><b>{html.escape(self.title())}</b>"
                             f"{html_table(report[0], report[1:], left=2)}"
                             f"{html_table(pairs[0], pairs[1:], left=1)}{notes}</div>")

    def to_markdown(self) -> str:
        """The report and the pairs as two GitHub-flavoured Markdown tables; every text is shown as written
        (:func:`_markdown`: no character of a name can split a cell, end a row, or become markup or HTML)."""
        def table(rows):
            cells = [[_markdown(c) for c in row] for row in rows]
            lines = ["| " + " | ".join(cells[0]) + " |", "|" + "|".join(" --- " for _ in cells[0]) + "|"]
            return lines + ["| " + " | ".join(row) + " |" for row in cells[1:]]

        notes = [f"- {_markdown(translate(note))}" for note in self.notes]
        return "\n".join([f"**{_markdown(self.title())}**", "", *table(self.report_rows()), "",
                          *table(self.pair_rows()), *([""] + notes if notes else [])]) + "\n"

    def to_latex(self) -> str:
        r"""The report as a LaTeX ``tabular`` (booktabs rules): each mean with the letters it beats as a superscript,
        as ranx's ``Report.to_latex`` prints; names escaped (``_`` becomes ``\_``)."""
        letters, beats, means = self.letters(), self.beats(), self.means
        lines = [r"\begin{tabular}{llr}", r"\toprule",
                 f"& {_latex(_('system'))} & {_latex(self.metric)} \\\\", r"\midrule"]
        for name in self.names:
            marks = "".join(sorted(letters[other] for other in beats[name]))
            value = f"{means[name]:.4f}" + (f"$^{{{marks}}}$" if marks else "")
            lines.append(f"({letters[name]}) & {_latex(name)} & {value} \\\\")
        lines += [r"\bottomrule", r"\end{tabular}",
                  "% " + _latex(_("a superscript lists the systems a row beats: {correction} p < {level} ({test})")
                                .format(correction=self.correction.capitalize(), level=self.level,
                                        test=translate(TEST_FULL_NAMES[self.test])))]
        return "\n".join(lines) + "\n"

    def to_dict(self) -> dict:
        return {"metric": self.metric, "convention": self.convention, "test": self.test,
                "correction": self.correction, "level": self.level, "queries": list(self.queries),
                "means": self.means, "beats": self.beats(),
                "pairs": [{"first": p.first, "second": p.second, "mean_difference": p.mean_difference,
                           "wins": p.wins, "ties": p.ties, "losses": p.losses, "p_value": p.p_value,
                           "adjusted": p.adjusted, "tukey_p": p.tukey_p} for p in self.pairs],
                "notes": [str(n) for n in self.notes]}


_LATEX_SPECIALS = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                   "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def _latex(text: str) -> str:
    """``text`` as LaTeX prints it: specials escaped, every line break a space (a blank line would be a \\par
    inside the tabular, a newline would end the closing % comment)."""
    return "".join(_LATEX_SPECIALS.get(c, " " if c in _LINE_BREAKS else c) for c in str(text))


#: Characters that end a line somewhere (str.splitlines' list): in a table cell each is shown as a break or a space.
_LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")
#: Characters that Markdown (GitHub's) reads as table, markup or HTML; written as numeric character references
#: they are shown as themselves (the table splitter sees no pipe, the inline parser no emphasis, link or tag).
_MARKDOWN_SPECIALS = frozenset("\\|<>&*_`[]~!#")


def _markdown(text) -> str:
    """One Markdown table cell showing ``text`` as written (a line break becomes ``<br>``)."""
    out = []
    text = str(text).replace("\r\n", "\n")
    for i, c in enumerate(text):
        if c in _LINE_BREAKS:
            out.append("<br>")
        elif c == "_" and 0 < i < len(text) - 1 and text[i - 1].isalnum() and text[i + 1].isalnum():
            out.append(c)  # inside a word an underscore never starts emphasis (base_a stays readable)
        elif c in _MARKDOWN_SPECIALS:
            out.append(f"&#{ord(c)};")
        else:
            out.append(c)
    return "".join(out)


def _p(x: float) -> str:
    if math.isnan(x):
        return UNDEFINED  # a note says why
    return f"{x:.4f}" if x >= 1e-4 else f"{x:.2e}"


def compare_systems(qrels, runs, metric: str = "ndcg@10", test: str = "permutation", correction: str = "holm",
                    level: float = 0.05, convention: str = "trec_eval", missing=None, n_resamples: int = 9999,
                    seed: int = 0, exact_up_to: int = 20) -> SystemsComparison:
    """Compare several systems pair by pair on the queries all of them were scored on.

    Parameters
    ----------
    qrels : dict or path
        ``{qid: {docid: grade}}`` or a TREC qrels file.
    runs : dict or list
        ``{name: run}`` or a list of runs (dicts or run files), at least two.
    metric : str
        One metric of :func:`~ltr_teach.runs.evaluate.evaluate`.
    test : {"permutation", "t-test", "wilcoxon"}
        The paired test run on each pair (two-sided), as :func:`~ltr_teach.runs.compare.compare_runs` computes it.
    correction : {"holm", "bonferroni", "none"}
        How the k(k − 1)/2 p-values are adjusted together.
    level : float
        A pair is a significant win when its corrected p-value is below this (the report's marks).
    convention, missing, n_resamples, seed, exact_up_to :
        As in :func:`~ltr_teach.runs.compare.compare_runs`.

    Returns
    -------
    SystemsComparison
        ``str()`` the report and the pairs, ``to_markdown()``, ``to_latex()``, ``.tukey`` (:class:`TukeyHSD`).

    Examples
    --------
    Three systems on six queries; C finds the relevant document at rank 1 everywhere, A at rank 2, B at rank
    2 on three queries and at rank 1 on the other three:

    >>> import ltr_teach as lt
    >>> qrels = {q: {"good": 1} for q in "uvwxyz"}
    >>> a = {q: {"bad": 2.0, "good": 1.0} for q in "uvwxyz"}
    >>> b = {q: ({"good": 2.0, "bad": 1.0} if q in "uvw" else {"bad": 2.0, "good": 1.0}) for q in "uvwxyz"}
    >>> c = {q: {"good": 2.0} for q in "uvwxyz"}
    >>> result = lt.compare_systems(qrels, {"A": a, "B": b, "C": c}, "mrr")
    >>> result.means
    {'A': 0.5, 'B': 0.75, 'C': 1.0}

    C beats A on all six queries: the sign flips give p = 2/64 = 1/32 for that pair, and Holm multiplies the
    smallest of the three p-values by 3:

    >>> [(p.first, p.second, p.p_value, p.adjusted) for p in result.pairs if p.second == "C" and p.first == "A"]
    [('A', 'C', 0.03125, 0.09375)]
    """
    test = as_choice(test, "test", TESTS)
    correction = as_choice(correction, "correction", SYSTEM_CORRECTIONS)
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise ValueError(f"level = {level!r} is not allowed; it must be a number between 0 and 1, e.g. 0.05")
    for name, value, low, high in (("n_resamples", n_resamples, 1, 10**7), ("exact_up_to", exact_up_to, 0, 24),
                                   ("seed", seed, 0, 2**63)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
            raise ValueError(f"{name} = {value!r} is not allowed; it must be a whole number from {low} to {high}")
    if not isinstance(metric, str):
        raise ValueError(f"metric must be one metric name such as 'ndcg@10'; got {type(metric).__name__}")
    parse_metric(metric)
    metric = metric.strip().lower()
    named = _named_runs(runs)
    qrels = qrels_mapping(qrels)  # a DataFrame, an Arrow table or a Parquet file, as compare_runs takes
    scored = {name: evaluate(qrels, run, metric, convention=convention, missing=missing, progress=False)
              for name, run in named.items()}
    names = tuple(scored)
    shared = set.intersection(*(set(r.per_query) for r in scored.values()))
    notes = []
    left_out = set.union(*(set(r.per_query) for r in scored.values())) - shared
    if left_out:
        notes.append(Message(N_("{n} queries not scored for every system are left out (missing='zero' scores "
                                "absent queries 0)"), n=len(left_out)))
    queries = sorted(shared, key=str)
    scores = np.array([[scored[name].per_query[q][metric] for q in queries] for name in names], dtype=float)
    if np.isnan(scores).any():
        keep = ~np.isnan(scores).any(axis=0)
        notes.append(Message(N_("{n} queries where {metric} is undefined for some system are left out"),
                             n=int((~keep).sum()), metric=metric))
        scores, queries = scores[:, keep], [q for q, k in zip(queries, keep) if k]
    if len(queries) < 2:
        raise ValueError(f"the systems share {len(queries)} scored queries; comparing them needs at least 2")
    if test == "permutation":
        pair_count = len(names) * (len(names) - 1) // 2
        check_resampling(pair_count * resampling_cost(scores[0], n_resamples, exact_up_to, bootstrap=False),
                         n_resamples, f"{len(queries):,} queries and {pair_count:,} pairs")
    tukey = tukey_hsd(scores, names)
    run_test = {"t-test": paired_t, "wilcoxon": wilcoxon,
                "permutation": lambda d, alt: permutation(d, alt, exact_up_to, n_resamples, seed)}[test]
    raw = []
    for i, j in combinations(range(len(names)), 2):
        d = scores[j] - scores[i]
        raw.append((i, j, d, run_test(d, "two-sided").p_value))
    adjusted = adjust([p for *_, p in raw], correction)
    pairs = tuple(SystemPair(first=names[i], second=names[j], mean_difference=float(d.mean()),
                             wins=int((d > 0).sum()), ties=int((d == 0).sum()), losses=int((d < 0).sum()),
                             p_value=float(p), adjusted=float(a), tukey_p=float(tukey.pvalue[i, j]))
                  for (i, j, d, p), a in zip(raw, adjusted))
    undefined = [p for p in pairs if math.isnan(p.p_value)]
    if undefined:
        notes.append(Message(N_("{n} pairs have the same difference on every query, so the t statistic divides by a "
                                "standard deviation of 0: their p is undefined (shown as —; SciPy's ttest_rel "
                                "gives nan)"), n=len(undefined)))
    if tukey.mse == 0:
        notes.append(Message(N_("no system's score varies across the queries: Tukey's HSD has no spread to weigh "
                                "the differences against, so every difference of means counts as certain (p = 0) "
                                "and equal means as a tie (p = 1)")))
    notes.append(Message(N_("{m} pairs, p-values adjusted together: {correction}"), m=len(pairs),
                         correction=Message(SYSTEM_CORRECTIONS[correction])))
    notes.append(Message(N_("Tukey's HSD treats the systems' scores as independent samples (as "
                            "scipy.stats.tukey_hsd); it ignores that every system answered the same queries")))
    return SystemsComparison(metric=metric, convention=scored[names[0]].convention, test=test, correction=correction,
                             level=level, names=names, queries=tuple(queries), scores=scores, pairs=pairs,
                             tukey=tukey, notes=tuple(notes))


__all__ = ["compare_systems", "SystemsComparison", "SystemPair", "tukey_hsd", "TukeyHSD", "SYSTEM_CORRECTIONS"]
