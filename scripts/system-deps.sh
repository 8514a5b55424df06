#!/usr/bin/env bash
# What the tests need from the system, installed when missing (as root, with Debian's apt): Node.js and npm for
# the browser client, and Debian's Chromium for the real-browser tests (Playwright drives /usr/bin/chromium; it
# cannot download browsers here). `make test` calls it, `make run` with `node` (Node.js and npm only); it does
# nothing when everything is there.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
missing=()
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then missing+=(nodejs npm); fi
if [ "${1:-all}" != node ] && [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing ${missing[*]} and not root: install them first (apt-get install ${missing[*]})" >&2
    exit 1
  fi
  apt-get update -q
  apt-get install -y -q "${missing[@]}"
fi
