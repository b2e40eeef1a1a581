"""The exercise bank: one module per family (one exercise notebook each), in course order.

A module holds ``FAMILY = (key, N_(title))`` and ``EXERCISES = [...]``, built with ``_e`` (compute),
:func:`~ltr_teach.teaching.kinds.choice` and :func:`~ltr_teach.teaching.kinds.create`, imported from
:mod:`ltr_teach.teaching.kinds` (the registry :mod:`ltr_teach.teaching.exercises` imports this package,
so a bank module importing the registry would close a circle). A new family is a new module plus
one key in :data:`FAMILY_KEYS`.
"""

import importlib

#: The families in course order; each is the module of that name here, whose ``FAMILY[0]`` is the same key.
#: The modules are imported when :data:`MODULES` is first read: the command line lists the family keys in its
#: help without loading SymPy.
FAMILY_KEYS = ("precision_recall", "mrr_map", "dcg_ndcg", "err", "roc_auc", "comparing", "many_queries", "user_models",
               "choosing", "collections", "learning_to_rank")


def __getattr__(name):
    if name == "MODULES":
        modules = tuple(importlib.import_module(f"{__name__}.{key}") for key in FAMILY_KEYS)
        globals()["MODULES"] = modules
        return modules
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
