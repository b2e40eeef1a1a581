"""The dcg_ndcg family's exercises, in the order the exercise notebook asks them."""

from ...core.i18n import N_, _
from ...metrics.graded import dcg, ndcg
from ..kinds import _e, choice, create
from ._compute import _LIPSTICK, _MOVIE_POOL, _MOVIES, _cg_task, _graded, _graded_task, _pool_holds_a_better_item

FAMILY = ("dcg_ndcg", N_("CG, DCG and NDCG (累计增益、折损累计增益与归一化折损累计增益)"))


def _perfect_with_a_zero(grades):
    """Why a typed ranking is not a 4-grade ranking with a 0 and NDCG@4 = 1, or None when it is."""
    if len(grades) != 4:
        return _("it has {n} grades; the exercise asks for 4").format(n=len(grades))
    if any(g > 3 for g in grades):
        return _("grades go from 0 to 3 here; {grade} is above 3").format(grade=max(grades))
    if 0 not in grades:
        return _("it holds no 0; the exercise asks for at least one")
    if not any(grades):
        return _("every grade is 0: no ranking of them is better or worse, and NDCG@4 is {value} here, not 1").format(
            value=ndcg(grades, k=4).exact_str)
    value = ndcg(grades, k=4)
    if value.exact != 1:
        return _("its NDCG@4 is {value}, not 1: another order of the same grades scores higher").format(
            value=value.decimal_str)
    return None


EXERCISES = [
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
       worked="000-dcg-mac-lipstick", erratum="000-ndcg-log-base"),
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
       intro=N_("Document 001 writes DCG_p = rel_1 + Σ_{{i≥2}} rel_i / log2(i)."), source="doc 001", randomize=_graded,
       erratum="001-dcg-jarvelin"),
    _e("ndcg-linear", "dcg_ndcg", "ndcg", {"grades": [2, 0, 1, 2], "gain": "linear"},
       _graded_task(N_("NDCG (归一化折损累计增益)")), [N_("Linear gain: the gain is the grade itself.")], randomize=_graded),
    _e("ndcg-doc003-code", "dcg_ndcg", "ndcg", {"grades": [2, 3, 0, 1], "k": 4},
       _graded_task(N_("NDCG (归一化折损累计增益)")), [N_("The ideal order is the grades sorted best first: 3, 2, 1, 0.")],
       intro=N_("Document 003's code divides by dcg_score(y_true) on the labels in the order given, without sorting them best first."),
       source="doc 003", randomize=_graded, erratum="003-code-ideal-unsorted"),
    _e("ndcg-at-3", "dcg_ndcg", "ndcg", {"grades": [1, 0, 3, 2, 0, 1], "k": 3},
       _graded_task(N_("NDCG (归一化折损累计增益)")),
       [N_("The ideal top 3 comes from the whole list: 3, 2, 1.")], randomize=_graded),
    _e("ndcg-jarvelin", "dcg_ndcg", "ndcg", {"grades": [2, 3, 1, 0, 2], "discount": "jarvelin"},
       _graded_task(N_("NDCG (归一化折损累计增益)")), [N_("Ranks 1 and 2 both divide by 1.")], randomize=_graded),
    choice("dcg-append-item", family="dcg_ndcg", kind="predict",
           title=N_("One more item at the bottom"),
           question=N_("The ranking [3, 2, 0] has DCG = {dcg} (gain 2^rel − 1, discount log2(i + 1), no cut-off). "
                       "An item of grade 1 is added at rank 4. What happens to **DCG**?"),
           facts=lambda: {"dcg": dcg([3, 2, 0]).decimal_str, "after": dcg([3, 2, 0, 1]).decimal_str},
           options={"rise": N_("DCG rises"), "fall": N_("DCG falls"), "same": N_("DCG stays the same"),
                    "depends": N_("It depends on the grades above it")},
           correct="rise",
           why={"fall": N_("DCG only adds terms gain/discount, none of them negative: an added item cannot lower "
                           "it. (NDCG can fall in such a case, since the ideal DCG may grow too; DCG cannot.)"),
                "same": N_("The new item's gain is 2^1 − 1 = 1, not 0, and its discount log2(5) is finite, so it "
                           "adds a term above 0."),
                "depends": N_("The items above keep their terms; the new one adds its own term, above 0 whatever "
                              "they are.")},
           explanation=N_("DCG adds one term per rank. Rank 4 adds (2^1 − 1)/log2(5) ≈ 0.431, which is above 0, so "
                          "DCG rises to {after}. NDCG could still fall: the ideal order gains the grade-1 item too."),
           hints=(N_("DCG is a sum with one term per rank."),
                  N_("Write the term the new rank adds: its gain divided by its discount."),
                  N_("The new item's gain is 2^1 − 1 = 1 and its discount is log2(4 + 1).")),
           ),
    create("ndcg-perfect-with-a-zero", family="dcg_ndcg",
           title=N_("A perfect score with a useless item"),
           question=N_("Type a ranking of **4** grades from 0 to 3 that holds at least one 0 and whose NDCG@4 "
                       "(gain 2^rel − 1, discount log2(i + 1)) is exactly 1."),
           shape="ranking",
           verify=_perfect_with_a_zero,
           example=[3, 2, 2, 0],
           explanation=N_("NDCG is 1 exactly when no order of the same grades has a higher DCG: the grades never "
                          "increase down the list. A 0 at the bottom costs nothing, as the ideal order puts it "
                          "there too."),
           hints=(N_("NDCG = 1 means the ranking's DCG equals the best DCG its own grades can reach."),
                  N_("Choose four grades with a 0 among them, then ask whether another order of them would score "
                     "higher."),
                  N_("The ideal order sorts the grades from best to worst; compare yours with it.")),
           ),
]

