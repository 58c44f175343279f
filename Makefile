# werkbank: the two commands are `make test` (everything, from a fresh clone) and `make serve` (build + dev server).
# Every target is idempotent; stamps keyed on the lock files make a second run fast.

SHELL := /bin/bash
# The venv's Python: CPython 3.12, the version Pyodide 0.27.7 runs, where this machine has one (on PATH, or a pyenv
# install), so that `werkbank grade` runs learner code as the browser does (recursion depth, syntax, standard
# library); else python3 (3.11 or newer).
ifeq ($(origin PYTHON),undefined)
PYTHON := $(or $(shell python3.12 -c 'import sys; print(sys.executable)' 2>/dev/null),$(lastword $(sort $(wildcard $(or $(PYENV_ROOT),$(HOME)/.pyenv)/versions/3.12*/bin/python3.12))),python3)
endif
VENV := .venv
VPY := $(VENV)/bin/python
SETUP_STAMP := $(VENV)/.werkbank-setup
NPM_STAMP := node_modules/.werkbank-npm
CHROMIUM ?= /usr/bin/chromium
# The oldest Node.js werkbank runs on: package.json's "engines" (">=N"), stated once there.
NODE_MIN := $(shell sed -n 's/^ *"node": *">=\([0-9][0-9]*\)".*/\1/p' package.json)
FIREFOX ?= /usr/bin/firefox-esr

.DEFAULT_GOAL := help
.PHONY: help tools setup chromium engines build serve test check lint format bench clean distclean

help:
	@echo "make setup     tools check, .venv (pip, pinned by requirements.lock), node_modules (npm ci)"
	@echo "make chromium  install Chromium for the browser tests if it is missing"
	@echo "make engines   install Firefox ESR, WebKitGTK's WebDriver + MiniBrowser and Xvfb (the engine walks) if missing"
	@echo "make build     write the static site to dist/"
	@echo "make serve     build, serve dist/ on http://127.0.0.1:8000/ (PORT=...), rebuild + reload pages on change"
	@echo "make test      setup + chromium + engines + build + the whole pytest suite"
	@echo "make check     lint every lesson and prove it in CPython and Pyodide (werkbank check)"
	@echo "make lint      ruff (Python) and Biome (JavaScript), lint and format checks, as make test runs them"
	@echo "make format    let ruff and Biome fix what they can (formatting, safe lint fixes)"
	@echo "make bench     measure boot and Check times in Chromium, Firefox and WebKit against stock Pyodide (tests/bench/run.py)"
	@echo "make clean     remove dist/ and test output; make distclean also removes .venv and node_modules"

# Which tools are missing, and exactly what to install.
tools:
	@missing=0; \
	if ! command -v node >/dev/null 2>&1; then \
	  echo "missing: node (Node.js $(NODE_MIN) or newer): apt-get install -y nodejs npm where the release has it, else https://nodejs.org/"; missing=1; \
	elif [ "$$(node -p 'process.versions.node.split(".")[0]')" -lt "$(NODE_MIN)" ]; then \
	  echo "too old: node is $$(node --version); werkbank needs Node.js $(NODE_MIN) or newer (package.json engines)"; missing=1; fi; \
	if ! command -v npm >/dev/null 2>&1; then \
	  echo "missing: npm. Debian/Ubuntu: apt-get install -y npm"; missing=1; fi; \
	if ! command -v $(PYTHON) >/dev/null 2>&1; then \
	  echo "missing: $(PYTHON) (Python 3.11 or newer). Debian/Ubuntu: apt-get install -y python3 python3-venv"; missing=1; \
	elif ! $(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then \
	  echo "too old: $(PYTHON) is $$($(PYTHON) -V 2>&1); werkbank needs Python 3.11 or newer (or run make PYTHON=python3.12 ...)"; missing=1; \
	elif [ ! -x $(VPY) ] && ! $(PYTHON) -c 'import ensurepip, venv' >/dev/null 2>&1; then \
	  echo "missing: Python's venv module. Debian/Ubuntu: apt-get install -y python3-venv"; missing=1; fi; \
	if [ $$missing = 1 ]; then echo "(make is present, since this ran.) Install the above, then run make again."; exit 1; fi; \
	version='import sys; print(*sys.version_info[:2])'; \
	if [ -x $(VPY) ] && [ "$$($(VPY) -c "$$version")" != "$$($(PYTHON) -c "$$version")" ]; then \
	  echo "$(VENV) runs Python $$($(VPY) -c "$$version"), $(PYTHON) is $$($(PYTHON) -c "$$version"): making $(VENV) again"; \
	  rm -rf $(VENV); fi

setup: tools $(SETUP_STAMP) $(NPM_STAMP)

$(SETUP_STAMP): pyproject.toml requirements.lock
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --disable-pip-version-check -c requirements.lock -e '.[test]'
	@touch $@

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

chromium:
	@if [ -x "$(CHROMIUM)" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
	  echo "Chromium is missing: installing it with apt-get"; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	else \
	  echo "Chromium is missing at $(CHROMIUM). Install it as root: apt-get update && apt-get install -y chromium"; \
	  echo "(or point CHROMIUM=/path/to/chromium at another build)"; exit 1; \
	fi

# Firefox (driven by puppeteer-core over WebDriver BiDi) and WebKit (WebKitWebDriver starts MiniBrowser, on an Xvfb
# display), Debian's builds: tests/engines/ walks a lesson in each, make bench measures them.
engines:
	@need=""; \
	[ -x "$(FIREFOX)" ] || need="$$need firefox-esr"; \
	[ -x /usr/bin/WebKitWebDriver ] || need="$$need webkit2gtk-driver"; \
	command -v Xvfb >/dev/null 2>&1 || [ -n "$$DISPLAY" ] || need="$$need xvfb"; \
	if [ -z "$$need" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
	  echo "missing:$$need: installing with apt-get"; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$need; \
	else \
	  echo "missing:$$need. Install as root: apt-get update && apt-get install -y$$need"; exit 1; \
	fi

build: setup
	$(VENV)/bin/werkbank build

serve: build
	$(VENV)/bin/werkbank serve --watch

test: setup chromium engines build
	CHROMIUM=$(CHROMIUM) FIREFOX=$(FIREFOX) WERKBANK_DIST=$(CURDIR)/dist $(VPY) -m pytest -q -n auto --dist loadfile --durations=25

check: setup
	$(VENV)/bin/werkbank check

lint: setup
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check . && node_modules/.bin/biome ci --error-on-warnings .

format: setup
	$(VENV)/bin/ruff check --fix . ; $(VENV)/bin/ruff format . ; node_modules/.bin/biome check --write .

bench: setup chromium engines
	$(VPY) tests/bench/run.py

clean:
	rm -rf dist test-results .pytest_cache

distclean: clean
	rm -rf $(VENV) node_modules
