"""The Chinese house style of the course (docs/zh_style.md): the checker tests/test_zh_style.py uses, and a fixer.

    python tools/zh_style.py            # count the breaks per surface and rule
    python tools/zh_style.py --fix      # fix them in the sources: the zh blocks of course/*/*.md, the teacher
                                        # guide and the zh_CN msgstr outside the exercise bank
    python tools/zh_style.py --fix --bank   # the msgstr of the exercise bank too

The fixer only inserts spaces and swaps punctuation (“…” for straight or corner quotes, full-width for half-width),
line by line, never reflowing; then run tools/catalogs.py (compile) and tools/build_course.py --keep-outputs.

Rules (outside code, math, link URLs, HTML tags and the catalogue's placeholders):

``cjk-latin``        a Chinese character directly touching a Latin letter or a digit: ``共3个`` → ``共 3 个``;
``corner-quotes``    「」 or 『』: the course quotes with “…” (and ‘…’ inside);
``straight-quotes``  straight double quotes around Chinese text: ``"眼霜"`` → ``“眼霜”``;
``half-width-punct`` a half-width , ; ? ! right after a Chinese character: ``排名,`` → ``排名，`` (except inside a
                     quotation “…”, which keeps the quoted post's punctuation);
``xianxiu``          先修: the heading is 预备知识.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from pathlib import Path

from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
PO = ROOT / "ltr_teach" / "locale" / "zh_CN" / "LC_MESSAGES" / "ltr_teach.po"
GUIDE = ROOT / "docs" / "teacher_guide.zh.md"
#: the catalogue's keywords (tools/catalogs.py): gettext's and a steps table's ``Column(key, "header")``
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "Column": (2,)}
BANK = ROOT / "ltr_teach" / "teaching" / "bank"

CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
#: a neutral character standing for a skipped span (code, math, URL, tag, placeholder): neither Chinese nor Latin
HOLE = "\u2400"

_FENCE = re.compile(r"^( {0,3})(```|~~~).*?^\1\2[^\n]*$", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
_HTML_CODE = re.compile(r"<(code|pre|kbd)\b[^>]*>.*?</\1>", re.DOTALL | re.IGNORECASE)
_DISPLAY_MATH = re.compile(r"\$\$.+?\$\$", re.DOTALL)
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\s)[^$\n]+?(?<![\s\\])\$(?!\d)")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_ENTITY = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|[A-Za-z]+);")
_LINK_URL = re.compile(r"(\]\()([^)\s]*)(\s+\"[^\"]*\")?\)")
_REF_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*\S+.*$", re.MULTILINE)
_BARE_URL = re.compile(r"(https?|ftp)://[^\s)>\]\u3000-\u303f\uff00-\uffef]+")
#: str.format fields ({rank}, {0:.3f}, {{ }}) and %-formats (%s, %d, %(name)s, %.3f, %%) of the catalogue
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{[A-Za-z0-9_.\[\]]*(![rsa])?(:[^{}]*)?\}|%(\([A-Za-z_]\w*\))?[-+ #0]*\d*(\.\d+)?[sdifgeEr%]")

RULES = {
    #: emphasis marks are no space: "AUC**平均**" shows as "AUC平均"
    "cjk-latin": re.compile(rf"[{CJK}]\**[A-Za-z0-9]|[A-Za-z0-9]\**[{CJK}]"),
    "corner-quotes": re.compile(r"[「」『』]"),
    #: quotes pair up left to right; a pair holding Chinese breaks ('…' too, unless it is an English apostrophe)
    "straight-quotes": re.compile(r"\"[^\"\n]*\"|(?<![A-Za-z])'[^'\n]*'(?![A-Za-z])"),
    "half-width-punct": re.compile(rf"[{CJK}][,;?!]"),
    "xianxiu": re.compile(r"先修"),
}


def _blank(found: re.Match) -> str:
    """The span as holes, keeping its newlines (so line numbers stay right)."""
    return re.sub(r"[^\n]", HOLE, found.group(0))


def prose(markdown: str, placeholders: bool = False) -> str:
    """``markdown`` with everything the style does not govern turned into holes: fenced and inline code, math,
    HTML comments and tags, entities, link URLs and (``placeholders``) the catalogue's format fields."""
    text = _FENCE.sub(_blank, markdown)
    text = _HTML_CODE.sub(_blank, text)
    text = _INLINE_CODE.sub(_blank, text)
    text = _DISPLAY_MATH.sub(_blank, text)
    text = _INLINE_MATH.sub(_blank, text)
    text = _COMMENT.sub(_blank, text)
    text = _TAG.sub(_blank, text)
    text = _ENTITY.sub(_blank, text)
    text = _LINK_URL.sub(lambda m: m.group(1) + _blank(re.match(r".*", m.group(0)[2:-1])) + ")", text)
    text = _REF_LINK.sub(_blank, text)
    text = _BARE_URL.sub(_blank, text)
    if placeholders:
        text = _PLACEHOLDER.sub(_blank, text)
    return text


def quoted_positions(line: str) -> set[int]:
    """The positions inside “…” on one line: a quotation, whose punctuation is the quoted post's."""
    return {i for found in re.finditer(r"“[^“”]*”", line) for i in range(found.start(), found.end())}


def violations(markdown: str, placeholders: bool = False) -> list[tuple[str, int, str]]:
    """(rule, line number from 1, the snippet around it) for each break of the house style in ``markdown``."""
    text = prose(markdown, placeholders)
    found = []
    for number, (line, original) in enumerate(zip(text.split("\n"), markdown.split("\n")), start=1):
        quoted = quoted_positions(line)
        for rule, pattern in RULES.items():
            for hit in pattern.finditer(line):
                if rule == "half-width-punct" and hit.end() - 1 in quoted:
                    continue  # a quotation keeps the post's own punctuation
                if rule == "straight-quotes" and not re.search(f"[{CJK}]", hit.group(0)):
                    continue  # "NDCG", "a": no Chinese inside
                start, end = max(hit.start() - 12, 0), hit.end() + 12
                found.append((rule, number, original[start:end]))
    return found


def bank_messages() -> set[str]:
    """The message ids of the exercise bank (``teaching/bank``): its prompts, hints and titles."""
    ids = set()
    for path in sorted(BANK.glob("*.py")):
        for _line, message, _comments, _context in extract_from_file("python", str(path), keywords=KEYWORDS):
            ids.update(message if isinstance(message, (tuple, list)) else (message,))
    return ids


# ---------------------------------------------------------------------------------------------- fixing

_CJK_CHAR = re.compile(f"[{CJK}]")
_LATIN = re.compile(r"[A-Za-z0-9]")
_FULL_WIDTH = {",": "，", ";": "；", "?": "？", "!": "！"}
_CORNER = {"「": "“", "」": "”", "『": "‘", "』": "’"}


def _outputs(text: str, placeholders: bool = False) -> list[str]:
    """What each character of ``text`` becomes (itself, a swapped mark, itself and a space, or nothing), so a
    catalogue string split over several lines can be put back on the same lines."""
    mask = prose(text, placeholders)
    out = list(text)
    for found in RULES["straight-quotes"].finditer(mask):
        if _CJK_CHAR.search(found.group(0)):
            out[found.start()], out[found.end() - 1] = "“", "”"
    for i, ch in enumerate(mask):
        if ch in _CORNER:
            out[i] = _CORNER[ch]
    quoted = quoted_positions("".join(c if c in "“”\n" else mask[i] for i, c in enumerate(out)))
    for i in range(len(mask) - 1):
        a, b = mask[i], mask[i + 1]
        if HOLE in (a, b):
            continue
        if _CJK_CHAR.match(a) and b in _FULL_WIDTH and i + 1 not in quoted:
            out[i + 1] = _FULL_WIDTH[b]
            if i + 2 < len(mask) and mask[i + 2] == " ":
                out[i + 2] = ""
        if (_CJK_CHAR.match(a) and _LATIN.match(b)) or (_LATIN.match(a) and _CJK_CHAR.match(b)):
            out[i] += " "
        elif b == "*" and (_CJK_CHAR.match(a) or _LATIN.match(a)):  # "AUC**平均**" → "AUC **平均**"
            end = i + 1
            while end < len(mask) and mask[end] == "*":
                end += 1
            after = mask[end] if end < len(mask) else ""
            if (_CJK_CHAR.match(a) and _LATIN.match(after)) or (_LATIN.match(a) and _CJK_CHAR.match(after)):
                line_start = mask.rfind("\n", 0, i) + 1
                opening = len(re.findall(r"\*+", mask[line_start:i + 1])) % 2 == 0
                out[i if opening else end - 1] += " "
    return out


def fix(text: str, placeholders: bool = False) -> str:
    """``text`` in the house style (spaces inserted, marks swapped; nothing reflowed).

    >>> fix('搜「眼霜」的用户,第2位是"好"吗?用 `x1`')
    '搜“眼霜”的用户，第 2 位是“好”吗？用 `x1`'
    """
    return "".join(_outputs(text, placeholders))


_MARK = re.compile(r"^<!-- (zh|en|code|exercises[^>]*) -->\s*$")


def fix_source(text: str) -> str:
    """A course source (course/*/NN_x.md) with its zh blocks fixed; other blocks untouched."""
    out, block, mode = [], [], None

    def flush():
        if block:
            chunk = "\n".join(block)
            out.append(fix(chunk) if mode == "zh" else chunk)
            block.clear()

    for line in text.split("\n"):
        found = _MARK.match(line)
        if found:
            flush()
            out.append(line)
            mode = found.group(1)
        else:
            block.append(line)
    flush()
    return "\n".join(out)


_ESCAPES = {"\\\\": "\\", '\\"': '"', "\\n": "\n", "\\t": "\t"}


def _unescape(s: str) -> str:
    return re.sub(r'\\\\|\\"|\\n|\\t', lambda found: _ESCAPES[found.group(0)], s)


def _escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")


def fix_catalogue(text: str, bank: bool = False) -> tuple[str, int]:
    """The zh_CN .po text with its msgstr fixed in place (each on its own lines), outside the exercise bank unless
    ``bank``; and how many messages changed."""
    skip = set() if bank else bank_messages()
    lines, out, changed, msgid, i = text.split("\n"), [], 0, None, 0

    def block(start: int, key: str) -> tuple[list[str], int]:
        segments, end = [re.match(rf'^{re.escape(key)} "(.*)"$', lines[start]).group(1)], start + 1
        while end < len(lines) and lines[end].startswith('"'):
            segments.append(lines[end][1:-1])
            end += 1
        return segments, end

    while i < len(lines):
        found = re.match(r'^(msgid|msgstr(\[\d\])?) "', lines[i])
        if not found:
            out.append(lines[i])
            i += 1
            continue
        segments, end = block(i, found.group(1))
        plain = [_unescape(s) for s in segments]
        if found.group(1) == "msgid":
            msgid = "".join(plain)
        elif msgid and msgid not in skip and "".join(plain):
            outputs, at, new = _outputs("".join(plain), placeholders=True), 0, []
            for segment in plain:
                new.append(_escape("".join(outputs[at:at + len(segment)])))
                at += len(segment)
            changed += new != segments
            out.append(f'{found.group(1)} "{new[0]}"')
            out.extend(f'"{s}"' for s in new[1:])
            i = end
            continue
        out.extend(lines[i:end])
        i = end
    return "\n".join(out), changed


def _counts() -> collections.Counter:
    counts = collections.Counter()
    for path in sorted((ROOT / "notebooks" / "zh").glob("*.ipynb")) + sorted((ROOT / "exercises" / "zh").glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
                counts.update((path.parent.parent.name, rule) for rule, _, _ in violations(source))
    counts.update(("guide", rule) for rule, _, _ in violations(GUIDE.read_text(encoding="utf-8")))
    with PO.open("rb") as handle:
        catalogue = read_po(handle, locale="zh_CN")
    in_bank = bank_messages()
    for message in catalogue:
        if message.id and message.string:
            surface = "catalogue (bank)" if message.id in in_bank else "catalogue"
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for string in strings:
                counts.update((surface, rule) for rule, _, _ in violations(string, placeholders=True))
    return counts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fix", action="store_true", help="fix the sources in place")
    parser.add_argument("--bank", action="store_true", help="with --fix: the exercise bank's msgstr too")
    args = parser.parse_args(argv)
    if args.fix:
        for path in sorted((ROOT / "course").glob("*/[0-9][0-9]_*.md")) + [GUIDE]:
            text = path.read_text(encoding="utf-8")
            new = fix(text) if path == GUIDE else fix_source(text)
            if new != text:
                path.write_text(new, encoding="utf-8")
                print(f"fixed {path.relative_to(ROOT)}")
        new, changed = fix_catalogue(PO.read_text(encoding="utf-8"), bank=args.bank)
        PO.write_text(new, encoding="utf-8")
        print(f"fixed {changed} messages of {PO.relative_to(ROOT)}")
    for (surface, rule), count in sorted(_counts().items()):
        print(f"{surface:18} {rule:18} {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
