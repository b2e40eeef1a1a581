"""The site's generated reference pages: the command line from ltr_teach.cli's own parser, the API from
the public names of ``ltr_teach`` and their docstrings. Nothing here is written by hand, so the pages
cannot drift from the code.

- ``{ltr-cli}``: ``ltr-teach --help`` and the ``--help`` of every subcommand (and of their own
  subcommands), in the parser's order, each under its own heading;
- ``{ltr-api}``: every name of ``ltr_teach.__all__`` (and ``ask``), grouped as functions, classes,
  modules and tables, through autodoc (the docstrings are NumPy style: sphinx.ext.napoleon reads them).
"""

from __future__ import annotations

import argparse
import inspect
import os
import types

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

#: The width the help is formatted at (argparse reads COLUMNS), so the page does not depend on the
#: terminal the site was built in.
HELP_WIDTH = "100"


def _subcommands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """(the command words, the parser) of ``parser`` and of each subcommand, depth first."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _subcommands(sub, (*path, name))


class CommandLine(SphinxDirective):
    """The help of ``ltr-teach`` and of each subcommand, as the parser prints it."""

    def run(self):
        from ltr_teach.cli import build_parser
        from ltr_teach.core.i18n import get_language, set_language

        language, width = get_language(), os.environ.get("COLUMNS")
        set_language("en")
        os.environ["COLUMNS"] = HELP_WIDTH
        try:
            parser = build_parser()
            pages = [(path, sub.format_help()) for path, sub in _subcommands(parser)]
        finally:
            set_language(language)
            if width is None:
                del os.environ["COLUMNS"]
            else:
                os.environ["COLUMNS"] = width
        out = []
        for path, text in pages:
            command = " ".join(("ltr-teach", *path))
            section = nodes.section(ids=[nodes.make_id(command)])
            section += nodes.title(command, "", nodes.literal(command, command))
            section += nodes.literal_block(text, text, language="text")
            out.append(section)
        return out


def _kind(value) -> str:
    if isinstance(value, types.ModuleType):
        return "module"
    if inspect.isclass(value):
        return "class"
    if callable(value):
        return "function"
    return "data"


#: Each kind's heading and autodoc directive. A table (METRICS, CONVENTIONS ...) has no docstring of its own
#: (a dict's is the type's): it is described by the ``#:`` comment above its definition (see _table).
KINDS = {"function": ("Functions", "autofunction", ""), "class": ("Classes", "autoclass", "   :members:\n"),
         "module": ("Modules", "automodule", ""), "data": ("Tables and constants", None, "")}


def _table(name: str, value) -> list[str]:
    """A ``py:data`` entry for a public table: the ``#:`` comment where it is defined, and what it holds."""
    import sys

    from sphinx.pycode import ModuleAnalyzer

    comment: list[str] = []
    for module_name, module in sorted(sys.modules.items()):
        if module_name.startswith("ltr_teach") and getattr(module, name, None) is value:
            docs = ModuleAnalyzer.for_module(module_name).find_attr_docs().get(("", name))
            if docs:
                comment = [line for line in docs if line.strip()]
                break
    keys = f"keys: {', '.join(f'``{key}``' for key in list(value)[:20])}" if isinstance(value, dict) else ""
    return [f".. py:data:: {name}", "", *(f"   {line}" for line in comment),
            *([""] if comment else []), f"   A ``{type(value).__name__}``{'; ' + keys if keys else ''}.", ""]


class PublicApi(SphinxDirective):
    """Every public name of ``ltr_teach`` (its ``__all__``) through autodoc, grouped by kind."""

    def run(self):
        import ltr_teach

        names = list(dict.fromkeys(ltr_teach.__all__))
        groups: dict[str, list[str]] = {kind: [] for kind in KINDS}
        for name in names:
            groups[_kind(getattr(ltr_teach, name))].append(name)
        lines = []
        for kind, (heading, directive, options) in KINDS.items():
            if not groups[kind]:
                continue
            lines += [f".. rubric:: {heading}", ""]
            if directive is None:  # the automodule entries above changed the current module
                lines += [".. py:currentmodule:: ltr_teach", ""]
            for name in groups[kind]:
                value = getattr(ltr_teach, name)
                if directive is None:
                    lines += _table(name, value)
                    continue
                target = value.__name__ if kind == "module" else f"ltr_teach.{name}"
                lines += [f".. {directive}:: {target}", *options.splitlines(), ""]
        container = nodes.section()
        self.state.nested_parse(StringList(lines, source="ltr_teach.__all__"), self.content_offset, container)
        return container.children


def setup(app):
    app.add_directive("ltr-cli", CommandLine)
    app.add_directive("ltr-api", PublicApi)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
