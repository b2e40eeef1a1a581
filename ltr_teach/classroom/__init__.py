"""The classroom: the tutorial in a student's folder, one assignment per student, grading a class.

Three jobs, each a function here and a command of ``ltr-teach``, one module per step (``tutorial``,
``roster``, ``assignment``, ``collect`` (folders, zips, LMS names), ``grading``, ``gradebook`` (report, feedback),
``lms`` (Canvas, Moodle)):

- :func:`copy_tutorial` (``ltr-teach tutorial``) copies the tutorial and exercise notebooks that
  ship with the package into a working folder, both editions with the layout of the repository
  (``notebooks/zh/``, ``notebooks/en/``, ``exercises/zh/`` ..., so the links between them work, and each
  edition's language file, so its kernels speak its language), and never overwrites a file the student
  has changed: the folder keeps a manifest of the SHA-256 of every file it was given.
- :func:`assign` (``ltr-teach assign``) writes one exercise notebook per student of a roster, each
  with the student's own numbers (:func:`ltr_teach.exercises.variant` with the student's seed), and
  the teacher's key and assignment record in a separate folder.
- :func:`grade` (``ltr-teach grade``) reads the returned notebooks as JSON (it never runs them),
  rechecks every answer with :func:`ltr_teach.check` from the seed in the teacher's record, and
  returns a :class:`Gradebook` that writes the gradebook CSV and a self-contained HTML report of
  the class's most common slips.

Seeds
-----
A student's seed is the roster's ``seed`` column when the roster has one, otherwise
:func:`student_seed`: ``int(sha256(f"{course}/{student_id}"), 16) % 1_000_000``, where ``course``
is a salt the teacher chooses per course and term (``--course``). The same roster and salt always
give the same seeds; a new salt gives every student new numbers.

>>> from ltr_teach.classroom import student_seed
>>> student_seed("s01", course="IR-2026")
458105
"""

from __future__ import annotations

from importlib import import_module

#: Every public name, by the module that defines it; a module is imported on first use (PEP 562), so
#: ``ltr-teach tutorial`` loads no grading and ``import ltr_teach.classroom`` stays light.
_WHERE = {
    "tutorial": ("TUTORIAL_FOLDERS", "START_PAGE", "START_PAGES", "start_page", "LANGUAGES", "MANIFEST",
                 "tutorial_source", "tutorial_files", "copy_tutorial", "lab_settings", "LAB_LOCALES", "TutorialCopy"),
    "roster": ("Student", "student_seed", "read_roster"),
    "points": ("points_text", "parse_partial", "PARTIAL_KINDS"),
    "assignment": ("parse_exercise_list", "student_notebook", "assign", "Assignment", "read_record", "ANSWER_TAG",
               "RECORD_FORMAT", "answer_cell_source"),
    "collect": ("find_record",),
    "grading": ("answer_from_cell", "grade", "read_overrides"),
    "gradebook": ("GradeRow", "Gradebook", "STATUSES", "CSV_COLUMNS"),
    "lms": ("EXPORTS",),
    "files": ("_csv_safe", "_shown"),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}
_MODULE_OF.update({"read_bytes_at_most": "..core.files", "NotARegularFile": "..core.files"})


def __getattr__(name):
    try:
        module = _MODULE_OF[name]
    except KeyError:
        raise AttributeError(f"module 'ltr_teach.classroom' has no attribute {name!r}") from None
    value = getattr(import_module(module if module.startswith(".") else f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_MODULE_OF))


__all__ = [name for name in _MODULE_OF if not name.startswith("_")]
