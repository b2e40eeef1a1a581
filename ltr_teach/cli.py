"""The ``ltr-teach`` command line.

Every subcommand prints plain text; bad input gives a one-line error and exit code 2, never a
traceback. Subcommands are added by small ``_add_*`` functions, one per command.
"""

from __future__ import annotations

import argparse
import inspect
import os
import re
import sys
from fractions import Fraction

from .registry import ALIASES, METRICS, lookup

_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$|^[+-]?\d+/\d+$")


#: Keywords that default to None only so that a convention can supply them (err's g_max: gdeval fixes
#: it at 4); the command line has no --convention for explain, so they are required there.
_SUPPLIED_ONLY_BY_CONVENTION = ("g_max",)


class UsageError(Exception):
    """A user mistake: printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse prints usage + message; we want one line
        raise UsageError(message)


def parse_number(text: str, name: str):
    """An int, a decimal or a fraction ``1/2`` from the command line; never evaluated as code."""
    if not _NUMBER.match(text.strip()):
        raise UsageError(f"{name} = {text!r} is not a number (write 3, 0.5 or 1/2)")
    try:
        value = Fraction(text.strip())
    except ZeroDivisionError:
        raise UsageError(f"{name} = {text!r} divides by zero (write 3, 0.5 or 1/2)") from None
    return int(value) if value.denominator == 1 else value


def _split_queries(values: list[str]) -> list[list[str]]:
    queries, current = [], []
    for v in values:
        for piece in re.split(r"(,)", v):
            if piece == ",":
                queries.append(current)
                current = []
            elif piece:
                current.append(piece)
    queries.append(current)
    return queries


def _explain(args) -> int:
    info = lookup(args.metric)
    kwargs = {}
    for opt in info.options:
        value = getattr(args, opt, None)
        if value is not None:
            kwargs[opt] = value
    for opt in ("k", "g_max", "n_relevant", "beta", "threshold", "recall", "ideal", "gain", "discount", "zero"):
        if getattr(args, opt, None) is not None and opt not in info.options:
            raise UsageError(f"--{opt.replace('_', '-')} does not apply to {info.name} (it takes: "
                             f"{', '.join('--' + o.replace('_', '-') for o in info.options) or 'no options'})")
    signature = inspect.signature(info.func).parameters
    for opt in info.options:
        if (signature[opt].default is inspect.Parameter.empty or opt in _SUPPLIED_ONLY_BY_CONVENTION) \
                and opt not in kwargs:
            raise UsageError(f"{info.name} needs --{opt.replace('_', '-')}")
    if args.scores and info.takes != "labels_scores":
        raise UsageError(f"--scores does not apply to {info.name} (only to roc_curve and auc)")
    if info.takes == "queries":
        queries = _split_queries(args.values)
        if any(not q for q in queries):
            raise UsageError("an empty query: separate queries with ',' as in `mrr 0 1 0 , 1 0 0`")
        data = [[parse_number(v, "value") for v in q] for q in queries]
        ex = info.func(data, **kwargs)
    elif info.takes == "labels_scores":
        if not args.scores:
            raise UsageError(f"{info.name} needs --scores S1 S2 ... beside the labels")
        ex = info.func([parse_number(v, "label") for v in args.values],
                       [parse_number(v, "score") for v in args.scores])
    else:
        ex = info.func([parse_number(v, "value") for v in args.values], **kwargs)
    print(ex)
    return 0


def _add_explain(sub) -> None:
    names = ", ".join(list(METRICS) + list(ALIASES))
    p = sub.add_parser("explain", help="print a metric's step table, exact value and decimal",
                       description=f"Metrics: {names}. Queries for mrr/map are separated by ','.")
    p.add_argument("metric")
    p.add_argument("values", nargs="+", help="grades or 0/1 relevance in ranked order (labels for auc)")
    p.add_argument("--k", type=lambda t: _int(t, "--k"))
    p.add_argument("--gain")
    p.add_argument("--discount")
    p.add_argument("--zero")
    p.add_argument("--g-max", dest="g_max", type=lambda t: _int(t, "--g-max"))
    p.add_argument("--n-relevant", dest="n_relevant", type=lambda t: _int(t, "--n-relevant"))
    p.add_argument("--beta", type=lambda t: parse_number(t, "--beta"))
    p.add_argument("--threshold", type=lambda t: parse_number(t, "--threshold"))
    p.add_argument("--recall", type=lambda t: parse_number(t, "--recall"))
    p.add_argument("--ideal", nargs="+", type=lambda t: parse_number(t, "--ideal"))
    p.add_argument("--scores", nargs="+")
    p.set_defaults(run=_explain)


def _int(text: str, name: str) -> int:
    value = parse_number(text, name)
    if not isinstance(value, int):
        raise UsageError(f"{name} = {text!r} must be a whole number")
    return value


def _add_examples(sub) -> None:
    def run(args) -> int:
        from .examples import format_examples

        print(format_examples())
        return 0

    sub.add_parser("examples", help="list the worked examples of the five documents").set_defaults(run=run)


def _add_errata(sub) -> None:
    def run(args) -> int:
        from .examples import format_errata

        print(format_errata())
        return 0

    sub.add_parser("errata", help="list what the five documents get wrong").set_defaults(run=run)


def _add_eval(sub) -> None:
    from .conventions import CONVENTIONS
    from .evaluate import METRIC_NAMES

    def run(args) -> int:
        from .evaluate import evaluate

        result = evaluate(args.qrels_file, args.run_file, args.metrics, convention=args.convention, missing=args.missing,
                          progress=None)
        print(result.table(per_query=args.per_query))
        return 0

    p = sub.add_parser("eval", help="evaluate a TREC run file against a qrels file, like trec_eval",
                       description=f"Metrics: {', '.join(METRIC_NAMES)}, optionally @k (ndcg@10, p@5). "
                                   f"Conventions: {', '.join(CONVENTIONS)}.")
    p.add_argument("qrels_file", metavar="QRELS", help="qrels file: qid iter docid grade")
    p.add_argument("run_file", metavar="RUN", help="run file: qid Q0 docid rank score tag")
    p.add_argument("-m", "--metric", dest="metrics", action="append", required=True,
                   help="a metric to compute; repeat for more (-m ndcg@10 -m map)")
    p.add_argument("--per-query", action="store_true", help="print every query's values before the means")
    p.add_argument("--convention", default="trec_eval", help="whose conventions to follow (default trec_eval)")
    p.add_argument("--missing", choices=["skip", "zero"],
                   help="judged queries absent from the run: skip (trec_eval) or score 0 (trec_eval -c)")
    p.set_defaults(run=run)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ltr-teach", description="Learn how rankings are evaluated, one exact step at a time.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for add in (_add_explain, _add_examples, _add_errata, _add_eval):
        add(sub)
    return parser


def main(argv=None) -> int:
    """Entry point of the ``ltr-teach`` console script; returns the exit code."""
    try:
        args = build_parser().parse_args(argv)
        return args.run(args)
    except (UsageError, ValueError, TypeError) as exc:
        print(f"ltr-teach: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `ltr-teach errata | head` closed the pipe early: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
