"""Every test starts and ends in English, whatever LTR_TEACH_LANG or the machine's locale says: the
tests compare English text, and a test that switches to Chinese must not leak it to the next."""

import pytest

from ltr_teach.core import i18n


@pytest.fixture(autouse=True)
def english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")
