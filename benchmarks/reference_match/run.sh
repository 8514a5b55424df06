#!/bin/sh
# Head to head on the reference Delta-V's engine: our bot:hard against its hard AI (docs/bots-tactical.md,
# "Head to head on the reference's engine").
#
#   benchmarks/reference_match/run.sh SCENARIO N [--seed S] [--json FILE] [--keep FILE] [--check] [--ruling NAME=VALUE]
#
# --keep FILE keeps the per-game records; --check replays every player-turn's movement in our engine and reports
# where it differs; --ruling overrides one of our rules options on top of translate.REFERENCE_RULINGS.
# Needs (nothing is installed or fetched here):
#   DELTAV_REFERENCE  a checkout of the reference Delta-V (commit 980bb957) with its node_modules holding tsx
#                     (e.g. `npm install --no-save --ignore-scripts tsx` in it)
#   node and npx      Node 20 or later on PATH
#   DELTAV_PYTHON     the Python with deltav's dependencies (default: .venv/bin/python of this checkout, else python3)
set -eu
usage() { echo "usage: $0 SCENARIO N [--seed S] [--json FILE] [--keep FILE] [--check] [--ruling NAME=VALUE]" >&2; exit 2; }
[ $# -ge 2 ] || usage
SCENARIO=$1; N=$2; shift 2
SEED=1; JSON=""; KEEP=""; EXTRA=""
while [ $# -gt 0 ]; do
  case $1 in
    --seed) SEED=$2; shift 2;;
    --json) JSON=$2; shift 2;;
    --keep) KEEP=$2; shift 2;;
    --check) EXTRA="$EXTRA --check"; shift;;
    --ruling) EXTRA="$EXTRA --ruling $2"; shift 2;;
    *) usage;;
  esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
if [ -z "${DELTAV_REFERENCE:-}" ]; then
  echo "set DELTAV_REFERENCE to a checkout of the reference Delta-V (commit 980bb957) with tsx installed in it" >&2
  exit 2
fi
if [ ! -f "$DELTAV_REFERENCE/src/shared/engine/game-engine.ts" ]; then
  echo "$DELTAV_REFERENCE does not look like the reference Delta-V (no src/shared/engine/game-engine.ts)" >&2
  exit 2
fi
if [ ! -x "$DELTAV_REFERENCE/node_modules/.bin/tsx" ]; then
  echo "no tsx in $DELTAV_REFERENCE/node_modules: run \`npm install --no-save --ignore-scripts tsx\` there" >&2
  exit 2
fi
command -v node >/dev/null || { echo "node (20 or later) is not on PATH" >&2; exit 2; }
PY=${DELTAV_PYTHON:-}
if [ -z "$PY" ]; then
  if [ -x "$ROOT/.venv/bin/python" ]; then PY="$ROOT/.venv/bin/python"; else PY=python3; fi
fi
case $PY in  # the driver runs in the reference's checkout: a relative path must not change meaning there
  */*) PY=$(cd "$(dirname "$PY")" && pwd)/$(basename "$PY");;
esac
case $KEEP in ""|/*) ;; *) KEEP=$(pwd)/$KEEP;; esac
OUT=${KEEP:-$(mktemp /tmp/deltav-h2h-XXXXXX.json)}
(cd "$DELTAV_REFERENCE" && ./node_modules/.bin/tsx "$HERE/driver.ts" --reference "$DELTAV_REFERENCE" \
  --scenario "$SCENARIO" --games "$N" --seed "$SEED" --python "$PY" --out "$OUT" --quiet $EXTRA)
if [ -n "$JSON" ]; then
  "$PY" "$HERE/report.py" "$OUT" --json "$JSON"
else
  "$PY" "$HERE/report.py" "$OUT"
fi
[ -n "$KEEP" ] || rm -f "$OUT"
