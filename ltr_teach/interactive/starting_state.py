"""Which displayed widgets are no longer in the state they were displayed in.

A notebook run top to bottom must leave every editor and question as the student first sees it: a
later cell that moves an item or fills in an answer would make a "try this" step already done when
the student scrolls up. Each editor and :class:`~ltr_teach.interactive.ask.AskBox` calls
:func:`register` when it is displayed; :func:`changed_since_display` lists those whose state (every
trait of every widget inside them) differs from the state they were displayed in. A test executes a
notebook, then asks the kernel for that list (``tests/starting_state.py``).
"""

from __future__ import annotations

import hashlib
import json

#: (widget, its state when displayed, a label) for every widget displayed in this kernel, in order.
_DISPLAYED: list = []


def _descendants(widget) -> list:
    """The widget and every widget inside it (children, a Box's children, a Tab's ...), each once."""
    seen, order, todo = set(), [], [widget]
    while todo:
        w = todo.pop()
        if id(w) in seen or not hasattr(w, "get_state"):
            continue
        seen.add(id(w))
        order.append(w)
        todo.extend(getattr(w, "children", ()) or ())
    return order


def _plain(value):
    """A JSON stand-in for what ``json`` cannot write: the digest of bytes (an image), the text of the rest."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "sha256:" + hashlib.sha256(bytes(value)).hexdigest()
    return str(value)


def snapshot(widget) -> str:
    """The state of the widget and everything inside it, as a digest of canonical JSON (layout, style and the
    children's model ids excluded: a child's own state is part of the list)."""
    states = []
    for w in _descendants(widget):
        state = {k: v for k, v in w.get_state().items() if k not in ("layout", "style", "children", "tabbable")}
        states.append(state)
    return hashlib.sha256(json.dumps(states, sort_keys=True, default=_plain).encode()).hexdigest()


def register(widget, label: str | None = None) -> None:
    """Remember ``widget``'s state now (call it when the widget is displayed); a second call updates nothing."""
    if any(w is widget for w, _state, _label in _DISPLAYED):
        return
    _DISPLAYED.append((widget, snapshot(widget), label or type(widget).__name__))


def changed_since_display() -> list[str]:
    """The labels of the displayed widgets whose state changed after they were displayed (empty: none did).

    Examples
    --------
    >>> import ipywidgets as W
    >>> slider = W.IntSlider(value=1)
    >>> register(slider, "the slider")
    >>> changed_since_display()
    []
    >>> slider.value = 2
    >>> changed_since_display()
    ['the slider']
    >>> forget()
    """
    return [label for widget, state, label in _DISPLAYED if snapshot(widget) != state]


def forget() -> None:
    """Forget every registered widget (a test starts from an empty list)."""
    _DISPLAYED.clear()


__all__ = ["changed_since_display", "forget", "register", "snapshot"]
