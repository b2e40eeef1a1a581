"""Whole runs: TREC qrels and run files (:mod:`.trec`) and bulk evaluation with NumPy floats
(:mod:`.evaluate`), whose every number equals the exact metric's under the same convention, and paired
significance tests between runs (:mod:`.compare`)."""

import importlib
import sys
import types

#: Each public name and its module, imported on first use: ``ltr_teach.runs.choices`` (the command line's help)
#: then loads no NumPy.
_WHERE = {"RunComparison": "compare", "compare_runs": "compare", "Evaluation": "evaluate", "evaluate": "evaluate",
          "read_qrels": "trec", "read_run": "trec", "write_qrels": "trec", "write_run": "trec"}


def __getattr__(name):
    if name in _WHERE:
        value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Package(types.ModuleType):
    """``ltr_teach.runs.evaluate`` stays the function, as when this package imported it eagerly: importing the
    submodule of the same name must not put the module in its place."""

    def __setattr__(self, name, value):
        if name == "evaluate" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


__all__ = ["Evaluation", "evaluate", "RunComparison", "compare_runs", "read_qrels", "read_run", "write_qrels", "write_run"]
