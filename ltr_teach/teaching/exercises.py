"""Exercises: a registry of hand computations, each defined by one library call.

Every exercise has an id, a prompt in English with the documents' Chinese terms, the library call
that defines its exact answer, hints, and a family (one notebook in ``exercises/`` per family).
:func:`variant` gives each student a version with new numbers: the same seed always gives the same
numbers, and the numbers stay small enough to compute by hand.

>>> import ltr_teach as lt
>>> ex = lt.exercises.get("map-doc000")
>>> ex.answer
599/840
>>> ex.call
'lt.mean_average_precision([[1, 1, 0, 0, 1, 0, 0], [0, 1, 1, 0, 0, 1, 1]])'
>>> lt.exercises.variant("map-doc000", 7).answer == lt.exercises.variant("map-doc000", 7).answer
True
"""

from __future__ import annotations

import difflib
import html
import inspect
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from ..core.explanation import Explanation
from ..core.i18n import N_, _, translate, using_language
from ..metrics.gains import DISCOUNTS, GAINS
from ..metrics.registry import METRICS
from . import examples
from .guide import how_to_answer  # noqa: F401  (lt.exercises.how_to_answer(), shown atop every sheet)
from .hints import GENERIC_HINTS, expected_text

#: The exercise families, one notebook each.
FAMILIES = {
    "precision_recall": "Precision, recall and F (精确率、召回率与F值)",
    "mrr_map": "MRR, AP and MAP (平均倒数排名、平均精度与平均精度均值)",
    "dcg_ndcg": "CG, DCG and NDCG (累计增益、折损累计增益与归一化折损累计增益)",
    "err": "ERR, the cascade model (预期倒数排名)",
    "roc_auc": "ROC and AUC (ROC曲线与曲线下面积)",
}

_FIRST_ARGUMENT = ("grades", "rels", "judgments", "list_of_rels", "labels")


def _show(value) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k!r}: {_show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    return repr(value)


def _documents(n: int) -> str:
    return (_("{n} relevant document") if n == 1 else _("{n} relevant documents")).format(n=n)


def _nums(values) -> str:
    return ", ".join(str(v) for v in values)


def _freeze(value):
    """Read-only data: tuples for lists, read-only mappings for dicts, so no caller can change an exercise."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value):
    """Plain lists and dicts again, for the library call."""
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


@dataclass(frozen=True, eq=False)
class Exercise:
    """One exercise: the data, the metric call that defines the answer, and how to ask it.

    Attributes
    ----------
    id : str
        Registry id (``"ndcg-lipstick"``).
    family : str
        One of :data:`FAMILIES`.
    metric : str
        Registry name of the metric (``lt.METRICS``).
    data : mapping
        The call's arguments (keyword names of the metric function) and extra facts the prompt
        states (``total_relevant`` for a precision exercise, whose call does not need it).
    seed : int or None
        ``None`` for the exercise as registered; the student's seed for a variant.
    point : callable or None
        What makes the exercise worth doing, as a test of its data (a query without a hit, a relevant
        document never retrieved ...): every variant keeps it.
    """

    id: str
    family: str
    metric: str
    data: Mapping
    task: Callable = field(repr=False)
    hints: tuple = ()
    intro: str = ""
    source: str = "new"
    randomize: Callable | None = field(default=None, repr=False)
    seed: int | None = None
    point: Callable | None = field(default=None, repr=False)
    #: The intro's parts, kept apart so the prompt translates them when shown: the story (a message id)
    #: and the worked example of ``lt.examples`` whose printed number the intro quotes.
    story: str = field(default="", repr=False)
    worked: str | None = field(default=None, repr=False)

    @property
    def label(self) -> str:
        """The id, with the seed for a variant (``ndcg-lipstick (seed 3)``)."""
        return self.id if self.seed is None else f"{self.id} (seed {self.seed})"

    @property
    def title(self) -> str:
        """The metric's name in the current language."""
        return METRICS[self.metric].local_title

    @property
    def prompt(self) -> str:
        """The question; a variant drops the document's story, whose numbers it no longer uses."""
        text = self.task(self.data)
        if self.intro and self.seed is None:
            parts = (translate(self.story).format() if self.story else "", _document_says(self.worked) if self.worked else "")
            intro = " ".join(part for part in parts if part) if (self.story or self.worked) else self.intro
            text = _("{intro} {task}").format(intro=intro, task=text)
        return text

    def __post_init__(self):
        object.__setattr__(self, "data", _freeze(self.data))

    def kwargs(self) -> dict:
        """The metric call's arguments, by keyword (fresh lists and dicts: the exercise stays as it is)."""
        names = inspect.signature(METRICS[self.metric].func).parameters
        return {k: _thaw(v) for k, v in self.data.items() if k in names}

    @property
    def call(self) -> str:
        """The library call that defines the answer, as text."""
        kwargs = self.kwargs()
        first = [kwargs.pop(name) for name in _FIRST_ARGUMENT if name in kwargs]
        if "scores" in kwargs:
            first.append(kwargs.pop("scores"))
        pieces = [_show(v) for v in first] + [f"{k}={_show(v)}" for k, v in kwargs.items()]
        return f"lt.{self.metric}({', '.join(pieces)})"

    def explanation(self) -> Explanation:
        """The worked solution: the library's explanation of the defining call."""
        return METRICS[self.metric].func(**self.kwargs())

    @property
    def answer(self):
        """The exact answer (SymPy)."""
        return self.explanation().exact

    @property
    def context(self) -> dict:
        """Facts for the checker's diagnosis that the explanation cannot show (whole lists, totals)."""
        ctx = _thaw(self.data)
        if "total_relevant" in ctx:
            ctx["n_relevant"] = ctx["total_relevant"]
        return ctx

    def __str__(self) -> str:
        return f"[{self.label}] {self.prompt}"

    def hint_box(self) -> HintBox:
        """The hints folded away: in Jupyter a closed "Hint" box to click open."""
        return HintBox(self.label, self.hints)


@dataclass(frozen=True)
class HintBox:
    """An exercise's hints, closed until clicked in Jupyter; ``str()`` gives them as text."""

    label: str
    hints: tuple

    def __str__(self) -> str:
        return "\n".join(_("hint: {hint}").format(hint=translate(h)) for h in self.hints)

    def __repr__(self) -> str:
        return _("<{n} hint(s) for {label}: print() them or open the box in Jupyter>").format(n=len(self.hints),
                                                                                           label=self.label)

    def _repr_html_(self) -> str:
        items = "".join(f"<li>{html.escape(translate(h))}</li>" for h in self.hints)
        summary = _("Hint (提示) for {label}: click to open").format(label=html.escape(self.label))
        return f"<details class='ltr-teach-hint'><summary>{summary}</summary><ul>{items}</ul></details>"


# -- random data for variants -------------------------------------------------------------------
def _graded(rng: random.Random, data: dict) -> dict:
    top = min(max(data["grades"]), 5)
    n = len(data["grades"])
    while True:
        grades = [rng.randint(0, top) for _ in range(n)]
        if sum(g > 0 for g in grades) >= 2 and grades != sorted(grades, reverse=True):
            break
    out = dict(data, grades=grades)
    if "ideal" in data:
        extra = [rng.randint(1, top) for _ in range(len(data["ideal"]) - n)]
        out["ideal"] = grades + extra
    return out


def _err_data(rng: random.Random, data: dict) -> dict:
    n, g_max = len(data["grades"]), data["g_max"]
    while True:
        grades = [rng.randint(0, g_max) for _ in range(n)]
        if sum(g > 0 for g in grades) >= 2:
            return dict(data, grades=grades)


def _binary_list(rng: random.Random, n: int, min_hits: int = 1) -> list:
    while True:
        rels = [int(rng.random() < 0.45) for _ in range(n)]
        if min_hits <= sum(rels) < n:
            return rels


def _rels(rng: random.Random, data: dict) -> dict:
    k = data.get("k") or len(data["rels"])
    while True:
        rels = _binary_list(rng, len(data["rels"]), min(2, len(data["rels"]) - 1))
        if 0 < sum(rels[:k]):
            break
    out = dict(data, rels=rels)
    for key in ("n_relevant", "total_relevant"):
        if key in data:
            out[key] = sum(rels) + rng.randint(0, 2)
    return out


def _judgments(rng: random.Random, data: dict) -> dict:
    """Relevance with unjudged documents (None), at least one relevant and one judged non-relevant; the
    query's totals are those in the list plus a few never retrieved."""
    n = len(data["judgments"])
    while True:
        values = [rng.choice((1, 0, None)) for _ in range(n)]
        if 1 in values and 0 in values and None in values:
            break
    out = dict(data, judgments=values)
    if "n_relevant" in data:
        out["n_relevant"] = values.count(1) + rng.randint(0, 1)
    if "n_nonrelevant" in data:
        out["n_nonrelevant"] = values.count(0) + rng.randint(0, 2)
    return out


def _graded_judgments(rng: random.Random, data: dict) -> dict:
    n, k = len(data["judgments"]), data["k"]
    while True:
        values = [None if rng.random() < 0.4 else rng.randint(0, 3) for _ in range(n)]
        if 0 < sum(v is not None for v in values[:k]) < k:
            return dict(data, judgments=values)


def _persistent(rng: random.Random, data: dict) -> dict:
    n = rng.randint(3, 6)
    return dict(data, grades=_binary_list(rng, n, 1), p=rng.choice((Fraction(1, 2), Fraction(3, 4), Fraction(4, 5))))


def _precision_longer(rng: random.Random, data: dict) -> dict:
    """A two-item list has too few versions: a student's version is 3 to 6 items long, cut at k >= 2."""
    n = rng.randint(3, 6)
    rels = _binary_list(rng, n, 1)
    return dict(data, rels=rels, k=rng.randint(2, n), total_relevant=sum(rels) + rng.randint(0, 2))


def _first_hit(rng: random.Random, n: int, allow_none: bool) -> list:
    position = rng.randint(1, n + (1 if allow_none else 0))
    rels = [0] * n
    if position <= n:
        rels[position - 1] = 1
        rels[position:] = [int(rng.random() < 0.4) for _ in range(n - position)]
    return rels


def _rr(rng: random.Random, data: dict) -> dict:
    return dict(data, rels=_first_hit(rng, len(data["rels"]), allow_none=False))


def _queries(rng: random.Random, data: dict) -> dict:
    old = data["list_of_rels"]
    keys = list(old) if isinstance(old, Mapping) else None
    lists = list(old.values()) if keys else list(old)
    if data.get("_kind") == "mrr":
        new = [_first_hit(rng, len(q), allow_none=True) for q in lists]
        while not any(sum(q) for q in new):
            new = [_first_hit(rng, len(q), allow_none=True) for q in lists]
    else:
        new = [_binary_list(rng, len(q)) for q in lists]
    out = dict(data, list_of_rels=dict(zip(keys, new)) if keys else new)
    if isinstance(data.get("n_relevant"), (list, tuple)):
        out["n_relevant"] = [sum(q) + rng.randint(0, 2) for q in new]
    return out


def _labels_scores(rng: random.Random, data: dict) -> dict:
    n_pos, n = sum(data["labels"]), len(data["labels"])
    grid = [Fraction(i, 10) for i in range(1, 10)]
    while True:
        labels = [1] * n_pos + [0] * (n - n_pos)
        rng.shuffle(labels)
        scores = [rng.choice(grid) for _ in range(n)]
        tie = any(scores[i] == scores[j] and labels[i] != labels[j] for i in range(n) for j in range(n))
        if 0 < n_pos < n and (tie or not data.get("_tie")):
            return dict(data, labels=labels, scores=[float(s) for s in scores])


# -- the registry --------------------------------------------------------------------------------
def _document_says(worked_id: str) -> str:
    """What a document prints for one of its worked examples, from ``lt.examples`` (never retyped)."""
    w = examples.by_id(worked_id)
    verdict = "" if w.matches else _(" What is right?")
    return _("Document {document} prints {quantity} = {printed} for {title}.{verdict}").format(
        document=w.id[:3], quantity=w.quantity, printed=w.printed, title=w.title, verdict=verdict)


def _e(id, family, metric, data, task, hints=(), intro="", source="new", randomize=None, worked=None,
       point=None) -> Exercise:
    story = intro  # a message id: a literal brace is doubled, as in every message (the prompt formats it)
    intro = story.format()
    if worked:
        with using_language("en"):  # the intro field is the English text; the prompt translates its parts
            intro = f"{intro} {_document_says(worked)}".strip()
    exercise = Exercise(id=id, family=family, metric=metric, data=data, task=task, hints=tuple(hints),
                        intro=intro, source=source, randomize=randomize, point=point, story=story, worked=worked)
    if point is not None and not point(_thaw(exercise.data)):
        raise RuntimeError(f"exercise {id!r} does not have the point its variants keep")
    return exercise


# -- what each exercise is about, kept by every variant -----------------------------------------------
def _some_query_missed(d) -> bool:
    """A query without a relevant result (its reciprocal rank 0 still counts in the mean), and one with."""
    lists = list(d["list_of_rels"].values()) if isinstance(d["list_of_rels"], Mapping) else d["list_of_rels"]
    return any(sum(q) == 0 for q in lists) and any(sum(q) > 0 for q in lists)


def _every_query_hit(d) -> bool:
    lists = list(d["list_of_rels"].values()) if isinstance(d["list_of_rels"], Mapping) else d["list_of_rels"]
    return not any(sum(q) == 0 for q in lists)  # (`all` is this module's list of exercises)


def _first_hit_below_rank_1(d) -> bool:
    return 1 in d["rels"] and d["rels"][0] == 0


def _recall_below_1(d) -> bool:
    return d["n_relevant"] > sum(d["rels"][:d["k"]])


def _relevant_never_retrieved(d) -> bool:
    return d["n_relevant"] > sum(d["rels"])


def _pool_holds_a_better_item(d) -> bool:
    """An item of the judged pool never shown that enters the ideal top k (document 004's film rated 4)."""
    k = d.get("k") or len(d["grades"])
    unseen = list(d["ideal"][len(d["grades"]):])
    shown_best = sorted(d["grades"], reverse=True)
    return bool(unseen) and max(unseen) > (shown_best[k - 1] if k <= len(shown_best) else 0)


def _ranked(d, key="grades") -> str:
    return _("[{values}] (rank 1 first)").format(values=_nums(d[key]))


def _gain_words(d) -> str:
    return translate(GAINS[d.get("gain", "exp2")].phrase)


def _discount_words(d) -> str:
    return translate(DISCOUNTS[d.get("discount", "log2")].phrase)


def _at_k(d) -> str:
    return f"@{d['k']}" if d.get("k") else ""


def _graded_task(what: str):
    """``what`` is a message id (``N_("NDCG (归一化折损累计增益)")``), translated when the prompt is shown."""
    def task(d):
        pool = ""
        if "ideal" in d:
            pool = _(" The query's judged pool (every rated item, retrieved or not) is [{pool}]; the ideal order "
                     "sorts the pool.").format(pool=_nums(d["ideal"]))
        return _("A ranking has graded relevance {ranking}.{pool} Compute {what}{at_k} with {gain} and "
                 "{discount}.").format(ranking=_ranked(d), pool=pool, what=translate(what), at_k=_at_k(d),
                                       gain=_gain_words(d), discount=_discount_words(d))
    return task


def _cg_task(d) -> str:
    return _("A ranking has grades {ranking}. Compute CG{at_k} (累计增益, cumulative gain).").format(
        ranking=_ranked(d), at_k=_at_k(d))


def _err_task(d) -> str:
    cut = _(" at cut-off k = {k}").format(k=d["k"]) if d.get("k") else ""
    return _("A ranking has grades {ranking} on a 0–{g_max} scale. Under the cascade model "
             "(R_i = (2^g − 1)/2^{g_max}), compute ERR (预期倒数排名, expected reciprocal rank){cut}.").format(
        ranking=_ranked(d), g_max=d["g_max"], cut=cut)


def _judged_text(values) -> str:
    return _("[{values}] (rank 1 first, ? = unjudged)").format(
        values=", ".join("?" if v is None else str(v) for v in values))


def _rprec_task(d) -> str:
    return _("A ranking has relevance {ranking}; the collection holds {documents}. Compute R-precision (R精确率): the "
             "precision at rank R, R being the number of relevant documents.").format(
        ranking=_ranked(d, "rels"), documents=_documents(d["n_relevant"]))


def _success_task(d) -> str:
    return _("A ranking has relevance {ranking}. Compute success@{k} (命中率, hit rate): 1 if a relevant document "
             "is in the top {k}, else 0.").format(ranking=_ranked(d, "rels"), k=d["k"])


def _bpref_task(d) -> str:
    return _("A ranking has judgments {judgments}, 1 = relevant, 0 = judged non-relevant. The query has {documents} "
             "and {n_nonrelevant} judged non-relevant ones in all. Compute bpref (二元偏好, binary preference) as "
             "trec_eval does.").format(judgments=_judged_text(d["judgments"]), documents=_documents(d["n_relevant"]),
                                       n_nonrelevant=d["n_nonrelevant"])


def _judged_task(d) -> str:
    return _("A ranking has judgments {judgments}. Compute judged@{k} (已标注比例): the share of the top {k} that "
             "has a judgment.").format(judgments=_judged_text(d["judgments"]), k=d["k"])


def _rbp_task(d) -> str:
    return _("A ranking has relevance {ranking}. A user reads rank 1 and goes on to each next rank with probability "
             "p = {p}. Compute RBP (排序偏置精确率, rank-biased precision).").format(ranking=_ranked(d), p=d["p"])


def _rbp_residual_task(d) -> str:
    return _("A ranking of {n} documents, all judged, has relevance {ranking}. With persistence p = {p}, compute the "
             "RBP residual (RBP残差): the most RBP could still gain from documents below the list.").format(
        n=len(d["grades"]), ranking=_ranked(d), p=d["p"])


def _rr_task(d) -> str:
    return _("A ranking has relevance {ranking}, 1 = relevant. Compute its reciprocal rank (倒数排名).").format(
        ranking=_ranked(d, "rels"))


def _queries_text(d) -> str:
    q = d["list_of_rels"]
    items = q.items() if isinstance(q, Mapping) else ((f"q{i}", r) for i, r in enumerate(q, start=1))
    return _("; ").join(f"{name}: [{_nums(r)}]" for name, r in items)


def _mrr_task(d) -> str:
    return _("{n} queries return (1 = relevant, rank 1 first) {queries}. Compute MRR (平均倒数排名, mean reciprocal "
             "rank).").format(n=len(d["list_of_rels"]), queries=_queries_text(d))


def _ap_task(d) -> str:
    total = _(" The collection holds {documents} for this query.").format(documents=_documents(d["n_relevant"])) \
        if "n_relevant" in d else _(" Every relevant document appears in the list.")
    return _("A ranking has relevance {ranking}.{total} Compute AP (平均精度, average precision).").format(
        ranking=_ranked(d, "rels"), total=total)


def _map_task(d) -> str:
    if isinstance(d.get("n_relevant"), (list, tuple)):
        totals = _(" The queries have {counts} relevant documents in all.").format(
            counts=", ".join(map(str, d["n_relevant"])))
    else:
        totals = _(" Every relevant document appears in its list.")
    return _("Queries return (1 = relevant, rank 1 first) {queries}.{totals} Compute MAP (平均精度均值, mean average "
             "precision).").format(queries=_queries_text(d), totals=totals)


def _p_task(d) -> str:
    return _("A ranking has relevance {ranking}; the collection holds {documents}. Compute P@{k} (精确率/查准率, "
             "precision at {k}).").format(ranking=_ranked(d, "rels"), documents=_documents(d["total_relevant"]),
                                          k=d["k"])


def _r_task(d) -> str:
    return _("A ranking has relevance {ranking}; the collection holds {documents}. Compute R@{k} (召回率/查全率, "
             "recall at {k}).").format(ranking=_ranked(d, "rels"), documents=_documents(d["n_relevant"]), k=d["k"])


def _f_task(d) -> str:
    beta = d.get("beta", 1)
    name = "F1" if beta == 1 else _("F-beta with β = {beta}").format(beta=beta)
    return _("A ranking has relevance {ranking}; the collection holds {documents}. Compute {name} (F值) at k = {k}, "
             "from P@{k} and R@{k}.").format(ranking=_ranked(d, "rels"), documents=_documents(d["n_relevant"]),
                                             name=name, k=d["k"])


def _interp_task(d) -> str:
    total = _("; the collection holds {documents}").format(documents=_documents(d["n_relevant"])) \
        if "n_relevant" in d else ""
    if "recall" in d:
        return _("A ranking has relevance {ranking}{total}. Compute the interpolated precision (插值精确率) at recall "
                 "{recall}: the best precision at any rank whose recall is >= {recall}.").format(
            ranking=_ranked(d, "rels"), total=total, recall=d["recall"])
    return _("A ranking has relevance {ranking}{total}. Compute the all-point interpolated AP (插值平均精度): at each "
             "relevant rank take the interpolated precision, add, divide by the relevant documents.").format(
        ranking=_ranked(d, "rels"), total=total)


def _eleven_task(d) -> str:
    return _("A ranking has relevance {ranking}. Compute the 11-point interpolated AP (11点插值平均精度): the mean "
             "interpolated precision at recall 0, 0.1, ..., 1.0.").format(ranking=_ranked(d, "rels"))


def _auc_task(d) -> str:
    pairs = ", ".join(f"{'+' if y else '−'}{s}" for y, s in zip(d["labels"], d["scores"]))
    what = _("the area under the ROC curve by trapezoids (ROC曲线下面积)") if d.get("_roc") else \
        _("AUC (ROC曲线下面积) as the share of positive–negative pairs the model orders correctly (a tie counts 1/2)")
    return _("A model scores items (+ positive, − negative): {pairs}. Compute {what}.").format(pairs=pairs, what=what)


_LIPSTICK = [3, 2, 3, 0, 1, 2, 2]
_MOVIES = [5, 3, 2, 1, 2]
_MOVIE_POOL = [5, 3, 2, 1, 2, 4, 0]

_EXERCISES = [
    # -- CG, DCG, IDCG, NDCG -------------------------------------------------------------------------
    _e("cg-movies", "dcg_ndcg", "cg", {"grades": _MOVIES}, _cg_task,
       [N_("Add the grades; CG ignores the order.")], intro=N_("Document 004: 豆瓣 recommends five films rated by a user."),
       source="doc 004", randomize=_graded),
    _e("cg-at-2-swapped", "dcg_ndcg", "cg", {"grades": [5, 2, 3, 1, 2], "k": 2}, _cg_task,
       [N_("Only the top 2 count.")], intro=N_("Document 004 swaps the second and third film."), source="doc 004",
       randomize=_graded),
    _e("dcg-movies", "dcg_ndcg", "dcg", {"grades": _MOVIES, "k": 5}, _graded_task("DCG"),
       [N_("Gains are 31, 7, 3, 1, 3; discounts log2(2), log2(3), log2(4), log2(5), log2(6).")],
       intro=N_("Document 004 rounds every term to one decimal before adding."), source="doc 004",
       randomize=_graded),
    _e("dcg-lipstick-log2", "dcg_ndcg", "dcg", {"grades": _LIPSTICK, "k": 7}, _graded_task("DCG"),
       [N_("Rank 1: 7/1; rank 2: 3/log2(3); rank 3: 7/2; rank 4 adds nothing.")],
       intro=N_("Document 000 uses the natural log ln(1 + m) as the discount."), source="doc 000", randomize=_graded,
       worked="000-dcg-mac-lipstick"),
    _e("idcg-lipstick", "dcg_ndcg", "idcg", {"grades": _LIPSTICK, "k": 7}, _graded_task(N_("IDCG (理想折损累计增益)")),
       [N_("The ideal order is 3, 3, 2, 2, 2, 1, 0.")], intro=N_("Document 000, query 1 (MAC口红)."), source="doc 000",
       randomize=_graded),
    _e("ndcg-lipstick", "dcg_ndcg", "ndcg", {"grades": _LIPSTICK, "k": 7},
       _graded_task(N_("NDCG (归一化折损累计增益)")), [N_("NDCG = DCG / IDCG; the ideal order is 3, 3, 2, 2, 2, 1, 0.")],
       intro=N_("Document 000, query 1 (MAC口红)."), source="doc 000", randomize=_graded),
    _e("dcg-doc002-a", "dcg_ndcg", "dcg", {"grades": [5, 1, 3, 2, 4], "k": 5}, _graded_task("DCG"),
       [N_("Gains 31, 1, 7, 3, 15.")], intro=N_("Document 002, ranking A."), source="doc 002", randomize=_graded),
    _e("ndcg-doc002-a", "dcg_ndcg", "ndcg", {"grades": [5, 1, 3, 2, 4], "k": 5},
       _graded_task(N_("NDCG (归一化折损累计增益)")), [N_("The ideal order is 5, 4, 3, 2, 1.")],
       intro=N_("Document 002, ranking A."), source="doc 002", randomize=_graded),
    _e("ndcg-doc002-b", "dcg_ndcg", "ndcg", {"grades": [5, 3, 4, 2, 1], "k": 5},
       _graded_task(N_("NDCG (归一化折损累计增益)")), [N_("B and A share the ideal DCG.")],
       intro=N_("Document 002, ranking B."), source="doc 002", randomize=_graded),
    _e("idcg-movies-pool", "dcg_ndcg", "idcg", {"grades": _MOVIES, "k": 5, "ideal": _MOVIE_POOL},
       _graded_task(N_("IDCG (理想折损累计增益)")), [N_("The ideal top 5 of the pool is 5, 4, 3, 2, 2.")],
       intro=N_("Document 004: the user rated seven films, five of them recommended."), source="doc 004",
       randomize=_graded, worked="004-idcg-movies", point=_pool_holds_a_better_item),
    _e("ndcg-movies-pool", "dcg_ndcg", "ndcg", {"grades": _MOVIES, "k": 5, "ideal": _MOVIE_POOL},
       _graded_task(N_("NDCG (归一化折损累计增益)")),
       [N_("The ideal comes from the pool, which holds a film rated 4 that the ranking missed.")],
       source="doc 004", randomize=_graded, worked="004-ndcg-movies", point=_pool_holds_a_better_item),
    _e("dcg-jarvelin-doc001", "dcg_ndcg", "dcg", {"grades": [3, 2, 3, 0, 1, 2], "gain": "linear",
                                                   "discount": "jarvelin"},
       _graded_task("DCG"), [N_("Ranks 1 and 2 both divide by 1; rank 4 by log2(4) = 2.")],
       intro=N_("Document 001 writes DCG_p = rel_1 + Σ_{{i≥2}} rel_i / log2(i)."), source="doc 001", randomize=_graded),
    _e("ndcg-linear", "dcg_ndcg", "ndcg", {"grades": [2, 0, 1, 2], "gain": "linear"},
       _graded_task(N_("NDCG (归一化折损累计增益)")), [N_("Linear gain: the gain is the grade itself.")], randomize=_graded),
    _e("ndcg-doc003-code", "dcg_ndcg", "ndcg", {"grades": [2, 3, 0, 1], "k": 4},
       _graded_task(N_("NDCG (归一化折损累计增益)")), [N_("The ideal order is the grades sorted best first: 3, 2, 1, 0.")],
       intro=N_("Document 003's code divides by dcg_score(y_true) on the labels in the order given, without sorting them best first."),
       source="doc 003", randomize=_graded),
    _e("ndcg-at-3", "dcg_ndcg", "ndcg", {"grades": [1, 0, 3, 2, 0, 1], "k": 3},
       _graded_task(N_("NDCG (归一化折损累计增益)")),
       [N_("The ideal top 3 comes from the whole list: 3, 2, 1.")], randomize=_graded),
    _e("ndcg-jarvelin", "dcg_ndcg", "ndcg", {"grades": [2, 3, 1, 0, 2], "discount": "jarvelin"},
       _graded_task(N_("NDCG (归一化折损累计增益)")), [N_("Ranks 1 and 2 both divide by 1.")], randomize=_graded),
    # -- ERR ------------------------------------------------------------------------------------------
    _e("err-lipstick", "err", "err", {"grades": [3, 2, 3, 1], "g_max": 3}, _err_task,
       [N_("R = 7/8, 3/8, 7/8, 1/8; P(reach rank 2) = 1/8.")], source="doc 000", randomize=_err_data,
       worked="000-err-lipstick"),
    _e("err-doc003", "err", "err", {"grades": [1, 2, 0, 2], "g_max": 2}, _err_task,
       [N_("R_i = (2^g − 1)/4: 1/4, 3/4, 0, 3/4.")],
       intro=N_("Document 003 defines ERR = Σ_r (1/r) R_r Π_{{i<r}} (1 − R_i) with R_i = (2^{{l_i}} − 1)/2^{{l_m}}."),
       source="doc 003", randomize=_err_data),
    _e("err-k3", "err", "err", {"grades": [1, 3, 0, 2, 3], "g_max": 3, "k": 3}, _err_task,
       [N_("Only ranks 1 to 3 count.")], randomize=_err_data),
    _e("err-gdeval", "err", "err", {"grades": [2, 4, 1, 0], "g_max": 4}, _err_task,
       [N_("gdeval fixes the maximum grade at 4: R_i = (2^g − 1)/16.")], randomize=_err_data),
    # -- RR, MRR, AP, MAP, interpolation ----------------------------------------------------------------
    _e("rr-eye-cream", "mrr_map", "reciprocal_rank", {"rels": [0, 1, 0]}, _rr_task,
       [N_("Find the first relevant result; RR is one over its rank.")],
       intro=N_("Document 000: the query 眼霜 returns 小棕瓶精华, 小棕瓶眼霜, 面霜; the wanted 小棕瓶眼霜 is second."),
       source="doc 000", randomize=_rr, point=_first_hit_below_rank_1),
    _e("mrr-doc000", "mrr_map", "mrr",
       {"list_of_rels": {"眼霜": [0, 1, 0], "神仙水": [1, 0, 0], "面膜": [0, 0, 1]}, "_kind": "mrr"}, _mrr_task,
       [N_("For each query find the first relevant result and take one over its rank; MRR is the mean over "
        "the queries.")], intro=N_("Document 000."), source="doc 000",
       randomize=_queries, point=_every_query_hit),
    _e("mrr-with-miss", "mrr_map", "mrr", {"list_of_rels": [[0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 0]],
                                           "_kind": "mrr"},
       _mrr_task, [N_("A query without a relevant item has reciprocal rank 0 and still counts in the mean.")],
       randomize=_queries, point=_some_query_missed),
    _e("ap-lipstick", "mrr_map", "average_precision", {"rels": [1, 1, 0, 0, 1, 0, 0]}, _ap_task,
       [N_("At each rank that holds a relevant item write the precision so far (hits / rank); add them and "
        "divide by the number of relevant documents.")], intro=N_("Document 000, MAC口红."), source="doc 000",
       randomize=_rels),
    _e("ap-shenxianshui", "mrr_map", "average_precision", {"rels": [0, 1, 1, 0, 0, 1, 1]}, _ap_task,
       [N_("Hits at ranks 2, 3, 6, 7.")], intro=N_("Document 000, 神仙水."), source="doc 000", randomize=_rels),
    _e("map-doc000", "mrr_map", "mean_average_precision",
       {"list_of_rels": [[1, 1, 0, 0, 1, 0, 0], [0, 1, 1, 0, 0, 1, 1]]}, _map_task,
       [N_("MAP is the mean of the two APs.")], source="doc 000", randomize=_queries, worked="000-map-two-queries"),
    _e("ap-doc004-topic1", "mrr_map", "average_precision", {"rels": [1, 1, 0, 1, 0, 0, 1], "n_relevant": 4},
       _ap_task, [N_("Hits at ranks 1, 2, 4, 7.")], intro=N_("Document 004, topic 1: 4 relevant pages, found at ranks 1, 2, "
                                                      "4, 7."), source="doc 004", randomize=_rels),
    _e("ap-doc004-topic2", "mrr_map", "average_precision", {"rels": [1, 0, 1, 0, 1], "n_relevant": 5}, _ap_task,
       [N_("Two relevant pages were never retrieved: they add precision 0.")],
       intro=N_("Document 004, topic 2: 5 relevant pages, 3 found at ranks 1, 3, 5."), source="doc 004",
       randomize=_rels, point=_relevant_never_retrieved),
    _e("map-doc004", "mrr_map", "mean_average_precision",
       {"list_of_rels": [[1, 1, 0, 1, 0, 0, 1], [1, 0, 1, 0, 1]], "n_relevant": [4, 5]}, _map_task,
       [N_("Divide each AP by all of its topic's relevant pages.")], intro=N_("Document 004, topics 1 and 2."),
       source="doc 004", randomize=_queries),
    _e("interp-precision-half", "mrr_map", "interpolated_precision",
       {"rels": [0, 1, 0, 0, 1, 1, 0, 1], "recall": Fraction(1, 2)}, _interp_task,
       [N_("Recall reaches 1/2 at rank 5, but rank 6 has a higher precision and a higher recall.")],
       randomize=_rels),
    _e("interp-ap", "mrr_map", "interpolated_precision", {"rels": [1, 0, 0, 1, 1, 0, 1]}, _interp_task,
       [N_("Interpolated precision at rank i: the best precision at rank i or below.")], randomize=_rels),
    _e("eleven-point-ap", "mrr_map", "eleven_point_ap", {"rels": [1, 0, 1, 0, 0, 1]}, _eleven_task,
       [N_("Write the recall and precision at every rank; at each recall level take the best precision at "
        "that recall or beyond, then average the eleven values.")], randomize=_rels),
    # -- precision, recall, F -----------------------------------------------------------------------------
    _e("p-at-2-doc001", "precision_recall", "precision_at_k", {"rels": [1, 0], "k": 2, "total_relevant": 3},
       _p_task, [N_("Count the relevant items among the top k and divide by k, not by the number of relevant "
                 "documents.")], intro=N_("Document 001: l(1) = 1, l(2) = 0."), source="doc 001",
       randomize=_precision_longer),
    _e("p-at-5", "precision_recall", "precision_at_k", {"rels": [1, 0, 1, 1, 0, 0, 1], "k": 5, "total_relevant": 6},
       _p_task, [N_("Count the hits among the first five.")], randomize=_rels),
    _e("r-at-5", "precision_recall", "recall_at_k", {"rels": [1, 0, 1, 1, 0, 0, 1], "k": 5, "n_relevant": 6},
       _r_task, [N_("Recall divides the hits in the top 5 by all 6 relevant documents.")], randomize=_rels,
       point=_recall_below_1),
    _e("p-at-5-short", "precision_recall", "precision_at_k", {"rels": [0, 1, 1], "k": 5, "total_relevant": 4},
       _p_task, [N_("The list has only 3 items; the empty ranks 4 and 5 count as not relevant.")], randomize=_rels),
    _e("f1-doc000", "precision_recall", "f_beta", {"rels": [1, 0, 1, 1, 0, 0, 1], "k": 5, "n_relevant": 6},
       _f_task, [N_("F1 = 2PR / (P + R).")],
       intro=N_("Document 000 writes F_β = (1 + β²)(Precision + Recall) / (β²·Precision + Recall)."), source="doc 000",
       randomize=_rels),
    _e("f2-doc003", "precision_recall", "f_beta", {"rels": [1, 1, 0, 1, 0, 0], "k": 4, "beta": 2, "n_relevant": 5},
       _f_task, [N_("F_β = (1 + β²)·P·R / (β²·P + R) with β² = 4.")],
       intro=N_("Document 003 writes F = (a² + 1)PR / (a²(P + R))."), source="doc 003", randomize=_rels),
    _e("f-half", "precision_recall", "f_beta", {"rels": [1, 0, 1, 0, 0, 1], "k": 6, "beta": Fraction(1, 2),
                                                "n_relevant": 4},
       _f_task, [N_("β = 1/2 weighs precision more: β² = 1/4.")], randomize=_rels),
    # -- ROC, AUC -----------------------------------------------------------------------------------------
    # -- trec_eval's other measures and a user model -----------------------------------------------------
    _e("rprec", "precision_recall", "r_precision", {"rels": [1, 0, 1, 1, 0, 1, 0], "n_relevant": 5}, _rprec_task,
       [N_("R is the number of relevant documents in the collection: look at the top R only.")], randomize=_rels),
    _e("success-at-3", "precision_recall", "success_at_k", {"rels": [0, 0, 1, 0, 1], "k": 3}, _success_task,
       [N_("Success asks only whether the top k hold at least one relevant document.")], randomize=_rels),
    _e("bpref-unjudged", "precision_recall", "bpref",
       {"judgments": [1, 0, None, 1, 0, 1], "n_relevant": 4, "n_nonrelevant": 3}, _bpref_task,
       [(N_("Skip the unjudged documents. For each relevant one count the judged non-relevant above it (n) and add "
         "1 - min(n, R)/min(N, R); divide the sum by R."))], randomize=_judgments),
    _e("judged-at-5", "precision_recall", "judged_at_k", {"judgments": [2, None, 0, 1, None, None, 3], "k": 5},
       _judged_task, [N_("A grade of 0 is a judgment too; only the unjudged ranks are missing.")],
       randomize=_graded_judgments),
    _e("rbp-half", "err", "rbp", {"grades": [1, 0, 1, 1, 0], "p": Fraction(1, 2)}, _rbp_task,
       [N_("Rank i is reached with probability p^(i-1); add those of the relevant ranks and multiply by 1 - p.")],
       randomize=_persistent),
    _e("rbp-residual", "err", "rbp_residual", {"grades": [1, 0, 1, 0], "p": Fraction(3, 4)}, _rbp_residual_task,
       [N_("Every rank below the list could be relevant: the user reaches them with probability p^d in all.")],
       randomize=_persistent),
    _e("auc-tie", "roc_auc", "auc", {"labels": [1, 0, 1, 0], "scores": [0.9, 0.8, 0.8, 0.1], "_tie": True},
       _auc_task, [N_("Four pairs; the positive at 0.8 ties the negative at 0.8.")], randomize=_labels_scores),
    _e("auc-ties", "roc_auc", "auc",
       {"labels": [1, 1, 0, 1, 0, 0], "scores": [0.9, 0.7, 0.7, 0.5, 0.5, 0.2], "_tie": True}, _auc_task,
       [N_("3 × 3 = 9 pairs; two of them are ties.")], randomize=_labels_scores),
    _e("auc-no-ties", "roc_auc", "auc", {"labels": [1, 0, 1, 1, 0], "scores": [0.8, 0.6, 0.55, 0.3, 0.2]},
       _auc_task, [N_("Count, for each positive, the negatives scored below it.")], randomize=_labels_scores),
    _e("roc-area", "roc_auc", "roc_curve",
       {"labels": [0, 1, 1, 0, 1, 0], "scores": [0.9, 0.8, 0.6, 0.6, 0.4, 0.1], "_roc": True, "_tie": True},
       _auc_task, [N_("Walk down the scores: a positive moves up 1/3, a negative right 1/3, a tied pair diagonally.")],
       intro=N_("Document 000 describes AUC as the area under the ROC curve (ROC曲线下面积)."), source="doc 000",
       randomize=_labels_scores),
]

_REGISTRY = {ex.id: ex for ex in _EXERCISES}


def all() -> list[Exercise]:  # shadows the builtin on purpose: the issue names it lt.exercises.all()
    """Every registered exercise, grouped by family in :data:`FAMILIES` order.

    Returns
    -------
    list of Exercise
        The 49 exercises, precision and recall first.

    Examples
    --------
    >>> import ltr_teach as lt
    >>> exercises = lt.exercises.all()
    >>> len(exercises), exercises[0].id, exercises[0].family
    (49, 'p-at-2-doc001', 'precision_recall')
    """
    order = list(FAMILIES)
    return sorted(_EXERCISES, key=lambda e: order.index(e.family))


def ids() -> list[str]:
    """The exercise ids, in :func:`all` order.

    Returns
    -------
    list of str

    Examples
    --------
    >>> import ltr_teach as lt
    >>> lt.exercises.ids()[:3]
    ['p-at-2-doc001', 'p-at-5', 'r-at-5']
    """
    return [e.id for e in all()]


def get(exercise_id: str) -> Exercise:
    """The exercise with this id; ``ValueError`` naming the closest ids otherwise.

    Parameters
    ----------
    exercise_id : str
        One of :func:`ids`.

    Returns
    -------
    Exercise
        The registered exercise, with the document's numbers.

    Examples
    --------
    The lipstick ranking of document 000: grades 3, 2, 3, 0, 1, 2, 2, NDCG over all 7 ranks.

    >>> import ltr_teach as lt
    >>> lt.exercises.get("ndcg-lipstick").call
    'lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7)'

    A misspelt id names the closest ones:

    >>> lt.exercises.get("ndcg-lipstik")
    Traceback (most recent call last):
    ...
    ValueError: exercise_id = 'ndcg-lipstik' is not an exercise; did you mean ndcg-lipstick, idcg-lipstick, dcg-lipstick-log2? (`ltr-teach exercises list` shows all 49)
    """
    if isinstance(exercise_id, str) and exercise_id in _REGISTRY:
        return _REGISTRY[exercise_id]
    close = difflib.get_close_matches(str(exercise_id), list(_REGISTRY), n=3, cutoff=0.6)
    guess = f"did you mean {', '.join(close)}? " if close else ""
    raise ValueError(f"exercise_id = {exercise_id!r} is not an exercise; {guess}"
                     f"(`ltr-teach exercises list` shows all {len(_REGISTRY)})")


#: Draws of random data a variant may take before giving up (see :attr:`Exercise.point`).
_MAX_DRAWS = 10_000


def variant(exercise_id: str, seed) -> Exercise:
    """A student's version of an exercise with new numbers, the same for the same seed.

    The numbers come from ``random.Random(f"{exercise_id}:{seed}")`` (string seeds are hashed with
    SHA-512, so the variant does not depend on the Python process). ``seed=None`` gives the
    registered exercise.

    Parameters
    ----------
    exercise_id : str
        One of :func:`ids`.
    seed : int or None
        One per student.

    Returns
    -------
    Exercise
        The exercise with new numbers (never the worked example's), its answer recomputed.

    Examples
    --------
    Seed 7 of the P@k exercise draws relevance 0, 1, 0, 0, 1, 1 and k = 4: one hit (rank 2) in
    the top 4, so P@4 = 1/4.

    >>> import ltr_teach as lt
    >>> ex = lt.exercises.variant("p-at-2-doc001", 7)
    >>> ex.call, ex.answer
    ('lt.precision_at_k([0, 1, 0, 0, 1, 1], k=4)', 1/4)
    """
    base = get(exercise_id)
    if seed is None:
        return base
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed = {seed!r} must be a whole number (one per student)")
    rng = random.Random(f"{exercise_id}:{seed}")
    names = inspect.signature(METRICS[base.metric].func).parameters

    def metric_arguments(data):
        return {k: v for k, v in data.items() if k in names}

    worked = metric_arguments(_thaw(base.data))
    for _draw in range(_MAX_DRAWS):  # never the worked numbers again, and always the exercise's point
        data = base.randomize(rng, _thaw(base.data))
        if metric_arguments(data) != worked and (base.point is None or base.point(data)):
            break
    else:  # each draw keeps the point with a probability above 1/5: this is never reached in practice
        raise RuntimeError(f"no variant of {exercise_id!r} for seed {seed} after {_MAX_DRAWS} draws")
    return Exercise(id=base.id, family=base.family, metric=base.metric, data=data, task=base.task,
                    hints=(GENERIC_HINTS[base.metric],), intro=base.intro, source=base.source,
                    randomize=base.randomize, seed=seed, point=base.point,
                    story=base.story, worked=base.worked)


# -- sheets -------------------------------------------------------------------------------------------
def sheet(seeds, exercise_ids=None) -> tuple[str, str]:
    """A Markdown exercise sheet per seed (one per student) and the teacher's key, as two texts.

    Parameters
    ----------
    seeds : iterable of int
        One seed per student; each gets its own section with its own numbers.
    exercise_ids : list of str, optional
        Which exercises (default: all).

    Returns
    -------
    tuple of str
        The students' sheet and the teacher's key, both Markdown.

    Examples
    --------
    Seed 7 of the P@k exercise: relevance 0, 1, 0, 0, 1, 1, one hit in the top 4, so the key
    says P@4 = 1/4 = 0.25.

    >>> import ltr_teach as lt
    >>> students, key = lt.exercises.sheet([7], ["p-at-2-doc001"])
    >>> print(key)
    # Answer key
    <BLANKLINE>
    ## Seed 7
    <BLANKLINE>
    | exercise | answer | library call |
    |---|---|---|
    | p-at-2-doc001 | 1/4 = 0.25 | `lt.precision_at_k([0, 1, 0, 0, 1, 1], k=4)` |
    <BLANKLINE>
    """
    chosen = [get(i) for i in exercise_ids] if exercise_ids else all()
    seeds = list(seeds)
    sheet_lines, key_lines = [_("# Ranking evaluation exercises (排序评价指标练习)"), ""], [_("# Answer key"), ""]
    for seed in seeds:
        how = _("Check an answer with `ltr-teach check ID ANSWER --seed {seed}` or "
                "`lt.check(\"ID\", answer, seed={seed})`.").format(seed=seed)
        sheet_lines += [_("## Sheet for seed {seed}").format(seed=seed), "", how, ""]
        key_lines += [_("## Seed {seed}").format(seed=seed), "", _("| exercise | answer | library call |"),
                      "|---|---|---|"]
        for n, base in enumerate(chosen, start=1):
            ex = variant(base.id, seed)
            sheet_lines += [f"{n}. **{ex.id}** · {ex.title}", "", f"   {ex.prompt}", ""]
            key_lines.append(f"| {ex.id} | {expected_text(ex.answer)} | `{ex.call}` |")
        sheet_lines.append("")
        key_lines.append("")
    return "\n".join(sheet_lines), "\n".join(key_lines)


__all__ = ["FAMILIES", "Exercise", "all", "get", "ids", "sheet", "variant"]
