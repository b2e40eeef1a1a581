"""The website's self-tests (every ``lt.ask`` of the tutorials), answered in Chromium, both editions.

The site is built from the committed notebooks (the fixtures of ``test_site_browser``). On every page that
holds a self-test, from ``file://`` and from a static server on 127.0.0.1, with no request leaving the site:

* every choice: each wrong option shows its diagnosis (the exercise's ``why_text``), the right one its
  explanation, as the checker words them in the page's language;
* every number: the right value (fraction and decimal) is right, each slip the checker knows is named
  (its sentence), and what the page's script decides for a list of typed answers (right at several
  precisions, cut, too coarse, slips, percentages, full-width digits, hostile text) is what the
  checker, run here in Python, decides: the script holds no formula of its own;
* every ranking to build: the example is right with its explanation; a ranking outside the page's
  table says that the page cannot check it, never a verdict;
* the hint ladder opens one step at a time; "Show answer" waits for a first attempt;
* with the keyboard alone: Tab to an option, arrows to choose, Enter on Check, Space on Hint, Enter on
  Show answer, and a typed number checked with Enter.
"""

from __future__ import annotations

import re
import sys

import pytest
from test_site_browser import site, site_page, site_url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.filterwarnings("ignore:.*is deprecated. Check CHANGES for Sphinx API")

EDITIONS = ("en", "zh")


def _pages(root, lang) -> list[str]:
    """The site's pages (relative paths) of one edition that hold a self-test."""
    return sorted(str(p.relative_to(root)) for p in (root / "notebooks" / lang).glob("*.html")
                  if "class='ltr-selftest" in p.read_text(encoding="utf-8"))


def _text(html: str) -> str:
    """The words of a feedback's HTML, its tags dropped and entities read."""
    import html as html_module

    return " ".join(html_module.unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _typed_answers(data_value, slips) -> list[str]:
    """What students type for a number: the value at 2 to 6 places rounded and cut, as a percentage, in full
    width, with "about"; each slip's value; fractions; whole numbers; text the page cannot read; hostile text."""
    import sympy

    from ltr_teach.teaching.checker import nearest_double
    from ltr_teach.teaching.self_test import canonical_decimal

    out = []
    for value in [data_value, *slips]:
        if not value.is_real:
            continue
        for places in range(2, 7):
            rounded = f"{float(value):.{places}f}"
            cut = canonical_decimal(int(sympy.floor(value * 10**places)), places)
            out += [rounded, f"{float(value) * 100:.{max(places - 2, 0)}f}%", cut]
        if value.is_Rational:
            out += [f"{value.p}/{value.q}", f"{2 * value.p}/{2 * value.q}"]
        out.append(repr(nearest_double(value)))
    out += ["0", "1", "2", "0.5", "0.50", "12345.678", "-0.4", "+0.400", "4/10", "０。４", "约0.400", "0.400。",
            "1 + 1/log2(3)", "abc", "1/0", "1e999999999", "9" * 300, "0.4.0", "%", "", "   ", "１／３", "33.3%", "1/3",
            "\ufeff0.400", "４０％", "0,4", "1" + "0" * 150, "0." + "3" * 40, "−0.4", "0.400\u3000"]
    return out


def _check_py(exercise_id, answer, lang):
    from ltr_teach.core.i18n import using_language
    from ltr_teach.teaching.checker import check

    with using_language(lang):
        return check(exercise_id, answer)._repr_html_()


def _forms(page) -> list[dict]:
    return page.evaluate("""() => Array.from(document.querySelectorAll('form.ltr-selftest')).map(f => ({
        id: f.id, form: f.dataset.form,
        payload: JSON.parse(f.querySelector('script.ltr-selftest-data').textContent)}))""")


def _decide_all(page, form_id, answers) -> list[str]:
    """What the page's script decides for each typed answer: one round trip to the browser for the whole list."""
    return page.evaluate("""([id, answers]) => {
        const f = document.getElementById(id);
        const data = JSON.parse(f.querySelector('script.ltr-selftest-data').textContent).data;
        return answers.map(answer => window.ltrSelfTest.decide(data, answer).html); }""", [form_id, list(answers)])


def _feedback(form) -> str:
    return form.locator(".ltr-selftest-feedback").inner_text()


def _answer_every_self_test(page, lang) -> int:
    """Answer every self-test of the open page through its controls (and its script for the long lists)."""
    from ltr_teach.core.i18n import using_language
    from ltr_teach.teaching import exercises
    from ltr_teach.teaching.checker import candidate_slips
    from ltr_teach.teaching.self_test import NOT_ON_PAGE

    forms = _forms(page)
    assert forms, "a page listed with self-tests has none"
    for entry in forms:
        form = page.locator(f"#{entry['id']}")
        data = entry["payload"]["data"]
        exercise = exercises.get(data["id"])
        reveal = form.locator(".ltr-selftest-reveal")
        assert reveal.is_disabled(), f"{data['id']}: Show answer before any attempt"
        form.locator(".ltr-selftest-check").click()   # nothing entered: "not answered", and reveal stays off
        assert _feedback(form).strip() and reveal.is_disabled()
        if entry["form"] == "choice":
            for key in exercise.options:
                form.locator(f"input[type=radio][value='{key}']").check()
                form.locator(".ltr-selftest-check").click()
                shown = " ".join(_feedback(form).split())
                with using_language(lang):
                    expected = exercise.explanation if key == exercise.correct else exercise.why_text(key)
                words = " ".join(expected.split())   # plain text (the feedback escapes it)
                if "$" not in words:  # MathJax redraws TeX: compare the words where there is none
                    assert words in shown, f"{data['id']} option {key}: {shown!r} lacks {words!r}"
                assert shown.startswith("✓" if key == exercise.correct else "✗"), (data["id"], key, shown)
                assert _decide_all(page, entry["id"], [key])[0] == _check_py(data["id"], key, lang)
        elif entry["form"] == "number":
            with using_language(lang):
                ex = exercise.explanation()
                slips = list(candidate_slips(ex, exercise.context))
            field = form.locator("input[type=text]")
            field.fill(f"{ex.exact.p}/{ex.exact.q}" if ex.exact.is_Rational else f"{float(ex.exact):.6f}")
            form.locator(".ltr-selftest-check").click()
            assert _feedback(form).strip().startswith("✓"), (data["id"], _feedback(form))
            named = 0
            for slip in slips:
                typed = f"{float(slip.value):.6f}"
                verdict = _check_py(data["id"], typed, lang)
                if "✗" not in verdict or not slip.value.is_real:
                    continue   # a slip whose number the checker reads as right (or no number): nothing to name
                field.fill(typed)
                form.locator(".ltr-selftest-check").click()
                assert " ".join(_feedback(form).split()).startswith("✗"), (data["id"], typed)
                words = " ".join(slip.sentence.split())
                if "$" not in words and "\\(" not in words:  # MathJax redraws TeX
                    assert words[:40] in " ".join(_feedback(form).split()), (data["id"], typed, words)
                named += 1
            assert named or not slips, f"{data['id']}: no slip was named"
            with using_language(lang):
                from ltr_teach.core.i18n import translate
                unread = translate(NOT_ON_PAGE)
            typed_answers = _typed_answers(ex.exact, [m.value for m in slips])
            for typed, shown in zip(typed_answers, _decide_all(page, entry["id"], typed_answers)):
                if unread in _text(shown):
                    continue   # the page does not read it and says so: the notebook's checker will
                assert shown == _check_py(data["id"], typed, lang), f"{data['id']}: {typed!r}"
        elif entry["form"] == "ranking":
            field = form.locator("input[type=text]")
            field.fill(exercise.answer)
            form.locator(".ltr-selftest-check").click()
            shown = " ".join(_feedback(form).split())
            assert shown.startswith("✓"), (data["id"], shown)
            field.fill("[" + ", ".join(["9"] * 12) + "]" if exercise.shape == "ranking" else "[9, 9] [9, 9]")
            form.locator(".ltr-selftest-check").click()
            assert "✓" not in _feedback(form) and "✗" not in _feedback(form), "a ranking outside the table got a verdict"
            stored = list(data["table"])[:12]
            for typed, shown in zip(stored, _decide_all(page, entry["id"], stored)):
                assert shown == _check_py(data["id"], typed, lang), (data["id"], typed)
        assert not reveal.is_disabled(), f"{data['id']}: Show answer after an attempt"
        reveal.click()
        assert _feedback(form).strip().startswith("→")
        hint = form.locator(".ltr-selftest-hint")
        for n in range(1, len(data["hints"]) + 1):
            hint.click()
            assert form.locator(".ltr-selftest-hints li").count() == n
        assert hint.is_disabled()
    return len(forms)


@pytest.mark.parametrize("lang", EDITIONS)
def test_every_self_test_answers_from_a_folder(lang, site, site_page):  # noqa: F811
    """From file://: every self-test of every page of the edition answers as the checker does."""
    page, watch = site_page
    answered = 0
    for path in _pages(site, lang):
        page.goto((site / path).as_uri())
        page.wait_for_function("document.querySelectorAll('form.ltr-selftest:not(.ltr-selftest-ready)').length === 0")
        answered += _answer_every_self_test(page, lang)
    assert answered >= 80, f"only {answered} self-tests found in the {lang} edition"
    assert watch.page_errors == [] and watch.console_errors == []
    assert [url for url in watch.outside_requests if not url.startswith("file://")] == []


@pytest.mark.parametrize("lang", EDITIONS)
def test_self_tests_served_ask_nothing_outside_the_site(lang, site, site_url, site_page):  # noqa: F811
    """From a static server: the self-tests work and no request leaves 127.0.0.1."""
    page, watch = site_page
    for path in _pages(site, lang)[:3]:
        page.goto(site_url + path)
        page.wait_for_function("document.querySelectorAll('form.ltr-selftest:not(.ltr-selftest-ready)').length === 0")
        _answer_every_self_test(page, lang)
    assert watch.problems() == []


def _tab_to(page, selector: str, limit: int = 400) -> None:
    """Press Tab until the focused element matches ``selector`` (the keyboard's way through the page)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.parametrize("lang", EDITIONS)
def test_a_self_test_with_the_keyboard_alone(lang, site, site_page):  # noqa: F811
    """Tab, arrows, Enter and Space only: choose, check, open a hint, reveal; type a number and press Enter."""
    page, _watch = site_page
    page.goto((site / f"notebooks/{lang}/04_dcg_ndcg.html").as_uri())
    page.wait_for_selector("form.ltr-selftest-ready")
    first = page.locator("form.ltr-selftest[data-form=choice]").first
    form_id = first.get_attribute("id")
    _tab_to(page, f"#{form_id} input[type=radio]")
    page.keyboard.press("ArrowDown")   # a radio group: the arrow moves to the next option and chooses it
    assert first.locator("input[type=radio]:checked").count() == 1
    _tab_to(page, f"#{form_id} .ltr-selftest-check", limit=5)
    page.keyboard.press("Enter")
    assert _feedback(first).strip()[:1] in ("✓", "✗")
    assert first.locator(".ltr-selftest-feedback").get_attribute("aria-live") == "polite"
    _tab_to(page, f"#{form_id} .ltr-selftest-hint", limit=3)
    page.keyboard.press("Space")
    assert first.locator(".ltr-selftest-hints li").count() == 1
    _tab_to(page, f"#{form_id} .ltr-selftest-reveal", limit=3)
    page.keyboard.press("Enter")
    assert _feedback(first).strip().startswith("→")
    number = page.locator("form.ltr-selftest[data-form=number]").first
    number_id = number.get_attribute("id")
    _tab_to(page, f"#{number_id} input[type=text]")
    assert page.evaluate("id => document.querySelector(`label[for='${id}-answer']`) !== null", number_id)
    page.keyboard.type("0.5")
    page.keyboard.press("Enter")
    assert _feedback(number).strip()[:1] in ("✓", "✗")


def test_exercise_sheets_hold_no_self_test(site):  # noqa: F811
    """A graded sheet's answers never reach a page: no sheet page holds a self-test or its verdicts."""
    sheets = list((site / "exercises").rglob("*.html"))
    assert sheets
    for page in sheets:
        text = page.read_text(encoding="utf-8")
        assert "ltr-selftest" not in text and "ltr-ask-static" not in text, page


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
