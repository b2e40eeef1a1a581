"""Read a student's typed answer into an exact SymPy number, without ever running it as code.

The grammar is small and written out by hand (a tokenizer and a recursive-descent parser)::

    answer  := expr [ "%" ]
    expr    := term { ("+" | "-") term }
    term    := factor { ("*" | "/") factor }
    factor  := ("+" | "-") factor | power
    power   := postfix [ ("^" | "**") factor ]          right-associative: 2^3^2 = 2^9
    postfix := atom [ "%" ]
    atom    := NUMBER | "(" expr ")" | FUNC "(" expr [ "," expr ] ")" | "√" atom
    FUNC    := log2 | ln | log10 | log (with a base: log(x, b)) | sqrt

The parser builds SymPy numbers itself (``Rational``, the package's exact ``log2`` and ``ln``,
``sqrt``); ``eval``, ``sympify`` and ``parse_expr`` never see the text. Everything it accepts is
bounded: the length of the text, the nesting depth, the size of a power. Anything else is an
:class:`UnreadableAnswer` with a one-line reason a student can act on.

Typing from a Chinese input method is normalised first: full-width digits, letters and operators
(``０.９４４``, ``（``, ``／``, ``＋``), the ideographic full stop ``。`` typed for a decimal point, ``％``,
``，`` and ``、`` (argument separators inside ``log(x, b)``), and the Unicode minus ``−``. A comma is
only an argument separator: ``0,944`` is refused rather than guessed (a decimal comma in one
country is a thousands separator in China). The way a sentence wraps a number is dropped: a
leading "about" (``约``, ``大约``, ``≈``, ``~``) and trailing sentence punctuation (``0.944。``,
``0.867，``), so ``约0.944`` reads as ``0.944``.

An answer that divides by zero, or by an expression that is zero (``1/(log2(9) - 2*log2(3))``:
log2(9) is 2·log2(3)), is unreadable, and so is a value larger than :data:`MAX_MAGNITUDE`.
"""

from __future__ import annotations

import decimal
import math
import numbers
import re
import sys
import unicodedata
from dataclasses import dataclass
from fractions import Fraction

import sympy
from sympy import Integer, Rational

from ..core.exact import ln, log2
from ..core.i18n import N_, Message, translate

#: The longest answer read, in characters (before normalisation, so a megabyte is refused at once).
MAX_LENGTH = 200
#: The deepest nesting of parentheses and functions.
MAX_DEPTH = 20
#: The largest whole-number exponent, and the largest power result, in bits.
MAX_EXPONENT = 256
MAX_POWER_BITS = 4096
#: The largest magnitude of an answer: no metric here comes near it, and beyond it a float overflows.
MAX_MAGNITUDE = sympy.Integer(10) ** 100

#: Example answers shown in messages; none of them is the answer to an exercise.
EXAMPLES = Message(N_("5/12, 0.417, 1 + 1/log2(3) or 41.7%"))  # a Message: the "or" is translated where shown


def _numpy_type(name: str) -> tuple:
    """NumPy's type ``name`` as a tuple for ``isinstance``, or an empty tuple while NumPy is not imported: no
    value of a NumPy type exists before NumPy is, so the answer reader never imports it (``ltr-teach check``
    starts without it)."""
    numpy = sys.modules.get("numpy")
    return () if numpy is None else (getattr(numpy, name),)


class _Phrase(str):
    """A piece of a reason that is itself a message id (``"the end"``): English in ``str()``, translated by
    :meth:`UnreadableAnswer.reason`."""


class UnreadableAnswer(ValueError):
    """The answer is not in the grammar; the message says why, in a sentence.

    ``str()`` is the English sentence (an exception's message stays English); :meth:`reason` is the
    same sentence in the course's language, for the student's feedback.

    Parameters
    ----------
    template : str
        The reason as a message id with named placeholders (marked ``N_()`` where raised).
    **params
        The placeholders' values (numbers, the student's characters; a :class:`_Phrase` is translated too).

    Examples
    --------
    >>> from ltr_teach.core.i18n import using_language
    >>> exc = UnreadableAnswer("it is {n} characters long; an answer has at most {most}", n=300, most=200)
    >>> str(exc)
    'it is 300 characters long; an answer has at most 200'
    >>> with using_language("zh"):
    ...     print(exc.reason())
    答案长 300 个字符；最多只能写 200 个字符
    """

    def __init__(self, template: str, **params):
        self.template, self.params = template, params
        super().__init__(template.format(**params))

    def __reduce__(self):  # pickling (multiprocessing) rebuilds it from its template, not its formatted text
        return _rebuild_unreadable, (self.template, self.params)

    def reason(self) -> str:
        """The reason in the current language (:func:`ltr_teach.core.i18n.set_language`)."""
        params = {k: translate(v) if isinstance(v, _Phrase) else v for k, v in self.params.items()}
        return translate(self.template).format(**params)


def _rebuild_unreadable(template, params):
    return UnreadableAnswer(template, **params)


@dataclass(frozen=True)
class ParsedAnswer:
    """A parsed answer: its exact value and how precisely it was written.

    Attributes
    ----------
    text : str
        The normalised text.
    value : sympy.Expr
        The exact value (a decimal ``0.944`` is the Rational ``118/125``).
    decimals : int or None
        For an answer that is a single decimal number (``0.944``, ``-1.50``, ``71.3%``): how many
        decimal places of the value it states (``71.3%`` states 3). ``None`` for exact forms
        (fractions, whole numbers, expressions).
    significant : int or None
        Significant digits of that decimal (``0.0713`` has 3), ``None`` for exact forms.
    has_decimal_inside : bool
        An expression containing a decimal literal (``3/1.585``): its decimals are taken literally.
    """

    text: str
    value: sympy.Expr
    decimals: int | None = None
    significant: int | None = None
    has_decimal_inside: bool = False

    @property
    def is_rounded(self) -> bool:
        """Whether the answer is a lone decimal, which may be the exact value rounded."""
        return self.decimals is not None


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_REPLACEMENTS = {
    "\u2212": "-", "\u2013": "-", "\u2014": "-", "\u2010": "-", "\u2011": "-", "\ufe63": "-",
    "\u00d7": "*", "\u00b7": "*", "\u22c5": "*", "\u2217": "*", "\u00f7": "/", "\u2215": "/",
    "\u3002": ".", "\uff61": ".", "\u3001": ",", "\uff64": ",", "\u2044": "/",
}


def normalise(text: str) -> str:
    """Map what an input method or a word processor types onto the ASCII grammar.

    Superscript digits become a power (``2³`` is ``2^3``) before NFKC folding, which would
    otherwise glue them to the base (``2³`` would read as 23).

    Examples
    --------
    >>> normalise("０。９４４")
    '0.944'
    >>> normalise("（３−１）／２")
    '(3-1)/2'
    >>> normalise("2³ − 1")
    '2^3 - 1'
    >>> normalise("log₂(3)")
    'log2(3)'
    """
    text = re.sub("[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+", lambda m: "^" + m.group(0).translate(_SUPERSCRIPTS), text)
    text = "".join(_REPLACEMENTS.get(ch, ch) for ch in text)
    text = unicodedata.normalize("NFKC", text)
    return "".join(_REPLACEMENTS.get(ch, ch) for ch in text).strip()


_ABOUT = re.compile(r"^(?:约为|大约|约|approximately|approx\.?|about|≈|~|∼|≃)\s*", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[\s.,;:!?]+$")


def strip_sentence(text: str) -> str:
    """Drop what a sentence puts around a number: a leading "about" and trailing punctuation.

    Applied to normalised text (``。`` is already ``.``, ``，`` is ``,``).

    Examples
    --------
    >>> strip_sentence("约0.944"), strip_sentence("0.944."), strip_sentence("≈ 0.867,")
    ('0.944', '0.944', '0.867')
    """
    text = _ABOUT.sub("", text.strip())
    return _SENTENCE_END.sub("", text)


def is_zero(x) -> bool:
    """Whether an exact value read from an answer is zero, also when its form hides it.

    ``log2(9) - 2*log2(3)`` is not simplified to 0 by SymPy; two different expressions built from
    the small numbers an answer can hold do not agree to 50 digits, so 50 digits decide.

    Examples
    --------
    >>> from ltr_teach.core.exact import log2
    >>> is_zero(log2(9) - 2 * log2(3)), is_zero(log2(3))
    (True, False)
    """
    if x.is_Rational:
        return x == 0
    return abs(sympy.N(x, 60)) < sympy.Float(10, 60) ** -50


_TOKEN = re.compile(
    r"\s*(?:(?P<number>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)|(?P<name>[A-Za-z][A-Za-z0-9]*)|(?P<op>\*\*|[-+*/^(),%√]))"
)
_FUNCTIONS = ("log2", "ln", "log10", "log", "sqrt")


@dataclass(frozen=True)
class _Token:
    kind: str  # "number", "name", "op", "end"
    text: str
    pos: int


def tokenize(text: str) -> list[_Token]:
    """Split normalised text into numbers, names and operators; anything else is unreadable."""
    tokens, pos = [], 0
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        m = _TOKEN.match(text, pos)
        if not m:
            ch = text[pos]
            raise UnreadableAnswer(N_("the character {character} at position {position} is not part of a number or "
                                      "formula"), character=repr(ch), position=pos + 1)
        kind = m.lastgroup
        value = m.group(kind)
        if kind == "name" and value not in _FUNCTIONS:
            raise UnreadableAnswer(N_("{name} is not a number or one of the functions {functions}"),
                                   name=repr(value), functions=", ".join(_FUNCTIONS))
        tokens.append(_Token(kind, "^" if value == "**" else value, m.start(kind)))
        pos = m.end()
    tokens.append(_Token("end", "", len(text)))
    return tokens


class _Parser:
    def __init__(self, tokens):
        self.tokens = tokens
        self.i = 0
        self.depth = 0
        self.decimal_literals = 0

    @property
    def tok(self) -> _Token:
        return self.tokens[self.i]

    def take(self, text=None, kind=None) -> _Token | None:
        t = self.tok
        if (text is not None and t.text == text and t.kind != "number") or (kind is not None and t.kind == kind):
            self.i += 1
            return t
        return None

    def expect(self, text: str) -> None:
        if not self.take(text):
            found = _Phrase(N_("the end")) if self.tok.kind == "end" else repr(self.tok.text)
            raise UnreadableAnswer(N_("expected {expected} at position {position} but found {found}"),
                                   expected=repr(text), position=self.tok.pos + 1, found=found)

    def nest(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise UnreadableAnswer(N_("it nests more than {most} levels of parentheses or functions"), most=MAX_DEPTH)

    def expr(self):
        value = self.term()
        while True:
            if self.take("+"):
                value = value + self.term()
            elif self.take("-"):
                value = value - self.term()
            else:
                return value

    def term(self):
        value = self.factor()
        while True:
            if self.take("*"):
                value = value * self.factor()
            elif self.take("/"):
                pos = self.tok.pos
                divisor = self.factor()
                if is_zero(divisor):
                    if divisor.is_Rational:
                        raise UnreadableAnswer(N_("it divides by zero (position {position})"), position=pos + 1)
                    raise UnreadableAnswer(N_("it divides by zero (position {position}: that expression equals 0, so "
                                              "the value is undefined)"), position=pos + 1)
                value = value / divisor
            else:
                return value

    def factor(self):
        if self.take("-"):
            self.nest()
            value = -self.factor()
            self.depth -= 1
            return value
        if self.take("+"):
            self.nest()
            value = self.factor()
            self.depth -= 1
            return value
        return self.power()

    def power(self):
        base = self.postfix()
        if self.take("^"):
            self.nest()
            exponent = self.factor()
            self.depth -= 1
            return _power(base, exponent)
        return base

    def postfix(self):
        value = self.atom()
        if self.take("%"):
            value = value / 100
        return value

    def atom(self):
        t = self.tok
        if self.take(kind="number"):
            if "." in t.text:
                self.decimal_literals += 1
            return Rational(t.text)
        if self.take("("):
            self.nest()
            value = self.expr()
            self.expect(")")
            self.depth -= 1
            return value
        if self.take("√"):
            self.nest()
            value = _function("sqrt", [self.atom()])
            self.depth -= 1
            return value
        if self.take(kind="name"):
            self.nest()
            self.expect("(")
            args = [self.expr()]
            while self.take(","):
                args.append(self.expr())
            self.expect(")")
            self.depth -= 1
            return _function(t.text, args)
        if t.kind == "end":
            raise UnreadableAnswer(N_("it ends where a number was expected"))
        raise UnreadableAnswer(N_("expected a number at position {position} but found {found}"), position=t.pos + 1,
                           found=repr(t.text))


def _bits(r: Rational) -> int:
    return int(abs(r.p)).bit_length() + int(r.q).bit_length()


def _power(base, exponent):
    """``base ** exponent`` for a whole exponent (or 1/2), refused before computing when too big."""
    if not exponent.is_Rational:
        raise UnreadableAnswer(N_("an exponent must be a whole number (as in 2^3), not a logarithm or a root"))
    if exponent.q == 2 and exponent.p == 1:
        return _function("sqrt", [base])
    if exponent.q != 1:
        raise UnreadableAnswer(N_("an exponent must be a whole number or 1/2; got {exponent}"), exponent=exponent)
    e = int(exponent.p)
    if abs(e) > MAX_EXPONENT:
        raise UnreadableAnswer(N_("the exponent {exponent} is too large (at most {most} is read)"), exponent=e,
                               most=MAX_EXPONENT)
    if not base.is_Rational:
        if abs(e) > 4:
            raise UnreadableAnswer(N_("a power of a logarithm or root may have an exponent of at most 4"))
        if e < 0 and is_zero(base):
            raise UnreadableAnswer(N_("it divides by zero (an expression equal to 0, to a negative power)"))
        return base**e
    if base == 0 and e < 0:
        raise UnreadableAnswer(N_("it divides by zero (0 to a negative power)"))
    if _bits(base) * abs(e) > MAX_POWER_BITS:
        raise UnreadableAnswer(N_("that power is too large to be an answer here"))
    return base**e


def _positive_rational(x, name: str) -> Rational:
    if not x.is_Rational or x <= 0:
        raise UnreadableAnswer(N_("{name}(...) needs a positive number inside, such as {name}(3) or {name}(3/2)"),
                               name=name)
    return x


def _function(name: str, args: list):
    if name == "log":
        if len(args) != 2:
            raise UnreadableAnswer(N_("log(x) without a base is ambiguous: write ln(x), log2(x), log10(x) or "
                                      "log(x, b)"))
        x = _positive_rational(args[0], "log")
        b = _positive_rational(args[1], "log")
        if b == 1:
            raise UnreadableAnswer(N_("a logarithm's base cannot be 1"))
        if b == 2:
            return log2(x)
        return _exact_log(x, b)
    if len(args) != 1:
        raise UnreadableAnswer(N_("{name}(...) takes one number; only log(x, b) takes two"), name=name)
    (x,) = args
    if name == "sqrt":
        if not x.is_Rational or x < 0:
            raise UnreadableAnswer(N_("sqrt(...) needs a number >= 0 inside, such as sqrt(2)"))
        return sympy.sqrt(x)
    x = _positive_rational(x, name)
    if name == "log2":
        return log2(x)
    if name == "ln":
        return ln(x)
    return _exact_log(x, Integer(10))


def _exact_log(x: Rational, b: Rational):
    """log_b(x): the whole number n when x = b^n (log(100, 10) is 2), else ln(x) / ln(b)."""
    guess = round((math.log(x.p) - math.log(x.q)) / (math.log(b.p) - math.log(b.q)))
    if abs(guess) <= MAX_EXPONENT and _bits(b) * abs(guess) <= MAX_POWER_BITS \
            and b**guess == x:
        return Integer(guess)
    return ln(x) / ln(b)


_LONE_DECIMAL = re.compile(r"^[+-]?(?P<int>\d*)\.?(?P<frac>\d*)(?P<pct>%?)$")


def _precision(text: str):
    """Decimals and significant digits stated by a lone decimal such as ``-0.0713`` or ``71.3%``."""
    compact = text.replace(" ", "")
    m = _LONE_DECIMAL.match(compact)
    if not m or "." not in compact or not (m.group("int") or m.group("frac")):
        if m and m.group("pct") and (m.group("int") or m.group("frac")):
            digits = m.group("int").lstrip("0")
            return 2, max(len(digits), 1)
        return None, None
    frac = m.group("frac")
    decimals = len(frac) + (2 if m.group("pct") else 0)
    digits = (m.group("int") + frac).lstrip("0")
    return decimals, max(len(digits), 1)


def parse_answer(text) -> ParsedAnswer:
    """Read one typed answer; :class:`UnreadableAnswer` (a ``ValueError``) when it cannot.

    Parameters
    ----------
    text : str or number
        What the student typed. Python ints and Fractions are accepted as exact; a float is read
        through its shortest decimal form (``0.944`` states three decimals).

    Examples
    --------
    >>> parse_answer("599/840").value
    599/840
    >>> a = parse_answer("71.3%")
    >>> a.value, a.decimals, a.significant
    (713/1000, 3, 3)
    >>> parse_answer("7 + 3/log2(3) + 7/2").value
    3/log2(3) + 21/2
    >>> parse_answer("9^9^9^9")
    Traceback (most recent call last):
    ...
    ltr_teach.teaching.answers.UnreadableAnswer: the exponent 387420489 is too large (at most 256 is read)
    """
    if isinstance(text, (Fraction, sympy.Rational)):
        text = f"{text.numerator}/{text.denominator}" if isinstance(text, Fraction) else f"{text.p}/{text.q}"
    elif isinstance(text, (int, float)) and not isinstance(text, bool):
        if isinstance(text, float) and not math.isfinite(text):
            raise UnreadableAnswer(N_("{value} is not a finite number"), value=text)
        # NumPy 2 reprs np.float64(0.5) as "np.float64(0.5)"; its float and int values are what was meant
        text = repr(float(text)) if isinstance(text, float) else str(int(text))
    elif isinstance(text, numbers.Integral) and not isinstance(text, (bool, *_numpy_type("bool_"))):
        text = str(int(text))
    elif isinstance(text, decimal.Decimal):
        # exactly as written (Decimal("0.944") is 944/1000); its exponent is checked before the digits are laid out
        if not text.is_finite():
            raise UnreadableAnswer(N_("{value} is not a finite number"), value=str(text)[:40])
        if text and text.adjusted() > 100:
            raise UnreadableAnswer(N_("it is larger than 10^100; no answer here is that large"))
        if text and text.adjusted() < -400:
            raise UnreadableAnswer(N_("the exponent {exponent} is too large (at most {most} is read)"),
                                   exponent=text.adjusted(), most=400)
        text = format(text, "f")
    elif isinstance(text, numbers.Real) and not isinstance(text, _numpy_type("bool_")):
        value = float(text)
        if not math.isfinite(value):
            raise UnreadableAnswer(N_("{value} is not a finite number"), value=value)
        # the shortest decimal that identifies the number in its own precision (float32: 0.8666667)
        floating = _numpy_type("floating")
        text = sys.modules["numpy"].format_float_positional(text) if isinstance(text, floating) else repr(value)
    elif not isinstance(text, str):
        raise UnreadableAnswer(N_("an answer is text such as {examples}; got a {type}"), examples=EXAMPLES,
                               type=type(text).__name__)
    if len(text) > MAX_LENGTH:
        raise UnreadableAnswer(N_("it is {n} characters long; an answer has at most {most}"), n=len(text),
                               most=MAX_LENGTH)
    norm = strip_sentence(normalise(text))
    if not norm:
        raise UnreadableAnswer(N_("it is empty"))
    parser = _Parser(tokenize(norm))
    value = parser.expr()
    if parser.tok.kind != "end":
        t = parser.tok
        if t.text == ",":
            raise UnreadableAnswer(N_("a comma is only read inside log(x, b); write decimals with a point, as in "
                                      "0.944"))
        if t.kind in ("number", "name") or t.text in ("(", "√"):
            raise UnreadableAnswer(N_("write * for a product: a number or function follows at position {position}"),
                                   position=t.pos + 1)
        raise UnreadableAnswer(N_("unexpected {found} at position {position}"), found=repr(t.text), position=t.pos + 1)
    if abs(value) > MAX_MAGNITUDE:  # a cheap bound: an answer's exact value has a few terms at most
        raise UnreadableAnswer(N_("it is larger than 10^100; no answer here is that large"))
    decimals, significant = _precision(norm)
    return ParsedAnswer(
        text=norm, value=value, decimals=decimals, significant=significant,
        has_decimal_inside=decimals is None and parser.decimal_literals > 0,
    )


# -- rankings typed for a "create" exercise ---------------------------------------------------------------
#: The longest ranking answer read, in characters; the most items in one list; the largest grade.
MAX_RANKING_LENGTH = 400
MAX_ITEMS = 30
MAX_GRADE = 100
#: What a ranking answer looks like, shown when it cannot be read.
RANKING_EXAMPLES = {"ranking": "[3, 0, 2]", "pair": "[1, 0, 1] [0, 1, 1]"}
_RANKING_TOKEN = re.compile(r"\s*(?:(?P<number>[+-]?\d+(?:\.\d*)?)|(?P<open>\[)|(?P<close>\])|(?P<sep>[,;])|(?P<other>\S))")


def parse_rankings(text, shape: str = "ranking"):
    """Read a typed ranking (``"[3, 0, 2]"``, ``"3 0 2"``) or pair (``"[1,0,1] [0,1,1]"``) of whole grades.

    Nothing is evaluated: a small tokenizer reads brackets, separators (comma, semicolon, spaces) and
    whole numbers from 0 to :data:`MAX_GRADE`; full-width brackets and commas typed from a Chinese
    input method are read too. A Python list (or a pair of lists) of whole numbers is accepted as is.

    Parameters
    ----------
    text : str or list
        What the student typed.
    shape : {"ranking", "pair"}
        One list of grades, or two.

    Returns
    -------
    list of int, or list of two lists of int

    Raises
    ------
    UnreadableAnswer
        With a reason a student can act on.

    Examples
    --------
    >>> parse_rankings("[3, 0, 2]")
    [3, 0, 2]
    >>> parse_rankings("［1，0，1］ [0 1 1]", "pair")
    [[1, 0, 1], [0, 1, 1]]
    >>> parse_rankings("[3, 0.5]")
    Traceback (most recent call last):
    ...
    ltr_teach.teaching.answers.UnreadableAnswer: 0.5 is not a whole grade (write grades as 0, 1, 2, ...)
    """
    if shape not in RANKING_EXAMPLES:
        raise ValueError(f"shape = {shape!r} must be one of {', '.join(RANKING_EXAMPLES)}")
    if isinstance(text, (list, tuple)):
        text = _typed_lists(text, shape)
    elif not isinstance(text, str):
        raise UnreadableAnswer(N_("a ranking is text such as {example}; got a {type}"),
                               example=RANKING_EXAMPLES[shape], type=type(text).__name__)
    if len(text) > MAX_RANKING_LENGTH:
        raise UnreadableAnswer(N_("it is {n} characters long; an answer has at most {most}"), n=len(text),
                               most=MAX_RANKING_LENGTH)
    norm = unicodedata.normalize("NFKC", text).replace("【", "[").replace("】", "]").replace("、", ",")
    norm = norm.strip().rstrip("。.")
    wrapped = re.fullmatch(r"\[\s*(\[.*\])\s*\]", norm, re.DOTALL)  # [[1, 0], [0, 1]], as Python prints a pair
    if wrapped:
        norm = wrapped.group(1)
    if not norm:
        raise UnreadableAnswer(N_("it is empty"))
    lists, current, depth = [], None, 0
    loose = []  # numbers outside brackets: "3 0 2" is one ranking
    for match in _RANKING_TOKEN.finditer(norm):
        if match.group("other") is not None:
            raise UnreadableAnswer(N_("unexpected {found} at position {position}"), found=repr(match.group("other")),
                                   position=match.start("other") + 1)
        if match.group("open"):
            depth += 1
            if depth > 2 or current is not None and depth == 2:
                raise UnreadableAnswer(N_("brackets inside a ranking are not read: write each ranking as one "
                                          "list, as in {example}"), example=RANKING_EXAMPLES[shape])
            current = []
        elif match.group("close"):
            if current is None:
                raise UnreadableAnswer(N_("a ] closes no [ at position {position}"), position=match.start("close") + 1)
            lists.append(current)
            current, depth = None, depth - 1
        elif match.group("number") is not None:
            value = _grade(match.group("number"))
            (current if current is not None else loose).append(value)
            if len(current if current is not None else loose) > MAX_ITEMS:
                raise UnreadableAnswer(N_("a ranking has at most {most} items here"), most=MAX_ITEMS)
    if current is not None:
        raise UnreadableAnswer(N_("a [ is never closed"))
    if loose and lists:
        raise UnreadableAnswer(N_("some grades are outside the brackets; write each ranking as one list, as in "
                                  "{example}"), example=RANKING_EXAMPLES[shape])
    if loose:
        lists = [loose]
    lists = [x for x in lists if x] if len(lists) > 1 else lists
    if not lists or not lists[0]:
        raise UnreadableAnswer(N_("no grade found; write the ranking as {example}"), example=RANKING_EXAMPLES[shape])
    wanted = 1 if shape == "ranking" else 2
    if len(lists) != wanted:
        message = (N_("this exercise wants one ranking, as in {example}; you wrote {n}") if wanted == 1 else
                   N_("this exercise wants two rankings (A, then B), as in {example}; you wrote {n}"))
        raise UnreadableAnswer(message, example=RANKING_EXAMPLES[shape], n=len(lists))
    return lists[0] if shape == "ranking" else lists


def _grade(text: str) -> int:
    if "." in text:
        raise UnreadableAnswer(N_("{value} is not a whole grade (write grades as 0, 1, 2, ...)"), value=text)
    if len(text.lstrip("+-")) > 3 or not 0 <= int(text) <= MAX_GRADE:
        raise UnreadableAnswer(N_("{value} is not a grade from 0 to {most}"), value=text[:12], most=MAX_GRADE)
    return int(text)


def _typed_lists(value, shape: str) -> str:
    """A Python list (or pair) of whole numbers as the text a student would type; anything else is refused."""
    lists = value if shape == "pair" and value and all(isinstance(v, (list, tuple)) for v in value) else [value]
    for one in lists:
        if not isinstance(one, (list, tuple)) or len(one) > MAX_ITEMS or not all(
                isinstance(v, numbers.Integral) and not isinstance(v, (bool, *_numpy_type("bool_"))) for v in one):
            raise UnreadableAnswer(N_("a ranking is a list of whole grades such as {example}"),
                                   example=RANKING_EXAMPLES[shape])
    return " ".join("[" + ", ".join(str(int(v)) for v in one) + "]" for one in lists)
