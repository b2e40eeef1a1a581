"""Build ltr_teach/fonts/NotoSansCJKsc-Regular-subset.otf, the CJK font the plots ship with.

Why: matplotlib's default font (DejaVu Sans) has no Chinese glyphs, so item names such as
小棕瓶眼霜 would render as tofu boxes on a machine without a CJK system font. The package ships a
subset of Noto Sans CJK SC (SIL Open Font Licence 1.1, licence text beside the font) that holds:

- all 6763 simplified characters of GB2312 (levels 1 and 2: level 1 alone lacks 黛 of 雅诗兰黛,
  蔻 of 兰蔻, 荟 of 芦荟, characters students meet in product names),
- the 5401 common traditional characters of Big5 (常用字), for names typed in traditional script,
- every Chinese character of the five source documents and of the tutorial's glossary
  (``EXTRA_CHARACTERS``; a test checks the names render),
- ASCII, Latin-1, general punctuation, CJK and full-width punctuation, Greek and a few math signs.

How it was made (fontTools is matplotlib's own dependency, so it is already in the venv; it is a
build-time tool here, not a run-time dependency of ltr_teach):

    apt-get download fonts-noto-cjk          # Debian 1:20220127+repack1-1
    dpkg-deb -x fonts-noto-cjk_*.deb noto
    python tools/make_font_subset.py noto/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc \\
        --licence noto/usr/share/doc/fonts-noto-cjk/copyright

Pass ``--text FILE`` (repeatable) to add the characters of more documents.

``--web`` builds the other file, ``ltr_teach/locale/ltr-teach-cjk.woff``: the glyphs the library can
show in HTML (:data:`ltr_teach.core.webfont.WEB_FONT`), cut from the plot font above (no download
needed): every non-ASCII character of the zh_CN catalogue's translations, of the library's source
(item names, glossary, the documents' quotes) and of the course's code cells (notebooks, exercise
notebooks and their sources). WOFF (zlib, from the standard library), without hinting and without
OpenType layout features (the SC face needs none for horizontal text; they would pull in ~800 more
glyphs, twice the size). ``tools/catalogs.py`` runs it after every catalogue change.

    python tools/make_font_subset.py --web
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

OUT_DIR = Path(__file__).resolve().parent.parent / "ltr_teach" / "interactive" / "fonts"
FONT_NAME = "NotoSansCJKsc-Regular-subset.otf"
FACE = "Noto Sans CJK SC"

#: Characters of the documents and the glossary that GB2312 level 1 lacks, plus names the notebooks use.
EXTRA_CHARACTERS = "荟蔻阈" + "小棕瓶眼霜精华面霜MAC口红神仙水兰蔻粉水芦荟霜面膜" + "查准率查全率精确率召回率准确率"

#: Upstream noto-cjk's LICENSE reserves the name "Source" (Source Han Sans); the subset keeps the Noto names.
RESERVED_NAME_NOTE = ", with Reserved Font Name 'Source'. Subset for ltr_teach by tools/make_font_subset.py."

#: Unicode blocks kept whole: Latin, punctuation, Greek, arrows and math operators, CJK punctuation, full-width forms.
RANGES = [(0x20, 0x7E), (0xA0, 0xFF), (0x370, 0x3FF), (0x2010, 0x205E), (0x2190, 0x21FF), (0x2200, 0x22FF),
          (0x3000, 0x303F), (0xFF01, 0xFF5E)]


def _decode_block(codec: str, first: tuple[int, int], last: tuple[int, int], low_bytes) -> str:
    """Every character a double-byte codec assigns from lead byte first[0] to last[0], in code order."""
    chars = []
    for hi in range(first[0], last[0] + 1):
        for lo in low_bytes:
            if (hi, lo) < first or (hi, lo) > last:
                continue
            try:
                chars.append(bytes([hi, lo]).decode(codec))
            except UnicodeDecodeError:  # unassigned slots
                continue
    return "".join(chars)


def gb2312_hanzi() -> str:
    """The 6763 characters of GB2312 levels 1 and 2 (rows 16-87, bytes 0xB0A1-0xF7FE)."""
    return _decode_block("gb2312", (0xB0, 0xA1), (0xF7, 0xFE), range(0xA1, 0xFF))


def big5_common() -> str:
    """The 5401 common characters of Big5 (常用字, bytes 0xA440-0xC67E)."""
    low = list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF))
    return _decode_block("big5", (0xA4, 0x40), (0xC6, 0x7E), low)


def wanted_codepoints(texts: list[str]) -> set[int]:
    points = {ord(c) for c in gb2312_hanzi() + big5_common() + EXTRA_CHARACTERS}
    for lo, hi in RANGES:
        points.update(range(lo, hi + 1))
    for text in texts:
        points.update(ord(c) for c in text if "\u4e00" <= c <= "\u9fff")
    return points


def ofl_text(debian_copyright: Path, copyright_line: str) -> str:
    """The SIL OFL 1.1 text from Debian's copyright file, headed by the font's own copyright line."""
    text = debian_copyright.read_text(encoding="utf-8")
    body = text.split("License: SIL-1.1\n", 2)[2]
    body = body.split("\nLicense: ", 1)[0]
    lines = [line.removeprefix(" ") for line in body.splitlines()]
    lines = ["" if line == "." else line for line in lines]
    return f"{copyright_line}\n\nThis Font Software is licensed under the SIL Open Font License, Version 1.1.\n\n" + \
        "\n".join(lines).strip() + "\n"


ROOT = Path(__file__).resolve().parents[1]
WEB_FONT = ROOT / "ltr_teach" / "locale" / "ltr-teach-cjk.woff"


def web_characters(root: Path = ROOT) -> set[str]:
    """The non-ASCII characters the library can put in HTML: catalogue translations, the library's text,
    the course's code cells (item names typed in a notebook reach the tables)."""
    import json

    from babel.messages.pofile import read_po

    texts = []
    for po in sorted((root / "ltr_teach" / "locale").glob("*/LC_MESSAGES/ltr_teach.po")):
        with open(po, "rb") as fh:
            texts += [m.string for m in read_po(fh) if m.id and isinstance(m.string, str)]
    texts += [p.read_text(encoding="utf-8") for p in sorted((root / "ltr_teach").rglob("*.py"))]
    for notebook in sorted([*root.glob("notebooks/**/*.ipynb"), *root.glob("exercises/**/*.ipynb")]):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        texts += ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    texts += [p.read_text(encoding="utf-8") for p in sorted(root.glob("course/**/*.md"))]
    return {c for text in texts for c in text if ord(c) > 0x7F and c.isprintable()}


def build_web_font(out: Path = WEB_FONT) -> None:
    from fontTools.ttLib import TTFont

    font = TTFont(str(OUT_DIR / FONT_NAME))
    have = font.getBestCmap()
    points = sorted(ord(c) for c in web_characters() if ord(c) in have)
    options = subset.Options()
    options.hinting = False
    options.layout_features = []     # horizontal SC text needs no substitution; features pull in ~800 glyphs
    options.name_IDs = ["*"]         # copyright and licence stay with the font (OFL)
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.flavor = "woff"          # zlib: the standard library decompresses it; WOFF2 would need brotli
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=points)
    subsetter.subset(font)
    font.recalcTimestamp = False
    font.flavor = "woff"
    font.save(str(out))
    print(f"wrote {out} ({out.stat().st_size / 1e3:.0f} KB, {len(points)} characters)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ttc", type=Path, nargs="?", help="NotoSansCJK-Regular.ttc from Debian's fonts-noto-cjk")
    parser.add_argument("--licence", type=Path, help="fonts-noto-cjk's debian copyright file")
    parser.add_argument("--text", type=Path, action="append", default=[], help="a document whose Chinese to keep")
    parser.add_argument("--web", action="store_true", help="build the page's subset (ltr_teach/locale/ltr-teach-cjk.woff)")
    args = parser.parse_args()
    if args.web:
        build_web_font()
        return
    if args.ttc is None or args.licence is None:
        parser.error("the plot font needs TTC and --licence (or pass --web)")

    collection = TTCollection(str(args.ttc))
    font = next(f for f in collection.fonts if f["name"].getDebugName(1) == FACE)
    points = wanted_codepoints([p.read_text(encoding="utf-8") for p in args.text])

    options = subset.Options()
    options.hinting = False          # Agg renders unhinted text well at plot sizes; hints cost ~20 % of the file
    options.name_IDs = ["*"]         # keep copyright, licence and family names
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.layout_features = ["*"]  # keep vertical forms and locl so the SC glyphs are chosen
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(points))
    subsetter.subset(font)

    OUT_DIR.mkdir(parents=True, exist_ok=True)
    out = OUT_DIR / FONT_NAME
    font.recalcTimestamp = False     # keep Noto's own date: the same input gives the same bytes
    font.save(str(out))
    copyright_line = re.sub(r"\s+", " ", font["name"].getDebugName(0)).rstrip(".") + RESERVED_NAME_NOTE
    (OUT_DIR / "OFL.txt").write_text(ofl_text(args.licence, copyright_line), encoding="utf-8")
    kept = len(font.getBestCmap())
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB, {kept} characters) and {OUT_DIR / 'OFL.txt'}")


if __name__ == "__main__":
    main()
