"""The course's path, stated once: every notebook's title, prerequisites, time and place (core or elective), and
every exercise sheet's time.

Everything that shows these facts is made from this module, so they cannot disagree:
``tools/build_course.py`` expands ``<!-- header -->`` in a notebook or an exercise sheet into its
prerequisites-and-time line and ``<!-- course-map -->`` in notebook 00 into the course map, and rewrites the
course-path table and the lesson-plan headings of the teacher guides (``docs/teacher_guide*.md``);
``tests/test_course_path.py`` holds the built notebooks and the guides to it.

A notebook's prerequisites are the earlier notebooks whose ideas it uses (read from the notebook, not from its
place in the order). The core path (:func:`core_minutes`: about six and a half hours, from the first metric to the
capstone on a real test collection) is what a class does when time is short; the rest are electives, each
reachable once its prerequisites are done. :data:`SEMESTER` lays the whole course out over 14 weeks.

>>> [nb.number for nb in NOTEBOOKS if nb.core]
[0, 1, 2, 3, 4, 6, 11, 14, 17]
>>> NOTEBOOKS[4].prerequisites, NOTEBOOKS[4].minutes, NOTEBOOKS[4].core
((0,), 45, True)
>>> 360 <= core_minutes() <= 420
True
>>> notebook_header("11_many_queries", "en")  # doctest: +ELLIPSIS
'**Prerequisites**: [04 · CG, DCG, IDCG and NDCG](04_dcg_ndcg.ipynb); means and standard deviations. **Time**: ...'
"""

from __future__ import annotations

from dataclasses import dataclass

LANGUAGES = ("zh", "en")


@dataclass(frozen=True)
class Notebook:
    """One tutorial notebook: ``course/notebooks/{slug}.md``."""

    number: int
    slug: str
    title: dict            # language -> the title, as in the notebook's heading "# NN · title"
    prerequisites: tuple   # numbers of earlier notebooks
    minutes: int
    core: bool
    summary: dict          # language -> what the notebook teaches (00's map)
    also: dict | None = None   # language -> what else a student should bring (logarithms ...)

    def heading(self, language: str) -> str:
        return f"{self.number:02d} · {self.title[language]}"


@dataclass(frozen=True)
class Sheet:
    """One exercise sheet: ``course/exercises/{slug}.md``, the exercises of ``family``."""

    number: int
    slug: str
    family: str
    title: dict            # language -> the title, as in the sheet's heading
    notebooks: tuple       # the tutorial notebooks it goes with (its prerequisites)
    minutes: int

    def heading(self, language: str) -> str:
        return f"{_WORDS['exercises'][language]} {self.number:02d} · {self.title[language]}"


def _t(zh: str, en: str) -> dict:
    return {"zh": zh, "en": en}


#: Every tutorial notebook, in course order.
NOTEBOOKS = (
    Notebook(0, "00_start_here", _t("从这里开始：怎样判断一个排序的好坏？", "Start here: how good is a ranking?"), (), 20, True,
             _t("课程路线、五篇原始博文、怎样使用这个库和编辑器", "the path, the five source posts, how to use the library and the editors"),
             also=_t("会调用 Python 函数、会写列表即可", "calling a Python function with a list")),
    Notebook(1, "01_precision_recall_f", _t("精确率、召回率与 F 值", "Precision, recall and F"), (0,), 35, True,
             _t("混淆矩阵、前 $k$ 位的精确率和召回率、$F_\\beta$；正负样本极不平衡时准确率为何失灵",
                "the confusion matrix, precision and recall of the top $k$, $F_\\beta$; why accuracy fails when "
                "positives are rare")),
    Notebook(2, "02_mrr", _t("平均倒数排名", "Mean reciprocal rank"), (0,), 25, True,
             _t("倒数排名和它在多个查询上的平均：只找一个答案的用户",
                "the reciprocal rank and its mean over queries: the user who wants one answer")),
    Notebook(3, "03_ap_map", _t("平均精度与平均精度均值", "Average precision and MAP"), (1, 2), 40, True,
             _t("平均精度、未被检索到的相关文档、插值精确率、11 点插值平均精度、精确率-召回率曲线",
                "average precision, relevant documents never retrieved, interpolated precision, 11-point AP, "
                "precision–recall curves")),
    Notebook(4, "04_dcg_ndcg", _t("CG、DCG、IDCG 与 NDCG", "CG, DCG, IDCG and NDCG"), (0,), 45, True,
             _t("增益、折损与理想排序：口红排序的例子、电影推荐的例子",
                "gains, discounts and the ideal order: the lipstick example, the film example"),
             also=_t("会用对数", "logarithms")),
    Notebook(5, "05_ndcg_variants", _t("NDCG 的各种变体", "NDCG variants"), (4,), 35, False,
             _t("指数增益与线性增益、对数的底、理想排序取自列表还是已标注集合、理想值为零",
                "exponential or linear gain, the log's base, the ideal from the list or the judged pool, an ideal "
                "of zero")),
    Notebook(6, "06_err_cascade", _t("ERR 与级联模型", "ERR and the cascade model"), (2, 4), 35, True,
             _t("用户在哪里停下：停止概率，以及它和折损累计增益的区别",
                "where the user stops: stop probabilities, and how ERR differs from DCG")),
    Notebook(7, "07_roc_auc", _t("ROC 曲线、AUC、P-R 曲线与 GAUC", "ROC, AUC, the precision–recall curve and GAUC"),
             (1, 3), 40, False,
             _t("逐点画出 ROC 曲线、分数并列、把曲线下面积看成概率、分用户的平均",
                "the ROC curve point by point, tied scores, AUC as a probability, the per-user average")),
    Notebook(8, "08_comparing_metrics", _t("同一排序，不同指标", "Comparing metrics on the same rankings"),
             (1, 2, 3, 4, 6), 35, False,
             _t("同一组排序放到所有指标下：何时一致，为何分歧",
                "the same rankings under every metric: when they agree and why they disagree")),
    Notebook(9, "09_errata", _t("勘误表：自己找出博文里的错", "The posts' errata: find the slips yourself"),
             (1, 2, 3, 4, 5, 6, 7), 25, False,
             _t("五篇博文的每一处错误，和改正后的计算", "every mistake of the five posts beside the corrected computation")),
    Notebook(10, "10_why_tools_disagree", _t("为什么各个评测工具算出的 NDCG 不一样", "Why the tools disagree"), (4, 5), 40,
             False,
             _t("同一个查询在五六个评测工具里得到不同的分数，逐项追查原因",
                "one query scored differently by five or six evaluation tools, each difference traced")),
    Notebook(11, "11_many_queries", _t("多个查询：差异分布、置信区间与显著性检验",
                                       "Many queries: spread, confidence intervals and significance"), (4,), 90, True,
             _t("逐查询的分布、置信区间、配对检验、随机化检验、效应量、多重比较",
                "per-query spread, confidence intervals, paired and randomisation tests, effect size, multiple "
                "comparisons"),
             also=_t("均值与标准差", "means and standard deviations")),
    Notebook(12, "12_user_models", _t("用户模型：RBP、级联模型，以及“折损就是读者”",
                                      'User models: RBP, the cascade, and "the discount is a reader"'), (4, 6), 40, False,
             _t("排序偏置精确率、级联模型一族；每种折损对应怎样的浏览行为",
                "rank-biased precision, the cascade family; the browsing behaviour behind each discount")),
    Notebook(13, "13_choosing_a_metric", _t("按任务选择评价指标", "Choosing a metric by task"), (1, 2, 4, 6, 7), 35, False,
             _t("网页搜索、问答、推荐（抽样评估的陷阱）、广告点击率预估、重视召回的检索",
                "web search, question answering, recommendation (the sampled-metrics pitfall), click prediction, "
                "recall-oriented search")),
    Notebook(14, "14_test_collections", _t("测试集：池化、未标注文档与标注一致性",
                                           "Test collections: pooling, unjudged documents, assessor agreement"),
             (1, 3), 35, True,
             _t("池化、已标注与未标注的文档、标注者之间的一致性", "pooling, judged and unjudged documents, agreement between assessors")),
    Notebook(15, "15_from_auc_to_ltr", _t("从 AUC 到排序学习", "From AUC to learning to rank"), (4, 7), 35, False,
             _t("排错的文档对、成对损失、为什么不能直接优化折损累计增益、交换权重",
                "misordered pairs, the pairwise loss, why NDCG cannot be optimised directly, swap weights")),
    Notebook(16, "16_online_evaluation", _t("在线评价：A/B 测试与交错", "Online evaluation: A/B tests and interleaving"),
             (6, 11), 35, False,
             _t("A/B 测试、组队交错与平衡交错、为什么交错需要的用户更少",
                "A/B tests, team-draft and balanced interleaving, why interleaving needs fewer users")),
    Notebook(17, "17_capstone_real_collection", _t("综合练习：在真实测试集上评价检索系统",
                                                   "Capstone: evaluating rankers on a real test collection"),
             (3, 4, 11, 14), 90, True,
             _t("真实的临床试验测试集、自己写 BM25 并核对、在训练查询上调参并在留出查询上报告、四个系统的多重比较、"
                "judged@10 与压缩列表、有评分标准的结论",
                "a real clinical-trials collection, your own BM25 checked, tuning on training topics and reporting on "
                "held-out ones, four systems compared with Holm and Tukey, judged@10 and condensed lists, a conclusion "
                "graded with a rubric")),

)

#: Every exercise sheet, in course order.
SHEETS = (
    Sheet(1, "01_precision_recall_f", "precision_recall", _t("精确率、召回率与 F 值", "Precision, recall and F"),
          (1,), 40),
    Sheet(2, "02_mrr_map", "mrr_map", _t("MRR、AP 与 MAP", "MRR, AP and MAP"), (2, 3), 40),
    Sheet(3, "03_dcg_ndcg", "dcg_ndcg", _t("CG、DCG 与 NDCG", "CG, DCG and NDCG"), (4,), 50),
    Sheet(4, "04_err", "err", _t("ERR 与级联模型", "ERR and the cascade model"), (6,), 25),
    Sheet(5, "05_roc_auc", "roc_auc", _t("ROC 曲线与 AUC", "ROC and AUC"), (7,), 20),
    Sheet(6, "06_comparing_and_tools", "comparing", _t("比较指标、博文勘误与评测工具",
                                                       "Comparing metrics, the posts' errata and the tools"),
          (8, 9, 10), 30),
    Sheet(7, "07_many_queries", "many_queries", _t("多个查询与显著性检验", "Many queries and significance"), (11,), 20),
    Sheet(8, "08_user_models", "user_models", _t("用户模型", "User models"), (6, 12), 15),
    Sheet(9, "09_choosing_a_metric", "choosing", _t("如何选择评价指标", "Choosing a metric"), (13,), 20),
    Sheet(10, "10_test_collections", "collections", _t("测试集与人工标注", "Test collections"), (14,), 15),
    Sheet(11, "11_learning_to_rank", "learning_to_rank", _t("从 AUC 到排序学习", "From AUC to learning to rank"),
          (15,), 15),
    Sheet(12, "12_online_evaluation", "online", _t("在线评价", "Online evaluation"), (16,), 30),
    Sheet(13, "13_capstone", "capstone", _t("综合练习：真实测试集", "Capstone: a real test collection"), (17,), 25),
)

@dataclass(frozen=True)
class Week:
    """One week of the semester: the notebooks lectured, and what else the week holds.

    The week's lab and homework are not listed here: an exercise sheet belongs to the week in which the last of
    its notebooks is lectured (:func:`week_sheets`), so moving a notebook moves its sheet with it.
    """

    number: int
    lectures: tuple             # notebook numbers taught this week (one taught over two weeks appears in both)
    part: dict | None = None    # language -> the sections covered this week of the week's first notebook, when it is
    #                             taught over two weeks
    milestone: dict | None = None   # language -> the capstone milestone due at the end of the week
    exam: dict | None = None    # language -> the exam held this week


#: Two 45-minute lectures and one lab a week for 14 weeks (the lectures' minutes are the notebooks' own). Notebook
#: 11 (bootstrap, three tests, effect size, multiple comparisons) is taught over two weeks, split between its
#: sections 2 and 3; the capstone (17) runs from week 11 to the end with three graded milestones.
SEMESTER = (
    Week(1, (0, 1)),
    Week(2, (2, 3)),
    Week(3, (4, 5)),
    Week(4, (6, 12)),
    Week(5, (7, 15)),
    Week(6, (8, 9)),
    Week(7, (10, 13)),
    Week(8, (14,), exam=_t("期中考试（45 分钟）：练习 01–06 的考试版，每人一个种子",
                           "Midterm (45 min): exam versions of sheets 01–06, one seed per student")),
    Week(9, (11,), part=_t("第 1、2 部分（逐查询的差异分布、置信区间与自助法）",
                           "sections 1–2 (the per-query spread, confidence intervals and the bootstrap)")),
    Week(10, (11, 16), part=_t("第 3–5 部分（配对检验、效应量与多重比较）",
                            "sections 3–5 (paired tests, effect size and multiple comparisons)")),
    Week(11, (17,), milestone=_t("里程碑 1：读入测试集，自己写的 BM25 通过 lt.verify，写出第一个运行文件",
                                    "Milestone 1: the collection loaded, your own BM25 passing lt.verify, a first "
                                    "run file")),
    Week(12, (), milestone=_t("里程碑 2：只在训练查询上调 k1 和 b，在留出的查询上比较至少三个系统",
                              "Milestone 2: k1 and b tuned on the training queries only; at least three systems "
                              "compared on the held-out queries")),
    Week(13, (), milestone=_t("里程碑 3：judged@k、未标注文档对比较的影响（压缩列表），以及按评分标准写的结论",
                              "Milestone 3: judged@k, what unjudged documents do to the comparison (condensed "
                              "lists), and the conclusion written to the rubric")),
    Week(14, (), exam=_t("期末考试（90 分钟）：全部练习的考试版；综合练习的报告交齐",
                         "Final exam (90 min): exam versions of every sheet; the capstone reports are in")),
)


_BY_NUMBER = {notebook.number: notebook for notebook in NOTEBOOKS}
_BY_SLUG = {notebook.slug: notebook for notebook in NOTEBOOKS}
_SHEET_BY_SLUG = {sheet.slug: sheet for sheet in SHEETS}

#: The words every rendering uses, in both languages: one heading vocabulary (预备知识, never 先修).
_WORDS = {
    "prerequisites": _t("预备知识", "Prerequisites"),
    "time": _t("用时", "Time"),
    "about": _t("约 {n} 分钟", "about {n} minutes"),
    "minutes": _t("{n} 分钟", "{n} min"),
    "core": _t("核心", "core"),
    "elective": _t("选修", "elective"),
    "core_path": _t("核心路线", "core path"),
    "none": _t("无", "none"),
    "exercises": _t("练习", "Exercises"),
    "this_page": _t("（本页）", " (this page)"),
    "list": _t("、", ", "),
    "range": _t("–", "–"),
}


def notebook(key) -> Notebook:
    """The notebook with this number or slug."""
    table = _BY_NUMBER if isinstance(key, int) else _BY_SLUG
    if key not in table:
        raise ValueError(f"notebook={key!r}: not a notebook of the course path; "
                         f"allowed: {sorted(table, key=str)}")
    return table[key]


def sheet(slug: str) -> Sheet:
    """The exercise sheet with this slug."""
    if slug not in _SHEET_BY_SLUG:
        raise ValueError(f"sheet={slug!r}: not an exercise sheet of the course path; allowed: {sorted(_SHEET_BY_SLUG)}")
    return _SHEET_BY_SLUG[slug]


def core_minutes() -> int:
    """The minutes of the core path: the sum over the core notebooks."""
    return sum(nb.minutes for nb in NOTEBOOKS if nb.core)


def _check_language(language: str) -> None:
    if language not in LANGUAGES:
        raise ValueError(f"language={language!r}: allowed: {', '.join(LANGUAGES)}")


def _runs(numbers) -> list:
    """Consecutive numbers grouped: (1, 2, 3, 4, 6) -> [(1, 4), (6, 6)]."""
    runs = []
    for number in sorted(numbers):
        if runs and number == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], number)
        else:
            runs.append((number, number))
    return runs


def _numbers(numbers, language: str) -> str:
    """``01、02`` / ``01, 02``, three or more consecutive ones as a range ``01–07``; none as 无 / –."""
    if not numbers:
        return _WORDS["none"][language] if language == "zh" else "–"
    parts = []
    for first, last in _runs(numbers):
        if last - first >= 2:
            parts.append(f"{first:02d}{_WORDS['range'][language]}{last:02d}")
        else:
            parts.extend(f"{n:02d}" for n in range(first, last + 1))
    return _WORDS["list"][language].join(parts)


def _link(number: int, language: str, prefix: str) -> str:
    nb = notebook(number)
    return f"[{nb.heading(language)}]({prefix}{nb.slug}.ipynb)"


def _links(numbers, language: str, prefix: str) -> str:
    """Links to these notebooks; three or more consecutive ones as the first and the last."""
    joiner, to = _WORDS["list"][language], {"zh": " 到 ", "en": " to "}[language]
    parts = []
    for first, last in _runs(numbers):
        if last - first >= 2:
            parts.append(_link(first, language, prefix) + to + _link(last, language, prefix))
        else:
            parts.extend(_link(n, language, prefix) for n in range(first, last + 1))
    return joiner.join(parts)


def _header(numbers, also, minutes: int, place: str | None, language: str, prefix: str) -> str:
    if numbers:
        needs = _links(numbers, language, prefix)
        if also:
            needs += ("；" if language == "zh" else "; ") + also[language]
    elif also:
        needs = ("无；" if language == "zh" else "none beyond ") + also[language]
    else:
        needs = _WORDS["none"][language]
    time = _WORDS["about"][language].format(n=minutes)
    if place:
        time += f"（{place}）" if language == "zh" else f" ({place})"
    stop = "。" if language == "zh" else ". "
    colon = "：" if language == "zh" else ": "
    return (f"**{_WORDS['prerequisites'][language]}**{colon}{needs}{stop}"
            f"**{_WORDS['time'][language]}**{colon}{time}{stop.strip()}")


def notebook_header(slug: str, language: str) -> str:
    """The prerequisites-and-time line of a notebook (what ``<!-- header -->`` becomes)."""
    _check_language(language)
    nb = notebook(slug)
    place = _WORDS["core_path"][language] if nb.core else _WORDS["elective"][language]
    return _header(nb.prerequisites, nb.also, nb.minutes, place, language, "")


def sheet_header(slug: str, language: str) -> str:
    """The prerequisites-and-time line of an exercise sheet (what ``<!-- header -->`` becomes there)."""
    _check_language(language)
    found = sheet(slug)
    return _header(found.notebooks, None, found.minutes, None, language, f"../../notebooks/{language}/")


def course_map(language: str, available=None) -> str:
    """Notebook 00's map (what ``<!-- course-map -->`` becomes): every notebook and every exercise sheet.

    ``available``: the slugs of the notebooks there are (the build passes the sources it finds); a notebook
    not among them is listed without a link, so that no link of the course is dead.
    """
    _check_language(language)
    w = {key: value[language] for key, value in _WORDS.items()}
    if language == "zh":
        head = "| 节 | 学什么 | 预备知识 | 用时 | 路线 |\n|---|---|---|---|---|"
        sheets_head = "| 练习本 | 配合哪几节 | 用时 |\n|---|---|---|"
    else:
        head = "| notebook | what you learn | prerequisites | time | path |\n|---|---|---|---|---|"
        sheets_head = "| exercise sheet | goes with | time |\n|---|---|---|"
    rows = [head]
    for nb in NOTEBOOKS:
        if nb.number == 0:
            name = nb.heading(language) + w["this_page"]
        elif available is not None and nb.slug not in available:
            name = nb.heading(language)
        else:
            name = f"[{nb.heading(language)}]({nb.slug}.ipynb)"
        rows.append(f"| {name} | {nb.summary[language]} | {_numbers(nb.prerequisites, language)} | "
                    f"{w['minutes'].format(n=nb.minutes)} | {w['core'] if nb.core else w['elective']} |")
    core = [nb for nb in NOTEBOOKS if nb.core]
    total, hours = core_minutes(), core_minutes() / 60
    numbers = w["list"].join(f"{nb.number:02d}" for nb in core)
    if language == "zh":
        summary = (f"标为“核心”的 {len(core)} 节（{numbers}）组成核心路线，共 {total} 分钟，约 {hours:.0f} 小时；"
                   "时间紧时只学这几节。其余各节是选修，学完它的预备知识就可以学，顺序不限。")
    else:
        summary = (f"The {len(core)} notebooks marked core ({numbers}) make the core path, {total} minutes, about "
                   f"{hours:.0f} hours: when time is short, do these. The others are electives, open as soon as "
                   "their prerequisites are done, in any order.")
    sheet_rows = [sheets_head]
    for found in SHEETS:
        link = f"[{found.heading(language)}](../../exercises/{language}/{found.slug}.ipynb)"
        sheet_rows.append(f"| {link} | {_numbers(found.notebooks, language)} | {w['minutes'].format(n=found.minutes)} |")
    if language == "zh":
        sheets_intro = "每个主题还有一本练习，做完对应的教程再做："
    else:
        sheets_intro = "Every topic also has an exercise sheet, for after the notebooks it goes with:"
    return "\n".join(rows) + "\n\n" + summary + "\n\n" + sheets_intro + "\n\n" + "\n".join(sheet_rows)


def guide_table(language: str) -> str:
    """The teacher guide's course-path table: each notebook's time, prerequisites, place and exercise sheet."""
    _check_language(language)
    w = {key: value[language] for key, value in _WORDS.items()}
    if language == "zh":
        rows = ["| 节 | 预备知识 | 用时 | 路线 | 练习本（用时） |", "|---|---|---|---|---|"]
    else:
        rows = ["| notebook | prerequisites | time | path | exercise sheet (time) |", "|---|---|---|---|---|"]
    for nb in NOTEBOOKS:
        sheets = [s for s in SHEETS if max(s.notebooks) == nb.number]
        sheet_text = w["list"].join(f"{s.heading(language)}（{w['minutes'].format(n=s.minutes)}）" if language == "zh"
                                    else f"{s.heading(language)} ({w['minutes'].format(n=s.minutes)})"
                                    for s in sheets) or "–"
        rows.append(f"| {nb.heading(language)} | {_numbers(nb.prerequisites, language)} | "
                    f"{w['minutes'].format(n=nb.minutes)} | {w['core'] if nb.core else w['elective']} | {sheet_text} |")
    core = w["list"].join(f"{nb.number:02d}" for nb in NOTEBOOKS if nb.core)
    if language == "zh":
        rows.append(f"\n核心路线：{core}，共 {core_minutes()} 分钟；其余为选修。")
    else:
        rows.append(f"\nThe core path: {core}, {core_minutes()} minutes in all; the rest are electives.")
    return "\n".join(rows)


def guide_heading(number: int, language: str) -> str:
    """A lesson plan's heading in the teacher guide: ``### 04 · title (45 min, core)``."""
    _check_language(language)
    nb = notebook(number)
    place = _WORDS["core"][language] if nb.core else _WORDS["elective"][language]
    if language == "zh":
        return f"### {nb.heading(language)}（{_WORDS['about']['zh'].format(n=nb.minutes)}，{place}）"
    return f"### {nb.heading(language)} ({_WORDS['minutes']['en'].format(n=nb.minutes)}, {place})"


def week_sheets(week: Week) -> list:
    """The exercise sheets done in this week's lab and set as its homework: those whose last notebook is
    lectured this week (a notebook taught over two weeks counts in the second)."""
    last_week = {}
    for w in SEMESTER:
        for number in w.lectures:
            last_week[number] = w.number
    return [found for found in SHEETS if max(last_week.get(n, 0) for n in found.notebooks) == week.number
            and all(n in last_week for n in found.notebooks)]


def semester_table(language: str) -> str:
    """The teacher guide's 14-week plan: each week's lectures (with their minutes), its lab and homework (the
    sheets of :func:`week_sheets`), the capstone milestone and the exams."""
    _check_language(language)
    w = {key: value[language] for key, value in _WORDS.items()}
    if language == "zh":
        rows = ["| 周 | 讲授（用时） | 实验课与作业 | 综合练习与考试 |", "|---|---|---|---|"]
    else:
        rows = ["| week | lectures (time) | lab and homework | capstone and exams |", "|---|---|---|---|"]
    for week in SEMESTER:
        lectures = []
        for number in week.lectures:
            nb = notebook(number)
            halved = week.part is not None and number == week.lectures[0]  # the notebook taught over two weeks
            minutes = nb.minutes // 2 if halved else nb.minutes
            text = f"{nb.heading(language)}（{w['minutes'].format(n=minutes)}）" if language == "zh" else \
                f"{nb.heading(language)} ({w['minutes'].format(n=minutes)})"
            if halved:
                text += ("：" if language == "zh" else ": ") + week.part[language]
            lectures.append(text)
        sheets = [f.heading(language) for f in week_sheets(week)]
        if not lectures and week.milestone is not None:
            lab = "综合练习实验课" if language == "zh" else "capstone lab"
        else:
            lab = w["list"].join(sheets) or "–"
        extra = [x[language] for x in (week.milestone, week.exam) if x is not None]
        joiner = "；" if language == "zh" else "; "
        rows.append(f"| {week.number} | {'<br>'.join(lectures) or '–'} | {lab} | {joiner.join(extra) or '–'} |")
    return "\n".join(rows)
