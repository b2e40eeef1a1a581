"""The field's terms in English and Chinese: the term the course uses, the accepted alternatives,
and the wrong names the source documents give them, each with why it is wrong.

One fact in one place: the registry's titles (:mod:`ltr_teach.metrics.registry`), the errata's
terminology records (:mod:`ltr_teach.teaching.examples`) and the Chinese message catalogue read
their terms here, and ``tests/test_glossary.py`` fails when a catalogue's Chinese or a notebook's
markdown uses a term marked wrong (:func:`misused_terms`), unless the text quotes a document.

Examples
--------
>>> TERMS["precision"].zh, TERMS["precision"].alternatives
('精确率', ('查准率',))
>>> [m.wrong for m in TERMS["cascade_model"].wrong]
['瀑布模型']
>>> [m.wrong for m in misused_terms("ERR 基于瀑布模型。")]
['瀑布模型']
>>> misused_terms("博文 003 把级联模型叫作「瀑布模型」。")  # a quoted wrong term is a quotation, not a use
[]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Misnomer:
    """A wrong name for a term: the wrong text, why it is wrong, and what marks a wrong use.

    ``pattern`` is a regular expression that finds the wrong use in running text; it defaults to the
    wrong text itself. A word that is right for another concept (准确率 is accuracy) gets a pattern
    that finds it only where it stands for this one (准确率 beside 召回率, or glossed Precision).
    """

    wrong: str
    why: str
    pattern: str = ""

    @property
    def regex(self) -> re.Pattern:
        return re.compile(self.pattern or re.escape(self.wrong), re.IGNORECASE)


@dataclass(frozen=True)
class Term:
    """One concept: its English and Chinese names, accepted alternatives, and wrong names."""

    key: str
    en: str
    zh: str
    alternatives: tuple = ()
    wrong: tuple = field(default=())

    @property
    def bilingual(self) -> str:
        """``English (中文)``, as the registry titles print it."""
        return f"{self.en} ({self.zh})"


#: Every term, by key. Chinese first choice: the term of 周志华《机器学习》 or the IR textbooks'
#: usual translation; ``alternatives`` are accepted too (a notebook may use them).
TERMS = {t.key: t for t in (
    Term("precision", "precision", "精确率", ("查准率",), (
        Misnomer("准确率", "准确率 is ambiguous: it also names accuracy, (TP+TN)/all; precision TP/(TP+FP) is "
                 "unambiguously 精确率/查准率 (post 003)",
                 r"准确率\s*[(（]\s*prec[ei]sion|准确率\s*(?:与|和|、)\s*召回率|召回率\s*(?:与|和|、)\s*准确率"),
        Misnomer("查全率", "查全率 (how complete) is recall; post 000 gives it to precision",
                 r"查全率\s*[(（]?\s*precision|precision\s*[=:：]?\s*查全率"),
    )),
    Term("recall", "recall", "召回率", ("查全率",), (
        Misnomer("查准率", "查准率 (how accurate) is precision; post 000 gives it to recall",
                 r"查准率\s*[)）]?\s*recall|recall\s*[=:：]?\s*查准率"),
    )),
    Term("accuracy", "accuracy", "准确率", ("精度",)),
    Term("f_beta", "F-beta", "F 值", ("F-beta 值",)),
    Term("cg", "cumulative gain", "累计增益"),
    Term("gain", "gain", "增益"),
    Term("discount", "discount", "折损", ("折扣",)),
    Term("dcg", "discounted cumulative gain", "折损累计增益", ("折扣累计增益",)),
    Term("idcg", "ideal DCG", "理想折损累计增益"),
    Term("ndcg", "normalised DCG", "归一化折损累计增益"),
    Term("ideal_order", "ideal order", "理想排序"),
    Term("cascade_model", "cascade model", "级联模型", (), (
        Misnomer("瀑布模型", "瀑布模型 is the waterfall model of software engineering; the click model of Craswell et "
                 "al. (2008) is the cascade model, 级联模型 (post 003)"),
    )),
    Term("err", "expected reciprocal rank", "预期倒数排名", ("期望倒数排名",), (
        Misnomer("期望倒数排序", "排序 is sorting or ranking as a process; the reciprocal rank is 倒数排名 "
                 "(post 003)"),
    )),
    Term("reciprocal_rank", "reciprocal rank", "倒数排名"),
    Term("mrr", "mean reciprocal rank", "平均倒数排名"),
    Term("average_precision", "average precision", "平均精度", ("平均精确率",)),
    Term("map", "mean average precision", "平均精度均值", ("平均精确率均值",)),
    Term("interpolated_precision", "interpolated precision", "插值精确率"),
    Term("relevance", "relevance grade", "相关性等级", ("相关程度",)),
    Term("cutoff", "cut-off", "截断位置"),
    Term("judged_pool", "judged pool", "已标注集合"),
    Term("query", "query", "查询"),
    Term("rank", "rank", "排名", ("位置",)),
    Term("roc", "ROC curve", "ROC 曲线", ("受试者工作特征曲线",)),
    Term("auc", "area under the ROC curve", "ROC 曲线下面积"),
    Term("pr_curve", "precision-recall curve", "P-R 曲线", ("精确率-召回率曲线",)),
    Term("harmonic_mean", "harmonic mean", "调和平均"),
)}

#: Names that stay in Latin letters in Chinese text: tools, libraries, collections, file formats,
#: people. Metric abbreviations (NDCG, P@k) need no entry: a word without a lower-case letter is an
#: abbreviation. The Chinese edition's checks (the notebooks' share of Chinese, the library's
#: no-English-sentence test) read this one list.
PROPER_NAMES = frozenset(name.lower() for name in (
    "trec_eval", "pytrec_eval", "ir_measures", "ir-measures", "ranx", "gdeval", "gdeval.pl", "scikit-learn",
    "sklearn", "LightGBM", "XGBoost", "RecBole", "torchmetrics", "TF-Ranking", "TensorFlow", "Recommenders",
    "Microsoft", "MARCO", "Python", "NumPy", "SymPy", "SciPy", "matplotlib", "ipywidgets", "Jupyter",
    "JupyterLab", "pip", "ltr_teach", "ltr-teach", "lt", "Babel", "gettext", "Chromium",
    "Google", "Bing", "Baidu", "Taobao", "CSDN", "Zhihu", "GitHub", "Wikipedia", "Excel",
    "Järvelin", "Kekäläinen", "Burges", "Chapelle", "Moffat", "Zobel", "Manning", "Raghavan", "Schütze",
    "Wilcoxon", "Student", "Cohen", "Holm", "Bonferroni", "Fisher", "Efron", "Voorhees", "Buckley",
    "Sakai", "Craswell", "McSherry", "Najork", "Cranfield", "ir_datasets", "Glasgow", "Okapi", "Robertson", "torch", "LambdaRank", "LambdaMART", "RankNet", "ListNet", "Fawcett", "Kendall", "Spearman",
    "log", "log2", "ln", "max", "min", "sum", "argmax",
))

#: Text between these marks quotes a document (or names a wrong term as such): it is not a use.
_QUOTES = re.compile(r"「[^」]*」|『[^』]*』|“[^”]*”|‘[^’]*’|\"[^\"\n]*\"|`[^`\n]*`")


def unquoted(text: str) -> str:
    """``text`` without its quotations (「」, 『』, “”, ‘’, "", `code`)."""
    return _QUOTES.sub(" ", text)


def misused_terms(text: str) -> list[Misnomer]:
    """The wrong names of :data:`TERMS` that ``text`` uses outside quotations.

    Parameters
    ----------
    text : str
        Running text (a catalogue's Chinese, a notebook's markdown).

    Returns
    -------
    list of Misnomer
        Each wrong name found, once.

    Examples
    --------
    准确率 beside 召回率 means precision there; alone (accuracy) it is right:

    >>> [m.wrong for m in misused_terms("准确率和召回率")], misused_terms("准确率是 (TP+TN)/总数")
    (['准确率'], [])
    """
    plain = unquoted(text)
    return [m for term in TERMS.values() for m in term.wrong if m.regex.search(plain)]


def zh(key: str) -> str:
    """The Chinese term the course uses for ``key`` (``zh("cascade_model")`` is ``'级联模型'``)."""
    return TERMS[key].zh


def zh_all(key: str) -> str:
    """The Chinese term and its accepted alternatives, ``"/"``-joined (``'精确率/查准率'``)."""
    return "/".join((TERMS[key].zh, *TERMS[key].alternatives))


#: The English the source documents use as names: their section headings and the glosses they give their
#: terms (a Chinese student meets them in the posts, and the library quotes them).
DOCUMENT_NAMES = (
    "Mean Average Precision", "Average Precision", "Mean Reciprocal Rank", "Reciprocal Rank",
    "Expected Reciprocal Rank", "Cumulative Gain", "Discounted Cumulative Gain", "Discount Cumulative Gain",
    "Ideal Discounted Cumulative Gain", "Normalized Discounted Cumulative Gain", "Normalised Discounted Cumulative Gain",
    "Precision and Recall", "Precision", "Recall", "Cascade Model", "Precesion", "Cummulative", "F1score", "score",
    "query", "item", "sort", "MAC", "SK-II", "skII", "skii", "et al",
)

#: English a Chinese page may show outside code: names, not sentences. :data:`PROPER_NAMES`, the documents'
#: names (:data:`DOCUMENT_NAMES`) and the glossary's English terms (a Chinese text may gloss a term in
#: English, as 倒数排名（reciprocal rank）). :func:`english_sentences` skips these; everything else of three or
#: more English words in a row is a sentence a Chinese page must not show.
NAMES_IN_ENGLISH = tuple(sorted({t.en for t in TERMS.values()} | set(DOCUMENT_NAMES) | PROPER_NAMES, key=str.lower))

#: A run of English words (letters, apostrophes, hyphens) between anything else.
_ENGLISH_RUN = re.compile(r"[A-Za-z][A-Za-z'\-]*(?:[ ,]+[A-Za-z][A-Za-z'\-]*)*")
#: Code a page shows as code: `quoted`, a call lt.name(...), a keyword argument name='value', identifiers
#: with an underscore, a dot or a digit (trec_eval, ndcg_cut_10, P@10, R_i), and file names.
_CODE = re.compile(r"`[^`]*`|\b[\w.]+\([^()]*(?:\([^()]*\)[^()]*)*\)|\b\w+=(?:'[^']*'|\"[^\"]*\"|[^\s,;，；）)]+)"
                   r"|[A-Za-z][\w.@^{}]*(?:_|\.|\d|@)[\w.@^{}]*")
#: A word that is not prose: one letter (a variable), or capitals and digits (NDCG, AP, TPR, F1).
_NOT_A_WORD = re.compile(r"^(?:[A-Za-z]|[A-Z0-9][A-Z0-9-]*s?)$")


def english_sentences(text: str, min_words: int = 3) -> list[str]:
    """The runs of ``min_words`` or more English words in ``text`` that are neither code nor names.

    What a Chinese page shows must be Chinese except code, names (:data:`NAMES_IN_ENGLISH`) and metric
    abbreviations; this finds what is left: English sentences, or fragments of them.

    Parameters
    ----------
    text : str
        What a page shows (a card, a table, a plot's texts, a command's output).
    min_words : int
        How many English words in a row make a sentence (3: "the sum of" is one, "NDCG@k" or
        "Holm p t-test" are not).

    Returns
    -------
    list of str
        Each offending run, as it stands in the text.

    Examples
    --------
    >>> english_sentences("平均倒数排名（Mean Reciprocal Rank）是 lt.mrr([[0, 1]]) 的值")
    []
    >>> english_sentences("NDCG falls when the star is downgraded: 理想排序 ideal_grade")
    ['falls when the star is downgraded']
    """
    names = "|".join(re.escape(n) for n in sorted(NAMES_IN_ENGLISH, key=len, reverse=True))
    plain = re.sub(rf"(?<![A-Za-z])(?:{names})(?![A-Za-z])", " | ", _CODE.sub(" | ", text), flags=re.IGNORECASE)
    found = []
    for run in _ENGLISH_RUN.finditer(plain):
        words = re.findall(r"[A-Za-z][A-Za-z'\-]*", run.group())
        streak: list[str] = []
        for word in words + [""]:
            if word and not _NOT_A_WORD.match(word):
                streak.append(word)
                continue
            if len(streak) >= min_words:
                found.append(" ".join(streak))
            streak = []
    return found


__all__ = ["Term", "Misnomer", "TERMS", "PROPER_NAMES", "DOCUMENT_NAMES", "NAMES_IN_ENGLISH", "english_sentences",
           "misused_terms", "unquoted", "zh", "zh_all"]
