# Two commands set up everything on a fresh machine with Python 3.11:
#   make demo   - create .venv, install, solve a bundled standard deck
#   make test   - create .venv, install, run the static checks and the test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo lint test test-slow bench clean

$(BIN)/hanabi-cp: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	@touch $@

# solve exits with 10 (winnable) / 20 (unwinnable), SAT-competition style: 10 is success here.
demo: $(BIN)/hanabi-cp
	$(BIN)/hanabi-cp solve instances/standard-winnable-h2.txt --hand 2 --certificate - \
		|| test $$? -eq 10

# ruff and mypy of hanabi_cp/, configured in pyproject.toml; both run before every test run.
lint: $(BIN)/hanabi-cp
	$(BIN)/ruff check hanabi_cp
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

test-slow: lint
	$(BIN)/python -m pytest --runslow

bench: $(BIN)/hanabi-cp
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info
