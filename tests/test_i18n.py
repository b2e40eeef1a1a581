"""The message catalogues: complete, in step with the source, compiled, and used by the checker.

The rules (tools/catalogs.py regenerates the files; `make catalogs`):
* the .pot holds exactly the messages ``pybabel extract`` finds in ltr_teach/ today;
* zh_CN translates every one of them (a non-empty msgstr, never fuzzy), with no placeholder the
  English message does not have; en holds every one too, as the identity (empty msgstr or the id);
* each .mo is its .po compiled: gettext reads the same translations from both.
"""

import gettext
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

import ltr_teach as lt
from ltr_teach.core import i18n

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "ltr_teach" / "locale"
POT = LOCALE / "ltr_teach.pot"


def _po(lang):
    with open(LOCALE / lang / "LC_MESSAGES" / "ltr_teach.po", "rb") as fh:
        return read_po(fh)


def _ids(catalogue):
    return {m.id for m in catalogue if m.id}


def _catalogs_tool():
    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "tools" / "catalogs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def extracted_ids(directory: Path) -> set:
    """The message ids pybabel's extractor finds under ``directory`` with the project's babel.cfg and keywords."""
    method_map = [("**.py", "python")]  # babel.cfg's one section
    keywords = dict(DEFAULT_KEYWORDS)
    for spec in _catalogs_tool().KEYWORDS:  # "Column:2": the second argument of Column(...)
        name, _, index = spec.partition(":")
        keywords[name] = (int(index),)
    found = extract_from_dir(str(directory), method_map, keywords=keywords)
    return {message for _file, _line, message, _comments, _context in found if message}


def stale_ids(directory: Path, pot_ids: set) -> tuple:
    """(in the source, not the .pot), (in the .pot, not the source)."""
    found = extracted_ids(directory)
    return sorted(found - pot_ids), sorted(pot_ids - found)


def test_babel_cfg_is_the_method_map_the_tests_use():
    sections = re.findall(r"^\[(\w+): (.+)\]$", (ROOT / "babel.cfg").read_text(encoding="utf-8"), re.MULTILINE)
    assert sections == [("python", "**.py")]


def test_the_pot_is_up_to_date_with_the_source():
    with open(POT, "rb") as fh:
        pot = _ids(read_po(fh))
    new, gone = stale_ids(ROOT / "ltr_teach", pot)
    assert not new and not gone, f"run `make catalogs`: new messages {new}, messages no longer in the source {gone}"


def test_the_staleness_check_sees_a_new_and_a_removed_message(tmp_path):
    (tmp_path / "m.py").write_text('from x import _, N_\nA = N_("kept")\nprint(_("brand new"))\n'
                                   'C = Column("key", "a header")\n', encoding="utf-8")
    assert stale_ids(tmp_path, {"kept", "removed"}) == (["a header", "brand new"], ["removed"])


def test_every_message_has_a_chinese_translation():
    with open(POT, "rb") as template:
        pot, zh = _ids(read_po(template)), _po("zh_CN")
    assert _ids(zh) == pot
    untranslated = [m.id for m in zh if m.id and (not m.string or m.fuzzy)]
    assert not untranslated, f"zh_CN has no (or a fuzzy) translation for {untranslated}"


def test_the_english_catalogue_holds_every_message_as_itself():
    with open(POT, "rb") as template:
        pot, en = _ids(read_po(template)), _po("en")
    assert _ids(en) == pot
    assert [m.id for m in en if m.id and (m.fuzzy or m.string not in ("", m.id))] == []


def _fields(text):
    return {name for name in re.findall(r"(?<!\{)\{(\w*)\}", text)}


def test_chinese_placeholders_are_the_english_ones():
    # a {name} the English message lacks would raise KeyError when the sentence is filled in
    bad = [(m.id, m.string) for m in _po("zh_CN") if m.id and not _fields(m.string) <= _fields(m.id)]
    assert not bad
    for m in _po("zh_CN"):
        if m.id and _is_template(m.id):
            m.string.format(**{name: "X" for name in _fields(m.id)})  # every brace is a placeholder or doubled


def _is_template(text):
    """Whether ``text`` is a format template; a literal message (an erratum quoting 2^{R(j,m)}) is never formatted:
    ``i18n.Message`` without values shows its text as written."""
    try:
        text.format(**{name: "X" for name in _fields(text)})
    except (KeyError, IndexError, ValueError):
        return False
    return True


def test_a_literal_message_keeps_its_braces_in_both_languages():
    from ltr_teach.core.i18n import Message, using_language

    quoted = Message("1.3 NDCG: DCG_7 = Σ (2^{R(j,m)} − 1) / log(1+m) = 21.421516 (formula)")
    assert quoted == "1.3 NDCG: DCG_7 = Σ (2^{R(j,m)} − 1) / log(1+m) = 21.421516 (formula)"
    with using_language("zh"):
        assert i18n._(quoted) == "1.3 NDCG：DCG_7 = Σ (2^{R(j,m)} − 1) / log(1+m) = 21.421516（公式）"
    literal = [m.id for m in _po("zh_CN") if m.id and not _is_template(m.id)]
    assert all(_fields(m.string) == _fields(m.id) for m in _po("zh_CN") if m.id in literal)


@pytest.mark.parametrize("lang", ["zh_CN", "en"])
def test_each_mo_is_its_po_compiled(lang):
    with open(LOCALE / lang / "LC_MESSAGES" / "ltr_teach.mo", "rb") as fh:
        compiled = gettext.GNUTranslations(fh)._catalog
    compiled = {k: v for k, v in compiled.items() if k}  # "" is the header
    written = {m.id: m.string for m in _po(lang) if m.id and m.string and not m.fuzzy}
    assert compiled == written, "run `make catalogs` to recompile the .mo"


def test_set_language_overrides_the_environment_which_overrides_the_locale(monkeypatch):
    for variable in ("LTR_TEACH_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    lt.set_language(None)
    assert lt.get_language() == "en"  # no locale at all
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert lt.get_language() == "zh"
    monkeypatch.setenv("LC_ALL", "C.UTF-8")  # LC_ALL comes before LANG, as in gettext
    assert lt.get_language() == "en"
    monkeypatch.setenv("LTR_TEACH_LANG", "zh")
    assert lt.get_language() == "zh"
    monkeypatch.setenv("LTR_TEACH_LANG", "klingon")  # not a course language: ignored, the locale decides
    assert lt.get_language() == "en"
    monkeypatch.setenv("LTR_TEACH_LANG", "zh")
    lt.set_language("en")
    assert lt.get_language() == "en"
    assert i18n._("hint") == "hint"
    lt.set_language("zh_CN")
    assert lt.get_language() == "zh" and i18n._("hint") == "提示"


@pytest.mark.parametrize("bad", ["fr", "", 3, "chinese"])
def test_an_unknown_language_is_a_value_error_naming_it(bad):
    with pytest.raises(ValueError, match=r"language must be one of \['en', 'zh'\].*" + re.escape(repr(bad))):
        lt.set_language(bad)


def test_using_language_restores_the_choice():
    with i18n.using_language("zh"):
        assert lt.get_language() == "zh"
    assert lt.get_language() == "en"


LIPSTICK = [3, 2, 3, 0, 1, 2, 2]


def test_the_linear_gain_slip_is_diagnosed_in_chinese():
    # the slip reproduces the answer: NDCG@7 with gain = grade is 0.95479... (the library's own call with
    # gain="linear"; the right NDCG with 2^g - 1 is 0.944227, so 0.9548 can only come from the slip)
    assert round(float(lt.ndcg(LIPSTICK, k=7, gain="linear")), 4) == 0.9548
    assert round(float(lt.ndcg(LIPSTICK, k=7)), 4) == 0.9442
    lt.set_language("zh")
    feedback = lt.check("ndcg-lipstick", "0.9548")
    assert not feedback and feedback.mistakes == ("gain",)
    # a grade-3 item: 2^3 - 1 = 7 under exponential gain, 3 under linear gain
    assert feedback.diagnosis == ("你直接用相关性等级作为增益（线性增益）；本题的增益是 2^rel - 1，"
                                  "所以等级为 3 的结果增益是 7，而不是 3。")
    assert str(feedback).splitlines()[1].startswith("  可能的错误：")
    assert feedback.message == "不对：0.9548 不是 NDCG@7。"


def test_the_same_check_in_english_is_unchanged():
    feedback = lt.check("ndcg-lipstick", "0.9548")
    assert feedback.diagnosis.startswith("You used the grade itself as the gain (linear gain)")
    assert "likely mistake: " in str(feedback)


def test_feedback_labels_follow_the_language_when_shown():
    feedback = lt.check(lt.ndcg(LIPSTICK, k=7), "0.9548", reveal=True)  # made in English
    lt.set_language("zh")
    shown = str(feedback)
    assert "  可能的错误：" in shown and "  应为：" in shown and "likely mistake" not in shown
    assert "<b>应为：</b>" in feedback._repr_html_()


def test_hints_are_translated():
    lt.set_language("zh")
    feedback = lt.check(lt.precision_at_k([1, 0, 1], k=2), "0.3")  # no slip gives 3/10
    assert feedback.hint == "数出前 k 位中的相关文档，除以 k。"


def _cli(*args, lang_env=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    env.pop("LTR_TEACH_LANG", None)
    if lang_env:
        env["LTR_TEACH_LANG"] = lang_env
    return subprocess.run([sys.executable, "-m", "ltr_teach.cli", *args], capture_output=True, text=True, encoding="utf-8",
                          env=env,
                          cwd=ROOT, check=False)  # the callers assert on the exit code


def test_cli_lang_option_and_environment():
    zh = _cli("--lang", "zh", "check", "ndcg-lipstick", "0.9548")
    assert zh.returncode == 1 and "可能的错误：你直接用相关性等级作为增益" in zh.stdout
    env = _cli("check", "ndcg-lipstick", "0.9548", lang_env="zh")
    assert env.stdout == zh.stdout
    en = _cli("--lang", "en", "check", "ndcg-lipstick", "0.9548", lang_env="zh")
    assert "likely mistake: You used the grade itself" in en.stdout
    bad = _cli("--lang", "fr", "check", "ndcg-lipstick", "0.9548")
    assert bad.returncode == 2 and bad.stderr.startswith("ltr-teach: error: argument --lang: invalid choice: 'fr'")


def test_cli_main_leaves_the_language_as_it_was(capsys):
    from ltr_teach.cli import main

    assert main(["--lang", "zh", "check", "ndcg-lipstick", "0.944"]) == 0
    assert "正确" in capsys.readouterr().out
    assert lt.get_language() == "en"


def test_the_explanation_translates_when_shown_and_keeps_its_keys():
    ex = lt.ndcg(LIPSTICK, k=7)  # computed in English
    english = str(ex)
    lt.set_language("zh")
    chinese = str(ex)
    assert chinese.splitlines()[2].split() == ["位置", "等级", "增益", "折损", "增益/折损", "累计", "DCG", "理想等级",
                                               "理想", "增益/折损", "累计", "IDCG"]
    assert "<th style='text-align:right;padding:2px 8px'>折损</th>" in ex._repr_html_()
    # the numbers and the result line are the same in both languages; the keys stay English
    assert chinese.splitlines()[-1] == english.splitlines()[-1] == ex.result_line()
    assert [line.split() for line in english.splitlines()[4:11]] == [line.split() for line in chinese.splitlines()[4:11]]
    assert list(ex.steps[0]) == ["rank", "grade", "gain", "discount", "contribution", "dcg", "ideal_grade",
                                 "ideal_contribution", "idcg"]
    assert ex.to_dict() == lt.ndcg(LIPSTICK, k=7).to_dict()


def test_the_explanation_note_label_is_translated():
    ex = lt.recall_at_k([0, 0], k=2)  # no relevant document: a note
    lt.set_language("zh")
    assert [line for line in str(ex).splitlines() if line.startswith("注：")]


def test_the_widget_labels_legend_and_table_are_chinese():
    from ltr_teach.interactive.widgets import RankingEditor

    lt.set_language("zh")
    editor = RankingEditor(["小棕瓶眼霜", "面霜", "芦荟霜"], [3, 0, 1], metric="ndcg", k=3)
    assert {k: c.description for k, c in editor._controls.items()} == {
        "gain": "增益", "discount": "折损", "k": "k（截断位置）", "zero": "IDCG = 0 时取"}
    assert editor._rows[0]["up"].description == "上移" and editor._rows[0]["grade"].description == "等级"
    assert editor._rows[0]["grade"].tooltip == "小棕瓶眼霜 的等级（第 1 位）"
    assert "累计 DCG" in editor._legend.value and "<th style='text-align:right;padding:2px 8px'>理想等级</th>" \
        in editor.table.value
    editor.set_grade(1, 2)  # the table is drawn again, still in Chinese, with the new grade
    assert "理想等级" in editor.table.value
    editor._on_option("g_max", 7)  # refused (NDCG has no g_max): said in Chinese, the reason stays English
    assert editor._error.value.startswith("<span style='color:#b00'>未应用：")


def test_every_widget_and_plot_message_is_in_the_catalogue():
    # the widgets' and plots' literal labels are messages: the extractor finds them in the modules' source
    found = extracted_ids(ROOT / "ltr_teach" / "interactive")
    assert {"up", "down", "k (cut-off)", "DCG so far", "ROC curve", "not applied: {reason}", "post says"} <= found


@pytest.mark.parametrize("command", ["explain", "check", "eval", "compare", "exercises", "tutorial", "assign", "grade",
                                     None])
def test_cli_help_is_chinese_with_lang_zh(command, capsys):
    from ltr_teach.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["--lang", "zh", *[command][: bool(command)], "--help"])  # None: the top parser's help
    assert stop.value.code == 0
    chinese = capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([*[command][: bool(command)], "--help"])
    english = capsys.readouterr().out
    assert chinese != english and re.search(r"[\u4e00-\u9fff]{2}", chinese)
    assert chinese.startswith("用法：ltr-teach") and "  -h, --help" in chinese and "显示此帮助信息并退出" in chinese
    assert "show this help message and exit" in english and english.startswith("usage: ltr-teach")
    assert not re.search(r"[\u4e00-\u9fff]", english.replace("中文", ""))  # English help: only --lang's 中文
    assert lt.get_language() == "en"


@pytest.mark.parametrize(("argv", "language"), [
    (["--lang", "zh", "check"], "zh"), (["--lang=zh", "check"], "zh"), (["check", "--lang", "zh"], None),
    (["tutorial", "--lang", "zh"], None), (["--lang", "fr", "check"], None), (["--lang"], None), ([], None),
])
def test_the_global_lang_is_read_before_the_subcommand_only(argv, language):
    from ltr_teach.cli import _language_in

    assert _language_in(argv) == language


def test_the_tutorial_keeps_its_own_lang_option(tmp_path, capsys):
    from ltr_teach.cli import build_parser

    args = build_parser().parse_args(["--lang", "zh", "tutorial", "--lang", "en", str(tmp_path), "--copy-only"])
    assert (args.language, args.lang) == ("zh", "en")


def _make_tutorial_commands(tmp_path, *assignments):
    """The commands `make tutorial` would run (make -n: printed, not run), for a venv that is up to date."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").touch()
    (venv / ".installed").touch()  # newer than pyproject.toml: make prints no pip install
    done = subprocess.run(["make", "-n", "tutorial", f"VENV={venv}", *assignments], capture_output=True, text=True,
                          encoding="utf-8", cwd=ROOT, check=False)  # the callers assert on the exit code
    return done, venv


def test_make_tutorial_zh_selects_chinese_for_jupyterlab_and_the_kernels(tmp_path):
    done, venv = _make_tutorial_commands(tmp_path, "TUTORIAL_LANG=zh")
    assert done.returncode == 0, done.stderr
    settings = venv / "lab-settings-zh"
    assert f"""printf '{{"locale": "%s"}}\\n' zh_CN > {settings}/@jupyterlab/translation-extension/""" \
           "plugin.jupyterlab-settings" in done.stdout
    lab = next(line for line in done.stdout.splitlines() if "jupyter lab" in line)
    assert f"--LabApp.user_settings_dir={settings}" in lab
    # the kernels' language is the edition's (its folder's .ltr-teach-language), not an environment variable
    assert "LTR_TEACH_LANG" not in lab
    assert """start_page("zh" or None)""" in lab  # the Chinese edition's first notebook (classroom.START_PAGES)
    assert "--ServerApp.root_dir=" in lab  # the repository's root is still what JupyterLab serves
    both, _venv = _make_tutorial_commands(tmp_path / "both")
    assert "' en > " in both.stdout and """start_page("" or None)""" in both.stdout  # the page offering both
    refused, _venv = _make_tutorial_commands(tmp_path / "fr", "TUTORIAL_LANG=fr")
    assert "TUTORIAL_LANG must be zh, en or unset" in refused.stdout  # make -n prints the check; run, it exits 2


def test_jupyterlab_finds_the_chinese_language_pack():
    # the locale the Makefile selects is one JupyterLab's translation server can serve: the pack is installed
    from jupyterlab_server.translation_utils import get_language_pack, get_language_packs

    packs, message = get_language_packs("zh_CN")
    assert "zh_CN" in packs and not message
    strings, _message = get_language_pack("zh_CN")
    assert strings["jupyterlab"]["Edit"] == ["编辑"]  # JupyterLab's own Edit menu


def test_an_exercise_hint_is_shown_in_chinese():
    # 0.5 is no slip of the lipstick NDCG@7, so the exercise's first hint is shown
    lt.set_language("zh")
    feedback = lt.check("ndcg-lipstick", "0.5")
    assert not feedback.diagnosis and feedback.hint == "NDCG = DCG / IDCG；理想排序是 3, 3, 2, 2, 2, 1, 0。"
    lt.set_language("en")
    # the hint shown with a wrong answer is step 2 of the ladder, the procedure
    assert lt.check("ndcg-lipstick", "0.5").hint == lt.exercises.get("ndcg-lipstick").hints[1]
