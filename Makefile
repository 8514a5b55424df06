# The two commands of the README. Both set everything up first (a virtualenv in .venv with pinned packages).
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: run test setup lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# The main job: a bot-vs-bot match of every game, with a readable summary and the saved records.
run: $(STAMP)
	$(VENV)/bin/deltav demo

# The whole default test suite (the slow bot gates run with: make test ARGS="-m slow").
test: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/pytest -n 2 $(ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks

bench: $(STAMP)
	$(VENV)/bin/python benchmarks/bench.py

clean:
	rm -rf $(VENV) build *.egg-info records
