"""Build hook: the wheel carries the tutorial as package data under ``ltr_teach/tutorial/``.

The notebooks live once, in the repository's ``notebooks/`` and ``exercises/`` folders (their links
to each other assume they are siblings). ``package-data`` can only name files inside the package,
so ``build_py`` copies the two folders into the built package; nothing is duplicated in the
repository. An editable install (or ``PYTHONPATH``) needs no copy: ``ltr_teach.classroom.tutorial``
reads the folders in place. Which folders make up the tutorial is read from that module's
``TUTORIAL_FOLDERS`` (by parsing it: the build environment has none of the package's dependencies).
Everything else is declared in ``pyproject.toml``.
"""

import ast
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def tutorial_folders() -> tuple:
    tree = ast.parse((HERE / "ltr_teach" / "classroom" / "tutorial.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "TUTORIAL_FOLDERS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise RuntimeError("ltr_teach/classroom/tutorial.py defines no TUTORIAL_FOLDERS")


class BuildPyWithTutorial(build_py):
    """The usual build, plus every notebook of the tutorial folders in ``ltr_teach/tutorial/``, with each
    edition's language file (``.ltr-teach-language``: a kernel started in ``notebooks/zh/`` speaks Chinese)."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for folder in tutorial_folders():
            for source in sorted((HERE / folder).rglob("*")):
                if not source.is_file() or not (source.suffix == ".ipynb" or source.name == ".ltr-teach-language"):
                    continue
                relative = source.relative_to(HERE)
                if ".ipynb_checkpoints" in relative.parts:
                    continue
                target = Path(self.build_lib, "ltr_teach", "tutorial", relative)
                self.mkpath(str(target.parent))
                self.copy_file(str(source), str(target))


setup(cmdclass={"build_py": BuildPyWithTutorial})
