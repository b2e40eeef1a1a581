"""The graded class: the gradebook's rows, its CSV, the class report and one feedback page per student."""

from __future__ import annotations

import base64
import html
import io
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ..core.i18n import N_, _, using_language
from ..core.palette import COLORS, PALETTE
from ..teaching import exercises
from .files import _csv_safe, _csv_writer, _short, folder_for_writing, write_inside
from .points import _whole, points_text

#: What an answer's ``status`` can be, in the order the report lists them.
STATUSES = ("right", "wrong", "too coarse", "unreadable", "not answered", "not graded", "to mark")


@dataclass(frozen=True)
class GradeRow:
    """One line of the gradebook: one student's answer to one exercise.

    ``points`` is an int, or a :class:`~fractions.Fraction` when the assignment's partial-credit rule gave
    part of the points; ``override`` holds the teacher's note when an overrides file set the points.
    """

    student: str
    name: str
    exercise: str
    max_points: int
    answer: str = ""
    status: str = "not graded"
    slip: str = ""
    diagnosis: str = ""
    hint: str = ""
    points: object = 0
    file: str = ""
    problem: str = ""
    override: str = ""

    @property
    def right(self) -> bool:
        return self.status == "right"


@dataclass(frozen=True)
class Submission:
    """The notebook graded for one student and why it was taken; ``ignored`` are the student's other files (older
    versions, checkpoint copies); ``late`` is Canvas's mark in the file's name."""

    student: str
    file: str
    reason: str
    late: bool = False
    ignored: tuple = ()


CSV_COLUMNS = ("student", "name", "exercise", "answer", "status", "right", "slip", "diagnosis", "points",
               "max_points", "problem", "file", "override")


@dataclass
class Gradebook:
    """The graded class: one :class:`GradeRow` per student and exercise, and the submission problems."""

    assignment: str
    exercises: list
    rows: list
    problems: list  # (student or file, what is wrong)
    partial: dict = field(default_factory=dict)
    lang: str | None = None
    #: the notebook graded per student (a student not in it has no grade: nothing readable was theirs)
    submissions: dict = field(default_factory=dict)
    #: the LMS ids each student's files carried: ``{"canvas": user id, "moodle": participant id}``
    lms_ids: dict = field(default_factory=dict)
    #: the roster's students (with their LMS columns), in the roster's order
    students: list = field(default_factory=list)

    def has_grade(self, student: str) -> bool:
        """Whether the student has a grade to export: a notebook of theirs was graded, or the teacher overrode one of
        their answers. Everyone else is left empty in an LMS file (both LMSs store a 0 as a real zero)."""
        return student in self.submissions or any(r.override for r in self.rows if r.student == student)

    def ungraded(self) -> list[str]:
        """The students left empty in an LMS file, in the roster's order."""
        return [s for s, _name, _points, _most in self.totals() if not self.has_grade(s)]

    def to_csv(self, path, bom: bool = False) -> None:
        """The gradebook as CSV, one row per student and exercise; formula-like text is quoted with '.

        ``bom=True`` writes UTF-8 with a byte-order mark, so that Excel reads Chinese names right.
        """
        with open(path, "w", newline="", encoding="utf-8-sig" if bom else "utf-8") as handle:
            writer = _csv_writer(handle)
            writer.writerow(CSV_COLUMNS)
            for row in self.rows:
                values = {**row.__dict__, "right": "yes" if row.right else "no", "points": points_text(row.points)}
                writer.writerow([_csv_safe(values[c]) for c in CSV_COLUMNS])

    def totals(self) -> list[tuple[str, str, object, int]]:
        """``(student, name, points, max points)`` per student, in the roster's order."""
        found: dict[str, list] = {}
        for row in self.rows:
            entry = found.setdefault(row.student, [row.student, row.name, Fraction(0), 0])
            entry[2] += Fraction(row.points)
            entry[3] += row.max_points
        return [(s, n, p.numerator if p.denominator == 1 else p, m) for s, n, p, m in found.values()]

    def export(self, path, lms: str, bom: bool = False, lms_assignment: str | None = None) -> None:
        """The total per student in an LMS's grade-import CSV: ``canvas`` or ``moodle`` (see :func:`.lms.export`)."""
        from .lms import export

        export(self, path, lms, bom=bom, lms_assignment=lms_assignment)

    def override_notes(self) -> dict[str, list[str]]:
        """``"exercise: note"`` of every overridden answer, by student."""
        notes: dict[str, list[str]] = defaultdict(list)
        for row in self.rows:
            if row.override:
                notes[row.student].append(f"{row.exercise}: {row.override}")
        return notes

    def slip_counts(self, exercise_id: str) -> Counter:
        """How many students made each diagnosed slip on one exercise (key: the slip's keys, joined by +)."""
        return Counter(r.slip for r in self.rows if r.exercise == exercise_id and r.slip)

    def share_right(self, exercise_id: str) -> float:
        """The share of the roster's students whose answer is right."""
        rows = [r for r in self.rows if r.exercise == exercise_id]
        return sum(r.right for r in rows) / len(rows) if rows else 0.0

    def report_html(self) -> str:
        """The class report, one self-contained HTML page (plots inline as PNG)."""
        return _report(self)

    def write_report(self, path) -> None:
        Path(path).write_text(self.report_html(), encoding="utf-8")

    def write_feedback(self, folder) -> dict:
        """One self-contained HTML page per graded or listed student in ``folder`` (``<id>.html``), in the
        assignment's language: each question, the answer, the verdict, the diagnosis and the first hint.

        A page holds only its student's rows; an unanswered question shows no key; no script.

        Returns
        -------
        dict of str to Path
        """
        folder = folder_for_writing(folder, "feedback")
        written = {}
        by_student: dict[str, list] = defaultdict(list)
        for row in self.rows:
            by_student[row.student].append(row)
        with using_language(self.lang):
            # the first step of each exercise's hint ladder (the metric's concept): it never gives the answer
            first_hints = {i: _(exercises.get(i).hints[0]) for i, _points in self.exercises}
            for student, rows in by_student.items():
                written[student] = write_inside(folder, f"{student}.html", _feedback_page(self, rows, first_hints),
                                                "feedback")
        return written


def _png(figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _plots(book: Gradebook) -> list[tuple[str, str]]:
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    ids = [i for i, _ in book.exercises]
    plots = []
    figure = Figure(figsize=(7, 0.45 * len(ids) + 1.2))
    axes = figure.subplots()
    shares = [100 * book.share_right(i) for i in ids]
    axes.barh(ids[::-1], shares[::-1], color=COLORS["bar"])
    axes.set_xlim(0, 100)
    axes.set_xlabel("students right (%)")
    axes.set_title("Share right per exercise")
    plots.append(("Share right per exercise", _png(figure)))
    figure = Figure(figsize=(7, 0.45 * len(ids) + 1.4))
    axes = figure.subplots()
    # the palette of every plot, and a hatch per status: right and wrong differ in more than colour
    styles = {"right": (PALETTE["blue"], ""), "wrong": (PALETTE["vermillion"], "\\\\"),
              "too coarse": (PALETTE["orange"], ".."), "unreadable": (PALETTE["reddish_purple"], "xx"),
              "not answered": (PALETTE["grey"], "//"), "not graded": (PALETTE["black"], ""),
              "to mark": (PALETTE["sky_blue"], "--")}
    left = [0] * len(ids)
    for status in STATUSES:
        counts = [sum(r.status == status for r in book.rows if r.exercise == i) for i in ids]
        colour, hatch = styles[status]
        axes.barh(ids[::-1], counts[::-1], left=left[::-1], color=colour, hatch=hatch, edgecolor="white",
                  label=status)
        left = [a + b for a, b in zip(left, counts)]
    axes.set_xlabel("students")
    axes.set_title("Answers per exercise")
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    plots.append(("Answers per exercise", _png(figure)))
    return plots


_STYLE = """
body{font-family:system-ui,"Noto Sans CJK SC",sans-serif;margin:2em;max-width:72em;color:#222}
table{border-collapse:collapse;margin:0.5em 0 1.5em}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;
vertical-align:top}th{background:#f3f3f3}td.n{text-align:right}code{background:#f6f6f6;padding:0 3px}
.bar{display:inline-block;height:0.8em;background:#2e7d32}.problem{color:#b71c1c}img{max-width:100%}
"""


_STYLE = """
body{font-family:system-ui,"Noto Sans CJK SC",sans-serif;margin:2em;max-width:72em;color:#222}
table{border-collapse:collapse;margin:0.5em 0 1.5em}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;
vertical-align:top}th{background:#f3f3f3}td.n{text-align:right}code{background:#f6f6f6;padding:0 3px}
.bar{display:inline-block;height:0.8em;background:#2e7d32}.problem{color:#b71c1c}img{max-width:100%}
"""


def _report(book: Gradebook) -> str:
    esc = html.escape
    students = sorted({r.student for r in book.rows})
    graded = {r.student for r in book.rows if r.status != "not graded"}
    out = ["<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
           f"<title>Class report: {esc(book.assignment)}</title><style>{_STYLE}</style></head><body>",
           f"<h1>Class report: {esc(book.assignment)}</h1>",
           (f"<p>{len(students)} students on the roster, {len(graded)} graded, {len(book.problems)} "
            f"submission problem{'s' if len(book.problems) != 1 else ''}. Every answer was rechecked from the "
            "student's seed in the assignment record; no notebook was run.</p>")]
    out.append("<h2>Per exercise</h2><table id='summary'><tr><th>exercise</th><th>points</th><th>right</th>"
               "<th>share right</th><th>wrong</th><th>too coarse</th><th>unreadable</th><th>not answered</th>"
               "<th>not graded</th><th>to mark</th></tr>")
    for exercise_id, points in book.exercises:
        rows = [r for r in book.rows if r.exercise == exercise_id]
        count = Counter(r.status for r in rows)
        share = book.share_right(exercise_id)
        out.append(f"<tr data-exercise='{esc(exercise_id)}'><td><code>{esc(exercise_id)}</code></td>"
                   f"<td class='n'>{points}</td><td class='n'>{count['right']}</td>"
                   f"<td>{share:.0%} <span class='bar' style='width:{share * 6:.2f}em'></span></td>"
                   + "".join(f"<td class='n'>{count[s]}</td>" for s in STATUSES[1:]) + "</tr>")
    out.append("</table>")
    for title, image in _plots(book):
        out.append(f"<figure><img alt='{esc(title)}' src='{image}'><figcaption>{esc(title)}</figcaption></figure>")
    out.append("<h2>The most common slips</h2>")
    for exercise_id, _points in book.exercises:
        rows = [r for r in book.rows if r.exercise == exercise_id and r.slip]
        if not rows:
            continue
        out.append(f"<h3><code>{esc(exercise_id)}</code></h3><table class='slips' data-exercise='{esc(exercise_id)}'>"
                   "<tr><th>slip</th><th>students</th><th>what it is</th><th>an example</th></tr>")
        for slip, n in book.slip_counts(exercise_id).most_common():
            example = next(r for r in rows if r.slip == slip)
            out.append(f"<tr data-slip='{esc(slip)}'><td><code>{esc(slip)}</code></td><td class='n'>{n}</td>"
                       f"<td>{esc(example.diagnosis)}</td><td>{esc(example.student)} wrote "
                       f"<code>{esc(example.answer)}</code></td></tr>")
        out.append("</table>")
    out.append("<h2>Who needs which hint</h2><table id='hints'><tr><th>exercise</th><th>students</th>"
               "<th>tell them</th><th>what they wrote (up to 3)</th></tr>")
    for exercise_id, _points in book.exercises:
        groups = defaultdict(list)
        for r in book.rows:
            if r.exercise == exercise_id and r.status in ("wrong", "too coarse", "unreadable"):
                groups[r.diagnosis if r.slip else (r.hint or r.diagnosis)].append(r)
        for advice, rows in sorted(groups.items(), key=lambda item: -len(item[1])):
            answers = list(dict.fromkeys(r.answer for r in rows))[:3]
            shown = " ".join(f"<code>{esc(_short(a, 80))}</code>" for a in answers)
            who = ", ".join(f"{r.student} ({r.name})" if r.name else r.student for r in rows)
            out.append(f"<tr><td><code>{esc(exercise_id)}</code></td><td>{esc(who)}</td>"
                       f"<td>{esc(advice)}</td><td>{shown}</td></tr>")
    out.append("</table>")
    to_mark = [(i, exercises.get(i)) for i, _points in book.exercises
               if any(r.exercise == i and r.status == "to mark" for r in book.rows)]
    if to_mark:
        out.append("<h2>To mark by hand</h2><p id='to-mark-note'>Written answers are never graded by the checker: "
                   "read each against the model answer and give the points in an overrides file "
                   "(<code>student,exercise,points,note</code>; <code>ltr-teach grade --overrides</code>).</p>")
        with using_language(book.lang):
            for exercise_id, ex in to_mark:
                model = ex.model if hasattr(ex, "model") else ""
                out.append(f"<h3><code>{esc(exercise_id)}</code> · {esc(ex.title)}</h3>"
                           f"<p><b>Question:</b> {esc(ex.prompt)}</p>"
                           f"<p class='model'><b>Model answer:</b> {esc(model)}</p>"
                           f"{_rubric_html(ex)}"
                           f"<table class='to-mark' data-exercise='{esc(exercise_id)}'><tr><th>student</th>"
                           "<th>answer</th></tr>")
                out += [f"<tr data-student='{esc(r.student)}'><td>{esc(r.student)}</td><td>{esc(r.answer)}</td></tr>"
                        for r in book.rows if r.exercise == exercise_id and r.status == "to mark"]
                out.append("</table>")
    out.append("<h2>Points per student</h2>")
    if book.partial:
        rule = ", ".join(f"{kind}: {Fraction(share)} of the points" for kind, share in book.partial.items())
        out.append(f"<p id='partial'>Partial credit, as the assignment states: {esc(rule)} "
                   "(a slip is a wrong number whose mistake the checker names; a wrong option gets nothing).</p>")
    out.append("<table id='totals'><tr><th>student</th><th>name</th><th>points</th><th>of</th><th>overridden</th></tr>")
    overridden = book.override_notes()
    for student, name, points, most in book.totals():
        notes = overridden.get(student, [])
        out.append(f"<tr data-student='{esc(student)}'><td>{esc(student)}</td><td>{esc(name)}</td>"
                   f"<td class='n'>{points_text(points)}</td><td class='n'>{most}</td>"
                   f"<td>{esc('; '.join(notes))}</td></tr>")
    out.append("</table>")
    out.append("<h2>Which notebook was graded</h2><table id='submissions'><tr><th>student</th><th>name</th>"
               "<th>graded file</th><th>why this one</th><th>late</th><th>not graded</th></tr>")
    names = {s: n for s, n, _points, _most in book.totals()}
    for student, taken in book.submissions.items():
        out.append(f"<tr data-student='{esc(student)}'><td>{esc(student)}</td><td>{esc(names.get(student, ''))}</td>"
                   f"<td><code>{esc(taken.file)}</code></td><td>{esc(taken.reason)}</td>"
                   f"<td>{'late' if taken.late else ''}</td>"
                   f"<td>{esc(', '.join(taken.ignored))}</td></tr>")
    out.append("</table>")
    late = [s for s, taken in book.submissions.items() if taken.late]
    out.append(f"<h2>Late submissions</h2><p id='late'>{esc(', '.join(late)) if late else 'None.'}</p>")
    empty = book.ungraded()
    out.append("<h2>Left empty in the LMS files</h2><p id='empty'>"
               + (esc(", ".join(f"{s} ({names[s]})" if names.get(s) else s for s in empty)) +
                  ": no notebook of theirs was graded, so their cell is left empty (no grade) rather than 0, which "
                  "both Canvas and Moodle would store as a real zero." if empty else "None.") + "</p>")
    out.append("<h2>Submission problems</h2>")
    if book.problems:
        out.append("<table id='problems'><tr><th>student or file</th><th>problem</th></tr>")
        out += [f"<tr class='problem'><td>{esc(who)}</td><td>{esc(text)}</td></tr>" for who, text in book.problems]
        out.append("</table>")
    else:
        out.append("<p>None: every student handed in one readable notebook.</p>")
    out.append("</body></html>")
    return "\n".join(out)


_VERDICTS = {"right": N_("right"), "wrong": N_("wrong"), "too coarse": N_("too coarse"),
             "unreadable": N_("unreadable"), "not answered": N_("not answered"), "not graded": N_("not graded"),
             "to mark": N_("marked by your teacher")}


def _feedback_page(book: Gradebook, rows: list, first_hints: dict) -> str:
    """One student's feedback: only their rows; no key; no script; every text escaped."""
    esc = html.escape
    first = rows[0]
    total = sum(Fraction(r.points) for r in rows)
    most = sum(r.max_points for r in rows)
    title = _("Feedback: {assignment}").format(assignment=book.assignment)
    who = f"{first.student} ({first.name})" if first.name else first.student
    out = ["<!DOCTYPE html>", f"<html lang='{'zh-CN' if book.lang == 'zh' else 'en'}'><head><meta charset='utf-8'>",
           "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'\">",
           f"<title>{esc(title)}</title><style>{_STYLE}</style></head><body>",
           f"<h1>{esc(title)}</h1>",
           f"<p id='student'>{esc(_('Student: {who}').format(who=who))}</p>",
           "<p id='total'>" + esc(_("Points: {points} of {most}").format(points=points_text(_whole(total)), most=most)
                                  if book.has_grade(first.student) else
                                  _("Points: none yet (not graded; the assignment has {most})").format(most=most))
           + "</p>"]
    if first.status == "not graded":  # the reason may name another student's file: not shown here
        reason = (_("no notebook of yours was found among the submissions") if first.problem == "no submission"
                  else _("your notebook could not be graded as handed in; your teacher will tell you why"))
        out.append(f"<p class='problem'>{esc(reason)}</p>")
    out.append(f"<table id='answers'><tr><th>{esc(_('question'))}</th><th>{esc(_('your answer'))}</th>"
               f"<th>{esc(_('verdict'))}</th><th>{esc(_('points'))}</th><th>{esc(_('what went wrong'))}</th>"
               f"<th>{esc(_('a first hint'))}</th></tr>")
    for number, row in enumerate(rows, start=1):
        try:
            ex = exercises.get(row.exercise)
            question = f"{number}. {ex.title}"
        except (KeyError, ValueError):
            question = f"{number}. {row.exercise}"
        shown = row.status in ("wrong", "too coarse", "unreadable")
        points = f"{points_text(row.points)} / {row.max_points}"
        if row.override:
            points += " · " + _("changed by your teacher: {note}").format(note=row.override)
        out.append(f"<tr data-exercise='{esc(row.exercise)}'><td>{esc(question)} <code>{esc(row.exercise)}</code></td>"
                   f"<td><code>{esc(_short(row.answer, 200))}</code></td><td>{esc(_(_VERDICTS[row.status]))}</td>"
                   f"<td>{esc(points)}</td><td>{esc(_(row.diagnosis) if shown else '')}</td>"
                   f"<td>{esc(first_hints.get(row.exercise, '') if row.status != 'right' else '')}</td></tr>")
    out.append("</table></body></html>")
    return "\n".join(out)


def _rubric_html(exercise) -> str:
    """The criteria a written answer is marked by, each with its points (``written(..., rubric=...)``)."""
    rubric = getattr(exercise, "rubric", ())
    if not rubric:
        return ""
    items = "".join(f"<li>[{points}] {html.escape(text)}</li>" for points, text in rubric)
    total = sum(points for points, _text in rubric)
    return (f"<p><b>Rubric</b> ({total} points in all; give the overrides file this exercise's share):</p>"
            f"<ul class='rubric'>{items}</ul>")
