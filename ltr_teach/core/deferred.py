"""Fields of a frozen dataclass computed the first time they are read, not when the record is built.

A bank module builds every exercise of its family when it is imported, and ``lt.examples`` builds every
record; some fields quote the library's exact values (an erratum's correct value, an exercise's intro that
says what a post prints). Computing those when the record is built made ``ltr-teach check`` compute
dozens of metrics before reading the answer (issue 21). A :class:`ComputedField` holds either a plain value
or a :class:`Deferred`; reading the field computes a :class:`Deferred` once and keeps the result, so a record
reads exactly as if the value had been given.

>>> from dataclasses import dataclass
>>> calls = []
>>> def slow(x):
...     calls.append(x)
...     return x * 2
>>> @dataclass(frozen=True)
... class Record:
...     name: str
...     value: int = ComputedField(default=0)
>>> r = Record("a", Deferred(slow, 21))
>>> calls, stored(r, "value").__class__.__name__
([], 'Deferred')
>>> r.value, r.value, calls
(42, 42, [21])
>>> Record("b").value
0
"""

from __future__ import annotations

_REQUIRED = object()


class Deferred:
    """``function(*args)``, to be computed when the field holding it is first read. A module-level function
    and picklable arguments keep the record picklable before it is read."""

    __slots__ = ("args", "function")

    def __init__(self, function, *args):
        self.function, self.args = function, args

    def compute(self):
        return self.function(*self.args)


class ComputedField:
    """A dataclass field (``name: str = ComputedField()``) whose value may be a :class:`Deferred`.

    Without ``default`` the field is required. The frozen dataclass's ``__init__`` stores the given value
    through :meth:`__set__`; assigning to the field afterwards still raises ``FrozenInstanceError``.
    """

    def __init__(self, default=_REQUIRED):
        self.default = default

    def __set_name__(self, owner, name):
        self.slot = f"_{name}_stored"

    def __get__(self, record, owner=None):
        if record is None:  # the class: the dataclass reads the field's default here
            if self.default is _REQUIRED:
                raise AttributeError(self.slot)
            return self.default
        value = record.__dict__[self.slot]
        if isinstance(value, Deferred):
            value = record.__dict__[self.slot] = value.compute()
        return value

    def __set__(self, record, value):
        record.__dict__[self.slot] = value


def stored(record, name: str):
    """The field ``name`` of ``record`` as stored: a :class:`Deferred` is returned without computing it."""
    descriptor = next((klass.__dict__[name] for klass in type(record).__mro__ if name in klass.__dict__), None)
    if isinstance(descriptor, ComputedField):
        return record.__dict__[descriptor.slot]
    return getattr(record, name)


__all__ = ["ComputedField", "Deferred", "stored"]
