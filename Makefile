# The README's two commands: `make tutorial` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PORT   ?= 8888
BIN     = $(VENV)/bin

.PHONY: tutorial test install-test clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@

## tutorial: install the package and open JupyterLab on notebooks/ at 127.0.0.1:$(PORT)
tutorial: $(VENV)/.installed
	cd notebooks && ../$(BIN)/jupyter lab --ip=127.0.0.1 --port=$(PORT) 00_start_here.ipynb

## test: install the test extra and run every test
test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) build *.egg-info
