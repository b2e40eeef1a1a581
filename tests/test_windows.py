"""Windows, simulated here (issue 20): the package and its main flows without the Unix-only modules, and
with every text file's encoding explicit.

Each flow runs in a child Python whose first lines make ``fcntl``, ``resource``, ``termios``, ``pwd`` and
``grp`` unimportable (a meta-path finder raising ModuleNotFoundError, and ``None`` in ``sys.modules``), as
they are on Windows, and which turns every ``EncodingWarning`` into an error (``-X warn_default_encoding
-W error::EncodingWarning``): an ``open()`` without ``encoding=`` in the library fails the flow. One
third-party warning is let through by name: matplotlib's ``font_manager`` writes its font cache with
``open(path, "w")`` (matplotlib 3.x; only when the cache is rebuilt). The flows run twice: in this
machine's UTF-8 locale, and in an ASCII locale (``LC_ALL=C PYTHONUTF8=0 PYTHONCOERCECLOCALE=0``: the
default encoding of ``open()`` cannot read the UTF-8 catalogues, notebooks or rosters, stricter than a
Chinese Windows' GBK, which would misread them silently) with a GBK console (``PYTHONIOENCODING=gbk``)
and the Chinese edition.

The expected numbers are computed by hand below, not by the library.
"""

from __future__ import annotations

import ast
import csv
import json
import math
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import ltr_teach as lt

ROOT = Path(__file__).resolve().parents[1]
UNIX_ONLY = ("fcntl", "resource", "termios", "pwd", "grp")

#: The first lines of every child: the Unix-only modules are missing, as on Windows.
PRELUDE = f"""
import sys
UNIX_ONLY = {UNIX_ONLY!r}


class _Windows:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in UNIX_ONLY:
            raise ModuleNotFoundError(f"No module named {{name!r}} (Windows has none)", name=name)
        return None


for _name in UNIX_ONLY:
    sys.modules[_name] = None
sys.meta_path.insert(0, _Windows())
for _name in UNIX_ONLY:
    try:
        __import__(_name)
    except ImportError:
        pass
    else:
        raise SystemExit(f"{{_name}} is still importable: the simulation does not hold")
"""

#: The library's flows, run after the prelude; prints one JSON line.
LIBRARY = """
import json, locale, sys
import ltr_teach as lt
from ltr_teach.core import i18n
i18n.set_language("en")
result = {
    "ndcg": float(lt.ndcg([1, 0, 2]).value),
    "table": str(lt.ndcg([1, 0, 2])).splitlines()[0],
    "per_query": lt.evaluate(sys.argv[1], sys.argv[2], ["map", "ndcg@10"]).per_query,
    "right": lt.check("p-at-5", "3/5").correct,
    "wrong": lt.check("p-at-5", "4/7").correct,
    # what open() without encoding= would use (locale.getencoding: Python 3.11+)
    "locale_encoding": "utf-8" if sys.flags.utf8_mode else getattr(locale, "getencoding", locale.getlocale)(),
    "blocked_in_modules": [n for n in ("fcntl", "resource", "termios", "pwd", "grp") if sys.modules.get(n)],
}
print(json.dumps(result, ensure_ascii=True))
"""

#: ``ltr-teach ARGS``, run after the prelude (what the console script does).
CLI = """
import runpy
sys.argv = ["ltr-teach", *sys.argv[1:]]
runpy.run_module("ltr_teach.cli", run_name="__main__", alter_sys=True)
"""

WARNINGS_AS_ERRORS = ["-X", "warn_default_encoding", "-W", "error::EncodingWarning",
                      # matplotlib's font cache writer, third-party: let through by its module's name only
                      "-W", "ignore::EncodingWarning:matplotlib.font_manager"]

#: The two machines: (name, environment changes, the console's encoding, the language the CLI speaks).
MACHINES = {
    "utf8": ({"LTR_TEACH_LANG": "en"}, "utf-8", "en"),
    "ascii-locale-gbk-console": ({"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0",
                                  "PYTHONIOENCODING": "gbk", "LTR_TEACH_LANG": "zh"}, "gbk", "zh"),
}

# -- the files, and what they hold by hand ------------------------------------------------------------------

QRELS = "q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\n查询2 0 d1 1\n"
RUN = "q1 Q0 d1 1 3.0 r\nq1 Q0 d2 2 2.0 r\nq1 Q0 d3 3 1.0 r\n查询2 Q0 d4 1 2.0 r\n查询2 Q0 d1 2 1.0 r\n"
#: q1 ranks grades 2, 0, 1 (two relevant): AP = (1/1 + 2/3) / 2; 查询2 ranks an unjudged d4, then d1 (one
#: relevant): AP = (1/2) / 1. NDCG@10 under trec_eval's rules (lt.evaluate's default): the gain is the grade,
#: the discount log2(rank + 1): q1: (2 + 1/2) / (2 + 1/log2 3); 查询2: (1/log2 3) / 1.
EXPECTED = {"q1": {"map": 5 / 6, "ndcg@10": 2.5 / (2 + 1 / math.log2(3))},
            "查询2": {"map": 1 / 2, "ndcg@10": 1 / math.log2(3)}}


def child(code: str, *args, machine: str = "utf8", cwd: Path | None = None, timeout: float = 180):
    """Run PRELUDE + ``code`` with ``args`` in a child Python on ``machine``: (exit code, stdout, stderr) as text."""
    changes, console, _language = MACHINES[machine]
    env = {**os.environ, "PYTHONPATH": str(ROOT), **changes}
    if machine != "utf8":
        env.pop("LANGUAGE", None)
    done = subprocess.run([sys.executable, *WARNINGS_AS_ERRORS, "-c", PRELUDE + code, *map(str, args)],
                          capture_output=True, env=env, cwd=cwd or ROOT, timeout=timeout, check=False)
    return done.returncode, done.stdout.decode(console), done.stderr.decode(console, "backslashreplace")


@pytest.fixture
def trec_files(tmp_path):
    (tmp_path / "qrels.txt").write_text(QRELS, encoding="utf-8")
    (tmp_path / "run.txt").write_bytes(RUN.replace("\n", "\r\n").encode("utf-8"))  # as Notepad saves it
    return tmp_path / "qrels.txt", tmp_path / "run.txt"


@pytest.mark.parametrize("machine", MACHINES)
def test_the_library_flows_without_unix_modules_or_default_encodings(trec_files, machine):
    code, out, err = child(LIBRARY, *trec_files, machine=machine)
    assert code == 0, err
    got = json.loads(out)
    # NDCG of grades [1, 0, 2]: DCG = 1/1 + 0 + 3/2; ideal [2, 1, 0]: 3/1 + 1/log2 3
    assert got["ndcg"] == pytest.approx(2.5 / (3 + 1 / math.log2(3)), rel=1e-12)
    assert got["table"] == "NDCG"
    assert set(got["per_query"]) == set(EXPECTED)
    for query, values in EXPECTED.items():
        for metric, value in values.items():
            assert got["per_query"][query][metric] == pytest.approx(value, rel=1e-12), (query, metric)
    assert (got["right"], got["wrong"]) == (True, False)  # P@5 of [1, 0, 1, 1, 0, 1, 1] is 3/5
    assert got["blocked_in_modules"] == []
    if machine != "utf8":  # the simulation holds: open() without encoding= would read ASCII here
        assert got["locale_encoding"].lower() in ("ansi_x3.4-1968", "ascii", "us-ascii")


def _rows(text: str) -> dict[tuple[str, str], str]:
    """``ltr-teach eval --per-query`` output as {(metric, query): printed value}."""
    return {(m.strip(), q): v for m, q, v in (line.split("\t") for line in text.splitlines())}


@pytest.mark.parametrize("machine", MACHINES)
def test_ltr_teach_eval_and_check(trec_files, machine):
    code, out, err = child(CLI, "eval", *trec_files, "-m", "map", "-m", "ndcg@10", "--per-query", machine=machine)
    assert (code, err) == (0, "")
    rows = _rows(out)
    for query, values in EXPECTED.items():
        for metric, value in values.items():
            assert rows[(metric, query)] == f"{value:.4f}"
    assert rows[("map", "all")] == f"{(5 / 6 + 1 / 2) / 2:.4f}"
    language = MACHINES[machine][2]
    code, out, err = child(CLI, "check", "p-at-5", "3/5", machine=machine)
    assert (code, err) == (0, "")
    assert ("正确" if language == "zh" else "right") in out and "3/5" in out
    code, out, _ = child(CLI, "check", "p-at-5", "4/7", machine=machine)
    assert code == 1 and ("不对" if language == "zh" else "not right") in out


def _p_at_5(notebook: Path) -> Fraction:
    """P@5 of the student's own ranking, counted by hand from the variant's relevance list."""
    seed = json.loads(notebook.read_text(encoding="utf-8"))["metadata"]["ltr_teach"]["seed"]
    rels = lt.exercises.variant("p-at-5", seed).context["rels"]
    return Fraction(sum(rels[:5]), 5)


def _answer(notebook: Path, text: str) -> None:
    data = json.loads(notebook.read_text(encoding="utf-8"))
    cells = [c for c in data["cells"] if c["metadata"].get("ltr_teach", {}).get("exercise") == "p-at-5"]
    assert len(cells) == 1
    variable = "".join(cells[0]["source"]).split("=")[0].strip()  # answer_1 = ""
    cells[0]["source"] = [f'{variable} = "{text}"']
    notebook.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


@pytest.mark.parametrize("machine", MACHINES)
def test_ltr_teach_assign_grade_and_tutorial(tmp_path, machine):
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\ns01,张三\ns02,Zoë\n", encoding="utf-8")
    hw = tmp_path / "hw"
    code, _, err = child(CLI, "assign", "--exercises", "p-at-5", "--roster", roster, "--out", hw,
                         "--course", "IR-2026", machine=machine)
    assert (code, err) == (0, "")
    students = hw / "students"
    right = _p_at_5(students / "s01.ipynb")
    _answer(students / "s01.ipynb", f"{right.numerator}/{right.denominator}")
    _answer(students / "s02.ipynb", "7/5")  # above 1: no P@5 is
    code, _, err = child(CLI, "grade", students, "--roster", roster, "--assignment", hw / "key" / "assignment.json",
                         "--out", tmp_path / "grades.csv", "--report", tmp_path / "report.html", machine=machine)
    assert (code, err) == (0, "")
    with open(tmp_path / "grades.csv", newline="", encoding="utf-8") as handle:
        rows = {(r["student"], r["name"]): r["status"] for r in csv.DictReader(handle)}
    assert rows == {("s01", "张三"): "right", ("s02", "Zoë"): "wrong"}
    assert "<meta charset='utf-8'>" in (tmp_path / "report.html").read_text(encoding="utf-8")  # and it is
    code, out, err = child(CLI, "tutorial", tmp_path / "course", "--copy-only", machine=machine)
    assert (code, err) == (0, "")
    assert (tmp_path / "course" / "notebooks" / "zh" / ".ltr-teach-language").read_text(encoding="utf-8") == "zh\n"
    assert "notebooks/start_here.ipynb" in out


# -- the source: no Unix-only module imported at the top, every text file's encoding explicit ---------------

SOURCES = sorted(p for folder in ("ltr_teach", "tools", "tests", "benchmarks") for p in (ROOT / folder).rglob("*.py")
                 if ".ipynb_checkpoints" not in p.parts) + [ROOT / "conftest.py", ROOT / "setup.py"]
#: receivers of an ``.open()`` that is not a text file's (os.open takes flags; images, archives, URLs)
NOT_TEXT_FILES = {"os", "Image", "tarfile", "zipfile", "gzip", "bz2", "lzma", "webbrowser", "wave", "request"}


def _modules_imported_at_the_top(tree: ast.Module) -> set[str]:
    found = set()
    for node in tree.body:  # module level only: an import inside a function runs where it is used
        if isinstance(node, ast.Import):
            found |= {a.name.partition(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.partition(".")[0])
    return found


def test_the_package_imports_no_unix_only_module_at_the_top():
    offenders = [(p.relative_to(ROOT).as_posix(), sorted(_modules_imported_at_the_top(ast.parse(
        p.read_text(encoding="utf-8"))) & set(UNIX_ONLY))) for p in SOURCES if p.is_relative_to(ROOT / "ltr_teach")]
    assert [o for o in offenders if o[1]] == []


def _keyword(call: ast.Call, name: str):
    return next((k.value for k in call.keywords if k.arg == name), None)


def _text_mode(mode) -> bool:
    return not (isinstance(mode, ast.Constant) and isinstance(mode.value, str) and "b" in mode.value)


def _without_encoding(call: ast.Call) -> bool:
    """Whether ``call`` opens a text file or a text pipe without saying its encoding."""
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    owner = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else None
    if _keyword(call, "encoding") is not None or any(k.arg is None for k in call.keywords):
        return False
    if name == "open" and owner not in NOT_TEXT_FILES:  # open(path, mode), io.open, Path.open(mode)
        at = 1 if isinstance(func, ast.Name) or owner == "io" else 0
        mode = _keyword(call, "mode") or (call.args[at] if len(call.args) > at else None)
        return (mode is None or _text_mode(mode)) and len(call.args) <= at + 2
    if name == "read_text":
        return not call.args
    if name == "write_text":
        return len(call.args) < 2
    if name in ("run", "Popen", "check_output") and owner == "subprocess":
        text = _keyword(call, "text") or _keyword(call, "universal_newlines")
        return text is not None and not (isinstance(text, ast.Constant) and text.value is False)
    if name == "TextIOWrapper":
        return True
    if name in ("NamedTemporaryFile", "TemporaryFile", "SpooledTemporaryFile"):
        mode = _keyword(call, "mode") or (call.args[0] if call.args else None)
        return mode is not None and _text_mode(mode)
    if name == "fdopen":
        mode = _keyword(call, "mode") or (call.args[1] if len(call.args) > 1 else None)
        return mode is None or _text_mode(mode)
    return name == "popen" and owner == "os"


def test_every_text_file_is_opened_with_an_explicit_encoding():
    offenders = [f"{p.relative_to(ROOT).as_posix()}:{node.lineno}: {ast.unparse(node)[:80]}"
                 for p in SOURCES for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
                 if isinstance(node, ast.Call) and _without_encoding(node)]
    assert offenders == []


@pytest.mark.parametrize(("source", "flagged"), [
    ("open(p)", True), ("open(p, 'w')", True), ("open(p, 'rb')", False), ("open(p, encoding='utf-8')", False),
    ("Path(p).open()", True), ("Path(p).open('rb')", False), ("os.open(p, os.O_RDONLY)", False),
    ("p.read_text()", True), ("p.read_text(errors='replace')", True), ("p.read_text('utf-8')", False),
    ("p.write_text(t)", True), ("p.write_text(t, encoding='utf-8')", False),
    ("subprocess.run(c, text=True)", True), ("subprocess.run(c, capture_output=True)", False),
    ("subprocess.Popen(c, universal_newlines=True, encoding='utf-8')", False),
    ("io.TextIOWrapper(b)", True), ("tempfile.NamedTemporaryFile('w')", True), ("tempfile.NamedTemporaryFile()", False),
    ("os.fdopen(fd, 'w')", True), ("os.fdopen(fd, 'rb')", False), ("Image.open(b)", False),
])
def test_the_encoding_scan_sees_a_missing_encoding(source, flagged):
    assert _without_encoding(ast.parse(source).body[0].value) is flagged


# -- the TREC reader's Windows branch, where this system can imitate it ------------------------------------

def test_a_directory_the_system_refuses_to_open_is_named_as_a_directory(tmp_path, monkeypatch):
    real_open = os.open

    def windows_open(path, flags, *args):  # Windows' open() of a directory: EACCES, not a descriptor
        if os.path.isdir(path):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", windows_open)
    with pytest.raises(ValueError, match=r"^run = '.*' is a directory, not a TREC run file$"):
        lt.read_run(tmp_path)
    (tmp_path / "run").write_text("q1 Q0 d1 1 2.5 r\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"^run = '.*missing' cannot be read: No such file or directory$"):
        lt.read_run(tmp_path / "missing")
    assert lt.read_run(tmp_path / "run") == {"q1": {"d1": 2.5}}


def test_without_o_nonblock_a_file_with_crlf_lines_is_read_as_is(tmp_path, monkeypatch):
    from ltr_teach.runs import trec

    monkeypatch.setattr(trec, "_O_NONBLOCK", 0)  # Windows: no O_NONBLOCK, and no set_blocking to undo it
    monkeypatch.delattr(os, "set_blocking")
    (tmp_path / "qrels").write_bytes("q1 0 d1 2\r\n查询 0 d2 1\r\n".encode())  # Notepad's line ends
    assert lt.read_qrels(tmp_path / "qrels") == {"q1": {"d1": 2}, "查询": {"d2": 1}}
