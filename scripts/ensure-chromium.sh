#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (a browser download cannot work on these machines).
# Installs it with apt-get when /usr/bin/chromium is absent; needs root, as CI and the dev machines are.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
echo "Installing Debian's chromium (needed by the browser tests)..."
if [ "$(id -u)" -ne 0 ]; then
  echo "Run as root, or install the 'chromium' package yourself." >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version
