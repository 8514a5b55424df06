#!/usr/bin/env bash
# What the tests need from the system, installed when missing (as root, with Debian's apt): Node.js and npm for
# the browser client, Debian's Chromium for the real-browser tests (Playwright drives /usr/bin/chromium; it
# cannot download browsers here), and PostgreSQL and Redis for the scale-out tests (tests/server/test_cluster.py
# starts its own scratch instances of both on free ports). `make test` calls it, `make run` with `node` (Node.js and npm only); it does
# nothing when everything is there.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
missing=()
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then missing+=(nodejs npm); fi
if [ "${1:-all}" != node ] && [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
if [ "${1:-all}" != node ]; then
  if ! command -v redis-server >/dev/null; then missing+=(redis-server); fi
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null; then missing+=(postgresql); fi
fi
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing ${missing[*]} and not root: install them first (apt-get install ${missing[*]})" >&2
    exit 1
  fi
  apt-get update -q
  apt-get install -y -q "${missing[@]}"
fi
