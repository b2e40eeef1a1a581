"""``lt.ask("id")``: an exercise as a widget. The student commits an answer, the library checks it, then reveals.

The box shows the prompt as formatted text, an input (option buttons with nothing chosen for a choice
exercise, a text field for a number or a ranking), and three buttons: **Check**, **Hint** (the three-step
ladder, one step per click) and **Show answer** (enabled after a first attempt). Nothing in the box at
creation holds the answer: the right option, the value, the example and the explanation are computed
only when the student checks or asks for the answer, so a notebook's saved output (its widget state or
its text repr) never gives it away. The saved output also carries the question itself (prompt and options)
as HTML and text, so a notebook read without a kernel (GitHub, nbviewer) shows every question; a front
end that renders widgets shows the live box instead. The course website makes that saved question a form
that answers on the page (``ltr_teach.teaching.self_test``: the checker's verdicts, computed when the site
is built; a self-test is practice, its answer may be in the page).

The logic is in plain methods that tests call without a browser: :meth:`AskBox.check`,
:meth:`AskBox.next_hint`, :meth:`AskBox.show_answer`; the buttons only call them.

CSS classes (for browser tests): ``ltr-ask`` (the box), ``ltr-ask-prompt``, ``ltr-ask-input``,
``ltr-ask-check``, ``ltr-ask-hint``, ``ltr-ask-reveal``, ``ltr-ask-feedback``, ``ltr-ask-hints``.
"""

from __future__ import annotations

import html
import time

import ipywidgets as W

from ..core.i18n import _, translate
from ..teaching import exercises
from ..teaching.answers import RANKING_EXAMPLES
from ..teaching.checker import check
from ..teaching.kinds import CHOICE_KINDS, ladder_steps, markdown_html
from . import starting_state

#: Seconds after a check in which a change of the answer box's text still belongs to that check: a click can
#: reach the kernel before the keystrokes typed just before it (see :class:`AskBox`).
LATE_TEXT_S = 1.0


class AskBox(W.VBox):
    """One exercise as a widget; see the module docstring. Build it with :func:`ask`."""

    def __init__(self, exercise, **kwargs):
        self._exercise = exercise
        self._hints_shown = 0
        self._attempts = 0
        self._checked_at = None  # time.monotonic() of the last check
        title = W.HTML(f"<b>{html.escape(exercise.label)}</b> · {html.escape(exercise.title)} · "
                       f"<span class='ltr-ask-level'>{html.escape(exercise.level_text)}</span>")
        prompt = W.HTMLMath(markdown_html(exercise.prompt), layout=W.Layout(width="auto"))
        prompt.add_class("ltr-ask-prompt")
        if exercise.kind in CHOICE_KINDS:
            self.input = W.RadioButtons(options=[(exercise.option_text(k), k) for k in exercise.options], value=None,
                                        description=_("your answer"), tooltip=_("choose one option, then Check"),
                                        layout=W.Layout(width="auto"), style={"description_width": "initial"})
        elif exercise.kind == "written":  # a few sentences, marked by the teacher: Check records, never grades
            self.input = W.Textarea(value="", placeholder=_("a few sentences"), description=_("your answer"),
                                    tooltip=_("write your answer, then Check (the teacher marks it)"),
                                    layout=W.Layout(width="95%"), style={"description_width": "initial"})
        else:
            example = RANKING_EXAMPLES[exercise.shape] if exercise.kind == "create" else "5/12, 0.417"
            self.input = W.Text(value="", placeholder=_("for example {example}").format(example=example),
                                description=_("your answer"), tooltip=_("type your answer, then Check"),
                                continuous_update=True, style={"description_width": "initial"})
            # Enter checks too (the front end sends a "submit" message; Text.on_submit is deprecated)
            self.input.on_msg(lambda _widget, content, _buffers: content.get("event") == "submit" and self.check())
            # The box's text reaches the kernel as it is typed (continuous_update), but the front end holds an
            # update back while the previous one is unanswered, and a click is sent at once: a click can then
            # arrive before the last keystrokes. Text arriving just after a check is the text that was checked.
            self.input.observe(self._late_text, "value")
        self.input.add_class("ltr-ask-input")
        self.check_button = W.Button(description=_("Check"), tooltip=_("check your answer"), icon="check")
        self.hint_button = W.Button(description=_("Hint"), tooltip=self._hint_tooltip(), icon="lightbulb-o")
        self.reveal_button = W.Button(description=_("Show answer"), disabled=True,
                                      tooltip=_("show the answer (after a first attempt)"), icon="eye")
        for button, css in ((self.check_button, "ltr-ask-check"), (self.hint_button, "ltr-ask-hint"),
                            (self.reveal_button, "ltr-ask-reveal")):
            button.add_class(css)
        self.check_button.on_click(lambda _button: self.check())
        self.hint_button.on_click(lambda _button: self.next_hint())
        self.reveal_button.on_click(lambda _button: self.show_answer())
        self.feedback = W.HTML("")
        self.feedback.add_class("ltr-ask-feedback")
        self.hint_area = W.HTML("")
        self.hint_area.add_class("ltr-ask-hints")
        buttons = W.HBox([self.check_button, self.hint_button, self.reveal_button])
        super().__init__([title, prompt, self.input, buttons, self.hint_area, self.feedback], **kwargs)
        self.add_class("ltr-ask")

    def __repr__(self) -> str:  # short, deterministic, no answer
        return _("<question {label}: answer in the box, then Check>").format(label=self._exercise.label)

    def static_text(self) -> str:
        """The question as plain text for a notebook read without a kernel: label, title, prompt, options.

        Never the answer, which option is right, a hint or an explanation (see the module docstring)."""
        exercise = self._exercise
        options = "".join(f"\n  - {key}: {text}" for key, text in exercise._option_lines())
        return (f"[{exercise.label}] {exercise.title}\n{exercise.prompt}{options}\n"
                + _("(answer it in the box when the notebook runs, then Check)"))

    def static_html(self) -> str:
        """The question as HTML for a notebook read without a kernel (GitHub, nbviewer, a website)."""
        note = html.escape(_("Run the notebook to answer this question in its box, then Check."))
        return (f"<div class='ltr-ask-static'>{self._exercise._repr_html_()}"
                f"<p><i>{note}</i></p></div>")

    def _repr_mimebundle_(self, **kwargs):
        # Front ends that render widgets (JupyterLab, Notebook, VS Code with a kernel) show the widget view,
        # which outranks HTML there; the others (GitHub, nbviewer, nbconvert, which skip a widget view whose
        # state is not saved) show the static question: prompt and options only. The website replaces it by
        # a form that answers (site/_ext/self_tests.py), finding the exercise by the id in this HTML.
        starting_state.register(self, self._exercise.label)
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = self.static_text()
        bundle["text/html"] = self.static_html()
        return bundle

    # -- what the buttons do --------------------------------------------------------------------------
    @property
    def answer_given(self):
        """What the student has entered: an option key, the typed text, or None."""
        value = self.input.value
        return None if value is None or (isinstance(value, str) and not value.strip()) else value

    def check(self):
        """Check the entered answer; the first attempt enables "Show answer". Returns the feedback."""
        self._checked_at = time.monotonic()
        feedback = check(self._exercise, self.answer_given)
        if feedback.status != "not answered":
            self._attempts += 1
            self.reveal_button.disabled = False
        self.feedback.value = feedback._repr_html_()
        return feedback

    def _late_text(self, change) -> None:
        """Check again when the box's text arrives within :data:`LATE_TEXT_S` of a check (see ``__init__``)."""
        if self._checked_at is not None and time.monotonic() - self._checked_at < LATE_TEXT_S:
            attempts, checked_at = self._attempts, self._checked_at
            self.check()
            self._checked_at = checked_at  # the window runs from the click
            self._attempts = attempts or self._attempts  # the same attempt, not one more

    def next_hint(self) -> str:
        """Show one more step of the hint ladder (concept, procedure, first number). Returns the step's text."""
        hints, steps = self._exercise.hints, ladder_steps(self._exercise.kind)
        if self._hints_shown >= len(hints):
            return ""
        self._hints_shown += 1
        items = "".join(f"<li><b>{html.escape(translate(steps[n]) if n < len(steps) else '')}</b>: "
                        f"{html.escape(translate(h))}</li>" for n, h in enumerate(hints[:self._hints_shown]))
        self.hint_area.value = f"<ol class='ltr-teach-hint-ladder'>{items}</ol>"
        self.hint_button.description = _("Hint {n}/{total}").format(n=self._hints_shown, total=len(hints))
        self.hint_button.disabled = self._hints_shown >= len(hints)
        self.hint_button.tooltip = self._hint_tooltip()
        return translate(hints[self._hints_shown - 1])

    def show_answer(self):
        """After a first attempt: the right answer and why. Returns the feedback (None before an attempt)."""
        if not self._attempts:
            return None
        feedback = check(self._exercise, self.answer_given, reveal=True)
        parts = [feedback._repr_html_()]
        if self._exercise.kind == "compute":
            parts.append(self._exercise.explanation()._repr_html_())
        self.feedback.value = "".join(parts)
        return feedback

    def _hint_tooltip(self) -> str:
        step, steps = self._hints_shown, ladder_steps(self._exercise.kind)
        if step >= len(steps):
            return _("every hint is shown")
        return _("hint {n} of 3: {what}").format(n=step + 1, what=translate(steps[step]))


def ask(exercise_id, seed=None) -> AskBox:
    """An exercise as a widget: commit an answer, check it, get hints one at a time, then the answer.

    Parameters
    ----------
    exercise_id : str or exercise
        An id from ``lt.exercises.ids()``, or an exercise object.
    seed : int, optional
        The student's variant (``lt.exercises.variant(id, seed)``).

    Returns
    -------
    AskBox
        An ipywidgets ``VBox``; its ``.check()``, ``.next_hint()`` and ``.show_answer()`` are what the
        buttons call.

    Examples
    --------
    >>> box = ask("p-at-5")
    >>> box.input.value = "3/5"
    >>> box.check().correct
    True
    """
    exercise = exercise_id if hasattr(exercise_id, "kind") else exercises.variant(exercise_id, seed)
    if seed is not None and hasattr(exercise_id, "kind"):
        exercise = exercises.variant(exercise.id, seed)
    return AskBox(exercise)


__all__ = ["AskBox", "ask"]
