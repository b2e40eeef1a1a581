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
    """One submitted file: where it was (shown, relative), its file name, its bytes or what is wrong."""

    shown: str
    name: str
    data: bytes | None = None
    trouble: str = ""


def _is_notebook_name(name: str) -> bool:
    return name.lower().endswith(".ipynb")


def _read_item(path: Path, shown: str) -> _Item:
    try:
        data = read_bytes_at_most(path, MAX_SUBMISSION_BYTES, follow_links=False)
    except NotARegularFile as exc:
        kind = str(exc).rpartition(" is ")[2]
        return _Item(shown, path.name, trouble=f"is {kind}: not read")
    except OSError as exc:
        return _Item(shown, path.name, trouble=f"cannot be read ({_shown(exc.strerror or exc)})")
    if len(data) > MAX_SUBMISSION_BYTES:
        return _Item(shown, path.name, trouble=f"is over the {MAX_SUBMISSION_BYTES:,}-byte limit: not read")
    return _Item(shown, path.name, data)


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
    for info in members:
        name = info.filename
        if info.is_dir() or ".ipynb_checkpoints" in name or "__MACOSX" in name:
            continue
        shown = f"{path.name}:{name}"
        base = name.replace("\\", "/").rsplit("/", 1)[-1]
        if not _is_notebook_name(name):  # a PDF or a screenshot handed in instead: said, under the student's id
            items.append(_Item(shown, base, trouble="is not a notebook (.ipynb): not read"))
            continue
        parts = name.replace("\\", "/").split("/")
        if name.startswith(("/", "\\")) or ".." in parts or re.match(r"[A-Za-z]:", name):
            items.append(_Item(shown, base, trouble="has an unsafe path in the zip (absolute or with ..): not read"))
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
        items.append(_Item(shown, base, content))
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
                subfolders[:] = sorted(d for d in subfolders if d != ".ipynb_checkpoints")
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


def _ids_in_name(shown: str, ids, pattern) -> list[str]:
    """The record's student ids the file's name (and folders inside a zip or folder) names."""
    stem = shown.replace("\\", "/").rsplit("/", 1)[-1]
    stem = stem[: -len(".ipynb")] if stem.lower().endswith(".ipynb") else stem
    if pattern is not None:
        match = pattern.search(shown)
        if not match:
            return []
        found = match.group("id") if "id" in pattern.groupindex else match.group(1 if pattern.groups else 0)
        return [found] if found else []
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
