"""Build the course website (both editions) with Sphinx and MyST-NB: ``python tools/build_site.py [OUT]``.

The pages are the committed notebooks with their saved outputs (``notebooks/start_here.ipynb``,
``notebooks/zh|en/*.ipynb``, ``exercises/zh|en/*.ipynb``); nothing is executed. The Sphinx
configuration, the edition index pages and the templates live in ``site/``. The source tree is
assembled in ``_build/site_src`` (the notebooks copied beside ``site/``'s files, so the site's
folders match the repository's and the notebooks' relative links keep working), then:

- MathJax 3 comes from the npm package ``mathjax@3`` (``site/package.json`` and its lock file,
  installed with ``npm ci`` into ``site/node_modules`` when missing) and is copied into ``_static``;
- the course's CJK font (``ltr_teach/locale/ltr-teach-cjk.woff``) is copied into ``_static``.

So the site needs nothing from the network once built: open ``_build/site/index.html`` or serve the
folder. The output is ``_build/site`` unless OUT is given.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SITE = REPO / "site"
BUILD = REPO / "_build"
MATHJAX = SITE / "node_modules" / "mathjax" / "es5"
#: What of MathJax's es5 folder the site serves: the combined TeX/MathML-to-HTML component, the
#: fonts and the pieces it loads on demand (TeX packages, the menu, accessibility). Not the speech
#: engine (sre, 4 MB) or the other combined components.
MATHJAX_PARTS = ["tex-mml-chtml.js", "input", "output/chtml", "ui", "a11y", "adaptors"]
FONT = REPO / "ltr_teach" / "locale" / "ltr-teach-cjk.woff"


def ensure_mathjax() -> Path:
    """Install npm's ``mathjax@3`` into ``site/node_modules`` (from the committed lock file) if missing."""
    if not (MATHJAX / "tex-mml-chtml.js").is_file():
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit("build_site: npm is needed once to install MathJax (site/package.json); install Node.js")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=SITE, check=True)
    return MATHJAX


def assemble(source: Path) -> None:
    """The Sphinx source tree: ``site/`` (less node_modules), the notebooks, MathJax and the font."""
    if source.exists():
        shutil.rmtree(source)
    shutil.copytree(SITE, source, ignore=shutil.ignore_patterns("node_modules", "__pycache__"))
    ignore = shutil.ignore_patterns(".ipynb_checkpoints", ".ltr-teach-language")
    shutil.copytree(REPO / "notebooks", source / "notebooks", ignore=ignore)
    shutil.copytree(REPO / "exercises", source / "exercises", ignore=ignore)
    shutil.copytree(REPO / "docs", source / "docs")   # the teacher guides, included by {en,zh}/teacher_guide.md
    mathjax = ensure_mathjax()
    for part in MATHJAX_PARTS:
        src, dst = mathjax / part, source / "_static" / "mathjax" / part
        if src.is_dir():
            shutil.copytree(src, dst)
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    shutil.copy2(FONT, source / "_static" / FONT.name)
    write_search_dictionary(source / SEARCH_DICTIONARY)


#: jieba's user dictionary for the Chinese search (site/conf.py: html_search_options)
SEARCH_DICTIONARY = "glossary.jieba.txt"


def search_words() -> list[str]:
    """The glossary's Chinese terms and their accepted alternatives as search words: each run of a
    term that holds Chinese (``ROC 曲线下面积`` gives 曲线下面积; jieba never joins across a space)."""
    from ltr_teach.core.glossary import TERMS

    words = []
    for term in TERMS.values():
        for name in (term.zh, *term.alternatives):
            words += [part for part in name.split() if re.search(r"[\u4e00-\u9fff]", part) and len(part) > 1]
    return sorted(set(words))


def write_search_dictionary(path: Path) -> None:
    """One word a line, no frequency: jieba then gives each the frequency that keeps it whole."""
    path.write_text("".join(f"{word}\n" for word in search_words()), encoding="utf-8")


def build(out: Path, quiet: bool = True) -> Path:
    """Build the site into ``out`` and return ``out``; warnings are errors (a broken link fails)."""
    from sphinx.cmd.build import build_main

    work = BUILD / "site_src" if out == BUILD / "site" else out.parent / f"{out.name}_src"
    assemble(work)
    doctrees = work.parent / f"{work.name}_doctrees"
    # -a: write every page (what the pages show comes from site/ too, which Sphinx does not track);
    # the parsed notebooks are kept in the doctrees folder between builds.
    args = ["-b", "html", "-a", "-W", "--keep-going", "-d", str(doctrees), "-j", "1"]
    if quiet:
        args.append("-q")
    status = build_main([*args, str(work), str(out)])
    if status:
        raise SystemExit(f"build_site: sphinx-build failed (exit {status})")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=BUILD / "site", help="output folder (default _build/site)")
    parser.add_argument("-v", "--verbose", action="store_true", help="show Sphinx's progress")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    out = build(args.out.resolve(), quiet=not args.verbose)
    print(f"site built in {time.perf_counter() - start:.0f} s: open {out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
