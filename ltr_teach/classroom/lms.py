"""The totals in an LMS's grade-import CSV: Canvas's gradebook import and Moodle's "Import grades from CSV file"."""

from __future__ import annotations

from .files import _csv_safe, _csv_writer, _short
from .points import points_text

#: The LMS grade-import formats :meth:`Gradebook.export` writes.
EXPORTS = ("canvas", "moodle")


def export(book, path, lms: str, bom: bool = False) -> None:
    """The total per student in an LMS's grade-import CSV: ``canvas`` or ``moodle`` (see :data:`EXPORTS`)."""
    if lms not in EXPORTS:
        raise ValueError(f"export = {lms!r} is not a supported LMS; choose one of {', '.join(EXPORTS)}")
    column = _csv_safe(_short(book.assignment, 100))
    with open(path, "w", newline="", encoding="utf-8-sig" if bom else "utf-8") as handle:
        writer = _csv_writer(handle)
        if lms == "canvas":
            # Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID, Section, then one column
            # per assignment; the "Points Possible" row is optional. Rows are matched by SIS User ID here.
            writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", column])
            writer.writerow(["    Points Possible", "", "", "", "", points_text(sum(p for _, p in book.exercises))])
            for student, name, points, _most in book.totals():
                writer.writerow([_csv_safe(name), "", student, "", "", points_text(points)])
        else:
            # Moodle's "Import grades from CSV file": a column identifying the user (mapped to "ID number"
            # at import) and one column per grade item (mapped to the item), optional feedback column.
            writer.writerow(["ID number", "Full name", column, f"{column} (feedback)"])
            overridden = book.override_notes()
            for student, name, points, _most in book.totals():
                notes = "; ".join(overridden.get(student, []))
                writer.writerow([student, _csv_safe(name), points_text(points), _csv_safe(notes)])
