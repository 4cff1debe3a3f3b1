# Two commands set up everything on a fresh machine with Python 3.11:
#   make demo   - create .venv, install, solve a bundled standard deck
#   make test   - create .venv, install, run the static checks, build the manual and run the test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo lint docs test test-slow bench clean

# pip's own chatter (the machine's index warnings, build-backend notices) goes to a
# log that is shown only when the install fails.  The hle extra (DeepMind's Hanabi
# Learning Environment, tests/test_hle.py) is an sdist built with CMake (a C++
# compiler, about 90 s): its cmake_minimum_required(2.8.11) needs
# CMAKE_POLICY_VERSION_MINIMUM=3.5 under CMake 4, which pip's isolated build fetches.
$(BIN)/hanabi-cp: pyproject.toml
	@echo "setting up $(VENV) (first run only; log in $(VENV)/install.log)"
	@$(PYTHON) -m venv $(VENV)
	@{ $(BIN)/pip install --upgrade pip \
		&& CMAKE_POLICY_VERSION_MINIMUM=3.5 $(BIN)/pip install -e '.[test,hle,docs]'; } \
		> $(VENV)/install.log 2>&1 || { cat $(VENV)/install.log; exit 1; }
	@touch $@

# The real-rules search's compiled copy (mypyc, hanabi_cp/runtime/compiled.py): the
# same code about three times faster.  Rebuilt whenever any module of the search changes;
# a failed build only leaves the pure-Python search in use, which gives the same answers.
CORE := hanabi_cp/real/methods/.compiled
$(CORE): $(wildcard hanabi_cp/real/methods/search/*.py) hanabi_cp/runtime/compiled.py $(BIN)/hanabi-cp
	@echo "compiling the real-rules search with mypyc (about a minute; log in $(VENV)/compile.log)"
	@$(BIN)/python -m hanabi_cp.runtime.compiled > $(VENV)/compile.log 2>&1 \
		|| { cat $(VENV)/compile.log; echo "the pure-Python search is used"; }
	@touch $@

# solve exits with 10 (winnable) / 20 (unwinnable), SAT-competition style: 10 is success here.
demo: $(BIN)/hanabi-cp $(CORE)
	@$(BIN)/hanabi-cp solve instances/standard-winnable-h2.txt --hand 2 --certificate - \
		|| test $$? -eq 10

# ruff and mypy of hanabi_cp/, configured in pyproject.toml; both run before every test run.
lint: $(BIN)/hanabi-cp
	$(BIN)/ruff check hanabi_cp
	$(BIN)/mypy

# The manual (mkdocs.yml, docs/): --strict makes a broken link, page or API reference an error.
docs: $(BIN)/hanabi-cp
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet -d site

# The tests run in parallel (pytest-xdist), one worker per core; TEST_WORKERS=0 runs
# them in this process.  --dist loadgroup keeps tests marked xdist_group on one worker.
TEST_WORKERS ?= auto
PYTEST := $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup

test: lint docs $(CORE)
	$(PYTEST)

test-slow: lint docs $(CORE)
	$(PYTEST) --runslow

bench: $(BIN)/hanabi-cp $(CORE)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build site *.egg-info $(CORE) hanabi_cp/*/*/_*_compiled*.so hanabi_cp/*/*/_*_compiled/
