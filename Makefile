# Two commands do all the set-up on a fresh machine (Python 3.11+), plus one to try it offline:
#   make offline  creates .venv, installs the bot and the offline extra, plays in a browser (no Discord)
#   make run    creates .venv, installs the bot, runs it (SQLite created and migrated on first start)
#   make test   creates .venv, installs the bot and its test tools, runs ruff, mypy and the test suite
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: run test lint typecheck offline bench clean

$(VENV)/.bot: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.test: $(VENV)/.bot
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@

$(VENV)/.offline: $(VENV)/.bot
	$(PY) -m pip install --quiet -e ".[offline]"
	touch $@

offline: $(VENV)/.offline
	$(PY) bot.py --offline $(ARGS)

run: $(VENV)/.bot
	$(PY) bot.py

test: $(VENV)/.test
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(PY) -m pytest

# Types: strict on rules/ and db/, mypy's default level on cogs/ and bot.py (pyproject.toml).
typecheck: $(VENV)/.test
	$(PY) -m mypy

# Measurements (SimCord drives the real bot, so the test extras are needed): make bench ARGS=--quick
bench: $(VENV)/.test
	$(PY) -m bench $(ARGS)

lint: $(VENV)/.test
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
