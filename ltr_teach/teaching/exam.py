"""Exam versions of the exercise sheets: one printed page set per student, nothing to check answers with.

An exam differs from a practice sheet in what it leaves out and what it adds: no hints, no "check your answer with
``ltr-teach check``" line, no links; a name and student-id line, the seed in the header (so the teacher's key,
:func:`ltr_teach.teaching.exercises.sheet`, matches each paper), a box to write each answer in (a larger one for a
written answer or a derivation), and print CSS that starts every student on a new page and never splits a question
across two. It is one self-contained HTML file (no script, no fonts or styles from elsewhere): open it in a browser
and print, or print to PDF.

>>> page = exam_html([7], ["p-at-2-doc001"])
>>> page.count("class='student'"), "p-at-2-doc001" in page, "ltr-teach check" in page
(1, True, False)
"""

from __future__ import annotations

import html
import re

from ..core.i18n import _, get_language
from . import exercises

_CODE = re.compile(r"`([^`]+)`")
_MATH = re.compile(r"\$([^$]+)\$")
#: LaTeX a prompt's inline formulas use, as a printed page writes it (no MathJax on paper).
_LATEX_WORDS = ((r"\log_2", "log2"), (r"\ln", "ln"), (r"\cdot", "·"), (r"\times", "×"), (r"\le", "≤"),
                (r"\ge", "≥"), (r"\sum", "Σ"), (r"\beta", "β"), (r"\alpha", "α"), (r"\,", " "), (r"\ldots", "…"))
_FRAC = re.compile(r"\\frac\{([^{}]*)\}\{([^{}]*)\}")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")

#: Print CSS: A4 with room to write, one student per page set, no question split over two pages.
_STYLE = """
@page { size: A4; margin: 16mm 15mm; }
body { font-family: "Noto Serif CJK SC", "Source Han Serif SC", "Songti SC", serif; font-size: 11pt; line-height: 1.45;
       color: #000; }
@media screen { body { max-width: 46em; margin: 2em auto; padding: 0 1em; } .student { border-bottom: 2px dashed #888;
                padding-bottom: 2em; margin-bottom: 2em; } }
.student { break-after: page; page-break-after: always; }
.student:last-child { break-after: auto; page-break-after: auto; }
header { border-bottom: 1px solid #000; margin-bottom: 1em; }
header h1 { font-size: 15pt; margin: 0 0 .3em; }
.who { display: flex; gap: 2em; margin: .4em 0; }
.who span { flex: 1; border-bottom: 1px solid #000; min-height: 1.4em; }
.q { break-inside: avoid; page-break-inside: avoid; margin: 0 0 1.1em; }
.q h2 { font-size: 11.5pt; margin: 0 0 .3em; }
.q .level { font-weight: normal; font-size: 9.5pt; }
.prompt { white-space: pre-wrap; margin: 0 0 .4em; }
.options { list-style: none; padding-left: 1em; margin: .2em 0 .4em; }
.options li::before { content: "\\2610\\00a0"; }
.answer { border: 1px solid #000; min-height: 2.4em; }
.answer.long { min-height: 11em; }
.answer.ranking { min-height: 3.6em; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 10pt; }
"""


def _plain_math(formula: str) -> str:
    """An inline formula as plain text: ``\\log_2(i+1)`` -> ``log2(i+1)``, ``\\frac{a}{b}`` -> ``(a)/(b)``."""
    out = _FRAC.sub(lambda m: f"({m.group(1)})/({m.group(2)})", formula)
    for latex, plain in _LATEX_WORDS:
        out = out.replace(latex, plain)
    return out.replace("{", "").replace("}", "")


def _inline(text: str) -> str:
    """A prompt's Markdown as the paper shows it: escaped, with `code` and **bold** kept and $formulas$ in plain
    text."""
    out = html.escape(_MATH.sub(lambda m: _plain_math(m.group(1)), text))
    out = _CODE.sub(lambda m: f"<code>{m.group(1)}</code>", out)
    return _BOLD.sub(lambda m: f"<b>{m.group(1)}</b>", out)


def _chosen(exercise_ids):
    """The exercises asked: every one, or the ids given, where a family key (``dcg_ndcg``) stands for its family."""
    if not exercise_ids:
        return exercises.all()
    chosen = []
    for key in exercise_ids:
        family = [e for e in exercises.all() if e.family == key] if key in exercises.FAMILIES else None
        chosen.extend(family if family else [exercises.get(key)])
    return chosen


def _answer_box(ex) -> str:
    if ex.kind in exercises.CHOICE_KINDS and ex.kind != "derive":  # the options' boxes are the answer
        return ""
    if ex.kind in ("written", "derive"):
        size = " long"
    elif ex.kind == "create":
        size = " ranking"
    else:
        size = ""
    label = html.escape(_("answer"))
    return f"<div class='answer{size}' role='textbox' aria-label='{label}'></div>"


def exam_html(seeds, exercise_ids=None, title=None) -> str:
    """A printable exam: one section per seed (one per student), each starting on a new page.

    Parameters
    ----------
    seeds : iterable of int
        One seed per student; each paper has that seed's numbers and shows the seed, so the key matches it.
    exercise_ids : list of str, optional
        Exercise ids or family keys (``dcg_ndcg`` for every exercise of sheet 03); default: every exercise.
    title : str, optional
        The exam's title (default: the sheets' title).

    Returns
    -------
    str
        A whole HTML document in the current language. Its key is ``exercises.sheet(seeds, ids)[1]``.
    """
    seeds = list(seeds)
    if not seeds:
        raise ValueError("seeds must hold at least one seed (one paper per student)")
    chosen = _chosen(exercise_ids)
    heading = html.escape(title if title is not None else _("Ranking evaluation exercises"))
    papers = []
    for seed in seeds:
        questions = []
        for n, base in enumerate(chosen, start=1):
            ex = exercises.variant(base.id, seed)
            options = ""
            if ex.kind in exercises.CHOICE_KINDS:
                options = "<ul class='options'>" + "".join(
                    f"<li><code>{html.escape(str(key))}</code> {_inline(ex.option_text(key))}</li>"
                    for key in ex.options) + "</ul>"
            questions.append(
                f"<section class='q'><h2>{n}. {html.escape(ex.title)} <span class='level'>· {html.escape(ex.level_text)}"
                f" · <code>{html.escape(ex.id)}</code></span></h2><div class='prompt'>{_inline(ex.prompt)}</div>"
                f"{options}{_answer_box(ex)}</section>")
        who = "".join(f"<span>{html.escape(label)}</span>" for label in (_("Name:"), _("Student id:")))
        intro = html.escape(_("Seed {seed}: the numbers on this paper are yours.").format(seed=seed) + " " +
                            _("Give an exact value (a fraction, log2(3)) or a decimal rounded as you like; show your "
                              "working for written answers and derivations."))
        papers.append(f"<div class='student'><header><h1>{heading}</h1><p>{intro}</p><div class='who'>{who}</div>"
                      f"</header>{''.join(questions)}</div>")
    language = "zh-CN" if get_language() == "zh" else "en"
    return (f"<!DOCTYPE html>\n<html lang='{language}'><head><meta charset='utf-8'><title>{heading}</title>"
            f"<style>{_STYLE}</style></head><body>{''.join(papers)}</body></html>")
