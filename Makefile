# Two commands do all the set-up on a fresh machine (Python 3.11+):
#   make run    creates .venv, installs the bot, runs it (SQLite created and migrated on first start)
#   make test   creates .venv, installs the bot and its test tools, runs ruff and the test suite
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: run test lint bench clean

$(VENV)/.bot: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.test: $(VENV)/.bot
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@

run: $(VENV)/.bot
	$(PY) bot.py

test: $(VENV)/.test
	$(PY) -m ruff check .
	$(PY) -m pytest

lint: $(VENV)/.test
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
