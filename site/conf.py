"""Sphinx configuration of the course website: both editions, rendered from the saved notebooks.

``tools/build_site.py`` copies this folder, ``notebooks/`` and ``exercises/`` into one source tree
(``_build/site_src``), puts MathJax (npm ``mathjax@3``) and the CJK font into ``_static`` and runs
Sphinx. The notebooks are not executed: their saved outputs are the page. Every asset is served from
the site itself (MathJax, fonts, the theme's scripts), so the site works from a folder opened with
``file://`` or any static server, offline.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))  # the site's own Sphinx extensions

project = "排序评价指标 · Evaluating rankings"
author = "ltr_teach developers"
copyright = "ltr_teach developers"

extensions = ["myst_nb", "self_tests"]  # self_tests: _ext/self_tests.py
root_doc = "index"
exclude_patterns = ["_build", "node_modules", "**.ipynb_checkpoints", "package.json", "package-lock.json"]
templates_path = ["_templates"]
html_static_path = ["_static"]
html_css_files = ["site.css"]

# The interface strings (search box, "next") are English; each page's <html lang> is its edition's
# (see _page_context), so browsers pick CJK glyphs for the Chinese pages. The search index is
# Sphinx's Chinese one (jieba cuts the Chinese text into words, Latin words are stemmed as English),
# so both editions are found; see _ChineseSearch for the one fix it needs.
language = "en"
html_search_language = "zh"

html_theme = "furo"  # bundles its CSS, JS and icons; no web fonts
html_title = project
html_show_sourcelink = False
html_copy_source = False
html_favicon = "_static/favicon.svg"  # else browsers ask for /favicon.ico, a 404

# MathJax 3 from the site's own _static (tools/build_site.py copies npm's mathjax@3 there),
# never from a CDN.
mathjax_path = "mathjax/tex-mml-chtml.js"

# The library's HTML outputs (cards, "exact form" boxes) hold TeX between $$ and $, which JupyterLab
# typesets: so does the site, as JupyterLab does (MyST's own math arrives as \( \) and \[ \]).
# Code (the .highlight blocks: code cells, printed text) is left alone.
myst_update_mathjax = False
mathjax3_config = {
    "tex": {
        "inlineMath": [["\\(", "\\)"], ["$", "$"]],
        "displayMath": [["\\[", "\\]"], ["$$", "$$"]],
        "processEscapes": True,
    },
    "options": {
        "ignoreHtmlClass": "tex2jax_ignore|mathjax_ignore|highlight",
        "processHtmlClass": "tex2jax_process|mathjax_process|math|output_area",
    },
}
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3

# Saved outputs only: the site never runs a notebook.
nb_execution_mode = "off"
# The notebooks are saved without widget state, so a widget view would render as nothing, and
# MyST-NB would add require.js and the widget manager from a CDN: render the widget's text
# (or HTML) fallback instead, and load no widget script at all.
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js = {}

suppress_warnings = ["mystnb.unknown_mime_type"]

EDITIONS = {"zh": ("中文", "zh-CN"), "en": ("English", "en")}
LITE = "lite/"  # the JupyterLite edition (`make lite`: _build/lite), a sibling folder of the site's


def _other_edition(pagename: str) -> dict[str, str]:
    """The same page in each edition, as page names (``notebooks/zh/04_dcg_ndcg`` -> both)."""
    parts = pagename.split("/")
    for i, part in enumerate(parts):
        if part in EDITIONS:
            return {lang: "/".join([*parts[:i], lang, *parts[i + 1:]]) for lang in EDITIONS}
    return {lang: f"{lang}/index" for lang in EDITIONS}


def _page_context(app, pagename, templatename, context, doctree):
    parts = pagename.split("/")
    edition = next((part for part in parts if part in EDITIONS), None)
    up = "../" * (len(parts) - 1)
    targets = _other_edition(pagename)
    context["ltr_edition"] = edition
    context["ltr_switch"] = [
        (label, app.builder.get_relative_uri(pagename, targets[lang]) if lang != edition else None, tag)
        for lang, (label, tag) in EDITIONS.items()
    ]
    source = app.env.doc2path(pagename, False) if pagename in app.env.all_docs else None
    notebook = str(source).replace("\\", "/") if source and str(source).endswith(".ipynb") else None
    context["ltr_notebook"] = notebook
    # The lite edition holds the notebooks at the repository's paths: open this one there.
    context["ltr_lite"] = up + "../" + LITE + (f"lab/index.html?path={notebook}" if notebook else "")
    if edition is not None:
        context["language"] = EDITIONS[edition][1]


def _chinese_search():
    """Sphinx's Chinese search, whose page script names the stemmer it ships.

    The Chinese index stems Latin words with the English stemmer and ships ``english-stemmer.js``,
    but its page script says ``window.Stemmer = ChineseStemmer`` (from the language's name), a class
    that does not exist: the search page stops at "Searching" with a ReferenceError. The same
    language with the English stemmer named.
    """
    import jieba
    from sphinx.search.zh import SearchChinese

    jieba.setLogLevel(logging.WARNING)  # else its dictionary load is logged at DEBUG to stderr

    class ChineseSearch(SearchChinese):
        language_name = "English"  # only used to name the JavaScript stemmer class: EnglishStemmer

    return ChineseSearch


def setup(app):
    app.connect("html-page-context", _page_context)
    app.add_search_language(_chinese_search())
