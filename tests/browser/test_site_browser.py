"""The course website (``make site``: Sphinx + MyST-NB, both editions) built, served and opened in Chromium.

The site is built here into a temporary folder with ``tools/build_site.py`` (the same code as
``make site``), so the test never reads a stale ``_build/site``. Then:

* a static scan of every page and style sheet: no ``<script src>``, ``<link href>``, CSS ``url()``
  or ``@font-face`` source on the web (``http(s)://`` or ``//host``), no widget-manager script;
* every relative ``href``/``src`` of every page names a file of the site, and its ``#anchor`` an
  element of that page (the one link out of the site is the JupyterLite edition beside it);
* pages of both editions, served on 127.0.0.1: MathJax typesets the formulas (``mjx-container``),
  no console error and no request off 127.0.0.1; the language switch leads to the same page of the
  other edition; search finds a page; in a Chromium that has no CJK font at all, a Chinese heading
  is drawn with the site's own font at 1 em per character (a missing-glyph box is about 0.4 em);
* the same pages from ``file://`` (a folder on a USB stick): formulas typeset, no error.

Screenshots of a Chinese and an English page (formula, table, plot) are saved and their paths printed.
"""

from __future__ import annotations

import functools
import http.server
import re
import sys
import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from conftest import REPO, SAVED_SCREENSHOTS, _fresh_page

# MyST-Parser's use of an attribute Sphinx 11 removes: not ours to fix, and 400 lines of noise.
pytestmark = pytest.mark.filterwarnings("ignore:.*is deprecated. Check CHANGES for Sphinx API")

#: A page of each edition with formulas, a table and a plot; the same file name in both.
PAGE = "notebooks/{lang}/04_dcg_ndcg.html"
WEB = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)   # http://, https://, //host
CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)", re.IGNORECASE)
CSS_IMPORT = re.compile(r"@import\s+['\"]([^'\"]+)", re.IGNORECASE)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site, built from the committed notebooks into a temporary folder."""
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import build_site
    finally:
        sys.path.remove(str(REPO / "tools"))
    return build_site.build(tmp_path_factory.mktemp("site") / "site")


@pytest.fixture(scope="module")
def site_url(site):
    """The built site served by a plain static server on 127.0.0.1."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
def site_page(request, chromium, screenshot_dir):
    """A fresh tab of the usual Chromium (no JupyterLab: the site is static), with its PageWatch."""
    yield from _fresh_page(request, chromium, screenshot_dir, locale="en-US")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


class _Refs(HTMLParser):
    """The references of one HTML page: (tag, attribute, value, rel), the ids, inline styles."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.refs: list[tuple[str, str, str, str]] = []
        self.ids: set[str] = set()
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("id", "name") if tag == "a" else ("id",):
            if attrs.get(name):
                self.ids.add(attrs[name])
        for name in ("href", "src"):
            if attrs.get(name) is not None:
                self.refs.append((tag, name, attrs[name], attrs.get("rel") or ""))
        if attrs.get("style"):
            self.styles.append(attrs["style"])
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.styles.append(data)


@functools.cache
def _parse(path: Path) -> _Refs:
    refs = _Refs()
    refs.feed(path.read_text(encoding="utf-8"))
    return refs


def _pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_site_has_every_notebook_of_both_editions(site):
    """One page per committed notebook, in the same folders, and the three index pages."""
    expected = {"index.html", "zh/index.html", "en/index.html", "search.html"}
    for folder in ("notebooks", "notebooks/zh", "notebooks/en", "exercises/zh", "exercises/en"):
        expected |= {f"{folder}/{nb.stem}.html" for nb in (REPO / folder).glob("*.ipynb")}
    built = {page.relative_to(site).as_posix() for page in _pages(site)}
    assert len([page for page in expected if page.startswith("notebooks/zh/")]) >= 16
    assert expected <= built, sorted(expected - built)


def test_no_asset_from_the_web(site):
    """No page's <script src> or <link href>, and no style sheet's url()/@import/@font-face, is on the web."""
    offenders = []
    for page in _pages(site):
        refs = _parse(page)
        for tag, attr, value, _rel in refs.refs:
            if tag in ("script", "link", "img", "iframe", "source", "video", "audio") and WEB.match(value.strip()):
                offenders.append(f"{page.relative_to(site)}: <{tag} {attr}={value}>")
        for style in refs.styles:
            for url in CSS_URL.findall(style) + CSS_IMPORT.findall(style):
                if WEB.match(url.strip()):
                    offenders.append(f"{page.relative_to(site)}: inline style url({url})")
    css_files = sorted(site.rglob("*.css"))
    assert any(css.name == "site.css" for css in css_files)
    for css in css_files:
        text = css.read_text(encoding="utf-8")
        for url in CSS_URL.findall(text) + CSS_IMPORT.findall(text):
            if WEB.match(url.strip()):
                offenders.append(f"{css.relative_to(site)}: url({url})")
    assert offenders == []


def test_no_widget_manager_or_require_js(site):
    """The notebooks are saved without widget state: MyST-NB must load no require.js or widget
    embedder, and render the widgets' saved text or HTML instead of an empty widget view."""
    for page in _pages(site):
        html = page.read_text(encoding="utf-8")
        for needle in ("require.min.js", "require.js", "embed-amd", "html-manager", "widget-view+json"):
            assert needle not in html, f"{page.relative_to(site)} holds {needle!r}"


def test_every_internal_link_resolves(site):
    """Every relative href/src of every page names an existing file of the site (and anchor on it)."""
    broken, checked = [], 0
    lite = site.parent / "lite"
    for page in _pages(site):
        for _tag, _attr, value, _rel in _parse(page).refs:
            value = value.strip()
            if not value or WEB.match(value) or re.match(r"^[a-z][a-z0-9+.-]*:", value, re.IGNORECASE):
                continue   # web links (not assets: checked above), mailto:, data:, javascript:
            parts = urlsplit(value)
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            checked += 1
            if not target.is_relative_to(site):
                # The one way out: the JupyterLite edition, built beside the site by `make lite`.
                if target not in (lite / "lab" / "index.html", lite / "lab-zh" / "index.html"):
                    broken.append(f"{page.relative_to(site)}: {value} leaves the site")
                continue
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                broken.append(f"{page.relative_to(site)}: {value} (no such file)")
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in _parse(target).ids:
                broken.append(f"{page.relative_to(site)}: {value} (no such anchor)")
    assert checked > 1000
    assert broken == []


def test_every_page_has_the_switch_and_the_run_box(site):
    """Each notebook page links to the same page of the other edition and tells how to run it."""
    for lang, other in (("zh", "en"), ("en", "zh")):
        for page in sorted((site / "notebooks" / lang).glob("*.html")) + sorted((site / "exercises" / lang).glob("*.html")):
            html = page.read_text(encoding="utf-8")
            assert f'<html class="no-js" lang="{"zh-CN" if lang == "zh" else "en"}"' in html
            switch = re.search(r'<nav class="ltr-switch".*?</nav>', html, re.DOTALL).group(0)
            assert f'href="../{other}/{page.name}"' in switch, page
            assert 'class="ltr-run"' in html and "make tutorial" in html and "ltr-teach tutorial" in html
            folder = page.parent.parent.name
            app = "lab-zh" if lang == "zh" else "lab"
            lite = f'class="ltr-lite" href="../../../lite/{app}/index.html?path={folder}/{lang}/{page.stem}.ipynb"'
            assert lite in html, page
    # a page that is no notebook opens its edition's start notebook, in its edition's JupyterLab
    for lang, app in (("zh", "lab-zh"), ("en", "lab")):
        html = (site / lang / "index.html").read_text(encoding="utf-8")
        assert f'href="../../lite/{app}/index.html?path=notebooks/{lang}/00_start_here.ipynb"' in html


def _open(page, url: str):
    page.goto(url)
    page.wait_for_load_state("load")
    page.wait_for_selector("mjx-container", state="attached")
    page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("() => MathJax.startup.promise")


#: How many of MathJax's web fonts (families MJXTEX*, MJXZERO) the page loaded; it loads them only on use.
MATHJAX_FONTS_LOADED_JS = """async () => {
    await document.fonts.ready;
    return [...document.fonts].filter(f => f.family.replace(/"/g, '').startsWith('MJX') && f.status === 'loaded').length;
}"""


def _screenshots(page, stem: str, screenshot_dir: Path) -> list[Path]:
    """The page at a formula, at a table and at a plot (each scrolled to the top of the view)."""
    paths = []
    for what, selector in (("formula", "mjx-container[display='true']"), ("table", ".cell_output table"),
                           ("plot", ".cell_output img")):
        element = page.locator(selector).first
        # instant: the theme scrolls smoothly, and a screenshot mid-scroll is half blank
        element.evaluate("e => e.scrollIntoView({block: 'start', behavior: 'instant'})")
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        path = screenshot_dir / f"site-{stem}-{what}.png"
        page.screenshot(path=str(path))
        paths.append(path)
    SAVED_SCREENSHOTS.extend(paths)
    return paths


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_page_renders_formulas_without_errors(lang, site_url, site_page, screenshot_dir, capsys):
    """A notebook page of each edition: formulas typeset, a table and a plot shown, no error."""
    page, watch = site_page
    _open(page, site_url + PAGE.format(lang=lang))
    formulas = page.locator("mjx-container").count()
    assert formulas >= 10
    # MathJax draws its own glyphs: a typeset formula has width, no "Math input error" box.
    assert page.locator("mjx-merror").count() == 0
    # The TeX in the library's HTML outputs ($$...$$) is typeset too, as JupyterLab does: none is left.
    assert "$$" not in page.locator("article").inner_text()
    assert page.locator(".cell_output mjx-container").count() >= 1
    # ... in MathJax's own fonts (the library's output style sets the text font on all it holds).
    fonts = page.locator(".cell_output mjx-container mjx-c").evaluate_all(
        "cs => [...new Set(cs.filter(c => !c.closest('mjx-utext')).map(c => getComputedStyle(c).fontFamily))]")
    assert fonts and all(font.startswith("MJXZERO, MJXTEX") for font in fonts), fonts
    assert page.locator("mjx-container[display='true']").first.bounding_box()["width"] > 50
    assert page.locator(".cell_output table").count() >= 1
    plot = page.locator(".cell_output img").first
    assert plot.evaluate("img => img.complete && img.naturalWidth > 100")
    assert page.evaluate(MATHJAX_FONTS_LOADED_JS) >= 1
    paths = _screenshots(page, lang, screenshot_dir)
    with capsys.disabled():
        print(f"\nsite {lang} page: " + ", ".join(map(str, paths)))
    assert watch.problems() == []


@pytest.mark.parametrize(("lang", "other", "label"), [("zh", "en", "English"), ("en", "zh", "中文")])
def test_language_switch_opens_the_same_page(lang, other, label, site_url, site_page):
    page, watch = site_page
    page.goto(site_url + f"notebooks/{lang}/07_roc_auc.html")
    page.locator(".ltr-switch a", has_text=label).click()
    page.wait_for_url(site_url + f"notebooks/{other}/07_roc_auc.html")
    assert page.locator("h1").first.inner_text().startswith("07")
    assert watch.problems() == []


@pytest.mark.parametrize(("query", "expected"), [("reciprocal", "notebooks/en/02_mrr.html"),
                                                  ("倒数", "notebooks/zh/02_mrr.html")])
def test_search_finds_a_page(query, expected, site_url, site_page):
    """Sphinx's own search, run in the page (offline: the index is the site's searchindex.js)."""
    page, watch = site_page
    page.goto(site_url + f"search.html?q={query}")
    page.wait_for_selector("#search-results ul li a")
    hrefs = page.locator("#search-results ul li a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert any(href.split("?")[0].split("#")[0].endswith(expected) for href in hrefs), hrefs
    assert watch.problems() == []


#: Every run of 2+ Chinese characters of the page's headings: [text, width / (characters × font size)].
HEADING_RUNS_JS = """() => {
    const out = [];
    for (const heading of document.querySelectorAll('article h1, article h2')) {
    const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of node.textContent.matchAll(/[\\u4e00-\\u9fff]{2,}/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const size = parseFloat(getComputedStyle(node.parentElement).fontSize);
            out.push([match[0], range.getBoundingClientRect().width / (match[0].length * size)]);
        }
    }
    }
    return out;
}"""


@pytest.mark.parametrize("path", ["zh/index.html", PAGE.format(lang="zh")])
def test_chinese_drawn_without_a_system_cjk_font(path, site_url, page_without_cjk):
    """With no CJK font on the machine, the site's own face draws Chinese at 1 em per character."""
    page, watch = page_without_cjk
    page.goto(site_url + path)
    page.wait_for_load_state("load")
    page.evaluate("() => document.fonts.ready")
    runs = page.evaluate(HEADING_RUNS_JS)
    assert len(runs) >= 2, runs
    assert all(0.95 <= ratio <= 1.05 for _text, ratio in runs), runs
    assert page.evaluate("() => document.fonts.check('16px \"LTR Teach CJK\"', '排序')")
    assert watch.problems() == []


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_site_works_from_a_folder(lang, site, site_page):
    """Opened from file:// (a folder on a USB stick, no server): formulas typeset, no error."""
    page, watch = site_page
    _open(page, (site / PAGE.format(lang=lang)).as_uri())
    assert page.locator("mjx-container").count() >= 10
    assert page.locator("mjx-merror").count() == 0
    # MathJax's own glyph fonts load from the folder too (a formula in fallback fonts is wrong-looking).
    assert page.evaluate(MATHJAX_FONTS_LOADED_JS) >= 1
    assert watch.page_errors == [] and watch.console_errors == []
    # The watch counts file:// as "off 127.0.0.1"; what matters is that nothing came from the web.
    assert [url for url in watch.outside_requests if not url.startswith("file://")] == []


def test_every_page_opens_without_errors(site, site_url, site_page):
    """Every page of the site, opened in turn: no page or console error, no request off 127.0.0.1,
    and no formula MathJax could not read (an ``mjx-merror`` box)."""
    page, watch = site_page
    unreadable = []
    pages = _pages(site)
    for path in pages:
        page.goto(site_url + path.relative_to(site).as_posix())
        page.wait_for_load_state("load")
        page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
        if page.locator("mjx-merror").count():
            unreadable.append(path.relative_to(site).as_posix())
    assert len(pages) >= 60
    assert unreadable == []
    assert watch.problems() == []


# --- Each edition's interface and search (site/conf.py: "Each edition's interface") -----------------

#: The page of the zh edition that teaches each glossary term (ltr_teach.core.glossary.TERMS).
TEACHES = {
    "precision": "01_precision_recall_f", "recall": "01_precision_recall_f", "accuracy": "01_precision_recall_f",
    "f_beta": "01_precision_recall_f", "harmonic_mean": "01_precision_recall_f", "cutoff": "01_precision_recall_f",
    "reciprocal_rank": "02_mrr", "mrr": "02_mrr", "query": "02_mrr", "rank": "02_mrr",
    "average_precision": "03_ap_map", "map": "03_ap_map", "interpolated_precision": "03_ap_map",
    "cg": "04_dcg_ndcg", "gain": "04_dcg_ndcg", "discount": "04_dcg_ndcg", "dcg": "04_dcg_ndcg",
    "idcg": "04_dcg_ndcg", "ndcg": "04_dcg_ndcg", "ideal_order": "04_dcg_ndcg", "relevance": "04_dcg_ndcg",
    "judged_pool": "04_dcg_ndcg", "cascade_model": "06_err_cascade", "err": "06_err_cascade",
    "roc": "07_roc_auc", "auc": "07_roc_auc", "pr_curve": "07_roc_auc",
}
#: Names a Chinese page may show in Latin letters outside its text: the theme's credits.
INTERFACE_NAMES = {"Sphinx", "Furo", "pradyunsg"}


class _Interface(HTMLParser):
    """A page's interface: what the theme writes around the course's text. That is the text and the
    accessible names and hints (aria-label, placeholder, title, alt) outside <article> and outside the
    list of the page's headings, with the permalinks' titles inside; less what is marked lang="en"
    (the language switch's link to the English edition)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._stack: list[tuple[str, bool]] = []   # (tag, not the theme's)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        inherited = bool(self._stack) and self._stack[-1][1]
        hidden = (inherited or tag in ("article", "script", "style", "head") or "toc-tree" in classes
                  or (tag != "html" and attrs.get("lang") == "en"))
        if (not hidden and tag != "link") or "headerlink" in classes:
            self.texts += [attrs[name] for name in ("aria-label", "placeholder", "title", "alt") if attrs.get(name)]
        if tag not in ("input", "img", "br", "meta", "link", "hr", "source", "use", "path"):
            self._stack.append((tag, hidden))

    def handle_endtag(self, tag):
        if any(open_tag == tag for open_tag, _ in self._stack):   # an end tag nobody opened closes nothing
            while self._stack.pop()[0] != tag:
                pass

    def handle_data(self, data):
        if data.strip() and not (self._stack and self._stack[-1][1]):
            self.texts.append(data.strip())


def test_zh_pages_have_no_english_interface_string(site):
    """Every page of the zh edition (its notebooks, exercises, index and search page): the theme's
    navigation, buttons, footer, icon titles and accessible names are Chinese."""
    from ltr_teach.core.glossary import english_sentences

    pages = [page for page in _pages(site) if "zh" in page.relative_to(site).parts]
    assert len(pages) >= 30
    found = {}
    for page in pages:
        parser = _Interface()
        parser.feed(page.read_text(encoding="utf-8"))
        english = [words for text in parser.texts for words in english_sentences(text, min_words=1)
                   if words not in INTERFACE_NAMES]
        if english:
            found[page.relative_to(site).as_posix()] = sorted(set(english))
    assert found == {}
    # the sentinel: the same scan finds the English interface on an English page
    parser = _Interface()
    parser.feed((site / PAGE.format(lang="en")).read_text(encoding="utf-8"))
    english = {words for text in parser.texts for words in english_sentences(text, min_words=1)}
    assert {"Skip to content", "Back to top", "Next", "Previous"} <= english, english


def _search(page, url: str) -> list[str]:
    """The result links of a search page once the search has finished (its status line is written)."""
    page.goto(url)
    # the summary line is written when the last result is shown
    page.wait_for_function("() => (document.querySelector('#search-results .search-summary') || {}).innerText")
    return page.locator("#search-results ul li > a").evaluate_all("links => links.map(a => a.getAttribute('href'))")


def test_each_glossary_term_finds_the_page_that_teaches_it(site_url, site_page):
    """The zh edition's search, with the course's glossary as jieba's dictionary: each of the glossary's
    terms, typed as the glossary writes it, finds the notebook that teaches it (and no English page)."""
    from ltr_teach.core.glossary import TERMS

    page, watch = site_page
    assert set(TEACHES) == set(TERMS)
    missed, english = {}, {}
    for key, term in TERMS.items():
        hrefs = [href.split("?")[0].split("#")[0] for href in _search(page, site_url + f"search-zh.html?q={term.zh}")]
        if f"notebooks/zh/{TEACHES[key]}.html" not in hrefs:
            missed[term.zh] = hrefs
        if [href for href in hrefs if "/en/" in "/" + href]:
            english[term.zh] = hrefs
    assert missed == {}
    assert english == {}
    assert watch.problems() == []


@pytest.mark.parametrize(("lang", "query"), [("en", "NDCG"), ("zh", "NDCG"), ("en", "precision")])
def test_a_search_stays_in_its_edition(lang, query, site_url, site_page):
    """A search from an edition's pages (its search box goes to its own search page and index) lists
    only that edition's pages, and the snippets hold no TeX source and no "how to run" box."""
    page, watch = site_page
    page.goto(site_url + f"notebooks/{lang}/02_mrr.html")
    action = page.locator("form.sidebar-search-container").first.get_attribute("action")
    assert action == f"../../search-{lang}.html"
    hrefs = _search(page, site_url + f"search-{lang}.html?q={query}")
    assert len(hrefs) >= 3
    assert [href for href in hrefs if f"/{lang}/" not in "/" + href] == []
    snippets = " ".join(page.locator("#search-results p.context").all_inner_texts())
    assert snippets
    for leftover in ("\\(", "\\[", "$$", "如何运行本页", "How to run this"):
        assert leftover not in snippets
    assert watch.problems() == []


def test_the_zh_search_page_speaks_chinese(site_url, site_page):
    """Sphinx's own search strings on the zh search page (title, status, no-result message) are Chinese."""
    from ltr_teach.core.glossary import english_sentences

    page, watch = site_page
    _search(page, site_url + "search-zh.html?q=xyzzyplugh")
    shown = page.locator("#search-results").inner_text()
    assert "搜索结果" in shown and "没有匹配" in shown, shown
    english = [words for words in english_sentences(page.locator("body").inner_text(), min_words=1)
               if words not in INTERFACE_NAMES]
    assert english == [], english
    assert watch.problems() == []


def test_chinese_tables_keep_short_columns_whole(site_url, site_page):
    """On zh 00 the course table's 用时 (""20 分钟"") and 路线 (""核心"") columns are not one character a line."""
    page, watch = site_page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site_url + "notebooks/zh/00_start_here.html")
    table = page.locator("article table.docutils").first
    for column, text in ((4, "20 分钟"), (5, "核心")):
        # a cell's height in characters: one line is about 1.5 font sizes, one character a line 2 × 1.5
        heights = table.locator(f"tbody tr td:nth-child({column}) p").evaluate_all(
            "ps => ps.map(p => [p.innerText, p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).fontSize)])")
        assert text in [shown for shown, _ in heights], heights
        assert max(height for _, height in heights) < (2.25 if column == 5 else 3.5), heights
    assert watch.problems() == []


# --- The manual: user guide, generated references, teacher guides (site/_ext/ltr_reference.py) ------------

def test_cli_reference_is_the_parsers_help(site, monkeypatch):
    """The command-line page holds, for ltr-teach and every subcommand, exactly what ``--help`` prints."""
    import argparse
    import html as html_module

    from ltr_teach.cli import build_parser

    monkeypatch.setenv("COLUMNS", "100")   # the width the page is built at (ltr_reference.HELP_WIDTH)
    page = (site / "en" / "reference" / "cli.html").read_text(encoding="utf-8")
    blocks = [html_module.unescape(re.sub(r"<[^>]+>", "", block))
              for block in re.findall(r'<div class="highlight"><pre>(.*?)</pre>', page, re.DOTALL)]
    todo, helps = [build_parser()], []
    while todo:   # depth first: each command, then its subcommands
        parser = todo.pop(0)
        helps.append(parser.format_help())
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo[0:0] = list(action.choices.values())
    assert len(helps) >= 12
    assert [block.strip() for block in blocks] == [help_text.strip() for help_text in helps]


def test_api_reference_documents_every_public_name(site):
    """The API page documents each name of ``ltr_teach.__all__`` (its anchor), with its docstring's first
    words for a function, a class or a module."""
    import html as html_module
    import inspect

    import ltr_teach

    def words(text: str) -> str:   # :func:`check` and check() both read "check"; Sphinx's quotes are typographic
        text = re.sub(r":\w+:|[`*:]|\(\)", " ", text.translate(str.maketrans("‘’“”", "''\"\"")))
        return " ".join(text.split())

    page = html_module.unescape((site / "en" / "reference" / "api.html").read_text(encoding="utf-8"))
    shown = words(re.sub(r"<[^>]+>", " ", page))
    missing = []
    for name in dict.fromkeys(ltr_teach.__all__):
        value = getattr(ltr_teach, name)
        target = value.__name__ if inspect.ismodule(value) else f"ltr_teach.{name}"
        if f'id="{target}"' not in page and f'id="module-{target}"' not in page:
            missing.append(f"{name}: no anchor")
        if callable(value) or inspect.ismodule(value):
            first = " ".join(words(inspect.getdoc(value).splitlines()[0]).split()[:4])
            if first not in shown:
                missing.append(f"{name}: {first}")
    assert missing == []


def test_teacher_guides_are_on_the_site_in_both_languages(site):
    for lang, source, heading in (("en", "teacher_guide.md", "Teacher guide"), ("zh", "teacher_guide.zh.md", "教师指南")):
        page = (site / lang / "teacher_guide.html").read_text(encoding="utf-8")
        assert f"<h1>{heading}" in page
        # every section of the guide is there
        sections = re.findall(r"^## (.+)$", (REPO / "docs" / source).read_text(encoding="utf-8"), re.MULTILINE)
        assert sections and all(section.replace("`", "").split()[0] in page for section in sections)
    assert "pip install ltr_teach " not in (REPO / "docs" / "teacher_guide.md").read_text(encoding="utf-8")
