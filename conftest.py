"""Every test and doctest starts and ends in English, whatever LTR_TEACH_LANG or the machine's locale
says: the tests and the docstrings' examples compare English text, and a test that switches to
Chinese must not leak it to the next. (At the root, not in tests/, so that the doctests of
ltr_teach/ get it too; the notebooks' kernels are other processes: nbval runs them in the language
LTR_TEACH_LANG and the locale give, English in CI.)"""

import pytest

from ltr_teach.core import i18n


@pytest.fixture(autouse=True)
def english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")
