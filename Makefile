# tabletally — every target installs what it needs on a fresh machine.
PY      ?= python3
VENV    ?= .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
CHROMIUM ?= /usr/bin/chromium

.PHONY: demo test test-all lint bench install browser clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Debian's chromium for the browser tests (Playwright's own browser download cannot work here).
browser:
	@if [ ! -x $(CHROMIUM) ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) \
	      || echo "warning: could not install chromium; browser tests will be skipped" >&2; \
	  else echo "warning: $(CHROMIUM) missing and not root; browser tests will be skipped" >&2; fi; \
	fi

## make demo: the whole pipeline on an embedded recorded game, served on http://127.0.0.1:5000
demo: $(STAMP)
	$(BIN)/tabletally serve --demo

## make test: the default (fast) test suite
test: $(STAMP) browser
	$(BIN)/python -m pytest -n 2 -q

## make test-all: including tests marked slow
test-all: $(STAMP) browser
	$(BIN)/python -m pytest -n 2 -q -m ''

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache
