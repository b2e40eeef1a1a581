"""A widget as plain HTML: what an editor or panel shows when it is displayed, for a page without a kernel.

A saved notebook keeps a widget's view (``application/vnd.jupyter.widget-view+json``) without its state, so
GitHub, nbviewer and the course website have nothing to draw but the output's other forms. Every editor and
panel (:class:`~ltr_teach.interactive.widgets._ShowsWidget`) therefore saves, next to the view, this HTML
snapshot of its starting state: the result line, the table, the plot (an inline PNG with its alt text) and the
controls as they are set (disabled form controls: they say which grade, option or tab is chosen, and do
nothing). A front end with a live kernel renders the widget view, which outranks HTML; the snapshot is what
everyone else sees.

Each widget maps to one element by its type; a widget hidden with ``layout.display = "none"`` (the page's
font carrier) is left out, and a widget type not listed shows its description and value as text.

>>> import ipywidgets as W
>>> print(widget_html(W.VBox([W.HTML("<b>NDCG</b>"), W.IntSlider(value=2, max=3, description="grade")]), css=False))
<div class='ltr-still ltr-still-column'><div><b>NDCG</b></div><label class='ltr-still-control'><span>grade</span> <input type='range' min='0' max='3' step='1' value='2' disabled aria-label='grade'> <output>2</output></label></div>
"""

from __future__ import annotations

import base64
import html
import re

import ipywidgets as W

#: The CSS the snapshot needs (flex rows and columns like the widget boxes'), sent once with each snapshot:
#: a saved output is read on its own (GitHub, nbviewer), without the site's style sheet.
STILL_CSS = ("<style>.ltr-still-row{display:flex;flex-flow:row wrap;align-items:flex-start;gap:2px 8px}"
             ".ltr-still-column{display:flex;flex-direction:column;gap:2px}"
             ".ltr-still-control{display:inline-flex;align-items:center;gap:4px;margin:1px 0}"
             ".ltr-still img{max-width:100%;height:auto}</style>")


def _text(markup: str) -> str:
    """The text of a description that may hold HTML (a hidden label): its tags dropped, entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup or "")).strip()


def _attr(value) -> str:
    return html.escape(str(value), quote=True).replace("'", "&#x27;")


def _hidden(widget) -> bool:
    layout = getattr(widget, "layout", None)
    return layout is not None and getattr(layout, "display", None) == "none"


def _classes(widget, *extra) -> str:
    return " ".join([*extra, *getattr(widget, "_dom_classes", ())])


def _label(widget) -> str:
    return _text(getattr(widget, "description", "") or getattr(widget, "tooltip", "") or "")


def _control(widget, inner: str) -> str:
    """A control with its visible description (when it has one that is not hidden) before it."""
    description = getattr(widget, "description", "") or ""
    shown = "" if not description or "position:absolute" in description else f"<span>{html.escape(_text(description))}</span> "
    return f"<label class='ltr-still-control'>{shown}{inner}</label>"


def _options(widget) -> list[tuple[str, object]]:
    labels = getattr(widget, "_options_labels", ()) or ()
    values = getattr(widget, "_options_values", ()) or ()
    return list(zip(labels, values))


def _image(widget) -> str:
    data = bytes(widget.value or b"")
    if not data:
        return ""
    kind = "svg+xml" if widget.format == "svg" else widget.format
    width = getattr(widget.layout, "width", None)
    style = f" style='width:{_attr(width)}'" if width else ""
    alt = _text(getattr(widget, "tooltip", "") or "")
    return (f"<img class='{_attr(_classes(widget))}' src='data:image/{kind};base64,{base64.b64encode(data).decode()}'"
            f" alt='{_attr(alt)}'{style}>")


def _tabs(widget) -> str:
    """A Tab or an Accordion: every title, the selected child's content under them."""
    children = list(widget.children or ())
    titles = list(getattr(widget, "titles", ()) or ())
    selected = widget.selected_index if widget.selected_index is not None else None
    heads = []
    for n in range(len(children)):
        title = html.escape(titles[n] if n < len(titles) and titles[n] else str(n + 1))
        heads.append(f"<li aria-current='true'><b>{title}</b></li>" if n == selected else f"<li>{title}</li>")
    heads = "".join(heads)
    body = widget_html(children[selected], css=False) if selected is not None and selected < len(children) else ""
    return f"<div class='{_attr(_classes(widget, 'ltr-still-tabs'))}'><ul>{heads}</ul>{body}</div>"


def _element(widget) -> str:
    """One widget as HTML (see the module docstring); its children through :func:`_element` too."""
    if _hidden(widget):
        return ""
    if isinstance(widget, (W.Tab, W.Accordion)):
        return _tabs(widget)
    if isinstance(widget, W.Box):
        direction = "row" if isinstance(widget, W.HBox) else "column"
        inner = "".join(_element(child) for child in widget.children or ())
        return f"<div class='{_attr(_classes(widget, 'ltr-still', 'ltr-still-' + direction))}'>{inner}</div>"
    if isinstance(widget, (W.HTML, W.HTMLMath)):
        classes = _classes(widget)
        opening = f"<div class='{_attr(classes)}'>" if classes else "<div>"
        return f"{opening}{widget.value}</div>" if widget.value else ""
    if isinstance(widget, W.Label):
        return f"<div>{html.escape(widget.value)}</div>" if widget.value else ""
    if isinstance(widget, W.Image):
        return _image(widget)
    if isinstance(widget, W.Button):
        return f"<button type='button' disabled>{html.escape(widget.description or '')}</button>"
    if isinstance(widget, (W.IntSlider, W.FloatSlider)):
        inner = (f"<input type='range' min='{_attr(widget.min)}' max='{_attr(widget.max)}' step='{_attr(widget.step)}'"
                 f" value='{_attr(widget.value)}' disabled aria-label='{_attr(_label(widget))}'>"
                 f" <output>{html.escape(str(widget.value))}</output>")
        return _control(widget, inner)
    if isinstance(widget, (W.IntText, W.FloatText, W.BoundedIntText, W.BoundedFloatText)):
        return _control(widget, f"<input type='number' value='{_attr(widget.value)}' disabled "
                                f"aria-label='{_attr(_label(widget))}' style='width:4em'>")
    if isinstance(widget, W.ToggleButtons):
        buttons = "".join(f"<button type='button' disabled aria-pressed='{'true' if value == widget.value else 'false'}'>"
                          f"{'<b>' if value == widget.value else ''}{html.escape(label)}{'</b>' if value == widget.value else ''}"
                          f"</button>" for label, value in _options(widget))
        return _control(widget, f"<span role='group' aria-label='{_attr(_label(widget))}'>{buttons}</span>")
    if isinstance(widget, (W.Dropdown, W.Select)):
        chosen = "".join(f"<option selected>{html.escape(label)}</option>" for label, value in _options(widget)
                         if value == widget.value)
        return _control(widget, f"<select disabled aria-label='{_attr(_label(widget))}'>{chosen}</select>")
    if isinstance(widget, W.RadioButtons):
        items = "".join(f"<label><input type='radio' disabled{' checked' if value == widget.value else ''}> "
                        f"{html.escape(label)}</label><br>" for label, value in _options(widget))
        return _control(widget, f"<span role='radiogroup' aria-label='{_attr(_label(widget))}'>{items}</span>")
    if isinstance(widget, W.Checkbox):
        return _control(widget, f"<input type='checkbox' disabled{' checked' if widget.value else ''} "
                                f"aria-label='{_attr(_label(widget))}'>")
    if isinstance(widget, (W.Text, W.Textarea)):
        return _control(widget, f"<input type='text' value='{_attr(widget.value)}' disabled "
                                f"aria-label='{_attr(_label(widget))}'>")
    value = getattr(widget, "value", None)
    return _control(widget, f"<span>{html.escape('' if value is None else str(value))}</span>")


def widget_html(widget, css: bool = True) -> str:
    """The widget and everything inside it as static HTML, as it stands now (see the module docstring).

    Parameters
    ----------
    widget : ipywidgets.Widget
        An editor's or panel's top widget.
    css : bool
        Put the snapshot's small style sheet (:data:`STILL_CSS`) first.

    Returns
    -------
    str
        HTML with no script; images inline (``data:`` URLs) with their alt text.
    """
    return (STILL_CSS if css else "") + _element(widget)


__all__ = ["STILL_CSS", "widget_html"]
