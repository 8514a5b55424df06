# The two commands of the README. Both set everything up first (a virtualenv in .venv with pinned packages).
# make run ARGS="--port 9000" passes options to deltav serve.
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

# The main job: the online game server (rooms, bot seats, spectators; docs/server.md). It prints its URL.
# The bot-vs-bot demo of every game: $(VENV)/bin/deltav demo
run: $(STAMP)
	$(VENV)/bin/deltav serve $(ARGS)

# The whole default test suite (the slow bot gates run with: make test ARGS="-m slow").
test: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/pytest -n 2 $(ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks

bench: $(STAMP)
	$(VENV)/bin/python benchmarks/bench.py

clean:
	rm -rf $(VENV) build *.egg-info records deltav.db deltav.db-wal deltav.db-shm
