"""Issue 32 ("one language per edition"): an English prompt names a metric in English only; the Chinese term is the
Chinese edition's. Item names and quotations of the posts (Chinese in the posts) may stay as they were written."""

import re

import pytest

import ltr_teach as lt
from ltr_teach.core.i18n import using_language

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("exercise_id, chinese_term", [
    ("mrr-with-miss", "平均倒数排名"), ("roc-area", "ROC 曲线下面积"), ("p-at-5", "精确率"), ("r-at-5", "召回率"),
    ("metric-for-navigational", "淘宝官网"),
])
def test_a_term_is_in_the_editions_language(exercise_id, chinese_term):
    with using_language("en"):
        english = lt.exercises.get(exercise_id).prompt
    with using_language("zh"):
        chinese = lt.exercises.get(exercise_id).prompt
    assert not CJK.search(english), english
    assert chinese_term in chinese


def test_every_compute_task_template_is_english_in_english():
    # the task sentence of every compute exercise (what it asks, with the data) holds no Chinese in English
    with using_language("en"):
        for ex in lt.exercises.all():
            if ex.kind == "compute":
                task = ex.task(dict(ex.data))
                for name in _names(ex.data):  # the items' and queries' own names (the posts' products) may be Chinese
                    task = task.replace(name, "")
                assert not CJK.search(task), (ex.id, task)


def _names(data) -> set:
    """Every text key or value inside an exercise's data."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict) or hasattr(data, "items"):
        return {n for key, value in data.items() for n in _names(key) | _names(value)}
    if isinstance(data, (list, tuple)):
        return {n for value in data for n in _names(value)}
    return set()
