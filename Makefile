# Developer entry points. Everything runs inside .venv, built from pyproject.toml.

PYTHON_BOOTSTRAP := $(shell command -v python3.11 >/dev/null 2>&1 && echo python3.11 || echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.stamp

.PHONY: venv test test-quick play bench lint clean chromium serve

venv: $(STAMP)

# Rebuilt only when pyproject.toml changes (dependencies, entry points, package data).
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON_BOOTSTRAP) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e '.[dev,rl,ray]'
	touch $(STAMP)

test: venv chromium
	$(BIN)/ruff check src tests examples
	$(BIN)/python -m pytest -n 2

# The browser client's end-to-end tests drive Debian's chromium through Playwright
# (Playwright's own browser download does not work here). Installed only when missing.
chromium:
	test -x /usr/bin/chromium || (apt-get update && apt-get install -y chromium)

test-quick: venv chromium
	$(BIN)/ruff check src tests examples
	$(BIN)/python -m pytest -n 2 -m "not slow"

play: venv
	$(BIN)/rebelspace play

bench: venv
	$(BIN)/rebelspace bench --json

# The game server on http://127.0.0.1:8000/ (games kept in ./rebelspace-games.sqlite3).
serve: venv
	$(BIN)/rebelspace serve

lint: venv
	$(BIN)/ruff check src tests examples
	$(BIN)/mypy

clean:
	rm -rf build dist src/*.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis
