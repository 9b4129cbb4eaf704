# Developer entry points. Everything runs inside .venv, built from pyproject.toml with the exact
# versions of constraints.txt. Each target installs only what it needs: `make play` the core
# (the engine and the terminal game), `make serve` the server extra, `make test` everything.

PYTHON_BOOTSTRAP := $(shell command -v python3.11 >/dev/null 2>&1 && echo python3.11 || echo python3)
VENV := .venv
BIN := $(VENV)/bin
CONSTRAINTS := constraints.txt

# Where torch (the rl extra, so `make test`) comes from. On Linux the torch wheels on PyPI are
# CUDA builds of several GB; constraints.txt pins the CPU build (torch==2.13.0+cpu), which is
# found where pip is set up with a CPU wheel (as on this project's machines, whose pip has a
# local wheel folder) or with TORCH_INDEX, PyTorch's CPU index, added to the indexes pip reads:
#   make test TORCH_INDEX=https://download.pytorch.org/whl/cpu
TORCH_INDEX ?=
# The venv's editable install is the pure-Python build (REBELSPACE_PURE=1: no compiling, so
# `make play` stays quick); `make fast` compiles the engine in place (issue 30).
PIP_INSTALL := REBELSPACE_PURE=1 $(BIN)/python -m pip install --disable-pip-version-check -c $(CONSTRAINTS) $(if $(TORCH_INDEX),--extra-index-url $(TORCH_INDEX))

# One stamp per set of extras, each remade when pyproject.toml or constraints.txt changes.
# A larger set covers the smaller ones: after `make test`, `make play` installs nothing;
# after `make play`, `make test` adds what is missing.
CREATED := $(VENV)/.created
STAMP_CORE := $(VENV)/.stamp-core
STAMP_SERVER := $(VENV)/.stamp-server
STAMP_ALL := $(VENV)/.stamp-all
ALL_EXTRAS := dev,server,lab,rl,ray,bench

.PHONY: venv venv-core venv-server test test-quick play bench lint clean chromium axe-core js-deps js-check protocol-types postgresql serve constraints fast pure

# The full development environment (what `make test` uses).
venv: $(STAMP_ALL)
venv-core: $(STAMP_CORE)
venv-server: $(STAMP_SERVER)

# The venv's own pip (ensurepip's) is used as it is: upgrading it cost a download and a few
# seconds on every fresh clone, and any pip since 21.3 installs this project (PEP 660).
$(CREATED):
	test -x $(BIN)/python || $(PYTHON_BOOTSTRAP) -m venv $(VENV)
	touch $@

$(STAMP_CORE): pyproject.toml $(CONSTRAINTS) | $(CREATED)
	$(PIP_INSTALL) -e .
	touch $@

$(STAMP_SERVER): pyproject.toml $(CONSTRAINTS) | $(CREATED)
	$(PIP_INSTALL) -e '.[server]'
	touch $@ $(STAMP_CORE)

$(STAMP_ALL): pyproject.toml $(CONSTRAINTS) | $(CREATED)
	$(PIP_INSTALL) -e '.[$(ALL_EXTRAS)]'
	touch $@ $(STAMP_SERVER) $(STAMP_CORE)

# The terminal game: the core only (the engine is stdlib, the terminal game draws with Rich).
# It offers to resume your newest unfinished game; ARGS passes options on, for example
#   make play ARGS='--resume'   or   make play ARGS='--side imperial --level hard --new'
play: $(STAMP_CORE)
	$(BIN)/rebelspace play $(ARGS)

# The game server on http://127.0.0.1:8000/ (games kept in ./rebelspace-games.sqlite3).
serve: $(STAMP_SERVER)
	$(BIN)/rebelspace serve

# The compiled engine, in place: mypyc compiles the engine and the agents' hot loops (the list
# is setup.py's) into extension modules beside their sources, which Python then imports
# instead of the .py files; the same games, several times faster (docs/performance.md). Needs
# a C compiler and mypy (installed here if missing). Remade only when a compiled source
# changes; `make pure` removes the extension modules again.
COMPILED_STAMP := build/.stamp-compiled
COMPILED_SOURCES := setup.py buildtools/rebelspace_build.py $(shell find src/rebelspace/engine src/rebelspace/agents -name '*.py')
fast: $(COMPILED_STAMP)

$(COMPILED_STAMP): $(COMPILED_SOURCES) | $(STAMP_CORE)
	$(BIN)/python -c 'import mypyc' 2>/dev/null || $(PIP_INSTALL) mypy
	find src -name '*.so' -delete  # none left over from another list of compiled modules
	nice -n 10 $(BIN)/python setup.py -q build_ext --inplace
	@$(BIN)/python -c 'from rebelspace.build import build_kind; print("rebelspace:", build_kind(), "build in place")'
	touch $@

pure:
	find src -name '*.so' -delete
	rm -f $(COMPILED_STAMP)

# Every test, lint included, on the pure build; then the compiled build, compared with the pure
# one game for game (tests/compiled/), and given bad input of every kind (test_bad_input.py:
# the same typed errors on both builds). The compiled build stays in place afterwards.
# Installs every extra, and Debian's chromium for the browser tests (apt-get, so root on
# Debian; see chromium below).
test: $(STAMP_ALL) chromium js-deps js-check postgresql
	$(BIN)/ruff check src tests examples benchmarks
	$(BIN)/mypy
	$(MAKE) pure
	$(BIN)/python -m pytest -n 2
	$(MAKE) fast
	$(BIN)/python -m pytest -n 0 tests/compiled tests/test_build.py tests/engine/test_bad_input.py

# The browser client's end-to-end tests drive Debian's chromium through Playwright
# (Playwright's own browser download does not work here). Installed only when missing.
chromium:
	test -x /usr/bin/chromium || (apt-get update && apt-get install -y chromium)

# PostgreSQL for the server's store tests on both stores (tests/server/postgres.py starts a
# throwaway cluster as the unprivileged postgres user). Installed only when missing.
postgresql:
	test -x /usr/lib/postgresql/15/bin/initdb || (apt-get update && apt-get install -y postgresql)

# The npm packages pinned in tests/web/js/package-lock.json: axe-core for the accessibility
# tests (tests/web/axe.py), the game-icons.net set that buildtools/card_art.py draws the
# cards' art from (tests/test_card_art.py checks the shipped card-art.json against it), and
# the browser client's checks (js-check below): eslint with @eslint/js and globals, typescript,
# and json-schema-to-typescript (protocol-types below). Build and test inputs only: the
# package ships card-art.json and needs no npm. Fetched when any is missing (a checkout from
# before a package was pinned lacks it).
JS_NODE := tests/web/js/node_modules
JS_DEPS := $(JS_NODE)/axe-core/axe.min.js $(JS_NODE)/@iconify-json/game-icons/icons.json \
	$(JS_NODE)/eslint/package.json $(JS_NODE)/@eslint/js/package.json $(JS_NODE)/globals/package.json \
	$(JS_NODE)/typescript/package.json $(JS_NODE)/json-schema-to-typescript/package.json
js-deps:
	for f in $(JS_DEPS); do test -f $$f || { cd tests/web/js && npm ci --no-audit --no-fund; break; }; done
axe-core: js-deps

# The browser client's own checks, without a browser: eslint (recommended rules), tsc --noEmit
# over the // @ts-check modules (tests/web/js/tsconfig.json says which checks are on), and the
# pure modules' unit tests (node --test, tests/web/js/*.test.mjs). Run here only, not again by
# pytest. protocol.d.ts being up to date is tests/web/test_protocol_types.py's to check.
js-check: js-deps
	$(JS_NODE)/.bin/eslint --config tests/web/js/eslint.config.mjs src/rebelspace/web tests/web/js
	cd tests/web/js && node_modules/.bin/tsc -p .
	cd tests/web/js && node --test *.test.mjs

# Rewrite src/rebelspace/web/protocol.d.ts after a change to docs/protocol.schema.json.
protocol-types: js-deps
	cd tests/web/js && node protocol-types.mjs > ../../../src/rebelspace/web/protocol.d.ts

test-quick: $(STAMP_ALL) chromium js-deps js-check postgresql
	$(BIN)/ruff check src tests examples benchmarks
	$(BIN)/mypy
	HYPOTHESIS_PROFILE=quick $(BIN)/python -m pytest -n 2 -m "not slow"

# Engine speed, with the environments' figures (the rl extra).
bench: $(STAMP_ALL) fast
	$(BIN)/rebelspace bench --json

lint: $(STAMP_ALL)
	$(BIN)/ruff check src tests examples benchmarks
	$(BIN)/mypy

# Rewrite constraints.txt from the full environment's exact versions (after changing a range in
# pyproject.toml: `make venv`, upgrade what should move with pip, then `make constraints`).
constraints: $(STAMP_ALL)
	{ echo "# The exact versions \`make\` and CI install (pip install -c constraints.txt ...)."; \
	  echo "# Written by \`make constraints\` from the full environment: edit ranges in pyproject.toml."; \
	  echo "# torch is the CPU build (+cpu): PyPI's Linux torch is CUDA; see TORCH_INDEX in the Makefile."; \
	  $(BIN)/python -m pip freeze --all --exclude-editable | grep -iv '^\(pip\|rebelspace\)[ =@]'; } > $(CONSTRAINTS).new
	mv $(CONSTRAINTS).new $(CONSTRAINTS)
	touch $(STAMP_ALL) $(STAMP_SERVER) $(STAMP_CORE)

clean: pure
	rm -rf build dist src/*.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis
