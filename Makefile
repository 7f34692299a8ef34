# Two commands do all the set-up on a fresh machine (Python 3.11+), plus one to try it offline:
#   make offline  creates .venv, installs the bot and the offline extra, plays in a browser (no Discord)
#   make run    creates .venv, installs the bot, runs it (SQLite created and migrated on first start)
#   make test   creates .venv, installs the bot and its test tools, runs ruff, mypy and the test suite
#   make browser-test   also installs Chromium and chromedriver (apt), then runs the browser test
#
# Installing says one line and nothing else unless something fails (pip -qq keeps its errors and
# drops setuptools' build notes); it runs again only when pyproject.toml changed.
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3
PIP := $(PY) -m pip install -qq --disable-pip-version-check
# apt-get needs root; anyone else goes through sudo.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test lint typecheck offline browser-test bench catalogs clean

$(VENV)/.bot: pyproject.toml
	@echo "Setting up $(VENV) (the first time takes a minute or two)…"
	@$(PYTHON) -m venv $(VENV)
	@$(PIP) --upgrade pip
	@$(PIP) -e .
	@touch $@

$(VENV)/.test: $(VENV)/.bot
	@echo "Installing the test tools…"
	@$(PIP) -e ".[test]"
	@touch $@

$(VENV)/.offline: $(VENV)/.bot
	@echo "Installing the offline page (SimCord's simulated Discord)…"
	@$(PIP) -e ".[offline]"
	@touch $@

# Exit status 2 means the bot could not start and has said why (no token, a setting to fix, an
# unknown game): make adds nothing to that. Any other failure is make's to report.
offline: $(VENV)/.offline
	@$(PY) bot.py --offline $(ARGS) || [ $$? -eq 2 ]

run: $(VENV)/.bot
	@$(PY) bot.py || [ $$? -eq 2 ]

# The suite runs on every core, a test file per worker (pytest-xdist): each test has its own
# database and SimCord world. `pytest -n 0` runs it in one process.
test: $(VENV)/.test
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(PY) -m pytest -n auto --dist loadfile

# The browser test (tests/browser: a whole game in the offline page, in headless Chromium). It is
# part of `make test` too, and skips there, saying why, where no browser is installed.
browser-test: $(VENV)/.test
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	  echo "Installing Chromium and chromedriver (Debian: chromium, chromium-driver)…"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	fi
	$(PY) -m pytest -q tests/browser

# Types: strict on rules/ and db/, mypy's default level on cogs/ and bot.py (pyproject.toml).
typecheck: $(VENV)/.test
	$(PY) -m mypy

# Measurements (SimCord drives the real bot, so the test extras are needed): make bench ARGS=--quick
bench: $(VENV)/.test
	$(PY) -m bench $(ARGS)

# The message catalogs (locales/) from the code: templates extracted, every language's catalog
# updated. `make test` checks they are in step (tests/texts).
catalogs: $(VENV)/.bot
	$(PY) -m cogs.texts update

lint: $(VENV)/.test
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
