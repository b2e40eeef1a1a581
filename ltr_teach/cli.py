"""The ``ltr-teach`` command line.

Every subcommand prints plain text; bad input gives a one-line error and exit code 2, never a
traceback. Subcommands are added by small ``_add_*`` functions, one per command.
"""

from __future__ import annotations

import argparse
import codecs
import inspect
import os
import re
import sys
from fractions import Fraction

# Only light modules at the top (no SymPy, NumPy, Matplotlib, ipywidgets): `ltr-teach --help` builds every
# subcommand's parser, so each command imports what it computes with inside its own function.
from .core.i18n import LANGUAGES, _, get_language, translate, using_language
from .metrics.conventions import CONVENTIONS, TIE_RULES, resolve
from .metrics.registry import ALIASES, METRICS, lookup

_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$|^[+-]?\d+/\d+$")


#: Keywords that default to None only so that a convention can supply them (err's g_max: gdeval fixes
#: it at 4): required on the command line unless --convention supplies them.
_SUPPLIED_ONLY_BY_CONVENTION = ("g_max",)

#: Keywords that rank items by the model's scores; a metric accepts those its function takes.
_RANKING_KEYWORDS = ("scores", "docids", "ties", "convention")

#: Every option of ``explain`` that is a keyword of some metric, as its Python name.
_METRIC_OPTIONS = ("k", "g_max", "n_relevant", "n_nonrelevant", "beta", "threshold", "recall", "rule", "ideal", "gain",
                   "discount", "zero", "p", "weight", "marginals")

#: What stands for an unjudged document among the values of bpref, judged_at_k and rbp.
_UNJUDGED = ("-", "?")


class UsageError(Exception):
    """A user mistake: printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # argparse's own words, in the course's language (argparse reads its own gettext domain, which has no
        # Chinese): the section titles and -h's help; "usage: " in _get_formatter
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        for action in self._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = _("show this help message and exit")

    def _get_formatter(self):
        formatter = super()._get_formatter()
        add_usage = formatter.add_usage
        formatter.add_usage = lambda usage, actions, groups, prefix=None: add_usage(
            usage, actions, groups, _("usage: ") if prefix is None else prefix)
        return formatter

    def error(self, message):  # argparse prints usage + message; we want one line
        raise UsageError(message)


#: The longest number the command line reads, and the decimal exponents of the sizes a float can hold.
_MAX_NUMBER_CHARS, _MIN_MAGNITUDE, _MAX_MAGNITUDE = 400, -324, 308


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")


def parse_number(text: str, name: str, low=None, high=None, integer: bool = False):
    """An int, a decimal or a fraction ``1/2`` from the command line, never evaluated as code: the one reader of
    every number option. Its size is checked on the text before it is computed (``1e999999999`` would take
    forever), and ``low``/``high`` (inclusive) bound it; each refusal is a :class:`UsageError` naming ``name``."""
    stripped = text.strip()
    if len(stripped) > _MAX_NUMBER_CHARS:
        raise UsageError(f"{name} = {_shown(text)} is {len(stripped)} characters long; a number has at most "
                         f"{_MAX_NUMBER_CHARS}")
    match = _NUMBER.match(stripped)
    if not match:
        raise UsageError(f"{name} = {_shown(text)} is not a number (write 3, 0.5 or 1/2)")
    if "/" not in stripped:
        mantissa, _e, exponent = stripped.lstrip("+-").lower().partition("e")
        whole, _dot, decimals = mantissa.partition(".")
        digits = (whole + decimals).lstrip("0")
        if not digits:
            stripped = "0"  # 0e-99999999 is 0, without computing 10^99999999
        elif exponent:
            # the decimal exponent of the leading digit, from the text alone
            magnitude = int(exponent) + len(whole.lstrip("0")) - 1 if whole.lstrip("0") else \
                int(exponent) - (len(decimals) - len(decimals.lstrip("0"))) - 1
            if not _MIN_MAGNITUDE <= magnitude <= _MAX_MAGNITUDE:
                raise UsageError(f"{name} = {_shown(text)} is outside what a float can hold (a size between about "
                                 "4.9e-324 and 1.8e308)")
    try:
        value = Fraction(stripped)
    except ZeroDivisionError:
        raise UsageError(f"{name} = {_shown(text)} divides by zero (write 3, 0.5 or 1/2)") from None
    if abs(value) > Fraction(sys.float_info.max):
        raise UsageError(f"{name} = {_shown(text)} is outside what a float can hold (a size between about "
                         "4.9e-324 and 1.8e308)")
    if integer and value.denominator != 1:
        raise UsageError(f"{name} = {_shown(text)} must be a whole number")
    if (low is not None and value < low) or (high is not None and value > high):
        allowed = f"from {low} to {high}" if low is not None and high is not None else \
            (f"at least {low}" if low is not None else f"at most {high}")
        raise UsageError(f"{name} = {_shown(text)} is out of range; it must be {allowed}")
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


def _flag(option: str) -> str:
    return "--" + option.replace("_", "-")


def _ranking_keywords(info) -> tuple:
    """The ranking keywords (scores, docids, ties, convention) that a metric's function takes."""
    if info.takes in ("labels_scores", "grouped_labels_scores"):
        return ("scores",)  # auc's scores are its second argument, not a ranking
    parameters = inspect.signature(info.func).parameters
    return tuple(key for key in _RANKING_KEYWORDS if key in parameters)


def _metrics_taking(keyword: str) -> str:
    return ", ".join(name for name, info in METRICS.items() if keyword in _ranking_keywords(info))


def _check_options(args, info) -> None:
    """A one-line UsageError for an option the metric does not take or a required one left out."""
    accepted = info.options + _ranking_keywords(info)
    for opt in _METRIC_OPTIONS:
        if getattr(args, opt, None) is not None and opt not in info.options:
            raise UsageError(f"{_flag(opt)} does not apply to {info.name} (it takes: "
                             f"{', '.join(_flag(o) for o in accepted) or 'no options'})")
    for key in _RANKING_KEYWORDS:
        if getattr(args, key) is not None and key not in accepted:
            raise UsageError(f"{_flag(key)} does not apply to {info.name} (only to {_metrics_taking(key)})")
    if args.scores is None:
        for key in ("docids", "ties"):
            if getattr(args, key) is not None:
                raise UsageError(f"{_flag(key)} needs --scores: without scores the values are already in "
                                 "ranked order and nothing is tied")
    signature = inspect.signature(info.func).parameters
    for opt in info.options:
        if getattr(args, opt, None) is not None:
            continue
        if signature[opt].default is inspect.Parameter.empty:
            raise UsageError(f"{info.name} needs {_flag(opt)}")
        if opt in _SUPPLIED_ONLY_BY_CONVENTION and resolve(args.convention, **{opt: None})[opt] is None:
            raise UsageError(f"{info.name} needs {_flag(opt)} (or a --convention that sets it)")


def _explain(args) -> int:
    info = lookup(args.metric)
    _check_options(args, info)
    kwargs = {opt: getattr(args, opt) for opt in info.options + _ranking_keywords(info)
              if getattr(args, opt, None) is not None}
    if info.takes == "queries":
        queries = _split_queries(args.values)
        if any(not q for q in queries):
            raise UsageError("an empty query: separate queries with ',' as in `mrr 0 1 0 , 1 0 0`")
        ex = info.func([[parse_number(v, "value") for v in q] for q in queries], **kwargs)
    elif info.takes == "judge_pair":
        judges = _split_queries(args.values)
        if len(judges) != 2 or any(not j for j in judges):
            raise UsageError(f"{info.name} needs two judges' labels separated by ',' as in `{info.name} 1 0 1 , "
                             "1 1 0`")
        ex = info.func(*[[parse_number(v, "label") for v in judge] for judge in judges], **kwargs)
    elif info.takes == "grouped_labels_scores":
        raise UsageError(f"{info.name} needs the user of every impression besides labels and scores; "
                         f"call lt.{info.name}(labels, scores, groups) from Python")
    elif info.takes == "labels_scores":
        if args.scores is None:
            raise UsageError(f"{info.name} needs --scores S1 S2 ... beside the labels")
        ex = info.func([parse_number(v, "label") for v in args.values],
                       [parse_number(v, "score") for v in kwargs.pop("scores")])
    else:
        if "scores" in kwargs:
            kwargs["scores"] = [parse_number(v, "score") for v in kwargs["scores"]]
        unjudged_allowed = info.takes == "judged_rels"
        ex = info.func([None if unjudged_allowed and v in _UNJUDGED else parse_number(v, "value")
                        for v in args.values], **kwargs)
        if "order" in ex.params:  # a k cut-off hides the tail of the table: show the whole order
            print(_("order by score (ties={ties}): {order}").format(ties=repr(ex.params["ties"]),
                                                                   order=", ".join(ex.params["order"])) + "\n")
    print(ex)
    return 0


def _add_explain(sub) -> None:
    names = ", ".join(list(METRICS) + list(ALIASES))
    p = sub.add_parser("explain", help=_("print a metric's step table, exact value and decimal"),
                       description=_("Metrics: {names}. Queries for mrr/map are separated by ','.").format(names=names))
    p.add_argument("metric")
    p.add_argument("values", nargs="+", help=_("grades or 0/1 relevance in ranked order (labels for auc; "
                                             "- for an unjudged document in bpref, judged_at_k and rbp)"))
    p.add_argument("--k", type=lambda t: _int(t, "--k"))
    p.add_argument("--gain")
    p.add_argument("--discount")
    p.add_argument("--zero")
    p.add_argument("--g-max", dest="g_max", type=lambda t: _int(t, "--g-max"))
    p.add_argument("--n-relevant", dest="n_relevant", type=lambda t: _int(t, "--n-relevant"))
    p.add_argument("--n-nonrelevant", dest="n_nonrelevant", type=lambda t: _int(t, "--n-nonrelevant"))
    p.add_argument("--p", type=lambda t: parse_number(t, "--p"), help=_("RBP's persistence (default 4/5)"))
    p.add_argument("--weight", help=_("what a relevant document adds to RBP: binary (default) or grade"))
    p.add_argument("--marginals",
                   help=_("kappa's chance agreement: separate (each judge's own shares, Cohen) or pooled (Manning "
                          "et al.)"))
    p.add_argument("--rule", help=_("how a recall level becomes a count: textbook, trec_eval_9 or trec_eval_10"))
    p.add_argument("--beta", type=lambda t: parse_number(t, "--beta"))
    p.add_argument("--threshold", type=lambda t: parse_number(t, "--threshold"))
    p.add_argument("--recall", type=lambda t: parse_number(t, "--recall"))
    p.add_argument("--ideal", nargs="+", type=lambda t: parse_number(t, "--ideal"))
    p.add_argument("--scores", nargs="+",
                   help=_("the model's score per item: the ranking is score descending (auc: the scores of the labels)"))
    p.add_argument("--docids", nargs="+", help=_("document ids, shown in the table and used by --ties docid_desc"))
    p.add_argument("--ties", choices=list(TIE_RULES), help=_("how tied scores are ordered (default stable)"))
    p.add_argument("--convention", choices=list(CONVENTIONS),
                   help=_("a tool's conventions (see `ltr-teach conventions`); explicit options win"))
    p.set_defaults(run=_explain)


def _int(text: str, name: str, low=None, high=None) -> int:
    return parse_number(text, name, low, high, integer=True)


def _add_listing(sub, name: str, summary: str, text) -> None:
    """A subcommand that prints ``text()``."""
    def run(args) -> int:
        print(text())
        return 0

    sub.add_parser(name, help=summary).set_defaults(run=run)


def format_conventions() -> str:
    """The presets of ``lt.CONVENTIONS`` (name, what sets it apart, version verified) and the tie rules."""
    width = max(map(len, CONVENTIONS))
    lines = [_("conventions (--convention), each verified against the tool's version shown:"), ""]
    for c in CONVENTIONS.values():
        lines += [f"  {c.name.ljust(width)}  {translate(c.description)}",
                  f"  {'':{width}}  " + _("verified against {version}").format(version=translate(c.version))]
    width = max(map(len, TIE_RULES))
    lines += ["", _("tie rules (--ties), used when --scores are given:"), ""]
    lines += [f"  {name.ljust(width)}  {translate(rule)}" for name, rule in TIE_RULES.items()]
    return "\n".join(lines)


def format_examples() -> str:
    from .teaching.examples import format_examples

    return format_examples()


def format_errata() -> str:
    from .teaching.examples import format_errata

    return format_errata()


def _add_listings(sub) -> None:
    _add_listing(sub, "conventions", _("list the tools' conventions (--convention) and the tie rules (--ties)"),
                 format_conventions)
    _add_listing(sub, "examples", _("list the worked examples of the five posts"), format_examples)
    _add_listing(sub, "errata", _("list what the five posts get wrong"), format_errata)


def _check(args) -> int:
    from .teaching.checker import check

    feedback = check(args.exercise, " ".join(args.answer), reveal=args.reveal, seed=args.seed)
    if feedback.status in ("unreadable", "not answered"):  # a usage error: one line on stderr, exit 2
        raise UsageError(f"{feedback.target}: {feedback.message}")
    print(feedback)
    return 0 if feedback.correct or feedback.status == "to mark" else 1


def _add_check(sub) -> None:
    p = sub.add_parser(
        "check", help=_("check an answer to an exercise (exit 0 right, 1 wrong, 2 unreadable or unknown id)"),
        description=_("Check ANSWER to exercise ID: 599/840, 0.713, 71.3%% or 7 + 3/log2(3). Exit code 0: right; "
                    "1: wrong (the likely mistake is named); 2: the answer could not be read or the id is unknown."))
    p.add_argument("exercise", help=_("exercise id (see `ltr-teach exercises list`)"))
    p.add_argument("answer", nargs="+", help=_("your answer (the words are joined: 7 + 1/2); quote parentheses"))
    p.add_argument("--seed", type=lambda t: _int(t, "--seed"), help=_("your seed, for the version on your sheet"))
    p.add_argument("--reveal", action="store_true", help=_("also print the expected value"))
    p.set_defaults(run=_check)


def parse_seeds(text: str) -> list[int]:
    """``"1-30"``, ``"3,5,8"`` or ``"1-3,10"`` as a list of seeds, in order, without repeats."""
    seeds = []
    for piece in text.split(","):
        piece = piece.strip()
        m = re.fullmatch(r"(\d+)\s*-\s*(\d+)", piece)
        if m:
            low, high = int(m.group(1)), int(m.group(2))
            if high < low or high - low >= 1000:
                raise UsageError(f"--seeds range {piece!r} must run upwards and hold at most 1000 seeds")
            values = range(low, high + 1)
        elif piece.isdigit():
            values = [int(piece)]
        else:
            raise UsageError(f"--seeds = {text!r}: write a range 1-30, a list 3,5,8 or both 1-3,10")
        seeds += [v for v in values if v not in seeds]
    return seeds


def _exercises(args) -> int:
    from .teaching import exercises

    if args.action == "list":
        chosen = [e for e in exercises.all() if args.family in (None, e.family)]
        width = max(len(e.id) for e in chosen)
        family = None
        for e in chosen:
            if e.family != family:
                family = e.family
                print(f"\n{translate(exercises.FAMILIES[family])}  [{family}]")
            kind = "" if e.kind == "compute" else f", {e.kind}"
            print(f"  {e.id.ljust(width)}  {e.title}  ({e.source}{kind}; {e.level_text})")
        return 0
    if args.action == "show":
        for exercise_id in args.ids:
            print(exercises.variant(exercise_id, args.seed))
        return 0
    seeds = list(args.seed or [])
    if args.seeds:
        seeds += [s for s in parse_seeds(args.seeds) if s not in seeds]
    if not seeds:
        raise UsageError("exercises sheet needs --seed S (repeatable) or --seeds 1-30: one sheet per seed")
    if args.exam:
        from .teaching.exam import exam_html

        def paper(chosen_seeds):  # the exam's HTML; the key is the sheet's (same seeds, same numbers)
            return exam_html(chosen_seeds, args.ids or None), exercises.sheet(chosen_seeds, _exercise_ids(args.ids))[1]
    else:
        def paper(chosen_seeds):
            return exercises.sheet(chosen_seeds, args.ids or None)
    if args.out and "{seed}" in args.out:
        for seed in seeds:
            text, _key = paper([seed])
            _write(args.out.replace("{seed}", str(seed)), text)
        _text, key = paper(seeds)
    else:
        text, key = paper(seeds)
        if args.out:
            _write(args.out, text)
        else:
            print(text)
    if args.key:
        _write(args.key, key)
    print(_("{n} sheet(s) for seed(s) {seeds}").format(n=len(seeds), seeds=", ".join(map(str, seeds)))
          + (_("; key in {path}").format(path=args.key) if args.key else ""), file=sys.stderr)
    return 0


def _exercise_ids(ids):
    """Exercise ids with each family key (dcg_ndcg) replaced by its exercises' ids; None for all."""
    if not ids:
        return None
    from .teaching.exam import _chosen

    return [ex.id for ex in _chosen(ids)]


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None


def _add_exercises(sub) -> None:
    p = sub.add_parser(
        "exercises", help=_("list exercises, show one, or write per-student sheets and the answer key"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=_("ltr-teach exercises list [--family F]\n"
                    "ltr-teach exercises show ID [--seed S]\n"
                    "ltr-teach exercises sheet --seeds 1-30 --out sheet.md --key key.md [ID ...]\n\n"
                    "A sheet holds one version of every exercise (or of the IDs given) per seed: one seed per "
                    "student. Give seeds with --seed S (repeatable: --seed 1 --seed 2) and/or --seeds with a range "
                    "or list (1-30, 3,5,8). --out sheet.md writes every seed's sheet into one file; an --out "
                    "containing {seed} (sheets/sheet-{seed}.md) writes one file per seed. --key writes the "
                    "teacher's key for all the seeds into one file. Without --out the sheets go to stdout.\n\n"
                    "Example, 30 students in one command:\n"
                    "  ltr-teach exercises sheet --seeds 1-30 --out 'sheet-{seed}.md' --key key.md"))
    actions = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    listing = actions.add_parser("list", help=_("every exercise id, by family"))
    listing.add_argument("--family", choices=list(_families()), help=_("list only this family"))
    show = actions.add_parser("show", help=_("print an exercise (a student's version with --seed)"))
    show.add_argument("ids", nargs="+", help=_("exercise ids"))
    show.add_argument("--seed", type=lambda t: _int(t, "--seed"), help=_("the student's seed"))
    sheet = actions.add_parser("sheet", help=_("one sheet per seed and the teacher's key"),
                               description=p.description, formatter_class=argparse.RawDescriptionHelpFormatter)
    sheet.add_argument("ids", nargs="*", help=_("a subset of exercise ids (default: all)"))
    sheet.add_argument("--seed", action="append", type=lambda t: _int(t, "--seed"),
                       help=_("a student's seed (repeatable)"))
    sheet.add_argument("--seeds", help=_("seeds as a range or list: 1-30, 3,5,8"))
    sheet.add_argument("--out", help=_("where to write the sheet(s); {seed} in the name gives one file per seed"))
    sheet.add_argument("--key", help=_("where to write the teacher's answer key"))
    sheet.add_argument("--exam", action="store_true",
                       help=_("write printable exam papers (HTML: one student per page, boxes for the answers, no "
                              "hints and no checker) instead of Markdown sheets; IDs may be family keys (dcg_ndcg)"))
    p.set_defaults(run=_exercises)


def _families():
    from .teaching.bank import FAMILY_KEYS  # the keys without the exercises (and SymPy): --help lists them

    return FAMILY_KEYS


def _add_eval(sub) -> None:
    from .metrics.registry import BULK_NAMES as METRIC_NAMES  # runs.evaluate's names, without NumPy

    def run(args) -> int:
        from .runs.evaluate import evaluate

        if args.explain is not None:
            return _explain_query(args)
        result = evaluate(args.qrels_file, args.run_file, args.metrics, convention=args.convention,
                          missing=args.missing, progress=True if args.progress else None, relevance_level=args.relevance_level,
                          judged_only=args.judged_only, depth=args.depth)
        print(result.table(per_query=args.per_query))
        _warn_ignored(result)
        return 0

    p = sub.add_parser("eval", help=_("evaluate a TREC run file against a qrels file, like trec_eval"),
                       description=_("Metrics: {names}, optionally @k (ndcg@10, p@5, iprec@0.3) and a .parameter "
                                     "(ndcg.1=3,2=9 per-grade gains, rbp.0.95 persistence); every registry name and "
                                     "alias works too (ap, precision@5). Conventions: {conventions}.").format(
                           names=", ".join(METRIC_NAMES), conventions=", ".join(CONVENTIONS)))
    p.add_argument("qrels_file", metavar="QRELS",
                   help=_("qrels file: qid iter docid grade (or .parquet/.arrow with columns query, doc, grade)"))
    p.add_argument("run_file", metavar="RUN",
                   help=_("run file: qid Q0 docid rank score tag (or .parquet/.arrow with columns query, doc, score)"))
    p.add_argument("-m", "--metric", dest="metrics", action="append", required=True,
                   help=_("a metric to compute; repeat for more (-m ndcg@10 -m map)"))
    p.add_argument("--per-query", action="store_true", help=_("print every query's values before the means"))
    p.add_argument("--convention", default="trec_eval", choices=list(CONVENTIONS),
                   help=_("whose conventions to follow (default trec_eval; see `ltr-teach conventions`)"))
    p.add_argument("--missing", choices=["skip", "zero"],
                   help=_("judged queries absent from the run: skip (trec_eval) or score 0 (trec_eval -c)"))
    p.add_argument("--progress", action="store_true",
                   help=_("draw progress bars on stderr (default: only when stderr is a terminal and the file is long)"))
    p.add_argument("-l", "--relevance-level", dest="relevance_level", type=lambda t: _int(t, "--relevance-level", -2**31, 2**31 - 1),
                   help=_("lowest grade counted relevant by the binary metrics (trec_eval -l; default 1)"))
    p.add_argument("-J", "--judged-only", dest="judged_only", action="store_true",
                   help=_("drop unjudged documents from the rankings first (trec_eval -J)"))
    p.add_argument("-M", "--depth", dest="depth", type=lambda t: _int(t, "--depth"),
                   help=_("evaluate only the top DEPTH documents of each ranking (trec_eval -M)"))
    p.add_argument("--explain", metavar="QUERY",
                   help=_("print QUERY's exact step table for each metric instead of the table of values: the "
                          "documents in the convention's tie order, their grades and the ideal list from the judged "
                          "pool"))
    p.set_defaults(run=run)


def _explain_query(args) -> int:
    from .runs.explain import explain_query

    if args.judged_only or args.depth is not None or args.missing is not None or args.per_query:
        raise UsageError(_("--explain shows one query as the convention ranks it: it takes no -J, -M, --missing or "
                           "--per-query"))
    for metric in args.metrics:
        print(explain_query(args.qrels_file, args.run_file, metric, args.explain, convention=args.convention,
                            relevance_level=args.relevance_level))
        print()
    return 0


def _tutorial(args) -> int:
    from .classroom.tutorial import copy_tutorial, lab_settings, run_until_interrupted, start_page

    try:
        done = copy_tutorial(args.folder)
    except OSError as exc:
        raise UsageError(f"cannot copy the tutorial into {args.folder}: {exc}") from None
    print(done.summary())
    page = start_page(args.lang, root=args.folder)
    command = [sys.executable, "-m", "jupyterlab", "--ip=127.0.0.1", f"--port={args.port}",
               f"--ServerApp.root_dir={os.path.abspath(args.folder)}", f"--LabApp.default_url=/lab/tree/{page}"]
    if args.lang is not None:
        command.append(f"--LabApp.user_settings_dir={lab_settings(args.folder, args.lang)}")
    if args.no_browser:
        command.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # containers run as root; JupyterLab refuses without it
        command.append("--allow-root")
    if args.copy_only:
        print(_("start it with: ltr-teach tutorial {folder}   (or open {page} in any Jupyter)").format(
            folder=args.folder, page=page))
        return 0
    print(_("starting JupyterLab on {url} (Ctrl+C stops it)").format(
        url=f"http://127.0.0.1:{args.port}/lab/tree/{page}"))
    return run_until_interrupted(command)  # Ctrl+C lets JupyterLab shut down (no stale jpserver-PID.json)


def _port(text: str) -> int:
    """A TCP port, 1 to 65535, read without building a huge number (``1e999999999`` is refused at once)."""
    if not re.fullmatch(r"[0-9]{1,5}", text.strip()) or not 1 <= int(text) <= 65535:
        raise UsageError(_("--port = {value} must be a whole number from 1 to 65535").format(value=repr(text[:40])))
    return int(text)


def _add_tutorial(sub) -> None:
    p = sub.add_parser(
        "tutorial", help=_("copy the tutorial and exercise notebooks into a folder and open JupyterLab on them"),
        description=_("Copy the tutorial (notebooks/) and the exercises (exercises/) that ship with ltr_teach, in "
                    "Chinese and in English, into FOLDER (default ./ltr_teach_tutorial) and open JupyterLab on the "
                    "page that offers both editions, or with --lang on that edition's first notebook. "
                    "Run it again to get a newer version: files you changed are kept, never overwritten."))
    p.add_argument("folder", nargs="?", default="ltr_teach_tutorial", help=_("where to put the notebooks"))
    p.add_argument("--lang", choices=["en", "zh"], default=None,
                   help=_("open this edition's first notebook: zh (中文) or en (default: the page offering both)"))
    p.add_argument("--port", type=_port, default=8888, help=_("JupyterLab's port (default 8888)"))
    p.add_argument("--no-browser", action="store_true",
                   help=_("do not launch a browser; JupyterLab prints the address to open"))
    p.add_argument("--copy-only", action="store_true", help=_("copy the notebooks and stop (no JupyterLab)"))
    p.set_defaults(run=_tutorial)


def _assign(args) -> int:
    from .classroom import assign

    try:
        done = assign(args.exercises, args.roster, args.out, course=args.course, name=args.name,
                      checks=not args.no_checks, lang=args.sheet_lang, partial=args.partial)
    except OSError as exc:
        raise UsageError(f"cannot write the assignment into {args.out}: {exc}") from None
    print(_("{n} notebook(s) in {students} (hand these out); the key and the assignment record in {key} (keep "
            "these)").format(n=len(done.students), students=os.path.join(args.out, "students"),
                             key=os.path.join(args.out, "key")))
    return 0


def _add_assign(sub) -> None:
    p = sub.add_parser(
        "assign", help=_("write one exercise notebook per student of a roster, and the teacher's key apart"),
        description=_("Write OUT/students/<id>.ipynb for every roster line, with the student's own numbers, and "
                    "OUT/key/ (assignment.json, key.md, key.csv) for the teacher. The roster is a CSV with a header: "
                    "id[,name][,seed]. A student's seed is the seed column, or else derived from --course and the id "
                    "(sha256 of 'COURSE/ID', modulo 1000000): choose a new --course per course and term."))
    p.add_argument("--exercises", required=True,
                   help=_("ids and/or families, comma-separated, each optionally :POINTS (ndcg-lipstick:2,err)"))
    p.add_argument("--roster", required=True, help=_("the roster CSV"))
    p.add_argument("--out", required=True, help=_("the output folder"))
    p.add_argument("--course", default="ltr_teach", help=_("the seed salt for this course and term"))
    p.add_argument("--name", default="Ranking evaluation exercises", help=_("the assignment's title"))
    p.add_argument("--no-checks", action="store_true",
                   help=_("no lt.check cell under the answers (for a test: students cannot check as they go)"))
    p.add_argument("--lang", dest="sheet_lang", choices=["en", "zh"], default=None,
                   help=_("the language of the sheets and of the feedback pages: zh (中文) or en"))
    p.add_argument("--partial", default="",
                   help=_("partial credit for near misses, as shares of the points: \"too coarse=1/2,slip=1/4\""))
    p.set_defaults(run=_assign)


def _grade(args) -> int:
    from .classroom import _shown, grade
    from .classroom.lms import fill_canvas_gradebook, fill_moodle_worksheet

    for option, path in (("--out", args.out), ("--report", args.report)):
        if path and os.path.exists(path) and not os.path.isfile(path):  # a FIFO would block the write
            raise UsageError(_("{option} = {path} exists and is not a regular file").format(
                option=option, path=_shown(repr(path))))
    book = grade(args.submissions, args.roster, assignment=args.assignment, id_pattern=args.id_pattern,
                 overrides=args.overrides)
    stem = args.out[:-4] if args.out.lower().endswith(".csv") else args.out
    exports, filled = {}, {}
    try:
        book.to_csv(args.out, bom=args.bom)
        if args.report:
            book.write_report(args.report)
        if args.canvas_gradebook:
            filled["canvas"] = fill_canvas_gradebook(book, args.canvas_gradebook, f"{stem}.canvas.csv",
                                                     lms_assignment=args.lms_assignment)
        if args.moodle_worksheet:
            filled["moodle"] = fill_moodle_worksheet(book, args.moodle_worksheet, f"{stem}.moodle.csv")
        for lms in dict.fromkeys(args.export or []):
            if lms in filled:  # the LMS's own file, filled in, is the one to upload
                continue
            exports[lms] = f"{stem}.{lms}.csv"
            book.export(exports[lms], lms, bom=args.bom, lms_assignment=args.lms_assignment)
        pages = book.write_feedback(args.feedback) if args.feedback else {}
    except OSError as exc:
        raise UsageError(_("cannot write the gradebook or the report: {error}").format(
            error=_shown(exc.strerror or exc))) from None
    right = sum(r.right for r in book.rows)
    print(_("{students} student(s), {right} of {answers} answers right; gradebook in {path}").format(
        students=len({r.student for r in book.rows}), right=right, answers=len(book.rows), path=args.out)
        + (_(", report in {path}").format(path=args.report) if args.report else ""))
    for lms, path in exports.items():
        print(_("  {lms} grade import: {path}").format(lms=lms, path=path))
    for lms, done in filled.items():
        print(_("  {lms}: your file with column {column} filled in for {n} student(s): {path}").format(
            lms=lms, column=_shown(done.column), n=len(done.filled), path=done.path))
        if done.unknown_rows:
            print(_("    {n} row(s) of your file are not students of this gradebook; left as they were").format(
                n=len(done.unknown_rows)))
        if done.not_in_file:
            print(_("    not in your file (give their LMS ids in the roster): {students}").format(
                students=", ".join(_shown(s) for s in done.not_in_file)))
        for note in done.notes:
            print(f"    {_shown(note)}")
    empty = book.ungraded()
    if empty and (exports or filled):
        print(_("  left empty (no grade, not 0) in the LMS files: {students}").format(
            students=", ".join(_shown(s) for s in empty)))
    late = [s for s, taken in book.submissions.items() if taken.late]
    if late:
        print(_("  late: {students}").format(students=", ".join(_shown(s) for s in late)))
    if args.feedback:
        print(_("  {n} feedback page(s) in {path}").format(n=len(pages), path=args.feedback))
    for who, problem in book.problems:
        print(f"  {_shown(who)}: {_shown(problem)}")
    return 0


def _add_grade(sub) -> None:
    p = sub.add_parser(
        "grade", help=_("grade returned notebooks (read, never run) into a gradebook CSV and a class report"),
        description=_("Read each submitted notebook as JSON (never run it), recheck every answer from the student's "
                    "seed in the assignment record, and write the gradebook CSV and an HTML class report. "
                    "Malformed, renamed, tampered or huge submissions are listed, not graded."))
    p.add_argument("submissions", nargs="+",
                   help=_("a folder of returned notebooks, the notebook files, or an LMS download (.zip)"))
    p.add_argument("--roster", required=True, help=_("the roster CSV the assignment was made from"))
    p.add_argument("--assignment", help=_("the record OUT/key/assignment.json (default: looked for in the "
                                        "submissions folder and its parent)"))
    p.add_argument("--out", required=True, help=_("the gradebook CSV to write"))
    p.add_argument("--report", help=_("the HTML class report to write"))
    p.add_argument("--id-pattern", dest="id_pattern",
                   help=_("a regular expression whose group 'id' (or first group) is the student id in a file's "
                          "path (default: an id of the record between separators, as LMS downloads name files)"))
    p.add_argument("--overrides", help=_("a CSV student,exercise,points,note whose points replace the graded ones"))
    p.add_argument("--feedback", metavar="DIR", help=_("write one HTML feedback page per student into DIR"))
    p.add_argument("--export", action="append", choices=["canvas", "moodle"],
                   help=_("also write the totals as that LMS's grade import CSV, beside the gradebook"))
    p.add_argument("--canvas-gradebook", dest="canvas_gradebook", metavar="EXPORT.csv",
                   help=_("your Canvas gradebook export: written back as OUT.canvas.csv with this assignment's column "
                          "filled in, every other cell as Canvas wrote it (import that file)"))
    p.add_argument("--moodle-worksheet", dest="moodle_worksheet", metavar="WORKSHEET.csv",
                   help=_("the assignment's Moodle grading worksheet: written back as OUT.moodle.csv with the grades "
                          "filled in, matched by the participant ids of Moodle's download"))
    p.add_argument("--lms-assignment", dest="lms_assignment", metavar="TITLE",
                   help=_("the assignment's column as the LMS names it, as in \"HW1 (12345)\" (Canvas matches the "
                          "id in parentheses; default: the assignment's title)"))
    p.add_argument("--bom", action="store_true",
                   help=_("write the CSV files as UTF-8 with a byte-order mark (for Excel)"))
    p.set_defaults(run=_grade)


def _warn_ignored(result) -> None:
    """Queries left out of the mean, said on stderr (the table on stdout stays trec_eval's)."""
    for note in result.notes:
        if not note.startswith("0 "):
            print(_("ltr-teach: warning: {note}").format(note=translate(note)), file=sys.stderr)


def _add_compare(sub) -> None:
    from .runs.choices import ALTERNATIVES, CORRECTIONS

    def run(args) -> int:
        from .runs.compare import compare_runs
        from .runs.trec import read_qrels

        names = [os.path.basename(path) for path in args.run_files]
        if len(set(names)) < len(names):
            names = list(args.run_files)
        if len(set(names)) < len(names):
            raise UsageError("a run file is given twice; compare different runs")
        from .runs.tables import as_mapping

        qrels = as_mapping(args.qrels_file, "qrels")  # a Parquet or Arrow file: read as a table
        if not isinstance(qrels, dict):
            qrels = read_qrels(qrels)
        for number, metric in enumerate(args.metrics):
            result = compare_runs(qrels, dict(zip(names, args.run_files)), metric, convention=args.convention,
                                  missing=args.missing, alternative=args.alternative, correction=args.correction,
                                  confidence=args.confidence, n_resamples=args.resamples, seed=args.seed)
            if number:
                print()
            print(result)
            if len(names) >= 3 or args.markdown or args.latex:  # which beats which, every pair corrected together
                from .runs.systems import compare_systems

                systems = compare_systems(qrels, dict(zip(names, args.run_files)), metric, correction=args.correction,
                                          convention=args.convention, missing=args.missing,
                                          n_resamples=args.resamples, seed=args.seed)
                print()
                print(systems)
                for path, text in ((args.markdown, systems.to_markdown), (args.latex, systems.to_latex)):
                    if path:
                        _write_report(path, text(), number)
            if args.per_query:
                for pair in result.pairs.values():
                    query, difference = _("query"), _("difference")  # outside the f-string: pybabel reads them
                    print(f"\n{query:<12}  {pair.baseline:>12}  {pair.run:>12}  {difference}")
                    for q, b, r, d in zip(pair.queries, pair.baseline_values, pair.run_values, pair.differences):
                        print(f"{q:<12}  {b:>12.4f}  {r:>12.4f}  {d:+.4f}")
        return 0

    p = sub.add_parser(
        "compare", help=_("is run B better than run A? paired significance tests over the queries"),
        description=_("Compare runs with the first (the baseline), query by query: wins/ties/losses, the mean "
                    "difference with a bootstrap confidence interval, the effect size d_z, the paired t-test, "
                    "Wilcoxon's signed-rank test and the randomisation test (exact up to 20 queries), p-values "
                    "adjusted (Holm by default) when several runs face the baseline."))
    p.add_argument("qrels_file", metavar="QRELS", help=_("qrels file: qid iter docid grade"))
    p.add_argument("run_files", metavar="RUN", nargs="+", help=_("run files; the first is the baseline"))
    p.add_argument("-m", "--metric", dest="metrics", action="append", required=True,
                   help=_("the metric to compare on (ndcg@10, map ...); repeat for more"))
    p.add_argument("--convention", default="trec_eval", choices=list(CONVENTIONS),
                   help=_("whose conventions to follow (default trec_eval)"))
    p.add_argument("--missing", choices=["skip", "zero"],
                   help=_("judged queries absent from a run: skip (trec_eval) or score 0 (trec_eval -c)"))
    p.add_argument("--alternative", default="two-sided", choices=list(ALTERNATIVES),
                   help=_("two-sided (default), greater: a run beats the baseline, less: it loses"))
    p.add_argument("--correction", default="holm", choices=list(CORRECTIONS),
                   help=_("adjustment for several runs against one baseline (default holm)"))
    p.add_argument("--confidence", type=lambda t: _fraction(t, "--confidence"), default=0.95,
                   help=_("of the bootstrap interval (default 0.95)"))
    p.add_argument("--resamples", type=lambda t: _int(t, "--resamples", 1, 10**7), default=9999,
                   help=_("bootstrap resamples and sampled sign flips (default 9999)"))
    p.add_argument("--seed", type=lambda t: _int(t, "--seed", 0, 2**63), default=0, help=_("seed of the resampling (default 0)"))
    p.add_argument("--per-query", action="store_true", help=_("also print every query's values and difference"))
    p.add_argument("--markdown", metavar="FILE",
                   help=_("write the report of every pair of runs as Markdown to FILE"))
    p.add_argument("--latex", metavar="FILE",
                   help=_("write the report table (each run's mean, marked with the runs it beats) as LaTeX to FILE"))
    p.set_defaults(run=run)


def _write_report(path: str, text: str, number: int) -> None:
    """Write one metric's report; a second metric's report is appended to the same file."""
    if os.path.exists(path) and not os.path.isfile(path):  # a FIFO would block the write until someone reads it
        raise UsageError(f"cannot write {path!r}: it is not a regular file")
    try:
        with open(path, "a" if number else "w", encoding="utf-8") as handle:
            handle.write(("\n" if number else "") + text)
    except OSError as exc:
        raise UsageError(f"cannot write {path!r}: {exc.strerror}") from None


def _fraction(text: str, name: str) -> float:
    value = parse_number(text, name)
    if not 0 < value < 1:
        raise UsageError(f"{name} = {_shown(text)} is out of range; it must lie strictly between 0 and 1")
    return float(value)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ltr-teach", description=_("Learn how rankings are evaluated, one exact step at a time."))
    # dest "language": the tutorial subcommand has its own --lang (which edition to copy), whose default would
    # overwrite a shared dest
    parser.add_argument("--lang", dest="language", choices=sorted(LANGUAGES),
                        help=_("the language of the output: zh (中文) or en (default: LTR_TEACH_LANG, then the locale)"))
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for add in (_add_explain, _add_listings, _add_eval, _add_compare, _add_check, _add_exercises, _add_tutorial,
                _add_assign, _add_grade):
        add(sub)
    return parser


def main(argv=None) -> int:
    """Entry point of the ``ltr-teach`` console script; returns the exit code."""
    try:
        # the help texts are written when the parser is built: the language must be known before parsing
        with using_language(_printable_language(_language_in(sys.argv[1:] if argv is None else argv))):
            args = build_parser().parse_args(argv)
            code = args.run(args)  # main() called in a process (tests) leaves the language as it was
            sys.stdout.flush()  # a full disk shows here, not in Python's exit-time flush (a traceback)
        return code
    except (UsageError, ValueError, TypeError) as exc:
        print(f"ltr-teach: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `ltr-teach errata | head` closed the pipe early: stop quietly
        _drop_stdout()
        return 0
    except OSError as exc:  # `ltr-teach examples > /dev/full`: standard output cannot be written
        _drop_stdout()
        print(f"ltr-teach: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        return 2


def _language_in(argv) -> str | None:
    """The value of the global ``--lang`` (before the subcommand), if it is a course language; None otherwise
    (the parser then reports a bad value, in the language LTR_TEACH_LANG or the locale gives)."""
    argv = [str(a) for a in argv]
    for i, arg in enumerate(argv):
        if not arg.startswith("-"):
            return None  # the subcommand: a --lang after it is the tutorial's own option
        value = arg.partition("=")[2] if arg.startswith("--lang=") else (
            argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else None)
        if value is not None:
            return value if value in LANGUAGES else None
    return None


#: Words of the Chinese edition: an output that cannot encode them cannot show it (GBK and UTF-8 can; ASCII,
#: Latin-1, cp1252 and Big5 cannot).
_CHINESE_SAMPLE = "正确应为提示排序相关文档"


def _printable_language(language: str | None) -> str | None:
    """``language`` (None: the current one), or English when standard output cannot encode Chinese.

    A Chinese edition printed to an ASCII or Latin-1 output (``LC_ALL=C`` with ``PYTHONUTF8=0``, a
    ``PYTHONIOENCODING=ascii`` pipe, a Western Windows code page) would stop at its first character with
    "codec can't encode"; English text is what such an output can show, and stderr says so in one line.
    A sign the output cannot encode is written as one it can (:data:`FALLBACKS`: ✓ as √ in GBK, as v in
    cp1252); whatever else it cannot encode (a document id in Chinese) as a ``\\u`` escape, instead of failing
    the command.
    """
    codecs.register_error(_ESCAPE, _escape)
    for stream in (sys.stdout, sys.stderr):  # Python's own error handlers of its standard streams, not a caller's
        if not _encodes(stream, "\U0010ffff") and getattr(stream, "errors", None) in _STANDARD_ERRORS:
            try:
                stream.reconfigure(errors=_ESCAPE)
            except (AttributeError, ValueError, OSError):  # pragma: no cover - a stream that is not a text file
                pass
    with using_language(language):
        if get_language() != "zh" or _encodes(sys.stdout, _CHINESE_SAMPLE):
            return language
    encoding = getattr(sys.stdout, "encoding", None)
    print(f"ltr-teach: note: the output's encoding ({encoding}) cannot show Chinese, so this is in English; "
          "set PYTHONIOENCODING=utf-8 for Chinese", file=sys.stderr)
    return "en"


_ESCAPE = "ltr_teach.escape"
_STANDARD_ERRORS = ("strict", "surrogateescape", "backslashreplace")


#: What an output that cannot encode a sign shows instead: the first of these its encoding has (GBK has √ and ×,
#: cp1252 and Latin-1 have ×, ASCII neither).
FALLBACKS = {"✓": ("√", "v"), "✗": ("×", "x"), "≈": ("~",), "−": ("-",), "→": ("->",), "≤": ("<=",), "≥": (">=",)}


def _escape(error: UnicodeEncodeError):
    """The error handler of an output that cannot encode everything: the bytes of a file name the system gave
    undecoded (surrogateescape, as Python's C locale does), a sign's :data:`FALLBACKS` the output can encode,
    a ``\\u`` escape for any other character."""
    failed = error.object[error.start:error.end]
    if all("\udc80" <= c <= "\udcff" for c in failed):
        return codecs.lookup_error("surrogateescape")(error)
    return "".join(_fallback(c, error.encoding) for c in failed), error.end


def _fallback(char: str, encoding: str) -> str:
    for candidate in FALLBACKS.get(char, ()):
        try:
            candidate.encode(encoding)
        except (UnicodeError, LookupError):
            continue
        return candidate
    return char.encode("ascii", "backslashreplace").decode("ascii")


def _encodes(stream, text: str) -> bool:
    """Whether ``stream`` can write ``text`` as it is (its encoding has every character)."""
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeError, LookupError):
        return False
    return True


def _drop_stdout() -> None:
    """Point stdout at /dev/null so that Python's flush at exit does not fail a second time."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - stdout without a descriptor (captured)
        pass


if __name__ == "__main__":
    sys.exit(main())
