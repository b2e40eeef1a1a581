"""Notebooks call the library only: no code cell of a notebook defines a function, a lambda or a class.

Each code cell is parsed with :mod:`ast` (IPython magics and shell lines, starting with ``%`` or ``!``,
are dropped first); the test fails on ``def``, ``async def``, ``lambda`` or ``class`` anywhere in it.
"""

import ast
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = [p for folder in ("notebooks", "exercises") for p in sorted((ROOT / folder).rglob("*.ipynb"))
             if ".ipynb_checkpoints" not in p.parts]


def _code_cells(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            kept = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
            yield index, kept


def definitions(source: str) -> list[str]:
    """What a cell defines: ``def name``, ``class Name`` or ``lambda`` (with its line)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append(f"def {node.name} (line {node.lineno})")
        elif isinstance(node, ast.ClassDef):
            found.append(f"class {node.name} (line {node.lineno})")
        elif isinstance(node, ast.Lambda):
            found.append(f"lambda (line {node.lineno})")
    return found


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def report(label):\n    print(label)", ["def report (line 1)"]),
        ("class Panel:\n    pass", ["class Panel (line 1)"]),
        ("METRICS = {'NDCG': lambda g: g}", ["lambda (line 1)"]),
        ("for k in range(3):\n    print(k)", []),
        ("async def fetch():\n    pass", ["def fetch (line 1)"]),
    ],
)
def test_definitions_finds_functions_classes_and_lambdas(source, expected):
    assert definitions(source) == expected


def test_every_notebook_is_found():
    # both editions of every course source (tests/test_course.py checks they match their sources)
    for folder in ("notebooks", "exercises"):
        sources = sorted(p.stem for p in (ROOT / "course" / folder).glob("*.md"))
        for lang in ("zh", "en"):
            assert sorted(p.stem for p in NOTEBOOKS if p.parent == ROOT / folder / lang) == sources
    assert len([p for p in NOTEBOOKS if p.parent.parent.name == "exercises"]) >= 10


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_notebook_defines_no_function_or_class(path):
    offending = [f"cell {index}: {what}" for index, source in _code_cells(path) for what in definitions(source)]
    assert offending == [], f"{path.name} defines code of its own; move it into the library: {offending}"
