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

## tutorial: install the package and open JupyterLab (root: this folder) on notebooks/00_start_here.ipynb at 127.0.0.1:$(PORT)
tutorial: $(VENV)/.installed
	$(abspath $(BIN))/jupyter lab --ip=127.0.0.1 --port=$(PORT) --ServerApp.root_dir=$(CURDIR) --LabApp.default_url=$(START_PAGE) $(AS_ROOT)

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
