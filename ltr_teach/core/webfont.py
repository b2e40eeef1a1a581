"""The course's Chinese glyphs served to the page, so that tables and widget labels never show tofu.

Plots draw Chinese with the bundled Noto Sans CJK SC subset (``interactive/fonts``), but HTML is drawn
by the browser, with the fonts of the student's machine: on one without a CJK font (a fresh Linux
box, a container) every Chinese label is a row of empty boxes. So the first HTML output that holds
Chinese carries, once per kernel, a ``<style>`` element with an ``@font-face`` whose source is a
``data:`` URL of :data:`WEB_FONT`: a WOFF subset of the bundled font holding only the characters the
library can show (every Chinese message of the catalogues, every non-ASCII character of the
library's own text: item names, glossary, the documents' quotes) and those of the course's code cells.
About 130 KB (170 KB as base64), once per notebook, against 4.1 MB for the plot font: a page needs
only the glyphs it can show. The style lives inside the output itself, so it is saved with the
notebook and survives ``nbconvert`` to HTML; in a live JupyterLab a two-line script also copies it
into the page's ``<head>``, so it stays when its own output is cleared or re-run. A widget carries it in a
hidden first child of its own (no extra output, so a saved notebook's outputs stay as they were).

The font is the last choice before the generic family: :data:`FONT_STACK` lists JupyterLab's
font, then the usual CJK system fonts (PingFang, Microsoft YaHei, Noto Sans CJK ...), then the
served face, so a machine with a CJK font keeps using it and only a machine without one falls back
to the served glyphs. It applies to the library's HTML (every element whose class starts ``ltr-``).

``python tools/make_font_subset.py --web`` (run by ``tools/catalogs.py`` after every catalogue change)
rebuilds the subset; ``tests/test_webfont.py`` fails when a character the library can show is missing.

Serving happens in a Jupyter kernel (IPython's shell has a ``kernel``), where an output reaches a page; elsewhere
(a script, the test suite) HTML stays as written unless :data:`enabled` says otherwise.

Examples
--------
>>> from ltr_teach.core import webfont
>>> webfont.enabled = True; reset()
>>> first = serve("<table class='ltr-teach-table'><td>口红</td></table>")
>>> first.startswith("<style id='ltr-teach-font'>@font-face{font-family:'ltr-teach CJK'")
True
>>> serve("<table class='ltr-teach-table'><td>面霜</td></table>")   # once per kernel
"<table class='ltr-teach-table'><td>面霜</td></table>"
>>> reset()
>>> serve("<b>NDCG@3 = 1</b>")   # nothing Chinese to draw: nothing served
'<b>NDCG@3 = 1</b>'
>>> webfont.enabled = None; reset()
"""

from __future__ import annotations

import base64
import functools
import re
import sys
from contextlib import contextmanager
from pathlib import Path

#: The subset served to the page (built by tools/make_font_subset.py --web from the bundled plot font).
WEB_FONT = Path(__file__).resolve().parents[1] / "locale" / "ltr-teach-cjk.woff"
#: The family name the served face takes (a name no system font has, so it never shadows one).
FAMILY = "ltr-teach CJK"
#: CJK system fonts tried before the served face: macOS, Windows, Linux distributions, Adobe's release.
SYSTEM_CJK_FONTS = ("PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Noto Sans SC",
                    "Source Han Sans SC", "WenQuanYi Micro Hei")
#: JupyterLab's content font (with its own value as the default outside JupyterLab), the system CJK
#: fonts, the served face, then the generic family.
FONT_STACK = ("var(--jp-content-font-family, system-ui, -apple-system, 'Segoe UI', Helvetica, Arial), "
              + ", ".join(f"'{name}'" for name in SYSTEM_CJK_FONTS) + f", '{FAMILY}', sans-serif")
#: The library's HTML: every element with a class starting ``ltr-``, and what it holds but code, icons (a button's
#: Font Awesome arrow keeps its own font) and typeset maths (MathJax 3 draws its glyphs with its own fonts: the
#: text font would turn a formula into boxes and misplaced letters).
_NOT = ":not(code):not(pre):not(kbd):not(i):not(.fa):not([class*=' fa-']):not(mjx-container):not(mjx-container *)"
_PARTS = ("[class^='ltr-']", "[class*=' ltr-']", f"[class^='ltr-'] {_NOT}", f"[class*=' ltr-'] {_NOT}")
SELECTOR = ", ".join(_PARTS)
#: Chromium keeps the missing-glyph boxes of the first text it drew while the face was still loading, even after
#: the face arrives, until that text's font description changes. So the library's HTML changes one: an animation
#: (no script needed, so it works in an untrusted notebook and in a widget) turns kerning off and on a few times
#: in the first seconds (CJK glyphs have no kerning; each change redraws every word with the loaded face).
REDRAW = ("@keyframes ltrteach-redraw{0%,50%{font-kerning:auto}25%,75%,100%{font-kerning:none}}",
          "animation:ltrteach-redraw 4s linear 0.3s forwards")

#: The style element's id (the head copy's is this + "-head"); nbval's sanitizer drops the element by it.
STYLE_ID = "ltr-teach-font"

#: True: serve; False: never; None (default): serve in a Jupyter kernel only.
enabled: bool | None = None

_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
_served = False
_held = 0


@functools.lru_cache(maxsize=1)
def style_element() -> str:
    """The ``<style>`` element (one line: the font as base64, the stack for the library's classes) and
    the script that copies it into the page's head."""
    data = base64.b64encode(WEB_FONT.read_bytes()).decode("ascii")
    css = (f"@font-face{{font-family:'{FAMILY}';src:url(data:font/woff;base64,{data}) format('woff');"
           f"font-display:block}}{REDRAW[0]}{SELECTOR}{{font-family:{FONT_STACK};{REDRAW[1]}}}")
    copy = (f"<script>(function(){{var s=document.getElementById('{STYLE_ID}');"
            f"if(s&&!document.getElementById('{STYLE_ID}-head')){{var c=s.cloneNode(true);"
            f"c.id='{STYLE_ID}-head';document.head.appendChild(c);}}}})();</script>")
    return f"<style id='{STYLE_ID}'>{css}</style>{copy}"


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a character of the CJK blocks (hanzi, CJK and full-width punctuation)."""
    return _CJK.search(text) is not None


def serve(markup: str) -> str:
    """``markup`` with the style element in front when it is the first HTML with Chinese of this kernel.

    Parameters
    ----------
    markup : str
        An output's HTML (a table, a card, a panel).

    Returns
    -------
    str
        ``markup`` itself, or the style element followed by it (once per kernel, and never inside
        :func:`held`: HTML that a widget embeds is replaced on every change, so the widget serves the font
        on its own, see :func:`widget_needs_font`).
    """
    global _served
    if _served or _held or not _active() or not has_cjk(markup):
        return markup
    _served = True
    return style_element() + markup


def widget_needs_font() -> bool:
    """True once: for the first widget displayed in this kernel, which then carries the style element."""
    global _served
    if _served or not _active():
        return False
    _served = True
    return True


def _active() -> bool:
    if enabled is not None:
        return enabled
    ipython = getattr(sys.modules.get("IPython"), "get_ipython", None)  # not imported here: only asked
    return hasattr(ipython() if ipython else None, "kernel")  # a Jupyter kernel's shell has one; a terminal's not


@contextmanager
def held():
    """Inside the block :func:`serve` serves nothing (HTML that becomes a widget's value)."""
    global _held
    _held += 1
    try:
        yield
    finally:
        _held -= 1


def reset() -> None:
    """Forget that the font was served (a test's fresh kernel)."""
    global _served
    _served = False


__all__ = ["FAMILY", "FONT_STACK", "REDRAW", "SELECTOR", "STYLE_ID", "SYSTEM_CJK_FONTS", "WEB_FONT", "has_cjk", "held",
           "reset", "serve", "style_element", "widget_needs_font"]
