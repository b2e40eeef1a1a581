# The README's two commands: `make tutorial` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PORT   ?= 8888
BIN     = $(VENV)/bin

.PHONY: tutorial test browser-deps install-test clean catalogs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@

# JupyterLab serves the repository's root, so the tutorial (notebooks/) and the exercises
# (exercises/) are both reachable and the links between them work: the same layout
# `ltr-teach tutorial` copies. The start page is the default URL, so the address JupyterLab prints
# (for machines without a browser) opens the notebook too, not only the browser it launches. Root
# (containers, CI) needs --allow-root or JupyterLab refuses to start.
START_PAGE = /lab/tree/notebooks/00_start_here.ipynb
AS_ROOT    = $(if $(filter 0,$(shell id -u)),--allow-root)

# TUTORIAL_LANG (not LANG, which is the locale) picks the course's language: en or zh. It sets
# LTR_TEACH_LANG for the kernels (the library's messages, widgets, plots and checker) and JupyterLab's
# own language through a settings folder of the tutorial's: the translation plugin's locale, zh_CN
# from the jupyterlab-language-pack-zh-CN package (a dependency). A folder of its own, so the
# student's other JupyterLab settings are not changed.
TUTORIAL_LANG ?= en
LAB_LOCALE     = $(if $(filter zh,$(TUTORIAL_LANG)),zh_CN,en)
LAB_SETTINGS   = $(abspath $(VENV))/lab-settings-$(TUTORIAL_LANG)
TRANSLATION    = $(LAB_SETTINGS)/@jupyterlab/translation-extension/plugin.jupyterlab-settings

## tutorial: install the package and open JupyterLab (root: this folder) on notebooks/00_start_here.ipynb at 127.0.0.1:$(PORT); TUTORIAL_LANG=zh for Chinese
tutorial: $(VENV)/.installed
	@case "$(TUTORIAL_LANG)" in en|zh) ;; *) echo "make: TUTORIAL_LANG must be en or zh, got '$(TUTORIAL_LANG)'" >&2; exit 2;; esac
	@mkdir -p $(dir $(TRANSLATION))
	@printf '{"locale": "%s"}\n' $(LAB_LOCALE) > $(TRANSLATION)
	LTR_TEACH_LANG=$(TUTORIAL_LANG) $(abspath $(BIN))/jupyter lab --ip=127.0.0.1 --port=$(PORT) --ServerApp.root_dir=$(CURDIR) --LabApp.default_url=$(START_PAGE) --LabApp.user_settings_dir=$(LAB_SETTINGS) $(AS_ROOT)

## test: install the test extra and run every test
test: $(VENV)/.installed-test browser-deps
	$(BIN)/python -m pytest

## browser-deps: in CI (root), Debian's Chromium and a CJK font for tests/browser (Playwright comes
## from the test extra and drives this Chromium: no browser download)
browser-deps:
	@if [ -n "$$CI" ] && { [ ! -x /usr/bin/chromium ] || ! dpkg -s fonts-noto-cjk >/dev/null 2>&1; }; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-noto-cjk; \
	fi

## catalogs: extract the messages (ltr_teach/locale/ltr_teach.pot), update the zh_CN and en .po, compile the .mo
catalogs: $(VENV)/.installed-test
	$(BIN)/python tools/catalogs.py

clean:
	rm -rf $(VENV) build *.egg-info
