"""The exact core: the explanation object, exact numbers and their formatting, input validation.

Everything above builds on these three modules; they import nothing of the package's other layers.

- :mod:`.explanation`: :class:`Explanation`, the value with its step table, text/HTML/LaTeX forms;
- :mod:`.exact`: exact logarithms (``log2``, ``ln``), conversion to SymPy, decimal formatting;
- :mod:`.validate`: the checks at the door that raise ``ValueError`` naming the argument;
- :mod:`.table`: :class:`~.table.Table`, rows of text that print aligned and show as HTML.
"""
