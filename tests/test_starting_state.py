"""After Run All, every displayed widget is in the state it was displayed in (issue 13); the helper that checks
a notebook for it (tests/starting_state.py) and the record the widgets keep."""

from pathlib import Path

import ipywidgets as W
import nbformat
import pytest
from starting_state import widgets_changed_after_run_all

import ltr_teach as lt
from ltr_teach.interactive import starting_state

ROOT = Path(__file__).resolve().parents[1]


def test_a_widget_changed_after_display_is_listed_and_one_left_alone_is_not():
    starting_state.forget()
    untouched, touched = lt.ask("p-at-5"), lt.ask("dcg-append-item")
    for box in (untouched, touched):
        box._repr_mimebundle_()  # what Jupyter calls to display it
    assert starting_state.changed_since_display() == []
    touched.input.value = "fall"
    assert starting_state.changed_since_display() == ["dcg-append-item"]
    touched.input.value = None  # back to the starting state
    assert starting_state.changed_since_display() == []
    untouched.next_hint()  # a hint opened is a change too
    assert starting_state.changed_since_display() == ["p-at-5"]
    starting_state.forget()


def test_an_editor_registers_at_display_and_a_later_move_is_a_change():
    from ltr_teach.widgets import RankingEditor

    starting_state.forget()
    editor = RankingEditor(["a", "b", "c"], [3, 0, 2], metric="dcg")
    editor._repr_mimebundle_()
    # DCG of 3, 0, 2: 7/1 + 0 + 3/log2(4) = 7 + 3/2 = 17/2; the label is the editor as it was displayed
    shown = repr(editor)
    assert shown.endswith("DCG = 17/2 = 8.5>")
    assert starting_state.changed_since_display() == []
    editor.set_grade(1, 1)
    assert starting_state.changed_since_display() == [shown]
    starting_state.forget()


def test_a_widget_never_displayed_is_not_watched():
    starting_state.forget()
    slider = W.IntSlider(value=1)
    slider.value = 3
    assert starting_state.changed_since_display() == []


def test_the_notebook_helper_finds_the_cell_that_changed_a_displayed_widget(tmp_path):
    cells = ['import ltr_teach as lt',
             'first = lt.ask("p-at-5")\nfirst',
             'second = lt.ask("dcg-append-item")\nsecond',
             'second.input.value = "rise"  # a later cell answers the question shown above']
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    path = tmp_path / "demo.ipynb"
    nbformat.write(notebook, path)
    assert widgets_changed_after_run_all(path, timeout=120) == ["dcg-append-item"]
    notebook.cells.pop()  # without the last cell every widget keeps its starting state
    nbformat.write(notebook, path)
    assert widgets_changed_after_run_all(path, timeout=120) == []


# -- every tutorial, after Run All ---------------------------------------------------------------------
# The editions run the same code cells, so the English edition stands for both.
TUTORIALS = sorted((ROOT / "notebooks" / "en").glob("*.ipynb"))


def test_the_course_has_tutorials_to_check():
    assert len(TUTORIALS) >= 11


@pytest.mark.parametrize("path", TUTORIALS, ids=lambda p: p.stem)
def test_after_run_all_every_widget_of_a_tutorial_shows_its_starting_state(path):
    # issue 13: a student who scrolls up after Run All finds each editor and question as the text describes it
    assert widgets_changed_after_run_all(path) == []
