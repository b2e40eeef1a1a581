"""The examples of the README and of the site's user guide run unchanged and print what they show.

The README is the front page; the sections it had before are the user guide's pages (``site/en/guide/``,
in its toctree's order). Each ```python block of the README and then of each page runs in order in one
namespace; a line followed by ``# value`` comments is checked against what the library gives (the comment
is either the value's repr, its float, or the explanation's result line). The text blocks that show a
printed table or the CLI's output are compared with the real output, character for character. The
README itself stays a front page: at most 200 lines, pointing to the site for the rest.
"""

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import ltr_teach as lt

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "site" / "en" / "guide"


def _guide_pages() -> list[Path]:
    """The user guide's pages in its toctree's order (site/en/guide/index.md)."""
    index = (GUIDE / "index.md").read_text(encoding="utf-8")
    toctree = re.search(r"```\{toctree\}\n(.*?)```", index, re.DOTALL).group(1)
    return [GUIDE / f"{line.strip()}.md" for line in toctree.splitlines() if line.strip() and not line.startswith(":")]


#: The README, then every page of the user guide: what a reader follows in order.
DOCS = [ROOT / "README.md", *_guide_pages()]
README = "\n".join(path.read_text(encoding="utf-8") for path in DOCS)
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", README, flags=re.DOTALL)


def _python_blocks():
    return [body for kind, body in BLOCKS if kind == "python"]


def _text_after(marker: str) -> str:
    """The first ```text block after ``marker`` in the README and the guide."""
    start = README.index(marker)
    match = re.compile(r"```text\n(.*?)```", re.DOTALL).search(README, start)
    return match.group(1)


def _shown(value) -> set[str]:
    """The ways a README comment may show a value."""
    forms = {repr(value), str(value)}
    if isinstance(value, lt.Explanation):
        forms.add(str(value).splitlines()[-1])
    try:
        forms.add(repr(float(value)))
    except (TypeError, ValueError):
        pass
    return forms


def _is_value(comment: str) -> bool:
    """A comment that shows a value: a number or exact expression, or an explanation's result line."""
    expression = r"[0-9./+\-*() ]*((log2|ln)\([0-9]+\)[0-9./+\-*() ]*)*"
    return bool(comment) and (re.fullmatch(expression, comment) is not None and any(c.isdigit() for c in comment)
                              or re.match(r"[A-Z][A-Za-z0-9@]* = ", comment) is not None)


def test_every_python_block_runs_and_its_comments_show_the_result():
    namespace: dict = {}
    checked = 0
    for body in _python_blocks():
        if "ValueError:" in body:  # the block that shows an error: it must raise exactly that
            expected = re.search(r"# ValueError: (.*)", body).group(1).strip()
            with pytest.raises(ValueError, match=re.escape(expected)):
                exec(compile(body, "README", "exec"), namespace)  # noqa: S102 - the README's own code, not user input
            continue
        tree = ast.parse(body)
        lines = body.splitlines()
        for node in tree.body:
            code = ast.get_source_segment(body, node)
            if isinstance(node, ast.Expr):
                value = eval(compile(ast.Expression(node.value), "README", "eval"), namespace)
                trailing = lines[node.end_lineno - 1][len(lines[node.end_lineno - 1].split("#")[0]):]
                following = lines[node.end_lineno:node.end_lineno + 1]
                comment = trailing.lstrip("# ").strip() if trailing.startswith("#") or "#" in trailing else ""
                if following and following[0].startswith("# "):
                    comment = following[0][2:].strip()
                if _is_value(comment) and not isinstance(value, str):
                    assert comment in _shown(value), f"README says {comment!r} for {code!r}; got {_shown(value)}"
                    checked += 1
            else:
                exec(compile(ast.Module([node], []), "README", "exec"), namespace)  # noqa: S102 - the README's code
    assert checked >= 5  # the comparison above really ran


def test_the_first_example_prints_the_table_shown():
    assert str(lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7)) + "\n" == _text_after("`print(ex)` shows:")


def test_compare_conventions_prints_the_table_shown():
    table = lt.compare_conventions([0, 3, 2, 1, 0], scores=[1.0, 0.8, 0.8, 0.5, 0.4],
                                   docids=["d3", "d1", "d2", "d4", "d9"], ideal=[3, 2, 0, 1, 2])
    shown = _text_after("ideal=pool))` prints:")
    assert str(table) + "\n" == shown


@pytest.mark.parametrize(("args", "marker"), [
    (["-m", "ndcg", "-m", "map", "-m", "mrr", "-m", "p@3", "--per-query"], "--per-query` prints a"),
    (["-m", "ndcg", "-m", "map", "-m", "mrr", "-m", "p@3", "--convention", "lightgbm"], "and with `--convention lightgbm`"),
])
def test_the_eval_example_prints_the_output_shown(tmp_path, args, marker):
    (tmp_path / "qrels.txt").write_text(_text_after("With `qrels.txt`"), encoding="utf-8")
    (tmp_path / "run.txt").write_text(_text_after("and `run.txt`"), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    out = subprocess.run([sys.executable, "-m", "ltr_teach.cli", "eval", "qrels.txt", "run.txt", *args],
                         cwd=tmp_path, env=env, capture_output=True, text=True, encoding="utf-8", check=True).stdout
    assert out == _text_after(marker)


def test_the_readme_is_a_front_page_and_the_guide_holds_the_rest():
    """At most 200 lines, the two commands, the three ways to take the course; every section the README
    used to hold is a page of the user guide, and every page of the guide is in its toctree."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    assert "make tutorial" in readme and "make test" in readme
    assert "## Three ways to take the course" in readme and "make site" in readme and "make lite" in readme
    titles = {path.stem: path.read_text(encoding="utf-8").splitlines()[0] for path in DOCS[1:]}
    for stem, heading in {"conventions": "# Conventions", "evaluating": "# Evaluating a run",
                          "comparing": "# Comparing runs", "speed": "# Speed", "limits": "# Limits",
                          "classroom": "# Classroom", "install": "# Installing", "metrics": "# Metrics",
                          "course": "# The course", "cli_examples": "# The command line", "layout": "# Project layout"}.items():
        assert titles[stem].startswith(heading), (stem, titles[stem])
    assert sorted(path.name for path in GUIDE.glob("*.md")) == sorted(["index.md", *(path.name for path in DOCS[1:])])
