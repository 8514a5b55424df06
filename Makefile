# The two commands of the README. Both set everything up first (a virtualenv in .venv with pinned packages,
# and the browser client: Node packages from web/package-lock.json, built into src/deltav/web_static).
# make run ARGS="--port 9000" passes options to deltav serve.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
NODE_STAMP := web/node_modules/.installed
WEB_STAMP := src/deltav/web_static/build-info.json
WEB_SOURCES := $(shell find web/src web/static web/tools -type f 2>/dev/null) web/build.mjs \
	src/deltav/games/tactical/board.py src/deltav/games/tactical/data/map.json

.PHONY: system-deps node-deps run test setup lint bench clean web web-test types

$(NODE_STAMP): web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	touch $@

# the built client (the wheel carries it; setup.py builds it too when a wheel is made)
$(WEB_STAMP): $(NODE_STAMP) $(WEB_SOURCES)
	cd web && node build.mjs

web: $(WEB_STAMP)

$(STAMP): pyproject.toml setup.py $(NODE_STAMP)
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[dev,ray]'
	touch $(STAMP)

setup: $(STAMP) $(WEB_STAMP)

# Node.js, npm and Debian's Chromium, installed when missing (root only; see the script).
system-deps:
	bash scripts/system-deps.sh

node-deps:
	bash scripts/system-deps.sh node

# The main job: the online game server (rooms, bot seats, spectators; docs/server.md). It prints its URL.
# The bot-vs-bot demo of every game: $(VENV)/bin/deltav demo
run: node-deps setup
	$(VENV)/bin/deltav serve $(ARGS)

# The whole default test suite (the slow bot gates run with: make test ARGS="-m slow"). It includes the
# client's node tests and typecheck and the real-browser tests (tests/web; they need /usr/bin/chromium).
test: system-deps setup
	$(VENV)/bin/ruff check src tests benchmarks web/fixtures web/tools
	$(VENV)/bin/pytest -n 2 $(ARGS)

# The client's own checks only (hex maths against the engine's fixtures, strict typecheck, the layout check,
# the generated types up to date).
web-test: $(NODE_STAMP)
	cd web && npm test && npm run typecheck && node tools/check_layout.mjs
	PYTHONPATH=src $(VENV)/bin/python web/tools/gen_types.py --check

# Write the client's types from the Python side's JSON shapes (web/src/generated/*.ts; docs/web.md).
types: $(STAMP)
	PYTHONPATH=src $(VENV)/bin/python web/tools/gen_types.py

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks web/fixtures web/tools

bench: $(STAMP)
	$(VENV)/bin/python benchmarks/bench.py

clean:
	rm -rf $(VENV) build *.egg-info records web/node_modules web/.test-build deltav.db deltav.db-wal deltav.db-shm
	find src/deltav/web_static -mindepth 1 ! -name __init__.py -exec rm -rf {} +
