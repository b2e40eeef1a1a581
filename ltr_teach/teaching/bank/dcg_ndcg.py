"""The dcg_ndcg family's exercises, in the order the exercise notebook asks them."""

from ...core.i18n import N_, _
from ...metrics.binary import average_precision
from ...metrics.graded import dcg, idcg, ndcg
from ..kinds import _e, arranged, choice, create, derive, written
from ._compute import _LIPSTICK, _MOVIE_POOL, _MOVIES, _cg_task, _graded, _graded_task, _pool_holds_a_better_item

FAMILY = ("dcg_ndcg", N_("CG, DCG and NDCG"))


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


# -- choice and create exercises of notebooks 04 and 05 (predict, analyse, create) -------------------------
_LIPSTICK_A, _LIPSTICK_B = [5, 1, 3, 2, 4], [5, 3, 4, 2, 1]   # post 002's algorithms A and B
_MAC = [3, 2, 3, 0, 1, 2, 2]                                   # post 000's MAC口红 query
_SXS = [2, 2, 3, 1, 2, 3, 1]                                   # post 000's 神仙水 query
_FILMS, _FILM_POOL = [5, 3, 2, 1, 2], [5, 3, 2, 1, 2, 4, 0]    # post 004's films M1..M5, and M1..M7 judged
_GAIN_X, _GAIN_Y = [3, 0, 0, 2, 2], [2, 3, 2, 0, 0]


def _doc002_facts() -> dict:
    a, b = ndcg(_LIPSTICK_A, k=5), ndcg(_LIPSTICK_B, k=5)
    return {"ndcg_a": a.decimal_str, "ndcg_b": b.decimal_str, "idcg": idcg(_LIPSTICK_A, k=5).decimal_str}


def _d(ex) -> str:
    """A decimal for a prompt: the explanation's own six-decimal form."""
    return ex.decimal_str


def _grades_of(ranking, name):
    """Whole grades 0..3 of a student's ranking, or a message saying what is wrong (never eval: parsed already)."""
    if not 3 <= len(ranking) <= 8:
        return _("ranking {name} has {n} items; give 3 to 8 grades").format(name=name, n=len(ranking))
    if any(g != int(g) or not 0 <= g <= 3 for g in ranking):
        return _("ranking {name} must hold whole grades from 0 to 3").format(name=name)
    return None


def _same_items(a, b):
    if sorted(a) != sorted(b):
        return _("A and B must rank the same judged items: the same grades in another order "
                 "(A sorted: {a}; B sorted: {b})").format(a=sorted(a, reverse=True), b=sorted(b, reverse=True))
    return None


def _ndcg_prefers_a_ap_prefers_b(pair):
    a, b = ([int(g) for g in r] for r in pair)
    problem = _grades_of(a, "A") or _grades_of(b, "B") or _same_items(a, b)
    if problem:
        return problem
    if not any(a):
        return _("no item is relevant: give at least one grade of 1 or more")
    ndcg_a, ndcg_b = ndcg(a), ndcg(b)
    ap_a, ap_b = (average_precision([int(g >= 1) for g in r]) for r in (a, b))
    if not ndcg_a.exact > ndcg_b.exact:
        return _("NDCG does not prefer A: NDCG(A) ≈ {a}, NDCG(B) ≈ {b}").format(a=_d(ndcg_a), b=_d(ndcg_b))
    if not ap_a.exact < ap_b.exact:
        return _("AP does not prefer B: AP(A) ≈ {a}, AP(B) ≈ {b}").format(a=_d(ap_a), b=_d(ap_b))
    return None


EXERCISES = [
    _e("cg-movies", "dcg_ndcg", "cg", {"grades": _MOVIES}, _cg_task,
       [N_("Add the grades; CG ignores the order.")], intro=N_("Post 004: 豆瓣 recommends five films rated by a user."),
       source="doc 004", randomize=_graded),
    _e("cg-at-2-swapped", "dcg_ndcg", "cg", {"grades": [5, 2, 3, 1, 2], "k": 2}, _cg_task,
       [N_("Only the top 2 count.")], intro=N_("Post 004 swaps the second and third film."), source="doc 004",
       randomize=_graded),
    _e("dcg-movies", "dcg_ndcg", "dcg", {"grades": _MOVIES, "k": 5}, _graded_task("DCG"),
       [N_("Gains are 31, 7, 3, 1, 3; discounts log2(2), log2(3), log2(4), log2(5), log2(6).")],
       intro=N_("Post 004 rounds every term to one decimal before adding."), source="doc 004",
       randomize=_graded),
    _e("dcg-lipstick-log2", "dcg_ndcg", "dcg", {"grades": _LIPSTICK, "k": 7}, _graded_task("DCG"),
       [N_("Rank 1: 7/1; rank 2: 3/log2(3); rank 3: 7/2; rank 4 adds nothing.")],
       intro=N_("Post 000 uses the natural log ln(1 + m) as the discount."), source="doc 000", randomize=_graded,
       worked="000-dcg-mac-lipstick", erratum="000-ndcg-log-base"),
    _e("idcg-lipstick", "dcg_ndcg", "idcg", {"grades": _LIPSTICK, "k": 7}, _graded_task(N_("IDCG")),
       [N_("The ideal order is 3, 3, 2, 2, 2, 1, 0.")], intro=N_("Post 000, query 1 (MAC口红)."), source="doc 000",
       randomize=_graded),
    _e("ndcg-lipstick", "dcg_ndcg", "ndcg", {"grades": _LIPSTICK, "k": 7},
       _graded_task(N_("NDCG")), [N_("NDCG = DCG / IDCG; the ideal order is 3, 3, 2, 2, 2, 1, 0.")],
       intro=N_("Post 000, query 1 (MAC口红)."), source="doc 000", randomize=_graded),
    _e("dcg-doc002-a", "dcg_ndcg", "dcg", {"grades": [5, 1, 3, 2, 4], "k": 5}, _graded_task("DCG"),
       [N_("Gains 31, 1, 7, 3, 15.")], intro=N_("Post 002, ranking A."), source="doc 002", randomize=_graded),
    _e("ndcg-doc002-a", "dcg_ndcg", "ndcg", {"grades": [5, 1, 3, 2, 4], "k": 5},
       _graded_task(N_("NDCG")), [N_("The ideal order is 5, 4, 3, 2, 1.")],
       intro=N_("Post 002, ranking A."), source="doc 002", randomize=_graded),
    choice("ndcg-doc002-a-or-b", family="dcg_ndcg", kind="predict", title=N_("Does normalising change the verdict?"),
           about=("ndcg", "idcg", "dcg"),
           question=N_("Post 002's algorithms rank the same five lipsticks: A as [5, 1, 3, 2, 4], B as [5, 3, 4, 2, 1] "
                       "(rank 1 first). You have computed NDCG@5 of A. Without computing B's, predict how B's NDCG@5 "
                       "compares with A's (gain 2^rel − 1, discount log2(i + 1))."),
           facts=_doc002_facts,
           options={"a": N_("A has the higher NDCG@5"), "b": N_("B has the higher NDCG@5"),
                    "tie": N_("They tie: both hold the same five grades"),
                    "flip": N_("It cannot be told without both IDCGs: normalising may reverse DCG's verdict")},
           correct="b",
           why={"a": N_("Compare ranks 2 and 3 of the two lists: which grades sit where the discount is smallest? A "
                        "higher grade at a smaller discount is worth more, in DCG and in NDCG alike."),
                "tie": N_("The same grades give the same CG and the same IDCG, but DCG also depends on the rank at "
                          "which each grade sits."),
                "flip": N_("IDCG depends only on the grades, sorted from best to worst, and A and B hold the same "
                           "five grades: write both IDCGs before you decide.")},
           explanation=N_("A and B hold the same grades, so they share IDCG@5 = {idcg}. Dividing both DCGs by the same "
                          "number keeps their order: NDCG@5 is {ndcg_a} for A and {ndcg_b} for B. B wins because it "
                          "puts the grades 3 and 4 at ranks 2 and 3, where the discount is small, and the 1 last."),
           hints=(N_("NDCG is DCG divided by IDCG: ask what each of the two depends on."),
                  N_("Compare the two IDCGs first, then the two DCGs term by term."),
                  N_("The step students get wrong: IDCG is built from the grades sorted best first, not from the "
                     "order the system chose.")),
           source="doc 002"),
    _e("idcg-movies-pool", "dcg_ndcg", "idcg", {"grades": _MOVIES, "k": 5, "ideal": _MOVIE_POOL},
       _graded_task(N_("IDCG")), [N_("The ideal top 5 of the pool is 5, 4, 3, 2, 2.")],
       intro=N_("Post 004: the user rated seven films, five of them recommended."), source="doc 004",
       randomize=_graded, worked="004-idcg-movies", point=_pool_holds_a_better_item),
    _e("ndcg-movies-pool", "dcg_ndcg", "ndcg", {"grades": _MOVIES, "k": 5, "ideal": _MOVIE_POOL},
       _graded_task(N_("NDCG")),
       [N_("The ideal comes from the pool, which holds a film rated 4 that the ranking missed.")],
       source="doc 004", randomize=_graded, worked="004-ndcg-movies", point=_pool_holds_a_better_item),
    _e("dcg-jarvelin-doc001", "dcg_ndcg", "dcg", {"grades": [3, 2, 3, 0, 1, 2], "gain": "linear",
                                                   "discount": "jarvelin"},
       _graded_task("DCG"), [N_("Ranks 1 and 2 both divide by 1; rank 4 by log2(4) = 2.")],
       intro=N_("Post 001 writes DCG_p = rel_1 + Σ_{{i≥2}} rel_i / log2(i)."), source="doc 001", randomize=_graded,
       erratum="001-dcg-jarvelin"),
    _e("ndcg-linear", "dcg_ndcg", "ndcg", {"grades": [2, 0, 1, 2], "gain": "linear"},
       _graded_task(N_("NDCG")), [N_("Linear gain: the gain is the grade itself.")], randomize=_graded),
    _e("ndcg-doc003-code", "dcg_ndcg", "ndcg", {"grades": [2, 3, 0, 1], "k": 4},
       _graded_task(N_("NDCG")), [N_("The ideal order is the grades sorted best first: 3, 2, 1, 0.")],
       intro=N_("Post 003's code divides by dcg_score(y_true) on the labels in the order given, without sorting them best first."),
       source="doc 003", randomize=_graded, erratum="003-code-ideal-unsorted"),
    _e("ndcg-at-3", "dcg_ndcg", "ndcg", {"grades": [1, 0, 3, 2, 0, 1], "k": 3},
       _graded_task(N_("NDCG")),
       [N_("The ideal top 3 comes from the whole list: 3, 2, 1.")], randomize=_graded),
    _e("ndcg-jarvelin", "dcg_ndcg", "ndcg", {"grades": [2, 3, 1, 0, 2], "discount": "jarvelin"},
       _graded_task(N_("NDCG")), [N_("Ranks 1 and 2 both divide by 1.")], randomize=_graded),
    choice("dcg-append-item", family="dcg_ndcg",
           about=("dcg",), kind="predict",
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
           about=("ndcg", "idcg"),
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
    choice("dcg-a-or-b", family="dcg_ndcg",
           about=("dcg",), kind="predict", title=N_("A or B under DCG?"),
           question=N_("Post 002's lipsticks: algorithm A ranks them [5, 1, 3, 2, 4], algorithm B [5, 3, 4, 2, "
                       "1] (rank 1 first). Both have CG = 15. With gain 2^rel − 1 and discount $\\log_2(i+1)$, "
                       "which has the larger DCG?"),
           options={"a": N_("Algorithm A"), "b": N_("Algorithm B"), "same": N_("They are equal")},
           correct="b",
           why={"a": N_("The lists differ only at ranks 2, 3 and 5, and there both move large and small gains: "
                        "compute gain / log2(i + 1) at those three ranks for each list before choosing."),
                "same": N_("Equal sums are CG's verdict: CG ignores the order. DCG divides each gain by a discount "
                           "that grows with the rank, so the order matters.")},
           explanation=N_("B: DCG(A) ≈ {dcg_a}, DCG(B) ≈ {dcg_b}. B places the grade-4 item at rank 3 instead of 5, "
                          "and a gain of 15 loses less there than B's grade-3 and grade-1 items lose by moving."),
           facts=lambda: {"dcg_a": _d(dcg(_LIPSTICK_A)), "dcg_b": _d(dcg(_LIPSTICK_B))},
           hints=(N_("DCG rewards large gains near the top: a gain counts gain / log2(i + 1) at rank i."),
                  N_("Both lists agree at ranks 1 and 4; compare only the ranks where they differ (2, 3 and 5)."),
                  N_("At rank 5, A's grade-4 item contributes 15 / log2 6 ≈ 5.80; what does the other list put there?")),
           source="doc 002"),
    choice("ndcg-log-base", family="dcg_ndcg",
           about=("ndcg", "dcg"), kind="predict", title=N_("Which logarithm?"),
           question=N_("Post 000 divides by $\\ln(1+i)$ where the usual definition divides by $\\log_2(1+i)$. "
                       "For its MAC口红 query [3, 2, 3, 0, 1, 2, 2], how does NDCG@7 with ln compare with NDCG@7 "
                       "with log2?"),
           options={"larger": N_("Larger with ln"), "smaller": N_("Smaller with ln"), "same": N_("The same")},
           correct="same",
           why={"larger": N_("DCG is larger with ln (ln x < log2 x for x > 1, so every divisor is smaller), but IDCG "
                             "is larger by the very same factor 1/ln 2: the ratio does not move."),
                "smaller": N_("Every ln divisor is log2's times ln 2 ≈ 0.693: DCG and IDCG both grow by 1/ln 2, "
                              "nothing shrinks.")},
           explanation=N_("The same, ≈ {ndcg}: ln x = ln 2 · log2 x, so DCG and IDCG are both multiplied by 1/ln 2 "
                          "and the constant cancels in DCG / IDCG."),
           facts=lambda: {"ndcg": _d(ndcg(_MAC, k=7, discount="ln"))},
           hints=(N_("Two logarithms of one number differ by a constant factor: ln x = ln 2 · log2 x."),
                  N_("Write DCG with ln as a multiple of DCG with log2, then IDCG likewise."),
                  N_("At rank 1 the ln divisor is ln 2 ≈ 0.693 where log2 gives 1: what is the factor at rank 3?")),
           source="doc 000"),
    choice("ndcg-pool-or-list", family="dcg_ndcg",
           about=("ndcg", "idcg"), kind="predict", title=N_("Which ideal?"),
           question=N_("Post 004: the system shows five films rated [5, 3, 2, 1, 2]; the user also rated two "
                       "films never shown, M6 = 4 and M7 = 0. Which NDCG@5 is higher: with the ideal taken from the "
                       "7 judged films, or with the ideal taken from the 5 shown ones?"),
           options={"pool": N_("From the 7 judged films"), "list": N_("From the 5 shown films"),
                    "same": N_("They are equal")},
           correct="list",
           why={"pool": N_("The judged pool holds M6 (rating 4), better than every shown film but one: the ideal "
                           "from the pool puts it at rank 2, so its IDCG is larger and NDCG smaller."),
                "same": N_("DCG is the same both ways (the shown list does not change), but the two ideals differ: "
                           "only the pool's contains M6's rating 4.")},
           explanation=N_("From the shown films: ≈ {shown} against ≈ {pool}. The shown list's ideal cannot contain "
                          "M6, so a system that never showed the user's second-best film is hardly punished."),
           facts=lambda: {"shown": _d(ndcg(_FILMS, k=5)), "pool": _d(ndcg(_FILMS, k=5, ideal=_FILM_POOL))},
           hints=(N_("NDCG = DCG / IDCG: the numerator is the same in both; only the ideal changes."),
                  N_("Write both ideal top-5 lists: the shown grades sorted, and the best five of the seven."),
                  N_("The pool's ideal is 5, 4, 3, 2, 2; the ideal of the five shown films starts 5, 3, ...")),
           source="doc 004"),
    choice("ndcg-gain-reversal", family="dcg_ndcg",
           about=("ndcg", "dcg"), kind="predict", title=N_("Linear gain changes its mind?"),
           question=N_("Two rankings of the same five items: X = [3, 0, 0, 2, 2] puts the grade-3 item first and "
                       "buries both grade-2 items; Y = [2, 3, 2, 0, 0] puts them all in the top 3. With the "
                       "exponential gain 2^rel − 1, NDCG prefers X (≈ {x_exp} against ≈ {y_exp}). Which does NDCG "
                       "prefer with the linear gain (the grade itself)?"),
           options={"x": N_("Ranking X"), "y": N_("Ranking Y"), "same": N_("Neither: they tie")},
           correct="y",
           why={"x": N_("Under the linear gain a grade-3 item is worth 3, not 7: only 1.5 grade-2 items, not 2.33. "
                        "X's early grade 3 no longer makes up for its two buried grade-2 items."),
                "same": N_("A tie would need the gains of the moved items to balance exactly; compute the two DCGs "
                           "with gains 3 and 2 and they do not.")},
           explanation=N_("Y: with the linear gain NDCG(X) ≈ {x_lin} and NDCG(Y) ≈ {y_lin}. The exponential gain "
                          "makes one excellent item outweigh several good ones; the linear gain does not, so the two "
                          "gains model different users and can order the same pair of rankings oppositely."),
           facts=lambda: {"x_exp": _d(ndcg(_GAIN_X)), "y_exp": _d(ndcg(_GAIN_Y)),
                          "x_lin": _d(ndcg(_GAIN_X, gain="linear")), "y_lin": _d(ndcg(_GAIN_Y, gain="linear"))},
           hints=(N_("The gain decides how much better a grade-3 item is than a grade-2 item: 7 against 3, or 3 "
                     "against 2."),
                  N_("Both rankings have the same ideal [3, 2, 2, 0, 0], so compare their DCGs directly."),
                  N_("With the linear gain, X's DCG is 3 + 2/log2 5 + 2/log2 6; the second ranking's starts 2 + 3/log2 3.")),
           ),
    choice("ndcg-jarvelin-swap", family="dcg_ndcg",
           about=("ndcg", "dcg"), kind="predict", title=N_("Swapping the top two"),
           question=N_("Under Järvelin & Kekäläinen's discount (rank 1 undiscounted, then $\\log_2 i$), what does "
                       "swapping the items at ranks 1 and 2 of [3, 2, 2, 0, 0] do to NDCG?"),
           options={"falls": N_("NDCG falls"), "rises": N_("NDCG rises"), "same": N_("NDCG stays the same")},
           correct="same",
           why={"falls": N_("It would under $\\log_2(i+1)$, which divides rank 2 by log2 3. Järvelin's divides "
                            "rank 2 by log2 2 = 1, exactly as rank 1."),
                "rises": N_("[3, 2, 2, 0, 0] is already the ideal order, so no swap can raise its NDCG above 1.")},
           explanation=N_("The same: ranks 1 and 2 are both divided by 1 (max(1, log2 1) = max(1, log2 2) = 1), so "
                          "the two items' contributions just trade places and DCG does not change."),
           hints=(N_("A swap changes DCG only if the two ranks have different discounts."),
                  N_("Write the discounts of ranks 1 and 2 under max(1, log2 i)."),
                  N_("Students often reach for log2(i + 1) from habit: read the discount rule in the question again and "
                     "apply it to ranks 1 and 2.")),
           source="doc 001"),
    choice("ndcg-rises-at-k", family="dcg_ndcg",
           about=("ndcg",), kind="analyse", title=N_("Why did NDCG@5 rise?"),
           question=N_("Post 000's 神仙水 query [2, 2, 3, 1, 2, 3, 1]: NDCG@4 ≈ {n4} and NDCG@5 ≈ {n5}. Rank 5 "
                       "holds a grade-2 item, and the ideal order [3, 3, 2, 2, 2, 1, 1] also has a grade 2 at rank 5. "
                       "Why did NDCG rise from k = 4 to k = 5?"),
           options={"share": N_("Rank 5 adds all of the ideal's rank-5 gain, a larger share than the ranking had of "
                                "the ideal so far"),
                    "longer": N_("A longer cut-off always raises NDCG"),
                    "discount": N_("Rank 5 is discounted less than rank 4"),
                    "better": N_("Rank 5's item is better than the ideal's rank-5 item")},
           correct="share",
           why={"longer": N_("No: this very query falls from k = 3 to k = 4, when rank 4's grade 1 meets the "
                             "ideal's grade 2 (a share of 1/3, below NDCG@3)."),
                "discount": N_("The discount grows with the rank (log2 6 > log2 5), and DCG and IDCG share it at rank "
                               "5: it cannot favour one side."),
                "better": N_("Both are grade 2: the ranking's gain at rank 5 is exactly the ideal's (3 = 3).")},
           explanation=N_("Going from k − 1 to k adds g_k / d_k to DCG and g*_k / d_k to IDCG. NDCG rises exactly "
                          "when g_k / g*_k exceeds NDCG@(k − 1): here 3/3 = 1 > {n4}. A rank as good as the ideal's "
                          "raises an NDCG below 1."),
           facts=lambda: {"n4": _d(ndcg(_SXS, k=4)), "n5": _d(ndcg(_SXS, k=5))},
           hints=(N_("NDCG@k is a ratio of two sums that both grow with k; a ratio rises when the added parts are "
                     "in a larger proportion than the ratio so far."),
                  N_("Compare rank 5's gain with the ideal's rank-5 gain, then compare that ratio with NDCG@4."),
                  N_("Rank 5: gain 2^2 − 1 = 3 in the ranking and 3 in the ideal.")),
           source="doc 000"),
    choice("ndcg-unjudged-dropped", family="dcg_ndcg",
           about=("ndcg",), kind="analyse", title=N_("Why did NDCG rise?"),
           question=N_("Post 004's films: the system shows [5, 3, 2, 1, 2]. An evaluator drops film M6 (rating 4, "
                       "never shown) from the judgments, and NDCG@5 rises from ≈ {pool} to ≈ {without}. Why?"),
           options={"idcg": N_("The ideal lost its rating-4 film: IDCG fell while DCG stayed"),
                    "dcg": N_("The shown list's DCG rose"),
                    "k": N_("NDCG is now computed over fewer ranks"),
                    "zero": N_("M7's rating 0 now counts as relevant")},
           correct="idcg",
           why={"dcg": N_("The shown films and their ratings did not change, so DCG@5 is the same."),
                "k": N_("k = 5 in both: the shown list and both ideals are cut at 5."),
                "zero": N_("A rating of 0 adds gain 2^0 − 1 = 0 wherever it stands; M7 is not in the ideal top 5 "
                           "either way.")},
           explanation=N_("NDCG = DCG / IDCG. Without M6 the ideal top 5 is 5, 3, 2, 2, 1 instead of 5, 4, 3, 2, 2: "
                          "IDCG falls from ≈ {idcg_pool} to ≈ {idcg_without} and the same DCG is a larger share of it. "
                          "Judging fewer good documents flatters a system."),
           facts=lambda: {"pool": _d(ndcg(_FILMS, k=5, ideal=_FILM_POOL)),
                          "without": _d(ndcg(_FILMS, k=5, ideal=[5, 3, 2, 1, 2, 0])),
                          "idcg_pool": _d(idcg(_FILMS, k=5, ideal=_FILM_POOL)),
                          "idcg_without": _d(idcg(_FILMS, k=5, ideal=[5, 3, 2, 1, 2, 0]))},
           hints=(N_("NDCG has two parts; ask which of them can change when a document the system never showed "
                     "leaves the judgments."),
                  N_("Write the ideal top 5 with and without M6."),
                  N_("With M6 the ideal starts 5, 4, ...; without it, 5, 3, ...")),
           source="doc 004"),
    create("ndcg-prefers-a-ap-prefers-b", family="dcg_ndcg",
           about=("ndcg", "average_precision"), title=N_("NDCG prefers A, AP prefers B"),
           question=N_("Build two rankings A and B of the **same** judged items (the same grades 0–3 in another order, "
                       "3 to 8 items) such that NDCG (gain 2^rel − 1, discount $\\log_2(i+1)$) is higher for A but "
                       "AP, counting every grade ≥ 1 as relevant, is higher for B. Type them as two lists, A first: "
                       "`[..] [..]`."),
           shape="pair", verify=_ndcg_prefers_a_ap_prefers_b, example=[[3, 0, 1, 1], [1, 1, 3, 0]],
           explanation=N_("AP sees only relevant or not, and rewards getting every relevant item early; NDCG weighs "
                          "grades, and under 2^rel − 1 one grade-3 item is worth seven grade-1 items. A ranking "
                          "that puts the best item first but a non-relevant one early wins on NDCG and loses on AP."),
           hints=(N_("AP ignores how relevant an item is; NDCG's gain grows fast with the grade."),
                  N_("Give A the top grade at rank 1 and a grade-0 item soon after; give B all the relevant items "
                     "first, with the top grade not first."),
                  N_("Start from the items 3, 1, 1, 0 and compute AP and NDCG of the order 1, 1, 3, 0 first."))),
    derive("ndcg-derive-at-most-one", family="dcg_ndcg",
           title=N_("NDCG is at most 1"),
           claim=N_("Show that NDCG@k ≤ 1 for every ranking, when IDCG@k is the DCG of the judged items sorted from "
                    "the best grade down."),
           steps=(N_("Write DCG@k as a sum of gain/discount terms. What do you know about the gains (their sign, "
                     "how they grow with the grade) and about the discounts (how they grow with the rank)?"),
                  N_("Take two ranks i < j where the lower grade sits above the higher one. Show that swapping the "
                     "two items does not lower DCG@k (compare the two sums term by term)."),
                  N_("Repeat the swaps until the top k are sorted, and say why the sorted judged items reach at "
                     "least that DCG: every item of the list is among them.")),
           question=N_("Which way of computing IDCG breaks the proof, so that a ranking can score NDCG above 1?"),
           options={"pool": N_("Sorting the whole judged pool (every rated item, retrieved or not)"),
                    "list": N_("Sorting the returned list's own grades"),
                    "unsorted": N_("Taking the judged items in the order they are stored, without sorting them"),
                    "linear": N_("Sorting the judged pool, with linear gains (the grade itself) instead of "
                                 "2^g − 1")},
           correct="unsorted",
           why={"pool": N_("The pool holds every grade of the list, so its best order is at least as good as any "
                           "order of the list: step 3 still holds."),
                "list": N_("Step 2 shows that no order of these grades beats them sorted best first: step 3 holds "
                           "with the list itself as the judged items."),
                "linear": N_("Step 2 needs only gains that never fall as the grade rises and discounts that grow "
                             "with the rank; the linear gain keeps both.")},
           model=N_("DCG@k = the sum over ranks i ≤ k of g(rel_i)/d(i), with gains g ≥ 0 that never fall as the grade rises and "
                    "discounts d(1) ≤ d(2) ≤ … . If rank i < j holds the lower gain, swapping changes the sum by "
                    "(g_j − g_i)(1/d(i) − 1/d(j)) ≥ 0, a product of two non-negative factors. Sorting by swaps "
                    "never lowers DCG, so the sorted judged items (which include every item of the list) reach "
                    "IDCG@k ≥ DCG@k, and NDCG@k = DCG@k/IDCG@k ≤ 1. The proof needs IDCG to be the sorted order; "
                    "an unsorted “ideal” (the code of post 003) can lie below DCG and give NDCG above 1."),
           hints=(N_("NDCG ≤ 1 says DCG ≤ IDCG: the ideal order is the best one."),
                  N_("Compare one swap of two items: only their two terms change."),
                  N_("The step students get wrong is the sign of the change: factor it into (difference of "
                     "gains) × (difference of 1/discount) before judging it.")),
           rubric=((1, N_("writes DCG@k as a sum of non-negative gains over growing discounts")),
                   (1, N_("factors one swap's change as (difference of gains) × (difference of 1/discount) ≥ 0")),
                   (1, N_("argues that sorting by swaps reaches IDCG, which contains every item of the list, so "
                          "DCG ≤ IDCG")),
                   (1, N_("names the unsorted ideal as what breaks the proof"))),
           level=3, about=("ndcg", "idcg", "dcg"), source="Manning et al. 8.4"),
    written("ndcg-written-why-normalise", family="dcg_ndcg",
            title=N_("Why divide by IDCG?"),
            question=N_("A team averages raw DCG@10 over its 50 test queries to compare two rankers. In three or "
                        "four sentences, explain what can go wrong and why dividing each query's DCG by its IDCG "
                        "fixes it."),
            model=N_("DCG grows with how many relevant items a query has and how good they are: a query with many "
                     "highly relevant documents reaches a far larger DCG than one with a single relevant document, "
                     "however well each is ranked. The average of raw DCG is then ruled by the easy, rich queries, "
                     "and a change in how the queries are sampled moves it. Dividing by IDCG puts every query on "
                     "the same 0-to-1 scale (the share of the best possible DCG the ranking reaches), so each query "
                     "counts the same in the mean."),
            hints=(N_("Compare the largest DCG@10 a query with one relevant document can reach with that of a "
                      "query with ten."),
                  N_("Ask which queries decide an average of numbers on very different scales."),
                  N_("Then say what scale NDCG puts each query on.")),
            rubric=((1, N_("says that DCG grows with the number and grades of a query's relevant items")),
                    (1, N_("concludes that a mean of raw DCG is ruled by the rich, easy queries")),
                    (1, N_("explains that dividing by IDCG puts every query on the same 0-to-1 scale"))),
            level=2, about=("ndcg", "dcg")),
]

EXERCISES = arranged(EXERCISES, [
    "cg-movies", "cg-at-2-swapped", "dcg-movies", "dcg-lipstick-log2", "dcg-append-item", "dcg-doc002-a",
    "dcg-a-or-b", "dcg-jarvelin-doc001", "idcg-lipstick", "ndcg-lipstick", "ndcg-log-base", "ndcg-doc002-a",
    "ndcg-doc002-a-or-b", "ndcg-perfect-with-a-zero", "idcg-movies-pool", "ndcg-movies-pool", "ndcg-pool-or-list",
    "ndcg-linear", "ndcg-gain-reversal", "ndcg-jarvelin", "ndcg-jarvelin-swap", "ndcg-doc003-code", "ndcg-at-3",
    "ndcg-rises-at-k", "ndcg-derive-at-most-one", "ndcg-unjudged-dropped", "ndcg-prefers-a-ap-prefers-b",
    "ndcg-written-why-normalise",
], levels={
    "dcg-jarvelin-doc001": 2, "ndcg-movies-pool": 2, "idcg-movies-pool": 2, "ndcg-doc003-code": 2, "ndcg-jarvelin": 2,
    "ndcg-rises-at-k": 3, "ndcg-unjudged-dropped": 3, "ndcg-prefers-a-ap-prefers-b": 3,
})
