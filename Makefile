# The README's two commands: `make tutorial` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PORT   ?= 8888
BIN     = $(VENV)/bin

.PHONY: tutorial test browser-deps install-test clean catalogs site

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@

$(VENV)/.installed-site: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[site]"
	touch $@

# JupyterLab serves the repository's root, so both editions of the tutorial (notebooks/zh/,
# notebooks/en/) and of the exercises (exercises/zh/, exercises/en/) are reachable and the links
# between them work: the same layout `ltr-teach tutorial` copies. The start page is the default URL,
# so the address JupyterLab prints (for machines without a browser) opens it too, not only the
# browser it launches. Root (containers, CI) needs --allow-root or JupyterLab refuses to start.
AS_ROOT    = $(if $(filter 0,$(shell id -u)),--allow-root)

# TUTORIAL_LANG (not LANG, which is the locale) picks the edition: unset, the page offering both
# editions; zh or en, that edition's first notebook. The start pages are listed once, in
# ltr_teach.classroom.START_PAGES. A notebook's kernel speaks its edition's language (the
# edition folder's .ltr-teach-language), whatever TUTORIAL_LANG is. TUTORIAL_LANG=zh also shows
# JupyterLab itself in Chinese through a settings folder of the tutorial's: the translation plugin's
# locale, zh_CN from the jupyterlab-language-pack-zh-CN package (a dependency). A folder of its own,
# so the student's other JupyterLab settings are not changed.
TUTORIAL_LANG ?=
LAB_LOCALE     = $(if $(filter zh,$(TUTORIAL_LANG)),zh_CN,en)
LAB_SETTINGS   = $(abspath $(VENV))/lab-settings-$(or $(TUTORIAL_LANG),both)
TRANSLATION    = $(LAB_SETTINGS)/@jupyterlab/translation-extension/plugin.jupyterlab-settings
START_PAGE     = $$($(abspath $(BIN))/python -c 'from ltr_teach.classroom import start_page; print(start_page("$(TUTORIAL_LANG)" or None))')

## tutorial: install the package and open JupyterLab (root: this folder) at 127.0.0.1:$(PORT) on the page offering both editions; TUTORIAL_LANG=zh (or en) opens that edition
tutorial: $(VENV)/.installed
	@case "$(TUTORIAL_LANG)" in ""|en|zh) ;; *) echo "make: TUTORIAL_LANG must be zh, en or unset, got '$(TUTORIAL_LANG)'" >&2; exit 2;; esac
	@mkdir -p $(dir $(TRANSLATION))
	@printf '{"locale": "%s"}\n' $(LAB_LOCALE) > $(TRANSLATION)
	$(abspath $(BIN))/jupyter lab --ip=127.0.0.1 --port=$(PORT) --ServerApp.root_dir=$(CURDIR) --LabApp.default_url=/lab/tree/$(START_PAGE) --LabApp.user_settings_dir=$(LAB_SETTINGS) $(AS_ROOT)

# The tests that build the website (Sphinx, every page) or the JupyterLite site (its own environment, Pyodide in
# Chromium): heavy builds, run by `make test-web` (and by .ci/run after `make test`) so `make test` stays under 25
# minutes on two cores.
WEB_TESTS = tests/browser/test_site_browser.py tests/browser/test_self_tests_browser.py tests/browser/test_lite.py

## test: install the test extra and run every test but the website's and JupyterLite's builds (make test-web)
test: $(VENV)/.installed-test $(VENV)/.installed-site browser-deps
	$(BIN)/python -m pytest $(foreach t,$(WEB_TESTS),--ignore=$(t))

## test-web: build the course website and the JupyterLite site and test them in Chromium (self-tests, search, links)
.PHONY: test-web
test-web: $(VENV)/.installed-test $(VENV)/.installed-site browser-deps
	$(BIN)/python -m pytest $(WEB_TESTS)

## lite: build the JupyterLite edition of both editions (Pyodide in the browser, nothing installed) into
## _build/lite; `make serve` serves it beside the website. See tools/build_lite.py. PYODIDE=FOLDER takes
## Pyodide from a local distribution instead of its CDN (a classroom without internet).
PYODIDE ?=
.PHONY: lite
lite: $(VENV)/.installed
	$(BIN)/python tools/build_lite.py $(if $(PYODIDE),--pyodide $(PYODIDE))

## serve: the website (make site) and the JupyterLite edition (make lite) from one server, so each page's
## "run it in the browser" link opens its notebook: open http://127.0.0.1:$(SERVE_PORT)/site/
SERVE_PORT ?= 8000
.PHONY: serve
serve:
	@echo "website: http://127.0.0.1:$(SERVE_PORT)/site/   JupyterLite: http://127.0.0.1:$(SERVE_PORT)/lite/"
	$(PYTHON) -m http.server $(SERVE_PORT) --bind 127.0.0.1 --directory _build

## browser-deps: in CI (root), Debian's Chromium and a CJK font for tests/browser (Playwright comes
## from the test extra and drives this Chromium: no browser download)
browser-deps:
	@if [ -n "$$CI" ] && { [ ! -x /usr/bin/chromium ] || ! dpkg -s fonts-noto-cjk >/dev/null 2>&1; }; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-noto-cjk; \
	fi

## catalogs: extract the messages (ltr_teach/locale/ltr_teach.pot), update the zh_CN and en .po, compile the .mo
catalogs: $(VENV)/.installed-test
	$(BIN)/python tools/catalogs.py

## site: the course website, both editions, from the saved notebooks (Sphinx + MyST-NB; MathJax from npm,
## installed once into site/node_modules) into _build/site: open _build/site/index.html, or serve the folder
site: $(VENV)/.installed-site site/node_modules/mathjax/package.json
	$(BIN)/python tools/build_site.py

site/node_modules/mathjax/package.json: site/package-lock.json
	cd site && npm ci --no-audit --no-fund --loglevel=error
	touch $@

clean:
	rm -rf $(VENV) build *.egg-info _build site/node_modules
