#!/usr/bin/env bash
# npm test: every check, one step after another, each printing how long it took; a failed step stops.
set -euo pipefail
cd "$(dirname "$0")/.."
step() {
  local start=$SECONDS
  echo "==> $*"
  "$@"
  echo "==> $*: $((SECONDS - start)) s"
}
# Under .ci/run, what ran before this script (the README's `npm ci`) is timed too.
[ -z "${CI_RUN_STARTED_AT:-}" ] || echo "==> npm ci: $(($(date +%s) - CI_RUN_STARTED_AT)) s"
step npm run test:prepare
step npm run typecheck
step npm run test:unit
step npm run test:e2e
step npm run test:node24
