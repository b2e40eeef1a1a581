"""The exercise bank: one module per family (one exercise notebook each), in course order.

A module holds ``FAMILY = (key, N_(title))`` and ``EXERCISES = [...]``, built with ``_e`` (compute),
:func:`~ltr_teach.teaching.kinds.choice` and :func:`~ltr_teach.teaching.kinds.create`, imported from
:mod:`ltr_teach.teaching.kinds` (the registry :mod:`ltr_teach.teaching.exercises` imports this package,
so a bank module importing the registry would close a circle). A new family is a new module plus
one key in :data:`FAMILY_KEYS`.

Each exercise is built by a call whose first argument is its id and whose next is its family, both string
literals (``_e("id", "family", ...)``, ``choice("id", family="family", ...)``, any kind's constructor):
:func:`source_ids` reads the ids from a module's source text without importing it, so that ``ltr-teach check ID``
imports one module rather than the whole bank. The registry checks, whenever it imports a module, that its
``EXERCISES`` are the ids its source writes (a RuntimeError otherwise).
"""

import importlib
import os
import re

#: The families in course order; each is the module of that name here, whose ``FAMILY[0]`` is the same key.
#: The modules are imported when :data:`MODULES` is first read: the command line lists the family keys in its
#: help without loading SymPy.
FAMILY_KEYS = ("precision_recall", "mrr_map", "dcg_ndcg", "err", "roc_auc", "comparing", "many_queries", "user_models",
               "choosing", "collections", "learning_to_rank", "online", "capstone")

#: An exercise's id as its bank module writes it: a call's first argument, followed by the family's key (as the
#: second argument or ``family=``); ``{key}`` is the module's family.
_ID_IN_SOURCE = r'\b[A-Za-z_]\w*\(\s*"([a-z0-9][a-z0-9-]*)",\s*(?:family=)?"{key}"'
_SOURCE_IDS: dict = {}


def source_ids(key: str) -> tuple | None:
    """The exercise ids family ``key``'s module writes, in the source's order, read without importing it;
    None when the source cannot be read (a package installed as byte code only: the registry imports it)."""
    if key not in _SOURCE_IDS:
        try:
            with open(os.path.join(os.path.dirname(__file__), f"{key}.py"), encoding="utf-8") as source:
                _SOURCE_IDS[key] = tuple(re.findall(_ID_IN_SOURCE.format(key=re.escape(key)), source.read()))
        except (OSError, UnicodeDecodeError):
            _SOURCE_IDS[key] = None
    return _SOURCE_IDS[key]


def family_of(exercise_id: str) -> str | None:
    """The family whose module writes this exercise id; None when none does, or when a module's source cannot be
    read (then only importing every module can tell)."""
    for key in FAMILY_KEYS:
        ids = source_ids(key)
        if ids is None:
            return None
        if exercise_id in ids:
            return key
    return None


def all_source_ids() -> list | None:
    """Every exercise id the bank's modules write, family by family; None when a module's source cannot be read."""
    every = []
    for key in FAMILY_KEYS:
        ids = source_ids(key)
        if ids is None:
            return None
        every.extend(ids)
    return every


def __getattr__(name):
    if name == "MODULES":
        modules = tuple(importlib.import_module(f"{__name__}.{key}") for key in FAMILY_KEYS)
        globals()["MODULES"] = modules
        return modules
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
