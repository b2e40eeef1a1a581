"""The conventions of the real evaluation tools, as named presets.

"The NDCG" of one ranking is 0.538, 0.561, 0.584, 0.630 or 0.684 depending on the tool: the tools
differ in the gain, the discount, where the ideal list comes from, how tied scores are ordered,
what a query without relevant documents scores, and which queries are averaged. Each
:class:`Convention` bundles those choices; ``lt.ndcg(..., convention="sklearn")`` applies one, and
:func:`compare_conventions` shows every tool's number for one input side by side.

An explicit keyword always wins over the convention, and the convention wins over the defaults:
``lt.ndcg(grades, convention="trec_eval", gain="exp2")`` is trec_eval with exponential gain.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.i18n import N_


class _Unset(str):
    """A keyword's default that remembers it was not given (it still equals and prints as the default)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return repr(str(self))


def unset(default: str) -> str:
    """The default value of a keyword that a convention may override.

    Parameters
    ----------
    default : str
        The value used when neither the caller nor a convention sets the keyword.

    Returns
    -------
    str
        A ``str`` equal to ``default`` that :func:`is_given` tells apart from a value the caller
        passed.

    Examples
    --------
    >>> gain = unset("exp2")
    >>> gain == "exp2", is_given(gain), is_given("exp2")
    (True, False, True)
    """
    return _Unset(default)


#: How tied scores are ordered (``ties=``), the rule's name and what it does.
TIE_RULES = {
    "stable": N_("tied items keep their input order (LightGBM, XGBoost: a stable sort on the score)"),
    "docid_desc": N_("tied items by document id descending, compared byte by byte (trec_eval, pytrec_eval, gdeval)"),
    "average": N_("a tied group's gains are averaged over the group's ranks (scikit-learn; McSherry & Najork 2008)"),
    "pessimistic": N_("tied items worst grade first: the lowest value any tie order can give"),
    "optimistic": N_("tied items best grade first: the highest value any tie order can give"),
}


def is_given(value) -> bool:
    """Whether the caller gave this keyword (``None`` and :func:`unset` defaults count as not given).

    Parameters
    ----------
    value : object
        What the keyword holds.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_given("linear"), is_given(None), is_given(unset("linear"))
    (True, False, False)
    """
    return value is not None and not isinstance(value, _Unset)


IDEAL_SOURCES = {
    "pool": "every judged document of the query, retrieved or not (pass the judged grades as ideal=)",
    "list": "only the items passed in: relevant documents the ranking missed are invisible",
}


@dataclass(frozen=True)
class Convention:
    """How one tool computes its metrics; the fields are the settings that make tools disagree.

    Attributes
    ----------
    name, tool, version : str
        Preset name, the tool (and the function or measure) it reproduces, and the version the
        parity tests verified it against.
    description : str
        One line: what sets this tool apart.
    gain, discount : str
        Keys of ``lt.GAINS`` and ``lt.DISCOUNTS``.
    ideal : {"pool", "list"}
        Where the ideal DCG comes from (:data:`IDEAL_SOURCES`).
    ties : str
        How tied scores are ordered (a key of ``lt.TIE_RULES``).
    zero : str
        NDCG when the ideal DCG is 0 (a key of ``lt.ZERO_RULES``); also what MAP gives such a query.
    k_rule : str
        What the cut-off ``k`` cuts.
    averaging : str
        Which queries enter the mean.
    threshold : int
        The lowest grade that counts as relevant for binary metrics (MAP, MRR, P@k, R@k).
    ap_divisor : {"relevant", "min(relevant, k)", "hits"}
        What AP is divided by: every relevant document (of the qrels, or of the list when ``ideal`` is
        ``"list"``), min(relevant, k) for AP@k (LightGBM, XGBoost, RecBole), or the relevant documents
        found in the top k (torchmetrics).
    g_max : int or None
        The top grade ERR assumes (gdeval fixes it at 4); None when the tool has no ERR.
    missing : {"skip", "zero"}
        A query judged in the qrels but absent from the run: left out of the mean, or scored 0.
    recall_rule : str
        How a recall level becomes a count of relevant documents for interpolated precision and
        11-point AP (a key of ``lt.metrics.binary.RECALL_RULES``): the textbook ceiling or trec_eval's.
    rbp_weight : {"binary", "grade"}
        What a relevant document adds to RBP: 1, or its grade (ranx).
    skip_unjudged_topics : bool
        Whether a topic without any relevant judgment is left out of the mean (gdeval.pl) instead of
        scoring 0.
    precision_divisor : {"k", "min(k, n)"}
        What P@k divides by: k (trec_eval and most tools) or min(k, list length) (TF-Ranking).
    binary_ties : str
        The tie rule of the binary metrics (AP, RR, P, R ...) when ``ties`` averages for NDCG only
        (torchmetrics: its binary metrics take ``torch.topk``'s order); empty when ``ties`` applies.
    negative_grades : {"error", "unjudged"}
        What a negative grade means to ``lt.evaluate`` and to the exact metrics: a mistake, or
        (trec_eval) a document in the pool but unjudged, neither relevant nor judged non-relevant: not
        relevant in a ranking, left out of an ideal pool, not judged for bpref and judged@k.
    """

    name: str
    tool: str
    version: str
    description: str
    gain: str
    discount: str
    ideal: str
    ties: str
    zero: str
    k_rule: str
    averaging: str
    threshold: int = 1
    ap_divisor: str = "relevant"
    g_max: int | None = None
    missing: str = "skip"
    recall_rule: str = "textbook"
    rbp_weight: str = "binary"
    skip_unjudged_topics: bool = False
    negative_grades: str = "error"
    precision_divisor: str = "k"
    binary_ties: str = ""

    def settings(self) -> dict:
        """The keyword settings this convention supplies to the metric functions."""
        return {"gain": self.gain, "discount": self.discount, "ties": self.ties, "zero": self.zero}


_TREC_K = "ndcg_cut_k, P_k, recall_k cut the ranking at k; ndcg_cut_k also cuts the ideal list at k"
_GROUP_K = "top min(k, group size) of the ranking and of the group's ideal order"

CONVENTIONS = {
    c.name: c
    for c in (
        Convention(
            "trec_eval", "trec_eval ndcg / ndcg_cut / map / recip_rank / P / recall (via pytrec_eval)",
            "pytrec-eval-terrier 0.5.11 (trec_eval 9.0.8 C code)",
            N_("linear gain, ideal from every judged document, ties by docno descending"),
            "linear", "log2", "pool", "docid_desc", "zero", _TREC_K,
            "topics in both qrels and run (with -c: every qrels topic, missing ones 0); no-relevant topics score 0",
            recall_rule="trec_eval_9", negative_grades="unjudged",
        ),
        Convention(
            "ir_measures", "ir_measures nDCG, nDCG@k, AP, RR, P@k, R@k (pytrec_eval provider)", "ir-measures 0.4.3",
            N_("trec_eval's numbers, but topics in the qrels missing from the run count as 0"),
            "linear", "log2", "pool", "docid_desc", "zero", _TREC_K,
            "every topic in the qrels (missing from the run: 0); run-only topics are ignored", missing="zero",
            recall_rule="trec_eval_9", negative_grades="unjudged",
        ),
        Convention(
            "ranx", "ranx ndcg (Järvelin: linear gain)", "ranx 0.3.21",
            N_("linear gain, ideal from the qrels, tie order left to an unstable numba argsort"),
            "linear", "log2", "pool", "stable", "zero", "the ranking and the qrels' ideal list are both cut at k",
            "every query (qrels and run must hold the same query ids)", rbp_weight="grade",
        ),
        Convention(
            "ranx_burges", "ranx ndcg_burges (Burges: 2^g - 1)", "ranx 0.3.21",
            N_("as ranx but with exponential gain 2^g - 1"),
            "exp2", "log2", "pool", "stable", "zero", "the ranking and the qrels' ideal list are both cut at k",
            "every query (qrels and run must hold the same query ids)", rbp_weight="grade",
        ),
        Convention(
            # gdeval.pl 1.2a, the copy bundled with ir-measures 0.4.3 (ir_measures/bin/gdeval.pl), run with perl:
            # it keeps judgments > 0 only ("if ($judgment > 0)"), scores the run's topics that have one
            # (topicDone: "if ($seen{$topic})") and averages those ($topics++); the ir_measures copy prints the
            # per-topic lines without the mean.
            "gdeval", "gdeval.pl 1.2a (TREC Web track) ndcg@k and err@k",
            N_("gdeval.pl 1.2a as bundled with ir-measures 0.4.3 (prints 5 decimals)"),
            N_("exponential gain, natural-log discount, ERR with the top grade fixed at 4; topics without a relevant "
            "judgment are left out of the mean"),
            "exp2", "ln", "pool", "docid_desc", "zero", "cut the ranking and the ideal list at k",
            "topics of the run with at least one judgment > 0; the others are left out", g_max=4,
            skip_unjudged_topics=True, negative_grades="unjudged",
        ),
        Convention(
            "ir_measures_gdeval", "ir_measures nDCG(dcg='exp-log2')@k and ERR@k (its gdeval.pl provider)",
            "ir-measures 0.4.3",
            N_("gdeval's numbers per topic, but ir_measures scores every qrels topic: missing or without a relevant "
            "judgment, 0"),
            "exp2", "ln", "pool", "docid_desc", "zero", "cut the ranking and the ideal list at k",
            "every topic in the qrels (ir_measures fills missing topics with 0)", g_max=4, missing="zero",
        ),
        Convention(
            "sklearn", "scikit-learn ndcg_score / dcg_score / average_precision_score", "scikit-learn 1.9.1",
            N_("linear gain, ideal from the row passed in only, tied scores averaged (AP: a tied block is one threshold)"),
            "linear", "log2", "list", "average", "zero", "top k of the row; the ideal is the row's best k",
            "mean over the rows (samples) passed in",
        ),
        Convention(
            "lightgbm", "LightGBM ndcg@k / map@k metrics (label_gain 2^i - 1)", "lightgbm 4.7.0",
            N_("exponential gain, ideal from the group, stable ties, a group without positives scores 1"),
            "exp2", "log2", "list", "stable", "one", _GROUP_K,
            "mean over the query groups", ap_divisor="min(relevant, k)",
        ),
        Convention(
            "xgboost", "XGBoost ndcg@k (ndcg_exp_gain=true) and map@k (binary labels)", "xgboost 3.2.0",
            N_("exponential gain, ideal from the group, stable ties, a group without positives scores 1 "
            "(the 'ndcg@k-' metric gives 0)"),
            "exp2", "log2", "list", "stable", "one", _GROUP_K, "mean over the query groups",
            ap_divisor="min(relevant, k)",
        ),
        Convention(
            # msmarco_eval.py (Campos & van Haasteren, last modified 1/21/2019; the copy in ir_measures/bin with
            # MaxMRRRank configurable): load_candidate places each pid at its rank column (the run's own order),
            # compute_metrics adds 1/(i + 1) for the first relevant pid among the first MaxMRRRank = 10 and
            # divides by len(qids_to_relevant_passageids): every query of the qrels, answered or not.
            "msmarco", "MS MARCO's official MRR@10 (msmarco_eval.py compute_metrics)",
            N_("msmarco_eval.py (last modified 1/21/2019) as bundled with ir-measures 0.4.3"),
            N_("the run's own rank order (give the run in rank order: ties keep it), MRR@10 over every qrels query"),
            "linear", "log2", "pool", "stable", "zero", "MRR@10: the first relevant passage among the first 10",
            "every query of the qrels, missing ones 0 (the sum of reciprocal ranks / the number of qrels queries)",
            missing="zero",
        ),
        Convention(
            # RecBole recbole/evaluator/metrics.py (RUCAIBox/RecBole at commit 025bef6, read, not run: it needs
            # torch): NDCG.metric_info gains 1 per hit over log2(i + 1) and takes the ideal from
            # idcg_len = min(pos_len, k) relevant items; MAP.metric_info divides the summed precisions by
            # min(pos_len, k), pos_len being all the user's test items; Precision divides by k; Hit is success@k.
            "recbole", "RecBole Hit, MRR, Precision, Recall, NDCG, MAP @k (recbole/evaluator/metrics.py)",
            N_("RecBole source at commit 025bef6 (recbole/evaluator/metrics.py), read, not run"),
            N_("binary gain, ideal from all the user's test items, MAP@k divided by min(R, k)"),
            "binary", "log2", "pool", "stable", "zero", "the top k; the ideal list holds min(R, k) relevant items",
            "mean over the test users", ap_divisor="min(relevant, k)",
        ),
        Convention(
            # Microsoft Recommenders recommenders/evaluation/python_evaluation.py (read, not run): ndcg_at_k with
            # score_type="binary" sets rel = 1 for every true item and discfun_type="loge" divides by ln(1 + rank);
            # the ideal DCG sums the user's true items (top k); map_at_k divides by min(actual, k); users are
            # those in both the truth and the predictions (merge_ranking_true_pred's common users).
            "ms_recommenders", "Microsoft Recommenders ndcg_at_k, map_at_k, precision_at_k, recall_at_k",
            N_("recommenders python_evaluation.py (recommenders-team/recommenders), read, not run"),
            N_("binary gain, natural-log discount, ideal from the user's true items, map_at_k divided by min(R, k)"),
            "binary", "ln", "pool", "stable", "zero", "the top k; the ideal list holds the top k true items",
            "mean over the users with both truth and predictions", ap_divisor="min(relevant, k)",
        ),
        Convention(
            # torchmetrics functional/retrieval (Lightning-AI/torchmetrics, read, not run: it needs torch):
            # ndcg.py's _dcg_sample_scores / _tie_average_dcg are scikit-learn's (linear target gain, 1/log2(i + 1),
            # tied predictions averaged) and the ideal is the target sorted (the group only); average_precision.py
            # (commit ed67ed0) keeps the targets of preds.topk(k) and averages the precision at their relevant
            # positions, so AP@k divides by the relevant items found in the top k; precision.py divides by k;
            # a group without a relevant target scores 0 (empty_target_action="neg").
            "torchmetrics", "torchmetrics retrieval_normalized_dcg, retrieval_average_precision, retrieval_precision, "
            "retrieval_recall, retrieval_reciprocal_rank", N_("torchmetrics source (functional/retrieval; "
            "average_precision.py at commit ed67ed0), read, not run"),
            N_("linear gain, ideal from the group, tied scores averaged in NDCG, AP@k divided by the hits in the top k"),
            "linear", "log2", "list", "average", "zero", "the top k of the group and of its ideal order",
            "mean over the query groups (indexes)", ap_divisor="hits", binary_ties="stable",
        ),
        Convention(
            # TF-Ranking tensorflow_ranking/python/metrics_impl.py (tensorflow/ranking at commit 053cdcd, read, not
            # run): _DEFAULT_GAIN_FN 2^label - 1, _DEFAULT_RANK_DISCOUNT_FN log(2)/log1p(rank), the ideal sorts the
            # list's own gains; _per_list_precision divides by min(topn, valid items); MeanAveragePrecisionMetric
            # divides by the list's relevant items regardless of topn; labels >= 1 are relevant; sort_by_scores
            # shuffles tied scores at random.
            "tf_ranking", "TF-Ranking NDCGMetric, MeanAveragePrecisionMetric, PrecisionMetric, RecallMetric, MRRMetric, "
            "HitsMetric", N_("TF-Ranking source at commit 053cdcd (tensorflow_ranking/python/metrics_impl.py), read, not run"),
            N_("exponential gain, ideal from the list, P@k divided by min(k, list length), MAP by the list's relevant"),
            "exp2", "log2", "list", "stable", "zero", "the top k of the list and of its ideal order",
            "mean over the lists", precision_divisor="min(k, n)",
        ),
        Convention(
            "doc000", "post 000 (ERR/MAP/NDCG survey, 口红 example)", "seeds/000",
            N_("exponential gain with the natural log ln(i + 1); ideal from the list shown"),
            "exp2", "ln", "list", "stable", "zero", "top k of the list", "mean over the queries",
        ),
        Convention(
            "doc001", "post 001 (keyword recommendation)", "seeds/001",
            N_("Järvelin's original: linear gain, rank 1 undiscounted then log2(i)"),
            "linear", "jarvelin", "list", "stable", "zero", "top p of the list", "mean over the queries",
        ),
        Convention(
            "doc002", "post 002 (口红 algorithms A and B)", "seeds/002",
            N_("exponential gain, log2(i + 1), ideal from the list shown"),
            "exp2", "log2", "list", "stable", "zero", "top k of the list", "mean over the queries",
        ),
        Convention(
            "doc003", "post 003 (learning-to-rank metrics), its formula", "seeds/003",
            N_("linear gain with log2(i + 1) as in its formula (its code defaults to exponential gain)"),
            "linear", "log2", "list", "stable", "zero", "top K of the list", "mean over the users",
        ),
        Convention(
            "doc004", "post 004 (豆瓣 movies)", "seeds/004",
            N_("exponential gain, log2(i + 1), ideal from every film the user rated (the pool)"),
            "exp2", "log2", "pool", "stable", "zero", "top k of the list and of the pool", "mean over the users",
        ),
    )
}


def get_convention(convention) -> Convention:
    """A :class:`Convention` from its name (or the object itself).

    Parameters
    ----------
    convention : str or Convention
        A name of :data:`CONVENTIONS`.

    Returns
    -------
    Convention

    Examples
    --------
    LightGBM's label_gain 2^i - 1 is the exponential gain, and a group without positives scores 1:

    >>> conv = get_convention("lightgbm")
    >>> conv.gain, conv.discount, conv.zero
    ('exp2', 'log2', 'one')
    """
    if isinstance(convention, Convention):
        return convention
    from ..core.validate import as_choice  # here, not at the top: the CLI's help reads the presets without SymPy

    return CONVENTIONS[as_choice(convention, "convention", CONVENTIONS)]


def negative_rule(convention) -> str:
    """What a negative grade means under ``convention`` (its ``negative_grades``; ``"error"`` without one).

    Examples
    --------
    >>> negative_rule("trec_eval"), negative_rule("sklearn"), negative_rule(None)
    ('unjudged', 'error', 'error')
    """
    return "error" if convention is None else get_convention(convention).negative_grades


def resolve(convention, **given) -> dict:
    """Each keyword's value: given by the caller, else the convention's, else the default.

    ``given`` maps keyword names to what the caller passed (an :func:`unset` default or ``None``
    when not given). Keywords the convention does not set fall back to their default.

    Parameters
    ----------
    convention : str or Convention or None
        The preset whose settings fill the keywords the caller left out.
    **given
        Each keyword as the caller passed it.

    Returns
    -------
    dict
        Each keyword of ``given`` with the value to use, :func:`unset` defaults as plain ``str``.

    Examples
    --------
    Under LightGBM the gain the caller left unset becomes the preset's exponential gain; the
    discount the caller gave, ln, wins over the preset's log2; ``k`` is set by no preset and stays.

    >>> resolve("lightgbm", gain=unset("linear"), discount="ln", k=None)
    {'gain': 'exp2', 'discount': 'ln', 'k': None}
    """
    supplied = {}
    if convention is not None:
        conv = get_convention(convention)
        supplied = {**conv.settings(), "threshold": conv.threshold, "rule": conv.recall_rule,
                    "weight": conv.rbp_weight}
        if conv.g_max is not None:
            supplied["g_max"] = conv.g_max
    out = {}
    for key, value in given.items():
        if is_given(value) or key not in supplied:
            out[key] = str(value) if isinstance(value, _Unset) else value
        else:
            out[key] = supplied[key]
    return out


__all__ = ["Convention", "CONVENTIONS", "IDEAL_SOURCES", "get_convention", "negative_rule", "resolve", "unset",
           "is_given"]
