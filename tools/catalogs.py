"""Regenerate the message catalogues: extract the .pot, update each .po, compile each .mo.

    python tools/catalogs.py          # or: make catalogs

Babel (``pybabel``, in the dev/test extra: a build tool, not a run-time dependency) does the work:

1. ``pybabel extract`` reads every ``_("...")``, ``N_("...")`` and ``Column(key, "...")`` header of
   ``ltr_teach/`` (babel.cfg, :data:`KEYWORDS`) into
   ``ltr_teach/locale/ltr_teach.pot`` (no source locations, sorted: the file changes only when a
   message does);
2. ``pybabel update`` merges it into ``ltr_teach/locale/<lang>/LC_MESSAGES/ltr_teach.po`` for zh_CN
   and en, without fuzzy guesses (a new message arrives untranslated, and tests/test_i18n.py
   fails until a translator writes its Chinese) and dropping messages the source no longer has;
3. ``pybabel compile`` writes the ``.mo`` that gettext reads at run time;
4. ``tools/make_font_subset.py --web`` rebuilds the page's CJK font (``locale/ltr-teach-cjk.woff``) with
   every character the catalogues now use.

English message ids are English text, so the en catalogue may leave a msgstr empty (gettext falls
back to the id); it exists so that every language is a catalogue of the same messages.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "ltr_teach" / "locale"
POT = LOCALE / "ltr_teach.pot"
CATALOGUES = ("zh_CN", "en")
WIDTH = "120"
#: Besides gettext's usual _() and N_(): the header of a steps table, ``Column(key, "header")``, is a message
#: (the explanation translates it when shown, so the metric modules stay free of i18n calls).
KEYWORDS = ("Column:2",)


def pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *args], cwd=ROOT, check=True)


def main() -> int:
    pybabel("extract", "-F", "babel.cfg", "--no-location", "--sort-output", "-w", WIDTH, "--project", "ltr_teach",
            "--copyright-holder", "ltr_teach developers",
            *(arg for keyword in KEYWORDS for arg in ("-k", keyword)), "-o", str(POT.relative_to(ROOT)), "ltr_teach")
    for lang in CATALOGUES:
        po = LOCALE / lang / "LC_MESSAGES" / "ltr_teach.po"
        if po.exists():
            pybabel("update", "-i", str(POT), "-d", str(LOCALE), "-D", "ltr_teach", "-l", lang, "-w", WIDTH,
                    "--no-fuzzy-matching", "--ignore-obsolete")
        else:
            pybabel("init", "-i", str(POT), "-d", str(LOCALE), "-D", "ltr_teach", "-l", lang, "-w", WIDTH)
    pybabel("compile", "-d", str(LOCALE), "-D", "ltr_teach", "--statistics")
    # the page's CJK font holds the catalogues' characters: a new translation may bring new ones
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_font_subset.py"), "--web"], cwd=ROOT, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
