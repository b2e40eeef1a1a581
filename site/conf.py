"""Sphinx configuration of the course website: both editions, rendered from the saved notebooks.

``tools/build_site.py`` copies this folder, ``notebooks/`` and ``exercises/`` into one source tree
(``_build/site_src``), puts MathJax (npm ``mathjax@3``) and the CJK font into ``_static`` and runs
Sphinx. The notebooks are not executed: their saved outputs are the page. Every asset is served from
the site itself (MathJax, fonts, the theme's scripts), so the site works from a folder opened with
``file://`` or any static server, offline.
"""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))  # the site's own Sphinx extensions

project = "排序评价指标 · Evaluating rankings"
author = "ltr_teach developers"
copyright = "ltr_teach developers"

# _ext/self_tests.py: the self-tests answered on the page; _ext/ltr_reference.py: the generated command-line and
# API pages (autodoc reads the docstrings, napoleon their NumPy-style sections)
extensions = ["myst_nb", "self_tests", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "ltr_reference"]
autodoc_typehints = "none"  # the docstrings say what each argument takes
napoleon_use_ivar = True  # a class's "Attributes" section as fields, not a second description of each member
root_doc = "index"
exclude_patterns = ["_build", "node_modules", "**.ipynb_checkpoints", "package.json", "package-lock.json",
                    "glossary.jieba.txt", "docs"]
templates_path = ["_templates"]
html_static_path = ["_static"]
html_css_files = ["site.css"]

# One build, two interfaces: Sphinx's own strings are English here, and each edition's pages get
# their edition's interface (see "Each edition's interface" below: the theme's strings in Chinese on
# the zh pages, a search page and a search index per edition). Each page's <html lang> is its
# edition's, so browsers pick CJK glyphs for the Chinese pages. The search index is Sphinx's Chinese
# one (jieba cuts the Chinese text into words, with the course's glossary as its user dictionary;
# Latin words are stemmed as English), see _chinese_search for the one fix it needs.
language = "en"
html_search_language = "zh"
#: jieba's user dictionary: the course's glossary terms, one a line (tools/build_site.py writes it beside
#: this file from ltr_teach.core.glossary), so 精确率 or 累计增益 is one search word, not two.
SEARCH_DICTIONARY = "glossary.jieba.txt"
html_search_options = {"dict": str(Path(__file__).with_name(SEARCH_DICTIONARY))}

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
#: The JupyterLite edition (`make lite`: _build/lite), a sibling folder of the site's (`make serve` serves
#: both), and its JupyterLab of each edition (tools/build_lite.py: LAB_APPS; lab-zh speaks Chinese).
LITE = "lite/"
LITE_APPS = {"zh": "lab-zh", "en": "lab", None: "lab"}


def _other_edition(pagename: str, docs=None) -> dict[str, str]:
    """The same page in each edition, as page names (``notebooks/zh/04_dcg_ndcg`` -> both); an edition
    without that page (the reference pages are English only) gives its index."""
    parts = pagename.split("/")
    for i, part in enumerate(parts):
        if part in EDITIONS:
            twins = {lang: "/".join([*parts[:i], lang, *parts[i + 1:]]) for lang in EDITIONS}
            return {lang: name if docs is None or name in docs else f"{lang}/index"
                    for lang, name in twins.items()}
    return {lang: f"{lang}/index" for lang in EDITIONS}


def _edition(pagename: str) -> str | None:
    """The edition a page belongs to: its folder's (``notebooks/zh/...``), or its search page's."""
    by_search = {page: lang for lang, page in SEARCH_PAGES.items()}
    return by_search.get(pagename, next((part for part in pagename.split("/") if part in EDITIONS), None))


def _page_context(app, pagename, templatename, context, doctree):
    parts = pagename.split("/")
    edition = _edition(pagename)
    up = "../" * (len(parts) - 1)
    targets = _other_edition(pagename, app.env.all_docs)
    context["ltr_edition"] = edition
    context["ltr_switch"] = [
        (label, app.builder.get_relative_uri(pagename, targets[lang]) if lang != edition else None, tag)
        for lang, (label, tag) in EDITIONS.items()
    ]
    source = app.env.doc2path(pagename, False) if pagename in app.env.all_docs else None
    notebook = str(source).replace("\\", "/") if source and str(source).endswith(".ipynb") else None
    context["ltr_notebook"] = notebook
    # The lite edition holds the notebooks at the repository's paths: open this one there.
    # A page that is no notebook (an index, a guide) opens its edition's start notebook (the one list of
    # them: ltr_teach.classroom.START_PAGES).
    from ltr_teach.classroom import START_PAGES

    opened = notebook if notebook else START_PAGES[edition]
    context["ltr_run_box"] = bool(notebook) or (pagename.endswith("index") and pagename.count("/") <= 1)
    context["ltr_lite"] = up + "../" + LITE + f"{LITE_APPS[edition]}/index.html?path={opened}"
    if edition is not None:
        context["language"] = EDITIONS[edition][1]


def _chinese_search():
    """Sphinx's Chinese search, whose page script names the stemmer it ships, keeping one-letter words.

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

        def word_filter(self, stemmed_word: str) -> bool:
            """Words of one letter or one Chinese character too: the glossary writes F 值 and P-R 曲线, and
            the page's search requires every word of a query (one left out of the index finds nothing)."""
            return len(stemmed_word) > 1 or bool(re.fullmatch(r"[a-z\u4e00-\u9fff]", stemmed_word))

    return ChineseSearch


# --- Each edition's interface: the theme in the page's language, a search per edition ---------------

#: Where each search looks: its page and its index (written by _write_edition_indexes). The site's
#: own pages (the root index, the start page) search both editions. At the site's root, as Sphinx's own
#: search page: its script makes each result's link relative to the root.
SEARCH_PAGES = {lang: f"search-{lang}" for lang in EDITIONS}
SEARCH_INDEXES = {lang: f"searchindex-{lang}.js" for lang in EDITIONS}
html_additional_pages = {page: "search.html" for page in SEARCH_PAGES.values()}
html_js_files = []

#: The theme's (Furo's) strings Sphinx's zh_CN catalogue lacks: Furo ships no translations of its own.
THEME_ZH = {
    "Skip to content": "跳到正文",
    "Back to top": "回到顶部",
    "On this page": "本页内容",
    "Next": "下一页",
    "Previous": "上一页",
    "Home": "首页",
    "Made with ": "本站由 ",
    '<a href="https://www.sphinx-doc.org/">Sphinx</a> and ': '<a href="https://www.sphinx-doc.org/">Sphinx</a> 与 ',
    '<a href="https://github.com/pradyunsg/furo">Furo</a>': '<a href="https://github.com/pradyunsg/furo">Furo</a> 主题生成',
    "Copyright &#169; %(copyright)s": "版权所有 &#169; %(copyright)s",
    "Please activate JavaScript to enable the search functionality.": "请启用 JavaScript 以使用搜索功能。",
}
#: Furo's words written into its templates without gettext, and their Chinese on the zh pages.
THEME_LITERALS_ZH = {
    'aria-label="Toggle site navigation sidebar"': 'aria-label="显示或隐藏导航栏"',
    'aria-label="Toggle table of contents sidebar"': 'aria-label="显示或隐藏本页目录"',
    'aria-label="Toggle Light / Dark / Auto color theme"': 'aria-label="切换浅色、深色或跟随系统的配色"',
    'aria-label="Toggle navigation of ': 'aria-label="展开或收起：',
    "</a>'s\n": "</a> 的\n",
    # the titles of the theme's icons (partials/icons.html), read by screen readers
    "<title>Contents</title>": "<title>目录</title>",
    "<title>Menu</title>": "<title>菜单</title>",
    "<title>Expand</title>": "<title>展开</title>",
    "<title>Light mode</title>": "<title>浅色</title>",
    "<title>Dark mode</title>": "<title>深色</title>",
    "<title>Auto light/dark, in light mode</title>": "<title>跟随系统（现为浅色）</title>",
    "<title>Auto light/dark, in dark mode</title>": "<title>跟随系统（现为深色）</title>",
}
#: Each edition's name of the site (the theme's brand and the pages' <title>); the site's own pages keep both.
SITE_TITLES = {"zh": "排序评价指标", "en": "Evaluating rankings"}
COPYRIGHTS = {"zh": "ltr_teach 的开发者", "en": copyright}
#: Sphinx's permalink titles ("Link to this heading"), written with the build's (English) catalogue.
PERMALINK = re.compile(r'title="(Link to this \w+)"')
#: Sphinx's JavaScript strings (the search page's "Searching", "Search Results", the no-result message) in
#: Chinese: its own zh_CN catalogue, served beside the theme's scripts and loaded by the zh pages only.
ZH_SCRIPT = "_static/ltr-translations-zh_CN.js"


class _EditionTranslations:
    """gettext for one edition's pages: Sphinx's catalogue of the language, then :data:`THEME_ZH`."""

    def __init__(self, language: str, extra: dict[str, str]):
        import gettext

        import sphinx

        self.catalogue = gettext.translation("sphinx", Path(sphinx.__file__).parent / "locale", [language])
        self.extra = extra

    def gettext(self, message: str) -> str:
        key = " ".join(message.split()) if message.strip() and "\n" in message else message
        for candidate in (message, message.strip(), key):
            if candidate in self.extra:
                return self.extra[candidate]
        return self.catalogue.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalogue.ngettext(singular, plural, n)


_ZH_TRANSLATIONS = None


def _interface(app, pagename, templatename, context, doctree):
    """The edition's search page and index, and on a zh page the theme's strings in Chinese."""
    global _ZH_TRANSLATIONS
    edition = _edition(pagename)
    context["ltr_search_page"] = SEARCH_PAGES.get(edition, "search")
    context["ltr_search_index"] = SEARCH_INDEXES.get(edition, "searchindex.js")
    if edition is not None:
        context["docstitle"] = SITE_TITLES[edition]
        context["copyright"] = COPYRIGHTS[edition]
        # "Next" after an edition's last page is the other edition's index: each edition reads on its own
        _parent, prev, following = app.env.collect_relations().get(pagename, (None, None, None))
        for key, name in (("prev", prev), ("next", following)):
            if name is not None and _edition(name) != edition:
                context[key] = None
        context["furo_navigation_tree"] = _edition_navigation(context["furo_navigation_tree"],
                                                              context["pathto"](f"{edition}/index"))
    if edition == "zh":
        if _ZH_TRANSLATIONS is None:
            _ZH_TRANSLATIONS = _EditionTranslations("zh_CN", THEME_ZH)
        # Jinja's {% trans %} and _() look gettext up in the page's context before the globals.
        context["gettext"] = _ZH_TRANSLATIONS.gettext
        context["ngettext"] = _ZH_TRANSLATIONS.ngettext
        context["script_files"] = [*context["script_files"], ZH_SCRIPT]


def _edition_navigation(tree: str, edition_index: str) -> str:
    """The theme's sidebar tree with the page's edition only (the root's toctree holds both)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(tree, "html.parser")
    for item in soup.select("ul > li.toctree-l1"):
        if item.a is None or item.a.get("href") != edition_index:
            item.decompose()
    return str(soup)


def _render_literals(app):
    """Replace :data:`THEME_LITERALS_ZH` in the zh pages' HTML (the theme writes them without gettext)."""
    templates = app.builder.templates
    render = templates.render

    def render_edition(template, context):
        html = render(template, context)
        if context.get("ltr_edition") == "zh":
            for english, chinese in THEME_LITERALS_ZH.items():
                html = html.replace(english, chinese)
            html = PERMALINK.sub(lambda m: f'title="{_ZH_TRANSLATIONS.gettext(m[1]).rstrip("。")}"', html)
        return html

    templates.render = render_edition


def _edition_index(frozen: dict, keep: set[str]) -> dict:
    """Sphinx's frozen search index restricted to the pages in ``keep``, the page numbers renumbered."""
    old = [i for i, name in enumerate(frozen["docnames"]) if name in keep]
    new = {o: n for n, o in enumerate(old)}

    def docs(value):
        picked = [new[i] for i in (value if isinstance(value, list) else [value]) if i in new]
        return picked if isinstance(value, list) else (picked[0] if picked else None)

    def terms(mapping):
        out = {}
        for term, value in mapping.items():
            value = docs(value)
            if value not in (None, []):
                out[term] = value
        return out

    return {
        **frozen,
        "docnames": [frozen["docnames"][i] for i in old],
        "filenames": [frozen["filenames"][i] for i in old],
        "titles": [frozen["titles"][i] for i in old],
        "terms": terms(frozen["terms"]),
        "titleterms": terms(frozen["titleterms"]),
        "objects": {prefix: [(new[e[0]], *e[1:]) for e in entries if e[0] in new]
                    for prefix, entries in frozen["objects"].items()},
        "alltitles": {title: [(new[i], anchor) for i, anchor in places if i in new]
                      for title, places in frozen["alltitles"].items() if any(i in new for i, _ in places)},
        "indexentries": {entry: [(new[i], *rest) for i, *rest in places if i in new]
                         for entry, places in frozen["indexentries"].items() if any(p[0] in new for p in places)},
    }


def _write_edition_indexes(app, exception):
    """:data:`SEARCH_INDEXES`: the site's index cut to each edition's pages."""
    if exception is not None or app.builder.format != "html" or app.builder.indexer is None:
        return
    import shutil

    import sphinx
    from sphinx.search import js_index

    frozen = app.builder.indexer.freeze()
    for lang in EDITIONS:
        keep = {name for name in frozen["docnames"] if _edition(name) == lang}
        (Path(app.outdir) / SEARCH_INDEXES[lang]).write_text(
            js_index.dumps(_edition_index(frozen, keep)), encoding="utf-8")
    shutil.copy2(Path(sphinx.__file__).parent / "locale" / "zh_CN" / "LC_MESSAGES" / "sphinx.js",
                 Path(app.outdir) / ZH_SCRIPT)


def setup(app):
    app.connect("html-page-context", _page_context)
    app.connect("html-page-context", _interface, priority=900)  # after the theme's, whose tree it cuts
    app.connect("builder-inited", _render_literals)
    app.connect("build-finished", _write_edition_indexes)
    app.add_search_language(_chinese_search())
