# Keydom: `make run` serves on http://127.0.0.1:8000 ; `make test` runs the whole suite.
# `make run` installs only what the server needs; the test tools (Playwright, schemathesis,
# hypothesis...) come with `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SERVER_STAMP := $(VENV)/.installed-server
STAMP := $(VENV)/.installed

.PHONY: run test bench clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(SERVER_STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e .
	touch $(SERVER_STAMP)

$(STAMP): pyproject.toml $(SERVER_STAMP)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(SERVER_STAMP)
	$(PY) -m app

test: $(STAMP)
	$(PY) -m pytest -q -n auto --dist loadfile app tests

bench: $(STAMP)
	$(PY) bench/rules_playouts.py
	$(PY) bench/load.py --games 50 --seats 4 --rate 200 --duration 10

clean:
	rm -rf $(VENV) keydom.db keydom.db-wal keydom.db-shm
