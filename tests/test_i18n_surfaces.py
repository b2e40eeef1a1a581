"""Student-facing surfaces beyond the checker speak Chinese after ``lt.set_language("zh")`` and stay
English by default: exercise prompts, hint boxes, unreadable-answer reasons, metric notes (more surfaces join as they are translated).

The Chinese sentences below are written out by hand from the catalogue's wording, the numbers from
the exercise's data (document 000's lipstick ranking 3, 2, 3, 0, 1, 2, 2, NDCG over 7 ranks)."""

import re

import pytest

import ltr_teach as lt
from ltr_teach.core.i18n import translate


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    lt.set_language(None)


def test_an_exercise_prompt_is_chinese_and_keeps_its_numbers():
    lt.set_language("zh")
    prompt = lt.exercises.get("ndcg-lipstick").prompt
    # the source post is a 博文 (a 文档 is a ranked document), and the sentences read as Chinese: no space after 。
    assert prompt == ("博文 000 的查询 1（“MAC 口红”）。一个排序的相关性等级为 [3, 2, 3, 0, 1, 2, 2]（第 1 名在前）。"
                      "请采用增益 2^rel − 1、折损 log2(i + 1)，计算 NDCG@7。")


def test_the_same_prompt_switches_back_to_english():
    exercise = lt.exercises.get("ndcg-lipstick")
    lt.set_language("zh")
    assert "请" in exercise.prompt
    lt.set_language("en")
    assert exercise.prompt == ("Post 000, query 1 (MAC口红). A ranking has graded relevance "
                               "[3, 2, 3, 0, 1, 2, 2] (rank 1 first). Compute NDCG@7 with "
                               "gain 2^rel − 1 and discount log2(i + 1).")


def test_a_worked_example_intro_is_chinese_with_the_documents_printed_number():
    # map-doc000 quotes document 000's MAP(Q) = 599/420 (lt.examples), which is wrong: the question says so
    lt.set_language("zh")
    prompt = lt.exercises.get("map-doc000").prompt
    assert prompt.startswith("博文 000 对“查询1 MAC 口红 + 查询2 神仙水”给出 MAP(Q) = 599/420。正确的值是多少？")
    assert "查询“q1”返回 [1, 1, 0, 0, 1, 0, 0]；查询“q2”返回 [0, 1, 1, 0, 0, 1, 1]" in prompt


def test_a_literal_brace_of_a_document_formula_survives_in_both_languages():
    exercise = lt.exercises.get("dcg-jarvelin-doc001")
    lt.set_language("en")
    assert "Σ_{i≥2}" in exercise.prompt and "Σ_{i≥2}" in exercise.intro
    lt.set_language("zh")
    assert "博文 001 写的是 DCG_p = rel_1 + Σ_{i≥2} rel_i / log2(i)。" in exercise.prompt


def test_a_variant_prompt_and_the_hint_box_are_chinese():
    lt.set_language("zh")
    variant = lt.exercises.variant("rr-eye-cream", 5)
    rels = list(variant.data["rels"])
    assert variant.prompt == (f"一个排序的相关性为 [{', '.join(map(str, rels))}]（第 1 名在前），1 表示相关。"
                              "请计算它的倒数排名（reciprocal rank）。")
    box = lt.exercises.get("ndcg-lipstick").hint_box()
    concept, procedure, first = str(box).splitlines()  # the ladder: concept, procedure, first number
    assert concept.startswith("提示 1：NDCG 把排序的 DCG 除以")
    assert procedure == "提示 2：NDCG = DCG / IDCG；理想排序是 3, 3, 2, 2, 2, 1, 0。"
    # rank 1 of 3, 2, 3, 0, 1, 2, 2 holds grade 3: gain 2^3 - 1 = 7, discount log2(2) = 1
    assert first.startswith("提示 3：第一步，位置 1：等级 = 3，增益 = 7，折损 = 1，")
    assert "ndcg-lipstick 的提示：点击展开" in box._repr_html_()


def test_an_unreadable_answer_reason_is_chinese_in_the_feedback():
    # "1/(2-2)": the divisor 2 - 2 is 0, and it starts at the 3rd character
    lt.set_language("zh")
    feedback = lt.check("ndcg-lipstick", "1/(2-2)")
    assert feedback.status == "unreadable" and not feedback.correct
    assert "看不懂这个答案：出现了除以零（第 3 个位置）。" in feedback.message
    lt.set_language("en")
    assert "could not read that answer: it divides by zero (position 3)." in lt.check("ndcg-lipstick", "1/(2-2)").message


def test_the_exception_itself_stays_english_and_pickles():
    import pickle

    from ltr_teach.teaching.answers import UnreadableAnswer, parse_answer

    lt.set_language("zh")
    with pytest.raises(UnreadableAnswer) as info:
        parse_answer("(1")
    assert str(info.value) == "expected ')' at position 3 but found the end"  # "(1" has 2 characters
    assert info.value.reason() == "第 3 个位置应为 ')'，却是结尾"
    again = pickle.loads(pickle.dumps(info.value))
    assert str(again) == str(info.value) and again.reason() == info.value.reason()


def test_a_metric_note_is_english_text_and_chinese_when_shown():
    # AP of [1, 0, 1] with 4 relevant documents: 2 are found, so 4 - 2 = 2 were never retrieved
    ex = lt.average_precision([1, 0, 1], n_relevant=4)
    english = "2 relevant document(s) were not retrieved: each adds precision 0 to the sum"
    assert ex.notes == (english,) and isinstance(ex.notes[0], str)
    assert ex.to_dict()["notes"] == [english]
    lt.set_language("zh")  # after the explanation was computed: translated when shown
    assert "注：有 2 篇相关文档没有被检索到：每篇在总和中计精确率 0" in str(ex)
    assert "有 2 篇相关文档没有被检索到" in ex._repr_html_()
    assert ex.notes == (english,)  # the data stays English
    lt.set_language("en")
    assert f"note: {english}" in str(ex)


def test_a_note_with_a_nested_rule_translates_both_parts():
    # NDCG of all-zero grades: IDCG = 0, zero="zero" by default gives 0
    ex = lt.ndcg([0, 0, 0])
    assert "IDCG is 0 (no relevant item); zero='zero': an IDCG of 0 (no relevant item) gives NDCG 0" in ex.notes[-1]
    lt.set_language("zh")
    assert "IDCG 为 0（没有相关条目）；zero='zero'：IDCG 为 0（没有相关条目）时 NDCG 记为 0" in str(ex)


def test_a_note_pickles_with_its_template():
    import pickle

    note = lt.precision_at_k([1, 0], k=4).notes[0]
    assert note == "k = 4 is beyond the list of 2: ranks 3..4 are empty and count as not relevant"
    again = pickle.loads(pickle.dumps(note))
    lt.set_language("zh")
    assert again == note and translate(again) == "k = 4 超出了长度为 2 的列表：第 3 到第 4 位是空的，按不相关计"


def test_the_tie_note_translates_each_group_and_the_rule():
    # scores 0.5, 0.5, 0.3 for a, b, c: a and b tie; docid_desc puts b before a (b > a byte by byte)
    ex = lt.ndcg([2, 1, 2], scores=[0.5, 0.5, 0.3], docids=["a", "b", "c"], ties="docid_desc")
    assert ex.notes[-1].startswith("b, a share score 1/2 = 0.5 (ranks 1–2); ties='docid_desc': tied items by document")
    lt.set_language("zh")
    assert "注：b, a 得分同为 1/2 = 0.5（第 1–2 名）；ties='docid_desc'：同分条目按文档编号降序排列" in str(ex)


def test_an_erratum_card_labels_kind_and_verdict_are_chinese():
    from ltr_teach.interactive.widgets import erratum_card

    card = erratum_card("000-map-value")
    lt.set_language("zh")
    text = str(card)
    assert text.startswith("勘误 000-map-value（博文 000 · 最近想要总结一下 LTR 的算法）\n  类型      错误\n  出处      1.2 MAP")
    assert "  博文原文  599/420\n" in text and text.endswith("  => 博文此处有误；正确的版本见上")
    assert "<th style='text-align:left;padding:1px 10px 1px 0;vertical-align:top'>原因</th>" in card._repr_html_()
    lt.set_language("en")
    assert re.match(r"erratum 000-map-value \(post 000 · 最近想要总结一下 LTR的算法\)\n  kind +error\n", str(card))


def test_table_headers_are_chinese_and_the_data_keeps_english_columns():
    from ltr_teach.teaching import tables

    table = tables.ndcg_cutoffs([3, 2, 3, 0])
    lt.set_language("zh")
    first = str(table).splitlines()[0].split()
    assert first[:4] == ["k", "等级", "理想等级", "增益"] and "变化" in first
    assert table.column("grade") == ["3", "2", "3", "0"]  # columns are still looked up by their English id
    assert str(tables.documents_table()).split()[:3] == ["博文", "错误", "约定"]
    lt.set_language("en")
    assert str(table).splitlines()[0].split()[:3] == ["k", "grade", "ideal"]


def test_cli_exercises_show_and_sheet_are_chinese_with_lang_zh(capsys):
    from ltr_teach import cli

    assert cli.main(["--lang", "zh", "exercises", "show", "rr-eye-cream", "--seed", "5"]) == 0
    shown = capsys.readouterr().out
    variant = lt.exercises.variant("rr-eye-cream", 5)
    rels = ", ".join(map(str, variant.data["rels"]))
    assert shown == f"[rr-eye-cream (seed 5)] 一个排序的相关性为 [{rels}]（第 1 名在前），1 表示相关。请计算它的倒数排名（reciprocal rank）。\n"
    assert cli.main(["--lang", "zh", "exercises", "sheet", "--seed", "5", "rr-eye-cream"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("# 排序评价指标练习\n\n## 练习单（种子 5）\n") and err == "已生成 1 份练习单，种子：5\n"


def test_a_run_comparison_title_and_notes_are_chinese_when_shown():
    from ltr_teach.runs.compare import compare_runs

    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"a": 1, "b": 1}, "q3": {"b": 1}}
    runs = {"A": {"q1": {"a": 1.0, "b": 2.0}, "q2": {"a": 2.0, "b": 1.0}, "q3": {"a": 1.0, "b": 0.5}},
            "B": {"q1": {"a": 2.0, "b": 1.0}, "q2": {"a": 2.0, "b": 1.0}, "q3": {"b": 1.0, "a": 0.5}},
            "C": {"q1": {"a": 2.0, "b": 1.0}, "q2": {"a": 2.0, "b": 1.0}}}  # C has no q3: 1 query left out
    result = compare_runs(qrels, runs, "reciprocal_rank")
    assert result.notes[0] == ("C: 1 queries scored in only one of C and A are left out (missing='zero' scores absent "
                               "queries 0)")
    lt.set_language("zh")
    shown = str(result)
    assert "注：C：有 1 个查询只在 C 和 A 之一中有得分，已略去" in shown
    assert "注：2 个运行与同一基线比较：p 值的校正方法为 Holm 逐步校正" in shown
    assert "（H1：该运行与基线有差异（任一方向））" in shown.splitlines()[0]
