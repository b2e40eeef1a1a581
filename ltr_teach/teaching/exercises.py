"""Exercises: the registry over the bank modules, per-student variants and sheets.

The exercises live in ``ltr_teach/teaching/bank/<family>.py``, one module per family (one exercise
notebook each), listed in course order by ``bank/__init__.py``. Each exercise is one of the kinds of
:mod:`.kinds`: compute (a number the library defines by one call), choice (analyse, evaluate, spot,
predict) or create (the student builds a ranking). :func:`variant` gives each student a version of a
compute exercise with new numbers: the same seed always gives the same numbers, and the numbers stay
small enough to compute by hand.

>>> import ltr_teach as lt
>>> ex = lt.exercises.get("map-doc000")
>>> ex.answer
599/840
>>> ex.call
'lt.mean_average_precision([[1, 1, 0, 0, 1, 0, 0], [0, 1, 1, 0, 0, 1, 1]])'
>>> lt.exercises.variant("map-doc000", 7).answer == lt.exercises.variant("map-doc000", 7).answer
True
"""

from __future__ import annotations

import dataclasses
import difflib
import importlib
import inspect
import random
from collections.abc import Mapping

from ..core.deferred import stored
from ..core.i18n import _
from ..metrics.registry import METRICS
from . import bank
from .guide import how_to_answer  # noqa: F401  (lt.exercises.how_to_answer(), shown atop every sheet)
from .hints import GENERIC_HINTS, expected_text
from .kinds import (
    CHOICE_KINDS,
    CONCEPTS,
    KINDS,
    SHAPES,
    ChoiceExercise,
    CreateExercise,
    DeriveExercise,
    Exercise,
    HintBox,
    WrittenExercise,
    _thaw,
    choice,
    create,
    derive,
    example_text,
    written,
)

#: Each family's exercises by id, filled one bank module at a time: ``get`` (``ltr-teach check``) imports only
#: the module of the exercise asked for (issue 21: the whole bank takes longer to import than the command may).
_BY_FAMILY: dict = {}


def _family(key: str) -> dict:
    """The exercises of family ``key`` by id, in its module's order; imports that bank module only."""
    if key not in _BY_FAMILY:
        module = importlib.import_module(f"{bank.__name__}.{key}")
        if module.FAMILY[0] != key:
            raise RuntimeError(f"bank module {module.__name__} says family {module.FAMILY[0]!r}, not {key!r}")
        written = bank.source_ids(key)
        registered = [e.id for e in module.EXERCISES]
        if written is not None and sorted(registered) != sorted(written):
            raise RuntimeError(f"bank module {module.__name__} registers {registered} but its source writes "
                               f"{list(written)}: build each exercise with its id and then its family as string "
                               f'literals, e.g. choice("an-id", family="{key}", ...) (`ltr-teach check` finds an '
                               "exercise's module by reading them)")
        found = {}
        for exercise in module.EXERCISES:
            if exercise.family != key:
                raise RuntimeError(f"exercise {exercise.id!r} in bank module {module.__name__} says family "
                                   f"{exercise.family!r}, not {key!r}")
            if exercise.id in found:
                raise RuntimeError(f"exercise id {exercise.id!r} is registered twice")
            found[exercise.id] = exercise
        _BY_FAMILY[key] = found
    return _BY_FAMILY[key]


def _build_registry() -> dict:
    registry = {}
    for key in bank.FAMILY_KEYS:
        for exercise_id, exercise in _family(key).items():
            if exercise_id in registry:
                raise RuntimeError(f"exercise id {exercise_id!r} is registered twice")
            registry[exercise_id] = exercise
    return registry


def _registry() -> dict:
    """Every exercise by id, in course order (every bank module imported): ``_REGISTRY``, built once."""
    if "_REGISTRY" not in globals():
        globals()["_REGISTRY"] = _build_registry()
    return globals()["_REGISTRY"]


def __getattr__(name):
    # the whole registry and the families' titles import every bank module: built when first read (PEP 562)
    if name == "_REGISTRY":
        return _registry()
    if name == "_EXERCISES":
        value = globals()[name] = list(_registry().values())
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Families(Mapping):
    """The families' titles, read from their bank modules when first looked up (the keys need no import)."""

    def _titles(self) -> dict:
        if "titles" not in self.__dict__:
            self.__dict__["titles"] = {module.FAMILY[0]: module.FAMILY[1] for module in bank.MODULES}
        return self.__dict__["titles"]

    def __getitem__(self, key):
        return self._titles()[key]

    def __iter__(self):
        return iter(self._titles())

    def __len__(self) -> int:
        return len(self._titles())

    def __repr__(self) -> str:
        return repr(self._titles())


#: The exercise families in course order, key to title (a message id: show it with ``translate``).
FAMILIES = _Families()


def all() -> list[Exercise]:  # shadows the builtin on purpose: the issue names it lt.exercises.all()
    """Every registered exercise, grouped by family in :data:`FAMILIES` order.

    Returns
    -------
    list of Exercise, ChoiceExercise or CreateExercise
        Every exercise of the bank modules, one family after the other (precision and recall first),
        each family in its module's order.

    Examples
    --------
    >>> import ltr_teach as lt
    >>> exercises = lt.exercises.all()
    >>> exercises[0].id, exercises[0].family, exercises[0].kind
    ('p-at-2-doc001', 'precision_recall', 'compute')
    """
    return list(_registry().values())


def ids() -> list[str]:
    """The exercise ids, in :func:`all` order.

    Returns
    -------
    list of str

    Examples
    --------
    >>> import ltr_teach as lt
    >>> lt.exercises.ids()[:3]
    ['p-at-2-doc001', 'p-at-5', 'start-p3-irrelevant-down']
    """
    return [e.id for e in all()]


def get(exercise_id: str) -> Exercise:
    """The exercise with this id; ``ValueError`` naming the closest ids otherwise.

    Parameters
    ----------
    exercise_id : str
        One of :func:`ids`.

    Returns
    -------
    Exercise
        The registered exercise, with the post's numbers.

    Examples
    --------
    The lipstick ranking of post 000: grades 3, 2, 3, 0, 1, 2, 2, NDCG over all 7 ranks.

    >>> import ltr_teach as lt
    >>> lt.exercises.get("ndcg-lipstick").call
    'lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7)'

    A misspelt id names the closest ones:

    >>> lt.exercises.get("ndcg-lipstik")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: exercise_id = 'ndcg-lipstik' is not an exercise; did you mean ndcg-lipstick, idcg-lipstick, dcg-lipstick-log2? (`ltr-teach exercises list` shows all ...)
    """
    registry = globals().get("_REGISTRY")  # once built, the registry decides (a caller may have added to it)
    if registry is None:
        # the bank's source says which module registers the id (the registry checks that it does): only that
        # module is imported, and an unknown id is told from the ids written (issue 21: `ltr-teach check` is fast)
        family = bank.family_of(exercise_id) if isinstance(exercise_id, str) else None
        if family is not None:
            return _family(family)[exercise_id]
        every = bank.all_source_ids()
        if every is None:  # a module's source cannot be read: every module is imported
            registry = _registry()
    if registry is not None:
        if isinstance(exercise_id, str) and exercise_id in registry:
            return registry[exercise_id]
        every = list(registry)
    close = difflib.get_close_matches(str(exercise_id), every, n=3, cutoff=0.6)
    guess = f"did you mean {', '.join(close)}? " if close else ""
    raise ValueError(f"exercise_id = {exercise_id!r} is not an exercise; {guess}"
                     f"(`ltr-teach exercises list` shows all {len(every)})")


#: Draws of random data a variant may take before giving up (see :attr:`Exercise.point`).
_MAX_DRAWS = 10_000


def variant(exercise_id: str, seed) -> Exercise:
    """A student's version of an exercise with new numbers, the same for the same seed.

    The numbers come from ``random.Random(f"{exercise_id}:{seed}")`` (string seeds are hashed with
    SHA-512, so the variant does not depend on the Python process). ``seed=None`` gives the
    registered exercise.

    Parameters
    ----------
    exercise_id : str
        One of :func:`ids`.
    seed : int or None
        One per student.

    Returns
    -------
    Exercise
        The exercise with new numbers (never the worked example's), its answer recomputed.

    Examples
    --------
    Seed 7 of the P@k exercise draws relevance 0, 1, 0, 0, 1, 1 and k = 4: one hit (rank 2) in
    the top 4, so P@4 = 1/4.

    >>> import ltr_teach as lt
    >>> ex = lt.exercises.variant("p-at-2-doc001", 7)
    >>> ex.call, ex.answer
    ('lt.precision_at_k([0, 1, 0, 0, 1, 1], k=4)', 1/4)
    """
    base = get(exercise_id)
    if seed is None:
        return base
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed = {seed!r} must be a whole number (one per student)")
    rng = random.Random(f"{exercise_id}:{seed}")
    if base.kind != "compute":  # a choice or create exercise is the same for everyone unless it says otherwise
        if base.randomize is None:
            return base
        return dataclasses.replace(base, seed=seed, **base.randomize(rng))
    names = inspect.signature(METRICS[base.metric].func).parameters

    def metric_arguments(data):
        return {k: v for k, v in data.items() if k in names}

    worked = metric_arguments(_thaw(base.data))
    for _draw in range(_MAX_DRAWS):  # never the worked numbers again, and always the exercise's point
        data = base.randomize(rng, _thaw(base.data))
        if metric_arguments(data) != worked and (base.point is None or base.point(data)):
            break
    else:  # each draw keeps the point with a probability above 1/5: this is never reached in practice
        raise RuntimeError(f"no variant of {exercise_id!r} for seed {seed} after {_MAX_DRAWS} draws")
    return Exercise(id=base.id, family=base.family, metric=base.metric, data=data, task=base.task,
                    procedure=(GENERIC_HINTS[base.metric],), intro=stored(base, "intro"), source=base.source,
                    randomize=base.randomize, seed=seed, point=base.point,
                    story=base.story, worked=base.worked, erratum=base.erratum, difficulty=base.difficulty)


def answer_text(ex) -> str:
    """The key's answer: the exact value with its decimal, the right option's key, or one valid ranking."""
    if ex.kind == "compute":
        return expected_text(ex.answer)
    if ex.kind == "create":
        return _("for example {example}").format(example=ex.answer)
    if ex.kind == "written":
        return _("marked by the teacher")
    return ex.answer


def _one_line(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _rubric_cell(ex) -> str:
    from .kinds import rubric_text

    return " " + _("Rubric (points in brackets): {rubric}").format(rubric=_one_line(rubric_text(ex.rubric_ids)))


def call_text(ex) -> str:
    """The key's "library call" column: the call for a compute exercise, the option's text for a choice, the
    model derivation or the model answer (the teacher's) for a derivation or a written answer."""
    if ex.kind == "compute":
        return f"`{ex.call}`"
    if ex.kind == "create":
        return _("checked by its verifier")
    if ex.kind == "written":
        return _("model answer: {model}").format(model=_one_line(ex.model)) + _rubric_cell(ex)
    if ex.kind == "derive":
        return _("“{option}”; model derivation: {model}").format(option=_one_line(ex.option_text(ex.answer)),
                                                                  model=_one_line(ex.model)) + _rubric_cell(ex)
    return _one_line(ex.option_text(ex.answer))


# -- sheets -------------------------------------------------------------------------------------------
def sheet(seeds, exercise_ids=None) -> tuple[str, str]:
    """A Markdown exercise sheet per seed (one per student) and the teacher's key, as two texts.

    Parameters
    ----------
    seeds : iterable of int
        One seed per student; each gets its own section with its own numbers.
    exercise_ids : list of str, optional
        Which exercises (default: all).

    Returns
    -------
    tuple of str
        The students' sheet and the teacher's key, both Markdown.

    Examples
    --------
    Seed 7 of the P@k exercise: relevance 0, 1, 0, 0, 1, 1, one hit in the top 4, so the key
    says P@4 = 1/4 = 0.25.

    >>> import ltr_teach as lt
    >>> students, key = lt.exercises.sheet([7], ["p-at-2-doc001"])
    >>> print(key)
    # Answer key
    <BLANKLINE>
    ## Seed 7
    <BLANKLINE>
    | exercise | answer | library call |
    |---|---|---|
    | p-at-2-doc001 | 1/4 = 0.25 | `lt.precision_at_k([0, 1, 0, 0, 1, 1], k=4)` |
    <BLANKLINE>
    """
    chosen = [get(i) for i in exercise_ids] if exercise_ids else all()
    seeds = list(seeds)
    sheet_lines, key_lines = [_("# Ranking evaluation exercises"), ""], [_("# Answer key"), ""]
    for seed in seeds:
        how = _("Check an answer with `ltr-teach check ID ANSWER --seed {seed}` or "
                "`lt.check(\"ID\", answer, seed={seed})`.").format(seed=seed)
        sheet_lines += [_("## Sheet for seed {seed}").format(seed=seed), "", how, ""]
        key_lines += [_("## Seed {seed}").format(seed=seed), "", _("| exercise | answer | library call |"),
                      "|---|---|---|"]
        for n, base in enumerate(chosen, start=1):
            ex = variant(base.id, seed)
            prompt = "\n".join(f"   {line}" if line else "" for line in ex.prompt.splitlines())
            sheet_lines += [f"{n}. **{ex.id}** · {ex.title} · {ex.level_text}", "", prompt, ""]
            if ex.kind in CHOICE_KINDS:
                sheet_lines += [f"   - `{key}`: {ex.option_text(key)}" for key in ex.options] + [""]
            key_lines.append(f"| {ex.id} | {answer_text(ex)} | {call_text(ex)} |")
        sheet_lines.append("")
        key_lines.append("")
    return "\n".join(sheet_lines), "\n".join(key_lines)


__all__ = ["CHOICE_KINDS", "CONCEPTS", "FAMILIES", "KINDS", "SHAPES", "ChoiceExercise", "CreateExercise",
           "DeriveExercise", "Exercise", "HintBox", "WrittenExercise", "all", "answer_text", "call_text", "choice",
           "create", "derive", "example_text", "get", "ids", "sheet", "variant", "written"]
