"""Sphinx extension of the course website: every ``lt.ask`` self-test answers on the page, without a kernel.

A tutorial's saved ``lt.ask`` output is the question as HTML (``<div class='ltr-ask-static'>``, see
``ltr_teach.interactive.ask``), with a note to run the notebook. Here each one is replaced by a form, in
the page's edition language, holding the checker's verdicts computed now
(:func:`ltr_teach.teaching.self_test.page_data`) as JSON; ``_static/self_test.js`` (no framework, no
network, works from ``file://``) lets the student choose or type, check, take a hint and reveal.
A graded exercise sheet (``exercises/``) never gets one: the build fails if a sheet shows an ``lt.ask``.
"""

from __future__ import annotations

import html
import json
import re

from docutils import nodes

#: The exercise id in a saved question: ``<div class='ltr-teach-exercise'><div><b>ID</b>``.
_ASKED = re.compile(r"<div class='ltr-ask-static'><div class='ltr-teach-exercise'><div><b>([a-z0-9][a-z0-9-]*)</b>")
_EDITIONS = ("zh", "en")


def _edition(docname: str) -> str | None:
    return next((part for part in docname.split("/") if part in _EDITIONS), None)


def _json(data) -> str:
    """JSON safe inside a ``<script>`` element (no ``</`` that would close it)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def _control(data: dict, ui: dict, uid: str) -> str:
    """The answer control of the form: radio buttons, a text box or a text area, each with its label."""
    label = html.escape(ui["answer"])
    if data["form"] == "choice":
        options = "".join(
            f"<label class='ltr-selftest-option'><input type='radio' name='{uid}-answer' value='{html.escape(o['key'])}'> "
            f"<code>{html.escape(o['key'])}</code>: <span>{o['html']}</span></label>" for o in data["options"])
        return f"<fieldset class='ltr-selftest-input'><legend>{label}</legend>{options}</fieldset>"
    placeholder = html.escape(data.get("placeholder", ""))
    if data["form"] == "written":
        box = f"<textarea id='{uid}-answer' rows='3' placeholder='{placeholder}'></textarea>"
    else:
        box = (f"<input type='text' id='{uid}-answer' autocomplete='off' spellcheck='false' "
               f"placeholder='{placeholder}'>")
    return f"<div class='ltr-selftest-input'><label for='{uid}-answer'>{label}</label> {box}</div>"


def self_test_html(data: dict, ui: dict) -> str:
    """The form of one self-test; its verdicts ride along as JSON for the script."""
    uid = "selftest-" + data["id"]
    return (
        f"<form class='ltr-selftest mathjax_process' id='{uid}' data-form='{data['form']}' novalidate>"
        f"<div class='ltr-selftest-title'>{data['title']}</div>"
        f"<div class='ltr-selftest-prompt'>{data['prompt']}</div>"
        f"{_control(data, ui, uid)}"
        "<div class='ltr-selftest-buttons'>"
        f"<button type='submit' class='ltr-selftest-check'>{html.escape(ui['check'])}</button> "
        f"<button type='button' class='ltr-selftest-hint' aria-controls='{uid}-hints'>{html.escape(ui['hint'])}</button> "
        f"<button type='button' class='ltr-selftest-reveal' disabled title='{html.escape(ui['reveal_after'])}' "
        f"aria-controls='{uid}-feedback'>{html.escape(ui['reveal'])}</button></div>"
        f"<div class='ltr-selftest-hints' id='{uid}-hints' aria-live='polite'></div>"
        f"<div class='ltr-selftest-feedback' id='{uid}-feedback' role='status' aria-live='polite'></div>"
        f"<p class='ltr-selftest-note'>{html.escape(ui['note'])}</p>"
        f"<script type='application/json' class='ltr-selftest-data'>{_json({'data': data, 'ui': ui})}</script>"
        "</form>"
    )


def _replace(app, doctree, docname) -> None:
    from ltr_teach.core.i18n import using_language
    from ltr_teach.teaching.self_test import interface, page_data

    edition = _edition(docname)
    found = [node for node in doctree.findall(nodes.raw) if "ltr-ask-static" in node.astext()]
    if not found:
        return
    if docname.split("/")[0] == "exercises":
        raise RuntimeError(f"{docname}: a graded exercise sheet shows an lt.ask question; its answer would be in the page")
    with using_language(edition or "en"):
        ui = interface()
        for node in found:
            match = _ASKED.search(node.astext())
            if match is None:
                raise RuntimeError(f"{docname}: an lt.ask output without its exercise id")
            text = self_test_html(page_data(match.group(1)), ui)
            node.replace_self(nodes.raw("", text, format="html"))


def setup(app):
    # on every page (a page without a self-test runs nothing of it): one small script, one small style sheet
    app.connect("doctree-resolved", _replace)
    app.add_js_file("self_test.js", defer="defer")
    app.add_css_file("self_test.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
