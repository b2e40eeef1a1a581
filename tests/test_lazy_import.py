"""``import ltr_teach`` is light (PEP 562): SymPy, NumPy, Matplotlib and ipywidgets load on first use of a name
that needs them, so the command line starts fast and the package imports under Pyodide before NumPy is there."""

from __future__ import annotations

import subprocess
import sys

import ltr_teach as lt

HEAVY = ("sympy", "numpy", "matplotlib", "ipywidgets", "mpmath")


def _loaded_after(code: str) -> list:
    script = code + f"\nimport sys\nprint(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, encoding="utf-8",
                          check=True)
    return done.stdout.strip().strip("[]").replace("'", "").split(", ") if done.stdout.strip() != "[]" else []


def test_importing_the_package_loads_none_of_the_heavy_libraries():
    assert _loaded_after("import ltr_teach; ltr_teach.__version__; ltr_teach.get_language()") == []


def test_a_metric_loads_what_it_needs_on_first_use():
    assert "sympy" in _loaded_after("import ltr_teach; ltr_teach.ndcg([3, 2, 0])")


def test_every_public_name_resolves_and_is_listed():
    for name in lt.__all__:
        assert getattr(lt, name) is not None, name
    assert set(lt.__all__) <= set(dir(lt))
    from ltr_teach import compare_systems, ndcg, verify  # noqa: F401 - the from-import form works too


def test_an_unknown_name_is_an_attribute_error():
    try:
        lt.no_such_metric  # noqa: B018 - the access is the test
    except AttributeError as exc:
        assert "no_such_metric" in str(exc)
    else:
        raise AssertionError("an unknown name resolved")


def test_importing_the_package_loads_no_classroom_module():
    # issue 31: the classroom became a package of its own; `import ltr_teach` still loads none of it, and
    # `lt.classroom` loads one step's module only when one of its names is used
    script = ("import sys, ltr_teach; ltr_teach.__version__; before = sorted(m for m in sys.modules if 'classroom' in m)\n"
              "ltr_teach.classroom.copy_tutorial\n"
              "after = sorted(m for m in sys.modules if 'classroom' in m)\nprint(before, after)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, encoding="utf-8", check=True)
    assert done.stdout.split() == ["[]", "['ltr_teach.classroom',", "'ltr_teach.classroom.files',",
                                   "'ltr_teach.classroom.tutorial']"]


def test_a_classroom_name_is_the_function_whichever_module_loaded_first():
    # a module named like a public function would shadow it once imported (``classroom.grade`` the module)
    script = ("from ltr_teach import classroom as c; c.grade; c.read_record; "
              "print(callable(c.grade), callable(c.assign), type(c.Gradebook).__name__)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, encoding="utf-8", check=True)
    assert done.stdout.split() == ["True", "True", "type"]
