"""What an upper layer hands down to a lower one at import time, without the lower one importing it.

``WIDGET_MAKER``: :meth:`ltr_teach.teaching.kinds.Exercise.widget` builds its widget with it; the package's
``__init__`` installs the interactive layer's maker (ipywidgets belong to that layer, which teaching may not
import). Light on purpose: importing it imports nothing.
"""

from __future__ import annotations

from collections.abc import Callable

WIDGET_MAKER: Callable | None = None
