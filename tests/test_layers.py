"""The package's shape: layers import only lower layers, no module imports itself back, and every
public name is importable by the path the README and the notebooks document."""

import ast
import importlib
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "ltr_teach"

#: From the bottom up; a module may import its own layer and the layers before it (ARCHITECTURE.md).
LAYERS = ["core", "metrics", "runs", "teaching", "interactive", "top"]

#: Packages that sit beside a layer's package, in the same layer (ARCHITECTURE.md's table).
BESIDE = {"classroom": "teaching"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) >= 2 and parts[1] in BESIDE:
        return BESIDE[parts[1]]
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in LAYERS) else "top"


def _imports(path: Path) -> set[str]:
    """The package modules a file imports, at module level or inside functions alike."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("ltr_teach"):
                continue
            found.add(target)
            for alias in node.names:  # "from . import graded" imports a module
                if (ROOT / Path(*f"{target}.{alias.name}".split("."))).with_suffix(".py").exists():
                    found.add(f"{target}.{alias.name}")
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("ltr_teach")}
    return found - {module}


GRAPH = {_module_name(p): _imports(p) for p in PACKAGE.rglob("*.py")}


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_a_module_imports_no_higher_layer(module):
    own = LAYERS.index(_layer(module))
    higher = sorted(t for t in GRAPH[module] if LAYERS.index(_layer(t)) > own)
    assert not higher, f"{module} ({_layer(module)}) imports a higher layer: {higher}"


def test_no_import_circle():
    # Depth-first search over the module graph; a grey node met again closes a circle.
    colour, circles = {}, []

    def visit(node, path):
        colour[node] = "grey"
        for nxt in sorted(GRAPH.get(node, ())):
            nxt = nxt if nxt in GRAPH else nxt.rpartition(".")[0]
            if nxt not in GRAPH or nxt == node or node.startswith(nxt + ".") or nxt == "ltr_teach":
                continue  # a package's __init__ re-exporting its own modules is not a circle
            if colour.get(nxt) == "grey":
                circles.append(path + [nxt])
            elif nxt not in colour:
                visit(nxt, path + [nxt])
        colour[node] = "black"

    for start in sorted(GRAPH):
        if start not in colour:
            visit(start, [start])
    assert not circles, "import circles: " + "; ".join(" -> ".join(c) for c in circles)


def test_the_import_walker_sees_relative_and_nested_imports():
    # Known edges, so the two tests above cannot pass on an empty graph.
    assert "ltr_teach.core.explanation" in GRAPH["ltr_teach.metrics.graded"]       # from ..core.explanation import
    assert "ltr_teach.metrics.graded" in GRAPH["ltr_teach.metrics.compare"]        # from . import graded
    assert any(t.startswith("ltr_teach.teaching") for t in GRAPH["ltr_teach.cli"])  # imports inside functions
    assert _layer("ltr_teach.cli") == "top" and _layer("ltr_teach.teaching.checker") == "teaching"
    assert _layer("ltr_teach.classroom.grading") == "teaching" and _layer("ltr_teach.classroom") == "teaching"
    assert "ltr_teach.teaching.checker" in GRAPH["ltr_teach.classroom.grading"]


def _documented_imports():
    """Every ``from ltr_teach... import ...`` and ``lt.name`` the README, the site's user guide and the
    notebooks use."""
    texts = [path.read_text(encoding="utf-8")
             for path in [ROOT / "README.md", *sorted((ROOT / "site" / "en" / "guide").glob("*.md"))]]
    for nb in [p for folder in ("notebooks", "exercises") for p in sorted((ROOT / folder).rglob("*.ipynb"))
               if ".ipynb_checkpoints" not in p.parts]:
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        texts += ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    text = "\n".join(texts)
    pairs = set()
    for module, names in re.findall(r"from (ltr_teach[\w.]*) import ([\w, ]+)", text):
        pairs |= {(module, n.strip()) for n in names.split(",") if n.strip()}
    pairs |= {("ltr_teach", name) for name in re.findall(r"\blt\.([A-Za-z_]\w*)", text)}
    return sorted(pairs)


@pytest.mark.parametrize(("module", "name"), _documented_imports())
def test_every_documented_name_imports(module, name):
    assert hasattr(importlib.import_module(module), name), f"{module}.{name} is documented but missing"


def test_every_top_level_name_in_all_exists():
    import ltr_teach as lt

    missing = [n for n in lt.__all__ if not hasattr(lt, n)]
    assert not missing
