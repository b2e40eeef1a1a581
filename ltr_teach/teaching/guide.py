"""How to answer an exercise sheet: said once here, shown in the reader's language at the top of
every sheet (``lt.exercises.how_to_answer()``), instead of a paragraph copied into each notebook.

>>> from ltr_teach.core.i18n import using_language
>>> with using_language("en"):
...     "exact fractions" in how_to_answer()._repr_markdown_()
True
"""

from __future__ import annotations

from ..core.i18n import N_, translate

HOW_TO_ANSWER = N_(
    "**How to answer.** Each exercise shows its question. Work it out by hand, write your answer as text "
    "in its `answer = ...` cell and run the cell: `lt.check` says whether it is right and, when it is not, "
    "which usual slip gives your number. Numbers can be exact fractions (`5/12`), decimals with at least "
    "three significant digits (`0.417`), percentages (`41.7%`) or small expressions (`1 + 1/log2(3)`); "
    "full-width digits and Chinese punctuation from an input method are fine. A multiple-choice question "
    "takes the key of the option you choose (`\"rise\"`), a construction question the ranking you built "
    "(`\"[3, 0, 2]\"`). An empty cell means *not answered yet*. The hint cell opens one hint at a time, "
    "and `lt.check(..., reveal=True)` shows the answer once you give up. Your teacher may give you a "
    "**seed**: set `seed = 7` (say) in the first code cell and run the notebook again: every exercise "
    "becomes your own version with new numbers, checked as such. Each exercise is labelled with its "
    "difficulty: 1 basic, 2 intermediate, 3 challenge. A derivation ends in a multiple-choice question: write "
    "the steps on paper, then answer with the key of an option. A written answer (a few sentences) is marked by "
    "your teacher: `lt.check` only records it, and `reveal=True` shows the model answer.")


class Guide:
    """A paragraph of guidance that Jupyter shows as formatted text in the current language."""

    def __init__(self, message: str):
        self.message = message

    def _repr_markdown_(self) -> str:
        return translate(self.message)

    def __str__(self) -> str:
        return translate(self.message)

    __repr__ = __str__


def how_to_answer() -> Guide:
    """How to write and check an answer, for the top of an exercise sheet."""
    return Guide(HOW_TO_ANSWER)


__all__ = ["Guide", "HOW_TO_ANSWER", "how_to_answer"]
