"""The exercise registry: every exercise's answer in every accepted form, variants, sheets."""

import re
from fractions import Fraction

import pytest
import sympy
from answer_forms import one_unit_off, percent, rounded, truncated

import ltr_teach as lt
from ltr_teach.core.i18n import using_language

EXERCISES = [e for e in lt.exercises.all() if e.kind == "compute"]  # the other kinds: test_exercise_kinds.py
IDS = [e.id for e in EXERCISES]


def test_at_least_thirty_exercises_covering_every_metric():
    assert len(EXERCISES) >= 30
    assert len(set(IDS)) == len(IDS)
    covered = {e.metric for e in EXERCISES}
    assert covered == set(lt.METRICS)
    assert {e.family for e in lt.exercises.all()} == set(lt.exercises.FAMILIES)


def test_exercises_from_the_documents_and_new_ones():
    sources = {e.source for e in EXERCISES}
    assert {"doc 000", "doc 001", "doc 002", "doc 003", "doc 004", "new"} <= sources
    # "this document says X: what is right?"
    assert sum("prints" in e.intro and "What is right?" in e.prompt for e in EXERCISES) >= 4


@pytest.mark.parametrize("exercise", EXERCISES, ids=IDS)
def test_each_exercise_states_its_call_prompt_and_hints(exercise):
    # the call text is the library call that defines the answer: running it gives the same value
    assert eval(exercise.call, {"lt": lt, "Fraction": Fraction}).exact == exercise.answer
    assert exercise.explanation().exact == exercise.answer
    assert exercise.hints
    with using_language("zh"):  # the Chinese edition's heading names the metric in Chinese
        assert any("\u4e00" <= ch <= "\u9fff" for ch in exercise.title), "no Chinese term"


@pytest.mark.parametrize("exercise", EXERCISES, ids=IDS)
def test_each_exercise_accepts_its_answer_in_every_form(exercise):
    exact = exercise.answer
    assert lt.check(exercise.id, str(exact)).correct
    for significant in (3, 4, 6):
        assert lt.check(exercise.id, rounded(exact, significant)).correct, rounded(exact, significant)
    assert lt.check(exercise.id, percent(exact, 4)).correct


@pytest.mark.parametrize("exercise", EXERCISES, ids=IDS)
def test_each_exercise_rejects_near_misses(exercise):
    exact = exercise.answer
    for significant, direction in ((3, 1), (6, -1)):
        miss = one_unit_off(exact, significant, direction)
        if miss == truncated(exact, significant):  # rounding up, one unit down is the value cut: right, with a note
            feedback = lt.check(exercise.id, miss)
            assert feedback.correct and "cut rather than rounded" in feedback.message, miss
            miss = one_unit_off(sympy.Rational(miss), significant, -1)
        assert not lt.check(exercise.id, miss).correct, miss


def test_the_done_when_exercise_is_exponential_ndcg():
    ex = lt.exercises.get("ndcg-lipstick")
    assert ex.metric == "ndcg" and ex.explanation().params["gain"] == "exp2"
    # the English prompt names the metric in English alone: the Chinese term is the Chinese edition's (issue 21)
    assert "2^rel − 1" in ex.prompt and "NDCG@7" in ex.prompt and "归一化" not in ex.prompt


@pytest.mark.parametrize("exercise_id", IDS)
def test_variants_are_deterministic_per_seed(exercise_id):
    first, again = lt.exercises.variant(exercise_id, 11), lt.exercises.variant(exercise_id, 11)
    assert first.data == again.data and first.prompt == again.prompt and first.answer == again.answer
    assert first.seed == 11 and first.label == f"{exercise_id} (seed 11)"
    # a variant drops the document's story, whose numbers it no longer uses
    if lt.exercises.get(exercise_id).intro:
        assert lt.exercises.get(exercise_id).intro not in first.prompt


@pytest.mark.parametrize("exercise_id", IDS)
def test_variants_change_the_numbers_and_stay_small(exercise_id):
    variants = [lt.exercises.variant(exercise_id, seed) for seed in range(1, 31)]
    distinct = {v.call for v in variants}
    assert len(distinct) >= 2
    for v in variants:
        grades = v.data.get("grades") or v.data.get("rels") or v.data.get("labels") or []
        assert len(grades) <= 8 and all(0 <= g <= 5 for g in grades)


def test_most_variants_differ():
    # 30 seeds of a long-list exercise: almost all different
    calls = {lt.exercises.variant("ndcg-lipstick", seed).call for seed in range(1, 31)}
    assert len(calls) >= 25


def test_a_variant_is_checked_with_its_seed():
    v = lt.exercises.variant("map-doc000", 5)
    assert lt.check("map-doc000", str(v.answer), seed=5).correct
    assert lt.check("map-doc000", rounded(v.answer, 4), seed=5).correct


def test_variants_keep_the_diagnosis_working():
    v = lt.exercises.variant("ndcg-lipstick", 3)
    linear = lt.ndcg(v.data["grades"], k=v.data["k"], gain="linear").exact
    assert lt.check("ndcg-lipstick", rounded(linear, 6), seed=3).mistakes[:1] == ("gain",)


def test_unknown_id_lists_close_ids():
    with pytest.raises(ValueError, match=r"exercise_id = 'ndcg-lipstik' is not an exercise; did you mean ndcg-lipstick"):
        lt.exercises.get("ndcg-lipstik")
    with pytest.raises(ValueError, match="seed = 'a' must be a whole number"):
        lt.exercises.variant("ndcg-lipstick", "a")


def test_a_sheet_has_one_section_per_seed_and_a_key():
    sheet, key = lt.exercises.sheet([1, 2], ["map-doc000", "ndcg-lipstick"])
    assert sheet.count("## Sheet for seed") == 2 and key.count("## Seed") == 2
    v = lt.exercises.variant("map-doc000", 2)
    assert v.prompt in sheet
    assert f"`{v.call}`" in key


@pytest.mark.parametrize("exercise_id, worked_id", [
    ("map-doc000", "000-map-two-queries"), ("err-lipstick", "000-err-lipstick"),
    ("idcg-movies-pool", "004-idcg-movies"), ("ndcg-movies-pool", "004-ndcg-movies"),
])
def test_document_says_x_what_is_right(exercise_id, worked_id):
    # the printed number comes from lt.examples, where a test pins it as wrong; the checker rejects it
    worked = lt.examples.by_id(worked_id)
    exercise = lt.exercises.get(exercise_id)
    assert not worked.matches and worked.exact == exercise.answer
    assert f"= {worked.printed}" in exercise.prompt and "What is right?" in exercise.prompt
    assert not lt.check(exercise_id, worked.printed).correct


def test_document_000_map_is_the_sum_of_the_aps():
    # 13/15 + 47/84 = 599/420: the document added the two APs and forgot to divide by 2
    assert Fraction(13, 15) + Fraction(47, 84) == Fraction(599, 420)
    assert lt.check("map-doc000", "599/420").mistakes == ("sum_not_mean",)


def test_document_004_idcg_rounded_each_term():
    # 31 + 15/log2(3) + 7/2 + 3/log2(5) + 3/log2(6) with each term rounded to one decimal:
    # 31 + 9.5 + 3.5 + 1.3 + 1.2 = 46.5 (the document's sum)
    from math import log2

    terms = [31, 15 / log2(3), 7 / 2, 3 / log2(5), 3 / log2(6)]
    assert [round(t, 1) for t in terms] == [31, 9.5, 3.5, 1.3, 1.2]
    assert lt.check("idcg-movies-pool", "46.5").mistakes == ("rounded_terms",)


def test_exercises_are_read_only():
    ex = lt.exercises.get("ndcg-lipstick")
    with pytest.raises(TypeError):
        ex.data["grades"] = [1]
    with pytest.raises(AttributeError):
        ex.data["grades"].sort()
    assert ex.kwargs()["grades"] == [3, 2, 3, 0, 1, 2, 2]


@pytest.mark.parametrize("exercise_id", IDS)
def test_a_variant_never_repeats_the_worked_numbers(exercise_id):
    base = lt.exercises.get(exercise_id)
    assert all(lt.exercises.variant(exercise_id, seed).call != base.call for seed in range(1, 21))


@pytest.mark.parametrize("seed", [None, 1, 2])
def test_a_prompt_states_every_fact_the_call_uses(seed):
    # map-doc004 divides by 4 and 5 relevant documents: the prompt must say so, in every version
    ex = lt.exercises.variant("map-doc004", seed)
    counts = ex.kwargs()["n_relevant"]
    assert f"have {', '.join(map(str, counts))} relevant documents" in ex.prompt
    for exercise in EXERCISES:
        if "n_relevant" in exercise.kwargs() and exercise.metric != "mean_average_precision":
            assert f"{exercise.kwargs()['n_relevant']} relevant document" in exercise.prompt, exercise.id


# what each base exercise's old hint gave away, worked out by hand from its list
GIVEAWAYS = {
    "p-at-2-doc001": ["one hit", "two slots"],                 # 1, 0: one hit in the top 2
    "rr-eye-cream": ["rank 2"],                                # 0, 1, 0: first hit at rank 2
    "mrr-doc000": ["1/2", "1/3"],                              # first hits at ranks 2, 1, 3
    "ap-lipstick": ["2/2", "3/5", "1, 2, 5"],                  # hits at ranks 1, 2, 5
    "eleven-point-ap": ["2/3", "1/2", "1/3"],                  # 1, 0, 1, 0, 0, 1: precisions 1, 2/3, 1/2
}


@pytest.mark.parametrize("exercise_id", sorted(GIVEAWAYS))
def test_base_hints_guide_without_stating_the_numbers(exercise_id):
    # steps 1 and 2 of the ladder (concept, procedure); step 3 gives the first number on purpose
    text = " ".join(lt.exercises.get(exercise_id).hints[:2]).lower()
    assert text
    for giveaway in GIVEAWAYS[exercise_id]:
        assert giveaway not in text, (giveaway, text)
    assert not re.search(r"\d+\s*/\s*\d+", text), text       # no fraction at all


# --- every variant keeps the point of its exercise (seeds 1 to 500) ----------------------------------------
VARIANT_SEEDS = range(1, 501)


def _lists(data):
    rels = data["list_of_rels"]
    return [list(q) for q in (rels.values() if hasattr(rels, "values") else rels)]


def test_mrr_with_miss_always_has_a_query_without_a_hit():
    for seed in VARIANT_SEEDS:
        queries = _lists(lt.exercises.variant("mrr-with-miss", seed).data)
        assert any(1 not in q for q in queries) and any(1 in q for q in queries), seed


def test_mrr_doc000_never_gains_a_query_without_a_hit():
    for seed in VARIANT_SEEDS:
        queries = _lists(lt.exercises.variant("mrr-doc000", seed).data)
        assert len(queries) == 3 and all(1 in q for q in queries), seed


def test_rr_eye_cream_is_never_trivially_one():
    for seed in VARIANT_SEEDS:
        ex = lt.exercises.variant("rr-eye-cream", seed)
        rels = list(ex.data["rels"])
        first = rels.index(1) + 1                       # rank of the first relevant item
        assert first >= 2 and ex.answer == sympy.Rational(1, first), seed


def test_r_at_5_is_never_trivially_one():
    for seed in VARIANT_SEEDS:
        ex = lt.exercises.variant("r-at-5", seed)
        hits = sum(ex.data["rels"][:ex.data["k"]])
        assert hits < ex.data["n_relevant"] and ex.answer == sympy.Rational(hits, ex.data["n_relevant"]), seed


def test_ap_doc004_topic2_keeps_relevant_pages_never_retrieved():
    for seed in VARIANT_SEEDS:
        data = lt.exercises.variant("ap-doc004-topic2", seed).data
        assert data["n_relevant"] > sum(data["rels"]), seed


@pytest.mark.parametrize("exercise_id", ["ndcg-movies-pool", "idcg-movies-pool"])
def test_the_movie_pool_keeps_a_better_film_never_shown(exercise_id):
    for seed in VARIANT_SEEDS:
        data = lt.exercises.variant(exercise_id, seed).data
        shown, pool, k = list(data["grades"]), list(data["ideal"]), data["k"]
        unseen = pool[len(shown):]
        assert pool[:len(shown)] == shown and unseen, seed
        # the best unseen film beats the k-th best shown one, so it enters the ideal top k
        assert max(unseen) > sorted(shown, reverse=True)[k - 1], seed
