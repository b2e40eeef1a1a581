"""Collecting the submissions: folders, notebook files and LMS downloads (zips read in memory, never
extracted), and who a file's name says handed it in."""

from __future__ import annotations

import io
import json
import os
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from ..core.files import NotARegularFile, read_bytes_at_most
from .assignment import ANSWER_TAG
from .files import _read_teacher_bytes, _short, _shown

#: A submission larger than this is reported, not read (an exercise notebook is a few tens of kB).
MAX_SUBMISSION_BYTES = 5_000_000


#: A zip of submissions (an LMS download) larger than this is refused; its members are read in memory.
MAX_ZIP_BYTES = 500_000_000


#: At most this many members and this many bytes, all members unpacked, are read from one zip.
MAX_ZIP_MEMBERS = 20_000


MAX_ZIP_UNPACKED = 2_000_000_000


@dataclass
class _Item:
    """One submitted file: where it was (shown, relative), its file name, its bytes or what is wrong; ``path`` is
    its path inside the folder or zip (what an LMS named it) and ``mtime`` when it was last changed (0: unknown)."""

    shown: str
    name: str
    data: bytes | None = None
    trouble: str = ""
    path: str = ""
    mtime: float = 0.0

    @property
    def lms(self) -> LmsName | None:
        return lms_name(self.path or self.shown)


@dataclass(frozen=True)
class LmsName:
    """What an LMS's "download all submissions" wrote into a file's name.

    ``user`` is Canvas's user id or Moodle's participant id (the worksheet's "Participant N"), ``name`` the
    student's name as the LMS wrote it, ``original`` the name of the file the student uploaded, ``late`` Canvas's
    mark of a late submission, ``attachment`` Canvas's attachment id (a later upload has a larger one).
    """

    lms: str
    user: str
    name: str
    original: str
    late: bool = False
    attachment: int = 0


#: Canvas (lib/content_zipper.rb, ``get_filename`` and ``add_upload_submission``): the sortable name with every
#: character but letters, digits and ``_`` removed, ``LATE`` when late, the user id, all lower-cased and joined by
#: ``_``; then ``_<attachment id>_<the uploaded file's display name>``. A name made only of digits, or with ``_N_``
#: in it, has those underscores removed (``sanitize_user_name``), so the ids are the first ``_digits_digits_``.
_CANVAS_NAME = re.compile(r"(?P<name>[^/]*?)_(?:(?P<late>late)_)?(?P<user>[0-9]{1,20})_(?P<attachment>[0-9]{1,20})_"
                          r"(?P<original>[^/]+)", re.IGNORECASE)

#: Moodle (mod/assign/classes/downloader.php): the prefix is the full name (``_`` turned into spaces) and
#: ``_<participant id>`` (``get_uniqueid_for_user``: the id the grading worksheet shows as "Participant N"), then
#: ``_assignsubmission_file``: a folder (4.1+: ``…_file/``; 3.x: ``…_file_/``) or, without folders, ``…_file_`` and
#: the uploaded file's name.
_MOODLE_NAME = re.compile(r"(?:^|/)(?P<name>[^/]*)_(?P<user>[0-9]{1,20})_assignsubmission_file(?:_?/(?:[^/]*/)*|_)"
                          r"(?P<original>[^/]+)")


def lms_name(path: str) -> LmsName | None:
    """The LMS's names and ids in a submitted file's path (inside the zip or folder), or None.

    Examples
    --------
    >>> lms_name("sunwukong_late_4211_90001_2026001-1.ipynb")
    LmsName(lms='canvas', user='4211', name='sunwukong', original='2026001-1.ipynb', late=True, attachment=90001)
    >>> lms_name("孙悟空_88_assignsubmission_file/孙悟空-作业1.ipynb").user
    '88'
    >>> lms_name("Li Lei_31_assignsubmission_file_2026002 (1).ipynb").original
    '2026002 (1).ipynb'
    >>> lms_name("2026001.ipynb") is None
    True
    """
    path = path.replace("\\", "/")[-1000:]  # the patterns see at most 1,000 characters
    match = _MOODLE_NAME.search(path)
    if match:
        return LmsName("moodle", match["user"], match["name"].strip(), match["original"])
    match = _CANVAS_NAME.fullmatch(path.rsplit("/", 1)[-1])
    if match:
        return LmsName("canvas", match["user"], match["name"], match["original"], late=bool(match["late"]),
                       attachment=int(match["attachment"]))
    return None


#: A resubmitted file of the same name: Canvas adds ``-1``, ``-2`` (Attachment.make_unique_filename), Moodle's file
#: picker offers "Rename" to ``name (1)``.
_RESUBMISSION = re.compile(r"(?:-(?P<canvas>[0-9]{1,4})|\s\((?P<moodle>[0-9]{1,4})\))$")


def resubmission_number(file_name: str) -> int:
    """The number an LMS added to a resubmitted file of the same name (0 for none).

    >>> resubmission_number("2026014 (1).ipynb"), resubmission_number("2026001-2.ipynb"), resubmission_number("a.ipynb")
    (1, 2, 0)
    """
    stem = file_name[: -len(".ipynb")] if file_name.lower().endswith(".ipynb") else file_name
    match = _RESUBMISSION.search(stem)
    return int(match["canvas"] or match["moodle"]) if match else 0


def is_checkpoint(path: str) -> bool:
    """A copy Jupyter keeps of a notebook (``.ipynb_checkpoints/x-checkpoint.ipynb``), never a submission."""
    path = path.replace("\\", "/")
    stem = path.rsplit("/", 1)[-1]
    stem = stem[: -len(".ipynb")] if stem.lower().endswith(".ipynb") else stem
    return ".ipynb_checkpoints" in path.split("/") or stem.lower().endswith("-checkpoint")


def zip_member_name(info) -> str:
    """A zip member's name as its maker wrote it: without the UTF-8 flag, Python reads the bytes as cp437, which
    garbles a Windows Chinese zip (GBK) and a zip that wrote UTF-8 without saying so; those are tried first.

    >>> import zipfile
    >>> info = zipfile.ZipInfo("x"); info.filename = "张伟.ipynb".encode("gbk").decode("cp437")
    >>> zip_member_name(info)
    '张伟.ipynb'
    """
    name = info.filename
    if info.flag_bits & 0x800:  # the UTF-8 flag: Python decoded it right
        return name
    try:
        raw = name.encode("cp437")
    except UnicodeEncodeError:
        return name
    for encoding in ("utf-8", "gb18030"):
        try:
            decoded = raw.decode(encoding)
        except UnicodeDecodeError:
            continue
        # GB18030 decodes almost any bytes: take it only when it gives Chinese characters and nothing odd
        if encoding == "utf-8" or (re.search(r"[\u4e00-\u9fff]", decoded) and not re.search(r"[\x80-\xff]", decoded)):
            return decoded
    return name


def _is_notebook_name(name: str) -> bool:
    return name.lower().endswith(".ipynb")


def _read_item(path: Path, shown: str) -> _Item:
    try:
        mtime = path.lstat().st_mtime
    except OSError:
        mtime = 0.0
    try:
        data = read_bytes_at_most(path, MAX_SUBMISSION_BYTES, follow_links=False)
    except NotARegularFile as exc:
        kind = str(exc).rpartition(" is ")[2]
        return _Item(shown, path.name, trouble=f"is {kind}: not read")
    except OSError as exc:
        return _Item(shown, path.name, trouble=f"cannot be read ({_shown(exc.strerror or exc)})")
    if len(data) > MAX_SUBMISSION_BYTES:
        return _Item(shown, path.name, trouble=f"is over the {MAX_SUBMISSION_BYTES:,}-byte limit: not read")
    return _Item(shown, path.name, data, path=shown, mtime=mtime)


def _zip_items(path: Path) -> list[_Item]:
    """The notebooks of an LMS download (a .zip), read in memory with limits; never extracted."""
    import zipfile

    data = _read_teacher_bytes(path, "submissions", MAX_ZIP_BYTES)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise ValueError(f"submissions = '{_shown(path)}' is not a readable zip file: {_shown(exc)}") from None
    if len(members) > MAX_ZIP_MEMBERS:
        raise ValueError(f"submissions = '{_shown(path)}' holds {len(members):,} files; at most "
                         f"{MAX_ZIP_MEMBERS:,} are read")
    items, unpacked = [], 0
    import calendar

    for info in members:
        name = zip_member_name(info)
        if info.is_dir() or "__MACOSX" in name:
            continue
        shown = f"{path.name}:{name}"
        base = name.replace("\\", "/").rsplit("/", 1)[-1]
        try:
            mtime = float(calendar.timegm((*info.date_time, 0, 0, 0)))
        except (TypeError, ValueError, OverflowError):
            mtime = 0.0
        if not _is_notebook_name(name):  # a PDF or a screenshot handed in instead: said, under the student's id
            items.append(_Item(shown, base, trouble="is not a notebook (.ipynb): not read", path=name))
            continue
        parts = name.replace("\\", "/").split("/")
        if name.startswith(("/", "\\")) or ".." in parts or re.match(r"[A-Za-z]:", name):
            items.append(_Item(shown, base, trouble="has an unsafe path in the zip (absolute or with ..): not read",
                               path=base))
            continue
        if info.file_size > MAX_SUBMISSION_BYTES:
            items.append(_Item(shown, base, trouble=f"is over the {MAX_SUBMISSION_BYTES:,}-byte limit: not read"))
            continue
        if unpacked > MAX_ZIP_UNPACKED:
            items.append(_Item(shown, base, trouble="not read: the zip unpacks to more than "
                                                    f"{MAX_ZIP_UNPACKED:,} bytes (a zip bomb?)"))
            continue
        try:
            with archive.open(info) as handle:
                content = handle.read(MAX_SUBMISSION_BYTES + 1)  # the header's size may lie: read at most this
        except (zipfile.BadZipFile, RuntimeError, OSError, ValueError, EOFError, NotImplementedError) as exc:
            items.append(_Item(shown, base, trouble=f"cannot be unpacked ({_shown(_short(str(exc), 80))})"))
            continue
        unpacked += len(content)
        if len(content) > MAX_SUBMISSION_BYTES:
            items.append(_Item(shown, base, trouble=f"unpacks to over {MAX_SUBMISSION_BYTES:,} bytes (a zip bomb?): "
                                                    "not read"))
            continue
        items.append(_Item(shown, base, content, path=name, mtime=mtime))
    return items


def _collect(submissions) -> list[_Item]:
    """Every submitted notebook: the ``.ipynb`` files of folders (not following links), notebook files, zips."""
    if isinstance(submissions, (str, Path)):
        submissions = [submissions]
    items = []
    for item in submissions:
        path = Path(item)
        if path.is_dir():
            found = []
            for folder, subfolders, names in os.walk(path, followlinks=False):
                subfolders[:] = sorted(subfolders)  # checkpoint copies are listed (and never graded)
                found += [Path(folder) / n for n in names if _is_notebook_name(n)]
            for file in sorted(found):
                items.append(_read_item(file, file.relative_to(path).as_posix()))
        elif path.suffix.lower() == ".zip":
            items += _zip_items(path)
        elif path.exists() or path.is_symlink():
            items.append(_read_item(path, path.name))
        else:
            raise ValueError(f"submissions: '{_shown(path)}' is neither a notebook, a zip nor a folder")
    return items


def find_record(submissions) -> Path | None:
    """``key/assignment.json`` in a submissions folder or its parent (the folder ``assign`` wrote)."""
    items = [submissions] if isinstance(submissions, (str, Path)) else list(submissions)
    for item in items:
        path = Path(item)
        folder = path if path.is_dir() else path.parent
        for candidate in (folder / "key" / "assignment.json", folder.parent / "key" / "assignment.json"):
            if candidate.is_file():
                return candidate
    return None


def _read_submission(data: bytes) -> tuple[dict | None, str]:
    """The notebook's JSON and ``""``, or ``None`` and what is wrong with the file."""
    try:
        notebook = json.loads(data.decode("utf-8-sig"))  # a byte-order mark is how some editors save UTF-8
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)[:80]
        return None, f"is not a notebook (not JSON: {_shown(reason)})"
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        return None, "is not a notebook (no list of cells)"
    return notebook, ""


def _claim(notebook: dict) -> tuple[dict | None, str]:
    metadata = notebook.get("metadata")
    meta = metadata.get("ltr_teach") if isinstance(metadata, dict) else None
    if not isinstance(meta, dict):
        return None, "has no ltr_teach metadata (student id and seed): was it written by `ltr-teach assign`?"
    if not isinstance(meta.get("student"), str):
        return None, "has no student id in its metadata"
    if "seed" not in meta:
        return None, "has no seed in its metadata"
    return meta, ""


def _answer_cells(notebook: dict) -> dict[str, list[str]]:
    found = defaultdict(list)
    for cell in notebook["cells"]:
        if not isinstance(cell, dict) or not isinstance(cell.get("metadata"), dict):
            continue
        tags = cell["metadata"].get("tags")
        meta = cell["metadata"].get("ltr_teach")
        if not (isinstance(tags, list) and ANSWER_TAG in tags and isinstance(meta, dict)):
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(s, str) for s in source):
            source = "".join(source)
        if not isinstance(source, str):
            source = ""
        if isinstance(meta.get("exercise"), str):
            found[meta["exercise"]].append(source)
    return found


#: The default way to find a student id in an LMS file name: an id of the record standing alone
#: between separators (``li_lei_12345_67890_2026001.ipynb``, ``2026001-Copy1.ipynb``).
_SEPARATOR = re.compile(r"[^A-Za-z0-9]+")


def _ids_in_name(shown: str, ids) -> list[str]:
    """The record's student ids the file's name (and folders inside a zip or folder) names."""
    stem = shown.replace("\\", "/").rsplit("/", 1)[-1]
    stem = stem[: -len(".ipynb")] if stem.lower().endswith(".ipynb") else stem
    if stem in ids:
        return [stem]
    found = []
    for text in [stem] + shown.replace("\\", "/").split("/")[:-1][-2:]:  # the name, then its folder (Moodle)
        tokens = [t for t in _SEPARATOR.split(text) if t]
        seps = list(_SEPARATOR.finditer(text))
        # every run of whole tokens with the separators between them, as written
        starts = [0] + [m.end() for m in seps]
        ends = [m.start() for m in seps] + [len(text)]
        spans = [(a, b) for a, b in zip(starts, ends) if b > a]
        for i in range(len(spans)):
            for j in range(i, min(len(spans), i + 6)):
                piece = text[spans[i][0]:spans[j][1]]
                if piece in ids and piece not in found:
                    found.append(piece)
        if found or not tokens:
            break
    return found


#: The longest path a teacher's ``--id-pattern`` sees (a longer one names no student), and how long all the matching
#: may take: a pattern with nested repeats such as ``(a+)+$`` backtracks exponentially, and Python's ``re`` cannot
#: be interrupted, so the matching runs in a child process that is stopped after this many seconds.
MAX_PATTERN_INPUT = 1_000
ID_PATTERN_SECONDS = 10.0

#: The child's program: the pattern and the paths as JSON on stdin (ASCII), the ids found as JSON on stdout (ASCII,
#: so a Windows code page cannot garble them).
_MATCHER = """
import json, re, sys
pattern_text, paths = json.loads(sys.stdin.read())
pattern = re.compile(pattern_text)
found = []
for path in paths:
    match = pattern.search(path) if path is not None else None
    if match is None:
        found.append("")
        continue
    group = match.group("id") if "id" in pattern.groupindex else match.group(1 if pattern.groups else 0)
    found.append(group or "")
sys.stdout.write(json.dumps(found))
"""


def match_id_pattern(pattern_text: str, paths: list[str], seconds: float | None = None) -> list[str]:
    """The student id a teacher's regular expression finds in each path (group ``id``, or the first group), ``""``
    where it finds none: matched in a child process stopped after ``seconds`` (:data:`ID_PATTERN_SECONDS`).

    Raises
    ------
    ValueError
        When the matching does not finish in time, naming the pattern.

    Examples
    --------
    >>> match_id_pattern(r"_(?P<id>s[0-9]+)\\.ipynb$", ["hw_s01.ipynb", "notes.ipynb"])
    ['s01', '']
    """
    import subprocess
    import sys

    seconds = ID_PATTERN_SECONDS if seconds is None else seconds
    bounded = [p if len(p) <= MAX_PATTERN_INPUT else None for p in paths]
    if not sys.executable:  # Pyodide: no child process; the length bound alone keeps the matching small
        pattern = re.compile(pattern_text)
        found = []
        for path in bounded:
            match = pattern.search(path) if path is not None else None
            group = (match.group("id") if "id" in pattern.groupindex else match.group(1 if pattern.groups else 0)) \
                if match else ""
            found.append(group or "")
        return found
    try:
        done = subprocess.run([sys.executable, "-I", "-S", "-c", _MATCHER], input=json.dumps([pattern_text, bounded]),
                              capture_output=True, text=True, encoding="ascii", timeout=seconds, check=False)
    except subprocess.TimeoutExpired:
        raise ValueError(f"id_pattern = {_shown(_short(repr(pattern_text), 80))} did not finish matching "
                         f"{len(paths):,} file names in {seconds:g} s: nested repeats such as (a+)+ try exponentially "
                         r"many ways; write a simpler pattern, such as _(?P<id>[0-9]+)\.ipynb$") from None
    if done.returncode != 0:
        raise ValueError(f"id_pattern = {_shown(_short(repr(pattern_text), 80))} could not be matched: "
                         f"{_shown(_short(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else '?', 120))}")
    return json.loads(done.stdout)
