"""The level-3 exercises (issue 30, item 4): every right answer and every diagnosed slip recomputed here without
the code under test (fractions by hand, an enumeration of sign flips, scikit-learn), and the counts per family."""

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest
from sklearn.metrics import cohen_kappa_score, roc_auc_score

import ltr_teach as lt
from ltr_teach.cli import main
from ltr_teach.core.i18n import translate, using_language

#: The level-3 exercises this change adds, by family.
NEW = {
    "collections": ["kappa-twelve-documents", "pool-depth-new-system", "pool-depth-growth", "kappa-pooled-never-higher",
                    "bpref-new-system-pool"],
    "many_queries": ["sign-flips-five-by-hand", "sign-flips-p-too-small"],
    "err": ["err-derive-nobody-stops"],
    "roc_auc": ["auc-derive-rank-sum"],
    "comparing": ["compare-written-two-verdicts"],
    "user_models": ["rbp-derive-all-relevant"],
    "choosing": ["choose-written-legal-review"],
    "learning_to_rank": ["lambda-swap-delta", "pairwise-loss-written"],
}
NEW_IDS = [i for ids in NEW.values() for i in ids]


def test_the_new_exercises_are_level_3_in_their_families():
    assert len(NEW_IDS) == len(set(NEW_IDS)) >= 14
    for family, ids in NEW.items():
        for exercise_id in ids:
            exercise = lt.exercises.get(exercise_id)
            assert (exercise.family, exercise.level) == (family, 3), exercise_id


def test_every_family_has_a_level_3_exercise():
    levels = Counter(e.family for e in lt.exercises.all() if e.level == 3)
    assert set(lt.exercises.FAMILIES) <= set(levels), set(lt.exercises.FAMILIES) - set(levels)
    # the eight level-3 items before this change, plus the new ones (other branches add more)
    assert sum(levels.values()) >= 8 + len(NEW_IDS)


@pytest.mark.parametrize("exercise_id", [i for i in NEW_IDS if lt.exercises.get(i).kind in ("derive", "written")])
def test_derivations_and_written_answers_have_a_rubric_in_both_languages(exercise_id):
    exercise = lt.exercises.get(exercise_id)
    assert len(exercise.rubric) >= 2 and all(points >= 1 for points, _ in exercise.rubric)
    with using_language("zh"):
        assert all(any("\u4e00" <= ch <= "\u9fff" for ch in text) for _, text in exercise.rubric)
        assert any("\u4e00" <= ch <= "\u9fff" for ch in exercise.model)


def _diagnosed(exercise_id, answer) -> tuple:
    feedback = lt.check(exercise_id, answer)
    assert not feedback.correct, answer
    return feedback.mistakes


# -- Cohen's kappa, Manning et al. exercise 8.10 style --------------------------------------------------------------
# document:  1  2  3  4  5  6  7  8  9 10 11 12
# judge A:   1  1  0  1  1  0  1  1  0  1  0  1   (8 relevant)
# judge B:   1  0  0  1  1  1  0  1  0  0  0  1   (6 relevant)
JUDGE_A = [1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 0, 1]
JUDGE_B = [1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 1]


def _kappa_by_hand(a, b, pooled=False):
    n = len(a)
    p_agree = Fraction(sum(x == y for x, y in zip(a, b)), n)
    if pooled:
        p_rel = Fraction(sum(a) + sum(b), 2 * n)
        p_chance = p_rel ** 2 + (1 - p_rel) ** 2
    else:
        p_chance = Fraction(sum(a), n) * Fraction(sum(b), n) + Fraction(n - sum(a), n) * Fraction(n - sum(b), n)
    return p_agree, p_chance, (p_agree - p_chance) / (1 - p_chance)


def test_kappa_twelve_documents_by_hand_and_with_scikit_learn():
    # agree on documents 1, 3, 4, 5, 8, 9, 11, 12: P(A) = 8/12 = 2/3
    # Cohen: P(E) = (8/12)(6/12) + (4/12)(6/12) = 1/2, kappa = (2/3 - 1/2) / (1/2) = 1/3
    assert _kappa_by_hand(JUDGE_A, JUDGE_B) == (Fraction(2, 3), Fraction(1, 2), Fraction(1, 3))
    assert cohen_kappa_score(JUDGE_A, JUDGE_B) == pytest.approx(1 / 3, abs=1e-12)
    # Manning et al.: P(rel) = 14/24 = 7/12, P(E) = 49/144 + 25/144 = 37/72, kappa = (48/72 - 37/72)/(35/72) = 11/35
    assert _kappa_by_hand(JUDGE_A, JUDGE_B, pooled=True) == (Fraction(2, 3), Fraction(37, 72), Fraction(11, 35))
    exercise = lt.exercises.get("kappa-twelve-documents")
    assert exercise.answer == Fraction(1, 3)
    assert lt.check(exercise.id, "1/3").correct and lt.check(exercise.id, "0.333").correct
    assert "pooled" not in exercise.prompt.split("(")[0] and "each judge's own" in exercise.prompt


@pytest.mark.parametrize("answer, slip", [("11/35", "kappa_marginals"), ("0.314", "kappa_marginals"),
                                          ("2/3", "kappa_agreement"), ("1/6", "kappa_not_divided")])
def test_kappa_slips_are_named_when_they_give_the_answer(answer, slip):
    # 11/35: pooled P(E); 2/3: P(A) itself; 1/6: P(A) - P(E) = 2/3 - 1/2, not divided by 1 - P(E)
    assert _diagnosed("kappa-twelve-documents", answer) == (slip,)


def test_kappa_pooled_slip_works_from_an_explanation_alone_and_both_ways():
    # Manning et al.'s Table 8.2: 300 both relevant, 70 both not, 20 judge 1 alone, 10 judge 2 alone
    table = [[70, 10], [20, 300]]
    # Cohen: P(E) = (320/400)(310/400) + (80/400)(90/400) = 0.665, kappa = (0.925 - 0.665)/0.335 = 52/67
    # pooled: P(rel) = 630/800, P(E) = 0.7875² + 0.2125² = 0.6653125, kappa = (0.925 - 0.6653125)/0.3346875
    cohen = Fraction(37, 40) - Fraction(320 * 310 + 80 * 90, 400 ** 2)
    cohen /= 1 - Fraction(320 * 310 + 80 * 90, 400 ** 2)
    pooled_chance = Fraction(630, 800) ** 2 + Fraction(170, 800) ** 2
    pooled = (Fraction(37, 40) - pooled_chance) / (1 - pooled_chance)
    assert cohen == Fraction(52, 67) and round(float(pooled), 3) == 0.776  # the book prints 0.776
    separate = lt.cohen_kappa(counts=table)
    assert lt.check(separate, f"{pooled.numerator}/{pooled.denominator}").mistakes == ("kappa_marginals",)
    textbook = lt.cohen_kappa(counts=table, marginals="pooled")
    assert lt.check(textbook, "52/67").mistakes == ("kappa_marginals",)
    assert "Manning" in lt.check(textbook, "52/67").diagnosis


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_kappa_variants_agree_with_scikit_learn(seed):
    variant = lt.exercises.variant("kappa-twelve-documents", seed)
    a, b = list(variant.data["judge_a"]), list(variant.data["judge_b"])
    assert sum(a) != sum(b)  # the point every variant keeps: the two conventions part
    assert float(variant.answer) == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)
    pooled = _kappa_by_hand(a, b, pooled=True)[2]
    if pooled != variant.answer:
        assert "kappa_marginals" in lt.check(variant, f"{pooled.numerator}/{pooled.denominator}").mistakes


# -- pooling depth ------------------------------------------------------------------------------------------------
RUNS = {"A": ["d1", "d2", "d3", "d4", "d5"], "B": ["d2", "d6", "d7", "d1", "d8"], "C": ["d9", "d3", "d10", "d2", "d11"]}
NEW_RUN = ["d6", "d4", "d10", "d12", "d2"]


def _pool(depth) -> set:
    judged = set()
    for ranking in RUNS.values():
        judged.update(ranking[:depth])
    return judged


def test_pool_sizes_by_hand():
    # depth 2: A d1 d2, B d2 d6, C d9 d3 -> {d1, d2, d3, d6, d9}; depth 3 adds d3 (already in), d7, d10
    assert _pool(2) == {"d1", "d2", "d3", "d6", "d9"}
    assert _pool(3) - _pool(2) == {"d7", "d10"}
    exercise = lt.exercises.get("pool-depth-growth")
    assert exercise.option_text(exercise.correct) == "5, then 2 more"
    assert {exercise.option_text(k) for k in exercise.why} == {"6, then 3 more", "5, then 3 more"}
    with using_language("zh"):
        assert exercise.option_text(exercise.correct) == "5 篇，再加 2 篇"


def test_judged_at_5_of_a_new_system_and_the_depth_slips():
    # N = d6, d4, d10, d12, d2; depth-3 pool {d1, d2, d3, d6, d7, d9, d10}: d6, d10, d2 judged -> 3/5
    assert Fraction(sum(d in _pool(3) for d in NEW_RUN), 5) == Fraction(3, 5)
    exercise = lt.exercises.get("pool-depth-new-system")
    assert exercise.answer == Fraction(3, 5)
    # depth 2 leaves d10 out (2/5); depth 4 brings d4 in (4/5)
    assert Fraction(sum(d in _pool(2) for d in NEW_RUN), 5) == Fraction(2, 5)
    assert Fraction(sum(d in _pool(4) for d in NEW_RUN), 5) == Fraction(4, 5)
    assert _diagnosed(exercise.id, "2/5") == ("pool_depth",)
    assert _diagnosed(exercise.id, "0.8") == ("pool_depth",)
    assert "top 2" in lt.check(exercise.id, "2/5").diagnosis


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_pool_variants_read_the_same_pool(seed):
    variant = lt.exercises.variant("pool-depth-new-system", seed)
    new = list(variant.data["new_run"])
    assert variant.answer == Fraction(sum(d in _pool(3) for d in new), len(new))
    assert all(d in variant.prompt for d in new)


#: What the assessors said of the depth-3 pool.
QRELS = {"d1": 1, "d2": 1, "d3": 0, "d6": 1, "d7": 0, "d9": 0, "d10": 0}


def _bpref_by_hand(ranking, unjudged_as_nonrelevant=False):
    """trec_eval's bpref: each relevant retrieved document adds 1 - min(n, R)/min(N, R)."""
    relevant = sum(QRELS.values())
    nonrelevant = len(QRELS) - relevant
    total, above = Fraction(0), 0
    for doc in ranking:
        grade = QRELS.get(doc)
        if grade == 1:
            total += 1 - Fraction(min(above, relevant), min(nonrelevant, relevant))
        elif grade == 0 or (grade is None and unjudged_as_nonrelevant):
            above += 1
    return total / relevant


def test_bpref_of_a_new_system_and_the_unjudged_slip():
    # d6 relevant, 0 above -> 1; d10 judged non-relevant; d2 relevant, 1 above -> 1 - 1/3: (5/3)/3 = 5/9
    assert _bpref_by_hand(NEW_RUN) == Fraction(5, 9)
    # unjudged d4 and d12 counted too: d2 has 3 above -> 0: 1/3
    assert _bpref_by_hand(NEW_RUN, unjudged_as_nonrelevant=True) == Fraction(1, 3)
    exercise = lt.exercises.get("bpref-new-system-pool")
    assert exercise.answer == Fraction(5, 9)
    assert _diagnosed(exercise.id, "1/3") == ("bpref_unjudged",)
    for seed in (1, 2, 3):
        variant = lt.exercises.variant(exercise.id, seed)
        assert variant.answer == _bpref_by_hand(list(variant.data["new_run"]))


# -- the sign-flip p-value by hand -------------------------------------------------------------------------------
FIVE = [Fraction(3, 10), Fraction(1, 10), Fraction(-1, 10), Fraction(2, 10), Fraction(4, 10)]


def _enumerate(differences):
    """Two-sided, one-sided, strictly-greater and observed-only p-values over all 2^n sign patterns."""
    observed = sum(differences)
    sums = [sum(s * abs(d) for s, d in zip(signs, differences))
            for signs in itertools.product((1, -1), repeat=len(differences))]
    total = len(sums)
    return {"two": Fraction(sum(abs(s) >= abs(observed) for s in sums), total),
            "one": Fraction(sum(s >= observed for s in sums), total),
            "strict": Fraction(sum(abs(s) > abs(observed) for s in sums), total),
            "single": Fraction(1, total)}


def test_sign_flip_p_value_by_enumeration_and_the_library():
    p = _enumerate(FIVE)
    # observed sum 0.9 of at most 1.1: flip nothing (1.1) or one 0.1 (0.9, twice), and the mirror images
    assert p == {"two": Fraction(3, 16), "one": Fraction(3, 32), "strict": Fraction(1, 16), "single": Fraction(1, 32)}
    assert lt.sign_flips(FIVE).p_value == p["two"]
    assert lt.sign_flips(FIVE, "greater").p_value == p["one"]
    exercise = lt.exercises.get("sign-flips-five-by-hand")
    texts = {key: exercise.option_text(key) for key in exercise.options}
    assert texts[exercise.correct] == "p = 3/16"
    assert sorted(texts[k] for k in exercise.why) == ["p = 1/16", "p = 1/32", "p = 3/32"]
    assert "one side" in exercise.why_text(next(k for k in exercise.why if texts[k] == "p = 3/32"))
    assert "strictly" in exercise.why_text(next(k for k in exercise.why if texts[k] == "p = 1/16"))


def test_compare_runs_gives_the_same_p_value_on_runs_with_these_differences():
    # five queries, ten documents each; the baseline finds 3 relevant in its top 10, the run 3 + 10·d
    qrels, base, run = {}, {}, {}
    for q, d in enumerate(FIVE, start=1):
        docs = [f"q{q}d{i}" for i in range(20)]
        qrels[f"q{q}"] = {doc: 1 for doc in docs[:10]}
        hits_base, hits_run = 3, 3 + int(d * 10)
        base[f"q{q}"] = {doc: 20 - i for i, doc in enumerate(docs[:hits_base] + docs[10:20 - hits_base])}
        run[f"q{q}"] = {doc: 20 - i for i, doc in enumerate(docs[:hits_run] + docs[10:20 - hits_run])}
    result = lt.compare_runs(qrels, {"A": base, "B": run}, "p@10")
    assert result["B"].tests["permutation"].p_value == pytest.approx(float(_enumerate(FIVE)["two"]), abs=1e-12)


def test_the_written_p_value_item_states_the_numbers_its_model_uses():
    # with 5 queries the smallest two-sided p is 2/32 and the smallest one-sided 1/32 = 0.03125
    assert _enumerate([Fraction(1)] * 5)["two"] == Fraction(1, 16)
    assert _enumerate([Fraction(1)] * 5)["one"] == Fraction(1, 32)
    model = lt.exercises.get("sign-flips-p-too-small").model
    assert "2/32 = 1/16 = 0.0625" in model and "1/32 = 0.03125" in model


# -- derivations ----------------------------------------------------------------------------------------------------
def test_err_users_who_never_stop():
    # grades 3, 2, 3 on 0-3: R = 7/8, 3/8, 7/8; never stop: (1/8)(5/8)(1/8) = 5/512
    rs = [Fraction(2 ** g - 1, 8) for g in (3, 2, 3)]
    none = math.prod(1 - r for r in rs)
    assert none == Fraction(5, 512)
    exercise = lt.exercises.get("err-derive-nobody-stops")
    texts = {key: exercise.option_text(key) for key in exercise.options}
    assert texts[exercise.correct] == "5/512"
    # 1 - R_1 = 1/8; those who stop somewhere 507/512; the product of the R: 147/512
    assert sorted(texts[k] for k in exercise.why) == sorted(["1/8", "507/512", "147/512"])
    assert math.prod(rs) == Fraction(147, 512)


def test_auc_rank_sum():
    labels, scores = [1, 0, 1, 0, 1, 0, 0], [0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]
    assert roc_auc_score(labels, scores) == 0.75
    # ascending numbers of the positives: 3, 5, 7 -> R+ = 15; (15 - 6) / 12 = 3/4
    exercise = lt.exercises.get("auc-derive-rank-sum")
    texts = {key: exercise.option_text(key) for key in exercise.options}
    assert texts[exercise.correct] == "3/4"
    # 15/12 without the shift; 1/4 numbered from the top; 9/21 over every pair of items
    assert sorted(texts[k] for k in exercise.why) == sorted(["5/4", "1/4", "3/7"])


def test_rbp_of_an_all_relevant_list():
    # RBP = 1 - 0.8^n >= 0.9: 0.8^10 = 0.107..., 0.8^11 = 0.0859...: n = 11
    n = next(n for n in itertools.count(1) if Fraction(4, 5) ** n <= Fraction(1, 10))
    assert n == 11
    exercise = lt.exercises.get("rbp-derive-all-relevant")
    texts = {key: exercise.option_text(key) for key in exercise.options}
    assert texts[exercise.correct] == "11"
    assert sorted(texts[k] for k in exercise.why) == ["10", "12", "5"]  # rounded down, p^(n-1), 1/(1-p)


def test_lambda_swap_delta():
    # grades 1, 0, 3, 2 -> gains 1, 0, 7, 3; swap ranks 1 and 3: |7 - 1|·|1/log2 2 - 1/log2 4| = 6·(1/2) = 3
    delta_dcg = 6 * (1 / math.log2(2) - 1 / math.log2(4))
    idcg = 7 + 3 / math.log2(3) + 1 / math.log2(4)
    dcg = 1 + 0 + 7 / math.log2(4) + 3 / math.log2(5)
    linear = 2 * (1 - 1 / 2) / (3 + 2 / math.log2(3) + 1 / 2)
    exercise = lt.exercises.get("lambda-swap-delta")
    texts = {key: exercise.option_text(key) for key in exercise.options}
    assert texts[exercise.correct] == f"{delta_dcg / idcg:.4f}" == "0.3194"
    assert sorted(texts[k] for k in exercise.why) == sorted([f"{delta_dcg:.4f}", f"{linear:.4f}",
                                                             f"{delta_dcg / dcg:.4f}"])


def test_kappa_derivation_option_by_hand():
    # judges at 30 % and 70 % relevant: P_sep = 0.3·0.7 + 0.7·0.3 = 0.42, P_pool = 0.5² + 0.5² = 0.5
    a, b = [1] * 3 + [0] * 7, [1] * 7 + [0] * 3
    _, sep, _ = _kappa_by_hand(a, b)
    _, pool, _ = _kappa_by_hand(a, b, pooled=True)
    assert (sep, pool) == (Fraction(21, 50), Fraction(1, 2))
    # same shares, different items: the two conventions agree (and scikit-learn gives the same kappa)
    a, b = [1, 1, 0, 0, 0], [0, 1, 1, 0, 0]
    assert _kappa_by_hand(a, b) == _kappa_by_hand(a, b, pooled=True)
    assert float(_kappa_by_hand(a, b)[2]) == pytest.approx(cohen_kappa_score(a, b))
    exercise = lt.exercises.get("kappa-pooled-never-higher")
    assert exercise.correct == "same-shares" and "0.42" in exercise.why_text("half-relevant")


# -- Cohen's kappa in the registry: the command line and the widgets ------------------------------------------------
def test_cli_explains_kappa_for_two_judges(capsys):
    assert main(["explain", "kappa", *map(str, JUDGE_A), ",", *map(str, JUDGE_B)]) == 0
    assert "κ = 1/3" in capsys.readouterr().out
    assert main(["explain", "cohen_kappa", *map(str, JUDGE_A), ",", *map(str, JUDGE_B), "--marginals", "pooled"]) == 0
    assert "κ = 11/35" in capsys.readouterr().out


@pytest.mark.parametrize("args, says", [
    (["1", "0", "1"], "two judges' labels separated by ','"),
    (["1", "0", ",", "1"], "must label the same items"),
    (["1", "0", ",", ",", "1", "0"], "two judges' labels separated by ','"),
    (["1", "0", ",", "1", "1", "--marginals", "both"], "marginals must be one of"),
    (["1", "1", ",", "1", "1"], "undefined"),
    (["1e999999999", "0", ",", "1", "0"], "label"),
    (["１", "0", ",", "1", "0"], ""),
    (["1", "0", ",", "1", "0", "--k", "3"], "--k does not apply to cohen_kappa"),
])
def test_cli_kappa_refuses_bad_input_in_one_line(args, says, capsys):
    code = main(["explain", "kappa", *args])
    printed = capsys.readouterr()
    if code == 0:  # a full-width digit is read as the digit
        assert args[0] == "１" and "κ" in printed.out
        return
    assert code == 2 and says in printed.err and len(printed.err.strip().splitlines()) == 1, printed.err


def test_the_ranking_editor_refuses_kappa_with_a_clear_message():
    from ltr_teach.widgets import RankingEditor

    with pytest.raises(ValueError, match="compares two assessors' labels"):
        RankingEditor(["a", "b"], [1, 0], metric="kappa")


def test_kappa_title_and_hints_in_chinese():
    exercise = lt.exercises.get("kappa-twelve-documents")
    with using_language("zh"):
        assert "kappa" in exercise.title and any("\u4e00" <= ch <= "\u9fff" for ch in exercise.title)
        assert "评估员 A" in exercise.prompt and "|---|" in exercise.prompt
        assert all(any("\u4e00" <= ch <= "\u9fff" for ch in translate(h)) for h in exercise.hints)


def test_the_whole_bank_reaches_level_3_in_every_family():
    """Issue 30: at least 30 challenge (level 3) items in the bank, every family with at least one, and every
    written or derivation item marked with a rubric."""
    from collections import Counter

    items = lt.exercises.all()
    per_family = Counter(e.family for e in items if e.level == 3)
    assert sum(per_family.values()) >= 30
    assert set(lt.exercises.FAMILIES) == set(per_family)
    assert all(len(e.rubric) >= 2 for e in items if e.kind in ("written", "derive"))
