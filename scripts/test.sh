#!/usr/bin/env bash
# npm test: every check, one step after another; each step prints how long it took, and a summary
# of the steps' times ends the run (also when a step fails, which stops it).
set -euo pipefail
cd "$(dirname "$0")/.."
times=()
summary() {
  echo "==> npm test, step times:"
  printf '    %s\n' "${times[@]}"
}
trap summary EXIT
step() {
  local name="$1" start=$SECONDS
  shift
  echo "==> $name: $*"
  if ! "$@"; then
    times+=("$name: failed after $((SECONDS - start)) s")
    exit 1
  fi
  times+=("$name: $((SECONDS - start)) s")
  echo "==> $name: $((SECONDS - start)) s"
}
step prepare npm run test:prepare
step typecheck npm run typecheck
step unit npm run test:unit
step e2e npm run test:e2e
step node24 npm run test:node24
