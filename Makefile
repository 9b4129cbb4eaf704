# Developer entry points. Everything runs inside .venv, built from pyproject.toml.

PYTHON_BOOTSTRAP := $(shell command -v python3.11 >/dev/null 2>&1 && echo python3.11 || echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.stamp

.PHONY: venv test test-quick play bench lint clean

venv: $(STAMP)

# Rebuilt only when pyproject.toml changes (dependencies, entry points, package data).
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON_BOOTSTRAP) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e '.[dev]'
	touch $(STAMP)

test: venv
	$(BIN)/ruff check src tests
	$(BIN)/python -m pytest -n 2

test-quick: venv
	$(BIN)/ruff check src tests
	$(BIN)/python -m pytest -n 2 -m "not slow"

play: venv
	$(BIN)/rebelspace play

bench: venv
	$(BIN)/rebelspace bench --json

lint: venv
	$(BIN)/ruff check src tests
	$(BIN)/mypy

clean:
	rm -rf build dist src/*.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis
