# Keydom: `make run` serves on http://127.0.0.1:8000 ; `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m app

test: $(STAMP)
	$(PY) -m pytest -q -n auto --dist loadfile app tests

bench: $(STAMP)
	$(PY) bench/rules_playouts.py
	$(PY) bench/load.py --games 50 --seats 4 --rate 200 --duration 10

clean:
	rm -rf $(VENV) keydom.db keydom.db-wal keydom.db-shm
