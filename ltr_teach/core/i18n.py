"""The course's language: English or Chinese (zh-CN), through stdlib ``gettext`` catalogues.

Student-facing strings are English message ids; ``_()`` looks them up in the catalogue of the
current language (``ltr_teach/locale/<lang>/LC_MESSAGES/ltr_teach.mo``) when the text is shown, so
``lt.set_language("zh")`` after an explanation was computed still shows it in Chinese. ``N_()``
only marks a string for extraction (a constant defined at import time, translated later by
``_()``). Babel extracts and compiles the catalogues (``make catalogs``, ``tools/catalogs.py``);
at run time only the standard library is used.

The language is, in this order: the last :func:`set_language` call, the ``LTR_TEACH_LANG``
environment variable, the course edition the kernel runs in (a file :data:`EDITION_FILE` in the
working directory, holding ``zh`` or ``en``: Jupyter starts a notebook's kernel in the notebook's
folder, so ``notebooks/zh/`` runs in Chinese with code cells identical to ``notebooks/en/``), then the
locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them): ``zh_*`` is
Chinese, anything else English; where none of them is set, on Windows, the language of the user's interface
(:func:`windows_ui_language`).

Examples
--------
>>> set_language("zh"); _("hint")
'提示'
>>> set_language("en"); _("hint")
'hint'
>>> set_language(None)  # back to LTR_TEACH_LANG, then the locale
"""

from __future__ import annotations

import gettext
import os
import stat
import sys
from contextlib import contextmanager
from pathlib import Path

DOMAIN = "ltr_teach"
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
#: The languages the course exists in, and the catalogue (gettext locale name) of each.
LANGUAGES = {"en": "en", "zh": "zh_CN"}
_LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
#: The file that names the language of the course edition in its folder (``notebooks/zh/``).
EDITION_FILE = ".ltr-teach-language"

_chosen: str | None = None
_translations: dict[str, gettext.NullTranslations] = {}


def _normalise(name: str) -> str | None:
    """``"zh"`` for zh, zh_CN, zh-CN.UTF-8 ...; ``"en"`` for en, en_US ...; None for anything else."""
    head = name.strip().replace("-", "_").split(".")[0].split("_")[0].lower()
    return head if head in LANGUAGES else None


def set_language(language: str | None) -> None:
    """Choose the course's language: ``"zh"`` (Chinese) or ``"en"`` (English).

    Parameters
    ----------
    language : {"zh", "en"} or None
        ``"zh"`` (``"zh_CN"``, ``"zh-CN"`` too) or ``"en"``; ``None`` forgets the choice, so
        ``LTR_TEACH_LANG`` and then the locale decide again.

    Raises
    ------
    ValueError
        For any other language.

    Examples
    --------
    >>> set_language("zh-CN"); get_language()
    'zh'
    >>> set_language(None)
    """
    global _chosen
    if language is None:
        _chosen = None
        return
    normal = _normalise(language) if isinstance(language, str) else None
    if normal is None:
        raise ValueError(f"language must be one of {sorted(LANGUAGES)} (or None), got {language!r}")
    _chosen = normal


def get_language() -> str:
    """The current language, ``"zh"`` or ``"en"`` (see the module's resolution order).

    Examples
    --------
    >>> set_language("en"); get_language()
    'en'
    >>> set_language(None)
    """
    if _chosen is not None:
        return _chosen
    from_env = _normalise(os.environ.get("LTR_TEACH_LANG", ""))
    if from_env is not None:
        return from_env
    from_edition = _edition_here()
    if from_edition is not None:
        return from_edition
    for variable in _LOCALE_VARIABLES:
        value = os.environ.get(variable)
        if value:  # the first one set decides, as in gettext; LANGUAGE may list several: take the first
            return "zh" if value.split(":")[0].lower().startswith("zh") else "en"
    return windows_ui_language() or "en"


#: The primary language of a Windows LANGID (its low 10 bits) that is Chinese (LANG_CHINESE in winnt.h).
_LANG_CHINESE = 0x04


def windows_ui_language() -> str | None:
    """On Windows, the language of the user's interface (``GetUserDefaultUILanguage``): ``"zh"`` for any Chinese,
    else ``"en"``; None elsewhere. Windows sets none of the ``LANG``-style variables, so without this a Chinese
    Windows would get English. Read once per process (the call goes through ctypes)."""
    global _windows_ui
    if sys.platform != "win32":
        return None
    if _windows_ui is None:
        try:
            import ctypes  # Windows only: kernel32 is there
            langid = int(ctypes.windll.kernel32.GetUserDefaultUILanguage())
        except (ImportError, AttributeError, OSError, TypeError, ValueError):
            langid = 0  # LANG_NEUTRAL: English
        _windows_ui = "zh" if langid & 0x3FF == _LANG_CHINESE else "en"
    return _windows_ui


_windows_ui: str | None = None


def edition_language(folder: Path) -> str | None:
    """The language the course edition in ``folder`` is written in (its :data:`EDITION_FILE`), or None.

    Only a regular file is read, and only its first :data:`_EDITION_BYTES` bytes: a FIFO, a device or a
    directory of that name is no edition (reading it could wait forever or never end). An unreadable,
    missing or unknown value is no edition (the locale decides), not an error: it is the course's file,
    not the student's input.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = (Path(folder) / EDITION_FILE).write_text("zh\\n", encoding="utf-8")
    ...     edition_language(Path(folder))
    'zh'
    """
    return _read_edition(os.path.join(folder, EDITION_FILE))[1]


#: At most this many bytes of an edition file are read ("zh\n" is three).
_EDITION_BYTES = 64
#: The edition file last read: (its path, its identity from stat) -> its language.
_edition_seen: tuple[tuple[str, tuple] | None, str | None] = (None, None)


def _read_edition(path: str) -> tuple[tuple | None, str | None]:
    """``(identity, language)`` of the edition file at ``path``; ``(None, None)`` when there is none to read.

    The identity (device, inode, size, modification time) tells a rewritten file from the one read before.
    Follows a symbolic link, but reads only a regular file; the file is opened without waiting (O_NONBLOCK:
    a FIFO swapped in after the check does not block) and checked again once open.
    """
    try:
        found = os.stat(path)
        if not stat.S_ISREG(found.st_mode):
            return None, None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError):  # missing, unreadable, or a path the system refuses (a NUL byte)
        return None, None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            return None, None
        data = os.read(fd, _EDITION_BYTES)
    except OSError:
        return None, None
    finally:
        os.close(fd)
    identity = (opened.st_dev, opened.st_ino, opened.st_size, opened.st_mtime_ns)
    try:
        return identity, _normalise(data.decode("utf-8"))
    except UnicodeDecodeError:
        return identity, None


def _edition_here() -> str | None:
    """The edition language of the working directory, read again only when the directory or the file changed.

    Called for every message shown, so it costs a ``getcwd`` and a ``stat`` when nothing changed. A kernel's
    working directory may change (``%cd``); a deleted one (``os.getcwd()`` fails) has no edition file.
    """
    global _edition_seen
    try:
        path = os.path.join(os.getcwd(), EDITION_FILE)
        found = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(found.st_mode):
        return None
    seen, language = _edition_seen
    if seen == (path, (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns)):
        return language
    identity, language = _read_edition(path)
    _edition_seen = ((path, identity) if identity is not None else None), language
    return language


@contextmanager
def using_language(language: str | None):
    """Within the ``with`` block the language is ``language`` (None: no change); then as before.

    Examples
    --------
    >>> with using_language("zh"):
    ...     print(_("expected"))
    应为
    """
    global _chosen
    previous = _chosen
    if language is not None:
        set_language(language)
    try:
        yield
    finally:
        _chosen = previous


def translations(language: str | None = None) -> gettext.NullTranslations:
    """The gettext catalogue of ``language`` (default: the current one), loaded once."""
    language = language or get_language()
    if language not in _translations:
        _translations[language] = gettext.translation(DOMAIN, localedir=str(LOCALE_DIR),
                                                      languages=[LANGUAGES[language]], fallback=True)
    return _translations[language]


class Message(str):
    """A sentence built from a message id and values, English as a ``str``, translated when shown.

    A metric's note is computed once but may be shown after ``set_language``: it is the English
    sentence for every ``str`` use (comparisons, ``in``, JSON), and ``_()``/``translate()`` fill the
    current language's template with the same values. A value that is itself a :class:`Message` is
    translated too.

    Parameters
    ----------
    template : str
        The message id with named placeholders (mark it ``N_()`` where written, for extraction).
    **params
        The placeholders' values.

    Examples
    --------
    >>> note = Message("{n} relevant document(s) were not retrieved: each adds 0 to the sum", n=2)
    >>> note
    '2 relevant document(s) were not retrieved: each adds 0 to the sum'
    >>> with using_language("zh"):
    ...     print(translate(note))
    有 2 篇相关文档没有被检索到：每篇在总和中计 0
    """

    template: str
    params: dict

    def __new__(cls, template: str, **params):
        # a message without values is its text as written: its braces are not placeholders (Σ_{i≥2})
        self = super().__new__(cls, template.format(**params) if params else template)
        self.template, self.params = template, params
        return self

    def __reduce__(self):  # pickle the template and values, not only the English text
        return _message, (self.template, self.params)

    def translated(self) -> str:
        """The sentence in the current language."""
        text = translations().gettext(self.template)
        if not self.params:
            return text
        params = {k: v.translated() if isinstance(v, Message) else v for k, v in self.params.items()}
        return text.format(**params)


def _message(template: str, params: dict) -> Message:
    return Message(template, **params)


def _(message: str) -> str:
    """``message`` (an English message id) in the current language; itself when not translated."""
    if isinstance(message, Message):
        return message.translated()
    return translations().gettext(message) if message else message


def translate(message: str) -> str:
    """``_()`` for a message id held in a variable or a data structure (``pybabel extract`` reads only
    the literals written inside ``_()``, so a lookup such as ``_(table[key])`` would extract ``key``)."""
    return _(message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it (``_()`` translates it when shown)."""
    return message


__all__ = ["set_language", "get_language", "using_language", "translations", "_", "N_", "translate", "Message", "LANGUAGES"]
